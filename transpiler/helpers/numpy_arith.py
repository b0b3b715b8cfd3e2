"""NumPy 2's rules for ``**``, ``/``, ``//``, ``%``, shifts and complex division of NumPy values,
conversions of Python numbers to NumPy integer types, and the checks of stores into arrays.
"""
import numpy as np

from ..ir import opaque
from .messages import BY_PATH, UNDEFINED_CAST
from .python_arith import int_pow


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
    return opaque(x) ** opaque(exponent)    # libm's pow, never folded (transpiler.ir.opaque)


def numpy_truediv(x, y):
    """NumPy's ``x / y``: a zero divisor gives inf/-inf/nan (Numba raises ZeroDivisionError
    for scalars; its array division already follows NumPy). One return: the converter's
    early-return flags leave a result undefined on a path, and that phi crashes Numba's
    isinstance literal propagation wherever this is inlined beside numpy_pow
    (``2.0 ** (x / 128.0)`` fell back)."""
    return np.true_divide(x, y) if np.isscalar(x) and np.isscalar(y) and y == 0 else x / y


def numpy_scalar_truediv(x, y):
    """``numpy_truediv`` where the converter knows both operands are scalars: no
    ``np.isscalar``, which Numba compiles as a function per argument type (numpy_truediv cost
    ~50 ms of newton_sqrt's 450 ms first call, measured on the 2-core machine). One return
    (numpy_truediv: why)."""
    return np.true_divide(x, y) if y == 0 else x / y


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


def int_uint64_sign(i, u):
    """-1, 0 or 1 as ``i`` (an int64: a Python int in compiled code) is less than, equal to or
    greater than the uint64 ``u``, exactly. NumPy 2 compares a Python int with an np.uint64
    exactly (NEP 50: comparisons with Python ints are special-cased to give the mathematical
    answer, numpy/_core/src/umath/special_integer_comparisons.cpp); Numba converts int64 and
    uint64 to float64, where ``2**63 - 1 == np.uint64(2**63)``."""
    if i < 0:
        return -1
    j = np.uint64(i)
    if j < u:
        return -1
    return 1 if j > u else 0


def numpy_scalar_floordiv(x, y):
    """``numpy_floordiv`` of two scalars (numpy_scalar_truediv: why)."""
    return np.floor_divide(x, y) if y == 0 else x // y


def numpy_mod(x, y):
    """NumPy's ``x % y``: by zero, nan for floats, 0 for integers."""
    if np.isscalar(x) and np.isscalar(y):
        if y == 0:
            return np.remainder(x, y)
    return x % y


def numpy_scalar_mod(x, y):
    """``numpy_mod`` of two scalars (numpy_scalar_truediv: why)."""
    return np.remainder(x, y) if y == 0 else x % y


def alike_div(x, y):
    """``x / y`` where an operand is a Python float on some paths and an np.float64 on others
    (or an int and an np.int64): equal results, except by zero (Python raises
    ZeroDivisionError, NumPy gives inf/nan) and for two ints beyond 2**53: there compiled
    code says so (an effect-free call runs again as Python, transpiler.api)."""
    if y == 0:
        raise OverflowError(BY_PATH)
    # Two ints beyond 2**53: Python divides them exactly (CPython long_true_divide), NumPy
    # rounds each to float64 first. (isinstance on types is decided when Numba compiles; a
    # Python int is an int64 there.)
    if isinstance(x, (np.int64, np.bool_)) and isinstance(y, (np.int64, np.bool_)) and (
            x > 9007199254740992 or x < -9007199254740992 or
            y > 9007199254740992 or y < -9007199254740992):
        raise OverflowError(BY_PATH)
    return x / y


def alike_floordiv(x, y):
    """``x // y`` of such operands (see alike_div); ``-2**63 // -1`` is 2**63 in Python and
    wraps in NumPy: said so too."""
    if y == 0 or (y == -1 and x == -9223372036854775807 - 1):
        raise OverflowError(BY_PATH)
    return x // y


def alike_lshift(x, n):
    """``x << n`` where an operand is a Python int on some paths and an np.int64 on others:
    equal results while the count is in 0..63 and the result fits int64; beyond, Python's int
    grows (or raises ValueError for a negative count) and NumPy's gives 0 or wraps (its
    ``npy_lshift``, numpy/_core/src/npymath/npy_math_internal.h.src): compiled code says so
    and an effect-free call runs again as Python."""
    if n < 0 or (x != 0 and (n >= 63 or (x << n) >> n != x)):
        raise OverflowError(BY_PATH)
    if n >= 64:
        return x - x
    return x << n


def alike_rshift(x, n):
    """``x >> n`` of such operands: a negative count raises ValueError in Python and gives
    0 or -1 in NumPy (said so, see alike_lshift); a count from 64 gives the sign in both."""
    if n < 0:
        raise OverflowError(BY_PATH)
    if n >= 64:
        return x - x - 1 if x < 0 else x - x
    return x >> n


def alike_pow(x, y):
    """``x ** y`` where an operand is a Python float on some paths and an np.float64 on others
    (the other a float or an int, Python or NumPy): both are libm's ``pow`` in float64
    (CPython float_pow, NumPy npy_pow) while the result is finite. From finite operands,
    NumPy gives inf or nan where Python raises ZeroDivisionError (``0.0 ** -3``) or
    OverflowError (``1e308 ** 2``) or returns a complex (``(-8.0) ** (1/3)``): compiled code
    says so there (an effect-free call runs again as Python)."""
    a = np.float64(x)   # pow, never Numba's repeated multiplication for an int exponent
    b = np.float64(y)
    result = opaque(a) ** opaque(b)     # libm's pow, never folded (transpiler.ir.opaque)
    if result - result != 0.0 and a - a == 0.0 and b - b == 0.0:   # inf or nan from finite
        raise OverflowError(BY_PATH)
    return result


def alike_int_pow(x, y):
    """``x ** y`` where an operand is a Python int on some paths and an np.int64 on others:
    Python gives a float for a negative exponent (``10 ** -2`` is 0.01) where NumPy raises
    ValueError, and a bigger int beyond int64 where NumPy wraps; both agree elsewhere. A
    negative exponent says so (an effect-free call runs again as Python); a result beyond
    int64 raises OverflowError as :func:`python_arith.int_pow` (the same)."""
    if y < 0:
        raise OverflowError(BY_PATH)
    return int_pow(x, y)


def alike_exact_int(i):
    """The int ``i`` of a comparison between an int and a float where either is a Python
    number on some paths and a NumPy scalar (np.int64, np.float64) on others: Python compares
    an int with a float exactly (CPython ``float_richcompare``), NumPy converts the int to
    float64 first (NEP 50: the Python int is weak; np.int64 with a float: the float64 loop),
    so ``2.0**53 == 2**53 + 1`` is False plainly and True with an np.float64. Both agree
    while float64 holds ``i`` exactly (|i| <= 2**53); beyond, compiled code says so (an
    effect-free call runs again as Python)."""
    if i < -9007199254740992 or i > 9007199254740992:
        raise OverflowError(BY_PATH)
    return i


def alike_mod(x, y):
    """``x % y`` of such operands (see alike_div)."""
    if y == 0:
        raise OverflowError(BY_PATH)
    return x % y


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
    CPython divide otherwise and differ in the last bits (``127 / (1+2j)``). Every division
    is C's (``np.true_divide``): with a NaN part the branches divide by a zero part, which is
    NaN in C and a ZeroDivisionError for Numba's ``/``."""
    xr, xi, yr, yi = x.real, x.imag, y.real, y.imag
    ar, ai = abs(yr), abs(yi)
    if ar >= ai and ar == 0 and ai == 0:
        re, im = np.true_divide(xr, ar), np.true_divide(xi, ar)
    elif ar >= ai:
        rat = np.true_divide(yi, yr)
        scl = np.true_divide(1.0, yr + yi * rat)
        re, im = (xr + xi * rat) * scl, (xi - xr * rat) * scl
    else:
        rat = np.true_divide(yr, yi)
        scl = np.true_divide(1.0, yi + yr * rat)
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
        rat = np.true_divide(yi, yr)
        scl = np.true_divide(one, yr + yi * rat)
        re, im = (xr + xi * rat) * scl, (xi - xr * rat) * scl
    else:
        rat = np.true_divide(yr, yi)
        scl = np.true_divide(one, yi + yr * rat)
        re, im = (xr * rat + xi) * scl, (xi * rat - xr) * scl
    return np.complex64(complex(re, im))


def element_index_checked(a, index):
    """``index`` (an int, or a tuple of ``a.ndim`` ints) checked to address an element of
    ``a`` before a checked store converts the value: NumPy's setitem raises IndexError
    before it converts (``a[5] = -1.5`` into a uint64 array of 3 elements), while the value
    check runs before Numba's own bounds check. Rewriting the element keeps the read from
    being removed as dead code; LLVM drops the redundant store."""
    a[index] = a[index]
    return index


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


def numpy_float_to_int_type(x, low, high):
    """A NumPy float converted to a NumPy integer type below 64 unsigned bits, by a
    constructor (``np.int8(np.float64(300.0))``) or a store into an array of it: NumPy's C
    cast, which truncates through int32 (into 8- and 16-bit types and int32: ``(low, high)``
    = (-2**31 - 1, 2**31)) or int64 (into int64 and uint32) and wraps (44 there); the caller
    converts the int64 returned. Outside that range, and for nan, the cast is undefined (NumPy
    warns, its value depends on the machine): said so (messages.UNDEFINED_CAST)."""
    if not low < x < high:
        raise OverflowError(UNDEFINED_CAST)
    return np.int64(x)


def numpy_float_to_uint64(x):
    """A NumPy float converted to np.uint64 (a constructor, a store): through int64 below 2**63
    (a negative value wraps), the value itself from 2**63 to 2**64 (C defines it: the truncated
    value is representable); nan and beyond: undefined, said so (messages.UNDEFINED_CAST)."""
    if -9223372036854777856.0 < x < 9223372036854775808.0:
        return np.uint64(np.int64(x))
    if 9223372036854775808.0 <= x < 18446744073709551616.0:
        return np.uint64(x)
    raise OverflowError(UNDEFINED_CAST)


def fit_int(x, low, high):
    """A Python int meeting an integer NumPy scalar (NEP 50): NumPy 2 raises OverflowError
    when it does not fit the scalar's dtype ``[low, high]``."""
    if x < low or x > high:
        raise OverflowError("Python integer out of bounds for the NumPy scalar's dtype")
    return x


def numpy_sign(x, zero, one):
    """NumPy's ``np.sign`` of a real scalar already in the loop dtype (``zero``/``one`` of that
    dtype): numpy/_core/src/umath/loops.c.src ``@TYPE@_sign``: ``in > 0 ? 1 : (in < 0 ? -1 :
    (in == 0 ? 0 : in))``: ``sign(-0.0)`` is +0.0, nan stays nan, an unsigned value is 0 or 1
    (Numba gives 255 for ``np.sign(np.uint8(255))``)."""
    if x > zero:
        return one
    if x < zero:
        return zero - one
    if x == zero:
        return zero
    return x


def numpy_maximum(x, y):
    """NumPy's ``np.maximum`` of two floats of the loop dtype (numpy/_core/src/umath/
    loops_minmax.dispatch.c.src ``scalar_max_f``, as NumPy 2 gives for scalars): nan if either
    is nan, else ``y`` where they compare equal (``np.maximum(0.0, -0.0)`` is -0.0)."""
    if x != x:
        return x
    if y != y:
        return y
    return x if x > y else y


def numpy_minimum(x, y):
    """NumPy's ``np.minimum`` of two floats of the loop dtype: nan if either is nan, else ``y``
    where they compare equal (``np.minimum(-0.0, 0.0)`` is 0.0)."""
    if x != x:
        return x
    if y != y:
        return y
    return x if x < y else y


def created_float_checked(x, low, high):
    """A float converted into an integer array being created (``np.full(n, x, dtype=np.int8)``,
    ``np.array([x], np.uint8)``): NumPy casts it unsafely, with a RuntimeWarning and a value
    C leaves undefined where it is nan or outside ``(low, high)``: said not to fit there (an
    effect-free call runs again as Python), never guessed."""
    if not low < x < high:
        raise OverflowError("a float outside the integer dtype's range (or nan) converted "
                            "into a new array: NumPy's value is undefined (graphjit)")
    return x
