"""Tuple (and namedtuple) arguments of Python numbers become one parameter per item, before the
number analyses run, so that each item is typed as the Python number it is (issue 14).

A specialization is guarded on the complete type of a tuple argument (transpiler.type_keys:
its length and each item's type), so within it ``t = (2, 0.5)`` is two parameters ``t__0``
(an int) and ``t__1`` (a float), and NEP 50, Python's ``**`` and the checked int arithmetic
apply to them as to any Python-number argument. The analyses never see ``t`` itself:

- ``t[i]`` (a constant index, negative too) -> ``t__i``;
- ``a, b = t`` -> ``a, b = t__0, t__1``;
- ``f(*t)`` -> ``f(t__0, t__1)`` (Python passes the items so);
- every other read of ``t`` -> the display ``(t__0, t__1)`` (the same value: a tuple of the
  same items; ``len(t)``, ``for v in t``, passing ``t`` on);
- a namedtuple's ``p.x`` -> its item; ``p`` read whole only as ``len(p)``, ``for v in p`` or
  ``a, b = p`` (anywhere else a tuple in its place would not be a ``P``: refused).

The entry still takes ``t`` (the dispatcher passes the call's arguments): the specializer
unpacks it first (:func:`unpacking`). Not rewritten (the caller refuses the argument, as
before): a function that assigns or deletes ``t``, or whose nested functions, lambdas or
comprehensions read it (they would read the tuple, untyped).
"""

import gast

from ..analysis.scopes import NESTED_SCOPES
from ..nodes import copy_tree, located, walk

PYTHON_ITEMS = {int: "int", bool: "int", float: "float"}   # as specialize types arguments


def item_kinds(key):
    """For a ``type_key`` of a tuple whose items are Python bool/int/float/complex/str/None,
    each item's Python type; else None (a nested tuple, a NumPy value, an empty tuple)."""
    if key[0] not in ("tuple", "namedtuple") or not key[1]:
        return None
    kinds = []
    for item in key[1]:
        if item[0] != "type" or item[1] not in (int, bool, float, complex, str, type(None)):
            return None
        kinds.append(item[1])
    return kinds


def spliced_args(args, name, count, item):
    """A call's positional ``args`` with each ``*name`` replaced by ``item(i, starred)`` for
    i < ``count``: Python passes the tuple's items as positional arguments, in order."""
    out = []
    for a in args:
        if is_starred(a, name):
            out.extend(item(i, a) for i in range(count))
        else:
            out.append(a)
    return out


def is_starred(node, name):
    """Whether ``node`` is ``*name``."""
    return isinstance(node, gast.Starred) and isinstance(node.value, gast.Name) and \
        node.value.id == name


def item_names(name, count, taken):
    """Fresh parameter names for the items of tuple parameter ``name``."""
    names = []
    for i in range(count):
        candidate = f"{name}__{i}"
        while candidate in taken:
            candidate += "_"
        names.append(candidate)
    return names


def desugar(fdef, name, items, fields=None):
    """A copy of ``fdef`` (read-only) whose parameter ``name`` is replaced by the parameters
    ``items`` (module docstring), or None when it cannot be (the caller refuses then).
    ``fields``: a namedtuple's field names (``p.x`` -> its item); a namedtuple read whole
    other than by ``len``, ``for`` or unpacking cannot be rewritten (a plain tuple in its
    place would lose its class)."""
    for node in walk(fdef):
        if isinstance(node, gast.Name) and node.id == name and isinstance(
                node.ctx, (gast.Store, gast.Del)):
            return None
        if node is not fdef and isinstance(node, NESTED_SCOPES) and any(
                isinstance(n, gast.Name) and n.id == name for n in walk(node)):
            return None
    fdef = copy_tree(fdef)
    count = len(items)

    def item(i, where):
        return located(gast.Name(id=items[i], ctx=gast.Load(), annotation=None,
                                 type_comment=None), where)

    def display(where):
        return located(gast.Tuple(elts=[item(i, where) for i in range(count)],
                                  ctx=gast.Load()), where)

    class Rewrite(gast.NodeTransformer):
        whole = False       # a namedtuple read whole elsewhere than len/for/unpacking

        def visit_Attribute(self, node):
            if fields and isinstance(node.value, gast.Name) and node.value.id == name and \
                    isinstance(node.ctx, gast.Load) and node.attr in fields:
                return item(fields.index(node.attr), node)
            return self.generic_visit(node)

        def visit_Call(self, node):
            if isinstance(node.func, gast.Name) and node.func.id == "len" and len(
                    node.args) == 1 and isinstance(node.args[0], gast.Name) and \
                    node.args[0].id == name and not node.keywords:
                node.args = [display(node.args[0])]
                return node
            node.args = spliced_args(node.args, name, count, item)   # f(*t)
            return self.generic_visit(node)

        def visit_For(self, node):
            if isinstance(node.iter, gast.Name) and node.iter.id == name:
                node.iter = display(node.iter)
            return self.generic_visit(node)

        def visit_Subscript(self, node):
            index = _int_index(node.slice)
            if isinstance(node.value, gast.Name) and node.value.id == name and isinstance(
                    node.ctx, gast.Load) and index is not None and -count <= index < count:
                return item(index % count, node)
            return self.generic_visit(node)

        def visit_Assign(self, node):
            if isinstance(node.value, gast.Name) and node.value.id == name and all(
                    isinstance(t, (gast.Tuple, gast.List)) and len(t.elts) == count and not any(
                        isinstance(e, gast.Starred) for e in t.elts) for t in node.targets):
                node.value = display(node.value)
                node.targets = [self.visit(t) for t in node.targets]
                return node
            return self.generic_visit(node)

        def visit_Name(self, node):
            if node.id == name and isinstance(node.ctx, gast.Load):
                self.whole = True
                return display(node)
            return node

    rewrite = Rewrite()
    fdef.body = [rewrite.visit(stmt) for stmt in fdef.body]
    if fields is not None and rewrite.whole:
        return None
    args = fdef.args
    position = [a.id for a in args.args].index(name)
    args.args[position:position + 1] = [
        located(gast.Name(id=n, ctx=gast.Param(), annotation=None, type_comment=None),
                args.args[position]) for n in items]
    return fdef


def _int_index(node):
    """The int of a constant index (``1``, or ``-1``: gast spells it ``-(1)``), else None."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = _int_index(node.operand)
        return None if inner is None else -inner
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return node.value
    return None


def unpacking(name, items, where):
    """The statement ``t__0, t__1 = t`` that opens the generated entry (``t__0 = t[0]`` for
    one item: a one-name target is easy to emit as a plain assignment)."""
    if len(items) == 1:
        return located(gast.Assign(
            targets=[gast.Name(id=items[0], ctx=gast.Store(), annotation=None,
                               type_comment=None)],
            value=gast.Subscript(value=gast.Name(id=name, ctx=gast.Load(), annotation=None,
                                                 type_comment=None),
                                 slice=gast.Constant(value=0, kind=None), ctx=gast.Load()),
            type_comment=None), where)
    return located(gast.Assign(
        targets=[gast.Tuple(elts=[gast.Name(id=n, ctx=gast.Store(), annotation=None,
                                            type_comment=None) for n in items],
                            ctx=gast.Store())],
        value=gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None),
        type_comment=None), where)
