"""``for`` -> ``for_range`` (over ``range(...)``) or ``for_each`` (over anything else).

The body becomes ``loop_body(item, *state, *args)`` returning the new state; a loop variable
that is live after the loop is carried in the state (so it keeps its last value, as in Python).
A lowered ``break`` arrives as ``extra_test``, a function of the state checked before each
iteration::

    for i in range(n):         def loop_body(i, s, a):
        s += a[i]       ->         s += a[i]
                                   return (s,)
                               (s,) = for_range(loop_body, 0, n, 1, (s,), (a,))
"""
import gast

from .. import anno
from ..analysis.region_io import for_region
from ..nodes import const, located, name
from .forms_common import form_call, form_function, names_tuple, placeholders, rewrite_blocks

REQUIRES = (anno.LIVENESS, anno.DEFINITE_ASSIGNMENT)


def transform(fdef, ctx):
    """Turn every ``for`` of ``fdef`` into ``for_range``/``for_each``; returns ``fdef``."""
    anno.require(fdef, REQUIRES, __name__)
    fdef.body = rewrite_blocks(fdef.body, ctx, gast.For, _for)
    return fdef


def _range_args(iterable):
    """(start, stop, step) nodes for ``range(...)`` with 1 to 3 plain arguments, else None."""
    if not (isinstance(iterable, gast.Call) and isinstance(iterable.func, gast.Name)
            and iterable.func.id == "range" and not iterable.keywords
            and 1 <= len(iterable.args) <= 3
            and not any(isinstance(a, gast.Starred) for a in iterable.args)):
        return None
    args = list(iterable.args)
    if len(args) == 1:
        return const(0), args[0], const(1)
    if len(args) == 2:
        return args[0], args[1], const(1)
    return tuple(args)


def _for(node, ctx):
    extra = anno.get(node, anno.EXTRA_TEST, None)
    state, args, carried_targets = for_region(node, ctx.local_vars)
    if isinstance(node.target, gast.Name) and not carried_targets:
        item, body = node.target.id, node.body
    else:
        item = ctx.new_var("itr")
        body = [located(gast.Assign(targets=[node.target], value=name(item),
                                    type_comment=None), node)] + node.body
    loop_body = form_function(ctx, "loop_body", [item] + state + args, body,
                              names_tuple(state), node)
    defs = [loop_body]
    keywords = []
    if extra is not None:
        extra_test = form_function(ctx, "extra_test", state + args, [], extra, node)
        defs.insert(0, extra_test)
        keywords.append(gast.keyword(arg="extra_test", value=name(extra_test.name)))
    bounds = _range_args(node.iter)
    if bounds is not None:
        call = form_call(ctx, "for_range", [name(loop_body.name), *bounds, names_tuple(state),
                                            names_tuple(args)], keywords)
    else:
        call = form_call(ctx, "for_each", [name(loop_body.name), node.iter,
                                           names_tuple(state), names_tuple(args)], keywords)
    if state:
        result = gast.Assign(targets=[names_tuple(state, store=True)], value=call,
                             type_comment=None)
    else:
        result = gast.Expr(value=call)
    return (placeholders(ctx, state + args, anno.get(node, anno.DEFINED_IN, None), node)
            + defs + [located(result, node)])

