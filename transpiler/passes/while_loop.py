"""``while`` -> ``while_loop``: the test and the body become functions of the loop state (the
variables the body modifies that are live into or out of the loop) and of the loop-invariant
inputs; the body returns the new state::

    while i < n:               def loop_test(i, s, n):     def loop_body(i, s, n):
        s += i          ->         return i < n                s += i
        i += 1                                                 i += 1
                                                               return (i, s)
                               (i, s) = while_loop(loop_test, loop_body, (i, s), (n,))
"""
import gast

from .. import anno
from ..analysis.region_io import while_region
from ..nodes import located, name
from .forms_common import form_call, form_function, names_tuple, placeholders, rewrite_blocks

REQUIRES = (anno.LIVENESS, anno.DEFINITE_ASSIGNMENT)


def transform(fdef, ctx):
    """Turn every ``while`` of ``fdef`` into ``while_loop``; returns ``fdef``."""
    anno.require(fdef, REQUIRES, __name__)
    fdef.body = rewrite_blocks(fdef.body, ctx, gast.While, _while)
    return fdef


def _while(node, ctx):
    state, args = while_region(node, ctx.local_vars)
    params = state + args
    loop_test = form_function(ctx, "loop_test", params, [], node.test, node)
    loop_body = form_function(ctx, "loop_body", params, node.body, names_tuple(state), node)
    call = form_call(ctx, "while_loop", [name(loop_test.name), name(loop_body.name),
                                         names_tuple(state), names_tuple(args)])
    if state:
        result = gast.Assign(targets=[names_tuple(state, store=True)], value=call,
                             type_comment=None)
    else:
        result = gast.Expr(value=call)
    return (placeholders(ctx, params, anno.get(node, anno.DEFINED_IN, None), node)
            + [loop_test, loop_body, located(result, node)])
