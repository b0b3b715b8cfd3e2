"""Values that are a Python number on one path and a NumPy scalar on another (a merge), as
fuzz seed 2033 found them: every call through one jitted object equals the plain call
(value, type, dtype, exception type, the array argument's contents).

- a complex merge divided or raised to a power: CPython (``_Py_c_quot``, ``complex_pow``)
  and NumPy (``cdiv``, ``npy_cpow`` in npy_math_complex.c.src) compute it differently, so
  compiled code (one type) falls back there;
- a merge stored into an integer array: NumPy's setitem converts a Python number and a
  NumPy scalar into a signed array both as ``int()`` does (checked), into an unsigned array
  a NumPy float through C's cast (arraytypes.c.src ``@TYPE@_setitem``, array_coercion.c
  ``PyArray_Pack``, NumPy 2.4): one check of the unified value where it applies to every
  type, else a fallback;
- ``x op= v`` on a number whose result type is unknown is a rebinding, so an int beyond
  int64 runs the (effect-free) call again as Python.
"""
import itertools
import math
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_same_outcome, outcome


def complex_div(a, w):
    s = 2j
    for e in a:
        s = e
    return s / w


def complex_rdiv(a, w):
    s = 2j
    for e in a:
        s = e
    return w / s


def complex_pow(a, w):
    s = 2j
    for e in a:
        s = e
    return s ** w


def complex_rpow(a, w):
    s = 2j
    for e in a:
        s = e
    return w ** s


def store_merge(x, a):
    y = 1
    for i in range(len(a)):
        a[i] = y
        y = y * x
    return a


def store_min(x, a):
    a[0] = min(x, 0.5)
    return a


def unused_big_int(i, a):
    v = int(i)
    t = False
    if t:
        for e in a:
            v &= 1j
    return None


def _outcome(fn, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the exception type is what is compared
        return ("raise", type(exc).__name__), args
    return ("ok", type(value), getattr(value, "dtype", None), repr(value)), args


def _same(fn, calls):
    compiled = tp.jit(fn)
    for args in calls:
        plain, plain_args = _outcome(fn, args)
        got, got_args = _outcome(compiled, args)
        assert got == plain, (fn.__name__, args)
        for p, g in zip(plain_args, got_args):
            if isinstance(p, np.ndarray):
                assert p.dtype == g.dtype and np.array_equal(p, g, equal_nan=True), args


COMPLEX_ARRAYS = [np.array([], np.complex128), np.array([6 + 3j], np.complex128),
                  np.array([1.1 - 2.3j], np.complex64)]
EXPONENTS = [2, 3, 5, -3, 0, 100, -100, 2.5, 0.5, 1j, 0j, np.complex128(0.5 + 1j),
             np.float64(1.5), complex(-2.7, 1.9)]


@pytest.mark.parametrize("fn", [complex_div, complex_rdiv, complex_pow, complex_rpow])
def test_complex_merge_division_and_power(fn):
    _same(fn, list(itertools.product(COMPLEX_ARRAYS, EXPONENTS)))


INT_ARRAYS = [np.zeros(3, d) for d in ("int8", "int16", "int32", "int64", "uint8", "uint16",
                                        "uint32", "uint64")]
FACTORS = [np.float64(math.nan), np.float64(2.5), np.float64(-5.0), np.float64(1e10),
           np.float32(2.5), np.float32(math.nan), 300, -3, 2.5, math.nan, np.int64(300),
           np.int8(-3), np.uint64(2 ** 63), True]


@pytest.mark.parametrize("fn", [store_merge, store_min])
def test_merge_stored_into_integer_arrays(fn):
    _same(fn, [(x, a) for a, x in itertools.product(INT_ARRAYS, FACTORS)])


def test_unused_int_beyond_int64_reruns_as_python():
    calls = [(np.uint64(2 ** 64 - 3), np.array([], np.int32)), (5, np.array([1], np.int32)),
             (np.uint64(7), np.array([1, 2], np.int32))]
    _same(unused_big_int, calls)


def mixed_update(a, x, c):
    y = 0.001 / 1.5
    if c:
        y = x
    y = y + 3.25
    a[1] += y
    return 0


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.complex64, np.float64])
@pytest.mark.parametrize("c", [True, False])
def test_an_element_updated_by_a_python_or_numpy_float(dtype, c):
    """`a[i] += y`, y a Python float or an np.float64 by path: NumPy converts the first to
    the element's dtype before adding (NEP 50), computes the second in float64 (fuzz seed
    2036, program 8086: one ulp off in float32). Falls back where the two differ."""
    args = (np.array([0.0, 27.020891], dtype=dtype), np.float64(4.503546630566792), c)
    jitted = tp.jit(mixed_update)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(mixed_update, args), *outcome(jitted, args))
