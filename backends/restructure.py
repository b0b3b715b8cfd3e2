"""Turn functional forms back into structured control flow, for backends that compile loops
natively (Numba compiles a native loop about 10 times faster than a loop body passed as a
function, with the same run time; docs/ARCHITECTURE.md, "Pipeline").

``y = cond(t, if_true, if_false, ins)`` becomes ``if t: <if_true body> else: <if_false body>``;
``while_loop`` a ``while``; ``for_range``/``for_each`` a ``for`` whose ``extra_test`` becomes
``if not (extra): break`` at the top of the body; ``v = undefined('v')`` disappears. The nested
functions use the enclosing variables' own names for their parameters and return exactly the
region's outputs, so inlining a body needs no renaming: its final ``return`` is dropped.
"""
import gast

from transpiler.nodes import copy_tree


def restructure(fdef):
    """A copy of ``fdef`` (gast.FunctionDef of the functional program) with structured loops."""
    fdef = copy_tree(fdef)
    fdef.body = _block(fdef.body)
    return fdef


def _form(stmt):
    value = getattr(stmt, "value", None)
    if isinstance(stmt, (gast.Assign, gast.Expr)) and isinstance(value, (gast.Call,
                                                                      gast.IfExp)):
        return getattr(value, "graphjit_form", None), value   # an IfExp: a kept placeholder
    return None, None


def _body(fdef):
    """The function's statements without its final ``return`` of the region outputs."""
    body = list(fdef.body)
    if body and isinstance(body[-1], gast.Return):
        body = body[:-1]
    return _block(body) or [gast.copy_location(gast.Pass(), fdef)]


def _returned(fdef):
    return fdef.body[-1].value


def _block(stmts):
    out = []
    functions = {}
    for stmt in stmts:
        if isinstance(stmt, gast.FunctionDef) and getattr(stmt, "graphjit_form_function", False):
            functions[stmt.name] = stmt
            continue
        form, call = _form(stmt)
        if form is None:
            if isinstance(stmt, (gast.If, gast.While, gast.For)):
                stmt.body = _block(stmt.body)
                stmt.orelse = _block(stmt.orelse)
            out.append(stmt)
            continue
        if form == "undefined":
            continue
        args = call.args
        if form == "cond":
            if_true, if_false = functions[args[1].id], functions[args[2].id]
            orelse = _body(if_false)
            if len(orelse) == 1 and isinstance(orelse[0], gast.Pass):
                orelse = []
            new = gast.If(test=args[0], body=_body(if_true), orelse=orelse)
        elif form == "while_loop":
            new = gast.While(test=_returned(functions[args[0].id]),
                             body=_body(functions[args[1].id]), orelse=[])
        else:
            body_fn = functions[args[0].id]
            if form == "for_range":
                start, stop, step = args[1:4]
                iterable = gast.Call(func=gast.Name(id="range", ctx=gast.Load(), annotation=None,
                                                    type_comment=None),
                                     args=_range_args(start, stop, step), keywords=[])
                if needs_range_check(start, stop, step):
                    iterable.graphjit_checked_range = [start, stop, step]
            else:
                iterable = args[1]
            body = _body(body_fn)
            for keyword in call.keywords:
                if keyword.arg == "extra_test":
                    test = _returned(functions[keyword.value.id])
                    stop = test.operand if isinstance(test, gast.UnaryOp) and isinstance(
                        test.op, gast.Not) else gast.UnaryOp(op=gast.Not(), operand=test)
                    body.insert(0, gast.copy_location(gast.If(
                        test=stop,
                        body=[gast.copy_location(gast.Break(), stmt)], orelse=[]), stmt))
            target = body_fn.args.args[0]
            new = gast.For(target=gast.Name(id=target.id, ctx=gast.Store(), annotation=None,
                                            type_comment=None),
                           iter=iterable, body=body, orelse=[], type_comment=None)
        out.append(gast.copy_location(new, stmt))
    return out


def needs_range_check(start, stop, step):
    """Whether a ``for_range`` loop's ``range(start, stop, step)`` may have a count Numba
    computes wrong (``stop - start`` beyond the range's integer type, or -2**63 divided by
    -1: backends/runtime/checked_range.py): unless both bounds are int constants, or the start
    is 0 with a positive constant step (``stop - 0`` cannot overflow)."""
    def const(node):
        return isinstance(node, gast.Constant) and type(node.value) is int
    if const(start) and start.value == 0 and const(step) and step.value > 0:
        return False
    return not (const(start) and const(stop) and -2 ** 62 <= stop.value - start.value < 2 ** 62)


def _range_args(start, stop, step):
    def is_const(node, value):
        return isinstance(node, gast.Constant) and node.value == value and type(
            node.value) is int
    if is_const(step, 1):
        return [stop] if is_const(start, 0) else [start, stop]
    return [start, stop, step]
