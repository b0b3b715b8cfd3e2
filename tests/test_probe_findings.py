"""Silent wrong answers found by a fresh-context probe (2026-12-06), each now equal to plain
Python over a matrix of inputs, called in turn through one jitted object (a specialization is
reused only for arguments of exactly its types; a call compiled code cannot make exact runs
again as Python or raises loudly)."""
import warnings

import numpy as np
import pytest

import transpiler as tp
import probe_functions as pf
from reference import assert_same_outcome, outcome

_BIG = [2 ** 53, 2 ** 53 + 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 63 - 512, 1178032213966879813,
        9007199254740993, -9007199254740993]
_SMALL = [0, 1, -1, 3, 7, 10, -10, 2 ** 52 + 1, True, False]


def _agree(function, calls):
    """``function`` plainly and through one jitted object, for each argument tuple in turn."""
    jitted = tp.jit(function)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for args in calls:
            plain, args_plain = outcome(function, args)
            compiled, args_compiled = outcome(jitted, args)
            assert_same_outcome(plain, args_plain, compiled, args_compiled)
    return jitted


def test_true_division_of_ints_is_rounded_once_as_pythons():
    # CPython's long_true_divide rounds the exact quotient; float(a) / float(b) rounds thrice
    calls = [(a, b) for a in _BIG + _SMALL for b in _BIG + _SMALL]
    _agree(pf.int_div, calls)
    _agree(pf.int_tenth, [(a,) for a in _BIG + _SMALL])


def test_true_division_of_ints_with_effects_is_exact_or_loud():
    # a function that mutates its argument cannot run again: an exact result, or OverflowError
    # at the user's line, never a rounded-twice float in the array
    jitted = tp.jit(pf.int_div_into)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for a, b in [(7, 2), (2 ** 52 + 1, 3), (2 ** 63 - 512, 10)]:
            out = np.zeros(1)
            try:
                jitted(out, a, b)
            except OverflowError:
                assert abs(a) > 2 ** 53
                continue
            assert out[0] == a / b


def test_true_division_of_numpy_ints_keeps_numpys_rounding():
    # NumPy's true_divide converts each int64 to float64 first: that is its result, kept
    calls = [(np.int64(a), np.int64(b)) for a in (2 ** 63 - 512, 7, -(2 ** 62) - 1)
             for b in (10, 3, -7)] + [(np.int64(2 ** 63 - 512), 10), (2 ** 63 - 512, np.int64(10))]
    _agree(pf.int_div, calls)


def test_a_sum_of_int_quotients_in_a_loop():
    _agree(pf.int_div_in_loop, [([1, 2, 3], 7), ([2 ** 60 + 1, 5], 3), ([1, 2], 2 ** 60)])


_SCALARS = [np.float64(0.5), np.int64(-7), np.bool_(False), np.complex128(1j), np.float32(0.5),
            np.int8(3), np.uint64(5), np.float16(1.5), np.complex64(1 + 2j), 0.5, 3, True,
            1 + 2j]


def test_numpy_scalars_nested_in_a_tuple_result_keep_their_type():
    # Numba boxes an np.float64 nested in a tuple as a Python float too
    _agree(pf.nested_tuple, [(x,) for x in _SCALARS])
    _agree(pf.nested_tuple_by_path, [(x, flag) for x in _SCALARS for flag in (True, False)])


@pytest.mark.parametrize("function", [pf.real_part, pf.imag_part, pf.real_plus_imag])
def test_real_and_imag_of_every_scalar_type(function):
    _agree(function, [(x,) for x in _SCALARS])


_PAIRS = [(np.int64(3), np.int64(5)), (1, np.int16(3)), (np.float32(0.1), 1),
          (np.int8(2), np.int8(2)), (1, 2), (1.5, float("nan")), (2.0, 2.0), (True, 1),
          (np.float64(1.0), 1.0)]


@pytest.mark.parametrize("function", [pf.tuple_less, pf.tuple_order_test, pf.tuple_equal])
def test_tuple_comparisons_give_pythons_type(function):
    # an ordering gives its deciding pair's result: an np.bool_ from NumPy scalars
    _agree(function, _PAIRS + [(b, a) for a, b in _PAIRS])


def test_a_tuple_comparison_that_only_decides_a_branch_compiles():
    jitted = tp.jit(pf.tuple_order_test)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        assert jitted(1.5, 2.5) == 1
    assert "compiled" in str(jitted.explain()).split("\n")[1]


_NANS = [float("nan"), np.float64("nan"), np.float32("nan"), complex("nan"), np.complex64(
    complex("nan")), 1.0, 3, np.float32(2), -0.0]


@pytest.mark.parametrize("function", [pf.same_nan_tuple_less, pf.same_item_equal,
                                      pf.same_item_in, pf.same_item_list_equal])
def test_one_nan_object_equals_itself_in_tuples_and_in_tests(function):
    # CPython's PyObject_RichCompareBool: identity first (x = nan; (x,) == (x,) is True)
    _agree(function, [(x,) for x in _NANS])


def test_not_in_with_a_nan_object():
    _agree(pf.same_item_not_in, [(x, y) for x in _NANS for y in _NANS])


def _edges(dtype):
    info = np.iinfo(dtype)
    out = []
    for bound in (int(info.min), int(info.max)):
        exact = float(bound)
        out += [exact, np.nextafter(exact, -np.inf), np.nextafter(exact, np.inf),
                float(bound) - 0.5, float(bound) + 0.5, float(bound - 1), float(bound + 1)]
    return out + [0.0, -0.5, 0.99, float("nan"), float("inf"), -float("inf")]


@pytest.mark.parametrize("function, dtype", [(pf.to_int64, np.int64), (pf.to_int32, np.int32),
                                             (pf.to_uint64, np.uint64), (pf.to_int8, np.int8)])
def test_numpy_int_types_from_python_floats_at_their_bounds(function, dtype):
    # np.int64(-2.0 ** 63) is exact: the bound of the check was float(min) - 1.0, which
    # rounds back to min for int64
    edges = _edges(dtype)
    _agree(function, [(x,) for x in edges] + [(np.float64(x),) for x in edges] +
           [(np.float32(x),) for x in edges if abs(x) < 3e38])


def test_numpy_floats_stored_into_uint64_arrays():
    # NumPy's C cast is defined from 2**63 to 2**64 (compiled code said "undefined" there)
    values = [2.0 ** 63, 1.5e19, 2.0 ** 64 - 2048, 2.0 ** 63 - 1024, 0.5, -1.0, -2.0 ** 63]
    undefined = [2.0 ** 64, float("nan"), 1e30]
    _agree(pf.store_first, [(np.array([1, 2], np.uint64), v) for v in values + undefined] +
           [(np.array([1, 2], np.uint64), np.float64(v)) for v in values])
    # C's cast of nan or beyond 2**64 is undefined (NumPy's value depends on the machine):
    # with an effect (the store) compiled code cannot run again as Python, so it says so
    jitted = tp.jit(pf.store_first)
    for v in undefined:
        a = np.array([1, 2], np.uint64)
        with pytest.raises(OverflowError, match="undefined"):
            jitted(a, np.float64(v))
        assert a.tolist() == [1, 2]
    _agree(pf.halve_all, [(np.array([2 ** 64 - 1, 4, 2 ** 63], np.uint64),),
                          (np.array([7, 9], np.uint64),)])


@pytest.mark.parametrize("function", [pf.round_two, pf.round_none, pf.round_minus_one])
def test_numpy_round_of_python_ints_is_numpys_int64(function):
    # np.round(2**53 + 1, 2) is np.int64(2**53 + 1): Numba's went through float64
    _agree(function, [(v,) for v in (2 ** 63 - 1, 2 ** 53 + 1, 123, -7, -2 ** 63, True, False,
                                     np.int64(2 ** 63 - 1), np.bool_(True), 2.675,
                                     np.float32(1.25), np.uint8(200), np.int8(-128))])


def test_type_of_a_scalar_applied_keeps_its_numpy_type():
    _agree(pf.same_type_three, [(x,) for x in _SCALARS])
    _agree(pf.same_type_of, [(x, v) for x in _SCALARS for v in (3, 2.5, -1, 300, True)])


def test_ints_beyond_int64_in_dicts_and_sets_the_function_made():
    # a dict or set the function made changes nothing the caller sees: the call may run again
    # as Python where an int leaves int64 (it raised OverflowError)
    _agree(pf.dict_of_powers, [(5,), (50,), (3,), (41,)])
    _agree(pf.dict_big_key, [(3,), (70,), (62,), (63,)])
    _agree(pf.set_of_power, [(2,), (50,), (3,), (41,)])


def test_a_dict_holding_the_callers_array_is_an_effect():
    # d["x"][0] += 1.0 changes the caller's array: never run twice
    jitted = tp.jit(pf.dict_holds_callers_array)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for n in (3, 50):
            a = np.zeros(2)
            try:
                assert jitted(a, n) == 3 ** n
            except OverflowError:
                assert n == 50
            assert a[0] == 1.0


def test_dicts_made_in_the_function_returned_or_read():
    _agree(pf.dict_values_numpy, [(1,), (2.5,), (np.float32(2),), (np.float64(3),)])
    _agree(pf.dict_built, [(3,), (0,), (5,)])


@pytest.mark.parametrize("function", [pf.numpy_method, pf.python_method])
def test_a_global_objects_method_result_has_the_plain_calls_type(function):
    # typed by the callee's analysis with self bound to the object (callee_types)
    jitted = _agree(function, [(x,) for x in _SCALARS if not isinstance(x, (complex,
                                                                           np.complexfloating))])
    if function is pf.python_method:
        with warnings.catch_warnings():
            warnings.simplefilter("error", tp.FallbackWarning)
            assert tp.jit(function)(1.5) == 4.0      # compiled: its result type is known


def test_an_array_from_a_dict_updated_in_place_is_the_callers():
    # `v = d[0]; v += 1` updates the caller's array in Python (compiled code rebound v)
    for function in (pf.dict_item_iadd, pf.dict_values_iadd):
        _agree(function, [(np.zeros(2),), (np.arange(3),)])


def test_dicts_sets_and_optional_tuples_returned():
    # a literal-keyed dict of mixed values (Numba could not box it: TypeError, SystemError),
    # a set's float32 elements (boxed as Python floats), a tuple returned from a loop (an
    # Optional tuple: its float32 item was not re-boxed)
    _agree(pf.literal_dict, [(1.5,), (True,), (np.float32(2),), (3,)])
    _agree(pf.literal_dict_in_tuple, [(True,), (1.5,), (np.float32(2),)])
    _agree(pf.set_of_two, [(np.float32(2),), (2.0,), (np.float64(2),), (np.int32(3),)])
    _agree(pf.zip_pair, [(np.float32(2), 1.0), (1.0, np.float32(2)), (np.int16(3), 2)])


def test_a_property_of_a_static_object_runs_only_when_the_code_does():
    # the callee analysis read self.k with getattr: the property ran at transpile time
    Counted = pf.Counted
    start = Counted.reads
    assert pf.counted_method(1.5) == 3.0
    plain_reads = Counted.reads - start
    start = Counted.reads
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert tp.jit(pf.counted_method)(1.5) == 3.0
    assert Counted.reads - start <= plain_reads + 2   # guards may read it (a known gap)


def test_a_fallback_for_argument_types_warns_at_every_call():
    jitted = tp.jit(pf.literal_dict)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            assert jitted(True) == {"a": True, "b": 2}
    assert len([w for w in caught if w.category is tp.FallbackWarning]) == 3


@pytest.mark.parametrize("function", [pf.held_tuple_in, pf.held_tuples_equal,
                                      pf.held_tuple_le_itself, pf.held_tuple_items_in])
def test_one_nan_object_in_a_tuple_held_by_a_name(function):
    # t = (x, 2.0); x in t: the tuple's items are checked (t[0], t[1]), as a display's are
    _agree(function, [(x,) for x in _NANS])
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        tp.jit(function)(1.0)        # no NaN: compiled


def test_numpy_round_inside_a_loop_compiles_and_is_numpys():
    # NumPy's power_of_ten helper returned early: inlined in a loop with the digits constant,
    # Numba's branch pruning left its result undefined (TypingError: the loop ran as Python)
    arrays = [np.array([1.234, 2.345, -3.455, 2.675, 1e300, 0.125]),
              np.array([1.234, 2.345, 2.675], np.float32)]
    _agree(pf.round_two_in_loop, [(a,) for a in arrays])
    _agree(pf.round_in_loop, [(a, d) for a in arrays for d in (0, 1, 2, 9, 12, -1, -2)])
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        tp.jit(pf.round_two_in_loop)(arrays[0])          # compiled


def test_callees_with_numpy_scalar_defaults():
    # a callee's default np.float64(2.0) is its type's constructor of the exact value in
    # compiled code (it could not be used as a value: the function ran as Python)
    _agree(pf.calls_numpy_defaults, [(x,) for x in (1.5, 3, np.float32(2), np.float64(2),
                                                     np.int8(3), True, float("nan"))])
    _agree(pf.calls_uint_default, [(np.uint64(5),), (5,), (np.uint8(1),), (np.uint64(0),)])
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        tp.jit(pf.calls_uint_default)(np.uint64(5))      # compiled


def test_sixteen_threads_through_the_result_check_and_the_new_rules():
    # one jitted object per function, every thread calling it with other kinds in turn: the
    # result check's per-overload decisions (boxes_checked, failed_types) under contention
    from reference import errors_in_threads
    cases = [(pf.dict_values_numpy, [(1,), (2.5,), (np.float32(2),), (np.float64(3),)]),
             (pf.same_type_three, [(x,) for x in _SCALARS]),
             (pf.int_div, [(2 ** 63 - 512, 10), (7, 2), (np.int64(7), np.int64(2)), (True, 3)]),
             (pf.held_tuple_in, [(x,) for x in _NANS]),
             (pf.round_two, [(2 ** 53 + 1,), (2.675,), (np.float32(1.25),), (None,), ("s",)])]
    jitted = [(function, tp.jit(function), calls) for function, calls in cases]

    def work(k):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for function, compiled, calls in jitted:
                for args in calls[k % len(calls):] + calls[:k % len(calls)]:
                    plain, args_plain = outcome(function, args)
                    got, args_compiled = outcome(compiled, args)
                    assert_same_outcome(plain, args_plain, got, args_compiled)
    assert errors_in_threads(work, 16) == []


def test_a_static_loop_that_may_not_run_leaves_its_variable_as_python_does():
    # unrolled, its target stayed bound to the last item even where no copy ran (found by
    # the second review of NumPy's loops: `2 * x` where Python gives `1 * x`)
    for function in (pf.static_loop_in_branch, pf.static_loop_in_loop):
        _agree(function, [(3.0, 0), (3.0, 1), (np.float32(2.5), 0), (np.float32(2.5), 2),
                          (2, 0), (2, 1)])
    _agree(pf.static_loop_held_function, [(0.5, 0), (0.5, 1), (np.float32(0.5), 0)])
