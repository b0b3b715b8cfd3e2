"""What the three functional-form passes share: the nested function that holds a region, the
form's call, and the placeholders of variables not yet assigned (the region's inputs and
outputs themselves: transpiler.analysis.region_io)."""
import gast

from .. import anno
from ..nodes import const, function_def, located, name


def form_function(ctx, base, params, body, returns, like):
    """``def <base>(params): body; return returns`` marked as the body of a form."""
    if returns is not None:
        body = body + [located(gast.Return(value=returns), like)]
    elif not body:
        body = [located(gast.Pass(), like)]
    fdef = function_def(ctx.new_var(base), params, body)
    anno.set_anno(fdef, anno.FORM_FUNCTION, True)
    return located(fdef, like)


def names_tuple(names, store=False):
    return gast.Tuple(elts=[name(n, store) for n in names],
                      ctx=gast.Store() if store else gast.Load())


def outputs_value(names):
    """What a region function returns: one name, or a tuple of them."""
    if len(names) == 1:
        return name(names[0])
    return names_tuple(names)


def form_call(ctx, form, args, keywords=()):
    call = gast.Call(func=ctx.ir(form), args=list(args), keywords=list(keywords))
    anno.set_anno(call, anno.FORM, form)
    return call


def placeholders(ctx, variables, defined, like):
    """``v = undefined('v')`` for each input of a region that may not be assigned yet; for a
    variable with a definedness flag, ``v = v if flag else undefined('v')`` (it may hold a
    value: kept)."""
    out = []
    for var in variables:
        if defined is not None and var not in defined:
            value = form_call(ctx, "undefined", [const(var)])
            if var in ctx.flags:
                value = gast.IfExp(test=name(ctx.flags[var]), body=name(var), orelse=value)
                anno.set_anno(value, anno.FORM, "undefined")
            out.append(located(gast.Assign(targets=[name(var, store=True)], value=value,
                                           type_comment=None), like))
    return out


def rewrite_blocks(stmts, ctx, kind, rewrite):
    """Apply ``rewrite(stmt, ctx) -> list`` to every statement of ``kind``, innermost first,
    also inside the bodies of forms made by an earlier pass (a loop inside an ``if``)."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, (gast.If, gast.While, gast.For)):
            stmt.body = rewrite_blocks(stmt.body, ctx, kind, rewrite)
            stmt.orelse = rewrite_blocks(stmt.orelse, ctx, kind, rewrite)
        elif isinstance(stmt, gast.FunctionDef) and anno.get(stmt, anno.FORM_FUNCTION,
                                                             False):
            stmt.body = rewrite_blocks(stmt.body, ctx, kind, rewrite)
        if isinstance(stmt, kind):
            out.extend(rewrite(stmt, ctx))
        else:
            out.append(stmt)
    return out
