"""Python's semantics in compiled code: math domain errors, float-to-int of nan/inf, checked
indexing. Each case runs plain and compiled (tests/reference.py)."""
import math
import warnings

import numpy as np
import pytest

import transpiler as tp

from reference import assert_compiles_same


def roots(x):
    return math.sqrt(x) + math.log(x + 2.0) + math.log10(x + 2.0) + math.log2(x + 2.0)


def trig(x):
    return math.acos(x) + math.asin(x) + math.atanh(x * 0.5)


def hyper(x):
    return math.acosh(x) + math.log1p(x)


def to_int(x):
    return int(x) + math.floor(x) + math.ceil(x) + math.trunc(x)


def loop_sum_sqrt(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += math.sqrt(a[i])
    return s


def index(a, i):
    return a[i]


def store(a, i, v):
    a[i] = v
    return a


@pytest.mark.parametrize("fn,args", [
    (roots, (4.0,)), (roots, (-1.0,)), (roots, (0.0,)), (roots, (float("nan"),)),
    (trig, (0.5,)), (trig, (1.5,)), (trig, (-1.0,)),
    (hyper, (2.0,)), (hyper, (0.5,)),
    (to_int, (2.5,)), (to_int, (-2.5,)), (to_int, (float("nan"),)), (to_int, (float("inf"),)),
    (to_int, (7,)),
    (loop_sum_sqrt, (np.array([1.0, 4.0, 9.0]),)), (loop_sum_sqrt, (np.array([1.0, -4.0]),)),
    (index, (np.arange(3), 2)), (index, (np.arange(3), 3)), (index, (np.arange(3), -3)),
    (index, (np.arange(3), -4)), (index, (np.ones((2, 2)), 5)),
    (store, (np.zeros(3), 1, 2.0)), (store, (np.zeros(3), 3, 2.0)),
], ids=lambda v: getattr(v, "__name__", None))
def test_python_semantics(fn, args):
    assert_compiles_same(fn, *args)


def times_half(x):
    return x * 0.5


def plus_300(x):
    return x + 300


def above(x):
    return x > 0.1


def accumulate(a):
    s = a[0]
    for i in range(1, a.shape[0]):
        s += a[i] * 2
        s -= 1
    return s


@pytest.mark.parametrize("fn,args", [
    (times_half, (np.ones(3, np.float32),)),
    (times_half, (np.ones(3, np.int32),)), (times_half, (np.float32(3.0),)),
    (times_half, (3,)), (times_half, (2.0,)),
    (plus_300, (np.ones(2, np.uint8),)), (plus_300, (np.ones(2, np.int16),)),
    (plus_300, (np.ones(2, np.float32),)), (plus_300, (np.uint8(1),)),
    (above, (np.float32(0.1),)), (above, (np.array([0.1, 0.2], np.float32),)),
    # int16 scalar arithmetic widens to int64 in Numba: a known gap (README).
    (accumulate, (np.ones(3, np.float32),)), (accumulate, (np.ones(3, np.float64),)),
], ids=lambda v: getattr(v, "__name__", None))
def test_nep50_python_scalars_take_the_array_dtype(fn, args):
    assert_compiles_same(fn, *args)


def math_of_float32(a):
    y = 1.5
    y *= math.sqrt(abs(a[0]))
    return y + math.exp(a[0]) + math.sin(a[0]) + math.atan2(a[0], 2.0)


def test_math_functions_compute_in_float64_as_python_does():
    assert_compiles_same(math_of_float32, np.array([-3.0], np.float32))


def add_python_float_at_computed_index(x, a):
    n = 1
    a[5 % n] += x
    return float(a[0])


def test_python_float_argument_added_into_float32_array():
    assert_compiles_same(add_python_float_at_computed_index, 2.963, np.array([2.0], np.float32))


def test_index_names_in_a_store_target_stay_python_numbers():
    """``out[i, j] = v`` does not rebind i or j: range variables stay Python ints, so
    ``i + 1`` needs no NEP 50 wrapper (found by the benchmark: ``weak(1, i)`` in the inner loop
    header of pairwise distances)."""
    import gast
    from transpiler.analysis.python_numbers import python_number_vars
    from transpiler.analysis.scopes import local_names
    fdef = gast.parse(
        "def f(out):\n"
        "    for i in range(3):\n"
        "        for j in range(i + 1, 3):\n"
        "            out[i, j] = 1.0\n").body[0]
    assert python_number_vars(fdef, local_names(fdef)) == {"i", "j"}


# -- `**`: Python's rules for Python numbers, NumPy's for NumPy scalars -------------------------

SCALE = 3


def power(x, y):
    return x ** y


def int_to_negative_literal(n):
    return n ** -1 + n ** -2


def powers_of_range(n):
    s = 0
    for k in range(n):
        s += 2 ** k + (-1) ** k
    return s


def power_of_static_exponent(x):
    return x ** SCALE + SCALE ** -1


def power_update(x, n):
    y = x * 1.0
    for _ in range(n):
        y **= 3
    return y


def power_of_math(x):
    return math.sqrt(x) ** 3 + math.floor(x) ** -1


def element_powers(a, i):
    return a[i] ** 2, a[i] ** -1, a[i] ** 2.5


def element_int_powers(a, i):
    # (a[i] ** 2.5 of an int64 element is NumPy's own float64 power loop: it falls back)
    return a[i] ** 2, a[i] ** -1


def element_power_update(a):
    a[0] **= 3
    return a


@pytest.mark.parametrize("fn,args", [
    (power, (2.0, 3)), (power, (5.7744670227102635, 3)),   # pow, not x*x*x: the last bit
    (power, (0.0, -1.0)), (power, (-0.0, -3)), (power, (0.0, -math.inf)),
    (power, (10.0, 400.0)), (power, (10.0, 400)), (power, (1e300, 2)), (power, (2.0, -2000)),
    (power, (-8.0, 2.0)), (power, (-2.0, 3)), (power, (-math.inf, 0.5)),
    (power, (math.nan, 0.0)), (power, (1.0, math.nan)), (power, (-1.0, math.inf)),
    (power, (2, 0.5)), (power, (0, 0.5)),
    (int_to_negative_literal, (2,)), (int_to_negative_literal, (-3,)),
    (int_to_negative_literal, (0,)),
    (powers_of_range, (10,)), (powers_of_range, (0,)),
    (power_of_static_exponent, (2.5,)), (power_of_static_exponent, (2,)),
    (power_update, (1.1, 3)), (power_update, (1e200, 2)),
    (power_of_math, (2.0,)), (power_of_math, (0.5,)),
], ids=lambda v: getattr(v, "__name__", None))
def test_power_of_python_numbers(fn, args):
    assert_compiles_same(fn, *args)


@pytest.mark.parametrize("args", [
    (np.int64(2), np.int64(-1)), (np.int64(0), np.int64(-1)), (np.int64(2), -1),
    (2, np.int64(-1)), (np.int64(3), 2),
    (np.float64(10.0), 400.0), (np.float32(10.0), np.float32(100.0)),
    (np.float32(-8.0), np.float32(0.5)), (np.float64(0.0), -1.0), (np.float64(0.0), -2),
    (np.float64(0.0), np.int64(-2)), (np.float64(1.1), np.int64(13)),
    (np.float32(1.1), np.int16(13)), (np.float32(2.0), 3),
], ids=repr)
def test_power_of_numpy_scalars(args):
    assert_compiles_same(power, *args)


@pytest.mark.parametrize("args", [
    (np.float32(1.1), np.int64(13)), (np.int64(3), 2.5), (2.5, np.int64(3)),
    (0.0, np.int64(-2)),
], ids=repr)
def test_numpy_power_loops_compile_as_numpy_power_loop(args):
    # No operand has the result dtype (float64): NumPy calls its own power loop, which
    # differs from libm's pow (101 in 2,000 float32 ** int64; analysis/numpy_scalars.py):
    # compiled code calls that loop (transpiler.ir.ufunc_loop); it fell back before
    assert "ufunc_loop(np.power" in assert_compiles_same(power, *args).source()


@pytest.mark.parametrize("fn,args", [
    (element_powers, (np.array([1.5, 0.0], np.float32), 0)),
    (element_powers, (np.array([1.5, 0.0], np.float32), 1)),
    (element_power_update, (np.array([1.1, 2.0]),)),
    (element_power_update, (np.array([100, 2], np.int32),)),
], ids=lambda v: getattr(v, "__name__", None))
def test_power_of_array_elements(fn, args):
    assert_compiles_same(fn, *args)


def test_an_int_element_to_a_negative_power_raises_as_numpy():
    # np.int64 ** -1 raises ValueError in NumPy; its result type is not followed (the result
    # check runs it as Python where the overload's item is an int64)
    compiled = tp.jit(element_int_powers)
    for args in [(np.array([2, 0], np.int64), 0), (np.array([2, 0], np.int64), 1)]:
        with pytest.raises(ValueError), warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            compiled(*args)
        with pytest.raises(ValueError):
            element_int_powers(*args)


def test_a_complex_power_raises_instead_of_giving_nan():
    """Python gives a complex number; compiled code cannot change the result's type by value
    (README, "Known gaps"): it raises ValueError, never returns nan."""
    import transpiler as tp
    assert isinstance(power(-8.0, 1 / 3), complex)
    with pytest.raises(ValueError, match="complex"):
        tp.jit(power, fullgraph=True)(-8.0, 1 / 3)


def int_power_of_int_argument(n, k):
    return n ** k


def test_int_to_an_int_argument_power_specializes_on_its_sign():
    """int ** int is an int or a float by the exponent's sign: for an int argument never
    reassigned, the code is specialized on its sign (guarded, like its type)."""
    import transpiler as tp
    f = tp.jit(int_power_of_int_argument, fullgraph=True)
    for args, expected in [((2, 3), 8), ((2, -1), 0.5), ((0, 0), 1), ((3, 2), 9)]:
        result = f(*args)
        assert result == expected and type(result) is type(expected)
    with pytest.raises(ZeroDivisionError):
        f(0, -2)
    assert_compiles_same(int_power_of_int_argument, 7, -2)


def int_power_of_unknown_sign(n, k):
    j = k - 3
    return n ** j


def test_int_to_an_int_power_of_unknown_sign_is_not_compiled():
    """Where the exponent's sign is not known (not a constant, a range variable, len, abs, an
    int argument...), that function runs as Python."""
    import transpiler as tp
    with pytest.raises(tp.UnsupportedConstruct, match="may be negative"):
        tp.jit(int_power_of_unknown_sign, fullgraph=True)(2, 3)
    with pytest.warns(tp.FallbackWarning):
        assert tp.jit(int_power_of_unknown_sign)(2, 2) == 0.5


# -- `/`, `//`, `%` by zero: NumPy scalars give inf/nan/0, Python numbers raise -----------------

def divisions(x, y):
    return x / y, x // y, x % y


def element_by_zero(a, i):
    return a[i] / 0.0, a[i] // 0, a[i] % 0.0, 1.0 / a[i]


def element_update_by_zero(a, i):
    a[i] /= 0.0
    return a


def scalar_variable_update(a):
    s = a[0]
    s /= a[1]
    t = a[0] * 2
    t //= a[1]
    return s, t


def ratios(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] / b[i]
    return out


def row_by_zero(m, i):
    return m[i] / 0.0


@pytest.mark.parametrize("args", [
    (np.float32(1), np.float32(0)), (np.float32(-1), np.float32(0)),
    (np.float32(0), np.float32(0)), (np.float64(1), 0.0), (np.float64(-1), -0.0),
    (1.0, np.float64(0)), (np.float32(1.5), 0), (np.int64(1), np.int64(0)),
    (np.int64(-7), np.int64(0)), (np.int64(1), 0), (1, np.int64(0)),
    (np.float64(math.nan), 0.0),
    (np.float64(math.inf), np.float64(0.0)), (np.float64(-5.0), np.float64(math.inf)),
    (np.int64(-7), np.int64(2)), (np.float32(7.5), np.float32(-2)),
    (1.0, 0.0), (1, 0), (-7, 2), (7.5, -2.0), (1.0, 0), (0, 0.0),
], ids=repr)
def test_division_by_zero(args):
    # (int32 and uint8 scalars divide in int64/uint64 in Numba: README, "Known gaps".)
    assert_compiles_same(divisions, *args)


@pytest.mark.parametrize("fn,args", [
    (element_by_zero, (np.array([1.0, -2.0, 0.0], np.float32), 1)),
    (element_by_zero, (np.array([1.0, -2.0, 0.0]), 2)),
    (element_by_zero, (np.array([3, 0], np.int64), 0)),
    (element_update_by_zero, (np.array([1.0, -2.0]), 1)),
    (element_update_by_zero, (np.array([1.0, -2.0], np.float32), 0)),
    (scalar_variable_update, (np.array([1.0, 0.0], np.float32),)),
    (scalar_variable_update, (np.array([3, 0], np.int64),)),
    (ratios, (np.array([1.0, 0.0, -1.0]), np.array([2.0, 0.0, 0.0]), np.zeros(3))),
    (row_by_zero, (np.ones((2, 2), np.float32), 0)),
], ids=lambda v: getattr(v, "__name__", None))
def test_division_of_array_elements_by_zero(fn, args):
    assert_compiles_same(fn, *args)


@pytest.mark.parametrize("fn,args", [
    (power, (0.0, -1.0)), (power, (10.0, 400.0)), (power, (np.int64(2), np.int64(-1))),
    (power, (np.float32(1.1), np.int16(13))), (int_to_negative_literal, (2,)),
    (divisions, (np.float32(1), np.float32(0))), (divisions, (np.int64(1), np.int64(0))),
    (element_by_zero, (np.array([1.0, -2.0, 0.0], np.float32), 1)),
], ids=lambda v: getattr(v, "__name__", None))
def test_checked_operators_in_the_eager_backend(fn, args):
    """The checked functions are plain Python too: the eager backend runs them as such."""
    assert_compiles_same(fn, *args, backend="eager")


def update_at_called_index(x1, a):
    a[max(0, 0)] += -1.5 + x1
    return float(a[0])


def test_update_at_a_called_index_adds_in_float32():
    """The index is evaluated once, into a temporary, so that NEP 50 can name the element
    (found by the fuzzer once `**` programs were no longer set aside as a gap)."""
    assert_compiles_same(update_at_called_index, 0.31, np.array([1.0], np.float32))


def mixed_then_numpy(a):
    y = 1.0
    y = 0.1 // abs(a[0])
    return 100.0 / y


def test_numpy_rules_follow_the_assignment_that_reaches_the_use():
    """``y`` is a Python float, then a NumPy scalar: at the division only the second
    assignment reaches (def-use chains), so NumPy's rules give inf, not ZeroDivisionError.
    (The result's type is a documented gap: Numba unifies ``y`` to float64.)"""
    import transpiler as tp
    a = np.array([-5.0], np.float32)
    with np.errstate(divide="ignore"):
        assert mixed_then_numpy(a) == math.inf
        assert tp.jit(mixed_then_numpy, fullgraph=True)(a) == math.inf


def int_powers(n, k):
    return n ** k, n ** 2, n ** 3, n ** abs(k - 1)


@pytest.mark.parametrize("args", [(3, 5), (-7, 4), (3037000499, 1), (3037000500, 1),
                                  (-3037000500, 1), (2097151, 1), (2097152, 1),
                                  (-2097152, 1), (-2097153, 1), (2, 62), (2, 63), (-2, 63),
                                  (-2, 64), (1, 10 ** 6), (-1, 10 ** 6 + 1), (0, 7)],
                         ids=repr)
def test_int_powers_beyond_int64_raise_instead_of_wrapping(args):
    """Python's ints do not overflow; int64 does (README, "Known gaps"). A power that leaves
    int64 raises OverflowError in compiled code, never a wrapped value."""
    import transpiler as tp
    n, k = args
    expected = (n ** k, n ** 2, n ** 3, n ** abs(k - 1))
    compiled = tp.jit(int_powers, fullgraph=True)
    if all(-2 ** 63 <= v < 2 ** 63 for v in expected):
        assert compiled(n, k) == expected
    else:
        with pytest.raises(OverflowError, match="int64"):
            compiled(n, k)


def python_number_meets_a_call_result(a):
    return 1.5 / abs(a[0]), abs(a[0]) // 0.5, 2.0 ** abs(a[0]), abs(a[0]) ** 2.0


@pytest.mark.parametrize("a", [np.array([-1.24], np.float32), np.array([0.0], np.float32)],
                         ids=repr)
def test_nep50_where_the_numpy_operand_is_a_call(a):
    """``abs(a[0])`` cannot be named twice in ``weak(1.5, abs(a[0]))``: the checked operator
    applies NEP 50 inside, where it is a parameter (found by the fuzzer: float32 squared in
    float64)."""
    assert_compiles_same(python_number_meets_a_call_result, a)


def divide_by_math_of_element(a):
    y0 = a[1]
    y0 /= math.sqrt(y0)
    return math.sqrt(y0), a[1] * math.floor(a[1]), a[1] - math.exp(a[0])


def test_math_results_are_python_floats_meeting_numpy_scalars():
    """``math.sqrt`` gives a Python float whatever its argument: NEP 50 makes it weak against
    a float32 element (found by the fuzzer)."""
    assert_compiles_same(divide_by_math_of_element, np.array([0.0, 2.0], np.float32))


def _sin_half(y):
    return np.sqrt(y) * 0.5


def _half_exp(y):
    return 0.5 * np.abs(y) - 1


def _minus_call(y):
    return 2 - np.sqrt(y)


@pytest.mark.parametrize("fn", [_sin_half, _half_exp, _minus_call])
def test_python_number_meeting_a_numpy_call_keeps_its_dtype(fn):
    """NEP 50 where the array side is a call (found trying the README as a new user):
    ``np.sin(float32) * 0.5`` stays float32. (sqrt and abs: correctly rounded in NumPy and
    Numba alike, so the values compare exactly.)"""
    assert_compiles_same(fn, np.linspace(0.5, 2.0, 5, dtype=np.float32))
    assert_compiles_same(fn, np.float32(1.5))


def _python_int_becomes_float32(a):
    y0 = 1
    y0 += a[0]
    return 0.5 / y0


def test_division_by_a_variable_that_became_a_numpy_scalar():
    """``y0 = 1; y0 += a[0]`` makes y0 an np.float32 at the division: NumPy's rules (inf, no
    ZeroDivisionError), found by the fuzzer. (Its dtype is the flow-sensitive NEP 50 gap.)"""
    import warnings as _warnings
    with _warnings.catch_warnings():
        _warnings.simplefilter("ignore")
        import transpiler as _tp
        got = _tp.jit(_python_int_becomes_float32)(np.array([-1.0], np.float32))
    assert np.isinf(got) and got > 0


def _divide_by_itself(a):
    y0 = 0 / a[1]
    y0 /= y0
    return y0


def test_in_place_division_of_a_numpy_scalar_by_itself():
    """``y0 /= y0`` reads y0 twice: both reads see the np.float32 from ``0 / a[1]`` (the
    in-place target's read was taken for a definition of its own), so 0/0 is nan, not
    ZeroDivisionError. Found by the fuzzer (N=2000, seed 11)."""
    assert_compiles_same(_divide_by_itself, np.array([-5.0, -7.0], np.float32))
    assert_compiles_same(_divide_by_itself, np.array([-5.0, 0.0], np.float32))


def growth(x):
    return math.exp(x) + math.expm1(x) + math.sinh(x) + math.cosh(x)


def periodic(x):
    return math.sin(x) + math.cos(x) + math.tan(x)


def float_power(x, y):
    return math.pow(x, y)


def scaled(a, i):
    return math.ldexp(a[0], i)


@pytest.mark.parametrize("fn,args", [
    (growth, (1.0,)), (growth, (800.0,)), (growth, (-800.0,)), (growth, (float("inf"),)),
    (growth, (float("nan"),)),
    (periodic, (1.0,)), (periodic, (float("inf"),)), (periodic, (float("-inf"),)),
    (periodic, (float("nan"),)),
    (float_power, (2.0, 3.0)), (float_power, (0.0, -1.0)), (float_power, (-0.0, -3.0)),
    (float_power, (-2.0, 0.5)), (float_power, (10.0, 400.0)), (float_power, (float("nan"), 0.0)),
    (float_power, (1.0, float("nan"))), (float_power, (float("inf"), -1.0)),
    (float_power, (0.0, float("-inf"))),
    (scaled, (np.array([3.0], np.float32), 2)), (scaled, (np.array([3e38], np.float32), 200)),
    (scaled, (np.array([1.0]), 2000)), (scaled, (np.array([1e-300]), -2000)),
    (scaled, (np.array([1.5]), 2 ** 33)), (scaled, (np.array([-1.5]), -2 ** 33)),
    (scaled, (np.array([1.5]), 2 ** 31)), (scaled, (np.array([0.0]), 2 ** 40)),
], ids=lambda v: getattr(v, "__name__", None))
def test_math_range_and_domain_errors_as_cpython_raises_them(fn, args):
    """CPython's math_1: an infinity from a finite argument is OverflowError for functions
    that can overflow, a nan from a non-nan one ValueError (sin(inf)); math.pow follows
    math_pow; ldexp converts a float32 first (Numba computed it in float32: inf)."""
    assert_compiles_same(fn, *args)


def gamma_of(x):
    return math.gamma(x) + math.lgamma(x) + math.hypot(x, 2.0)


def gcd_of(a):
    return math.gcd(a[0], 6)


def test_math_functions_cpython_computes_its_own_way_fall_back():
    import warnings

    import transpiler as tp
    for fn, args in ((gamma_of, (0.5,)), (gcd_of, (np.array([1.5, 2.0]),))):
        try:
            expected = ("returned", fn(*args))
        except TypeError as exc:
            expected = ("raised", type(exc))
        with pytest.warns(tp.FallbackWarning):
            try:
                actual = ("returned", tp.jit(fn)(*args))
            except TypeError as exc:
                actual = ("raised", type(exc))
        assert actual == expected
    assert_compiles_same(gcd_of, np.array([9, 2]))


def add_scaled(i1, x1, a):
    a[0] += math.ldexp(x1, i1)


def test_an_ldexp_result_is_a_python_float_meeting_float32():
    """Found by the fuzzer (N=10000, seed 1): math.ldexp gives a Python float, so NEP 50 adds
    it into a float32 element in float32; it was added in float64, then rounded."""
    assert_compiles_same(add_scaled, 9, -5.122, np.array([-0.5400000214576721], np.float32))
