"""Python's semantics for calls whose Numba versions differ: checked replacements.

Numba implements ``math.sqrt(-1.0)`` as nan and ``int(float('nan'))`` as an arbitrary integer,
where Python raises ValueError (Python docs, ``math`` module: "math domain error"; ``int()``:
"cannot convert float NaN to integer"). The converter calls these plain functions instead; they
are converted and compiled like user code, so the check costs one comparison.
"""
import math

import numpy as np

_DOMAIN = "math domain error"


def checked_sqrt(x):
    if x < 0:
        raise ValueError(_DOMAIN)
    return math.sqrt(np.float64(x))


def checked_log(x):
    if x <= 0:
        raise ValueError(_DOMAIN)
    return math.log(np.float64(x))


def checked_log2(x):
    if x <= 0:
        raise ValueError(_DOMAIN)
    return math.log2(np.float64(x))


def checked_log10(x):
    if x <= 0:
        raise ValueError(_DOMAIN)
    return math.log10(np.float64(x))


def checked_log1p(x):
    if x <= -1:
        raise ValueError(_DOMAIN)
    return math.log1p(np.float64(x))


def checked_acos(x):
    if x < -1 or x > 1:
        raise ValueError(_DOMAIN)
    return math.acos(np.float64(x))


def checked_asin(x):
    if x < -1 or x > 1:
        raise ValueError(_DOMAIN)
    return math.asin(np.float64(x))


def checked_acosh(x):
    if x < 1:
        raise ValueError(_DOMAIN)
    return math.acosh(np.float64(x))


def checked_atanh(x):
    if x <= -1 or x >= 1:
        raise ValueError(_DOMAIN)
    return math.atanh(np.float64(x))


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
    return math.floor(x)


def checked_ceil(x):
    _finite_for_int(x)
    return math.ceil(x)


def checked_trunc(x):
    _finite_for_int(x)
    return math.trunc(x)


def checked_int(x):
    _finite_for_int(x)
    return int(x)


def to_float(x):
    # Numba's float() keeps float32 as float32; Python's gives a (64-bit) float.
    return np.float64(x)


REPLACEMENTS = {
    int: checked_int, float: to_float,
    math.sqrt: checked_sqrt, math.log: checked_log, math.log2: checked_log2,
    math.log10: checked_log10, math.log1p: checked_log1p, math.acos: checked_acos,
    math.asin: checked_asin, math.acosh: checked_acosh, math.atanh: checked_atanh,
    math.floor: checked_floor, math.ceil: checked_ceil, math.trunc: checked_trunc,
}
"""Library callable -> the checked function the converter calls instead (one-argument calls)."""

# math functions of real numbers: Python converts their arguments to a (64-bit) float, so a
# float32 argument gives a float64 result; Numba would compute in float32. The converter
# passes their arguments through np.float64.
FLOAT_MATH = frozenset({
    "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "hypot", "pow",
    "fabs", "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "copysign", "fmod"})
