"""Unit tests of each lowering pass on small sources, and of the analyses they use.

Each test runs the passes up to the one under test on a tiny function, compares the text with
what the pass should produce, and runs both the original and the rewritten function on inputs
(the rewritten one with transpiler.ir's forms): they must agree.
"""
import re
import textwrap

import gast
import pytest

from transpiler import ir
from transpiler.analysis import liveness
from transpiler.analysis.definite_assignment import annotate_defined
from transpiler.analysis.scopes import local_names
from transpiler.passes import (cond, for_loop, loop_else, lower_break_continue, lower_return,
                               while_loop)
from transpiler.naming import Namer
from transpiler.nodes import name
from transpiler.passes.pass_context import Context


def run_passes(source, passes):
    fdef = gast.parse(textwrap.dedent(source)).body[0]
    names = {n.id for n in gast.walk(fdef) if isinstance(n, gast.Name)}
    ctx = Context(Namer(names | local_names(fdef)), local_names(fdef), lambda form: name(form))
    forms_started = False
    for p in passes:
        if p in (cond, while_loop, for_loop) and not forms_started:
            liveness.annotate(fdef)
            annotate_defined(fdef, ctx.local_vars)
            forms_started = True
        p.transform(fdef, ctx)
    return gast.unparse(fdef).strip()


def same_behaviour(source, rewritten, *calls):
    plain, new = {}, dict(vars(ir))
    exec(textwrap.dedent(source), plain)
    exec(rewritten, new)
    name_ = rewritten.split("(")[0].split()[-1]
    for args in calls:
        assert new[name_](*args) == plain[name_](*args), args


def expect(actual, expected):
    assert actual == textwrap.dedent(expected).strip(), "\n" + actual


RETURN_IN_LOOP = """
def f(n):
    for i in range(n):
        if i == 3:
            return i
    return -1
"""


def test_lower_return_gives_a_single_exit():
    out = run_passes(RETURN_IN_LOOP, [lower_return])
    expect(out, """
        def f(n):
            do_return = False
            retval = undefined('retval')
            for i in range(n):
                if i == 3:
                    retval = i
                    do_return = True
                    break
            if not do_return:
                retval = -1
                do_return = True
            return retval
    """)
    assert len(re.findall(r"^\s*return\b", out, re.M)) == 1
    same_behaviour(RETURN_IN_LOOP, out, (5,), (2,))


def test_lower_return_leaves_a_single_trailing_return_alone():
    source = "def f(x):\n    y = x + 1\n    return y\n"
    assert run_passes(source, [lower_return]) == source.strip()


def test_lower_return_falls_off_the_end_with_none():
    source = "def f(x):\n    if x:\n        return 1\n"
    out = run_passes(source, [lower_return])
    assert "retval = None" in out
    same_behaviour(source, out, (0,), (1,))


LOOP_ELSE = """
def f(n, stop):
    for i in range(n):
        if i == stop:
            break
    else:
        return -1
    return i
"""


def test_loop_else_becomes_a_flag():
    out = run_passes(LOOP_ELSE, [lower_return, loop_else])
    assert "else:" not in out and "broke = True" in out and "if not broke:" in out
    same_behaviour(LOOP_ELSE, out, (5, 2), (5, 9))


BREAK_CONTINUE = """
def f(a):
    s = 0
    i = 0
    while i < len(a):
        i += 1
        if a[i - 1] < 0:
            continue
        if a[i - 1] > 100:
            break
        s += a[i - 1]
    return s
"""


def test_break_and_continue_become_flags():
    out = run_passes(BREAK_CONTINUE, [lower_return, loop_else, lower_break_continue])
    expect(out, """
        def f(a):
            s = 0
            i = 0
            break_ = False
            while not break_ and i < len(a):
                continue_ = False
                i += 1
                if a[i - 1] < 0:
                    continue_ = True
                if not continue_:
                    if a[i - 1] > 100:
                        break_ = True
                    if not break_:
                        s += a[i - 1]
            return s
    """)
    same_behaviour(BREAK_CONTINUE, out, ([1, -2, 3, 200, 4],), ([],))


def test_for_break_leaves_an_extra_test_on_the_loop():
    source = "def f(n):\n    for i in range(n):\n        if i > 2:\n            break\n    return i\n"
    fdef = gast.parse(source).body[0]
    ctx = Context(Namer({"f", "n", "i"}), {"n", "i"}, lambda form: name(form))
    lower_break_continue.transform(fdef, ctx)
    loop = fdef.body[1]
    assert gast.unparse(loop.extra_test).strip() == "not break_"


IF_ELSE = """
def f(x, y):
    if x > 0:
        z = x + y
    else:
        z = y
    return z * 2
"""


def test_if_becomes_cond_with_explicit_inputs_and_outputs():
    out = run_passes(IF_ELSE, [cond])
    expect(out, """
        def f(x, y):

            def if_true(x, y):
                z = x + y
                return z

            def if_false(x, y):
                z = y
                return z
            z = cond(x > 0, if_true, if_false, (x, y))
            return z * 2
    """)
    same_behaviour(IF_ELSE, out, (1, 2), (-1, 2))


WHILE = """
def f(n):
    i = 0
    s = 0
    while i < n:
        t = i * i
        s += t
        i += 1
    return s
"""


def test_while_becomes_while_loop_with_state_and_invariants():
    out = run_passes(WHILE, [while_loop])
    expect(out, """
        def f(n):
            i = 0
            s = 0

            def loop_test(i, s, n):
                return i < n

            def loop_body(i, s, n):
                t = i * i
                s += t
                i += 1
                return (i, s)
            i, s = while_loop(loop_test, loop_body, (i, s), (n,))
            return s
    """)
    assert "(i, s), (n,)" in out  # t is local to the body: neither state nor input
    same_behaviour(WHILE, out, (5,), (0,))


FOR_EACH = """
def f(values, k):
    total = 0
    for v in values:
        total += v * k
    return total
"""


def test_for_over_a_sequence_becomes_for_each():
    out = run_passes(FOR_EACH, [for_loop])
    assert "for_each(loop_body, values, (total,), (k,))" in out
    same_behaviour(FOR_EACH, out, ([1, 2, 3], 2), ([], 2))


FOR_TARGET_LIVE = """
def f(n):
    last = -1
    for i in range(n):
        last = i * 2
    return last + n
"""


def test_for_range_and_a_loop_variable_live_after():
    out = run_passes(FOR_TARGET_LIVE, [for_loop])
    assert "for_range(loop_body, 0, n, 1, (last,), ())" in out
    same_behaviour(FOR_TARGET_LIVE, out, (4,), (0,))
    carried = ("def f(n):\n    i = -1\n    for i in range(n):\n        pass\n"
               "    return i\n")
    out = run_passes(carried, [for_loop])
    assert "itr" in out and "(i,)" in out
    same_behaviour(carried, out, (3,), (0,))


def test_undefined_placeholder_for_state_assigned_first_in_a_loop():
    source = ("def f(n):\n    for i in range(3):\n        last = i * n\n"
              "    return last\n")
    out = run_passes(source, [for_loop])
    assert "last = undefined('last')" in out
    same_behaviour(source, out, (2,))
    with pytest.raises(UnboundLocalError):
        bool(ir.undefined("x"))


def test_liveness_of_loops_reaches_a_fixpoint():
    source = ("def f(n):\n    a = 0\n    b = 0\n    while n > 0:\n        a = b\n"
              "        b = n\n        n -= 1\n    return a\n")
    fdef = gast.parse(source).body[0]
    liveness.annotate(fdef)
    loop = fdef.body[2]
    assert loop.live_out == {"a"}
    assert liveness.live_in(fdef.body[2:], set()) >= {"a", "b", "n"}


def test_all_passes_compose():
    out = run_passes(RETURN_IN_LOOP, [lower_return, loop_else, lower_break_continue, cond,
                                      while_loop, for_loop])
    assert "for_range(" in out and "cond(" in out
    assert not re.search(r"\bbreak\b(?!_)", out) and "return i" not in out
    same_behaviour(RETURN_IN_LOOP, out, (5,), (2,))
