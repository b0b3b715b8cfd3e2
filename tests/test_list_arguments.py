"""List arguments of Python numbers (issue 20): a list whose elements are all ints within
int64, all floats or all bools is read by compiled code as an array whose elements come back
as the Python numbers they are (passes/list_arguments.py); any other list, or a function that
does more with it than read it, runs as Python. Every call equals plain: values, types,
dtypes, exception types, the list after the call; in any order through one jitted object,
and from several threads."""
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_compiles_same, assert_same_outcome, outcome


def int_total(xs):
    s = 0
    for v in xs:
        s += v
    return s


def float_total(xs):
    s = 0.0
    for v in xs:
        s = s + v
    return s


def pick(xs, i):
    return xs[i] * 2


def argmax(xs):
    best, at = xs[0], 0
    for i, v in enumerate(xs):
        if v > best:
            best, at = v, i
    return best, at


def count_above(xs, t):
    n = 0
    for v in xs:
        if v > t:
            n += 1
    return n


def scaled_sum(xs, x):
    t = x
    for v in xs:
        t = t + v * x
    return t


def powers(xs):
    p = 1
    for v in xs:
        p = p * v
    return p


def consumed(xs):
    s = sum(xs)
    return s


def any_of(xs):
    return any(xs)


def length_times(xs, x):
    return len(xs) * x


def enumerate_from(xs):
    total = 0
    for i, v in enumerate(xs, 10):
        total += i * v
    return total


def dot(xs, ys):
    s = 0.0
    for i in range(len(xs)):
        s += xs[i] * ys[i]
    return s


# Not only read: these stay Python, and leave the list as Python would.

def appends(xs):
    xs.append(1)
    return len(xs)


def stores(xs):
    xs[0] = 2.5
    return xs[0]


def slices(xs):
    return xs[1:]


def contains(xs):
    return 3 in xs


def returns_it(xs):
    return xs


LISTS = [[1, 2, 3], [-5, 7], [2 ** 62, 2 ** 62], [2 ** 63 - 1], [1.5, -2.0, 0.25],
         [float("nan"), 1.0], [True, False, True], [], [1, 2.0], [2 ** 64], [np.int8(3)],
         [np.float32(1.5), np.float32(2)], ["a"], [[1], [2]], [None]]
SCALARS = [3, 2.5, True, np.int8(2), np.uint8(200), np.int16(-3), np.int64(7),
           np.float32(1.5), np.float64(-2.0), np.complex64(1 + 1j)]


def _same(fn, args, compiled=None):
    compiled = compiled or tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = outcome(fn, args)
        got = outcome(compiled, args)
    assert_same_outcome(plain[0], plain[1], got[0], got[1])
    return compiled


@pytest.mark.parametrize("fn", [int_total, float_total, argmax, powers, consumed, any_of,
                                enumerate_from, appends, stores, slices, contains,
                                returns_it], ids=lambda f: f.__name__)
def test_every_list_through_one_object(fn):
    compiled = tp.jit(fn)
    for xs in LISTS + LISTS[::-1]:
        _same(fn, (xs,), compiled)


@pytest.mark.parametrize("xs", LISTS, ids=repr)
def test_with_every_scalar(xs):
    for fn in (count_above, scaled_sum, length_times):
        compiled = tp.jit(fn)
        for x in SCALARS:
            _same(fn, (xs, x), compiled)
    compiled = tp.jit(pick)
    for i in (0, -1, 1, 5, -9, True, np.int8(1), np.uint64(0), 1.0):
        _same(pick, (xs, i), compiled)


@pytest.mark.parametrize("fn,args", [
    (int_total, ([1, 2, 3],)), (int_total, ([],)), (int_total, ([True, False],)),
    (float_total, ([1.5, 2.5],)), (float_total, ([],)), (pick, ([1.5, 2.0], -1)),
    (argmax, ([3, 9, 2],)), (argmax, ([0.5, -1.0],)), (count_above, ([1, 5, 7], 4)),
    (count_above, ([1.5, 5.5], np.float32(2))), (scaled_sum, ([1, 2], np.int8(3))),
    (scaled_sum, ([0.5, 2.0], np.float32(3))), (scaled_sum, ([1, 2], np.ones(3, np.float32))),
    (powers, ([3, 5, 7],)), (consumed, ([1, 2, 3],)), (consumed, ([True, True],)),
    (any_of, ([0, 0, 3],)), (any_of, ([0.0],)), (enumerate_from, ([1, 2, 3],)),
    (dot, ([1.0, 2.0], [3.0, 4.0])), (dot, ([1, 2], [0.5, 0.25])),
], ids=lambda v: getattr(v, "__name__", None))
def test_compiles_whole(fn, args):
    """Under fullgraph=True: a fallback would raise, so the compiled path ran."""
    assert_compiles_same(fn, *args)


def test_python_ints_stay_exact():
    """Elements are Python ints: a sum or product beyond int64 is Python's (the compiled
    call runs again as Python), where an int64 array would wrap."""
    compiled = tp.jit(powers)
    for xs in ([2 ** 40, 2 ** 40], [3] * 50, [-(2 ** 62), 4]):
        _same(powers, (xs,), compiled)
    assert compiled([2 ** 40, 2 ** 40]) == 2 ** 80
    _same(int_total, ([2 ** 63 - 1, 1],))


def test_nep50_against_numpy_scalars():
    """A Python int element meeting an np.int8 is weak (NEP 50): the result is an np.int8,
    and one that does not fit the dtype raises OverflowError as NumPy 2 does."""
    compiled = tp.jit(scaled_sum)
    _same(scaled_sum, ([1, 2], np.int8(3)), compiled)
    assert type(compiled([1, 2], np.int8(3))) is np.int8
    _same(scaled_sum, ([300], np.int8(1)), compiled)
    _same(scaled_sum, ([0.5], np.float32(2)), compiled)
    assert type(compiled([0.5], np.float32(2))) is np.float32


def test_other_lists_fall_back_and_say_why():
    compiled = tp.jit(int_total)
    with pytest.warns(tp.FallbackWarning, match="list of float and int values"):
        assert compiled([1, 2.0]) == 3.0
    with pytest.warns(tp.FallbackWarning, match="beyond int64"):
        assert compiled([2 ** 64]) == 2 ** 64
    with pytest.warns(tp.FallbackWarning, match="used here other than"):
        tp.jit(appends)([1])
    with pytest.raises(tp.TranspileError):
        tp.jit(appends, fullgraph=True)([1])


def test_the_list_is_read_at_each_call():
    """The array is made from the list at each call: a list changed between calls (in place)
    is read as it is now, and a list changed to another element type specializes again."""
    compiled = tp.jit(int_total)
    xs = [1, 2]
    assert compiled(xs) == 3
    xs.append(10)
    assert compiled(xs) == 13
    xs[0] = 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert compiled(xs) == 12.5 and type(compiled(xs)) is float
    xs[0] = 2 ** 70
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert compiled(xs) == 2 ** 70 + 12


def test_threads():
    compiled = tp.jit(dot)
    inputs = [([1.0, 2.0, 3.0], [1.0, 1.0, 1.0]), ([1, 2], [3, 4]), ([0.5], [2.0]),
              ([True, False], [1, 1])]
    expected = [dot(*a) for a in inputs]
    failures = []

    def work(k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for j in range(30):
                args = inputs[(k + j) % len(inputs)]
                got = compiled(*args)
                want = expected[(k + j) % len(inputs)]
                if got != want or type(got) is not type(want):
                    failures.append((args, got, want))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]


def mean_of_squares(xs):
    return sum(v * v for v in xs) / len(xs)


def squares_above(xs, t):
    return [v * v for v in xs if v > t]


def rebinds_in_comprehension(xs):
    return sum(v for v in xs for v in range(v % 4))     # (bounded: LISTS holds 2**62)


@pytest.mark.parametrize("fn,args", [
    (mean_of_squares, ([1, 2, 4],)), (mean_of_squares, ([0.5, 1.5],)),
    (squares_above, ([1, 5, 3], 2)),
    (squares_above, ([1.5, -2.0], 0)),
], ids=lambda v: getattr(v, "__name__", None))
def test_comprehensions_over_a_list_compile(fn, args):
    assert_compiles_same(fn, *args)


def test_comprehensions_over_every_list():
    for fn in (mean_of_squares, rebinds_in_comprehension):
        compiled = tp.jit(fn)
        for xs in LISTS:
            _same(fn, (xs,), compiled)
    compiled = tp.jit(squares_above)
    for xs in LISTS:
        for t in (0, 1.5, np.int8(1), np.float32(0.5)):
            _same(squares_above, (xs, t), compiled)


# Found by review: a list inside a tuple is not an argument read as an array (it stays
# Python: a store into it, an append, an alias must reach the caller's list).

def store_in_tuple_item(t):
    t[0][0] = 2.5
    return t[0][0]


def length_of_tuple_item(t):
    return len(t[0])


def index_only(xs, i):
    return xs[i]


def truth_of(xs):
    if xs:
        return 1
    return 0


def test_lists_in_tuples_stay_python():
    for fn, args in [(store_in_tuple_item, (([1, 2], 3),)),
                     (store_in_tuple_item, (([1.5], 3),)),
                     (length_of_tuple_item, (([], 1),)), (length_of_tuple_item, (([1], 1),))]:
        _same(fn, args)
    xs = [1, 2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tp.jit(store_in_tuple_item)((xs, xs))
    assert xs == [2.5, 2]


def test_straight_line_list_reads_index_as_a_list():
    """Straight-line array code may run as a NumPy graph; a list's reads never do (an
    np.uint64 index beyond intp is Python's IndexError, not NumPy's OverflowError)."""
    compiled = tp.jit(index_only)
    for xs in ([True, False], [1, 2], [0.5]):
        for i in (np.uint64(2 ** 63), np.uint64(2 ** 64 - 1), np.uint64(1), -2, 2):
            _same(index_only, (xs, i), compiled)


def test_the_refusal_names_the_use():
    with pytest.warns(tp.FallbackWarning, match=r"(?s)used here other than.*if xs:"):
        assert tp.jit(truth_of)([1]) == 1


# Found by review: a bool element (bool(e)) and enumerate's counter are Python numbers (weak
# against NumPy arrays: NEP 50), in loops too.

def bool_sum_against_array(x, xs):
    t = 0.0
    for v in xs:
        t = t + v
    return x + t


def counter_against_array(a, x):
    t = 0.0
    for i, v in enumerate(a):
        t += i
    return x + t


def test_bools_and_counters_stay_weak():
    for xs in ([True], [True, False], [1, 2], [0.5]):
        for x in (np.ones(2, np.float32), np.ones(2, np.int8), np.float32(1), 2):
            _same(bool_sum_against_array, (x, xs))
    for a in (np.arange(3.0), [1, 2, 3], np.ones(2, np.float32)):
        for x in (np.ones(2, np.float32), np.ones(2, np.int8)):
            _same(counter_against_array, (a, x))
    assert tp.jit(counter_against_array)(np.arange(3.0), np.ones(2, np.float32)).dtype == \
        np.float32
