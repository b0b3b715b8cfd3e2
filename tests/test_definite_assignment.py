"""Definite assignment: a read that may see an unassigned local is reported, never compiled."""
import warnings

import pytest

import transpiler as tp
from reference import assert_compiles_same


def one_branch(x):
    if x > 0:
        y = 1
    return y


def loop_may_not_run(n):
    for i in range(n):
        last = i
    return last


def while_may_not_run(n):
    while n > 0:
        k = n
        n -= 1
    return k


def assigned_in_loop_then_read_in_loop(n):
    total = 0
    for i in range(n):
        if i > 0:
            total += prev
        prev = i
    return total


MAYBE_UNDEFINED = [(one_branch, (1,), "y", 3), (one_branch, (-1,), "y", 3),
                   (loop_may_not_run, (3,), "last", 3), (while_may_not_run, (2,), "k", 4),
                   (assigned_in_loop_then_read_in_loop, (3,), "prev", 4)]


@pytest.mark.parametrize("fn,args,name,offset", MAYBE_UNDEFINED,
                         ids=lambda v: getattr(v, "__name__", None))
def test_maybe_undefined_is_reported_at_the_read(fn, args, name, offset):
    with pytest.raises(tp.UnsupportedConstruct) as info:
        tp.jit(fn, fullgraph=True)(*args)
    assert repr(name) in str(info.value)
    assert info.value.origin.lineno == fn.__code__.co_firstlineno + offset


@pytest.mark.parametrize("fn,args,name,offset", MAYBE_UNDEFINED,
                         ids=lambda v: getattr(v, "__name__", None))
def test_maybe_undefined_falls_back_to_python_semantics(fn, args, name, offset):
    try:
        expected = ("value", fn(*args))
    except Exception as exc:  # noqa: BLE001
        expected = ("raised", type(exc))
    with pytest.warns(tp.FallbackWarning, match=name):
        try:
            actual = ("value", tp.jit(fn)(*args))
        except Exception as exc:  # noqa: BLE001
            actual = ("raised", type(exc))
    assert actual == expected


def defined_on_all_paths(x):
    if x > 0:
        y = 1
    elif x < 0:
        y = -1
    else:
        raise ValueError("zero")
    return y


def while_true_with_break(n):
    while True:
        if n > 3:
            z = n
            break
        n += 1
    return z


def constant_range_runs(n):
    for i in range(3):
        last = i * n
    return last + i


def for_else_defines(n):
    for i in range(n):
        if i > 5:
            found = i
            break
    else:
        found = -1
    return found


@pytest.mark.parametrize("fn,args", [
    (defined_on_all_paths, (2,)), (defined_on_all_paths, (-2,)), (defined_on_all_paths, (0,)),
    (while_true_with_break, (1,)), (constant_range_runs, (2,)), (for_else_defines, (3,)),
    (for_else_defines, (9,))], ids=lambda v: getattr(v, "__name__", None))
def test_definitely_assigned_compiles(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        assert_compiles_same(fn, *args)
