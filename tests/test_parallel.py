"""jit(parallel=True): loops proved independent and unable to raise run as numba.prange, with
the plain call's values, dtypes, types, argument mutation and exceptions
(backends/parallel_cpu.py). Every kernel runs plain and compiled over a dtype matrix, at sizes
above and below the parallel threshold; the threshold is lowered in most tests so that the
small inputs run the parallel loop too.

The full matrix (every dtype of the universe) is ``make test-parallel``
(GRAPHJIT_PARALLEL_FULL=1); ``make test`` runs a sample.
"""
import copy
import os
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp
import parallel_functions as P
from reference import assert_same_outcome, outcome

import backends.parallel_cpu as parallel_cpu

FULL = os.environ.get("GRAPHJIT_PARALLEL_FULL") == "1"
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float32", "float64"]
SAMPLE_INT, SAMPLE_FLOAT = (INT_DTYPES, FLOAT_DTYPES) if FULL else (["int64", "uint8"],
                                                                     ["float64"])


@pytest.fixture
def low_threshold(monkeypatch):
    """Loops of 2 or more iterations run in parallel (the generated text changes, so these
    specializations are their own modules)."""
    for name in ("MIN_TRIP", "MIN_TRIP_CALLS", "MIN_TRIP_NESTED"):
        monkeypatch.setattr(parallel_cpu, name, 2)


def check(fn, *args, parallel=True, whole=True):
    """``fn`` plain and ``jit(fn, parallel=..., fullgraph=whole)`` agree; returns the
    JitFunction. ``whole=False``: a fallback is allowed (graphjit refuses the function for
    these types with or without ``parallel``), the answer must still be plain's."""
    compiled = tp.jit(fn, parallel=parallel, fullgraph=whole)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)    # NumPy's overflow warnings
        warnings.simplefilter("error" if whole else "ignore", tp.FallbackWarning)
        plain = outcome(fn, args)
        made = outcome(compiled, args)
    if plain[0][0] == "returned" and hasattr(plain[0][1], "__next__"):   # generators: items
        plain = (("returned", list(plain[0][1])), plain[1])
        made = (("returned", list(made[0][1])), made[1])
    assert_same_outcome(plain[0], plain[1], made[0], made[1])
    return compiled


def loop_rows(compiled):
    return [(row.status, row.reason) for row in compiled.explain().rows
            if row.region == "loop"]


def statuses(compiled):
    return [status for status, _ in loop_rows(compiled)]


def data(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(dtype)
    return (rng.random(n) * 10).astype(dtype)


# -- independent loops: parallel, equal to plain -----------------------------------------------

@pytest.mark.parametrize("dtype", SAMPLE_INT + SAMPLE_FLOAT)
def test_affine_equals_plain(dtype, low_threshold):
    a = data(dtype, 37)
    compiled = check(P.affine, a, np.zeros_like(a))
    assert statuses(compiled) == ["parallel"]
    assert "numba.prange" in compiled.source()


@pytest.mark.parametrize("dtype", SAMPLE_FLOAT + (["float32"] if not FULL else []))
def test_numpy_scalar_functions_equal_plain(dtype, low_threshold):
    a = data(dtype, 50) - 2     # negative elements: NumPy's nan, never an exception
    compiled = check(P.ufuncs, a, np.zeros_like(a))
    assert statuses(compiled) == ["parallel"]


@pytest.mark.parametrize("dtype", SAMPLE_INT + SAMPLE_FLOAT)
def test_stencil_equals_plain(dtype, low_threshold):
    a = data(dtype, 41)
    compiled = check(P.stencil, a, np.zeros_like(a))
    assert statuses(compiled) == ["parallel"]


def test_nested_loops_outer_parallel(low_threshold):
    a = data("float64", 30).reshape(5, 6)
    compiled = check(P.blur, a, np.zeros_like(a))
    assert statuses(compiled) == ["parallel"]
    X = data("float64", 24).reshape(8, 3)
    assert statuses(check(P.pairwise, X)) == ["parallel"]


@pytest.mark.parametrize("dtype", SAMPLE_INT)
def test_integer_reductions_exact(dtype, low_threshold):
    """int64: compiled, the reductions parallel. Narrower integers: `s = 0` then `s += x[i]`
    holds a Python int or an np.int8 by path, which graphjit refuses with or without
    parallel (a fallback): the answer is still plain's."""
    x = data(dtype, 1001)
    whole = dtype == "int64"
    compiled = check(P.int_sum, x, whole=whole)
    rows = loop_rows(compiled)
    if whole:
        assert rows[0][0] == "parallel" and "reductions s (+" in rows[0][1]
    check(P.count_and_max, x, x.dtype.type(3), whole=whole)
    check(P.multiples, x, whole=whole)
    compiled = check(P.product_mod, x, whole=whole)
    if whole:
        assert statuses(compiled) == ["parallel"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_fixed_width_sum_wraps_as_plain(dtype, low_threshold):
    """np.int32 accumulator: int32 wraps (large elements), wider dtypes promote as NumPy."""
    info = np.iinfo(dtype)
    x = np.full(200, info.max // 3 if info.max < 2 ** 40 else 2 ** 40, dtype=dtype)
    narrow = np.result_type(np.int32, dtype) == np.int32   # else int32 or int64 by path:
    compiled = check(P.typed_sum, x, whole=narrow)          # refused with or without parallel
    if narrow:
        (status, why), = loop_rows(compiled)[-1:]
        assert status == "parallel" and "s (+ as int32)" in why


def test_integer_sum_wraps_as_plain(low_threshold):
    """int64 elements whose sum wraps: NumPy's modular result in any order."""
    x = np.full(64, 2 ** 62, dtype=np.int64)
    check(P.int_sum, x)
    check(P.int_sum, np.zeros(0, dtype=np.int64))      # no iteration: the Python int 0
    check(P.count_and_max, np.array([5], dtype=np.int64), 1)


@pytest.mark.parametrize("start,step", [(0, 1), (3, 2), (1, 7), (50, 1), (0, 3)])
def test_runtime_start_and_step(start, step, low_threshold):
    a = data("int64", 40)
    assert statuses(check(P.strided, a, np.zeros_like(a), start, step)) == ["parallel"]


def test_float_sum_serial_unless_fast_reductions(low_threshold):
    x = data("float64", 5000)
    compiled = check(P.float_sum, x)
    (status, why), = loop_rows(compiled)
    assert status == "serial" and "fast-reductions" in why and "rounding" in why
    fast = tp.jit(P.float_sum, parallel="fast-reductions")
    got = fast(x)
    assert statuses(fast) == ["parallel"]
    assert type(got) is type(P.float_sum(x))
    assert got == pytest.approx(P.float_sum(x), rel=1e-12)


def test_default_threshold_small_loop_serial_large_parallel():
    """The real threshold: both sizes equal plain (the small one runs the serial twin)."""
    compiled = tp.jit(P.affine, parallel=True, fullgraph=True)
    for n in (10, parallel_cpu.MIN_TRIP + 5):
        a = data("float64", n)
        out1, out2 = np.zeros(n), np.zeros(n)
        np.testing.assert_array_equal(compiled(a, out1), P.affine(a, out2))
    assert f">= {parallel_cpu.MIN_TRIP}" in compiled.source()


# -- what must stay serial, and stay correct ---------------------------------------------------

def test_carried_dependence_serial(low_threshold):
    compiled = check(P.prefix, data("int64", 30))
    (status, why), = loop_rows(compiled)
    assert status == "serial" and "a[i - 1]" in why


def test_alias_through_arguments_stays_correct(low_threshold):
    """The loop is parallel in general; called with overlapping views of one array the
    run-time check (backends/runtime/parallel.py: apart) runs the serial twin."""
    x = data("float64", 64)
    compiled = tp.jit(P.shifted_copy, parallel=True, fullgraph=True)
    for _ in range(2):
        plain, mine = x.copy(), x.copy()
        P.shifted_copy(plain[1:], plain[:-1])
        compiled(mine[1:], mine[:-1])
        np.testing.assert_array_equal(mine, plain)
        plain, mine = x.copy(), x.copy()
        P.shifted_copy(plain[:-1], plain[1:])
        compiled(mine[:-1], mine[1:])
        np.testing.assert_array_equal(mine, plain)
    same = x.copy()
    compiled(same, same)
    np.testing.assert_array_equal(same, x * 2)
    assert statuses(compiled) == ["parallel"]


def test_overlapping_rows_of_one_array_serial(low_threshold):
    """A writable view whose first stride is 0: all "rows" are one element."""
    base = np.zeros(1)
    view = np.lib.stride_tricks.as_strided(base, shape=(8,), strides=(0,))
    a = np.arange(8.0)
    compiled = tp.jit(P.shifted_copy, parallel=True, fullgraph=True)
    plain_base = np.zeros(1)
    P.shifted_copy(a, np.lib.stride_tricks.as_strided(plain_base, shape=(8,), strides=(0,)))
    compiled(a, view)
    assert base[0] == plain_base[0] == 14.0


def test_scatter_and_raising_bodies_serial(low_threshold):
    idx = np.array([3, 1, 3, 0], dtype=np.int64)
    (status, why), = loop_rows(check(P.scatter, idx, np.zeros(5, dtype=np.int64)))
    assert status == "serial" and "out[idx[i]]" in why
    a, b = data("int64", 20), data("int64", 20, seed=1)
    b[7] = 0
    (status, why), = loop_rows(check(P.divide, a, b, np.zeros_like(a)))
    assert status == "serial" and "ZeroDivisionError" in why
    neg = data("float64", 20) - 5
    # math.sqrt's ValueError is deferred (backends/parallel_deferred.py): parallel, and the
    # raise and the stores before it are Python's (check compares them with the plain call)
    (status, why), = loop_rows(check(P.checked_sqrt, neg, np.zeros_like(neg)))
    assert status == "parallel" and "serial loop run again" in why


def test_index_past_the_end_raises_as_plain(low_threshold):
    a = data("float64", 10)
    compiled = check(P.too_far, a, np.zeros(12), 12)      # IndexError at i = 10
    assert statuses(compiled) == ["parallel"]
    check(P.too_far, a, np.zeros(12), 10)                 # in range: parallel, equal


def test_negative_index_and_last_value(low_threshold):
    a = data("float64", 20)
    check(P.wraps_negative, a, np.zeros_like(a))
    (status, why), = loop_rows(check(P.last_value, a, np.zeros_like(a)))
    assert status == "serial" and "read after the loop" in why


def test_inner_loop_parallel_in_serial_outer(low_threshold):
    a = data("float64", 50)
    compiled = check(P.time_steps, a, 3)
    assert statuses(compiled) == ["serial", "parallel"]


# -- calls: argument kinds, threads, settings --------------------------------------------------

def test_one_function_called_with_changing_kinds(low_threshold):
    compiled = tp.jit(P.int_sum, parallel=True)      # uint8 and float32 fall back
    for x in (data("int64", 20), data("uint8", 20), data("float64", 20), data("int32", 0),
              np.array([True, False, True]), data("float32", 20)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", tp.FallbackWarning)
            assert_same_outcome(*outcome(P.int_sum, (x,)), *outcome(compiled, (x,)))


def test_sixteen_threads_at_once(low_threshold):
    compiled = tp.jit(P.affine, parallel=True, fullgraph=True)
    a = data("float64", 20000)
    expected = P.affine(a, np.zeros_like(a))
    compiled(a, np.zeros_like(a))
    failures = []

    def work():
        for _ in range(20):
            out = compiled(a, np.zeros_like(a))
            if not np.array_equal(out, expected):
                failures.append(out)
    threads = [threading.Thread(target=work) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_settings_and_errors():
    with pytest.raises(ValueError, match="parallel"):
        tp.jit(P.affine, parallel="yes please")
    with pytest.raises(ValueError, match="parallel"):
        tp.set_context(parallel=2)
    tp.set_context(parallel=True)
    try:
        compiled = tp.jit(P.affine)
        a = data("float64", 30)
        compiled(a, np.zeros_like(a))
        assert statuses(compiled) == ["parallel"]
    finally:
        tp.set_context(parallel=False)
    serial = tp.jit(P.affine)
    serial(a, np.zeros_like(a))
    assert statuses(serial) == [] and "prange" not in serial.source()


def test_pickled_function_keeps_parallel():
    import pickle
    compiled = tp.jit(P.affine, parallel="fast-reductions")
    again = pickle.loads(pickle.dumps(compiled))
    assert again.parallel == "fast-reductions"
    assert copy.copy(compiled).parallel == "fast-reductions"


def test_runtime_checks_in_numba_and_python():
    """backends/runtime/parallel.py: the checks the versioned loops run, compiled and plain."""
    import numba
    from backends.runtime import parallel as R

    @numba.njit
    def compiled(a, b):
        return (R.extent(a, 0), R.extent(a, 1), R.extent(a, 5), R.extent((1, 2), 0),
                R.apart(a, b), R.rows_apart(a), R.apart(a[::2], b))
    a = np.zeros((4, 5))
    for b, apart in ((np.zeros(3), True), (a[1:], False), (a.T, False)):
        got = compiled(a, b)
        assert got == (4, 5, -1, -1, apart, True, apart)
        assert (R.extent(a, 0), R.apart(a, b), R.rows_apart(a)) == (4, apart, True)
    zero = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(3,), strides=(0,))
    assert R.rows_apart(zero) is False
    assert compiled(zero, a)[5] is False
    assert R.threadsafe() in ("omp", "tbb", None)


# -- the reference suite under parallel=True --------------------------------------------------

def _reference_cases():
    from test_reference_suite import CASES, CASE_IDS
    cases = list(zip(CASES, CASE_IDS))
    return cases if FULL else cases[::12]


@pytest.mark.parametrize("case", [c for c, _ in _reference_cases()],
                         ids=[i for _, i in _reference_cases()])
def test_reference_suite_under_parallel(case, low_threshold):
    """Every function of the reference suite (a sample; all of it in make test-parallel):
    parallel=True compiles what serial compiles, with plain's outcome."""
    fn, args = case
    serial = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outcome(serial, args)
    whole = not any(r.status == "python" for r in serial.explain().rows)
    check(fn, *args, whole=whole)


def test_whole_arrays_in_the_body_stay_serial(low_threshold):
    """Found by review: arrays used whole in a loop body (passed to a function, stored as a
    row, in an array expression) raced or lost their exceptions; they keep the loop serial."""
    a = np.arange(60.0).reshape(20, 3)
    for fn, args in ((P.whole_to_function, (a.copy(), np.arange(3.0))),
                     (P.row_store, (np.zeros((20, 3)), np.arange(4.0))),     # ValueError
                     (P.row_store, (np.zeros((20, 3)), np.arange(3.0))),
                     (P.whole_read, (np.zeros((20, 3)), np.arange(3.0)))):
        compiled = check(fn, *args, whole=False)
        assert statuses(compiled) == ["serial"], loop_rows(compiled)
    base = a.copy()
    compiled = tp.jit(P.whole_to_function, parallel=True)
    plain = a.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled(base, base[11])          # the argument is a row the loop stores to
    P.whole_to_function(plain, plain[11])
    np.testing.assert_array_equal(base, plain)


@pytest.mark.parametrize("arg", [
    np.arange(6, dtype=np.float16), np.arange(6) * (1 + 2j), np.arange(6).astype(np.complex64),
    np.ones(6, dtype=bool), (1.0, 2.0, 3.0), [1, 2, 3], None, "abc", 3, 2.5, 1 + 1j,
    np.float32(2.0), np.int8(3)], ids=lambda a: type(a).__name__ + str(getattr(a, "dtype", "")))
def test_other_kinds_of_argument(arg, low_threshold):
    """The rest of the universe through one parallel kernel: float16 and complex arrays,
    Python containers, None, str and scalars give plain's outcome (compiled or fallen back)."""
    out = np.zeros(6, dtype=getattr(arg, "dtype", np.float64))
    check(P.affine, arg, out, whole=False)
