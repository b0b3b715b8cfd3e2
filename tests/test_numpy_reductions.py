"""``a.sum()``, ``np.sum(a)``, ``a.mean()``, ``np.mean(a)`` of float and complex arrays in
compiled (Numba) code equal NumPy's bit for bit: NumPy adds pairwise
(transpiler/helpers/numpy_reductions.py), Numba in order (a float64 sum of 100,001 values
differed in the last digits, a float32 mean of 5,000 in the 8th). Arrays NumPy sums through
its iterator's buffers run again as Python; the eager backend and NumPy graphs keep NumPy's
own call."""
import os
import warnings

import numpy as np
import pytest

import transpiler as tp

# `make test-reductions` runs every dtype; `make test` a sample (each dtype compiles anew).
FULL = os.environ.get("GRAPHJIT_REDUCTIONS_FULL") == "1"


def _sample(dtypes, chosen):
    return dtypes if FULL else [d for d in dtypes if d in chosen]


def sum_in_loop(a):
    s = a.sum()
    for i in range(2):
        s = s + np.sum(a) * 0
    return s


def mean_in_loop(a):
    t = a.mean()
    for i in range(1):
        t = t + np.mean(a) * 0
    return t


def sum_of_rows(m):
    s = m.sum()
    for i in range(m.shape[0]):
        s = s + m[i].sum()
    return s


def sum_then_store(a, out):
    for i in range(out.shape[0]):
        out[i] = a.sum()
    return out


def straight_sum(a):
    return a.sum() / a.shape[0]


def _bits(value):
    return type(value), np.asarray(value).tobytes()


def _data(rng, shape, dtype):
    x = rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)
    return x.astype(dtype)


SIZES = list(range(0, 140)) + [255, 256, 257, 1000, 8191, 8192, 8193, 70001]


@pytest.mark.parametrize("dtype", _sample([np.float64, np.float32, np.complex128, np.complex64],
                                          (np.float32, np.complex128)))
def test_sum_of_every_size_and_1d_layout_is_numpys(dtype):
    rng = np.random.default_rng(7)
    jitted = tp.jit(sum_in_loop)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for n in SIZES:
            a = _data(rng, n, dtype)
            for view in (a, a[::-1], a[::3], a[1::2]):
                expected = sum_in_loop(view)
                assert np.asarray(jitted(view)).tobytes() == np.asarray(expected).tobytes(), (
                    dtype, n, view.strides)
    assert "numba-cpu" in str(jitted.explain())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_mean_is_numpys_with_its_type(dtype):
    rng = np.random.default_rng(8)
    jitted = tp.jit(mean_in_loop)
    for n in (1, 2, 7, 8, 9, 127, 128, 129, 5000, 70001):
        a = _data(rng, n, dtype)
        assert _bits(jitted(a)) == _bits(mean_in_loop(a)), (dtype, n)


@pytest.mark.parametrize("dtype", _sample([np.float64, np.float32, np.complex128],
                                          (np.float64,)))
def test_contiguous_nd_arrays_sum_in_memory_order(dtype):
    rng = np.random.default_rng(9)
    jitted = tp.jit(sum_of_rows)
    for shape in [(3, 5), (7, 40), (50, 300), (130, 130), (1, 9000), (300, 2)]:
        a = _data(rng, shape, dtype)
        for view in (a, np.asfortranarray(a), a.T):
            expected = sum_of_rows(view)
            assert np.asarray(jitted(view)).tobytes() == np.asarray(expected).tobytes(), (
                shape, view.strides)


def test_a_buffered_layout_runs_again_as_python():
    a = np.random.default_rng(10).standard_normal((40, 300))[:, ::2]
    with pytest.warns(tp.FallbackWarning, match="neither 1-D nor contiguous"):
        result = tp.jit(sum_of_rows)(a)
    assert _bits(result) == _bits(sum_of_rows(a))


def test_with_effects_a_buffered_layout_raises_loudly():
    a = np.random.default_rng(11).standard_normal((6, 8))[:, ::2]
    with pytest.raises(OverflowError, match="neither 1-D nor contiguous"):
        tp.jit(sum_then_store)(a, np.zeros(3))
    out = np.zeros(3)
    b = np.ascontiguousarray(a)
    assert np.array_equal(tp.jit(sum_then_store)(b, out), sum_then_store(b, np.zeros(3)))


def test_the_mean_of_an_empty_array_warns_and_gives_nan_as_numpy():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tp.jit(mean_in_loop)(np.zeros(0))
    assert np.isnan(result) and type(result) is np.float64
    assert any("Mean of empty slice" in str(w.message) for w in caught)


def test_eager_and_graph_paths_keep_numpys_own_call():
    a = np.random.default_rng(12).standard_normal(1001)
    eager = tp.jit(sum_in_loop, backend="eager")
    assert _bits(eager(a)) == _bits(sum_in_loop(a))
    assert "numpy_sum" not in str(eager.source())
    graph = tp.jit(straight_sum)
    assert _bits(graph(a)) == _bits(straight_sum(a))
    assert "numpy-graph" in str(graph.explain()) and "numpy_sum" not in str(graph.source())
    compiled = tp.jit(sum_in_loop)
    compiled(a)
    assert "numpy_sum" in str(compiled.source())


def test_integer_sums_keep_their_exact_path():
    a = np.arange(1000, dtype=np.int16)
    jitted = tp.jit(sum_in_loop)
    assert _bits(jitted(a)) == _bits(sum_in_loop(a))
    assert "numpy_sum" not in str(jitted.source())


def complex_total(z, times):
    acc = 0j
    for k in range(times):
        acc = acc + z.sum()
    return acc


def test_a_complex_accumulator_keeps_plains_box_on_every_path():
    # acc is the Python complex 0j when the loop does not run, an np.complex128 after it
    z = np.random.default_rng(13).standard_normal(99) + 1j
    jitted = tp.jit(complex_total)
    for times in (0, 1, 3, 0, 2):
        assert _bits(jitted(z, times)) == _bits(complex_total(z, times)), times


def builtin_extremes(a):
    n = 0
    for i in range(a.shape[0]):
        n += 1
    return max(a), min(a), n


def straight_max(a):
    return max(a)


DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("fn", [builtin_extremes, straight_max])
def test_builtin_max_min_of_1d_arrays_of_every_dtype_are_pythons(fn):
    # Python's max/min iterate: the first best by > (<), NaN kept only when first; an empty
    # array raises ValueError (compiled code raised StopIteration and returned Python floats)
    nan = float("nan")
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for dtype in DTYPES:
            values = [[], [3], [1, 0, 1], [0, 5, 2, 5]]
            if np.dtype(dtype).kind in "fc":
                values += [[nan, 1.0], [1.0, nan, 3.0], [-0.0, 0.0], [0.0, -0.0]]
            for v in values:
                a = np.array(v, dtype=dtype)
                expected, actual = _outcome(fn, a), _outcome(jitted, a)
                assert expected == actual, (dtype, v, expected, actual)


def _outcome(fn, a):
    try:
        result = fn(a)
    except Exception as exc:  # noqa: BLE001 - the exception type is the outcome
        return ("raised", type(exc))
    items = result if isinstance(result, tuple) else (result,)
    return tuple((type(x), np.asarray(x).tobytes()) for x in items)


def var_std_in_loop(a):
    n = 0
    for i in range(a.shape[0]):
        n += 1
    return a.var(), np.std(a), a.var(ddof=1), np.std(a, ddof=n - 1), a.mean(), n


def median_norm_in_loop(a):
    n = 0
    for i in range(a.shape[0]):
        n += 1
    return np.median(a), np.linalg.norm(a), a.sum(axis=0), n


INT_AND_FLOAT = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32,
                 np.uint64, np.float32, np.float64]


def _values(rng, n, dtype):
    if dtype is np.bool_:
        return rng.standard_normal(n) > 0
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(int(info.min), int(info.max), n, dtype=dtype, endpoint=True)
    return _data(rng, n, dtype)


@pytest.mark.parametrize("dtype", _sample(INT_AND_FLOAT, (np.bool_, np.uint64, np.float32)))
def test_var_std_mean_of_every_real_dtype_are_numpys(dtype):
    # NumPy's _methods._var/_mean: pairwise sums; integer arrays in float64 through buffers
    # of 8,192; ddof >= n warns in NumPy: the call runs again as Python there
    rng = np.random.default_rng(14)
    jitted = tp.jit(var_std_in_loop)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (1, 2, 9, 130, 8191, 8193, 20000):
            a = _values(rng, n, dtype)
            views = (a, a[::-2]) if FULL or dtype is np.float32 else (a,)
            for view in views:
                assert _outcome(jitted, view) == _outcome(var_std_in_loop, view), (dtype, n)


@pytest.mark.parametrize("dtype", _sample(INT_AND_FLOAT + [np.complex128],
                                          (np.int16, np.float64, np.complex128)))
def test_reductions_numba_computes_otherwise_do_not_compile_there(dtype):
    rng = np.random.default_rng(15)
    jitted = tp.jit(median_norm_in_loop)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in (0, 1, 7, 1000):
            a = _values(rng, n, dtype)
            assert _outcome(jitted, a) == _outcome(median_norm_in_loop, a), (dtype, n)
    assert any(issubclass(w.category, tp.FallbackWarning) and "median()" in str(w.message)
               for w in caught)


def test_one_jitted_object_through_kinds_and_threads():
    # history: arrays of several dtypes, then values the helpers never see (None, str, tuple,
    # a scalar), then arrays again; and 8 threads calling it at once
    from reference import errors_in_threads
    rng = np.random.default_rng(16)
    jitted = tp.jit(var_std_in_loop)
    inputs = [_values(rng, 300, d) for d in (np.float64, np.int8, np.float32)] + [
        None, "abc", (1.0, 2.0), np.float32(2.5)] + [_values(rng, 50, np.uint16),
                                                      _data(rng, 77, np.float64)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a in inputs:
            assert _outcome(jitted, a) == _outcome(var_std_in_loop, a), type(a)

        def work(k):
            a = inputs[k % 3]
            for _ in range(5):
                assert _outcome(jitted, a) == _outcome(var_std_in_loop, a)
        errors = errors_in_threads(work, 8)
    assert not errors, errors
