"""backends/native_jumps.py: the numba-cpu backend compiles break and continue as native jumps
again (not the flags the functional forms use), with the plain call's results: values and
types of loops with break, continue, both, nested, in while loops, for-else, over arrays of
several dtypes. The generated source shows the jumps. And loops over static sequences (unrolled
by the specializer): their variable after the loop, a jump in a nested loop's else clause."""
import warnings

import numpy as np
import pytest

import transpiler as tp

import jump_functions as jf

ARRAYS = [np.array(a, dtype=d) for d in (np.float64, np.int64, np.float32)
          for a in ([], [1, 2, 3], [3, -1, 4, -1, 5, 9, -2, 6], [0, 7, -8, 2, 12, 0, 1])]


def _same(expected, got):
    assert type(got) is type(expected)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for e, g in zip(expected, got):
            _same(e, g)
    else:
        assert got == expected or (got != got and expected != expected)


@pytest.mark.parametrize("fn, extra", [
    (jf.first_index, (4,)), (jf.sum_skip_negative, ()), (jf.skip_and_stop, (6.5,)),
    (jf.nested, ()), (jf.elif_break, ()), (jf.for_else, (-1,)), (jf.last_before_stop, ())],
    ids=lambda v: getattr(v, "__name__", ""))
def test_array_loops_equal_plain(fn, extra):
    # not fullgraph: a dtype that makes a variable's type depend on the path falls back
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for values in ARRAYS:
            _same(fn(values, *extra), jitted(values, *extra))
    compiled = tp.jit(fn, fullgraph=True)     # float64: every one compiles whole
    _same(fn(ARRAYS[2], *extra), compiled(ARRAYS[2], *extra))


@pytest.mark.parametrize("n", [0, 1, 5, 17, 40, 200])
def test_while_jumps_equal_plain(n):
    _same(jf.while_jumps(n), tp.jit(jf.while_jumps, fullgraph=True)(n))


@pytest.mark.parametrize("v", [0.25, 2.0, 1e6, np.float64(3.0), np.float32(7.0)])
def test_newton_equal_plain(v):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        _same(jf.newton(v, 1e-12), tp.jit(jf.newton)(v, 1e-12))


@pytest.mark.parametrize("fn, args, jumps", [
    (jf.first_index, (np.arange(5.0), 3.0), ["break"]),
    (jf.sum_skip_negative, (np.arange(5.0),), ["continue"]),
    (jf.last_before_stop, (np.arange(5.0),), ["break"]),
    (jf.nested, (np.arange(5.0),), ["break", "continue"]),
    (jf.newton, (2.0, 1e-12), ["break"]),
    # a break and a continue in one loop: both flags kept (native_jumps: why)
    (jf.skip_and_stop, (np.arange(5.0), 3.0), []),
    (jf.while_jumps, (10,), [])], ids=lambda v: getattr(v, "__name__", ""))
def test_source_has_native_jumps(fn, args, jumps):
    jitted = tp.jit(fn, fullgraph=True)
    jitted(*args)
    source = jitted.source()
    body = source[source.index(f"def {fn.__name__}("):source.index("def _prepare")]
    for jump in jumps:
        assert f"{jump}  #" in body     # a statement of its own, with its line comment
    if jumps:
        assert "break_" not in body and "continue_" not in body
    else:
        assert "break_" in body and "continue_" in body


def test_dead_code_after_both_jumps_still_compiles():
    # helper-found: with only the break native, Numba pruned the code the continue flag
    # guards (dead in Python too) and could not type `retval`; the flags are kept
    jitted = tp.jit(jf.dead_after_jumps, fullgraph=True)
    for n, k in ((5, 2), (5, 9), (0, 0)):
        _same(jf.dead_after_jumps(n, k), jitted(n, k))


@pytest.mark.parametrize("fn, args, compiles", [
    (jf.static_after_loop, (3,), True), (jf.static_after_loop_prior, (3,), True),
    (jf.static_no_read_break, (5,), True), (jf.static_no_read_break, (0,), True),
    # found by a fresh-context probe: compiled code gave the variable its value before the
    # loop (or raised UnboundLocalError), and a jump in a nested loop's else clause went to
    # the enclosing range loop (604 vs 603); now they run as Python, saying why
    (jf.static_after_break, (3,), False), (jf.static_after_break, (20,), False),
    (jf.static_else_continue, (4,), False), (jf.static_else_continue, (9,), False),
    # the variable's static binding reaching a runtime assignment: run as Python (before,
    # compiled code read a variable the unrolled loop never assigned)
    (jf.static_cond_rebind, (False,), False), (jf.static_cond_rebind, (True,), False),
    (jf.static_loop_rebind, (0,), False), (jf.static_loop_rebind, (3,), False),
    (jf.static_rebind_in_loop_after, (3,), False),
    (jf.static_reuse, (0, np.arange(6.0)), False), (jf.static_reuse, (4, np.arange(6.0)), False),
    # reused as another loop's variable, assigned before it is read: compiled
    (jf.static_reuse_while, (4,), True)],
    ids=lambda v: getattr(v, "__name__", ""))
def test_static_sequence_loops_equal_plain(fn, args, compiles):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = tp.jit(fn)(*args)
    _same(fn(*args), got)
    fell_back = [w for w in caught if issubclass(w.category, tp.FallbackWarning)]
    assert bool(fell_back) != compiles
