"""Python's semantics for ``cmath`` functions, for compiled code.

CPython's ``Modules/cmathmodule.c`` converts each argument to a C double complex
(``PyComplex_AsCComplex``: a bool, an int, an np.float32 all become a 128-bit complex) and
returns a Python complex; Numba computes in the argument's own type (``cmath.cos(True)`` came
back an np.complex64). CPython raises ValueError (EDOM) or OverflowError (ERANGE) where its
special-value tables or the computation say so; Numba returns inf or nan. Measured against
CPython on 2,700 arguments from 1e-300 to 1e300 (bit for bit, signs of zeros included),
Numba's versions agree for finite arguments and results except: ``log``/``log10``
(CPython's ``c_log`` takes ``log1p`` near ``|z| = 1``: ported below), ``acos``/``acosh``/
``asin``/``asinh`` beyond ``FLT_MAX / 4`` (Numba's threshold for CPython's large-argument
formula, where CPython's is ``DBL_MAX / 4``; ``atan``/``atanh`` likewise at
``sqrt(FLT_MAX / 4)`` and ``sqrt(FLT_MIN)``), ``exp``/``cosh``/``sinh`` beyond
``CM_LOG_LARGE_DOUBLE`` (CPython scales there).

So each function here converts its arguments to complex128 and says "run again as Python"
(messages.CMATH_SPECIAL) wherever an argument or the result is not finite, or an argument is
beyond the range where the two agree: CPython then gives its own value or error.
"""
import cmath
import math

import numpy as np

from .messages import CMATH_SPECIAL

_LN2 = 0.6931471805599453              # M_LN2
_LN10 = 2.302585092994046              # M_LN10
_LARGE = 4.4942328371557893e+307        # CM_LARGE_DOUBLE = DBL_MAX / 4
_LOG_LARGE = 708.3964185322641         # CM_LOG_LARGE_DOUBLE = log(CM_LARGE_DOUBLE)
_FLT_LARGE = 8.5070586659632215e+37    # FLT_MAX / 4, Numba's threshold (cmathimpl.py)
_FLT_SQRT_LARGE = 9.223371761976865e+18    # sqrt(FLT_MAX / 4), Numba's (c_atanh)
_FLT_SMALL = 1.0842021724855044e-19    # sqrt(FLT_MIN), Numba's (c_atanh)
_DBL_MIN = 2.2250738585072014e-308     # DBL_MIN
_MANT_DIG = 53                         # DBL_MANT_DIG


def _libm_hypot(x, y):
    # C's hypot(), which cmathmodule.c calls (Python's math.hypot is CPython's own)
    return np.float64(np.hypot(x, y))


def _finite(z):
    return math.isfinite(z.real) and math.isfinite(z.imag)


def _checked(z, r, bound=_LARGE):
    """``r``, the result for ``z``, where both are finite and ``z``'s parts within
    ``bound``; else the call runs again as Python."""
    if not (_finite(z) and _finite(r) and abs(z.real) <= bound and abs(z.imag) <= bound):
        raise ValueError(CMATH_SPECIAL)
    return r


def _c_log(z):
    """CPython's ``c_log`` (Modules/cmathmodule.c) for finite ``z``, not 0."""
    ax = abs(z.real)
    ay = abs(z.imag)
    if ax > _LARGE or ay > _LARGE:
        real = math.log(_libm_hypot(ax / 2.0, ay / 2.0)) + _LN2
    elif ax < _DBL_MIN and ay < _DBL_MIN:
        # (hypot(ax, ay) subnormal; both 0 is not finite in log: checked by the caller)
        real = math.log(_libm_hypot(math.ldexp(ax, _MANT_DIG), math.ldexp(ay, _MANT_DIG))) - \
            _MANT_DIG * _LN2
    else:
        h = _libm_hypot(ax, ay)
        if 0.71 <= h and h <= 1.73:
            am = ax if ax > ay else ay
            an = ay if ax > ay else ax
            real = math.log1p((am - 1) * (am + 1) + an * an) / 2.0
        else:
            real = math.log(h)
    return complex(real, math.atan2(z.imag, z.real))


def cmath_log(z):
    z = np.complex128(z)
    if not _finite(z) or (z.real == 0.0 and z.imag == 0.0):
        raise ValueError(CMATH_SPECIAL)
    return _checked(z, _c_log(z))


def cmath_log_base(z, base):
    """``cmath.log(z, base)``: CPython's ``_Py_c_quot(c_log(z), c_log(base))`` (Numba's
    complex division is CPython's algorithm); a zero divisor runs as Python (EDOM)."""
    z = np.complex128(z)
    base = np.complex128(base)
    if not _finite(z) or not _finite(base) or (z.real == 0.0 and z.imag == 0.0) or (
            base.real == 0.0 and base.imag == 0.0):
        raise ValueError(CMATH_SPECIAL)
    divisor = _c_log(base)
    if divisor.real == 0.0 and divisor.imag == 0.0:
        raise ValueError(CMATH_SPECIAL)
    return _checked(z, _c_log(z) / divisor)


def cmath_log10(z):
    z = np.complex128(z)
    if not _finite(z) or (z.real == 0.0 and z.imag == 0.0):
        raise ValueError(CMATH_SPECIAL)
    r = _c_log(z)
    return _checked(z, complex(r.real / _LN10, r.imag / _LN10))


def cmath_sqrt(z):
    """CPython's c_sqrt scales a subnormal part first (Numba's does not: other digits)."""
    z = np.complex128(z)
    if _subnormal(z.real) or _subnormal(z.imag):
        raise ValueError(CMATH_SPECIAL)
    return _checked(z, cmath.sqrt(z))


def _subnormal(x):
    return x != 0.0 and abs(x) < _DBL_MIN


def cmath_exp(z):
    z = np.complex128(z)
    return _checked(z, cmath.exp(z), _LOG_LARGE)


def cmath_cosh(z):
    z = np.complex128(z)
    return _checked(z, cmath.cosh(z), _LOG_LARGE)


def cmath_sinh(z):
    z = np.complex128(z)
    return _checked(z, cmath.sinh(z), _LOG_LARGE)


def cmath_cos(z):
    z = np.complex128(z)
    return _checked(z, cmath.cos(z), _LOG_LARGE)


def cmath_sin(z):
    z = np.complex128(z)
    return _checked(z, cmath.sin(z), _LOG_LARGE)


def cmath_tan(z):
    z = np.complex128(z)
    return _checked(z, cmath.tan(z))


def cmath_tanh(z):
    z = np.complex128(z)
    return _checked(z, cmath.tanh(z))


def cmath_atan(z):
    """atan(z) = -j atanh(j z) (Numba's and CPython's): atanh's limits on ``(-z.imag,
    z.real)``."""
    z = np.complex128(z)
    if abs(z.imag) == 1.0 and 0.0 < abs(z.real) < _FLT_SMALL:
        raise ValueError(CMATH_SPECIAL)
    return _checked(z, cmath.atan(z), _FLT_SQRT_LARGE)


def cmath_atanh(z):
    """Numba's c_atanh takes its special branches beyond sqrt(FLT_MAX / 4) and, at
    ``z.real == 1``, below sqrt(FLT_MIN); CPython's beyond and below the double ones."""
    z = np.complex128(z)
    if abs(z.real) == 1.0 and 0.0 < abs(z.imag) < _FLT_SMALL:
        raise ValueError(CMATH_SPECIAL)
    return _checked(z, cmath.atanh(z), _FLT_SQRT_LARGE)


def cmath_acos(z):
    z = np.complex128(z)
    return _checked(z, cmath.acos(z), _FLT_LARGE)


def cmath_acosh(z):
    z = np.complex128(z)
    return _checked(z, cmath.acosh(z), _FLT_LARGE)


def cmath_asin(z):
    z = np.complex128(z)
    return _checked(z, cmath.asin(z), _FLT_LARGE)


def cmath_asinh(z):
    z = np.complex128(z)
    return _checked(z, cmath.asinh(z), _FLT_LARGE)


def cmath_phase(z):
    """atan2; CPython raises OverflowError (ERANGE) where it underflows: a nonzero imaginary
    part and a result below DBL_MIN."""
    z = np.complex128(z)
    phi = math.atan2(z.imag, z.real)
    if not _finite(z) or (z.imag != 0.0 and abs(phi) < _DBL_MIN):
        raise ValueError(CMATH_SPECIAL)
    return phi


def cmath_polar(z):
    """``(abs(z), phase(z))``: CPython raises OverflowError where the modulus overflows."""
    z = np.complex128(z)
    r = _libm_hypot(z.real, z.imag)
    phi = math.atan2(z.imag, z.real)
    if not _finite(z) or not math.isfinite(r) or (z.imag != 0.0 and abs(phi) < _DBL_MIN):
        raise ValueError(CMATH_SPECIAL)
    return r, phi


def cmath_rect(r, phi):
    r = np.float64(r)
    phi = np.float64(phi)
    if not (math.isfinite(r) and math.isfinite(phi)):
        raise ValueError(CMATH_SPECIAL)
    return _checked(complex(r, phi), complex(r * math.cos(phi), r * math.sin(phi)))
