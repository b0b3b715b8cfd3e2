"""Types that flow path by path (issue 4): webs, merges Numba would unify, re-runs as Python.

Each function runs plainly and through graphjit; values, Python types/dtypes and exception types
must agree. Where compiled code cannot give a path's own type, graphjit must fall back (and say
so), never return the unified type.
"""
import ast
import math
import warnings

import gast
import numpy as np
import pytest

import transpiler as tp
from reference import assert_compiles_same, assert_same_value
from transpiler.passes.split_webs import split_webs

F32 = np.array([3.0, -2.0, 0.5], np.float32)


def run_both(fn, *args):
    """(plain result, compiled result, fallback warning texts)."""
    plain = fn(*args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = tp.jit(fn)(*args)
    texts = [str(w.message) for w in caught if issubclass(w.category, tp.FallbackWarning)]
    return plain, compiled, texts


def int_or_float(n):
    y = 0
    if n > 1:
        y = 1.5
    return y


def test_a_result_int_on_one_path_float_on_another_falls_back():
    for n in (0, 2):
        plain, compiled, texts = run_both(int_or_float, n)
        assert type(compiled) is type(plain) and compiled == plain
        assert texts and "a Python float or a Python int" in texts[0]
    with pytest.raises(tp.UnsupportedConstruct, match="the result is"):
        tp.jit(int_or_float, fullgraph=True)(0)


def float_sum(a, n):
    s = 0.0
    for i in range(n):
        s += a[i]
    return s


def test_a_returned_python_float_accumulating_float32_compiles_with_a_type_flag():
    """NumPy adds in float32 once s is an np.float32, and returns a float when the loop does
    not run: two types by path. Compiled code adds in float32 (s = np.float32(0.0), exact)
    and returns a flag beside s, by which the caller boxes a float or an np.float32."""
    a = np.random.default_rng(0).standard_normal(500).astype(np.float32)
    for n in (0, 1, 500):
        plain, compiled, texts = run_both(float_sum, a, n)
        assert_same_value(plain, compiled)
        assert type(compiled) is type(plain) and not texts
    source = tp.jit(float_sum)
    source(a, 3)
    assert "return (s, s_is_python)" in source.source()
    wide = np.float32(np.sum(a.astype(np.float64)))
    assert wide != float_sum(a, 500)    # float64 summing would be seen above


def sum_from_int(a):
    s = 0
    for x in a:
        s += x
    return s


def sum_with_resets(a):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            s = 0.0
        else:
            s += a[i]
    return s


def sum_from_a_tenth(a, n):
    s = 0.1
    for i in range(n):
        s += a[i]
    return s


def sum_until(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        if s > 3:
            return s
    return s


def test_the_type_flag_follows_the_last_assignment():
    """`s = 0` gives an int on the zero-trip path; a reset to 0.0 inside the loop gives a
    Python float again (the flag is set at every assignment of s)."""
    a = np.array([1.5, -1.0, 2.25], np.float32)
    for data in (a, a[:1], a[:2], a[:0]):
        for fn in (sum_from_int, sum_with_resets):
            plain, compiled, texts = run_both(fn, data)
            assert_same_value(plain, compiled)
            assert type(compiled) is type(plain) and not texts


def test_a_returned_accumulator_still_falls_back_where_the_flag_cannot_tell():
    """0.1 is not a float32 (converting it where assigned would change the zero-trip
    result); `s > 3` compares a float or a float32 by path."""
    a = np.random.default_rng(0).standard_normal(50).astype(np.float32)
    for n in (0, 50):
        plain, compiled, texts = run_both(sum_from_a_tenth, a, n)
        assert_same_value(plain, compiled)
        assert type(compiled) is type(plain)
        assert texts and "np.float32(...)" in texts[0]
    for data in (a, a[:0], np.full(9, 0.5, np.float32)):
        plain, compiled, texts = run_both(sum_until, data)
        assert_same_value(plain, compiled)
        assert type(compiled) is type(plain) and texts


def float32_sum(a):
    s = np.float32(0.0)
    for i in range(a.shape[0]):
        s += a[i]
    return s


def test_an_np_float32_accumulator_compiles_in_float32():
    a = np.random.default_rng(1).standard_normal(1000).astype(np.float32)
    assert_compiles_same(float32_sum, a)


def prefix_sum(x):
    s = 0.0
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s
    return out


def test_a_python_float_only_ever_meeting_float32_is_converted_where_assigned():
    """Every read of s converts it to float32 (NEP 50), so s = np.float32(0.0) is exact and
    the loop stays compiled, summing in float32 as NumPy does (float64 differs over 1000)."""
    x = np.random.default_rng(2).standard_normal(1000).astype(np.float32)
    compiled = assert_compiles_same(prefix_sum, x)
    assert "np.float32(0.0)" in compiled.source()
    wide = np.cumsum(x.astype(np.float64)).astype(np.float32)
    assert not np.array_equal(wide, prefix_sum(x))   # the check above can tell them apart


def redefined(a):
    y = 1
    y = a[0] * 2
    return y


def updated(a):
    y0 = 0
    y0 /= a[1]
    return y0


@pytest.mark.parametrize("fn", [redefined, updated])
def test_a_variable_redefined_in_sequence_keeps_each_type(fn):
    """Numba would type y once (int64 and float32 -> float64); each web gets its own name."""
    compiled = assert_compiles_same(fn, F32)
    assert "y__2" in compiled.source() or "y0__2" in compiled.source()


def max_of_mixed(a):
    y0 = max(a[1], -1.5)
    return y0


def test_max_of_a_float32_and_a_python_float_falls_back():
    for a in (F32, np.array([0.0, -3.0], np.float32)):
        plain, compiled, texts = run_both(max_of_mixed, a)
        assert type(compiled) is type(plain) and compiled == plain
        assert texts


def floor_of(x):
    return math.floor(x)


def floor_then_store(x, a):
    a[0] = 1.0
    return math.floor(x)


def root_of(x):
    return (x - 0.5) ** 0.5


def test_an_effect_free_call_whose_result_does_not_fit_runs_again_as_python():
    plain, compiled, texts = run_both(floor_of, 1e300)
    assert compiled == plain and type(compiled) is int
    assert texts and "ran again as Python" in texts[0]
    plain, compiled, texts = run_both(root_of, 0.25)
    assert compiled == plain and type(compiled) is complex
    assert tp.jit(floor_of)(2.5) == 2


def test_a_call_with_effects_cannot_run_again_and_raises():
    """It stored into `a` first: running it again is not the plain call (README gap)."""
    a = np.zeros(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(OverflowError, match="beyond int64"):
            tp.jit(floor_then_store)(1e300, a)
    assert a[0] == 1.0


def first_element_doubled(a):
    return a[0] * 2.5


def test_arrays_of_other_dtypes_and_ndim_get_their_own_specialization():
    jitted = tp.jit(first_element_doubled)
    for a in (F32, F32.astype(np.float64), F32.astype(np.float16), np.ones((2, 2), np.float32)):
        assert_same_value(first_element_doubled(a), jitted(a))


def region_sum(a, n):
    s = 0.0
    print("summing", {"n": n})      # Python only: the loop below is a region
    for i in range(n):
        s += a[i]
    return s


def test_a_loop_region_is_specialized_on_its_argument_types(capsys):
    a = np.random.default_rng(3).standard_normal(300).astype(np.float32)
    plain, compiled, _ = run_both(region_sum, a, 300)
    assert_same_value(plain, compiled)
    assert type(compiled) is type(plain)


def test_split_webs_renames_only_webs_that_never_meet():
    fdef = gast.parse(
        "def f(a, n):\n"
        "    y = 1\n"
        "    z = y + 1\n"
        "    y = a[0]\n"
        "    s = 0.0\n"
        "    for i in range(n):\n"
        "        s = s + y\n"
        "    return s, z\n").body[0]
    renamed, names = split_webs(fdef)
    assert names == {"y__2": "y"}
    text = ast.unparse(gast.gast_to_ast(renamed))
    assert "y__2 = a[0]" in text and "s = s + y__2" in text and "z = y + 1" in text


def int_total(a):
    total = 0
    for i in range(a.shape[0]):
        total += a[i]
    return total * 2.0


def int_total_returned(a):
    total = 0
    for i in range(a.shape[0]):
        total += a[i]
    return total


def test_an_int_merging_with_float64_compiles_unless_its_type_is_returned():
    """int and np.float64 compute alike in float64; only the returned type shows the path."""
    a = np.random.default_rng(4).standard_normal(50)
    assert_compiles_same(int_total, a)
    assert_compiles_same(int_total, a[:0])
    for x in (a, a[:0]):
        plain, compiled, texts = run_both(int_total_returned, x)
        assert type(compiled) is type(plain) and compiled == plain and texts


# Found by a fresh-eyed review of the above (each was a silent wrong answer or a double effect).

def enumerate_sum(a):
    s = 0.0
    for i, x in enumerate(a):
        s += x
    return s


def slice_sum(a):
    s = 0.0
    for x in a[1:]:
        s += x
    return s


def unpacked(a, c):
    y = 0.1
    if c:
        y, k = a[0], 1
    return y * 3.0


def listed(c):
    if c:
        y = 1
    else:
        y = 2.5
    return [y]


def tupled(c):
    if c:
        y = 1
    else:
        y = 2.5
    t = (y, c)
    return t


def read_by_lambda(a):
    s = 0.1
    for i in range(a.shape[0]):
        s += a[i]
    g = lambda: s * 2.0    # noqa: E731
    return g()


def two_targets(a, out):
    s = t = 0.1
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s
    return t


def flag_sum(a):
    fl = False
    for i in range(a.shape[0]):
        fl = a[i] > 0.5
    return fl + fl


@pytest.mark.parametrize("fn,args", [
    (enumerate_sum, (F32,)), (enumerate_sum, (F32[:0],)), (slice_sum, (F32,)),
    (unpacked, (F32, True)), (unpacked, (F32, False)), (listed, (True,)), (tupled, (True,)),
    (read_by_lambda, (F32,)), (read_by_lambda, (F32[:0],)),
    (two_targets, (F32, np.zeros(3, np.float32))), (flag_sum, (np.array([0.7]),)),
])
def test_types_by_path_through_unpacking_displays_closures_and_regions(fn, args):
    import copy
    plain_args, compiled_args = copy.deepcopy(args), copy.deepcopy(args)
    plain = fn(*plain_args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = tp.jit(fn)(*compiled_args)
    assert_same_value(plain, compiled)
    assert type(compiled) is type(plain)
    for p, c in zip(plain_args, compiled_args):
        assert_same_value(p, c)


def update_then_floor(a, x):
    a += 1
    return math.floor(x)


def ufunc_out_then_floor(a, x):
    np.add(a, 1, a)
    return math.floor(x)


def _raises_overflow(fn, *args):
    """``tp.jit(fn)(*args)`` raises OverflowError (its warnings not shown)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(OverflowError):
            tp.jit(fn)(*args)


@pytest.mark.parametrize("fn", [update_then_floor, ufunc_out_then_floor])
def test_in_place_updates_are_effects_a_call_never_runs_twice(fn):
    a = np.zeros(3)
    _raises_overflow(fn, a, 1e300)
    assert a.tolist() == [1.0, 1.0, 1.0]


def add_into(a, b):
    a += b
    return a


def test_an_in_place_array_update_keeps_the_array_type():
    assert_compiles_same(add_into, np.ones(3, np.float32), np.ones(3))


def float64_total(a):
    return a.sum() * 2.0


def test_float64_results_are_boxed_as_the_plain_call_boxes_them():
    compiled = assert_compiles_same(float64_total, np.ones(4))
    assert type(compiled(np.ones(4))) is np.float64


# Found by the fuzzer (N=2000, seed 1) at 6c774f2.

def compared_at_a_computed_index(x0, a):
    a[0] = x0
    return a[max(5, 0) % 1] >= x0


def test_a_python_float_compared_with_an_element_it_cannot_name_twice_is_weak():
    """np.float32(-0.67) >= -0.67 is True (NEP 50 compares in float32); the index is a call,
    so the element cannot be named twice: a comparison helper applies the rule."""
    assert_compiles_same(compared_at_a_computed_index, -0.67, np.array([2.0], np.float32))


def int_to_negative_power_in_a_loop(i1, a):
    v0 = 10
    w0 = 0
    while 0 <= i1 and w0 < 5:
        w0 += 1
        v0 += 0 ** (-1)
    return a[v0 % 1]


def test_int_to_a_negative_constant_power_is_a_float_path():
    """v0 is an int when the loop does not run and a float after `0 ** -1` (which raises
    here): the loop is not compiled with v0 unified to a float (an index must stay an int)."""
    for i1 in (-1, 1):
        import copy
        a = np.array([0.0], np.float32)
        plain = compiled = None
        try:
            plain = int_to_negative_power_in_a_loop(i1, copy.deepcopy(a))
        except ZeroDivisionError as exc:
            plain = type(exc)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                compiled = tp.jit(int_to_negative_power_in_a_loop)(i1, copy.deepcopy(a))
            except ZeroDivisionError as exc:
                compiled = type(exc)
        assert type(plain) is type(compiled) and plain == compiled


def constant_comparison_raising(x):
    if x > 0 and float(-1.5) ** 0.5 >= 0:
        return 1
    return 0


def test_a_comparison_of_constants_that_raises_in_python_falls_back():
    for x in (1.0, -1.0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jitted = tp.jit(constant_comparison_raising)
            if x > 0:
                with pytest.raises(TypeError):
                    jitted(x)
            else:
                assert jitted(x) == constant_comparison_raising(x)


def below_300(a):
    return a[0] < 300


def equals_big_int(a):
    return a[0] == 16777217


def test_comparisons_with_python_ints_follow_numpy_2():
    """NumPy 2 compares a Python int with an integer scalar exactly (no OverflowError for 300
    against a uint8) and converts it to a float scalar's dtype (16777217 -> float32)."""
    assert_compiles_same(below_300, np.array([5], np.uint8))
    assert_compiles_same(equals_big_int, np.array([16777217], np.float32))


def min_compared(x0, a):
    return min(0.0, a[1]) >= x0


def test_min_of_a_python_float_and_a_float32_used_in_a_comparison_falls_back():
    """Found by the fuzzer (N=10000, seed 1, index 1486): Python picks np.float32(x0) and
    compares it with x0 in float32 (True); Numba compared in float64 (False)."""
    a = np.array([0.0, -0.67], np.float32)
    plain, compiled, texts = run_both(min_compared, -0.67, a)
    assert plain == compiled and type(plain) is type(compiled) and texts


def counted_by_a_power(i1):
    v0 = 1
    v0 += (-v0) ** i1
    total = 0
    for i in range(v0 % 6):
        total += i
    return v0, total


def test_a_power_by_a_negative_int_argument_is_a_float_and_range_of_it_raises():
    """Found by the fuzzer (N=10000, seed 1, index 2177): (-1) ** -1 is -1.0, so v0 is a
    float and range() of it raises TypeError; Numba's range() counted."""
    for i1 in (2, -1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jitted = tp.jit(counted_by_a_power)
            if i1 < 0:
                with pytest.raises(TypeError):
                    counted_by_a_power(i1)
                with pytest.raises(TypeError):
                    jitted(i1)
            else:
                assert jitted(i1) == counted_by_a_power(i1)


def power_of_a_loop_carried_int():
    v0 = 3
    w0 = 0
    while w0 < 5:
        w0 += 1
        v0 += 0 ** v0
    return v0


def test_an_int_power_converted_as_a_float_power_is_typed_as_one():
    """Found by the fuzzer (N=10000, seed 1): v0's kind was unsettled where `0 ** v0` is
    converted, so it was a float power compiled while Python keeps v0 an int. It fell back
    then; since the optimistic kind fixpoint it compiles as an int power."""
    plain, compiled, _ = run_both(power_of_a_loop_carried_int)
    assert type(compiled) is type(plain) and compiled == plain


def modular_power_chain(n, base):
    v0 = 10
    for i in range(n):
        v0 = base ** v0 % 1009
    return v0


def test_a_loop_carried_non_negative_int_power_is_an_int_power():
    """Found by the fuzzer (N=10000, seed 1): `v0 = 3 ** v0 % 1009` in a loop. The kinds and
    the non-negative ints are settled together, optimistically, so v0 is an int and `**` an
    int power: no fallback while it fits int64. Beyond int64 the effect-free call re-runs as
    Python (before: a float power raised OverflowError "Numerical result out of range")."""
    plain, compiled, texts = run_both(modular_power_chain, 3, 1)
    assert type(compiled) is int and compiled == plain and not texts
    plain, compiled, texts = run_both(modular_power_chain, 6, 3)
    assert type(compiled) is type(plain) and compiled == plain
    assert texts and "ran as plain Python: int beyond int64" in texts[0]
    plain, compiled, texts = run_both(power_of_a_loop_carried_int)
    assert type(compiled) is int and compiled == plain and not texts


def negative_power_chain(n):
    v0 = 2
    for i in range(n):
        v0 = 2 ** (v0 - 3)
    return v0


def test_a_loop_carried_power_that_may_turn_negative_is_not_an_int_power():
    """The optimistic start must not keep a name non-negative that is not: `2 ** (v0 - 3)`
    is 0.5 once v0 < 3, so v0 is int or float by path and the call falls back."""
    for n in (0, 1, 3):
        plain, compiled, texts = run_both(negative_power_chain, n)
        assert type(compiled) is type(plain) and compiled == plain


# -- float64 storage of a Python float / np.float32 merge (ScalarTypes.float_storage) --------

EDGES = np.array([np.nan, -0.0, 0.0, 0.1, 0.3, -0.1, 0.7, np.inf, -np.inf, 1e-45, 0.30000001]
                 + [0.1 + k * 1e-8 for k in range(-3, 4)], np.float32)


def relu_into(a, out, t):
    for i in range(a.shape[0]):
        out[i] = max(t, a[i])


def smaller_into(a, out, t):
    for i in range(a.shape[0]):
        out[i] = min(a[i], t)


def picked_into(a, out, t):
    for i in range(a.shape[0]):
        out[i] = t if a[i] > 0.3 else a[i]


def clipped_into(a, out, lo, hi):
    for i in range(a.shape[0]):
        v = a[i]
        if v < lo:
            v = lo
        elif v > hi:
            v = hi
        out[i] = v


def run_into(fn, out_dtype, *extra):
    """Plain and compiled stores, compared bit for bit (NaN and the sign of zero)."""
    plain, compiled = np.zeros(len(EDGES), out_dtype), np.zeros(len(EDGES), out_dtype)
    fn(EDGES.copy(), plain, *extra)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        tp.jit(fn)(EDGES.copy(), compiled, *extra)
    np.testing.assert_array_equal(plain, compiled)
    assert np.array_equal(np.signbit(plain), np.signbit(compiled))


@pytest.mark.parametrize("t", [0.1, 0.0, -0.0, float("nan"), 0.30000001192092896])
def test_min_max_of_a_float_and_a_float32_stored_into_a_float32_array_compiles(t):
    """`out[i] = max(t, a[i])` picks a Python float or an np.float32 by value, and NEP 50
    compares them in float32 while compiled code compares in float64; both picks store the
    same float32 (rounding is monotone), so it compiles, with no fallback warning."""
    run_into(relu_into, np.float32, t)
    run_into(smaller_into, np.float32, t)


def test_a_pick_by_condition_stored_into_any_float_array_compiles():
    run_into(picked_into, np.float32, 0.1)
    run_into(picked_into, np.float64, 0.1)


@pytest.mark.parametrize("out_dtype", [np.float32, np.float64])
def test_a_clipped_float32_kept_in_float64_compares_in_float32(out_dtype):
    """`v` is an np.float32 at the comparisons (narrowed back, NEP 50 in float32) and a Python
    float or an np.float32 at the store, which converts either exactly."""
    run_into(clipped_into, out_dtype, 0.1, 0.3)
    source = tp.jit(clipped_into)
    source(EDGES.copy(), np.zeros(len(EDGES), out_dtype), 0.1, 0.3)
    assert "np.float32(v)" in source.source()


def max_into_a_name(a, out, t):
    for i in range(a.shape[0]):
        m = max(t, a[i])
        out[i] = m


def clipped_then_computed(a, out, lo):
    for i in range(a.shape[0]):
        v = a[i]
        if v < lo:
            v = lo
        out[i] = v * 3.0


def test_picks_and_mixed_reads_that_compute_still_fall_back():
    """A max kept in a name may be stored into a float64 array (Python stores 0.1, compiled
    code would store float32(0.1)); `v * 3.0` computes in float32 or float64 by path."""
    for fn, extra in ((max_into_a_name, (0.1,)), (clipped_then_computed, (0.1,))):
        for out_dtype in (np.float32, np.float64):
            plain, compiled = np.zeros(len(EDGES), out_dtype), np.zeros(len(EDGES), out_dtype)
            fn(EDGES.copy(), plain, *extra)
            with pytest.warns(tp.FallbackWarning):
                tp.jit(fn)(EDGES.copy(), compiled, *extra)
            np.testing.assert_array_equal(plain, compiled)


def norm_from_zero(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return math.sqrt(s)


def norm_from_a_tenth(a):
    s = 0.1
    for i in range(a.shape[0]):
        s += a[i] * a[i]
    return math.sqrt(s)


def test_a_float32_sum_read_by_math_compiles_when_its_start_is_exact():
    """`s = 0.0` converted to np.float32(0.0) gives math.sqrt the same value on the zero-trip
    path; 0.1 is not a float32, so that one falls back."""
    a = np.random.default_rng(0).standard_normal(1001).astype(np.float32)
    for data in (a, a[:0]):
        plain, compiled, texts = run_both(norm_from_zero, data)
        assert type(compiled) is type(plain) and compiled == plain and not texts
        plain, compiled, texts = run_both(norm_from_a_tenth, data)
        assert type(compiled) is type(plain) and compiled == plain and texts


def power_chain_by_argument(i0):
    v0 = 10
    for i in range(2, 8):
        v0 = 3 ** v0 % 1009
        v0 += i0


def test_a_power_of_values_that_are_ints_or_floats_by_path_never_overflows_as_a_float():
    """Found by the fuzzer (N=10000, seed 1, at 8d9408c): i0 may be negative, so v0 is an
    int or a float by path and `3 ** v0` was a float power: OverflowError where Python's int
    power is exact. Integral operands beyond 2 ** 53 now say so and the effect-free call
    re-runs as Python; a negative exponent stays a float power."""
    for i0 in (0, 5, -3, -1000):
        plain, compiled, texts = run_both(power_chain_by_argument, i0)
        assert compiled is plain is None
        assert bool(texts) == (i0 != -1000)
        assert not texts or "ran as plain Python: an int from 2**53" in texts[0]


def modular_chain(n, f):
    v = 10
    if f:
        v = 2.5
    for i in range(n):
        v = v * 10000019 % 1000000007
    return int(v)


def past_two_to_the_53(n, f):
    v = 2 ** 53
    if f:
        v = 0.5
    for i in range(n):
        v = v + 1
    return int(v)


def test_ints_or_floats_by_path_never_compute_inexact_ints():
    """Found by a fresh-eyed review: a value that is an int on one path and a float on
    another is held in float64, exact for ints only below 2 ** 53. `v * 10000019` gave
    775158254 instead of 255368895, silently. Integral results from 2 ** 53 now say so and
    the effect-free call re-runs as Python."""
    for fn, args in ((modular_chain, (10, False)), (modular_chain, (10, True)),
                     (past_two_to_the_53, (1, False)), (past_two_to_the_53, (1, True))):
        plain, compiled, texts = run_both(fn, *args)
        assert type(compiled) is type(plain) and compiled == plain
    plain, compiled, texts = run_both(past_two_to_the_53, 1, True)
    assert not texts     # 0.5 + 1: no int there, no re-run


def scaled_by(x, e):
    return math.ldexp(x, e)


def test_ldexp_with_an_exponent_that_is_not_a_python_int_falls_back():
    with pytest.raises(TypeError):
        scaled_by(1.0, 2.5)
    with pytest.warns(tp.FallbackWarning, match="math.ldexp"):
        with pytest.raises(TypeError):
            tp.jit(scaled_by)(1.0, 2.5)
    plain, compiled, texts = run_both(scaled_by, 1.0, 3)
    assert compiled == plain and not texts


def scale_by(x, k):
    return x * k


def scaled_model(x, k):
    return scale_by(x, k)


def summed_by_a_helper(a, n):
    return float_sum(a, n)


def test_converted_callees_know_their_argument_types():
    """Found by a fresh-eyed review: a callee was specialized without the types of its
    arguments, so `x * k` with a Python float k gave a float64 array (NumPy 2: float32) and
    a float32 sum inside a helper was summed in float64. The call site now passes what it
    knows (Python number, NumPy scalar, array dtype and ndim)."""
    x = np.ones(3, np.float32)
    plain, compiled, texts = run_both(scaled_model, x, 0.5)
    assert compiled.dtype == plain.dtype == np.float32 and not texts
    a = np.array([0.1, 0.2, 0.3], np.float32)
    for n in (0, 3):
        plain, compiled, texts = run_both(summed_by_a_helper, a, n)
        assert type(compiled) is type(plain) and compiled == plain


def int_running_total(a, n):
    s = 0
    for i in range(n):
        s += a[i]
    return s


def last_flag(a, n):
    s = False
    for i in range(n):
        s = a[i] > 0
    return s


def started_from_false(a, n):
    s = False
    for i in range(n):
        s += a[i]
    return s


@pytest.mark.parametrize("fn,dtype", [
    (float_sum, np.float64), (float_sum, np.int32), (float_sum, np.int64),
    (int_running_total, np.int64), (last_flag, np.float64)])
def test_a_returned_python_number_or_alike_numpy_scalar_is_boxed_by_path(fn, dtype):
    """`s = 0.0; s += a[i]` over float64 is 0.0 when the loop does not run and an np.float64
    otherwise. Compiled values are the same; the result's flag gives the box (Numba alone
    returns a Python float: the README's boxing gap, closed for this shape)."""
    a = np.array([1, 2, -3], dtype)
    for n in (0, 2, 3):
        plain, compiled, texts = run_both(fn, a, n)
        assert type(compiled) is type(plain) and compiled == plain and not texts


def test_a_python_bool_merging_with_float32_in_a_loop_region_falls_back():
    """Found by a fresh-eyed review: `s = False; s += a[i]` fell back to a split whose loop
    region took s as an argument of unknown type (bools were not typed), so it compiled and
    returned np.float32(0.0) where plain returns False."""
    a = np.array([1.5, 2.0], np.float32)
    for n in (0, 2):
        plain, compiled, texts = run_both(started_from_false, a, n)
        assert type(compiled) is type(plain) and compiled == plain and texts


def sum_of_a_slice(a, n):
    s = 0.0
    if n > 0:
        s = a[:n].sum()
    return s


class Scaled:
    def __init__(self):
        self.k = 1


def scaled_total(obj, a, n):
    s = 0.0
    for i in range(n):
        s += a[i] * obj.k
    return s


def test_types_through_methods_static_objects_and_static_arrays():
    """Found by a fresh-eyed review: `a[:n].sum()` was typed before `a` was known (a result
    of a user call, stuck in the fixpoint); `obj.k` of a static object was not resolved;
    an array in static_argnames (a runtime input) had no dtype. Each returned a float where
    plain gives an np.float32."""
    a = np.array([0.1, 0.2, 0.3], np.float32)
    for n in (0, 3):
        for fn, args, kwargs in ((sum_of_a_slice, (a, n), {}),
                                 (scaled_total, (Scaled(), a, n),
                                  {"static_argnames": ("obj",)}),
                                 (float_sum, (a, n), {"static_argnames": ("a",)})):
            plain = fn(*args)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                compiled = tp.jit(fn, **kwargs)(*args)
            assert type(compiled) is type(plain) and compiled == plain, fn.__name__
            assert not [w for w in caught if issubclass(w.category, tp.FallbackWarning)]


# Result flags that follow a Python-float / np.float64 merge through expressions, derived
# names and tuple items (analysis.scalar_merges alike_tag): every box as plain's, compiled.

def mean_of_sum(a):
    s = 0.0
    for x in a:
        s += x
    mean = s / max(a.shape[0], 1)
    return mean


def doubled_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s = s + a[i]
    return s * 2


def sum_and_sign(a):
    s = 0.0
    for x in a:
        s += x
    t = s * 2
    u = t - 1
    return u > 0, u


def count_and_total(a, limit):
    i = 0
    s = 0.0
    while i < a.shape[0] and s < limit:
        s += a[i]
        i += 1
    return i, -s


@pytest.mark.parametrize("fn,args", [
    (mean_of_sum, (np.arange(3.0),)), (mean_of_sum, (np.zeros(0),)),
    (doubled_sum, (np.arange(4, dtype=np.int8),)), (doubled_sum, (np.zeros(0, np.int8),)),
    (sum_and_sign, (np.arange(3.0),)), (sum_and_sign, (np.zeros(0),)),
    (count_and_total, (np.arange(5.0), 2.5)), (count_and_total, (np.arange(5.0), -1.0)),
], ids=lambda v: getattr(v, "__name__", None) or "")
def test_result_flags_follow_expressions_derived_names_and_items(fn, args):
    assert_compiles_same(fn, *args)


def squared(x):
    return x * x


def callee_result_by_branch(x):
    y = squared(x)
    if y > 3:
        return y
    return -y


@pytest.mark.parametrize("x", [np.int8(3), np.int8(1), np.float64(-0.0), np.float32(2.5), 2, 1.5])
def test_a_callee_result_keeps_its_numpy_type_through_branches(x):
    assert_compiles_same(callee_result_by_branch, x)


def own_array_updated_then_floor(a, x):
    t = a * 2.0             # an operator's result: an array this call made
    t += 1.0                # in place, into that array only
    t[0] = -t[0]
    return t.sum() + math.floor(x)


def view_of_own_array_then_floor(a, x):
    t = a * 2.0
    v = t[1:]               # a view: a store through it is counted as an effect
    v += 1.0
    return t.sum() + math.floor(x)


def test_in_place_updates_of_the_calls_own_arrays_are_no_effect():
    """``t = a * 2.0; t += 1.0; t[0] = ...`` change only memory the call made (analysis/
    effects): a result that does not fit runs the call again as Python, which returns Python's
    int; the argument is untouched. A store through a view of it still counts as an effect
    (the analysis does not follow views): the call raises, naming the line."""
    a = np.arange(3.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = tp.jit(own_array_updated_then_floor)(a, 1e300)
    want = own_array_updated_then_floor(np.arange(3.0), 1e300)
    assert type(got) is type(want) and got == want
    assert a.tolist() == [0.0, 1.0, 2.0]
    assert any("ran again as Python" in str(w.message) for w in caught)
    assert tp.jit(own_array_updated_then_floor)(a, 2.5) == own_array_updated_then_floor(a, 2.5)
    _raises_overflow(view_of_own_array_then_floor, a, 1e300)
    assert a.tolist() == [0.0, 1.0, 2.0]


def own_array_element_updated_then_floor(a, x):
    t = a * 2.0
    t[0] += 1.0             # an element update of an operator's result: counted as an effect
    return t.sum() + math.floor(x)


def test_an_element_update_of_an_operators_result_stays_an_effect():
    """``t[0] += v`` on an operator's result counts as an effect (the analysis cannot tell an
    array of numbers from a list holding the caller's objects there): the call raises rather
    than run twice."""
    a = np.arange(3.0)
    _raises_overflow(own_array_element_updated_then_floor, a, 1e300)
    assert a.tolist() == [0.0, 1.0, 2.0]
    assert tp.jit(own_array_element_updated_then_floor)(a, 2.5) == \
        own_array_element_updated_then_floor(a, 2.5)
