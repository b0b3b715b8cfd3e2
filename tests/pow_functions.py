"""Powers whose constant operand LLVM would fold (tests/test_pow_exact.py)."""
import math


def square(x):
    return x ** 2.0


def square_int(x):
    return x ** 2


def inverse(x):
    return x ** -1.0


def root(x):
    return abs(x) ** 0.5


def inverse_root(x):
    return abs(x) ** -0.5


def cube(x):
    return x ** 3.0


def two_to(x):
    return 2.0 ** (x / 128.0)


def math_square(x):
    return math.pow(x, 2.0)


def builtin_pow(x):
    return pow(x, 2)


def sum_of_squares(a):
    s = 0.0
    for v in a:
        s += float(v) ** 2
    return s


def element_squares(a):
    s = a[0] ** 2
    for i in range(1, a.shape[0]):
        s += a[i] ** 2
    return s


def float_power_after_not(y, t):
    y = y - (not t)     # the Python-number analysis gives up on y; the scalar types do not
    return y ** (y + 0.001)


def int_powers_after_not(k, t, e):
    k = k - (not t)
    return k ** 2, k ** 3, 2 ** (k % 70) if k >= 0 else 0, k ** e
