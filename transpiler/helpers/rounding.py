"""``round``: CPython's correctly rounded ``round(x, n)`` and NumPy's ``np.round`` in float64
arithmetic, and ``round(x)`` to an int.
"""
import math

import numpy as np

from .math_checks import _finite_for_int


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
    multiplied by ten a step at a time (not 10.0 ** n: they differ from 1e23). One return:
    inlined into a loop with ``n`` constant, an early return's flag left Numba's branch
    pruning a result undefined on the pruned path (TypingError: the loop ran as Python)."""
    value = 1e9
    if n < 9:
        value = 10.0 ** n
    else:
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
        result = kind(np.rint(x * f) / f)
    else:                                   # (one return: see _numpy_power_of_ten)
        f = kind(_numpy_power_of_ten(-n))
        result = kind(np.rint(x / f) * f)
    return result
