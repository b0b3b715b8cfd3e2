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
from ..nodes import assign, const, located, name, negate


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
    assigned = sorted({n.id for n in gast.walk(target) if isinstance(n, gast.Name)
                       and isinstance(n.ctx, gast.Store) and n.id in flags})
    return [located(assign(flags[v], const(True)), like) for v in assigned]


def _guarded_reads(stmt, flags, read_ids):
    """The flagged variables ``stmt`` itself (not its nested blocks) may read unassigned."""
    found = []
    stack = [child for field, child in gast.iter_fields(stmt)
             if field not in ("body", "orelse", "finalbody", "handlers")]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, gast.AST):
            continue
        if isinstance(node, gast.Name) and id(node) in read_ids and node.id in flags:
            found.append(node.id)
        stack.extend(gast.iter_child_nodes(node))
    return sorted(set(found))
