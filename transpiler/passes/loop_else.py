"""Lower loop ``else``: it runs when the loop ends without ``break``.

``for ...: ... break ... else: E`` becomes ``broke = False; for ...: ... broke = True; break
...; if not broke: E``. Without a ``break`` in the loop, ``E`` simply follows the loop.
"""
import gast

from .. import anno
from ..nodes import assign, const, contains, located, name, negate

# It changes control flow: liveness and definite assignment computed before it are stale.
INVALIDATES = (anno.LIVENESS, anno.DEFINITE_ASSIGNMENT)


def transform(fdef, ctx):
    """Lower every loop ``else`` of ``fdef`` in place; returns it."""
    anno.invalidate(fdef, *INVALIDATES)
    fdef.body = _block(fdef.body, ctx)
    return fdef


def _block(stmts, ctx):
    out = []
    for stmt in stmts:
        for field in ("body", "orelse"):
            if isinstance(getattr(stmt, field, None), list) and not isinstance(
                    stmt, gast.FunctionDef):
                setattr(stmt, field, _block(getattr(stmt, field), ctx))
        if isinstance(stmt, (gast.While, gast.For)) and stmt.orelse:
            orelse, stmt.orelse = stmt.orelse, []
            if contains(stmt.body, gast.Break):
                flag = ctx.new_var("broke")
                stmt.body = _mark_breaks(stmt.body, flag)
                out.append(located(assign(flag, const(False)), stmt))
                out.append(stmt)
                out.append(located(gast.If(test=negate(name(flag)), body=orelse, orelse=[]),
                                   orelse[0]))
            else:
                out.append(stmt)
                out.extend(orelse)
            continue
        out.append(stmt)
    return out


def _mark_breaks(stmts, flag):
    """Put ``flag = True`` before every ``break`` of this loop (not of nested loops)."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, gast.Break):
            out.append(located(assign(flag, const(True)), stmt))
        elif isinstance(stmt, gast.If):
            stmt.body = _mark_breaks(stmt.body, flag)
            stmt.orelse = _mark_breaks(stmt.orelse, flag)
        out.append(stmt)
    return out
