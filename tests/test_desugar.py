"""The desugaring passes of issue 20 (transpiler/passes/operator_calls.py,
named_expressions.py): what they rewrite compiles and equals plain (tests/test_reference_suite.py
runs the suite's functions); here, what they must not change: the guard on the name an
operator function was read through, and the evaluation order a hoisted ``:=`` must keep.
"""
import operator
import warnings

import numpy as np
import pytest

import transpiler as tp
import suite_functions as S


def test_rebinding_the_operator_alias_makes_a_new_specialization(monkeypatch):
    compiled = tp.jit(S.op_module_level_alias, fullgraph=True)
    assert compiled(3, 4) == 7
    monkeypatch.setattr(S, "OPERATOR_NAME", operator.mul)
    assert compiled(3, 4) == 12 == S.op_module_level_alias(3, 4)
    monkeypatch.setattr(S, "OPERATOR_NAME", operator.sub)
    assert compiled(3, 4) == -1


def test_rebinding_the_operator_module_name_is_seen(monkeypatch):
    compiled = tp.jit(S.op_arith, fullgraph=True)
    assert compiled(3, 4) == S.op_arith(3, 4) == 46

    class Swapped:      # not the operator module: its add multiplies
        add = staticmethod(operator.mul)
        mul = staticmethod(operator.mul)
        neg = staticmethod(operator.neg)

    monkeypatch.setattr(S, "operator", Swapped)
    plain = S.op_arith(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert tp.jit(S.op_arith)(3, 4) == plain == 12 * 6 + 4
        assert compiled.python_function(3, 4) == plain


def op_inplace(a, b):
    return operator.iadd(a, b)      # updates the array in place: left as a call


def test_in_place_operator_functions_stay_calls():
    a = np.arange(3.0)
    with pytest.warns(tp.FallbackWarning, match="not converted"):
        result = tp.jit(op_inplace)(a, 1.0)
    assert result is a and a.tolist() == [1.0, 2.0, 3.0]


def walrus_after_a_call(x):
    return np.abs(x) + (y := np.sqrt(x)) + y     # a call before it: not moved


def test_a_named_expression_after_a_call_is_left_in_place():
    x = np.arange(3.0)
    with pytest.warns(tp.FallbackWarning, match=r"assignment expression \(:=\)"):
        np.testing.assert_array_equal(tp.jit(walrus_after_a_call)(x), walrus_after_a_call(x))


def test_hoisting_keeps_python_order_in_the_rewritten_source():
    import gast
    from transpiler.passes import named_expressions
    tree = gast.parse("def f(x):\n    y = (a := (b := x + 1) * 2) + b\n    return y")
    out = named_expressions.desugar(tree.body[0])
    assert gast.unparse(out).split() == gast.unparse(gast.parse(
        "def f(x):\n    b = x + 1\n    a = b * 2\n    y = a + b\n    return y").body[0]).split()
    assert tree.body[0] is not out      # the shared tree is left as it was


def test_a_named_expression_read_before_it_binds_is_left_in_place():
    with pytest.warns(tp.FallbackWarning, match=r"assignment expression \(:=\)"):
        assert tp.jit(S.walrus_read_before)(4) == S.walrus_read_before(4) == (5, 4)


def walrus_short_circuit(a, t):
    if a.shape[0] > t or (m := a.max()) > 0:
        return 1.0
    return m


def test_a_named_expression_that_may_be_skipped_is_left_in_place():
    """Left in place, ``m`` is bound where the analyses do not look: the result (a float or
    that untyped ``m`` by path) is refused first, or the ``:=`` itself."""
    a = np.arange(3.0)
    with pytest.warns(tp.FallbackWarning, match=r"assignment expression \(:=\)|a value of "
                                                r"a type not known here or a Python float"):
        assert tp.jit(walrus_short_circuit)(a, 1) == walrus_short_circuit(a, 1) == 1.0


def match_true(x):
    match x:
        case True:
            return 10
        case 1:
            return 5
        case _:
            return 0


def is_true(x):
    if x is True:
        return 10
    return 0


@pytest.mark.parametrize("fn", [match_true, is_true])
def test_is_true_is_identity_not_equality(fn):
    # PEP 634: `case True` is `x is True`; an np.True_ or a 1 is not True
    compiled = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for value in (np.True_, True, 1, np.int64(1), 1.0, False, np.False_, 0):
            assert compiled(value) == fn(value), value


# Found by review (issue 20): a loop moved before its statement must not run before what
# Python evaluates first there (an operand to its left that may raise).
def gen_sum_after_index(c, b):
    return c[0] + sum(10 // v for v in b)


def gen_max_after_division(a, b, x):
    return x / b + max(v * v for v in a)


def gen_max_of_tuples(a):
    return max((v, -v) for v in a)


@pytest.mark.parametrize("fn,args", [
    (gen_sum_after_index, (np.zeros(0, np.int64), np.array([0, 1]))),
    (gen_sum_after_index, (np.ones(2, np.int64), np.array([2, 1]))),
    (gen_max_after_division, (np.arange(3.0), 0.0, 1.0)),
    (gen_max_after_division, (np.arange(3.0), 2.0, 1.0)),
    (gen_max_of_tuples, (np.array([1.0, 2.0]),)),       # its items stay np.float64
])
def test_consumers_keep_python_order_and_types(fn, args):
    from reference import assert_same_outcome, outcome
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        want, got = outcome(fn, args), outcome(jitted, args)
    assert_same_outcome(*want, *got)
    if want[0][0] == "returned":
        items = want[0][1] if isinstance(want[0][1], tuple) else (want[0][1],)
        got_items = got[0][1] if isinstance(got[0][1], tuple) else (got[0][1],)
        assert [type(v) for v in items] == [type(v) for v in got_items]


# Found by the second review (issue 20): every operand Python evaluates before the consumer is
# held before the loop (a name that may be unassigned, an array sum that does not broadcast,
# a dict's key/value order); the definedness checks construct exceptions only (no effect), so
# an int beyond int64 after them runs the call again as Python.
def maybe_unassigned_then_sum(a, n, c, d):
    for i in range(n):
        v = a[i]
    return v + sum(c[k] for k in d)


def maybe_unassigned_update(a, n, c, d):
    for i in range(n):
        v = a[i]
    v += sum(c[k] for k in d)
    return v


def broadcast_then_sum(a, b, c, d):
    return a + b + sum(c[v] for v in d)


def dict_then_max(c, a):
    return {'a': c[9], max(v for v in a): 1.0}


def min_then_big_int(n, a):
    m = min(v for v in a)
    return n ** 30 + m


def _f(*v):
    return np.array(v, dtype=np.float64)


def _i(*v):
    return np.array(v, dtype=np.int64)


@pytest.mark.parametrize("backend", ["numba-cpu", "eager"])
@pytest.mark.parametrize("fn,args", [
    (maybe_unassigned_then_sum, (_f(1, 2), 0, _f(1.), _i(5))),
    (maybe_unassigned_then_sum, (_f(1, 2), 1, _f(1.), _i(0))),
    (maybe_unassigned_update, (_f(1, 2), 0, _f(1.), _i(5))),
    (maybe_unassigned_update, (_f(1, 2), 2, _f(1.), _i(0))),
    (broadcast_then_sum, (_f(1, 2), _f(1, 2, 3), _f(1.), _i(5))),
    (dict_then_max, (_f(1.), _f())),
    (min_then_big_int, (10, _f(1.))),
], ids=lambda v: getattr(v, "__name__", None) or repr(v)[:30])
def test_operands_before_a_consumer_keep_python_order(fn, args, backend):
    from reference import assert_same_outcome, outcome
    jitted = tp.jit(fn, backend=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert_same_outcome(*outcome(fn, args), *outcome(jitted, args))
