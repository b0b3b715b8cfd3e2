"""``a op= k`` of an unsigned array and a Python int (NEP 50: ``k`` must fit the dtype and is
its scalar; NumPy's loop of that dtype), plainly and through a boolean mask: compiled, equal
to plain Python in values, dtype, argument mutation and exception type. Numba types an
unsigned array op= an int64 with no loop (its in-place typing fails on an assert): the whole
function ran as Python before."""
import warnings

import numpy as np
import pytest

import transpiler as tp

from reference import assert_same_outcome, outcome

UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
VALUES = [0, 1, 3, 255, -1, 2**40]


def add_one(a):
    for i in range(1):
        a += 1
    return a


def add(a, k):
    for i in range(1):
        a += k
    return a


def power(a, k):
    for i in range(1):
        a **= k
    return a


def shift(a, k):
    for i in range(1):
        a <<= k
    return a


def floor_divide(a, k):
    for i in range(1):
        a //= k
    return a


def masked_add(a, m, k):
    for i in range(1):
        a[m] += k
    return a


def masked_add_one(a, m):
    for i in range(1):
        a[m] += 1
    return a


def _array(dtype):
    return np.array([[0, 1, 2], [200, 7, np.iinfo(dtype).max]], dtype=dtype)


def _compare(fn, make_args, jitted=None):
    """Compare ``fn`` plainly and compiled on fresh arguments; returns the jitted object."""
    jitted = jitted or tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # NumPy's overflow and division warnings
        assert_same_outcome(*outcome(fn, make_args()), *outcome(jitted, make_args()))
    return jitted


@pytest.mark.parametrize("dtype", UNSIGNED, ids=lambda d: d.__name__)
@pytest.mark.parametrize("fn", [add, power, shift, floor_divide], ids=lambda f: f.__name__)
def test_update_by_a_python_int_equals_plain(fn, dtype):
    jitted = tp.jit(fn)
    for k in VALUES:
        _compare(fn, lambda: (_array(dtype), k), jitted)
    if fn in (add, floor_divide):   # (a run-time power or shift may be negative: Python)
        assert "python" not in str(jitted.explain()), jitted.explain()


@pytest.mark.parametrize("dtype", UNSIGNED, ids=lambda d: d.__name__)
def test_constant_and_masked_updates_compile_and_equal_plain(dtype):
    for fn, make in [(add_one, lambda: (_array(dtype),)),
                     (masked_add_one, lambda: (_array(dtype), _array(dtype) % 2 == 0))]:
        jitted = _compare(fn, make)
        assert "python" not in str(jitted.explain()), jitted.explain()
    jitted = tp.jit(masked_add)
    for k in VALUES:
        _compare(masked_add, lambda: (_array(dtype), _array(dtype) % 2 == 1, k), jitted)
    assert "python" not in str(jitted.explain()), jitted.explain()
