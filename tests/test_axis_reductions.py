"""Reductions along one axis of a 2-D array in compiled code (Numba), equal to NumPy's bits:
``sum``, ``mean``, ``var``, ``std``, ``max``, ``min`` with ``axis`` and ``keepdims``
(transpiler.helpers.numpy_axis_reductions), over dtypes x layouts x shapes; what the helpers
do not decide (NaN or signed-zero ties of max/min, empty slices, reversed views, ddof >= n)
runs again as Python and equals plain too."""
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler.helpers import numpy_axis_reductions as R
from transpiler.settings import CONTEXT


@pytest.fixture
def numba_only():
    """Straight-line code compiled by Numba (no NumPy graph), no tiers."""
    saved = dict(CONTEXT)
    tp.set_context(numpy_graph=False, tiers=False)
    try:
        yield
    finally:
        CONTEXT.clear()
        CONTEXT.update(saved)


def _layouts(a):
    yield "C", a
    yield "F", np.asfortranarray(a)
    yield "rows-strided", np.repeat(a, 2, axis=0)[::2]
    yield "cols-strided", np.repeat(a, 2, axis=1)[:, ::2]
    yield "reversed", a[::-1]
    yield "transposed", np.ascontiguousarray(a.T).T


def _same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True)
    assert (np.signbit(got) == np.signbit(want)).all()


def sum0(a):
    return a.sum(axis=0)


def sum1k(a):
    return a.sum(axis=1, keepdims=True)


def np_sum_neg(a):
    return np.sum(a, axis=-1)


def mean0k(a):
    return a.mean(axis=0, keepdims=True)


def np_mean1(a):
    return np.mean(a, 1)


def var1(a):
    return a.var(axis=1)


def std0_ddof1(a):
    return a.std(axis=0, ddof=1)


def max1k(a):
    return a.max(axis=1, keepdims=True)


def np_min0(a):
    return np.min(a, axis=0)


def amax_neg2(a):
    return np.amax(a, axis=-2)


def sum_and_max(a):
    return a.sum(axis=1) + a.max(axis=0, keepdims=True)


def _fns():
    return {f.__name__: f for f in (sum0, sum1k, np_sum_neg, mean0k, np_mean1, var1,
                                    std0_ddof1, max1k, np_min0, amax_neg2)}


def _compiled(fns):
    """Each function jitted, warning if it runs as Python where NumPy decides (none should)."""
    return {name: tp.jit(fn) for name, fn in fns.items()}


SHAPES = [(1, 1), (1, 6), (6, 1), (3, 7), (16, 8), (9, 130), (130, 9)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_axis_reductions_equal_numpy(numba_only, dtype):
    rng = np.random.default_rng(1)
    compiled = _compiled(_fns())
    for shape in SHAPES:
        base = (rng.standard_normal(shape) * 100).astype(dtype)
        for layout, a in _layouts(base):
            for name, fn in _fns().items():
                with warnings.catch_warnings():
                    # C and F layouts of more than one element run compiled (no warning)
                    decided = layout in ("C", "F") and min(shape) > 1 and not (
                        name == "std0_ddof1" and shape[0] < 2)
                    warnings.simplefilter("error" if decided else "ignore", tp.FallbackWarning)
                    _same(compiled[name](a), fn(a))
    for name, f in compiled.items():
        assert "by numba-cpu" in str(f.explain()), name


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int8])
def test_integer_max_min_along_axis(numba_only, dtype):
    rng = np.random.default_rng(2)
    fns = {"max0": amax_neg2, "min1k": np_min0}
    compiled = _compiled(fns)
    for shape in SHAPES:
        a = rng.integers(0, 100, shape).astype(dtype)
        for _, view in _layouts(a):
            for name, fn in fns.items():
                _same(compiled[name](view), fn(view))


def test_the_helpers_run_compiled_not_as_python(numba_only):
    f = tp.jit(sum_and_max)
    a = np.arange(16.0).reshape(4, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)   # no run as Python here
        _same(f(a), sum_and_max(a))
    assert "numpy_sum_axis" in f.source() and "numpy_max_axis" in f.source()
    assert "by numba-cpu" in str(f.explain())


def test_undecided_cases_run_again_as_python(numba_only):
    mx = tp.jit(amax_neg2)
    sm = tp.jit(np_mean1)

    def var_ddof3(a):
        return a.var(axis=0, ddof=3)
    vr = tp.jit(var_ddof3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nan = np.array([[1.0, np.nan], [np.nan, 2.0], [-np.nan, 0.5]])
        _same(mx(nan), amax_neg2(nan))
        zeros = np.array([[0.0, -0.0], [-0.0, 0.0]])
        _same(mx(zeros), amax_neg2(zeros))
        empty = np.zeros((2, 0))
        _same(sm(empty), np_mean1(empty))
        small = np.ones((2, 3))
        _same(vr(small), var_ddof3(small))
        with pytest.raises(ValueError):
            mx(np.zeros((0, 3)))
        with pytest.raises(ValueError):
            np.zeros((0, 3)).max(axis=0)


def test_helpers_as_python_match_numpy_at_large_sizes():
    rng = np.random.default_rng(3)
    for shape in [(8192, 3), (3, 8192), (300, 257)]:
        for dtype in (np.float64, np.float32):
            a = rng.standard_normal(shape).astype(dtype)
            for view in (a, np.asfortranarray(a)):
                for axis in (0, 1):
                    _same(R.numpy_sum_axis(view, axis), view.sum(axis=axis))
                    _same(R.numpy_std_axis(view, axis, 1), view.std(axis=axis, ddof=1))


def test_in_a_loop_the_reduction_compiles(numba_only):
    def centered(X, steps):
        for _ in range(steps):
            X = X - X.mean(axis=0, keepdims=True)
        return X
    f = tp.jit(centered)
    X = np.random.default_rng(4).standard_normal((50, 7))
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        _same(f(X, 3), centered(X, 3))
