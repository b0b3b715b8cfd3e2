"""transpiler.anno: a pass that reads an analysis that did not run fails naming it."""
import textwrap

import gast
import pytest

from transpiler import anno
from transpiler.analysis import liveness
from transpiler.analysis.definite_assignment import annotate_defined
from transpiler.analysis.scopes import local_names
from transpiler.naming import Namer
from transpiler.nodes import name
from transpiler.passes import cond, for_loop, lower_break_continue, while_loop
from transpiler.passes.pass_context import Context

SOURCE = """
def f(n):
    s = 0
    for i in range(n):
        if i > 3:
            break
        s += i
    while s > 10:
        s -= 3
    return s
"""


def _setup():
    fdef = gast.parse(textwrap.dedent(SOURCE)).body[0]
    names = {n.id for n in gast.walk(fdef) if isinstance(n, gast.Name)}
    return fdef, Context(Namer(names | local_names(fdef)), local_names(fdef), name)


@pytest.mark.parametrize("form", [cond, while_loop, for_loop])
def test_form_pass_without_liveness_names_it(form):
    fdef, ctx = _setup()
    with pytest.raises(anno.MissingAnalysis, match="liveness.*transpiler.analysis.liveness"):
        form.transform(fdef, ctx)


def test_form_pass_without_definite_assignment_names_it():
    fdef, ctx = _setup()
    liveness.annotate(fdef)
    with pytest.raises(anno.MissingAnalysis, match="definite assignment"):
        cond.transform(fdef, ctx)


def test_control_flow_change_invalidates_liveness():
    fdef, ctx = _setup()
    liveness.annotate(fdef)
    annotate_defined(fdef, ctx.local_vars)
    lower_break_continue.transform(fdef, ctx)      # adds flags: the analyses are stale
    with pytest.raises(anno.MissingAnalysis, match="did not run since the function last "
                                                   "changed"):
        for_loop.transform(fdef, ctx)
    liveness.annotate(fdef)
    annotate_defined(fdef, ctx.local_vars)
    for form in (cond, while_loop, for_loop):
        form.transform(fdef, ctx)
    assert not any(isinstance(n, (gast.If, gast.While, gast.For)) for n in gast.walk(fdef))


def test_reading_a_missing_key_names_its_producer():
    node = gast.parse("while x:\n    pass").body[0]
    with pytest.raises(anno.MissingAnalysis, match="'live_out'.*liveness.annotate must run"):
        anno.get(node, anno.LIVE_OUT)
    assert anno.get(node, anno.EXTRA_TEST, None) is None
    anno.set_anno(node, anno.LIVE_OUT, frozenset({"x"}))
    assert anno.get(node, anno.LIVE_OUT) == {"x"} and anno.has(node, anno.LIVE_OUT)
