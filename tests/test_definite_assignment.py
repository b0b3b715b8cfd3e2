"""Definite assignment: a read that may see an unassigned local compiles with a runtime flag
(passes/definedness_flags.py) and raises UnboundLocalError at the read exactly where Python
does; never a register's garbage."""
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
                   (loop_may_not_run, (3,), "last", 3), (loop_may_not_run, (0,), "last", 3),
                   (while_may_not_run, (2,), "k", 4), (while_may_not_run, (0,), "k", 4),
                   (assigned_in_loop_then_read_in_loop, (3,), "prev", 4)]


@pytest.mark.parametrize("backend", ["eager", "numba-cpu"])
@pytest.mark.parametrize("fn,args,name,offset", MAYBE_UNDEFINED,
                         ids=lambda v: getattr(v, "__name__", None))
def test_maybe_undefined_compiles_with_python_semantics(fn, args, name, offset, backend):
    if fn is assigned_in_loop_then_read_in_loop and backend == "numba-cpu":
        # Numba refuses a read that comes before every assignment in the code's order
        # ("Variable 'prev' is not defined"): it falls back, with Python's result
        jitted = tp.jit(fn)
        with pytest.warns(tp.FallbackWarning, match="prev"):
            assert jitted(*args) == fn(*args)
        return
    jitted = assert_compiles_same(fn, *args, backend=backend)   # fullgraph: no fallback
    try:
        fn(*args)
    except UnboundLocalError as plain:
        with pytest.raises(UnboundLocalError) as info:
            jitted(*args)
        assert str(info.value) == str(plain) and repr(name) in str(plain)
        # the traceback reaches the generated line of the read, which maps to the user's
        frames = [f for f in __import__("traceback").extract_tb(info.value.__traceback__)]
        assert any(f.filename.endswith(".py") for f in frames)


def test_flags_appear_in_the_generated_source():
    jitted = tp.jit(one_branch)
    jitted(1)
    assert "y_assigned" in jitted.source() and "UnboundLocalError" in jitted.source()


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
