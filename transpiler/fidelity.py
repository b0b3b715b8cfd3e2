"""Python's semantics for calls whose Numba versions differ: checked replacements.

Numba implements ``math.sqrt(-1.0)`` as nan and ``int(float('nan'))`` as an arbitrary integer,
where Python raises ValueError (Python docs, ``math`` module: "math domain error"; ``int()``:
"cannot convert float NaN to integer"). The converter calls these plain functions instead; they
are converted and compiled like user code, so the check costs one comparison.
"""
import math

import numpy as np

from .ir import int_add, int_mul, int_sub, weak

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


# CPython's math_1: a nan from a non-nan argument is a domain error (ValueError), an infinity
# from a finite one a range error (OverflowError) for the functions that can overflow.
_RANGE = "math range error"


def _range_checked(x, r):
    if (r == math.inf or r == -math.inf) and x - x == 0.0:
        raise OverflowError(_RANGE)
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
        raise ValueError(_DOMAIN)
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
    r = math.pow(x, y)
    if x - x == 0.0 and y - y == 0.0 and r - r != 0.0:
        if r != r or x == 0.0:
            raise ValueError(_DOMAIN)
        raise OverflowError(_RANGE)
    return r


def checked_ldexp(x, i):
    # CPython's math_ldexp: the exponent is not truncated to a C int (Numba's is).
    x = np.float64(x)
    if x == 0.0 or x - x != 0.0:
        return x
    if i > 2147483647:
        raise OverflowError(_RANGE)
    if i < -2147483648:
        return math.copysign(0.0, x)
    return _range_checked(x, math.ldexp(x, i))


# The messages of the errors compiled code raises where Python's result is a value it cannot
# hold (an int beyond int64, a complex number). transpiler.api re-runs an effect-free function
# as Python on them (transpiler.analysis.effects); the raises below spell them out literally
# because converted code reads string constants only as literals.
_BY_PATH = ("a division by zero of a value that is a Python number on some paths and a NumPy "
            "scalar on others: Python raises, NumPy gives inf or nan (graphjit)")

_UNDEFINED_STORE = ("a NumPy float outside the range NumPy converts through (int32 or int64) "
                    "stored into an unsigned array: C's conversion is undefined there, so NumPy's "
                    "value depends on the machine (graphjit)")

_ROUND_INEXACT = ("round(x, n) where CPython's correctly rounded result needs more than "
                  "float64 arithmetic (n beyond +-22, or a huge x) (graphjit)")


_RESHAPE_STRIDED = ("a reshape of an array that is not C-contiguous: NumPy copies it or "
                    "gives a view by its strides, Numba cannot (graphjit)")

_CLIP_NAN = ("np.clip with a NaN bound: NumPy gives NaN, Numba ignores the bound "
             "(graphjit)")

NOT_REPRESENTABLE = (
    "int beyond int64 in compiled code (graphjit)",
    _BY_PATH,
    _UNDEFINED_STORE,
    "an int from 2**53 in a value that is an int or a float by path: compiled code holds it in "
    "float64 (graphjit)",
    "a negative number to a fractional power is complex in Python; compiled code cannot "
    "return it (graphjit)",
    _ROUND_INEXACT,
    _RESHAPE_STRIDED,
    _CLIP_NAN,
)


def not_representable(exc):
    """Whether exception ``exc`` is compiled code saying Python's result does not fit it."""
    return type(exc) in (OverflowError, ValueError) and str(exc) in NOT_REPRESENTABLE


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


def checked_round(x):
    """``round(x)`` of a float: Python's int, half to even; nan raises ValueError and an
    infinity OverflowError (Numba returns an arbitrary int)."""
    _finite_for_int(x)
    return np.int64(round(x))


def _two_product_error(a, b):
    """The exact error ``a*b - fl(a*b)`` (Dekker's TwoProduct with Veltkamp's split; T. J.
    Dekker, "A floating-point technique for extending the available precision", 1971): its
    sign says on which side of ``fl(a*b)`` the exact product lies. |a|, |b| < 2**996."""
    p = a * b
    c = 134217729.0 * a              # 2**27 + 1
    a_hi = c - (c - a)
    a_lo = a - a_hi
    c = 134217729.0 * b
    b_hi = c - (c - b)
    b_lo = b - b_hi
    return ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _half_even(y, e):
    """The integer nearest ``y + e`` (the exact value; ``e`` tiny beside ``y``), ties to
    even. Below 2**52 only the sign of ``e`` matters (a tie needs ``y`` itself on a half);
    from 2**52 ``y`` is an integer and ``e`` must be the exact error (+-0.5 is a tie)."""
    if y < 4503599627370496.0 and y > -4503599627370496.0:
        k = np.rint(y)               # ties to even
        d = y - k                    # exact (Sterbenz)
        if d == 0.5 and e > 0:
            return k + 1.0
        if d == -0.5 and e < 0:
            return k - 1.0
        return k
    odd = np.fmod(y, 2.0) != 0.0
    if e == 0.5 and odd:
        return y + 1.0
    if e == -0.5 and odd:
        return y - 1.0
    return y


def python_round_digits(x, n):
    """CPython's ``round(x, n)`` of a float and an int (Objects/floatobject.c
    ``float___round___impl``/``double_round``): the decimal nearest the *exact* binary value of
    x with n digits after the point, ties to even, converted back correctly rounded.

    With p = 10**|n| exact (|n| <= 22): y = fl(x*p) (or fl(x/p)) and the exact error of that
    step (TwoProduct) decide the integer k on the correct side of a tie; then fl(k/p) (or
    fl(k*p)) is one correct rounding of the decimal, as CPython's strtod gives. From |y| >=
    2**53 the rounding moves x by less than half its ulp: x itself. ``round(0.15, 1)`` is 0.1:
    0.15 is 0.1499999999999999944... in binary. Where float64 is not enough (|n| > 22 with a
    fraction left, |x| > 1e290 or 2**52 <= |x / 10**-n| < 2**53 for n < 0) it says so: an
    effect-free call runs again as Python.
    """
    if x != x or x == math.inf or x == -math.inf or x == 0.0:
        return x
    if n > 323:                      # NDIGITS_MAX: x has no more digits than that
        return x
    if n < -308:                     # NDIGITS_MIN: rounds to a zero of x's sign
        return 0.0 * x
    if n >= 0 and (x >= 9007199254740992.0 or x <= -9007199254740992.0):
        return x                     # 2**53: an integer with an ulp of 2 or more
    if n > 22 or n < -22 or (n < 0 and (x > 1e290 or x < -1e290)):
        raise OverflowError("round(x, n) where CPython's correctly rounded result needs more "
                            "than float64 arithmetic (n beyond +-22, or a huge x) (graphjit)")
    if n >= 0:
        p = 10.0 ** n
        y = x * p
        if y >= 9007199254740992.0 or y <= -9007199254740992.0:
            return x                 # moved by less than half an ulp of x
        return float(_half_even(y, _two_product_error(x, p)) / p)   # float, not np.float64
    p = 10.0 ** (-n)
    y = x / p
    if y >= 9007199254740992.0 or y <= -9007199254740992.0:
        return x
    if y >= 4503599627370496.0 or y <= -4503599627370496.0:
        raise OverflowError("round(x, n) where CPython's correctly rounded result needs more "
                            "than float64 arithmetic (n beyond +-22, or a huge x) (graphjit)")
    rest = (x - y * p) - _two_product_error(y, p)   # the sign of x - y*p, exactly
    return float(_half_even(y, rest) * p)


def _numpy_power_of_ten(n):
    """NumPy's power_of_ten (numpy/_core/src/multiarray/calculation.c): exact to 1e8, then
    multiplied by ten a step at a time (not 10.0 ** n: they differ from 1e23)."""
    if n < 9:
        return 10.0 ** n
    value = 1e9
    for _ in range(n - 9):
        value = value * 10.0
    return value


def numpy_round_digits(x, n):
    """NumPy's ``round(x, n)`` of a float32/float64 scalar (PyArray_Round,
    numpy/_core/src/multiarray/calculation.c): ``rint(x * f) / f`` with f = 10**n, or
    ``rint(x / f) * f`` for n < 0, in x's own dtype (f is a weak Python float, cast to it)."""
    kind = type(x)
    if n >= 0:
        f = kind(_numpy_power_of_ten(n))
        return kind(np.rint(x * f) / f)
    f = kind(_numpy_power_of_ten(-n))
    return kind(np.rint(x / f) * f)


def numpy_reshape(a, shape):
    """``a.reshape(shape)`` as NumPy: an unknown (-1) dimension of an empty array raises
    ValueError (Numba returns an array); an array that is not C-contiguous is said not to fit
    (NumPy copies or gives a view by its strides; Numba raises NotImplementedError): an
    effect-free call runs again as Python."""
    if not a.flags.c_contiguous:
        raise OverflowError("a reshape of an array that is not C-contiguous: NumPy copies it "
                            "or gives a view by its strides, Numba cannot (graphjit)")
    known = 1
    unknown = 0
    for size in shape:       # rebindings, not `op=`: analysis.effects reads `op=` as a store
        if size == -1:
            unknown = unknown + 1
        else:
            known = known * size
    if unknown == 1 and known == 0:
        raise ValueError("cannot reshape array of size 0 into the shape given (NumPy)")
    return a.reshape(shape)


def numpy_random_seed(seed):
    """``np.random.seed(seed)`` of an int: NumPy's legacy RandomState accepts 0..2**32 - 1
    (numpy/random/_mt19937.pyx ``_legacy_seeding``); Numba would truncate."""
    if seed < 0 or seed > 4294967295:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    np.random.seed(seed)


def numpy_random_uniform(low, high):
    """``np.random.uniform(low, high)`` of numbers: a range that is not finite raises
    OverflowError as NumPy's does (numpy/random/mtrand.pyx ``uniform``)."""
    if not np.isfinite(high - low):
        raise OverflowError("Range exceeds valid bounds")
    return np.random.uniform(low, high)


def numpy_arange3(start, stop, step):
    """``np.arange(start, stop, step)``: a zero step raises ZeroDivisionError as NumPy does
    (Numba raises ValueError "Maximum allowed size exceeded")."""
    if step == 0:
        raise ZeroDivisionError("division by zero")
    length = (stop - start) / step
    if length != length:             # a NaN, or inf - inf
        raise ValueError("arange: cannot compute length")
    if length == math.inf or length == -math.inf:
        raise ValueError("Maximum allowed size exceeded")
    return np.arange(start, stop, step)


def numpy_clip(a, low, high):
    """``np.clip(a, low, high)`` with number bounds: a NaN bound gives NaN in NumPy (it is
    ``minimum(maximum(a, low), high)``) where Numba's comparisons ignore it: said not to fit
    (an effect-free call runs again as Python)."""
    if low != low or high != high:
        raise OverflowError("np.clip with a NaN bound: NumPy gives NaN, Numba ignores the "
                            "bound (graphjit)")
    return np.clip(a, low, high)


def checked_frexp(x):
    """math.frexp: a Python float and a Python int (Numba's exponent is an int32)."""
    m, e = math.frexp(np.float64(x))
    return m, np.int64(e)


def to_float(x):
    # Numba's float() keeps float32 as float32; Python's gives a (64-bit) float.
    return np.float64(x)


REPLACEMENTS = {
    int: checked_int, float: to_float, complex: to_complex,
    math.sqrt: checked_sqrt, math.log: checked_log, math.log2: checked_log2,
    math.log10: checked_log10, math.log1p: checked_log1p, math.acos: checked_acos,
    math.asin: checked_asin, math.acosh: checked_acosh, math.atanh: checked_atanh,
    math.floor: checked_floor, math.ceil: checked_ceil, math.trunc: checked_trunc,
    math.exp: checked_exp, math.expm1: checked_expm1, math.sinh: checked_sinh,
    math.cosh: checked_cosh, math.sin: checked_sin, math.cos: checked_cos,
    math.tan: checked_tan, math.pow: checked_math_pow, math.ldexp: checked_ldexp,
    math.frexp: checked_frexp,
}
"""Library callable -> the checked function the converter calls instead (calls with
``REPLACEMENT_ARITY`` positional arguments, default one)."""
REPLACEMENT_ARITY = {math.pow: 2, math.ldexp: 2}

# math functions CPython implements itself where Numba calls libm: the results differ in the
# last bits (math.gamma, math.lgamma: about 2 in 3 arguments; math.hypot: 1 in 500, measured
# on 60,000 random arguments). The converter falls back on them.
DIFFERENT_MATH = {math.gamma: "math.gamma()", math.lgamma: "math.lgamma()",
                  math.hypot: "math.hypot()"}

# math functions of real numbers: Python converts their arguments to a (64-bit) float, so a
# float32 argument gives a float64 result; Numba would compute in float32. The converter
# passes their arguments through np.float64.
FLOAT_MATH = frozenset({
    "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "hypot", "pow",
    "fabs", "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "copysign", "fmod"})
# math functions whose result is a Python float (a weak operand under NEP 50): the above, and
# ldexp (its exponent is an int, so its arguments are not all converted; checked_ldexp).
PYTHON_FLOAT_MATH = FLOAT_MATH | {"ldexp"}


# -- `**`, `/`, `//`, `%`: Python's rules for Python numbers, NumPy's for NumPy values ----------
#
# The converter calls these instead of the operator where the Python-number analysis
# (transpiler.analysis.python_numbers) says which rules apply; elsewhere the operator stays.


def checked_pow(x, y):
    """Python's ``x ** y`` for Python numbers that are not both ints (and for int ** negative
    int, which Python computes in floats): 0.0 to a negative power raises ZeroDivisionError, a
    finite result too large raises OverflowError (Python docs, "Binary arithmetic operations";
    CPython's float_pow). Numba gives inf for both, and computes a float to an int power by
    repeated multiplication, which can differ from ``pow`` in the last bit.

    ``pow`` gives inf or nan exactly where Python may raise instead, so the checks cost one
    comparison when it does not."""
    x = float(x)    # a Python float (float64 in Numba): pow, never repeated multiplication
    y = float(y)
    result = x ** y
    if result - result != 0.0:                  # inf or nan
        if x == 0.0 and y < 0.0 and y != -math.inf:
            raise ZeroDivisionError("0.0 cannot be raised to a negative power")
        if x - x == 0.0 and y - y == 0.0:       # from finite operands
            if result != result:
                # A negative number to a fractional power: Python gives a complex number;
                # compiled code cannot change the result's type by value (README, "Known
                # gaps"): say so rather than give nan.
                raise ValueError("a negative number to a fractional power is complex in "
                                 "Python; compiled code cannot return it (graphjit)")
            raise OverflowError("(34, 'Numerical result out of range')")
    return result


_EXACT = 9007199254740992.0    # 2 ** 53: float64 holds every int below it exactly


def _num_checked(x, y, result):
    if (result >= _EXACT or result <= -_EXACT) and x == math.floor(x) and y == math.floor(y):
        raise OverflowError("an int from 2**53 in a value that is an int or a float by path: "
                            "compiled code holds it in float64 (graphjit)")
    return result


def checked_num_add(x, y):
    """``x + y`` where each operand is a Python int on some paths and a float on others (kept
    in float64): integral operands whose result float64 cannot hold exactly (2 ** 53 and
    beyond) may be Python ints, exact at any size; say so (an effect-free function re-runs
    as Python, transpiler.api) rather than give an inexact value."""
    return _num_checked(x, y, x + y)


def checked_num_sub(x, y):
    """``x - y``, as ``checked_num_add``."""
    return _num_checked(x, y, x - y)


def checked_num_mul(x, y):
    """``x * y``, as ``checked_num_add``."""
    return _num_checked(x, y, x * y)


def checked_pow_num(x, y):
    """``x ** y`` where each operand is a Python int on some paths and a float on others (kept
    in float64). When both are integral and the exponent is not negative, Python may be
    computing an int power, exact at any size; float64 holds it exactly only below 2 ** 53.
    Beyond, say so (an effect-free function re-runs as Python, transpiler.api) rather than
    give an inexact value or a float OverflowError. Otherwise as ``checked_pow``."""
    xf = float(x)
    yf = float(y)
    if yf >= 0.0 and xf - xf == 0.0 and yf - yf == 0.0 and xf == math.floor(xf) and \
            yf == math.floor(yf):
        return _num_checked(xf, yf, xf ** yf)     # an overflow is inf: beyond 2 ** 53 too
    return checked_pow(x, y)


NUM_CHECKED = {"Add": checked_num_add, "Sub": checked_num_sub, "Mult": checked_num_mul}
"""Operator name -> the checked function for operands that are ints or floats by path."""


def int_pow(x, y):
    """Python's int ** int for an exponent known to be >= 0; a result beyond int64 raises
    OverflowError (Python gives a bigger int; Numba would wrap silently). Small bases pass
    one comparison; otherwise a float estimate decides, but near 2**63, where the size is
    computed exactly in uint64 (it is below 2**64 there, so that nothing wraps)."""
    if y < 2 or -1 <= x <= 1:
        return x ** y
    if x == -9223372036854775808:
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    if y < 63 and (-x if x < 0 else x) < (1 << (63 // y)):
        return x ** y                       # |x| < 2 ** (63 // y): the power is below 2 ** 63
    estimate = abs(float(x)) ** float(y)
    if estimate < 9.2e18:                   # 2**63 is 9.223e18; the estimate is within 1e-14
        return x ** y
    if estimate > 9.3e18:
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    size = np.uint64(-x if x < 0 else x) ** np.uint64(y)
    negative = x < 0 and y % 2 == 1
    if size > np.uint64(9223372036854775808) or (
            size == np.uint64(9223372036854775808) and not negative):
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    return x ** y


def int_pow_bounded(x, y, low, high):
    """``x ** y`` for a constant exponent ``y >= 2``: ``low <= x <= high`` is exactly where
    the result fits int64 (bounds computed when converting); outside, OverflowError."""
    if x < low or x > high:
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    return x ** y


def int64_pow_bounds(exponent):
    """``(low, high)``: the ints ``x`` with ``x ** exponent`` inside int64 (exponent >= 2)."""
    top, bottom = 2 ** 63 - 1, -2 ** 63
    if exponent >= 64:
        return -1, 1
    high = int(round(top ** (1.0 / exponent))) + 2
    while high ** exponent > top:
        high -= 1
    low = -high
    if exponent % 2 and (low - 1) ** exponent >= bottom:
        low -= 1
    return low, high


def numpy_pow(x, y):
    """NumPy's ``x ** y`` where one side is a NumPy scalar (Python numbers already typed by
    NEP 50): an integer to a negative integer power raises ValueError (Numba gives 0 or raises
    ZeroDivisionError); a float to an integer power is ``pow`` in the promoted float type
    (Numba multiplies, which can differ in the last bit, and raises ZeroDivisionError for
    0.0 to a negative power where NumPy gives inf). One ``return``: the branches on types are
    decided when Numba compiles, and each type keeps one path."""
    # NumPy's integer scalar types (spelled out here, not a global: a global would be guarded
    # at every call). In Python a Python int is none of them (NumPy applies NEP 50 itself); in
    # Numba an int64 is np.int64. ``isinstance`` on types is decided when Numba compiles.
    exponent = y
    if isinstance(y, (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                      np.uint64, np.bool_)):
        if isinstance(x, (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                          np.uint32, np.uint64, np.bool_)):
            if y < 0:
                raise ValueError("Integers to negative integer powers are not allowed.")
        elif isinstance(x, np.float64):
            exponent = np.float64(y)
        elif isinstance(x, np.float32):
            if isinstance(y, (np.int8, np.int16, np.uint8, np.uint16, np.bool_)):
                exponent = np.float32(y)
            else:
                exponent = np.float64(y)
    return x ** exponent


def numpy_truediv(x, y):
    """NumPy's ``x / y``: a zero divisor gives inf/-inf/nan (Numba raises ZeroDivisionError
    for scalars; its array division already follows NumPy)."""
    if np.isscalar(x) and np.isscalar(y):
        if y == 0:
            return np.true_divide(x, y)
    return x / y


def numpy_floordiv(x, y):
    """NumPy's ``x // y``: by zero, inf/-inf/nan for floats, 0 for integers."""
    if np.isscalar(x) and np.isscalar(y):
        if y == 0:
            return np.floor_divide(x, y)
    return x // y


def numpy_floordiv_int64(x, y):
    """NumPy's int64 ``x // y``: 0 by zero, and the most negative int64 by -1 wraps to itself
    (Numba gives 0)."""
    if y == 0:
        return x - x
    if y == -1:
        return np.int64(np.uint64(0) - np.uint64(x))
    return x // y


def numpy_mod(x, y):
    """NumPy's ``x % y``: by zero, nan for floats, 0 for integers."""
    if np.isscalar(x) and np.isscalar(y):
        if y == 0:
            return np.remainder(x, y)
    return x % y


def python_lshift(x, n):
    """Python's ``x << n`` on ints: a negative count raises ValueError; a result beyond int64
    says so (never wraps: an effect-free call re-runs as Python)."""
    if n < 0:
        raise ValueError("negative shift count")
    if x == 0:
        return x - x
    if n >= 63 or (x << n) >> n != x:
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    return x << n


def python_floordiv_int(x, y):
    """Python's ``x // y`` on ints: ``-2**63 // -1`` is 2**63, beyond int64 (Numba gives 0):
    said so, never wrapped (an effect-free call re-runs as Python)."""
    if y == -1 and x == -9223372036854775807 - 1:
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    return x // y


def python_divmod_int(x, y):
    """Python's ``divmod(x, y)`` on ints; ``divmod(-2**63, -1)`` leaves int64 (see
    :func:`python_floordiv_int`)."""
    if y == -1 and x == -9223372036854775807 - 1:
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    return divmod(x, y)


def python_rshift(x, n):
    """Python's ``x >> n`` on ints: a negative count raises ValueError; 64 or more gives the
    sign (0 or -1)."""
    if n < 0:
        raise ValueError("negative shift count")
    if n >= 64:
        return (x - x) - (x < 0)
    return x >> n


def _c_quot(ar, ai, br, bi):
    """CPython's _Py_c_quot (Objects/complexobject.c) on float64 parts; a zero divisor
    raises ZeroDivisionError (EDOM)."""
    abs_br = -br if br < 0 else br
    abs_bi = -bi if bi < 0 else bi
    if abs_br >= abs_bi:
        if abs_br == 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        ratio = bi / br
        denom = br + bi * ratio
        return (ar + ai * ratio) / denom, (ai - ar * ratio) / denom
    if abs_bi >= abs_br:
        ratio = br / bi
        denom = br * ratio + bi
        return (ar * ratio + ai) / denom, (ai * ratio - ar) / denom
    return math.nan, math.nan


def python_complex_pow(x, y):
    """Python's ``x ** y`` with a Python complex operand (CPython's complex_pow,
    Objects/complexobject.c): an integral real exponent up to 100 in magnitude is repeated
    multiplication (c_powi), else _Py_c_pow; 0 to a negative or complex power raises
    ZeroDivisionError, an infinite result OverflowError. Numba uses exp/log for every
    exponent (``(2j) ** 3`` differs in the last bits)."""
    a = np.complex128(x)
    b = np.complex128(y)
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    if bi == 0.0 and br == math.floor(br) and abs(br) <= 100.0:
        n = int(br)
        m = -n if n < 0 else n
        rr, ri = 1.0, 0.0
        pr, pi = ar, ai
        mask = 1
        while mask <= m:
            if m & mask:
                rr, ri = rr * pr - ri * pi, rr * pi + ri * pr
            mask <<= 1
            pr, pi = pr * pr - pi * pi, pr * pi + pi * pr
        if n <= 0:
            rr, ri = _c_quot(1.0, 0.0, rr, ri)
    elif br == 0.0 and bi == 0.0:
        rr, ri = 1.0, 0.0
    elif ar == 0.0 and ai == 0.0:
        if bi != 0.0 or br < 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        rr, ri = 0.0, 0.0
    else:
        vabs = np.hypot(ar, ai)     # C's hypot, as _Py_c_pow (math.hypot is CPython's own)
        length = math.pow(vabs, br)
        at = math.atan2(ai, ar)
        phase = at * br
        if bi != 0.0:
            length = np.true_divide(length, math.exp(at * bi))   # C division: inf by 0
            phase += bi * math.log(vabs)
        if phase == math.inf or phase == -math.inf:
            # libm's cos(inf) sets errno EDOM, which CPython reports as this error
            raise ZeroDivisionError("0.0 to a negative or complex power")
        rr, ri = length * math.cos(phase), length * math.sin(phase)
    if rr == math.inf or rr == -math.inf or ri == math.inf or ri == -math.inf:
        raise OverflowError("complex exponentiation")
    return complex(rr, ri)


def alike_div(x, y):
    """``x / y`` where an operand is a Python float on some paths and an np.float64 on others
    (or an int and an np.int64): equal results, except by zero (Python raises
    ZeroDivisionError, NumPy gives inf/nan): there compiled code says so (an effect-free call
    runs again as Python, transpiler.api)."""
    if y == 0:
        raise OverflowError(_BY_PATH)
    return x / y


def alike_floordiv(x, y):
    """``x // y`` of such operands (see alike_div)."""
    if y == 0:
        raise OverflowError(_BY_PATH)
    return x // y


def alike_mod(x, y):
    """``x % y`` of such operands (see alike_div)."""
    if y == 0:
        raise OverflowError(_BY_PATH)
    return x % y


ALIKE_BINOPS = {"Div": alike_div, "FloorDiv": alike_floordiv, "Mod": alike_mod}


def python_to_int_dtype(x, below, above):
    """A Python int or float converted to a NumPy integer type (``np.uint8(x)``): NumPy 2
    raises ValueError for nan and OverflowError where the (truncated) value does not fit,
    that is where ``x <= below`` or ``x >= above`` (the dtype's bounds -1 and +1, as
    floats for a float ``x``); Numba's conversion wraps."""
    if x != x:
        raise ValueError("cannot convert float NaN to integer")
    if x <= below or x >= above:
        raise OverflowError("Python integer out of bounds for the NumPy integer type")
    return x


def numpy_int_pow(x, y):
    """NumPy's integer ``x ** y`` (both of the loop's dtype): a negative exponent raises
    ValueError; otherwise squaring and multiplying in uint64, whose wrapping is the loop's
    modulo its width (the caller converts the result to the dtype). Numba's integer power
    takes a uint64 exponent from 2**63 as negative, and its signed products are `nsw`."""
    if y < 0:
        raise ValueError("Integers to negative integer powers are not allowed.")
    one = np.uint64(1)
    result = one
    base = np.uint64(x)
    e = np.uint64(y)
    while e:
        if e & one:
            result = result * base
        base = base * base
        e = e >> one
    return result


def numpy_lshift(x, y, bits):
    """NumPy's ``x << y`` on integers of one ``bits``-bit dtype (``npy_lshift``,
    numpy/_core/src/npymath/npy_math_internal.h.src): a count outside ``[0, bits)`` gives 0
    (the caller converts the result to the dtype, which wraps it)."""
    if y < 0 or y >= bits:
        return x - x
    return x << y


def numpy_rshift(x, y, bits, zero, minus_one):
    """NumPy's ``x >> y`` (``npy_rshift``): a count outside ``[0, bits)`` gives -1 for a
    negative ``x``, else 0 (``zero``/``minus_one`` are of the loop dtype: uint64 minus a bool
    would be a float64 in Numba)."""
    if y < 0 or y >= bits:
        if x < zero:
            return minus_one
        return zero
    return x >> y


def numpy_cdiv128(x, y):
    """NumPy's complex128 ``x / y`` (Smith's algorithm, ``@TYPE@_divide`` in
    numpy/_core/src/umath/loops_arithm_fp.dispatch.c.src and scalarmath.c.src); Numba and
    CPython divide otherwise and differ in the last bits (``127 / (1+2j)``)."""
    xr, xi, yr, yi = x.real, x.imag, y.real, y.imag
    ar, ai = abs(yr), abs(yi)
    if ar >= ai and ar == 0 and ai == 0:
        re, im = np.true_divide(xr, ar), np.true_divide(xi, ar)
    elif ar >= ai:
        rat = yi / yr
        scl = 1.0 / (yr + yi * rat)
        re, im = (xr + xi * rat) * scl, (xi - xr * rat) * scl
    else:
        rat = yr / yi
        scl = 1.0 / (yi + yr * rat)
        re, im = (xr * rat + xi) * scl, (xi * rat - xr) * scl
    return complex(re, im)


def numpy_cdiv64(x, y):
    """NumPy's complex64 ``x / y``: numpy_cdiv128 computed in float32."""
    xr, xi, yr, yi = x.real, x.imag, y.real, y.imag
    ar, ai = abs(yr), abs(yi)
    one = np.float32(1.0)
    if ar >= ai and ar == 0 and ai == 0:
        re, im = np.true_divide(xr, ar), np.true_divide(xi, ar)
    elif ar >= ai:
        rat = yi / yr
        scl = one / (yr + yi * rat)
        re, im = (xr + xi * rat) * scl, (xi - xr * rat) * scl
    else:
        rat = yr / yi
        scl = one / (yi + yr * rat)
        re, im = (xr * rat + xi) * scl, (xi * rat - xr) * scl
    return np.complex64(complex(re, im))


numpy_complex_div = {"complex128": numpy_cdiv128, "complex64": numpy_cdiv64}


def store_int_checked(x, low, high):
    """An integer value stored into a signed integer array (or a Python int into any integer
    array): NumPy 2's setitem converts it to a Python int and raises OverflowError where it
    does not fit ``[low, high]`` (bounds of the value's own type; Numba would wrap)."""
    if x < low or x > high:
        raise OverflowError("Python integer out of bounds for the array's dtype")
    return x


def store_float_checked(x, low, high):
    """A float stored into an integer array from a Python float (or into a signed array from
    any float): NumPy 2's setitem truncates it as ``int()`` does: nan raises ValueError, a
    value outside ``(low, high)`` OverflowError (Numba's conversion is undefined there)."""
    if x != x:
        raise ValueError("cannot convert float NaN to integer")
    if not low < x < high:
        raise OverflowError("Python integer out of bounds for the array's dtype")
    return x


def store_numpy_float_unsigned(x, low, high):
    """A NumPy float stored into an unsigned array: NumPy converts it to a signed integer
    first (int32 for uint8/uint16, int64 for uint32/uint64: ``(low, high)``), then wraps.
    Outside that range (and nan) C's conversion is undefined: said so, never guessed."""
    if not low < x < high:
        raise OverflowError(_UNDEFINED_STORE)
    return np.int64(x)


def fit_int(x, low, high):
    """A Python int meeting an integer NumPy scalar (NEP 50): NumPy 2 raises OverflowError
    when it does not fit the scalar's dtype ``[low, high]``."""
    if x < low or x > high:
        raise OverflowError("Python integer out of bounds for the NumPy scalar's dtype")
    return x


def weak_left(op, x, y):
    """``op(x, y)`` for a Python number ``x`` meeting a NumPy scalar ``y`` that the converter
    cannot name twice (``abs(a[i])``): NEP 50 types ``x`` by ``y`` here, where ``y`` is a name."""
    return op(weak(x, y), y)


def weak_right(op, x, y):
    """``op(x, y)`` for a NumPy scalar ``x`` meeting a Python number ``y`` (see weak_left)."""
    return op(x, weak(y, x))


NUMPY_BINOPS = {"Pow": numpy_pow, "Div": numpy_truediv, "FloorDiv": numpy_floordiv,
                "Mod": numpy_mod}
"""gast operator name -> the NumPy-rules function used where a NumPy value is an operand."""


# NEP 50 where the NumPy operand of + - * is an expression the converter cannot evaluate twice
# (a call: ``np.sin(y) * 0.5``): the helper names it once, then types the number by it.
def weak_add_left(x, y):
    # int_add & co: an int64 there may be a Python int (overflow checked: transpiler.ir)
    return int_add(weak(x, y), y)


def weak_add_right(x, y):
    return int_add(x, weak(y, x))


def weak_sub_left(x, y):
    return int_sub(weak(x, y), y)


def weak_sub_right(x, y):
    return int_sub(x, weak(y, x))


def weak_mul_left(x, y):
    return int_mul(weak(x, y), y)


def weak_mul_right(x, y):
    return int_mul(x, weak(y, x))


def weak_lt_left(x, y):
    return weak(x, y) < y


def weak_lt_right(x, y):
    return x < weak(y, x)


def weak_le_left(x, y):
    return weak(x, y) <= y


def weak_le_right(x, y):
    return x <= weak(y, x)


def weak_gt_left(x, y):
    return weak(x, y) > y


def weak_gt_right(x, y):
    return x > weak(y, x)


def weak_ge_left(x, y):
    return weak(x, y) >= y


def weak_ge_right(x, y):
    return x >= weak(y, x)


def weak_eq_left(x, y):
    return weak(x, y) == y


def weak_eq_right(x, y):
    return x == weak(y, x)


def weak_ne_left(x, y):
    return weak(x, y) != y


def weak_ne_right(x, y):
    return x != weak(y, x)


def weak_div_left(x, y):
    return weak(x, y) / y


def weak_div_right(x, y):
    return x / weak(y, x)


def weak_floordiv_left(x, y):
    return weak(x, y) // y


def weak_floordiv_right(x, y):
    return x // weak(y, x)


def weak_mod_left(x, y):
    return weak(x, y) % y


def weak_mod_right(x, y):
    return x % weak(y, x)


def weak_pow_left(x, y):
    return weak(x, y) ** y


def weak_pow_right(x, y):
    return x ** weak(y, x)


WEAK_ARRAY_BINOPS = {("Div", "left"): weak_div_left, ("Div", "right"): weak_div_right,
                     ("FloorDiv", "left"): weak_floordiv_left,
                     ("FloorDiv", "right"): weak_floordiv_right,
                     ("Mod", "left"): weak_mod_left, ("Mod", "right"): weak_mod_right,
                     ("Pow", "left"): weak_pow_left, ("Pow", "right"): weak_pow_right}
"""NEP 50 helpers for operators whose NumPy *scalar* forms are NUMPY_BINOPS: used where the
other side is an array (Numba's array operators already follow NumPy)."""

WEAK_BINOPS = {("Add", "left"): weak_add_left, ("Add", "right"): weak_add_right,
               ("Sub", "left"): weak_sub_left, ("Sub", "right"): weak_sub_right,
               ("Mult", "left"): weak_mul_left, ("Mult", "right"): weak_mul_right,
               # comparisons: NumPy 2 compares np.float32(-0.67) >= -0.67 in float32 (True)
               ("Lt", "left"): weak_lt_left, ("Lt", "right"): weak_lt_right,
               ("LtE", "left"): weak_le_left, ("LtE", "right"): weak_le_right,
               ("Gt", "left"): weak_gt_left, ("Gt", "right"): weak_gt_right,
               ("GtE", "left"): weak_ge_left, ("GtE", "right"): weak_ge_right,
               ("Eq", "left"): weak_eq_left, ("Eq", "right"): weak_eq_right,
               ("NotEq", "left"): weak_ne_left, ("NotEq", "right"): weak_ne_right}
"""(gast operator name, side of the Python number) -> its NEP 50 helper."""
