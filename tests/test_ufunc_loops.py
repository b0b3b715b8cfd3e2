"""NumPy's own inner loops in compiled code (transpiler.ir.ufunc_loop,
backends/runtime/ufunc_loops.py): np.exp, np.sin, np.tanh... of float and complex scalars and
arrays give NumPy's bits exactly (libm, which Numba calls, differs in the last bit for many
values), compiled (no fallback), through one jitted object called with several types, in a
later process that loads Numba's cache, in a module converted by the command line, from
sixteen threads. Plain Python is the truth: values bit for bit (NaNs alike), types, dtypes."""
import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp
import ufunc_loop_functions as F

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def values(dtype, n=600, seed=0):
    """``n`` values of float ``dtype`` spread over the ranges where libm and NumPy's SIMD
    code differ most, with the edges (0, -0, inf, nan, subnormal, huge, domain edges)."""
    rng = np.random.default_rng(seed)
    finfo = np.finfo(dtype)
    edges = [0.0, -0.0, 1.0, -1.0, 0.5, np.inf, -np.inf, np.nan, finfo.tiny / 4, finfo.max,
             -finfo.max, 88.7, -103.9, 709.7, 1e-30, 3.0e38 if dtype == np.float32 else 1e300]
    body = np.concatenate([rng.standard_normal(n // 3) * 4, rng.uniform(-1, 1, n // 3),
                           rng.uniform(0, 60, n - 2 * (n // 3))])
    with np.errstate(all="ignore"):
        return np.concatenate([np.array(edges), body]).astype(dtype)


def same_bits(got, expected):
    """Equal values bit for bit (any NaN equals any NaN), equal dtypes and shapes."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype.kind == "c":
        same_bits(got.real, expected.real)
        same_bits(got.imag, expected.imag)
        return
    nan = np.isnan(expected)
    assert np.array_equal(np.isnan(got), nan)
    differ = np.flatnonzero((got != expected) & ~nan.ravel().reshape(nan.shape) |
                            (np.signbit(got) != np.signbit(expected)) & ~nan)
    assert differ.size == 0, (f"{differ.size} of {expected.size} differ, first at "
                              f"{differ[:5].tolist()}")


def compiled(fn, **options):
    """``tp.jit(fn)``, which must not fall back."""
    jitted = tp.jit(fn, **options)
    return jitted


def call(jitted, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("error", tp.FallbackWarning)
        return jitted(*args)


def plain(fn, *args):
    with np.errstate(all="ignore"):
        return fn(*args)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_unary_loop_ufunc_of_elements_bit_equal(dtype):
    a = values(dtype)
    out = np.zeros((len(F.UNARY), a.size), dtype)
    got = call(compiled(F.unary_elements), a, out.copy())
    expected = plain(F.unary_elements, a, out.copy())
    for row, name in enumerate(F.UNARY):
        try:
            same_bits(got[row], expected[row])
        except AssertionError as exc:
            raise AssertionError(f"np.{name} of {np.dtype(dtype).name}: {exc}") from None
    # the rows are NumPy's array results too (one loop, element or array)
    with np.errstate(all="ignore"):
        for row, name in enumerate(F.UNARY):
            same_bits(got[row], getattr(np, name)(a))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_binary_loop_ufunc_of_elements_bit_equal(dtype):
    a, b = values(dtype, seed=1), values(dtype, seed=2)[::-1].copy()
    out = np.zeros((len(F.BINARY), a.size), dtype)
    got = call(compiled(F.binary_elements), a, b, out.copy())
    expected = plain(F.binary_elements, a, b, out.copy())
    for row, name in enumerate(F.BINARY):
        try:
            same_bits(got[row], expected[row])
        except AssertionError as exc:
            raise AssertionError(f"np.{name} of {np.dtype(dtype).name}: {exc}") from None


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_loops_of_elements_bit_equal(dtype):
    real = values(np.float64, n=200, seed=3)[4:]
    a = (real[:100] + 1j * real[100:200]).astype(dtype)
    out = np.zeros((len(F.COMPLEX_UNARY), a.size), dtype)
    got = call(compiled(F.complex_elements), a, out.copy())
    expected = plain(F.complex_elements, a, out.copy())
    for row, name in enumerate(F.COMPLEX_UNARY):
        try:
            same_bits(got[row].real, expected[row].real)
            same_bits(got[row].imag, expected[row].imag)
        except AssertionError as exc:
            raise AssertionError(f"np.{name} of {np.dtype(dtype).name}: {exc}") from None


SCALARS = [np.float32(-2.5), np.float64(0.3), np.float32(88.5), np.float64(np.nan),
           np.float32(-0.0), np.uint16(7), np.int8(3), np.int64(-4), np.uint64(2 ** 64 - 1),
           np.bool_(True), np.float16(0.5), np.complex64(1 + 2j), np.complex128(-0.5 + 3j),
           1.5, 3, True, 2 + 1j, -0.0]


def test_scalars_of_every_type_through_one_jitted_object():
    jitted = tp.jit(F.scalar_exp)
    for order in (SCALARS, SCALARS[::-1]):
        for x in order:
            expected = plain(F.scalar_exp, x)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore", tp.FallbackWarning)   # float16: Python
                got = jitted(x)
            assert type(got) is type(expected), (x, got, expected)
            same_bits(got, expected)


@pytest.mark.parametrize("x,y", [(np.float32(0.7), np.float32(-2.0)), (np.float64(3.0), 0.25),
                                 (np.float32(1.5), 2), (2.5, np.float64(-1.0)),
                                 (np.uint16(7), 1.5), (np.int16(-3), np.float32(0.5))])
def test_scalar_calls_compile_and_equal(x, y):
    for fn in (F.scalar_tanh_sum, F.scalar_fmax):
        expected = plain(fn, x, y)
        got = call(compiled(fn), x, y)
        assert type(got) is type(expected)
        same_bits(got, expected)


@pytest.mark.parametrize("x,y", [(np.uint16(7), 1.5), (np.int32(3), 0.5), (np.uint8(200), 1.1),
                                 (np.int16(-2), np.float16(0.5)), (2, np.uint32(5))])
def test_numpy_scalar_power_by_numpy_power_loop(x, y):
    # NumPy's scalar ** converts to a float64 loop neither operand has: its power loop (not
    # libm's pow); compiled, where it fell back before
    expected = plain(F.scalar_power, x, y)
    jitted = tp.jit(F.scalar_power)
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        got = jitted(x, y)
    assert type(got) is type(expected)
    same_bits(got, expected)
    fell_back = any(issubclass(w.category, tp.FallbackWarning) for w in caught)
    assert fell_back == (np.float16 in (type(x), type(y))), [str(w.message) for w in caught]


_M = np.linspace(-3, 3, 12).reshape(3, 4)
ARRAY_CASES = [     # NumPy calls the loop once (its trivial iteration): compiled
    (np.linspace(-3, 3, 101, dtype=np.float32), np.float32(0.5)),
    (_M, 0.25),
    (_M.T, 0.25),                                                         # F-ordered
    (_M.T, _M.T.copy(order="F")),
    (np.arange(10, dtype=np.int16), np.float32(2.0)),                     # float32 loop
    (np.arange(10, dtype=np.int64), 2),                                   # float64 loop
    (np.linspace(-1, 1, 9, dtype=np.float32)[::2], np.linspace(0, 1, 5, dtype=np.float32)),
    (np.linspace(-1, 1, 9)[::-1], np.linspace(0, 1, 9)[::-3].repeat(3)[:9]),
    (np.array([1.5]), np.array(2.0)),                                     # 0-d: a scalar
    (np.zeros((0, 3), np.float32), np.float32(1.0)),                      # empty
    (np.array([1 + 2j, -0.5j, 3 + 0j], np.complex64), np.array([1.0, 2.0, 0.5], np.float32)),
]
NUMPY_CALL_CASES = [   # NumPy's iterator calls the loop several times: compiled code calls
    # NumPy's ufunc itself there (ufunc_loops._gj_numpy_call), no fallback
    (_M[:, ::2], 0.25),                                                   # not contiguous
    (_M, _M.T.copy()[:, :4].T.copy(order="F")[:3]),                       # C with F
    (np.linspace(-1, 1, 9), np.array([0.5])),                             # (9,) with (1,)
    (_M[::-1, ::-2], _M[:, ::-2]),                                         # reversed
    (_M, _M[0]),                                                           # 2-D with 1-D
    (_M.reshape(1, *_M.shape)[:, :, ::3], _M[:, ::3].T.copy().T),         # 3-D with 2-D
]


def _compare_whole_arrays(jitted, a, b):
    with np.errstate(all="ignore"):
        try:
            expected = F.whole_arrays(a, b)
        except TypeError:   # arctan2 of complex: NumPy has no loop
            with pytest.raises(TypeError), warnings.catch_warnings():
                warnings.simplefilter("ignore", tp.FallbackWarning)
                jitted(a, b)
            return None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = jitted(a, b)
    assert type(got) is type(expected)
    for g, e in zip(got, expected):
        assert type(g) is type(e)
        same_bits(g, e)
    return [str(w.message) for w in caught if issubclass(w.category, tp.FallbackWarning)]


@pytest.mark.parametrize("graph", [False, True], ids=["numba", "graph"])
def test_whole_array_calls(graph):
    tp.set_context(numpy_graph=graph)
    try:
        jitted = tp.jit(F.whole_arrays)
        for a, b in ARRAY_CASES:
            assert _compare_whole_arrays(jitted, a, b) in (None, []), (a, b)
        for a, b in NUMPY_CALL_CASES:
            assert _compare_whole_arrays(jitted, a, b) in (None, []), (a, b)
    finally:
        tp.set_context(numpy_graph=True)


def fmax_rows(a, b):
    return np.fmax(a, b)


def test_broadcast_arrays_of_two_ndims_are_numpys_call():
    # NumPy's float32 fmax picks the signed zero by its loop's path (SIMD body, scalar tail),
    # so by how its iterator splits the calls: found by the review (-0.0 where NumPy gives 0).
    # Compiled code calls NumPy's ufunc itself there (ufunc_loops._gj_numpy_call).
    tp.set_context(numpy_graph=False)
    try:
        a, b = np.full((5, 20), -0.0, np.float32), np.zeros(20, np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("error", tp.FallbackWarning)
            got = tp.jit(fmax_rows)(a, b)
        same_bits(got, fmax_rows(a, b))
        # the same for a 2-D array with a scalar: one call, NumPy's steps (0 for the scalar)
        same_bits(call(tp.jit(fmax_rows), np.full((2, 3), -0.0, np.float32), 0.0),
                  fmax_rows(np.full((2, 3), -0.0, np.float32), 0.0))
    finally:
        tp.set_context(numpy_graph=True)


def test_float16_loops_of_arrays_fall_back():
    # np.sin of int8/uint8/bool arrays is NumPy's float16 loop; compiled code would compute
    # in float32 (the review: a float32 result where NumPy's is float16)
    tp.set_context(numpy_graph=False)
    try:
        for a in (np.array([1, 2], np.int8), np.array([True, False]), np.array([7], np.uint8)):
            with pytest.warns(tp.FallbackWarning, match="float16 loop"):
                got = tp.jit(F.whole_arrays)(a, a)
            for g, e in zip(got, plain(F.whole_arrays, a, a)):
                same_bits(g, e)
    finally:
        tp.set_context(numpy_graph=True)


def sin_by_alias(x):
    f = np.sin
    return f(x)


def floor_divide_by_alias(x):
    m = np.floor_divide
    return m(x, -1)


@pytest.mark.parametrize("fn,x", [(sin_by_alias, np.float32(-1.1024116)),
                                  (sin_by_alias, np.linspace(-3, 3, 50, dtype=np.float32)),
                                  (floor_divide_by_alias, np.int8(-128))],
                         ids=["sin-scalar", "sin-array", "floor_divide-int8"])
def test_a_ufunc_held_by_a_local_takes_its_rules(fn, x):
    # `f = np.sin; f(x)` was Numba's np.sin (libm's last bit: found by the review)
    tp.set_context(numpy_graph=False)
    try:
        with np.errstate(all="ignore"):
            got, expected = call(tp.jit(fn), x), fn(x)
        assert type(got) is type(expected)
        same_bits(got, expected)
    finally:
        tp.set_context(numpy_graph=True)


def cbrt_hypot(a, out):
    for i in range(a.shape[0]):
        out[i] = np.cbrt(a[i]) + np.hypot(a[i], 2.0)
    return out


def test_loops_of_loop_ufuncs_run_in_parallel():
    a = np.linspace(-5, 5, 4096)
    jitted = tp.jit(cbrt_hypot, parallel=True)
    same_bits(call(jitted, a, np.zeros_like(a)), cbrt_hypot(a, np.zeros_like(a)))
    assert [r.status for r in jitted.explain().rows if r.region == "loop"] == ["parallel"]


def test_whole_array_call_in_a_loop_and_the_source_says_so():
    a = np.linspace(-2, 5, 50, dtype=np.float32).reshape(5, 10)
    jitted = tp.jit(F.whole_array_in_loop)
    same_bits(call(jitted, a, 3), plain(F.whole_array_in_loop, a, 3))
    assert "ufunc_loop(np.sin" in jitted.source()
    assert all(row.status == "compiled" for row in jitted.explain().rows)


def test_sixteen_threads_through_one_jitted_object():
    jitted = tp.jit(F.scalar_tanh_sum)
    inputs = [(np.float32(k / 7), np.float32(1 - k)) if k % 2 else (k / 3.0, -k / 5.0)
              for k in range(16)]
    expected = [plain(F.scalar_tanh_sum, *args) for args in inputs]
    results = [None] * 16
    barrier = threading.Barrier(16)

    def work(k):
        barrier.wait()
        for _ in range(20):
            results[k] = call(jitted, *inputs[k])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        assert type(got) is type(want)
        same_bits(got, want)


DRIVER = """
import json, sys, warnings
sys.path.insert(0, sys.argv[1])
import numpy as np
import transpiler as tp
import kern
compiled = tp.jit(kern.kernel, cache=True, fullgraph=True)
a = np.linspace(-3, 3, 301, dtype=np.float32)
got = compiled(a)
spec = compiled._plain[0]
print(json.dumps({"same": got.tobytes() == kern.kernel(a).tobytes(),
                  "hits": sum(spec.function.stats.cache_hits.values())}))
"""

KERNEL = """
import numpy as np

def kernel(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = np.tanh(a[i]) + np.hypot(a[i], np.float32(2.0))
    return out
"""


def test_a_later_process_loads_the_cached_code_and_calls_the_loops(tmp_path):
    # The loops' addresses differ per process: compiled code names them, and this module's
    # import registers them before Numba loads cached code (else: a null call, a crash).
    (tmp_path / "driver.py").write_text(DRIVER)
    (tmp_path / "kern.py").write_text(KERNEL)
    env = dict(os.environ, GRAPHJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
    results = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, str(tmp_path / "driver.py"), str(tmp_path)],
                              capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert results[0]["same"] and results[1]["same"]
    assert results[0]["hits"] == 0 and results[1]["hits"] >= 1


def test_standalone_source_runs_without_graphjit(tmp_path):
    # What a module converted by the command line embeds (numba_cpu.ufunc_loop_source in
    # standalone mode): it must import neither transpiler nor backends
    from backends.runtime.ufunc_loops import source
    text = source("uloop")
    assert not re.search(r"^\s*(import|from)\s+(transpiler|backends)", text, re.M)
    (tmp_path / "standalone.py").write_text(text + textwrap.dedent("""
        import numba
        import numpy as np

        @numba.njit(cache=True)
        def kernel(a, b):
            out = np.empty_like(a)
            for i in range(a.shape[0]):
                out[i] = uloop(np.tanh, a[i]) + uloop(np.hypot, a[i], b)
            return out, uloop(np.exp, a)
    """))
    code = textwrap.dedent(f"""
        import sys, json
        sys.modules['transpiler'] = None
        sys.modules['backends'] = None
        sys.path.insert(0, {str(tmp_path)!r})
        import numpy as np, standalone
        a = np.linspace(-3, 3, 301, dtype=np.float32)
        got, whole = standalone.kernel(a, np.float32(2.0))
        print(json.dumps({{"same": got.tobytes() == (np.tanh(a) + np.hypot(a, np.float32(2.0))
                                                    ).tobytes(),
                          "whole": whole.tobytes() == np.exp(a).tobytes()}}))
    """)
    for _ in range(2):      # the second process loads Numba's cache
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=300)
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout.strip().splitlines()[-1]) == {"same": True, "whole": True}


def test_eager_backend_and_ir_form_are_the_ufunc_call():
    from transpiler.ir import ufunc_loop
    x = np.float32(0.3)
    assert ufunc_loop(np.exp, x) == np.exp(x) and type(ufunc_loop(np.exp, x)) is np.float32
    jitted = tp.jit(F.scalar_tanh_sum, backend="eager")
    same_bits(jitted(np.float32(0.5), np.float32(2.0)),
              F.scalar_tanh_sum(np.float32(0.5), np.float32(2.0)))


def max_min_sign(a, b):
    return np.maximum(a, b), np.minimum(a, b), np.sign(a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_array_maximum_minimum_sign_by_numpy_loops(dtype):
    # Numba's array versions chose the other zero (np.maximum([0., -0.], [-0., 0.]),
    # np.sign(-0.0)): found by the review; NumPy's loops now
    tp.set_context(numpy_graph=False)
    try:
        a = np.array([0.0, -0.0, np.nan, 1.0, -np.inf, -0.0, 0.0, 2.0] * 5, dtype)
        b = np.array([-0.0, 0.0, 1.0, np.nan, -0.0, -0.0, 0.0, -3.0] * 5, dtype)
        jitted = tp.jit(max_min_sign)
        for x, y in ((a, b), (b, a), (a[::2], b[1::2]), (a.reshape(8, 5), b.reshape(8, 5)),
                     (a, dtype(-0.0)), (a, 0.0)):
            for g, e in zip(call(jitted, x, y), plain(max_min_sign, x, y)):
                same_bits(g, e)
    finally:
        tp.set_context(numpy_graph=True)



def alias_read_before(x):
    y = f(x)    # noqa: F821 - UnboundLocalError in Python, the point of the test
    f = np.sin
    return y


def alias_in_branch_first(x, n):
    if n:
        return f(x)    # noqa: F821
    f = np.sin
    return f(x)


@pytest.mark.parametrize("fn,args", [(alias_read_before, ()), (alias_in_branch_first, (1,)),
                                     (alias_in_branch_first, (0,))])
def test_an_alias_read_before_its_assignment_still_raises(fn, args):
    # the second review: the held function served a read before the assignment
    tp.set_context(numpy_graph=False)
    try:
        x = np.linspace(-1, 1, 5)
        jitted = tp.jit(fn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            try:
                expected = fn(x, *args)
            except UnboundLocalError:
                with pytest.raises(UnboundLocalError):
                    jitted(x, *args)
                return
            same_bits(jitted(x, *args), expected)
    finally:
        tp.set_context(numpy_graph=True)


def hypot_big_int(a):
    return np.hypot(a, 2 ** 60 + 2 ** 36 + 1), np.float32(1.5) + (2 ** 60 + 2 ** 36 + 1)


def test_a_python_int_meets_a_float32_loop_through_a_double():
    # NumPy converts a Python int to float32 through a C double (rounded twice); one int64
    # to float32 conversion rounds once: 1.1529216e+18 where NumPy gives 1.1529215e+18
    tp.set_context(numpy_graph=False)
    try:
        a = np.ones(3, np.float32)
        for g, e in zip(call(tp.jit(hypot_big_int), a), hypot_big_int(a)):
            assert type(g) is type(e)
            same_bits(g, e)
    finally:
        tp.set_context(numpy_graph=True)


def test_none_str_tuple_and_numbers_in_turn_through_one_jitted_object():
    # the rest of the input universe beside the numbers: NumPy's TypeError for None and str
    # (UFuncTypeError: a TypeError), an array for a tuple; the numbers before and after
    from reference import assert_same_outcome, outcome
    jitted = tp.jit(F.scalar_exp)
    calls = [None, np.float32(0.5), "s", (1.0, 2.5), 0.25, (np.float32(1.0),), np.complex64(1j),
             None, 3]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for x in calls:
            plain, args_plain = outcome(F.scalar_exp, (x,))
            got, args_got = outcome(jitted, (x,))
            assert_same_outcome(plain, args_plain, got, args_got)


def abs_in_loop(E, symbols):
    out = np.zeros(E.shape[0], dtype=np.int64)
    for i in range(E.shape[0]):
        out[i] = np.argmin(abs(E[i] - symbols) ** 2)
    return out, abs(E)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
def test_abs_of_arrays_compiles_as_numpy_absolute(dtype):
    """abs(array) is np.absolute (ndarray.__abs__): compiled, NumPy's loop for complex arrays
    (numpy-benchmarks' make_decision fell back: Numba has no builtin abs of arrays)."""
    values = np.array([-0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 3e38, -1e-40])
    E = (values + 1j * values[::-1]) if np.dtype(dtype).kind == "c" else values
    E = E.astype(dtype)
    symbols = E[[1, 2, 6]].copy()
    with np.errstate(all="ignore"):
        expected = abs_in_loop(E, symbols)
        got = tp.jit(abs_in_loop, fullgraph=True)(E, symbols)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.tobytes() == e.tobytes()
