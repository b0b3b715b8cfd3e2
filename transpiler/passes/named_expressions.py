"""Assignment expressions (``:=``) become assignments before their statement (issue 20:
``if (y := x * 2) > 3:`` is ``y = x * 2; if y > 3:``), before the number analyses run.

Python evaluates a statement's expression left to right (language reference, "Evaluation
order"); the named expression binds its target when it is evaluated (PEP 572). Moving it before
the statement changes nothing when everything the statement evaluates before it is a name or a
constant that is not its target (no call, attribute or subscript whose code it could reorder),
and nothing can skip it: it is not in the right operand of ``and``/``or``, a branch of an
``if``-expression, a later link of a chained comparison, a lambda or a comprehension (whose
own scope PEP 572 binds through). A ``while`` test with one becomes ``while True:`` with the
assignments and ``if not test: break`` first in the body (a ``while`` with an ``else`` is
left). Anything else is left as it is, and the specializer says it is not converted.
"""

import gast

from ..nodes import copy_tree, located, rewrite_blocks, walk

def desugar(fdef, protected=()):
    """A copy of ``fdef`` (gast.FunctionDef, read-only: shared by every specialization) with
    its named expressions hoisted where that keeps Python's order (module docstring), or
    ``fdef`` itself when it has none. ``protected``: names the hoisted values may assign
    besides their targets (passes/nonlocal_functions: a call of a nested function assigning
    them), so no read of them may be evaluated before one."""
    if not any(isinstance(n, gast.NamedExpr) for n in walk(fdef)):
        return fdef
    fdef = copy_tree(fdef)
    protected = frozenset(protected)
    fdef.body = rewrite_blocks(fdef.body, lambda stmt: _rewrite(stmt, protected))
    return fdef


def _rewrite(stmt, protected):
    if isinstance(stmt, gast.While):
        return [_while(stmt, protected)]
    return _hoist(stmt, protected) + [stmt]


def _root(stmt):
    """``(expression evaluated first, names read before it)`` for the statements whose
    first-evaluated expression may hold a hoisted named expression, else (None, ())."""
    if isinstance(stmt, (gast.Assign, gast.Return, gast.Expr)) and stmt.value is not None:
        return stmt.value, ()
    if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
        return stmt.value, (stmt.target.id,)      # `s += v` reads s first
    if isinstance(stmt, gast.If):
        return stmt.test, ()
    if isinstance(stmt, gast.For):
        return stmt.iter, ()
    return None, ()


def _hoist(stmt, protected=frozenset()):
    """The assignments hoisted out of ``stmt``'s first-evaluated expression (which is
    rewritten in place), in evaluation order."""
    root, read_before = _root(stmt)
    if root is None:
        return []
    out = []
    while True:
        found = _first_hoistable(root, read_before, protected)
        if found is None:
            return out
        named, parent, field, index = found
        out.append(located(gast.Assign(targets=[gast.Name(
            id=named.target.id, ctx=gast.Store(), annotation=None, type_comment=None)],
            value=named.value, type_comment=None), named))
        replacement = located(gast.Name(id=named.target.id, ctx=gast.Load(), annotation=None,
                                        type_comment=None), named)
        if parent is None:
            _set_root(stmt, replacement)
            root = replacement
        elif index is None:
            setattr(parent, field, replacement)
        else:
            getattr(parent, field)[index] = replacement


def _set_root(stmt, value):
    if isinstance(stmt, gast.If):
        stmt.test = value
    elif isinstance(stmt, gast.For):
        stmt.iter = value
    else:
        stmt.value = value


def _first_hoistable(root, read_before, protected):
    """``(named expression, parent, field, index)`` of the first named expression in
    evaluation order that may move before the statement, or None."""
    for named, path in _named_in_order(root):
        if _movable(named, path, read_before, protected):
            parent, field, index = path[-1] if path else (None, None, None)
            return named, parent, field, index
        return None     # a later one would move before this one: keep the order
    return None


def _named_in_order(node, path=()):
    """``(NamedExpr, path)`` in evaluation order (innermost first, then left to right);
    ``path``: ``(parent, field, index)`` steps from the root."""
    if isinstance(node, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
                         gast.GeneratorExp)):
        return
    for field, value in gast.iter_fields(node):
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, gast.AST):
                    yield from _named_in_order(item, path + ((node, field, index),))
        elif isinstance(value, gast.AST):
            yield from _named_in_order(value, path + ((node, field, None),))
    if isinstance(node, gast.NamedExpr):
        yield node, path


# node type -> its fields in evaluation order (CPython's compiler, Python/compile.c)
_ORDER = {gast.BinOp: ("left", "right"), gast.UnaryOp: ("operand",),
          gast.Compare: ("left", "comparators"), gast.BoolOp: ("values",),
          gast.IfExp: ("test",), gast.Call: ("func", "args", "keywords"),
          gast.Subscript: ("value", "slice"), gast.Attribute: ("value",),
          gast.Tuple: ("elts",), gast.List: ("elts",), gast.Starred: ("value",),
          gast.Slice: ("lower", "upper", "step"), gast.NamedExpr: ("value",),
          gast.keyword: ("value",)}


def _movable(named, path, read_before, protected=frozenset()):
    """Whether nothing evaluated before ``named`` in its statement can see the move: each
    step down from the root is one Python always evaluates (not a lazy operand), and what
    it evaluates first is names and constants that are not the target."""
    if not isinstance(named.target, gast.Name):
        return False
    target = named.target.id
    seen = protected | {target}     # names the move could change what a read sees
    before = []
    for parent, field, index in path:
        fields = _ORDER.get(type(parent))
        if fields is None or field not in fields:
            return False
        if isinstance(parent, gast.BoolOp) and index != 0:
            return False        # skipped when the first operand decides
        if isinstance(parent, gast.Compare) and field == "comparators" and index != 0:
            return False        # skipped when an earlier link is false
        for earlier in fields[:fields.index(field)]:
            value = getattr(parent, earlier)
            before.extend(value if isinstance(value, list) else [value])
        if index is not None:
            before.extend(getattr(parent, field)[:index])
    if seen & set(read_before):
        return False
    for node in before:
        if node is None:
            continue
        for part in walk(node):
            if isinstance(part, gast.Name) and part.id in seen:
                return False
            if not isinstance(part, (gast.Name, gast.Constant, gast.expr_context,
                                     gast.keyword)):
                return False
    return True


def _while(stmt, protected):
    """``while`` whose test has hoistable named expressions, as ``while True:`` with them
    and ``if not test: break`` first in the body (module docstring); else ``stmt``."""
    if stmt.orelse:
        return stmt
    probe = gast.If(test=stmt.test, body=[], orelse=[])
    hoisted = _hoist(probe, protected)
    if not hoisted:
        return stmt
    leave = located(gast.If(test=gast.UnaryOp(op=gast.Not(), operand=probe.test),
                            body=[gast.Break()], orelse=[]), stmt)
    stmt.test = located(gast.Constant(value=True, kind=None), stmt)
    stmt.body = hoisted + [leave] + stmt.body
    return stmt
