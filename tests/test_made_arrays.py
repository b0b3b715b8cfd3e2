"""Arrays the function makes with a dtype (``np.arange(n, dtype=np.int8)``,
``np.zeros(n, np.uint8)``, ``a.astype("f4")``), and int literals beyond int64.

The scalar-type analysis once typed such arrays as unknown, so their elements' arithmetic
followed Numba's rules: ``-np.arange(100, dtype=np.int8)[99] - 100`` gave the Python int -199
where NumPy gives np.int8(57), comparisons gave bools where NumPy gives np.bool_. Now the dtype
is read statically (analysis/dtype_calls.py). Every case is compared with the plain call:
value, type and dtype (or exception type); one jitted object per (operation, dtype).
"""
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_compiles_same, assert_same_outcome, outcome

DTYPES = [np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64, np.float32,
          np.float64, np.bool_, np.complex64]


def make(op, dtype):
    """A function making an array of ``dtype`` in one of four ways and applying ``op`` to
    its elements (``dtype`` a closure value: static for graphjit)."""
    def by_arange(n):
        a = np.arange(n, dtype=dtype)
        return op(a, n)

    def by_ones(n):
        a = np.ones(n, dtype) * 3
        return op(a, n)

    def by_astype(n):
        a = np.arange(n).astype(dtype)
        return op(a, n)

    def by_full(n):
        a = np.full((n, 2), 7, dtype)[:, 0]
        return op(a, n)
    return by_arange, by_ones, by_astype, by_full


def negate_minus(a, n):
    return -a[n - 1] - 100


def square(a, n):
    return a[n - 1] ** 2


def floor_mod(a, n):
    return a[n - 1] // 3, a[n - 1] % 7


def shift(a, n):
    return a[n - 1] << 4


def compare(a, n):
    return a[n - 1] < -1, a[0] == 0


def mixed(a, n):
    return a[n - 1] * 2.5 + a[0], a[1] / 2


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", [negate_minus, square, floor_mod, shift, compare, mixed])
def test_element_arithmetic_of_a_made_array_equals_plain(op, dtype):
    for fn in make(op, dtype)[:2] if op is not negate_minus else make(op, dtype):
        jitted = tp.jit(fn)
        for n in (100, 3):
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                assert_same_outcome(*outcome(fn, (n,)), *outcome(jitted, (n,)))


def made_int8(n):
    a = np.arange(n, dtype=np.int8)
    return -a[n - 1] - 100, a[n - 1] << 4, a[0] == 0


def made_float32(n):
    a = np.zeros((n, 2), np.float32) + 0.5
    return a[0, 1] + 1.5, a.sum(), a.astype(np.float64)[1, 1] * 3


def test_made_arrays_are_typed_and_compile():
    assert_compiles_same(made_int8, 100)
    assert_compiles_same(made_float32, 3)


def big_append(n):
    out = [1, n]
    out.append(2 ** 63)
    return out


def big_pick(n):
    return n if n > 5 else 2 ** 63


def big_half(n):
    x = 2 ** 63
    return x // 2 + n


def big_store(n):
    out = [n]
    out[0] = 2 ** 63
    return out


def big_tuple(n):
    return (n, 2 ** 63), max(n, 2 ** 64 - 1)


def big_counter(a):
    r = []
    for i, x in enumerate(a, 9223372036854775806):
        r.append(i)
    return r


@pytest.mark.parametrize("fn,args", [(big_append, (1,)), (big_pick, (7,)), (big_pick, (1,)),
                                     (big_half, (1,)), (big_store, (1,)), (big_tuple, (1,)),
                                     (big_counter, ([1, 2, 3],))],
                         ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_an_int_beyond_int64_is_pythons(fn, args):
    """Numba types an int literal in [2**63, 2**64) as uint64 (a float where it merges with an
    int): compiled code holding one falls back; an int64 counter would wrap."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(fn, args), *outcome(tp.jit(fn), args))


def masked(a):
    b = a[a > 1]
    return b[0] * 2, (a > 1)[0], a[np.array([0, 1])][1] - 1


def picked_pair(n):
    a = np.arange(n, dtype=np.float64)
    return (a[0], 0.0) if n > 3 else (0.0, a[0])


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_masks_index_arrays_and_comparisons_are_typed(dtype):
    """``a[a > 1]``, ``a[idx]`` and ``a > 1`` are arrays of known dtype (NumPy's advanced
    indexing; comparisons give bool arrays): their elements follow NumPy's rules."""
    a = np.arange(5).astype(dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(masked, (a,)), *outcome(tp.jit(masked), (a,)))


def test_a_conditional_expression_of_tuples_keeps_each_items_box():
    jitted = tp.jit(picked_pair)
    for n in (5, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_same_outcome(*outcome(picked_pair, (n,)), *outcome(jitted, (n,)))
