"""Python's semantics for ``math`` functions and conversions whose Numba versions differ.

Numba implements ``math.sqrt(-1.0)`` as nan and ``int(float('nan'))`` as an arbitrary integer,
where Python raises ValueError (Python docs, ``math`` module: "math domain error"; ``int()``:
"cannot convert float NaN to integer"). The converter calls these plain functions instead
(transpiler.number_rules.REPLACEMENTS); they are converted and compiled like user code, so the
check costs one comparison.
"""
import math

import numpy as np

from ..ir import opaque
from .messages import DOMAIN, RANGE


def checked_sqrt(x):
    if x < 0:
        raise ValueError(DOMAIN)
    return math.sqrt(np.float64(x))


def checked_log(x):
    if x <= 0:
        raise ValueError(DOMAIN)
    return math.log(np.float64(x))


def checked_log2(x):
    if x <= 0:
        raise ValueError(DOMAIN)
    return math.log2(np.float64(x))


def checked_log10(x):
    if x <= 0:
        raise ValueError(DOMAIN)
    return math.log10(np.float64(x))


def checked_log1p(x):
    if x <= -1:
        raise ValueError(DOMAIN)
    return math.log1p(np.float64(x))


def checked_acos(x):
    if x < -1 or x > 1:
        raise ValueError(DOMAIN)
    return math.acos(np.float64(x))


def checked_asin(x):
    if x < -1 or x > 1:
        raise ValueError(DOMAIN)
    return math.asin(np.float64(x))


def checked_acosh(x):
    if x < 1:
        raise ValueError(DOMAIN)
    return math.acosh(np.float64(x))


def checked_atanh(x):
    if x <= -1 or x >= 1:
        raise ValueError(DOMAIN)
    return math.atanh(np.float64(x))


def _range_checked(x, r):
    if (r == math.inf or r == -math.inf) and x - x == 0.0:
        raise OverflowError(RANGE)
    return r


def checked_exp(x):
    x = np.float64(x)
    return _range_checked(x, math.exp(x))


def checked_expm1(x):
    x = np.float64(x)
    return _range_checked(x, math.expm1(x))


def checked_sinh(x):
    x = np.float64(x)
    return _range_checked(x, math.sinh(x))


def checked_cosh(x):
    x = np.float64(x)
    return _range_checked(x, math.cosh(x))


def _domain_checked(x, r):
    if r != r and x == x:
        raise ValueError(DOMAIN)
    return r


def checked_sin(x):
    x = np.float64(x)
    return _domain_checked(x, math.sin(x))


def checked_cos(x):
    x = np.float64(x)
    return _domain_checked(x, math.cos(x))


def checked_tan(x):
    x = np.float64(x)
    return _domain_checked(x, math.tan(x))


def checked_math_pow(x, y):
    # CPython's math_pow: libm for finite ** finite, then a nan is a domain error and an
    # infinity a domain error for 0 ** negative, else a range error. The IEEE specials
    # (nan, inf operands) are C99's, which libm's pow follows.
    x = np.float64(x)
    y = np.float64(y)
    r = math.pow(opaque(x), opaque(y))   # libm's pow, never folded (transpiler.ir.opaque)
    if x - x == 0.0 and y - y == 0.0 and r - r != 0.0:
        if r != r or x == 0.0:
            raise ValueError(DOMAIN)
        raise OverflowError(RANGE)
    return r


def checked_ldexp(x, i):
    # CPython's math_ldexp: the exponent is not truncated to a C int (Numba's is).
    x = np.float64(x)
    if x == 0.0 or x - x != 0.0:
        return x
    if i > 2147483647:
        raise OverflowError(RANGE)
    if i < -2147483648:
        return math.copysign(0.0, x)
    return _range_checked(x, math.ldexp(x, i))


def _finite_for_int(x):
    if x != x:
        raise ValueError("cannot convert float NaN to integer")
    if x == math.inf or x == -math.inf:
        raise OverflowError("cannot convert float infinity to integer")
    if x >= 9.223372036854775807e18 or x < -9.223372036854775808e18:
        # Python would give an int beyond int64; compiled code cannot: say so, never wrap.
        raise OverflowError("int beyond int64 in compiled code (graphjit)")


def checked_floor(x):
    _finite_for_int(x)
    return np.int64(math.floor(x))   # a Python int (Numba keeps an integer argument's type)


def checked_ceil(x):
    _finite_for_int(x)
    return np.int64(math.ceil(x))   # a Python int (Numba keeps an integer argument's type)


def checked_trunc(x):
    _finite_for_int(x)
    return np.int64(math.trunc(x))   # a Python int (Numba keeps an integer argument's type)


def checked_int(x):
    _finite_for_int(x)
    return np.int64(int(x))   # a Python int (Numba's int() keeps np.uint8 an uint8)


def to_complex2(x, y):
    # complex(re, im) of reals: a (128-bit) complex in Python; Numba keeps float32 parts.
    return complex(np.float64(x), np.float64(y))


def to_complex(x):
    # Numba's complex() keeps float32 as complex64; Python's gives a (128-bit) complex.
    return np.complex128(x)


def checked_frexp(x):
    """math.frexp: a Python float and a Python int (Numba's exponent is an int32)."""
    m, e = math.frexp(np.float64(x))
    return m, np.int64(e)


def to_float(x):
    # Numba's float() keeps float32 as float32; Python's gives a (64-bit) float.
    return np.float64(x)
