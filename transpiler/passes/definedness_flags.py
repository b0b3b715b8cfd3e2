"""Runtime definedness flags: a variable that may be unassigned where it is read compiles, and
raises UnboundLocalError exactly where Python would (issue 20).

Python raises only when the path that skips the assignment actually runs (a loop variable read
after a loop that ran zero times, a name bound in one branch). Numba instead reads whatever the
register holds. For each local that definite assignment (transpiler.analysis.
definite_assignment) finds read where it may be unassigned, this pass adds a boolean flag:
``False`` at the function's start, ``True`` after every statement that assigns the variable
(at the top of a loop body for a ``for`` target), and before each such read ``if not flag:
raise UnboundLocalError(<CPython's message>)``. A read that runs therefore always sees the
value Python would; the register's garbage is never used. The functional forms then pass the
variable through their regions with an ``undefined`` placeholder (passes/forms_common.py),
which numba-cpu drops.
"""
import sys

import gast

from ..analysis.definite_assignment import maybe_undefined_reads
from ..naming import fresh
from ..nodes import assign, const, located, name, negate, child_nodes, walk


def message(variable):
    """CPython's UnboundLocalError text for ``variable`` (3.11 changed it)."""
    if sys.version_info >= (3, 11):
        return f"cannot access local variable {variable!r} where it is not associated with a value"
    return f"local variable {variable!r} referenced before assignment"


def transform(fdef, local_names, taken):
    """Add the flags to ``fdef`` (in place).

    Args:
        fdef (gast.FunctionDef): the specialized function, before the functional forms.
        local_names (set[str]): its local variables.
        taken (set[str]): every name in use; the flags' names are added.

    Returns:
        dict[str, str]: each variable now guarded at run time (definite assignment skips
        them) -> its flag; the flags are added to ``local_names``.
    """
    reads = maybe_undefined_reads(fdef, local_names)
    if not reads:
        return {}
    # A check before the statement is exact only where Python would read the variable before
    # anything that can raise or have effects: refuse the others (definite assignment then
    # reports them and the function falls back).
    early = _early_reads(fdef)
    refused = {node.id for node in reads if id(node) not in early}
    reads = [node for node in reads if node.id not in refused]
    if not reads:
        return {}
    variables = sorted({node.id for node in reads})
    flags = {}
    for variable in variables:
        flags[variable] = fresh(f"{variable}_assigned", taken | local_names)
        taken.add(flags[variable])
        local_names.add(flags[variable])
    read_ids = {id(node) for node in reads}
    fdef.body = _block(fdef.body, flags, read_ids)
    start = [located(assign(flags[v], const(False)), fdef.body[0] if fdef.body else fdef)
             for v in variables]
    fdef.body = start + fdef.body
    return flags


def _block(stmts, flags, read_ids):
    out = []
    for stmt in stmts:
        for variable in _guarded_reads(stmt, flags, read_ids):
            check = gast.If(test=negate(name(flags[variable])), body=[gast.Raise(
                exc=gast.Call(func=name("UnboundLocalError"), args=[const(message(variable))],
                              keywords=[]), cause=None)], orelse=[])
            out.append(located(check, stmt))
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if inner and not isinstance(stmt, gast.FunctionDef):
                setattr(stmt, field, _block(inner, flags, read_ids))
        for handler in getattr(stmt, "handlers", None) or ():
            handler.body = _block(handler.body, flags, read_ids)
            if handler.name is not None:
                handler.body = _set(handler.name, flags, handler) + handler.body
        if isinstance(stmt, gast.For):
            stmt.body = _set(stmt.target, flags, stmt) + stmt.body
        if isinstance(stmt, gast.With):
            for item in stmt.items:
                if item.optional_vars is not None:
                    stmt.body = _set(item.optional_vars, flags, stmt) + stmt.body
        out.append(stmt)
        if isinstance(stmt, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
            for target in targets:
                out.extend(_set(target, flags, stmt))
    return out


def _set(target, flags, like):
    """``flag = True`` for each flagged variable that ``target`` assigns."""
    assigned = sorted({n.id for n in walk(target) if isinstance(n, gast.Name)
                       and isinstance(n.ctx, gast.Store) and n.id in flags})
    return [located(assign(flags[v], const(True)), like) for v in assigned]


def _guarded_reads(stmt, flags, read_ids):
    """The flagged variables ``stmt`` itself (not its nested blocks) may read unassigned, in
    the order Python reads them (the first one unassigned is the one it names)."""
    found = []
    for kind, node in _events(stmt):
        if kind == "name" and id(node) in read_ids and node.id in flags and \
                node.id not in found:
            found.append(node.id)
    return found


_LAZY = (gast.IfExp, gast.BoolOp, gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
         gast.GeneratorExp, gast.NamedExpr)


def _early_reads(fdef):
    """ids of the Name reads that Python evaluates in their statement before anything else
    but other names (no call, operator, subscript or attribute before them; not inside a
    lazily evaluated or nested-scope expression), and the later reads in that statement of
    the variables read so."""
    early = set()
    stack = list(fdef.body)
    while stack:
        stmt = stack.pop()
        for field in ("body", "orelse", "finalbody"):
            if not isinstance(stmt, gast.FunctionDef):
                stack.extend(getattr(stmt, field, None) or [])
        for handler in getattr(stmt, "handlers", None) or ():
            stack.extend(handler.body)
        if isinstance(stmt, gast.FunctionDef):
            continue
        events = _events(stmt)
        first = set()
        for kind, node in events:
            if kind != "name":
                break
            early.add(id(node))
            first.add(node.id)
        # a later read of a variable read early in the statement is checked by the same
        # check (`weak(x, v) - v`: if v is unassigned Python raises at the first read)
        pending = [node for _, node in events]
        while pending:
            read = pending.pop()
            if isinstance(read, gast.Lambda):
                continue        # its body reads the variable when it is called, not here
            if isinstance(read, gast.Name) and read.id in first and isinstance(
                    read.ctx, gast.Load):
                early.add(id(read))
            pending.extend(child_nodes(read))
    return early


def _events(stmt):
    """``[(kind, node)]`` of ``stmt``'s own expressions in Python's evaluation order: "name"
    for a variable read, "op" for anything else that runs (and may raise), "lazy" for an
    expression evaluated lazily or in its own scope (its reads are not in order)."""
    out = []
    if isinstance(stmt, gast.Assign):
        _expr_events(stmt.value, out)
        for target in stmt.targets:
            _target_events(target, out)
    elif isinstance(stmt, gast.AugAssign):
        if isinstance(stmt.target, gast.Name):
            out.append(("name", stmt.target))       # `x += v` reads x first
        else:
            _target_events(stmt.target, out)
            out.append(("op", stmt.target))
        _expr_events(stmt.value, out)
        out.append(("op", stmt))
    elif isinstance(stmt, (gast.If, gast.While)):
        _expr_events(stmt.test, out)
    elif isinstance(stmt, gast.For):
        _expr_events(stmt.iter, out)
    elif isinstance(stmt, (gast.Return, gast.Expr)):
        if stmt.value is not None:
            _expr_events(stmt.value, out)
    else:
        out.append(("op", stmt))      # anything else: not in a simple order
    return out


def _target_events(target, out):
    if isinstance(target, (gast.Subscript, gast.Attribute)):
        _expr_events(target.value, out)
        if isinstance(target, gast.Subscript):
            _expr_events(target.slice, out)
        out.append(("op", target))
    elif isinstance(target, (gast.Tuple, gast.List)):
        out.append(("op", target))    # unpacking runs first
        for elt in target.elts:
            _target_events(elt, out)


def _expr_events(node, out):
    if isinstance(node, gast.Name):
        if isinstance(node.ctx, gast.Load):
            out.append(("name", node))
        return
    if isinstance(node, gast.Constant):
        return
    if isinstance(node, _LAZY) or (isinstance(node, gast.Compare) and len(node.ops) > 1):
        out.append(("lazy", node))
        return
    children = list(child_nodes(node))
    if isinstance(node, gast.Call) and _attribute_chain(node.func):
        # `module.f(v)`, `a.sum()`: in specialized code such a function's lookup exists for
        # the types compiled for (Numba typed it), so it neither raises nor runs code
        root = node.func
        while isinstance(root, gast.Attribute):
            root = root.value
        _expr_events(root, out)
        children = children[1:]
    for child in children:
        if isinstance(child, gast.expr):
            _expr_events(child, out)
        elif isinstance(child, gast.keyword):
            _expr_events(child.value, out)
    out.append(("op", node))


def _attribute_chain(node):
    """``name.attr[.attr...]``."""
    if not isinstance(node, gast.Attribute):
        return False
    while isinstance(node, gast.Attribute):
        node = node.value
    return isinstance(node, gast.Name)
