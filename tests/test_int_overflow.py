"""Python ints in compiled code never wrap: a result beyond int64 runs again as Python
(effect-free calls) or raises OverflowError naming the user's line (calls with effects).
NumPy int64 scalars and arrays keep NumPy's wrapping. (Issue: a factorial of 21 returned
-4249290049419214848.)"""
import gast
import inspect
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import outcome
from transpiler.analysis.int_bounds import safe_names

MIN, MAX = -2 ** 63, 2 ** 63 - 1


def factorial(n):
    r = 1
    for i in range(1, n + 1):
        r *= i
    return r


def double_plus_one(x):
    return x * 2 + 1


def shift(a, b):
    return a << b


def late_overflow(n):
    s = 1
    for i in range(n):
        if i == 9999:
            s = s * 2 ** 62 * 4
        else:
            s = s + 0
    return s


def negate(x):
    return -x


def absolute(x):
    return abs(x)


def floor_div(a, b):
    return a // b


def div_mod(a, b):
    return divmod(a, b)


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def counting(n):
    count = 0
    total = 0
    for i in range(n):
        if i % 3 == 0:
            count += 1
        total -= 2
    return count, total, i + 1


def with_effects(a, x):
    a[0] = 1.0
    y = x * 2 + 1
    return y


def numpy_wraps(x):
    return x * 2 + 1


CASES = [
    (factorial, (20,)), (factorial, (21,)), (factorial, (25,)),
    (double_plus_one, (MAX,)), (double_plus_one, (MIN,)), (double_plus_one, (2 ** 61,)),
    (shift, (1, 63)), (shift, (1, 62)), (shift, (-1, 63)), (shift, (3, 300)), (shift, (1, -1)),
    (late_overflow, (10000,)), (late_overflow, (9999,)),
    (negate, (MIN,)), (negate, (MAX,)), (absolute, (MIN,)), (absolute, (MIN + 1,)),
    (floor_div, (MIN, -1)), (floor_div, (MIN, 1)), (floor_div, (7, 0)), (floor_div, (-7, 2)),
    (div_mod, (MIN, -1)), (div_mod, (MIN, 3)), (div_mod, (7, 0)),
    (add, (MAX, 1)), (add, (MIN, -1)), (add, (MAX, MIN)), (add, (True, MAX)),
    (sub, (MIN, 1)), (sub, (MAX, -1)), (sub, (0, MIN)), (sub, (-1, MAX)),
    (mul, (2 ** 32, 2 ** 31)), (mul, (2 ** 32, 2 ** 32)), (mul, (-1, MIN)), (mul, (MIN, 1)),
    (mul, (3037000500, 3037000500)), (mul, (-3037000499, 3037000499)),
    (counting, (10,)), (counting, (0 + 7,)),
]


@pytest.mark.parametrize("fn, args", CASES, ids=[f"{f.__name__}{a}"[:60] for f, a in CASES])
@pytest.mark.parametrize("backend", ["numba-cpu", "eager"])
def test_effect_free_overflow_gives_pythons_int(fn, args, backend):
    expected = outcome(fn, args)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        got = outcome(tp.jit(fn, backend=backend), args)[0]
    assert got[0] == expected[0]
    if expected[0] == "returned":
        assert got[1] == expected[1] and type(got[1]) is type(expected[1])
    else:
        assert got[1] == expected[1]   # the exception type


def test_an_overflow_reruns_with_a_warning_at_the_users_line():
    compiled = tp.jit(factorial)
    with pytest.warns(tp.FallbackWarning, match="int beyond int64"):
        assert compiled(21) == factorial(21)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled(20) == factorial(20)    # in range: compiled, no warning


def test_with_effects_an_overflow_raises_naming_the_line():
    a = np.zeros(2)
    with pytest.raises(OverflowError, match="int beyond int64") as info:
        tp.jit(with_effects)(a, 2 ** 62)
    note = "\n".join(getattr(info.value, "__notes__", []))
    line = with_effects.__code__.co_firstlineno + 2
    assert f"test_int_overflow.py:{line}" in note and "has effects" in note
    assert tp.jit(with_effects)(np.zeros(2), 5) == 11


@pytest.mark.parametrize("value", [np.int64(MAX), np.int64(MIN)])
def test_numpy_int64_keeps_numpys_wrapping(value):
    with np.errstate(over="ignore"):
        expected = numpy_wraps(value)
        got = tp.jit(numpy_wraps, fullgraph=True)(value)
    assert type(got) is np.int64 and got == expected


def test_int64_arrays_keep_wrapping():
    def grow(a):
        out = a * 2 + 1
        return out
    a = np.array([MAX, MIN, 5])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(tp.jit(grow, fullgraph=True)(a), grow(a))


def test_fullgraph_raises_overflow_instead_of_rerunning():
    with pytest.raises(OverflowError):
        tp.jit(factorial, fullgraph=True)(21)


def _safe(fn):
    import textwrap
    return safe_names(gast.parse(textwrap.dedent(inspect.getsource(fn))).body[0])


def test_unchecked_names_are_only_those_that_cannot_overflow():
    counters, ranges = _safe(counting)
    assert counters == {"count", "total"} and ranges == {"i"}
    counters, ranges = _safe(factorial)
    assert "r" not in counters                       # r *= i can overflow: checked
    assert "i" in ranges                             # range(1, n + 1): 0 <= i < 2**63 - 1

    def param_step(n):
        n += 1                                       # a parameter may start anywhere
        k = 0
        k = k + n                                    # not a constant step
        j = 0
        j += 20                                      # a step over 16
        m = 0
        (m := 2 ** 62)                               # a store not analysed
        return n, k, j, m
    counters, _ = _safe(param_step)
    assert counters == set()


def test_unchecked_counters_compile_plainly():
    source = tp.jit(counting).source()
    assert "int_add(count" not in source and "int_sub(total" not in source
    assert "int_mul" in tp.jit(factorial).source()


# -- found by review: ints no analysis types, a user's own range, round of ints ------------

def tuple_item(t):
    return t[0] + 1


def local_tuple(x):
    t = (x, 1)
    return t[0] + t[1]


def list_item(x):
    values = [x]
    return values[0] + 1


def dict_value(x):
    return {"a": x}["a"] + 1


def _identity(v):
    return v


def callee_result(x):
    return _identity(x) + 1


def recursive_factorial(n):
    return 1 if n <= 1 else n * recursive_factorial(n - 1)


def zipped(a, b):
    t = 0
    for x, y in zip(a, b):
        t = x + y
    return t


def enumerated(a):
    t = 0
    for i, v in enumerate(a):
        t = i + v
    return t


def round_int(x):
    return round(x)


@pytest.mark.parametrize("fn, args", [
    (tuple_item, ((MAX,),)), (local_tuple, (MAX,)), (list_item, (MAX,)), (dict_value, (MAX,)),
    (callee_result, (MAX,)), (recursive_factorial, (21,)), (zipped, ((MAX,), (1,))),
    (enumerated, ((MAX, MAX),)), (round_int, (2 ** 53 + 1,)), (round_int, (np.int64(2 ** 53 + 1),)),
    (round_int, (True,)), (round_int, (np.uint8(7),)),
])
def test_ints_no_analysis_types_are_checked_too(fn, args):
    expected = outcome(fn, args)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        got = outcome(tp.jit(fn), args)[0]
    assert got == expected and type(got[1]) is type(expected[1])


def test_a_users_own_range_proves_nothing():
    import importlib.util
    import os
    import sys
    import tempfile
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "own_range_mod.py"), "w") as handle:
        handle.write("def range(n):\n    return (2 ** 63 - 1,)\n\n\n"
                     "def step(n):\n    t = 0\n    for i in range(n):\n        t = i + 1\n"
                     "    return t\n")
    spec = importlib.util.spec_from_file_location("own_range_mod",
                                                  os.path.join(folder, "own_range_mod.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["own_range_mod"] = module
    spec.loader.exec_module(module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert tp.jit(module.step)(1) == module.step(1) == 2 ** 63


def test_one_jitted_object_called_with_every_kind_in_turn():
    compiled = tp.jit(double_plus_one)
    kinds = [5, MAX, np.int64(MAX), np.int8(100), np.uint64(2 ** 63), True, 2.5, np.float32(1.5),
             1 + 2j, np.arange(3, dtype=np.int16), np.array([MAX, 1]), MIN, 7]
    for value in kinds:
        with np.errstate(over="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = outcome(double_plus_one, (value,))[0]
            got = outcome(compiled, (value,))[0]
        assert got[0] == expected[0], value
        if isinstance(expected[1], np.ndarray):
            assert got[1].dtype == expected[1].dtype
            np.testing.assert_array_equal(got[1], expected[1])
        else:
            assert got[1] == expected[1] and type(got[1]) is type(expected[1]), value


# -- range() loops at the integer limits -------------------------------------------------------
# Numba computes a range's count in the range's own integer type: where stop - start leaves it,
# the count was silently wrong (range(-2**63, 2**63 - 1, 2**62): 0 iterations, Python 4), and
# range(0, -2**63, -1) stopped the process (SIGFPE). backends/runtime/checked_range.py.

def range_count(a, b, c):
    n = 0
    for i in range(a, b, c):
        n += 1
    return n


def range_positives(a, b, c):
    s = 0
    for i in range(a, b, c):
        s = s + (i > 0)
    return s


def range_first_few(a, b, c):
    n = 0
    for i in range(a, b, c):
        n += 1
        if n > 5:
            break
    return n


def range_two(a, b):
    n = 0
    for i in range(a, b):
        n += 1
        if n > 3:
            break
    return n


def range_with_effects(a, b, c, out):
    out[0] = 1.0
    n = 0
    for i in range(a, b, c):
        n += 1
    return n


def _range_cases():
    """(a, b, c) of every integer dtype and Python int with few iterations, near the limits."""
    cases = []
    for dtype in (int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64):
        if dtype is int:
            lo, hi = MIN, MAX
        else:
            info = np.iinfo(dtype)
            lo, hi = int(info.min), int(info.max)
        span = hi - lo
        step = span // 4 + 1
        triples = [(lo, hi, step), (hi, lo, -step), (0, hi, hi // 3 + 1), (lo, 0, -lo // 3 + 1),
                   (hi - 5, hi, 1), (lo, lo + 5, 1), (hi, hi - 5, -1), (0, 10, 3), (10, 0, -3),
                   (lo, hi, hi)]
        for a, b, c in triples:
            if dtype is not int and (c < lo or c > hi):
                continue
            cases.append(tuple(dtype(v) if dtype is not int else v for v in (a, b, c)))
    return cases


@pytest.mark.parametrize("fn", [range_count, range_positives, range_first_few])
def test_range_counts_at_the_integer_limits_equal_plain(fn):
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for args in _range_cases():
            expected, actual = outcome(fn, args), outcome(jitted, args)
            assert expected[0][0] == actual[0][0], (args, expected, actual)
            assert actual[0][1] == expected[0][1] and type(actual[0][1]) is type(
                expected[0][1]), (args, expected, actual)


def test_range_that_divided_by_minus_one_does_not_crash():
    # stop - start == -2**63 with step -1: Numba's count divided -2**63 by -1 (SIGFPE)
    jitted = tp.jit(range_first_few)
    with pytest.warns(tp.FallbackWarning, match="int beyond int64"):
        assert jitted(0, MIN, -1) == range_first_few(0, MIN, -1) == 6
    assert tp.jit(range_two)(MAX - 1, MAX) == 1 and tp.jit(range_two)(MIN, MAX) == 4


def test_range_overflow_with_effects_raises_at_the_users_line():
    out = np.zeros(1)
    with pytest.raises(OverflowError, match="int beyond int64"):
        tp.jit(range_with_effects)(MIN, MAX, 2 ** 62, out)
    assert tp.jit(range_with_effects)(0, 10, 3, out) == 4


def test_a_range_from_zero_by_one_needs_no_check():
    source = tp.jit(factorial)
    source(5)
    text = str(source.source())
    assert "_gj_range(" in text       # range(1, n + 1): checked
    counted = tp.jit(late_overflow)
    counted(3)
    assert "_gj_range" not in str(counted.source())     # range(n): cannot be wrong


def own_list_then_overflow(n, step):
    out = []
    for i in range(n):
        out.append(i * step)
    out.insert(0, 1)
    out.reverse()
    return len(out), out[0]


def list_of_the_callers_array_then_overflow(a, step):
    held = [a]
    held[0] += 1            # in place: the caller's array
    return step * step


def test_a_list_the_function_made_is_no_effect():
    """append/insert/reverse on a list made by the call change nothing the caller sees: an
    overflow after them runs the call again as Python."""
    plain = own_list_then_overflow(3, 2 ** 62)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert tp.jit(own_list_then_overflow)(3, 2 ** 62) == plain
    assert any("ran again as Python" in str(w.message) for w in caught)


def test_an_in_place_update_of_a_lists_element_is_an_effect():
    """``held[0] += 1`` updates the caller's array in place: the call cannot run again, so
    the overflow after it raises (or the function runs as Python from the start)."""
    a = np.zeros(2)
    compiled = tp.jit(list_of_the_callers_array_then_overflow)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            got = compiled(a, 2 ** 40)
        except OverflowError:
            got = None
    plain_a = np.zeros(2)
    expected = list_of_the_callers_array_then_overflow(plain_a, 2 ** 40)
    assert got in (None, expected)
    assert a.tolist() == plain_a.tolist()      # updated once, never twice
