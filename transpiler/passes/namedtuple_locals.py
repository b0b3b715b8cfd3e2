"""A namedtuple made in the function and read only by field becomes one local per field
(issue 20: ``p = Point(x, y); return p.x * p.y`` fell back: "creating a Point object in
compiled code is not converted").

``p = P(a, b)`` (``P`` resolved at transpile time to a class made by
``collections.namedtuple``/``typing.NamedTuple``) becomes ``p__0 = a; p__1 = b`` (the arguments
in source order: positional, then keywords, as Python evaluates them; a field left out takes
``P._field_defaults``' constant), and its reads become the items, exactly the objects Python's
tuple would hold (an np.float32 stays one):

- ``p.x`` -> ``p__0``; ``p[1]`` (a constant index in range) -> ``p__1``;
- ``len(p)`` -> the field count; ``for v in p`` and ``a, b = p`` -> the display
  ``(p__0, p__1)``.

Only where that is the whole story: ``p`` is assigned once, by that statement, and read only in
the statements after it in the same block (so every read happens after the assignment on every
path, as in Python, where an earlier read raises UnboundLocalError naming ``p``), never read
whole otherwise (returned, passed on, compared: a tuple in its place would not be a ``P``) nor
by a nested function, lambda or comprehension; and the call binds every field exactly once
(else Python raises TypeError where it runs: the call is left as it is, and the function does
not compile). The class's constructor and field accessors must be namedtuple's own
(``_tuplegetter``); the name it was read through is guarded like an operator function's
(passes/operator_calls.py).
"""
import inspect

import gast

from ..analysis.scopes import NESTED_SCOPES
from ..nodes import copy_tree, located, name as load, walk
from .tuple_arguments import _int_index, item_names


def is_namedtuple_class(value):
    """Whether ``value`` is a class made by ``collections.namedtuple`` (or a subclass that
    keeps its constructor and field accessors)."""
    if not (isinstance(value, type) and issubclass(value, tuple)):
        return False
    fields = getattr(value, "_fields", None)
    if not isinstance(fields, tuple) or not all(isinstance(f, str) for f in fields):
        return False
    doc = getattr(value.__new__, "__doc__", "") or ""
    # no subclass, metaclass or method that changes how it is made or read (a user's
    # __init__, __getitem__, __len__, __iter__ would run in Python)
    return type(value) is type and value.__bases__ == (tuple,) and doc.startswith(
        "Create new instance of") and not any(
            name in vars(value) for name in _READERS) and all(
        type(inspect.getattr_static(value, f, None)).__name__ == "_tuplegetter" for f in fields)


_READERS = ("__init__", "__getitem__", "__len__", "__iter__", "__getattribute__", "__getattr__",
            "__init_subclass__", "__class_getitem__", "__set_name__")


def desugar(fdef, resolve):
    """``(fdef', classes)``: a copy of ``fdef`` (read-only) with each namedtuple local of the
    module docstring's form as one local per field, and the class expressions read (for the
    caller to guard); ``(fdef, [])`` when there is none.

    Args:
        fdef (gast.FunctionDef): the function.
        resolve (callable): the static value of a Name or Attribute node of ``fdef``'s scope.
    """
    found = []
    for block in _blocks(fdef):
        for position, stmt in enumerate(block):
            plan = _plan(fdef, block, position, stmt, resolve)
            if plan is not None:
                found.append(plan)
    if not found:
        return fdef, []
    fdef = copy_tree(fdef)
    classes = []
    for name, cls, _ in found:
        for block in _blocks(fdef):
            for position, stmt in enumerate(block):
                if _creates(stmt, name):
                    classes.append(stmt.value.func)
                    items = _items(name, cls, fdef)
                    block[position:position + 1] = _assignments(stmt, cls, items)
                    _rewrite_reads(block, position + len(items), name, cls, items)
                    break
    return fdef, classes


def _blocks(node):
    """Every statement list of ``node``'s own scope (bodies of if/for/while/with/try too)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list) and block and isinstance(block[0], gast.stmt):
            yield block
            for stmt in block:
                if not isinstance(stmt, NESTED_SCOPES):
                    yield from _blocks(stmt)
    for handler in getattr(node, "handlers", []) or []:
        yield from _blocks(handler)
    for case in getattr(node, "cases", []) or []:
        yield from _blocks(case)


def _creates(stmt, name):
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
        stmt.targets[0], gast.Name) and stmt.targets[0].id == name and isinstance(
            stmt.value, gast.Call)


def _items(name, cls, fdef):
    return item_names(name, len(cls._fields), {n.id for n in walk(fdef)
                                               if isinstance(n, gast.Name)})


def _plan(fdef, block, position, stmt, resolve):
    """``(name, class, arguments by field)`` when ``stmt`` makes a namedtuple local of the
    module docstring's form, else None."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Call) and isinstance(
                stmt.value.func, (gast.Name, gast.Attribute))):
        return None
    call, name = stmt.value, stmt.targets[0].id
    cls = resolve(call.func)
    if not is_namedtuple_class(cls) or any(isinstance(a, gast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    fields = cls._fields
    bound = {fields[i]: a for i, a in enumerate(call.args[:len(fields)])}
    if len(call.args) > len(fields) or any(k.arg not in fields or k.arg in bound
                                           for k in call.keywords):
        return None
    bound.update((k.arg, k.value) for k in call.keywords)
    if len({k.arg for k in call.keywords}) != len(call.keywords):
        return None
    defaults = getattr(cls, "_field_defaults", {})
    if any(f not in bound and not (f in defaults and _constant(defaults[f]))
           for f in fields):
        return None
    if any(isinstance(n, gast.Name) and n.id == name for n in walk(call)):
        return None
    # assigned once (by stmt), never deleted, no nested scope reads it
    for node in walk(fdef):
        if isinstance(node, gast.Name) and node.id == name and isinstance(
                node.ctx, (gast.Store, gast.Del)) and node is not stmt.targets[0]:
            return None
        if node is not fdef and isinstance(node, NESTED_SCOPES) and any(
                isinstance(n, gast.Name) and n.id == name for n in walk(node)):
            return None
        if isinstance(node, gast.arguments) and any(
                isinstance(a, gast.Name) and a.id == name for a in node.args):
            return None
    later = block[position + 1:]
    reads = sum(1 for n in walk(fdef) if isinstance(n, gast.Name) and n.id == name and
                isinstance(n.ctx, gast.Load))
    after = sum(1 for s in later for n in walk(s) if isinstance(n, gast.Name) and
                n.id == name and isinstance(n.ctx, gast.Load))
    if reads != after or not all(_reads_by_item(s, name, cls, resolve) for s in later):
        return None
    return name, cls, bound


def _constant(value):
    return value is None or type(value) in (bool, int, float, str)


def _reads_by_item(stmt, name, cls, resolve):
    """Whether every read of ``name`` in ``stmt`` is by field, constant index, len, for or
    unpacking (module docstring)."""
    count = len(cls._fields)
    allowed = set()
    for node in walk(stmt):
        if isinstance(node, gast.Attribute) and _is(node.value, name):
            if node.attr not in cls._fields or not isinstance(node.ctx, gast.Load):
                return False        # p.x = v: Python raises AttributeError
            allowed.add(id(node.value))
        elif isinstance(node, gast.Subscript) and _is(node.value, name):
            if not isinstance(node.ctx, gast.Load):
                return False        # p[0] = v: Python raises TypeError
            index = _int_index(node.slice)
            if index is None or not -count <= index < count:
                return False
            allowed.add(id(node.value))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id == "len" and len(node.args) == 1 and _is(node.args[0], name):
            if resolve(node.func) is not len:
                return False
            allowed.add(id(node.args[0]))
        elif isinstance(node, (gast.For, gast.comprehension)) and _is(node.iter, name):
            allowed.add(id(node.iter))
        elif isinstance(node, gast.Assign) and _is(node.value, name) and all(
                isinstance(t, (gast.Tuple, gast.List)) and len(t.elts) == count and not any(
                    isinstance(e, gast.Starred) for e in t.elts) for t in node.targets):
            allowed.add(id(node.value))
    return all(id(n) in allowed for n in walk(stmt) if _is(n, name))


def _is(node, name):
    return isinstance(node, gast.Name) and node.id == name and isinstance(node.ctx, gast.Load)


def _assignments(stmt, cls, items):
    """``p__i = argument`` in the call's source order, then the defaults left out."""
    call = stmt.value
    fields = cls._fields
    out = []
    by_field = [(fields[i], a) for i, a in enumerate(call.args)] + [
        (k.arg, k.value) for k in call.keywords]
    for field, value in by_field:
        out.append(located(gast.Assign(targets=[gast.Name(
            id=items[fields.index(field)], ctx=gast.Store(), annotation=None,
            type_comment=None)], value=value, type_comment=None), stmt))
    given = {f for f, _ in by_field}
    for field in fields:
        if field not in given:
            out.append(located(gast.Assign(targets=[gast.Name(
                id=items[fields.index(field)], ctx=gast.Store(), annotation=None,
                type_comment=None)], value=gast.Constant(
                    value=cls._field_defaults[field], kind=None), type_comment=None), stmt))
    return out


def _rewrite_reads(block, start, name, cls, items):
    """The reads of ``name`` in ``block[start:]`` as its items (in place)."""
    count = len(cls._fields)

    def item(i, where):
        return located(load(items[i]), where)

    def display(where):
        return located(gast.Tuple(elts=[item(i, where) for i in range(count)],
                                  ctx=gast.Load()), where)

    class Rewrite(gast.NodeTransformer):
        def visit_Attribute(self, node):
            if _is(node.value, name):
                return item(cls._fields.index(node.attr), node)
            return self.generic_visit(node)

        def visit_Subscript(self, node):
            if _is(node.value, name):
                return item(_int_index(node.slice) % count, node)
            return self.generic_visit(node)

        def visit_Call(self, node):
            if isinstance(node.func, gast.Name) and node.func.id == "len" and len(
                    node.args) == 1 and _is(node.args[0], name):
                return located(gast.Constant(value=count, kind=None), node)
            return self.generic_visit(node)

        def visit_Name(self, node):
            return display(node) if _is(node, name) else node

    rewrite = Rewrite()
    block[start:] = [rewrite.visit(s) for s in block[start:]]
