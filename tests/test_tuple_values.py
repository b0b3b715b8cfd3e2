"""Tuples of Python numbers meeting NumPy values (issue 14): a tuple argument's items are typed
as the Python numbers they are (passes/tuple_arguments.py: one parameter per item), so NEP 50,
Python's ``**`` and exact ints apply to them; an item graphjit cannot type (a local tuple, a
tuple passed to a helper) meeting a NumPy value compiles only where Numba holds an array, else
the function falls back (transpiler.ir.untyped_operand). Every call equals plain: values, types,
dtypes, exception types; also in any order through one jitted object."""
import collections
import itertools
import typing
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_same_outcome, outcome


def item_plus(t, x):
    return t[0] + x


def unpack_scale(t, x):
    a, b = t
    return a * x + b


def last_item(t, x):
    return x - t[-1]


def iterate_sum(t, x):
    s = x
    for v in t:
        s = s + v
    return s


def powers(t):
    return t[0] ** t[1]


def whole_and_len(t, x):
    n = len(t)
    return t, n * x


def helper(t, x):
    return t[0] * x


def through_helper(t, x):
    return helper(t, x)


def local_tuple(a, x):
    u = (a, 1)
    return u[0] + x


def local_tuple_array(a, arr):
    u = (a, 2)
    return arr * u[0]


def display_to_helper(a, x):
    return helper((a, 3), x)


def rebinds(t, x):
    t = (t[0] + 1, t[1])
    return t[0] * x


TUPLES = [(3, 2), (2.5, 4), (True, 1), (-7, 0.5), (2 ** 40, 3), (1 + 2j, 2)]
NUMPY = [np.int8(4), np.uint8(200), np.int16(-3), np.int64(5), np.float32(1.5),
         np.float64(-2.0), np.complex64(1 + 1j), 3, 2.5]
ARRAYS = [np.arange(3, dtype=np.float32), np.arange(3, dtype=np.int8),
          np.ones(2, dtype=np.complex64)]


def _same(fn, args, compiled=None):
    compiled = compiled or tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = outcome(fn, args)
        got = outcome(compiled, args)
    assert_same_outcome(plain[0], plain[1], got[0], got[1])
    return compiled


@pytest.mark.parametrize("fn", [item_plus, unpack_scale, last_item, iterate_sum,
                                through_helper, local_tuple, display_to_helper, rebinds])
@pytest.mark.parametrize("t", TUPLES, ids=repr)
def test_tuple_items_with_numpy_scalars(fn, t):
    compiled = tp.jit(fn)
    for x in NUMPY:
        if fn in (local_tuple, display_to_helper):
            _same(fn, (t[0], x), compiled)
        else:
            _same(fn, (t, x), compiled)


@pytest.mark.parametrize("t", TUPLES, ids=repr)
def test_tuple_items_with_arrays(t):
    for fn, arr in itertools.product([item_plus, unpack_scale, iterate_sum, local_tuple_array],
                                     ARRAYS):
        _same(fn, (t[0], arr) if fn is local_tuple_array else (t, arr))


@pytest.mark.parametrize("t", [(2, -1), (2, 3), (-2, 2), (2.0, -1), (0, -1), (7, 0)])
def test_python_powers_of_items(t):
    _same(powers, (t,))


def test_the_tuple_itself_and_its_length():
    for t, x in [((1, 2.5), 3), ((True, None, "a"), np.int8(2)), ((1.5,), np.float32(2))]:
        _same(whole_and_len, (t, x))


def test_compiled_where_typed():
    compiled = _same(item_plus, ((3, 2), np.int8(4)))
    text = str(compiled.explain())
    assert "compiled" in text and "python " not in text, text


def test_one_object_many_types_in_any_order():
    calls = [((3, 2), np.int8(4)), ((2.5, 1), np.float32(1.5)), ((True, 2), 7),
             ((2 ** 40, 1), np.int64(3)), ((1, 2), np.ones(2, np.float32)), ((1.5, 2), 2.5)]
    for order in (calls, calls[::-1], calls[1::2] + calls[::2]):
        compiled = tp.jit(unpack_scale)
        for args in order:
            _same(unpack_scale, args, compiled)


# *args: the dispatcher binds the rest of the arguments to a tuple, passed as one parameter
# (typed by item as above).

def total(*args):
    s = 0
    for a in args:
        s += a
    return s


def scaled(x, *factors):
    for f in factors:
        x = x * f
    return x


def count_and_first(default, *rest):
    if len(rest) > 0:
        return rest[0] + default, len(rest)
    return default, 0


VARARG_CALLS = [
    (total, (1, 2, 3)), (total, ()), (total, (1.5, 2)), (total, (2 ** 62, 2 ** 62)),
    (total, (np.int8(100), np.int8(100))), (total, (1, 2.5j)),
    (scaled, (np.ones(2, np.float32), 2.5)), (scaled, (2.0,)), (scaled, (np.int8(3), 2, 3)),
    (scaled, (np.arange(3), 0.5, 2)),
    (count_and_first, (np.float32(1.0), 2.5, 3)), (count_and_first, (np.float32(1.0),)),
    (count_and_first, (1, True)), (count_and_first, (np.uint8(7), 300)),
]


@pytest.mark.parametrize("fn,args", VARARG_CALLS, ids=lambda v: getattr(v, "__name__", repr(v)))
def test_varargs(fn, args):
    _same(fn, args)


def test_varargs_compiled_and_one_object_in_any_order():
    compiled = tp.jit(total)
    for args in [(1, 2), (1, 2, 3), (1, 2)]:
        _same(total, args, compiled)
    text = str(compiled.explain())
    assert "compiled" in text and "python " not in text, text
    # floats: `s` is the int 0 or a float by path, which no flag follows here: falls back
    for args in [(1.5, 2.5, 3.5), (), (True, 1), (1, 2), (2.5,)]:   # nor empty/mixed tuples
        _same(total, args, compiled)
    with pytest.raises(TypeError):
        tp.jit(scaled)()        # Python's binding error, as plainly


# namedtuple arguments: guarded on their class and items' types; `p.x` reads an item.

Point = collections.namedtuple("Point", "x y")


class Pair(typing.NamedTuple):
    a: float
    b: int


def norm(p):
    return (p.x * p.x + p.y * p.y) ** 0.5


def field_and_index(p, v):
    return p.x + v * p[1]


def unpack_pair(q):
    a, b = q
    return a * b, len(q)


def iterate_point(p):
    s = 0
    for v in p:
        s += v
    return s


def returns_it(p):
    return p


NAMED = [(norm, (Point(3.0, 4.0),)), (norm, (Point(3, 4),)), (norm, (Point(True, 2.5),)),
         (field_and_index, (Point(1, 2), np.int8(3))),
         (field_and_index, (Point(1.5, 2), np.float32(3))),
         (field_and_index, (Point(2 ** 62, 2 ** 62), 4)),
         (field_and_index, (Point(1, 2), np.ones(2, np.float32))),
         (unpack_pair, (Pair(1.5, 2),)), (unpack_pair, (Pair(2, 3),)),
         (iterate_point, (Point(1, 2),)), (returns_it, (Point(1, 2.5),)),
         (norm, (Point(np.float32(3), 4.0),))]


@pytest.mark.parametrize("fn,args", NAMED, ids=lambda v: getattr(v, "__name__", repr(v)))
def test_namedtuple_arguments(fn, args):
    _same(fn, args)


def test_namedtuple_items_retyped_through_one_object():
    compiled = tp.jit(field_and_index)
    calls = [(Point(1, 2), np.int8(3)), (Point(1.5, 2), np.int8(3)), (Point(1, 2), np.int8(3)),
             (Point(True, 2.5), np.float32(2)), (Pair(1.0, 2), np.int8(1)), ((1, 2), 3)]
    for order in (calls, calls[::-1]):
        for args in order:
            _same(field_and_index, args, compiled)
    compiled = _same(norm, (Point(3.0, 4.0),))
    assert "python " not in str(compiled.explain())


# An untyped item meeting a NumPy value in a ufunc call or a comparison: as for an operator.

def ufunc_of_item(a, x):
    u = (a, 1)
    return np.add(u[0], x), np.maximum(u[0], x)


def compare_item(a, x):
    u = (a, 1)
    return u[0] < x, x == u[0]


@pytest.mark.parametrize("fn", [ufunc_of_item, compare_item])
@pytest.mark.parametrize("x", [np.int8(4), np.uint8(4), np.float32(2.5), np.ones(2, np.int16),
                               4, 2.5], ids=repr)
@pytest.mark.parametrize("a", [3, 2.5, True], ids=repr)
def test_untyped_items_in_ufuncs_and_comparisons(fn, a, x):
    _same(fn, (a, x))


# Review cases: namedtuple subclasses that read their items otherwise are not split; one-item
# tuples on the NumPy graph path.

class Overridden(collections.namedtuple("Overridden0", "x y")):
    @property
    def x(self):
        return 100


class OwnGetitem(collections.namedtuple("OwnGetitem0", "a b")):
    __slots__ = ()

    def __getitem__(self, i):
        return 7


class OwnIter(collections.namedtuple("OwnIter0", "a b")):
    __slots__ = ()

    def __iter__(self):
        return iter((10, 20))


One = collections.namedtuple("One", "v")


def attr_x(p):
    return p.x * 2 + p.y


def item_sum(p):
    return p[0] + p[1]


def unpack_tens(p):
    a, b = p
    return a * 10 + b


def array_plus_item(x, t):
    return x + t[0]


def array_times_field(x, p):
    return x * p.v


def array_minus_first(x, *a):
    return x - a[0]


def first_minus_last(p):
    return p[0] - p[-1]


@pytest.mark.parametrize("fn,args", [
    (attr_x, (Overridden(1, 2),)), (item_sum, (OwnGetitem(1, 2),)),
    (unpack_tens, (OwnIter(1, 2),)), (iterate_point, (OwnIter(1, 2),)),
    (array_plus_item, (np.array([1, 2], np.int8), (3,))),
    (array_plus_item, (np.array([0.1, 1], np.float32), (0.1,))),
    (array_times_field, (np.array([0.1, 1], np.float32), One(0.5))),
    (array_minus_first, (np.array([1, 2], np.int8), 1000)),
    (array_minus_first, (np.array([0.1, 1], np.float32), 0.1)),
    (first_minus_last, (One(2.5),)), (first_minus_last, (Point(1, 2.5),)),
], ids=lambda v: getattr(v, "__name__", None))
def test_review_cases(fn, args):
    _same(fn, args)


# A tuple display passed to a user function: the callee takes one parameter per item (typed);
# the caller types the callee's result from them.

def product(t):
    return t[0] * t[1]


def display_of_item_and_scalar(t, x):
    return product((t[0], x))


def callee_result_times(t, x):
    return product(t) * x


def two_displays(a, x):
    return product((a, x)) + product((x, x))


def display_by_keyword(a, x):
    return product(t=(a, x))


@pytest.mark.parametrize("fn,args", [
    (display_of_item_and_scalar, ((0.1, 2), np.float32(1.5))),
    (display_of_item_and_scalar, ((3, 2), np.int8(100))),
    (callee_result_times, ((3, 200), np.int8(1))), (callee_result_times, ((3, 2), np.int8(1))),
    (two_displays, (3, np.int8(50))), (two_displays, (2.5, np.float32(1.5))),
    (display_by_keyword, (2.5, np.float32(2))), (display_by_keyword, (2, 3)),
], ids=lambda v: getattr(v, "__name__", None))
def test_tuple_displays_passed_to_functions(fn, args):
    _same(fn, args)
