"""A Python int compared with a Python float is exact in Python (CPython's
``float_richcompare``): ``2**53 + 1 > 2.0**53`` is True. Numba converts the int to float64
first; graphjit compares exactly (helpers.python_arith ``int_float_lt``...). Every operator,
both operand orders, ints and floats around 2**53 and 2**63, nan and infinities."""
import itertools
import math

import pytest

import transpiler as tp
from transpiler.helpers.python_arith import (int_float_eq, int_float_ge, int_float_gt,
                                              int_float_le, int_float_lt, int_float_ne)

INTS = sorted({s * (b + d) for b in (0, 1, 2 ** 52, 2 ** 53, 2 ** 54, 2 ** 62, 2 ** 63 - 2)
               for d in (-2, -1, 0, 1, 2) for s in (1, -1)
               if -2 ** 63 <= s * (b + d) < 2 ** 63} | {-2 ** 63, 2 ** 63 - 1})
FLOATS = sorted({float(s * b) + d for b in (0, 1, 2 ** 53, 2 ** 54, 2 ** 63, 2 ** 64)
                 for d in (-2.0, -1.0, 0.0, 1.0, 0.5) for s in (1, -1)} |
                {math.inf, -math.inf, 0.5, -0.0, 1e300, -1e300, float(2 ** 63 - 1024)})
FLOATS.append(math.nan)


def all_orders(i, f):
    return (i < f, i <= f, i > f, i >= f, i == f, i != f,
            f < i, f <= i, f > i, f >= i, f == i, f != i)


def test_helpers_as_python_equal_python():
    helpers = (int_float_lt, int_float_le, int_float_gt, int_float_ge, int_float_eq,
               int_float_ne)
    ops = ("<", "<=", ">", ">=", "==", "!=")
    for i, f in itertools.product(INTS, FLOATS):
        for helper, op in zip(helpers, ops):
            assert helper(i, f) == eval(f"i {op} f"), (i, op, f)   # noqa: S307


@pytest.mark.parametrize("backend", ["numba-cpu", "eager"])
def test_compiled_equals_python(backend):
    compiled = tp.jit(all_orders, backend=backend, fullgraph=True)
    for i, f in itertools.product(INTS, FLOATS):
        assert compiled(i, f) == all_orders(i, f), (i, f)


def ties_in_a_loop(n):
    count = 0
    for k in range(n - 2, n + 3):
        if k > 9007199254740992.0:
            count += 1
    return count


def test_in_a_loop():
    compiled = tp.jit(ties_in_a_loop, fullgraph=True)
    for n in (2 ** 53, 2 ** 53 + 1, 2 ** 60, 5):
        assert compiled(n) == ties_in_a_loop(n)


def floors(n):
    return math.floor(n), math.ceil(n), math.trunc(n)


def floor_of_element(a):
    return math.floor(a[0]), math.ceil(a[0])


def test_floor_ceil_trunc_of_ints_are_the_ints():
    """CPython's int.__floor__/__ceil__/__trunc__ give the int itself; through float64 an
    int beyond 2**53 would round. NumPy's integer scalars have no __floor__: math.floor
    goes through float there, in Python as compiled."""
    import numpy as np
    compiled = tp.jit(floors, fullgraph=True)
    for n in (2 ** 53 + 1, -(2 ** 62) - 3, 7, True):
        assert compiled(n) == floors(n) and all(type(v) is int for v in compiled(n))
    element = tp.jit(floor_of_element, fullgraph=True)
    for a in (np.array([2 ** 53 + 1]), np.array([250], np.uint8), [2 ** 53 + 1]):
        got = element(a)
        assert got == floor_of_element(a) and all(type(v) is int for v in got), a
    assert element(np.array([2 ** 53 + 1])) == (2 ** 53, 2 ** 53)


def chained(n, f):
    return 0 <= n < f, f <= n <= 2 ** 62, n < f < n + 2


def test_chained_comparisons():
    compiled = tp.jit(chained, fullgraph=True)
    for n, f in itertools.product([2 ** 53 + 1, 2 ** 53, 3, -1, 2 ** 62],
                                  [2.0 ** 53, 2.0 ** 53 + 2, 0.5, math.nan, 2.0 ** 62]):
        assert compiled(n, f) == chained(n, f), (n, f)


def chain_with_call(x, n):
    return 0 <= abs(x) < 1.5, -1 < float(n) <= 2.5


def test_small_int_constants_need_no_helper():
    """``0 <= abs(x) < 1.5``: the int constant is exact in float64, so the chain compiles
    as it is (an impure operand is no reason to fall back there)."""
    compiled = tp.jit(chain_with_call, fullgraph=True)
    for x, n in [(0.5, 2), (-3.0, 1), (2.0 ** 53, 2 ** 53 + 1)]:
        assert compiled(x, n) == chain_with_call(x, n)


def float_side_raises_first(a, k, x):
    # the float operand on the left is evaluated first (IndexError), as in Python; compiled
    # code once put the int operand first (ZeroDivisionError from its ``%``)
    n = len(a)
    return x * float(a[k % max(n, 1) + n]) == int(float(a[10 % n]))


def test_float_int_comparison_keeps_evaluation_order():
    import numpy as np
    compiled = tp.jit(float_side_raises_first, fullgraph=True)
    empty = np.array([], dtype=np.int32)
    for call in (lambda f: f(empty, 3, 0.5), lambda f: f(np.arange(12.0), 2, 0.5),
                 lambda f: f(np.arange(12.0), 1, 2.0)):
        outcomes = []
        for f in (float_side_raises_first, compiled):
            try:
                outcomes.append(("value", call(f)))
            except Exception as exc:   # noqa: BLE001 (the exception type is compared)
                outcomes.append(("raised", type(exc)))
        assert outcomes[0] == outcomes[1]
    with pytest.raises(IndexError):
        compiled(empty, 3, 0.5)
