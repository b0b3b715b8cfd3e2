"""Python's rules for ``**``, ``<<``, ``>>``, ``//`` and ``divmod`` of Python numbers, and the checks
of a value that is an int or a float by path (held in float64).

The converter calls these instead of the operator where the Python-number analysis
(transpiler.analysis.python_numbers) says Python's rules apply; elsewhere the operator stays.
"""
import math

import numpy as np

from ..ir import opaque


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
    result = opaque(x) ** opaque(y)     # libm's pow, never folded (transpiler.ir.opaque)
    if result - result != 0.0:                  # inf or nan
        if x == 0.0 and y < 0.0 and y != -math.inf:
            raise ZeroDivisionError("0.0 cannot be raised to a negative power")
        if x - x == 0.0 and y - y == 0.0:       # from finite operands
            if result != result:
                # A negative number to a fractional power: Python gives a complex number;
                # compiled code cannot change the result's type by value (a known gap,
                # docs/reference/semantics.md): say so rather than give nan.
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


def python_int_truediv(x, y):
    """Python's ``x / y`` on ints: the exact quotient rounded once to a float (CPython
    ``Objects/longobject.c``, ``long_true_divide``). Numba converts each int to float64 first,
    which rounds twice once an int is beyond 2**53 (``(2**63 - 512) / 10``: one ulp off).
    Within 2**53 both conversions are exact and the IEEE division rounds once, as CPython's own
    fast path does; beyond, raises OverflowError (messages.INT_TRUEDIV_INEXACT: an effect-free
    call runs again as Python). ``y == 0`` raises ZeroDivisionError, as Python does."""
    if -9007199254740992 <= x <= 9007199254740992 and \
            -9007199254740992 <= y <= 9007199254740992:
        return float(x) / float(y)
    if y == 0:
        raise ZeroDivisionError("division by zero")
    raise OverflowError("an int beyond 2**53 in a true division of ints: Python rounds the "
                        "exact quotient once, compiled code would round each int first "
                        "(graphjit)")


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


# -- comparisons of a Python int with a Python float: exact, as CPython's ------------------------

_TWO_63 = 9223372036854775808.0     # 2 ** 63: every int64 is below it
_EXACT_INT = 9007199254740992       # 2 ** 53 as an int


def _int_float_order(i, f):
    """-1, 0 or 1 as the int64 ``i`` is below, equal to or above the float ``f``, exactly;
    2 when ``f`` is nan. CPython compares an int with a float by their exact values
    (Objects/floatobject.c ``float_richcompare``); Numba converts the int to float64 first,
    so ``2**53 + 1 > 2.0**53`` would be False there."""
    if f != f:
        return 2
    if -_EXACT_INT <= i <= _EXACT_INT:  # float64 holds i exactly (int bounds: compared
        # with a float bound, Numba would round i first)
        g = float(i)
        return -1 if g < f else (1 if g > f else 0)
    if f >= _TWO_63:
        return -1
    if f < -_TWO_63:
        return 1
    if -_EXACT < f < _EXACT:            # |i| > 2**53 > |f|: the sign decides
        return 1 if i > 0 else -1
    n = int(f)                          # f is integral here (|f| >= 2**53) and in int64
    return -1 if i < n else (1 if i > n else 0)


def int_float_lt(i, f):
    """``i < f`` of a Python int and a Python float, exactly (:func:`_int_float_order`)."""
    return _int_float_order(i, f) == -1


def int_float_le(i, f):
    """``i <= f`` exactly."""
    order = _int_float_order(i, f)
    return order == -1 or order == 0


def int_float_gt(i, f):
    """``i > f`` exactly."""
    return _int_float_order(i, f) == 1


def int_float_ge(i, f):
    """``i >= f`` exactly."""
    order = _int_float_order(i, f)
    return order == 1 or order == 0


def int_float_eq(i, f):
    """``i == f`` exactly."""
    return _int_float_order(i, f) == 0


def int_float_ne(i, f):
    """``i != f`` exactly (True against nan)."""
    return _int_float_order(i, f) != 0


def float_int_lt(f, i):
    """``f < i`` of a Python float and a Python int, exactly; the float is the first
    argument so that it is evaluated first, as Python evaluates the left operand first."""
    return _int_float_order(i, f) == 1


def float_int_le(f, i):
    """``f <= i`` exactly."""
    order = _int_float_order(i, f)
    return order == 1 or order == 0


def float_int_gt(f, i):
    """``f > i`` exactly."""
    return _int_float_order(i, f) == -1


def float_int_ge(f, i):
    """``f >= i`` exactly."""
    order = _int_float_order(i, f)
    return order == -1 or order == 0


def float_int_eq(f, i):
    """``f == i`` exactly."""
    return _int_float_order(i, f) == 0


def float_int_ne(f, i):
    """``f != i`` exactly (True against nan)."""
    return _int_float_order(i, f) != 0


def evaluated_then(value, result):
    """``result`` after ``value`` was evaluated: a call Python makes for its argument's
    effects and exceptions (``isinstance(a[7 % n], bool)`` raises ZeroDivisionError for an
    empty ``a``), whose result graphjit knows at transpile time. Never inlined
    (helpers.NOT_INLINED), so that Numba keeps evaluating ``value``."""
    return result


def identity_exact(item, result):
    """``result`` (a comparison of tuples or lists, an ``in`` test of one) where ``item``
    (one of the items compared) is not a NaN; else OverflowError (messages.IDENTITY_NAN: an
    effect-free call runs again as Python). CPython compares items with
    ``PyObject_RichCompareBool``, which takes one object as equal to itself before comparing
    values (``Objects/object.c``): ``x = nan; (x, 1) < (x, 2)`` is True, ``x in (x,)`` too,
    where compiled code, which has values and no objects, compares nan == nan as False. Where
    no item is a NaN, identity implies equality and the two agree."""
    if item != item:
        raise OverflowError("a NaN item in a comparison of tuples or lists, or in an 'in' "
                            "test: Python's result depends on object identity (one NaN object "
                            "equals itself), which compiled code does not have (graphjit)")
    return result


def _magnitude(x):
    """``abs(x)`` of an integer (a Python int, bool or NumPy integer) as an exact uint64."""
    # one return, every path a uint64: Numba would unify an int64 path with a uint64 one
    # into a float64
    m = np.uint64(0)
    if isinstance(x, np.uint64):
        m = np.uint64(x)
    else:
        v = np.int64(x)
        if v >= 0:
            m = np.uint64(v)
        else:
            m = np.uint64(0) - np.uint64(v)
    return m


def python_gcd(a, b):
    """CPython's ``math.gcd(a, b)`` of two integers (Modules/mathmodule.c: ``_PyLong_GCD`` of
    their index values): a non-negative Python int whatever their types (Numba's gives -128
    for ``np.int8(-128), 0``, reads an np.uint64 from 2**63 on as negative and keeps NumPy
    types). Euclid's algorithm on the magnitudes in uint64; a result from 2**63 on is beyond
    int64 (said not to fit: an effect-free call runs again as Python)."""
    x = _magnitude(a)
    y = _magnitude(b)
    while y != 0:
        r = x % y
        x = y
        y = r
    if x >= np.uint64(9223372036854775808):
        raise OverflowError("int beyond int64 in compiled code (graphjit)")
    return np.int64(x)
