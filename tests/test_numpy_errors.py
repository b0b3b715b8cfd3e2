"""NumPy functions in compiled code raise NumPy's exception classes and accept what NumPy
accepts (issue 15): checked wrappers in transpiler/helpers/, or a fallback."""
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_same_outcome, outcome


def reshape_unknown(a):
    return a.reshape(-1, 0)


def reshape_rows(a, n):
    return a.reshape(n, -1)


def reshape_tuple(a):
    return a.reshape((2, 3))


def reshape_transposed(a):
    return a.T.reshape(6)


def reshape_then_store(a):
    b = a.reshape(a.shape[0] * a.shape[1])
    b[0] = 99.0
    return b


def arange_step(a, b, s):
    return np.arange(a, b, s)


def clip_none(a):
    return np.clip(a, None, None)


def sum_axis(a, k):
    return a.sum(axis=k)


def max_one(x):
    return max(x)


def clip_static_nan(a):
    return np.clip(a, np.nan, None)


def clip_bounds(a, lo, hi):
    return np.clip(a, lo, hi)


def arange_from(a):
    return np.arange(a, 1.0, 1.0)


def arange_one(a):
    return np.arange(a)


def arange_two(a, b):
    return np.arange(a, b)


M = np.arange(6.0).reshape(2, 3)
CASES = [
    (clip_static_nan, (M,)), (clip_bounds, (M, np.nan, 3.0)), (clip_bounds, (M, 1.0, np.nan)),
    (clip_bounds, (M, 1.0, 3.0)), (clip_bounds, (np.arange(5), 1, 3)),
    (arange_from, (np.nan,)), (arange_from, (0.25,)), (arange_one, (np.nan,)),
    (arange_one, (3.5,)), (arange_one, (4,)), (arange_two, (np.nan, 3.0)), (arange_two, (1, 4)),
    (arange_two, (0.5, 3.0)), (arange_two, (2, np.inf)), (arange_step, (0.0, 5.0, np.nan)),
    (reshape_unknown, (np.zeros(0),)), (reshape_unknown, (np.zeros(3),)),
    (reshape_rows, (np.zeros(0), 3)), (reshape_rows, (np.arange(6.0), 2)),
    (reshape_rows, (np.arange(7.0), 3)), (reshape_tuple, (np.arange(6.0),)),
    (reshape_transposed, (M,)), (reshape_then_store, (M.copy(),)),
    (arange_step, (1, 2, 0)), (arange_step, (1.0, 2.0, 0.0)), (arange_step, (1, 9, 3)),
    (clip_none, (np.array([3.0, -1.0]),)), (sum_axis, (np.ones((2, 2)), 2)),
    (sum_axis, (np.ones((2, 2)), -3)), (sum_axis, (np.ones((2, 2)), 1)), (max_one, (1,)),
    (max_one, (np.arange(3),)),
]


@pytest.mark.parametrize("fn, args", CASES, ids=[f"{f.__name__}-{i}" for i, (f, _) in
                                                 enumerate(CASES)])
def test_numpy_errors_and_acceptance_as_numpy(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        plain, args_plain = outcome(fn, args)
        compiled, args_comp = outcome(tp.jit(fn), args)
    assert_same_outcome(plain, args_plain, compiled, args_comp)


def test_reshape_of_a_contiguous_array_stays_a_view():
    a = np.arange(6.0)
    b = tp.jit(reshape_tuple, fullgraph=True)(a)
    b[0, 0] = 42.0
    assert a[0] == 42.0
