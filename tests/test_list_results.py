"""Lists made in compiled code and returned (issue 14): Numba boxes a list's int64/float64
elements as Python numbers and its int8/float32... elements too (it reads them back as its own
types), where the plain call returns the NumPy scalars it appended. A list result (or an element
read from one) whose elements may be NumPy scalars or are untyped runs as Python; one of Python
numbers compiles. Every call equals plain: values, element types and dtypes."""
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_compiles_same, assert_same_outcome, outcome

DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_]


def appended(a):
    out = []
    for v in a:
        out.append(v)
    return out


def doubled_first(a):
    out = []
    for i in range(len(a)):
        out.append(a[i] * 2)
    return len(out), out[0]


def stored(a):
    out = [0.0] * 3
    out[1] = a[0]
    return out


def comprehension(a):
    return [v for v in a]


def inserted(a, x):
    out = [1, 2]
    out.insert(0, x)
    return out


def python_ints(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    return out


def python_floats(x, y):
    return [x + 1.0, y * 0.5]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fn", [appended, doubled_first, stored, comprehension])
def test_a_list_of_numpy_elements_equals_plain(fn, dtype):
    a = np.arange(1, 4).astype(dtype)
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(fn, (a,)), *outcome(jitted, (a,)))


@pytest.mark.parametrize("x", [np.int8(3), np.float32(0.5), np.float64(2.0), 3, 2.5, True])
def test_an_inserted_element_keeps_its_type(x):
    jitted = tp.jit(inserted)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(inserted, (x,)), *outcome(jitted, (x,)))


def test_lists_of_python_numbers_compile():
    assert_compiles_same(python_ints, 5)
    assert_compiles_same(python_floats, 1.0, 3.0)


def sorted_result(a):
    out = []
    for v in a:
        out.append(v)
    return sorted(out)


def aliased(a):
    out = []
    for v in a:
        out.append(v)
    res = out
    return res


def annotated(a):
    out: list = []
    for v in a:
        out.append(v)
    return out


def unpacked(a):
    out, n = [], 0
    for v in a:
        out.append(v)
        n += 1
    return out, n


def nested(a):
    out = []
    for v in a:
        out.append(v)
    return 1, (out, 2)


def arithmetic(a):
    out = []
    for v in a:
        out.append(v)
    return out[0] + 1, sum(out), max(out)


def handed_to_numpy(a):
    out = []
    for v in a:
        out.append(v * 2)
    return np.array(out), len(out)


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.int64, np.uint16],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fn", [sorted_result, aliased, annotated, unpacked, nested,
                                arithmetic, handed_to_numpy])
def test_every_way_a_list_reaches_a_result(fn, dtype):
    a = np.arange(1, 4).astype(dtype)
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(fn, (a,)), *outcome(jitted, (a,)))


def squares(n):
    return [i * i for i in range(n)]


def odd_scaled(n):
    return [v * 2.5 for v in range(n) if v % 2]


def pairs(n):
    return [i * j - n for i in range(n) for j in range(i)]


def test_comprehension_results_of_python_numbers_compile():
    for n in (0, 1, 7):
        assert_compiles_same(squares, n)
        assert_compiles_same(odd_scaled, n)
        assert_compiles_same(pairs, n)


def shadowed_result(n, i):
    out = [i * 2 for i in range(n)]
    return out, i


def shadowed_loop(n, i):
    total = 0
    for v in [i * 3 for i in range(n)]:
        total += v
    return total, i


def shadowed_count(n, i):
    return len([i for i in range(n) if i * 3 > 250]), i


def shadowed_nested(n, i):
    return [[i * 2 for i in range(i)] for i in range(n)], i


def shadowed_walrus(n, i):
    out = [(y := i * 2) for i in range(n)]
    return out, y, i


@pytest.mark.parametrize("fn", [shadowed_result, shadowed_loop, shadowed_count,
                                shadowed_nested, shadowed_walrus])
def test_a_comprehension_variable_named_as_a_local_is_its_own(fn):
    """The comprehension's ``i`` is its own scope's (Python 3): never typed as the function's
    ``i``, whatever that holds; one jitted object through every outer type."""
    jitted = tp.jit(fn)
    for outer in (np.float32(2), np.int8(100), np.uint64(3), np.complex64(1j), 2.5, 2 ** 40,
                  True, 3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert_same_outcome(*outcome(fn, (100, outer)), *outcome(jitted, (100, outer)))


def builtin_sum(a):
    return sum(a)


def builtin_sum_from(a, start):
    return sum(a, start)


def appended_sum(n, step):
    out = []
    for i in range(n):
        out.append(i * step)
    return sum(out)


def comprehension_sum(n):
    return sum([i * i for i in range(n)])


def tuple_name_sum(n):
    t = (n, n * 2, 2 ** 62)
    return sum(t)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_builtin_sum_of_an_array_is_pythons_loop(dtype):
    """``sum(a)`` adds from the Python int 0, item by item, as CPython's builtin does: the int
    0 for an empty array, the dtype's scalar (wrapping, NEP 50 for ``start``) otherwise."""
    jitted, from_jitted = tp.jit(builtin_sum), tp.jit(builtin_sum_from)
    arrays = [np.arange(0).astype(dtype), np.arange(1, 6).astype(dtype) * 60,
              np.ones((2, 3), dtype)]
    for a in arrays:
        for fn, compiled, args in [(builtin_sum, jitted, (a,)),
                                   (builtin_sum_from, from_jitted, (a, 10)),
                                   (builtin_sum_from, from_jitted, (a, 2.5)),
                                   (builtin_sum_from, from_jitted, (a, np.float32(0.5)))]:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                assert_same_outcome(*outcome(fn, args), *outcome(compiled, args))


def test_sum_of_a_list_of_python_ints_never_wraps():
    """Numba's own ``sum`` of a list of ints adds in int64 (it wrapped to
    4773166019248396768); the loop's adds are checked, and a sum beyond int64 runs as Python
    (the list is the function's own: no effect, the call runs again)."""
    assert_compiles_same(appended_sum, 100, 3)
    assert_compiles_same(comprehension_sum, 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # a tuple's items are not typed: may fall back
        assert_same_outcome(*outcome(tuple_name_sum, (5,)),
                            *outcome(tp.jit(tuple_name_sum), (5,)))
    for fn, args in [(appended_sum, (5_000_000, 5_000_000)), (comprehension_sum, (5_000_000,)),
                     (appended_sum, (3, 2 ** 62)), (tuple_name_sum, (2 ** 61,))]:
        jitted = tp.jit(fn)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert_same_outcome(*outcome(fn, args), *outcome(jitted, args))
        assert fn(*args) > 2 ** 63 - 1
        assert any(issubclass(w.category, tp.FallbackWarning) for w in caught)


# A fresh-eyes review's cases (each differed compiled before its fix): a float list summed
# when empty, comprehension elements computed by Numba's int64 rules, sums of arrays and
# containers graphjit does not type, a temporary array's dtype not followed.
def empty_float_comprehension_sum(n):
    return sum([i * 0.1 for i in range(n)])


def empty_float_appended_sum(n):
    out = []
    for i in range(n):
        out.append(i * 0.5)
    return sum(out)


def shifted(n):
    return [1 << i for i in range(n)]


def negated(n):
    return [-(i - 9223372036854775807 - 1) for i in range(n)]


def absolute(n):
    return [abs(i - 9223372036854775807 - 1) for i in range(n)]


def floor_divided(n):
    return [(-9223372036854775807 - 1 + i) // -1 for i in range(n)]


def rounded(n):
    return [round(i * 1e19) for i in range(n)]


def shifted_sum(n):
    return sum([1 << i for i in range(n)])


def masked_sum(a):
    return sum(a[a > 0])


def masked_mean(a):
    return sum(a[a != 0]) / 2


def compared_sum(a):
    return sum(a > 0)


def listed_sum(a):
    return sum(list(a))


def set_sum(a):
    s = set()
    for x in a:
        s.add(x * 2)
    return sum(s)


def dict_sum(a):
    d = {}
    for x in a:
        d[x] = 1
    return sum(d)


def made_array_sum(n):
    return sum(np.ones(n, np.int8) * 100)


def made_array_items(n):
    b = np.ones(n, np.int8) * 100
    return b[0] + b[1]


@pytest.mark.parametrize("fn,args", [
    (empty_float_comprehension_sum, (0,)), (empty_float_comprehension_sum, (4,)),
    (empty_float_appended_sum, (0,)), (empty_float_appended_sum, (4,)),
    (shifted, (64,)), (shifted, (10,)), (negated, (1,)), (absolute, (1,)),
    (floor_divided, (1,)), (rounded, (2,)), (shifted_sum, (64,)), (shifted_sum, (5,)),
    (masked_sum, (np.array([100, 100], np.int8),)), (masked_sum, (np.array([200, 100], np.uint8),)),
    (masked_mean, (np.array([100, 100], np.int8),)),
    (compared_sum, (np.array([1.0, -1.0, 2.0]),)),
    (listed_sum, (np.array([1, 2], np.int8),)), (listed_sum, (np.array([], np.float64),)),
    (listed_sum, (np.array([1.0, 2.0], np.float32),)),
    (set_sum, (np.array([100, 2], np.int8),)), (set_sum, (np.array([], np.float64),)),
    (dict_sum, (np.array([1.0, 2.0]),)),
    (made_array_sum, (3,)), (made_array_items, (3,)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v)[:30])
def test_review_cases_equal_plain(fn, args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(fn, args), *outcome(tp.jit(fn), args))
