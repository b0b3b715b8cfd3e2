"""Lower ``return``: one exit at the end of the function.

A ``return v`` that is not the last statement becomes ``retval = v; do_return = True``; inside a
loop it is followed by ``break`` (lowered later), and a loop that may have returned is followed by
``if do_return: break`` in an enclosing loop. Outside loops, the statements after a construct
that may have returned are guarded by ``if not do_return:``. The function ends with
``return retval``. (AutoGraph's return_statements transformer, with explicit flags.)
"""
import gast

from .. import anno
from ..nodes import assign, const, located, name, negate, walk

# It changes control flow: liveness and definite assignment computed before it are stale.
INVALIDATES = (anno.LIVENESS, anno.DEFINITE_ASSIGNMENT)


def _returns(fdef):
    return [n for n in walk(fdef) if isinstance(n, gast.Return)]


def _always_returns(stmts):
    for stmt in stmts:
        if isinstance(stmt, (gast.Return, gast.Raise)):
            return True
        if isinstance(stmt, gast.If) and _always_returns(stmt.body) and _always_returns(
                stmt.orelse):
            return True
    return False


def transform(fdef, ctx):
    """Lower the returns of ``fdef`` (gast.FunctionDef) in place; returns it."""
    anno.invalidate(fdef, *INVALIDATES)
    returns = _returns(fdef)
    if not returns or (len(returns) == 1 and fdef.body and fdef.body[-1] is returns[0]):
        return fdef
    lowering = _Lowering(ctx.new_var("do_return"), ctx.new_var("retval"), ctx)
    body, _ = lowering.block(fdef.body, in_loop=False)
    initial = ctx.ir("undefined") if _always_returns(fdef.body) else None
    first = fdef.body[0]
    init = [located(assign(lowering.flag, const(False)), first),
            located(assign(lowering.value, const(None) if initial is None else _undefined(
                initial, lowering.value)), first)]
    last = fdef.body[-1]
    fdef.body = init + body + [located(gast.Return(value=name(lowering.value)), last)]
    return fdef


def _undefined(func, var):
    call = gast.Call(func=func, args=[const(var)], keywords=[])
    anno.set_anno(call, anno.FORM, "undefined")
    return call


class _Lowering:
    def __init__(self, flag, value, ctx):
        self.flag = flag
        self.value = value
        self.ctx = ctx

    def block(self, stmts, in_loop):
        """(new statements, whether they may have returned)."""
        out = []
        for index, stmt in enumerate(stmts):
            rest = stmts[index + 1:]
            if isinstance(stmt, gast.Return):
                value = stmt.value if stmt.value is not None else const(None)
                out.append(located(assign(self.value, value), stmt))
                out.append(located(assign(self.flag, const(True)), stmt))
                if in_loop:
                    out.append(located(gast.Break(), stmt))
                return out, True
            if isinstance(stmt, gast.If):
                stmt.body, in_body = self.block(stmt.body, in_loop)
                stmt.orelse, in_else = self.block(stmt.orelse, in_loop)
                stmt.body = stmt.body or [located(gast.Pass(), stmt)]
                out.append(stmt)
                if in_body or in_else:
                    return out + self._after(stmt, rest, in_loop, loop=False), True
                continue
            if isinstance(stmt, (gast.While, gast.For)):
                stmt.body, in_body = self.block(stmt.body, in_loop=True)
                stmt.orelse, in_else = self.block(stmt.orelse, in_loop)
                out.append(stmt)
                if in_body or in_else:
                    return out + self._after(stmt, rest, in_loop, loop=in_body), True
                continue
            out.append(stmt)
        return out, False

    def _after(self, stmt, rest, in_loop, loop):
        """What follows a construct that may have returned."""
        out = []
        if in_loop:
            if loop:  # the inner loop was left by break: leave this one too
                out.append(located(gast.If(test=name(self.flag), body=[gast.Break()],
                                           orelse=[]), stmt))
            tail, _ = self.block(rest, in_loop)
            return out + tail
        tail, _ = self.block(rest, in_loop)
        if tail:
            out.append(located(gast.If(test=negate(name(self.flag)), body=tail, orelse=[]),
                               stmt))
        return out
