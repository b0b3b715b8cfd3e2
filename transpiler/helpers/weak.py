"""NEP 50 where the NumPy operand is an expression the converter cannot evaluate twice (a call:
``np.sin(y) * 0.5``): the helper names it once, then types the Python number by it
(``transpiler.ir.weak``).
"""
from ..ir import int_add, int_mul, int_sub, weak


def weak_left(op, x, y):
    """``op(x, y)`` for a Python number ``x`` meeting a NumPy scalar ``y`` that the converter
    cannot name twice (``abs(a[i])``): NEP 50 types ``x`` by ``y`` here, where ``y`` is a name."""
    return op(weak(x, y), y)


def weak_right(op, x, y):
    """``op(x, y)`` for a NumPy scalar ``x`` meeting a Python number ``y`` (see weak_left)."""
    return op(x, weak(y, x))


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
