"""Lower ``break`` and ``continue`` to flags.

``continue`` sets ``continue_`` (reset at the top of every iteration) and the rest of the
iteration is guarded by ``if not continue_:``. ``break`` sets ``break_``; the rest of the
iteration is guarded the same way, and the loop stops before its next iteration: a ``while``
test becomes ``not break_ and (test)`` (the test is not evaluated again after a break, as in
Python), a ``for`` loop gets ``extra_test = not break_`` (kept on the node for the ``for`` pass).
"""
import gast

from .. import anno
from ..nodes import assign, const, contains, located, name, negate

# It changes control flow: liveness and definite assignment computed before it are stale.
INVALIDATES = (anno.LIVENESS, anno.DEFINITE_ASSIGNMENT)


def transform(fdef, ctx):
    """Lower every ``break``/``continue`` of ``fdef`` in place; returns it."""
    anno.invalidate(fdef, *INVALIDATES)
    fdef.body = _block(fdef.body, ctx)
    return fdef


def _block(stmts, ctx):
    out = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.While, gast.For)):
            stmt.body = _block(stmt.body, ctx)
            stmt.orelse = _block(stmt.orelse, ctx)
        if isinstance(stmt, (gast.While, gast.For)):
            out.extend(_loop(stmt, ctx))
            continue
        out.append(stmt)
    return out


def _loop(loop, ctx):
    before = []
    if contains(loop.body, gast.Continue):
        flag = ctx.new_var("continue_")
        loop.body = [located(assign(flag, const(False)), loop.body[0])] + guard(
            loop.body, gast.Continue, flag)
    if contains(loop.body, gast.Break):
        flag = ctx.new_var("break_")
        loop.body = guard(loop.body, gast.Break, flag)
        before.append(located(assign(flag, const(False)), loop))
        if isinstance(loop, gast.While):
            loop.test = gast.BoolOp(op=gast.And(), values=[negate(name(flag)), loop.test])
        else:
            anno.set_anno(loop, anno.EXTRA_TEST, negate(name(flag)))
    return before + [loop]


def guard(stmts, kind, flag):
    """Replace each jump of ``kind`` (gast.Break or gast.Continue) of this loop level by
    ``flag = True`` and guard what follows it with ``if not flag:``. Also used by the
    unrolling of loops over static sequences."""
    out = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, kind):
            out.append(located(assign(flag, const(True)), stmt))
            return out
        if isinstance(stmt, gast.If) and contains([stmt], kind):
            stmt.body = guard(stmt.body, kind, flag) or [located(gast.Pass(), stmt)]
            stmt.orelse = guard(stmt.orelse, kind, flag)
            out.append(stmt)
            rest = guard(stmts[index + 1:], kind, flag)
            if rest:
                out.append(located(gast.If(test=negate(name(flag)), body=rest, orelse=[]),
                                   stmts[index + 1]))
            return out
        out.append(stmt)
    return out
