"""NumPy 2's scalar rules for every dtype (transpiler/analysis/numpy_scalars.py), Python's own
rules where Numba differs for Python numbers, and dispatch on complete argument types.

Each case runs plainly and compiled with ``fullgraph=True`` (a fallback is an error) and must
give the same value, type and dtype, or raise the same exception type. Cases that must fall
back (float16, NumPy's own power loops) are checked to do so, with the plain result. The whole
operator x type matrix is tests/dtype_universe.py (``make matrix``; a sample in
test_dtype_matrix.py).
"""
import math
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler.analysis.numpy_scalars import plan, ufunc_plan

from reference import assert_compiles_same, outcome


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def floordiv(a, b):
    return a // b


def lshift(a, b):
    return a << b


def rshift(a, b):
    return a >> b


def power(a, b):
    return a ** b


def truediv(a, b):
    return a / b


def bitor(a, b):
    return a | b


def neg(a):
    return -a


def invert(a):
    return ~a


def absolute(a):
    return abs(a)


def less(a, b):
    return a < b


def running_sum(x):
    s = x[0]
    for i in range(1, x.shape[0]):
        s += x[i]
    return s


def level_shift(x, n):
    for _ in range(n):
        x = x << 1
    return x


def acc(x, n):
    s = x
    for _ in range(n):
        s = s + x
    return s


# The examples first, then edges of each rule.
SCALAR_CASES = [
    (add, (np.uint8(200), np.uint8(200))),          # np.uint8(144), not np.uint64(400)
    (add, (np.int8(127), np.int8(127))),            # np.int8(-2)
    (mul, (np.int16(30000), 2)),                    # wraps at int16
    (invert, (np.uint32(0),)),
    (neg, (np.uint8(3),)),                          # np.uint8(253)
    (power, (np.int8(-3), 5)),
    (lshift, (np.uint8(3), 7)),
    (add, (np.int64(10), np.uint64(1))),            # float64 in NumPy
    (mul, (np.uint16(7), np.float32(1.5))),         # float32, not float64
    (floordiv, (np.int8(-128), np.int8(-1))),       # np.int8(-128)
    (floordiv, (np.uint8(7), np.uint8(0))),         # 0 (NumPy's zero divisor)
    (lshift, (np.uint8(1), np.uint8(9))),           # a count >= bits: 0
    (rshift, (np.int8(-1), np.int8(9))),            # -1
    (lshift, (np.int8(1), np.int8(-1))),            # a negative count: 0
    (add, (np.uint8(5), 300)),                      # OverflowError: 300 does not fit uint8
    (add, (np.uint8(5), True)),
    (add, (np.True_, np.True_)),                    # logical or: np.True_
    (invert, (np.True_,)),                          # np.False_ (Numba: -2)
    (invert, (True,)),                              # the Python int -2
    (absolute, (np.int8(-128),)),
    (absolute, (np.True_,)),
    (absolute, (True,)),                            # the Python int 1
    (truediv, (np.int8(127), 1 + 2j)),              # NumPy's complex division, bit for bit
    (truediv, (np.complex64(1 - 1j), np.complex64(3 + 0.5j))),
    (truediv, (np.complex64(1 - 1j), np.complex64(0))),
    (mul, (np.float32(1.5), 1j)),                   # complex64
    (less, (np.int8(-1), np.uint8(255))),
    (less, (np.uint8(5), 300)),                     # Python ints compare exactly
    (running_sum, (np.array([200, 100, 50], np.uint8),)),
    (running_sum, (np.array([30000, 30000, 30000], np.int16),)),
    (level_shift, (np.uint8(3), 7)),
    (acc, (np.int8(100), 40)),
    (power, (2j, 3)),                               # CPython's c_powi
    (power, (1 + 2j, 0.5)),
    (power, (0j, -1)),                              # ZeroDivisionError
    (lshift, (5, -1)),                              # ValueError: negative shift count
    (rshift, (-5, 70)),
]


@pytest.mark.parametrize("fn,args", SCALAR_CASES,
                         ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_numpy_scalar_rules(fn, args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_compiles_same(fn, *args)


def test_a_shift_beyond_int64_runs_again_as_python():
    # compiled code cannot hold 2**63 (never wraps): the effect-free call runs as Python
    with pytest.warns(tp.FallbackWarning, match="ran as plain Python"):
        assert tp.jit(lshift)(1, 63) == 2 ** 63


def as_int(x):
    return int(x)


def item(x):
    return x.item()


def frexp_exponent(x):
    return math.frexp(x)[1]


def count(x):
    return len(range(x))


def is_int(x):
    return isinstance(x, int)


def floor(x):
    return math.floor(x)


def to_complex(x):
    return complex(x, x)


def quotient(a, b):
    return divmod(a, b)


def remainder_of_quotient(a, b):
    return divmod(a, b)[1] % 0


def total(a, b):
    return sum((a, b))


def rounded(x):
    return round(x, 1)


def maximum(a, b):
    return np.maximum(a, b)


def max_then_divide(x0):
    y0 = max(x0, -1.5)      # an np.float64 or a Python float by value
    y0 /= 0                 # inf in NumPy, ZeroDivisionError in Python
    return y0


def uint8_of_float():
    return np.uint8(-1.5)   # OverflowError in NumPy 2


def int8_of(x):
    return np.int8(x)


def int64_of_literal():
    return np.complex128(np.int64(2) + 2j)


def store_int(a):
    a[1] = int(-1.5)
    return a


BUILTIN_CASES = [
    (as_int, (np.uint8(200),)), (as_int, (np.int32(7),)), (item, (np.float32(1.5),)),
    (item, (np.uint64(3),)), (frexp_exponent, (np.float32(2.25),)), (count, (np.int16(5),)),
    (count, (True,)), (is_int, (np.intp(3),)), (is_int, (True,)), (floor, (np.uint8(200),)),
    (to_complex, (np.float32(-1.0),)), (quotient, (np.uint8(200), np.int8(-3))),
    (quotient, (np.int16(30000), 1.5)), (remainder_of_quotient, (np.uint16(5), 2)),
    (total, (np.uint8(200), np.uint8(200))), (total, (True, np.int8(127))),
    (rounded, (np.int8(-3),)), (rounded, (2,)), (maximum, (np.uint8(200), 2)),
    (maximum, (np.uint32(7), np.float32(1.5))), (store_int, (np.array([0, 2], np.uint16),)),
    # found by the widened fuzzer (tests/fuzzing): seeds 11 and 12, N=500, and the short round
    (max_then_divide, (-3.0,)), (uint8_of_float, ()), (int8_of, (300,)), (int8_of, (-1.5,)),
    (int8_of, (float("nan"),)), (int8_of, (np.float64(300.0),)), (int64_of_literal, ()),
    (power, (complex(-3.21, -math.inf), 1j)), (power, (1j, complex(-3.21, -math.inf))),
    (power, (-1j, 1e200 + 1e200j)), (power, (1e200 + 1e200j, 2)),
]


@pytest.mark.parametrize("fn,args", BUILTIN_CASES,
                         ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_builtins_by_the_type_model(fn, args):
    test_numpy_scalar_rules(fn, args)


def test_a_division_by_zero_of_a_value_numpy_or_python_by_path_runs_as_python():
    # np.float64 on this path: NumPy's inf. The result is a Python float or an np.float64 by
    # value (max), which no result flag can follow: the function runs as Python.
    with pytest.warns(tp.FallbackWarning, match="runs as plain Python.*cannot tell which"):
        result = tp.jit(max_then_divide)(np.float64(1.0))
    assert type(result) is np.float64 and result == np.inf


def trunc(x):
    return math.trunc(x)


@pytest.mark.parametrize("fn,args", [
    (add, (np.float16(1.5), np.float16(2.0))),      # Numba has no float16 scalars
    (power, (np.complex64(1 - 1j), np.int8(3))),    # NumPy's own complex power
    (less, (np.int64(-1), np.uint64(1))),           # compared exactly, in no common dtype
    (trunc, (np.float32(2.5),)),                    # TypeError in Python
    (bitor, (np.int64(10), np.uint64(1))),          # TypeError in NumPy
    (sub, (np.True_, np.True_)),                    # TypeError in NumPy
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_what_cannot_be_exact_falls_back(fn, args):
    compiled = tp.jit(fn)
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        assert outcome(compiled, args)[0][0] == outcome(fn, args)[0][0]
        plain, got = outcome(fn, args)[0], outcome(compiled, args)[0]
    assert type(plain[1]) is type(got[1]) and repr(plain[1]) == repr(got[1])
    assert any(issubclass(w.category, tp.FallbackWarning) for w in caught)
    with pytest.raises(tp.UnsupportedConstruct):
        tp.jit(fn, fullgraph=True)(*args)


def test_plans_come_from_numpy():
    assert plan("Add", ["np:uint8", "np:uint8"]).result == "uint8"
    assert plan("Add", ["np:int64", "np:uint64"]).loop == ("float64", "float64")
    assert plan("Mult", ["np:uint16", "np:float32"]).result == "float32"
    assert plan("Add", ["np:uint8", "int"]).weak_int == (False, True)
    assert plan("BitOr", ["np:int64", "np:uint64"]).problem
    assert plan("Add", ["np:float64", "float"]) is None          # Numba agrees: other rules
    assert plan("Add", ["int", "int"]) is None
    assert ufunc_plan(np.add, ["int", "int"]).result == "int64"
    # NumPy's own loop in NumPy's loop dtype (transpiler.ir.ufunc_loop); float16 is a problem
    assert ufunc_plan(np.exp, ["np:float32"]).loop == ("float32",)
    assert ufunc_plan(np.exp, ["np:float32"]).numpy_loop is np.exp
    assert ufunc_plan(np.exp, ["np:int8"]).problem                 # float16 in NumPy
    assert ufunc_plan(np.exp, ["np:int16"]).result == "float32"
    assert ufunc_plan(np.sign, ["np:complex64"]).numpy_loop is np.sign
    assert ufunc_plan(np.sign, ["np:float32"]).numpy_loop is None  # exact as compiled
    assert plan("Pow", ["np:uint16", "float"]).numpy_loop is np.power
    assert plan("Pow", ["np:float64", "float"]).numpy_loop is None  # libm's pow, as Numba
    assert plan("Pow", ["np:complex64", "np:int8"]).problem        # scalarmath's own cpow
    assert ufunc_plan(np.spacing, ["float"]).problem               # not compiled
    assert ufunc_plan(np.fmod, ["np:int8", "np:int8"]).problem


def dispatch(x, n):
    s = x
    for _ in range(n):
        s = s + x
    return s


def test_no_specialization_outlives_its_argument_types():
    compiled = tp.jit(dispatch)
    calls = [(None, 2), ("ab", 2), ((1, 2), 2), ((1.5, 2), 2), (1 + 2j, 2), (np.int8(100), 40),
             (np.float32(0.1), 3), (np.uint8(200), 1), (np.ones(2, np.float32), 2),
             (np.ones(2, np.int16), 2), (np.ones((2, 2)), 1), (True, 3), (2, 3), (2.5, 3)]
    for order in (calls, calls[::-1], calls[1::2] + calls[::2]):
        for args in order:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                (kind, expected), _ = outcome(dispatch, args)
                (kind_c, actual), _ = outcome(compiled, args)
            assert kind == kind_c, (args, expected, actual)
            if kind == "raised":
                assert expected is actual
            else:
                assert type(expected) is type(actual), (args, expected, actual)
                np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))
                assert np.asarray(actual).dtype == np.asarray(expected).dtype


# -- found by a fresh-eyed review ------------------------------------------------------------

def store(a, v):
    a[0] = v
    return a


def update_all(a, v):
    for i in range(a.shape[0]):
        a[i] += v
    return a


def inplace(a, s):
    a += s
    return a


def subtract_true(a):
    return a - True


def first_times_three(t):
    return t[0] * 3


def plus_2j(a):
    return a + 2j


def chain(a, b, c):
    return a < b < c


STORED = [300, -3, np.int16(300), np.uint8(255), np.int64(2 ** 40), np.uint64(2 ** 64 - 1),
          True, -3.0, 3.7, 1e20, float("nan"), np.float64(-3.0), np.float32(-280.0),
          np.uint32(4294967293), np.int8(-5)]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64"])
def test_stores_into_integer_arrays_follow_numpy_setitem(dtype):
    """NumPy 2's setitem: into a signed array every value converts as int() does (raising
    OverflowError / ValueError); into an unsigned one Python numbers do, NumPy integers
    wrap, NumPy floats convert through a signed integer. Where C's conversion is undefined
    compiled code raises (never a guess): those values are left out here."""
    for fn in (store, update_all):
        compiled = tp.jit(fn)
        for value in STORED:
            args = (np.ones(3, dtype), value)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                (kind, expected), _ = outcome(fn, args)
                (kind_c, actual), _ = outcome(compiled, args)
            if kind_c == "raised" and actual is OverflowError and kind == "returned" and \
                    dtype.startswith("u") and isinstance(value, (float, np.floating)):
                continue   # undefined in C: compiled code says so (numpy_float_to_int_type)
            assert kind == kind_c, (fn.__name__, dtype, value, expected, actual)
            if kind == "raised":
                assert expected is actual, (fn.__name__, dtype, value)
            else:
                assert expected.dtype == actual.dtype
                np.testing.assert_array_equal(expected, actual)


@pytest.mark.parametrize("fn,args", [
    (inplace, (np.zeros(2, np.int8), 300)), (inplace, (np.zeros(2, np.int8), 3)),
    (plus_2j, (np.ones(2, np.float32),)), (plus_2j, (np.ones(2, np.complex64),)),
    (chain, (np.int8(1), np.int8(2), np.int8(3))), (chain, (np.int8(1), 2, np.int8(0))),
    (chain, (1, 2, 3)), (rshift, (np.uint64(2 ** 63 + 5), 1)),
    (rshift, (np.uint64(2 ** 63 + 5), 70)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_review_cases(fn, args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_compiles_same(fn, *args)


@pytest.mark.parametrize("fn,args", [
    (subtract_true, (np.array([True, False]),)),     # TypeError in NumPy
    (first_times_three, ((np.int8(100),),)),         # tuple items are not typed by path
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_review_cases_that_fall_back(fn, args, numba_path):
    with pytest.warns(tp.FallbackWarning):
        got = outcome(tp.jit(fn), args)[0]
    plain = outcome(fn, args)[0]
    assert got[0] == plain[0] and type(got[1]) is type(plain[1])


def is_(x):
    return x + 1


def test_a_function_named_like_a_keyword_compiles():
    # `is_` was turned into the keyword `is` in the generated module (an internal error)
    assert_compiles_same(is_, np.int8(3))


def one_more_than(i0):
    if 1 > 1 + i0:          # NumPy's int64 wraps: True at the largest int64
        return 0
    return 2


def bool_root_plus_float32():
    t0 = False
    return t0 ** 0.5 + np.float32(2.0)    # NEP 50: np.float32


@pytest.mark.parametrize("fn,args", [
    (one_more_than, (np.int64(2 ** 63 - 1),)), (bool_root_plus_float32, ()),
    (floordiv, (np.int64(-2 ** 63), np.int64(-1))), (neg, (np.int64(-2 ** 63),)),
    (mul, (np.int64(2 ** 62), 4)), (power, (np.int64(3), 41)),
    (power, (np.uint64(2 ** 64 - 1), np.uint64(2 ** 63))),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_int64_wraps_and_nep50_in_every_shape(fn, args):
    # found by the fuzzer (seed 1, N=1500) and while fixing it: Numba's signed arithmetic
    # is `nsw`, which LLVM may assume never wraps
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_compiles_same(fn, *args)


def bool_product_cubed(i1):
    return (i1 * 0) ** 3        # True * 0 is the int 0: 0 ** 3 is the int 0


def divmod_of_a_call(i0):
    return divmod(i0, abs(4) + 1)[1]


def test_fuzz_seed_2_cases():
    # found by the fuzzer (seed 2, N=1500)
    assert_compiles_same(bool_product_cubed, True)
    with pytest.warns(tp.FallbackWarning, match="divmod"):
        assert outcome(tp.jit(divmod_of_a_call), (np.int16(0),))[0] == (
            "returned", np.int16(0))
    assert type(tp.jit(divmod_of_a_call)(np.int16(7))) is np.int16


def round_it(x0):
    return round(x0)


@pytest.mark.parametrize("x", [math.nan, math.inf, 2.5, -3.5, np.float32(2.5), np.float64(-0.5)],
                         ids=repr)
def test_round_of_a_float(x):
    # found by the fuzzer (seed 3, N=1000): round(nan) returned an int compiled
    assert_compiles_same(round_it, x)


def test_round_beyond_int64_runs_again_as_python():
    with pytest.warns(tp.FallbackWarning, match="ran as plain Python"):
        assert tp.jit(round_it)(1e300) == round(1e300)


def complex_by_path(c0, a):
    z1 = 1j                  # a Python complex, or the np.complex128 argument after the loop
    for _ in range(a.shape[0]):
        z1 = c0
    return z1


@pytest.mark.parametrize("a", [np.zeros(0), np.zeros(1)], ids=["no trips", "one trip"])
def test_a_result_complex_or_np_complex128_by_path(a):
    # found by the fuzzer (seed 4, N=1000): the result flag's box had no complex (KeyError)
    assert_compiles_same(complex_by_path, np.complex128(2j), a)


# -- found by the full operator x type matrix (make matrix, 180,746 cases) ---------------------

def greater_equal(a, b):
    return a >= b


def equal(a, b):
    return a == b


def not_equal(a, b):
    return a != b


_INT_UINT64 = [0, 1, -1, -7, 2 ** 63 - 1, -2 ** 63, np.uint64(0), np.uint64(1),
               np.uint64(2 ** 63 - 1), np.uint64(2 ** 63), np.uint64(2 ** 64 - 1)]


@pytest.mark.parametrize("fn", [less, greater_equal, equal, not_equal], ids=lambda f: f.__name__)
def test_python_int_compared_with_uint64_exactly(fn):
    # NumPy 2 compares a Python int with an np.uint64 exactly; Numba compared both in
    # float64, where 2**63 - 1 == np.uint64(2**63) (helpers.numpy_arith.int_uint64_sign)
    pairs = [(a, b) for a in _INT_UINT64 for b in _INT_UINT64
             if isinstance(a, np.uint64) != isinstance(b, np.uint64)]
    for a, b in pairs:
        assert_compiles_same(fn, a, b)


@pytest.mark.parametrize("x", [np.uint64(5), np.uint64(2 ** 63 - 1), np.uint64(2 ** 63),
                               np.uint64(2 ** 64 - 1)], ids=repr)
def test_round_of_a_uint64(x):
    # round(np.uint64(2**63)) wrapped to -2**63; from 2**63 on the call runs as Python
    compiled = tp.jit(round_it)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        result = compiled(x)
    assert type(result) is int and result == round(x)
    if x < 2 ** 63 - 1024:
        assert_compiles_same(round_it, x)


def floor_divide_in_place(a, b):
    a //= b
    return a


def remainder_in_place(a, b):
    a %= b
    return a


def remainder_in_place_of_a_slice(a, b):
    a[1:] %= b
    return a


def _same_bits(p, c):
    return (p.dtype == c.dtype and p.shape == c.shape and
            np.array_equal(p, c, equal_nan=True) and np.array_equal(np.signbit(p), np.signbit(c)))


@pytest.mark.parametrize("fn", [floor_divide_in_place, remainder_in_place,
                                remainder_in_place_of_a_slice], ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: d.__name__)
@pytest.mark.parametrize("b", [-1.5, 1e308, math.inf, -0.0, np.float32(-1.5), np.int8(-128),
                               np.float64(np.inf), np.array([2.0, -1.5, np.inf])], ids=repr)
def test_float_floor_divide_and_remainder_in_place(fn, dtype, b):
    # NumPy's npy_divmod (CPython's float_floor_div, float_rem): -1.5 // inf is -1.0 and
    # -1.5 % -1.5 is -0.0; Numba's in-place operators gave -0.0 and 0.0
    a = np.array([0.5, -1.5, 3e38], dtype=dtype)

    def result(f):
        try:
            return f(a.copy(), b)
        except ValueError as exc:   # a[1:] %= <3 elements>: shapes do not broadcast
            return type(exc)

    with np.errstate(all="ignore"):
        plain = result(fn)
        compiled = result(tp.jit(fn, fullgraph=True))
    if plain is ValueError:
        assert fn is remainder_in_place_of_a_slice and np.ndim(b) == 1
        assert compiled is ValueError
    else:
        assert _same_bits(plain, compiled), (plain, compiled)


def test_float_remainder_in_place_of_a_2d_array():
    m = np.arange(6.0).reshape(2, 3) - 2.5
    for b in (np.array([-1.5, 2.0, -0.5]), -1.5, np.float32(0.75)):
        plain = remainder_in_place(m.copy(), b)
        compiled = tp.jit(remainder_in_place, fullgraph=True)(m.copy(), b)
        assert _same_bits(plain, compiled), (plain, compiled)


def scale_column_in_place(a, b):
    a[:, 1] *= b
    a[0, :] -= b
    return a


@pytest.mark.parametrize("b", [0.1, np.float64(0.1), 3, np.int8(3), np.float32(0.1)], ids=repr)
def test_in_place_update_of_a_slice_follows_nep50(b):
    # a slice target (`a[:, 1] *= 0.1`) took Numba's in-place loop: float64 arithmetic cast to
    # float32, where NumPy 2 multiplies by float32(0.1) in float32
    a = np.arange(6, dtype=np.float32).reshape(2, 3) + np.float32(0.3)
    plain = scale_column_in_place(a.copy(), b)
    compiled = tp.jit(scale_column_in_place, fullgraph=True)(a.copy(), b)
    assert _same_bits(plain, compiled), (plain, compiled)
