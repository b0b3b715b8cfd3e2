"""Calls of ``numba.njit`` functions from jitted code (issue 20; analysis/numba_callees.py):
the caller compiles and calls the dispatcher, with the plain call's values and the types
Numba boxes its result as (a float32 result is a Python float, an int8 result a Python int)."""
import warnings

import numpy as np
import pytest

import transpiler as tp
import numba_callee_functions as F
from reference import assert_compiles_same, assert_same_outcome, errors_in_threads, outcome

SCALARS = [1.5, -2, True, np.float32(2.5), np.float64(-0.75), np.int8(-7), np.uint8(200),
           np.int64(3), np.int32(-40000), np.float32(np.nan)]


@pytest.mark.parametrize("x", SCALARS, ids=repr)
def test_scalar_results_are_boxed_as_plain(x):
    for fn in (F.call_float32, F.call_int8, F.call_complex64):
        assert_compiles_same(fn, x)
    if isinstance(x, np.unsignedinteger):
        # Numba types uint8 + uint8 as uint64, boxed as a Python int int64 may not hold
        jitted = tp.jit(F.call_same_type)
        with pytest.warns(tp.FallbackWarning, match="uint64"):
            assert_same_outcome(*outcome(F.call_same_type, (x,)), *outcome(jitted, (x,)))
    else:
        assert_compiles_same(F.call_same_type, x)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8", "uint16", "bool",
                                   "complex128"])
def test_array_arguments(dtype):
    a = (np.arange(-3, 5) % 4).astype(dtype)
    if dtype == "complex128":      # s = 0.0, then complex: a merge of two types (falls back)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            assert_same_outcome(*outcome(F.loop_affine, (a,)),
                                *outcome(tp.jit(F.loop_affine), (a,)))
    else:
        assert_compiles_same(F.loop_affine, a)
    assert_compiles_same(F.call_bool, a if dtype != "complex128" else a.real)
    assert_compiles_same(F.call_array, a)


def test_mutation_reaches_the_argument():
    a = np.arange(5.0)
    assert_compiles_same(F.call_mutating, a, 3.0)
    assert_compiles_same(F.call_mutating, a.astype(np.int32), 2)


def test_exceptions_are_the_plain_calls():
    a = np.arange(3.0)
    jitted = assert_compiles_same(F.call_raises, a, 3)
    assert_same_outcome(*outcome(F.call_raises, (a, 5)), *outcome(jitted, (a, 5)))


def test_history_through_one_object():
    jitted = tp.jit(F.call_same_type)
    for x in SCALARS + list(reversed(SCALARS)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)   # uint8: see above
            want, got = outcome(F.call_same_type, (x,)), outcome(jitted, (x,))
        assert_same_outcome(*want, *got)


@pytest.mark.parametrize("fn,x", [(F.call_uint64, 5), (F.call_tuple, 2.0)])
def test_results_not_typed_fall_back_with_the_reason(fn, x):
    jitted = tp.jit(fn)
    with pytest.warns(tp.FallbackWarning, match="numba.njit function returns"):
        got = jitted(x)
    assert type(got) is type(fn(x)) and got == fn(x)
    assert "python" in str(jitted.explain())


def test_eager_backend_calls_it_as_python():
    for x in (np.float32(1.5), np.int8(3)):
        assert_compiles_same(F.call_float32, x, backend="eager")
        assert_compiles_same(F.call_int8, x, backend="eager")


@pytest.mark.parametrize("x", [3, 2.5, np.int16(7), np.arange(3.0), np.arange(4)], ids=repr)
def test_straight_line_callers(x):
    """Found by review: straight-line code calling one went to the NumPy graph, which took the
    dispatcher for an array input (AttributeError: no attribute 'shape')."""
    assert_compiles_same(F.ident_then_subtract, x)
    assert_compiles_same(F.ident_twice, x)


def test_other_kinds_in_turn_and_threads():
    """One jitted object through None, a str, a complex, a tuple and NumPy values in turn
    (each its own specialization or fallback, plain's outcome every time), then 8 threads."""
    jitted = tp.jit(F.call_same_type)
    kinds = [np.float32(1.5), None, "ab", 2j, (1.0, 2.0), np.int16(-3), np.arange(3.0), 2.5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for x in kinds + kinds[::-1]:
            assert_same_outcome(*outcome(F.call_same_type, (x,)), *outcome(jitted, (x,)))

        def work(k):
            for _ in range(20):
                x = (np.float32(k), float(k), np.int16(k))[k % 3]
                got, want = jitted(x), F.call_same_type(x)
                assert got == want and type(got) is type(want), (x, got, want)
        errors = errors_in_threads(work, 8)
    assert not errors, errors
