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

from ..analysis.activity import reads, writes
from ..analysis.liveness import live_in
from .forms_common import rewrite_blocks, form_call, form_function, names_tuple, placeholders
from .regions import const, located, name, ordered


def transform(fdef, ctx):
    """Turn every ``for`` of ``fdef`` into ``for_range``/``for_each``; returns ``fdef``."""
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
    targets = writes(node.target)
    extra = getattr(node, "extra_test", None)
    modified = (set().union(*(writes(s) for s in node.body)) | targets) & ctx.local_vars
    head = set(node.live_out) | (reads(extra) if extra is not None else set())
    while True:
        new = head | (live_in(node.body, head) - targets)
        if new == head:
            break
        head = new
    carried_targets = targets & set(node.live_out)
    state = ordered((modified & head) | carried_targets, [node.target] + node.body)
    used = live_in(node.body, set(state)) | (reads(extra) if extra is not None else set())
    args = ordered((used - set(state) - (targets - carried_targets)) & ctx.local_vars,
                   node.body)
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
    return (placeholders(ctx, state + args, getattr(node, "defined_in", None), node)
            + defs + [located(result, node)])

