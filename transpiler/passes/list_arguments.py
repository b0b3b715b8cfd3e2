"""A list argument of Python numbers of one type is read as a 1-D NumPy array whose elements
come back as the Python numbers they were (issue 20: ``def total(xs): for v in xs: ...``).

Numba would take a Python list as a *reflected list*: deprecated, copied in and written back
at every call, and typed by Numba's rules (a float stored into an int list truncated). A list
that the function only reads needs none of that. The dispatcher's ``_prepare``
(backends/base.py) converts the list at each call (transpiler.type_keys.list_array:
``np.array(xs, dtype=int64)``, a copy: nothing compiled code does reaches the caller's
list), after the specialization's guard checked that every element is exactly an ``int``
(within int64), a ``float`` or a ``bool`` (transpiler.type_keys.list_element_type; an empty
list is typed as an int list: no element is ever read from it). Within the specialization
the function reads the array through this rewrite, so each element read is the Python
number Python reads:

- ``xs[i]`` (an index, not a slice) -> ``int(xs[i])`` (``float``/``bool`` for those lists);
  an index out of range raises IndexError as a list's does (compiled code checks bounds);
- ``for v in xs:`` -> ``for e in xs: v = int(e)`` (and ``for i, v in enumerate(xs)``);
- ``sum(xs)``, ``any(xs)``, ``all(xs)`` -> the same of ``(int(e) for e in xs)``, which
  passes/comprehensions.py lowers to a loop (``sum`` from the int 0, as Python's);
- a comprehension iterating ``xs`` first, into a name bound nowhere else in it:
  ``(v * v for v in xs)`` -> ``(int(e) * int(e) for e in xs)`` (the name's every read is
  the element; ``int`` of an array element is pure);
- ``len(xs)`` as it is (an array's length is the list's).

Any other use of ``xs`` (a store into it, a method call, a slice, ``in``, passing it on,
returning it, a read in a nested function or in another comprehension) returns None: the caller refuses
the argument then (naming that use) and the call runs as Python, as before. Sources: Python's list semantics
(language reference, "Subscriptions"; ``sum`` starts from 0), NumPy's ``np.array`` (an int
beyond int64 raises OverflowError: the guard fails, the call is decided again and falls
back).
"""

import gast

from ..analysis.scopes import NESTED_SCOPES
from ..naming import fresh
from ..nodes import copy_tree, located, walk

# element type -> (the builtin that reads an element back, the array's dtype name)
ELEMENTS = {int: ("int", "int64"), float: ("float", "float64"), bool: ("bool", "bool")}
_CONSUMERS = ("sum", "any", "all")


def desugar(fdef, name, kind, shadowed):
    """``(copy, None)``: a copy of ``fdef`` (read-only) reading its parameter ``name``, a list
    of ``kind`` elements taken as an array, as the module docstring says; ``(None, node)``
    when ``name`` is used another way, at ``node`` (the caller refuses the argument). ``shadowed(identifier)``: whether a builtin's
    name means something else in the function (passes.comprehensions.builtin_shadowed): the
    rewrite then leaves that call alone (and so refuses the list)."""
    convert = ELEMENTS[kind][0]
    if shadowed(convert):
        return None, fdef
    for node in walk(fdef):
        if isinstance(node, gast.Name) and node.id == name and isinstance(
                node.ctx, (gast.Store, gast.Del)):
            return None, node
        if node is not fdef and isinstance(node, NESTED_SCOPES) and not _iterates(
                node, name) and any(isinstance(n, gast.Name) and n.id == name
                                    for n in walk(node)):
            return None, node
    fdef = copy_tree(fdef)
    taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)} | {fdef.name}

    def is_list(node):
        return isinstance(node, gast.Name) and node.id == name and isinstance(
            node.ctx, gast.Load)

    def element(value, where):
        return located(gast.Call(func=_load(convert, where), args=[value], keywords=[]),
                       where)

    def temp():
        made = fresh(f"{name}_item", taken)
        taken.add(made)
        return made

    class Rewrite(gast.NodeTransformer):
        other = None        # the first use the rewrite does not cover

        def visit_Name(self, node):
            if is_list(node) and self.other is None:
                self.other = node
            return node

        def visit_Subscript(self, node):
            if is_list(node.value) and isinstance(node.ctx, gast.Load) and not isinstance(
                    node.slice, gast.Slice):
                node.slice = self.visit(node.slice)
                return element(node, node)
            return self.generic_visit(node)

        def visit_Call(self, node):
            func = node.func
            if isinstance(func, gast.Name) and len(node.args) == 1 and not node.keywords \
                    and is_list(node.args[0]) and not shadowed(func.id):
                if func.id == "len":
                    return node
                if func.id in _CONSUMERS:
                    item = temp()
                    node.args = [located(gast.GeneratorExp(
                        elt=element(_load(item, node), node),
                        generators=[gast.comprehension(
                            target=_store(item, node), iter=node.args[0], ifs=[],
                            is_async=0)]), node)]
                    return node
            return self.generic_visit(node)

        def _comprehension(self, node):
            if not _iterates(node, name):
                return self.generic_visit(node)
            first = node.generators[0]
            item, variable = temp(), first.target.id
            first.target = _store(item, node)

            class Substitute(gast.NodeTransformer):     # v -> int(item): v's only binding
                def visit_Name(self, read):
                    if read.id == variable and isinstance(read.ctx, gast.Load):
                        return element(_load(item, read), read)
                    return read
            first.ifs = [self.visit(Substitute().visit(c)) for c in first.ifs]
            for comp in node.generators[1:]:
                comp.iter = self.visit(Substitute().visit(comp.iter))
                comp.ifs = [self.visit(Substitute().visit(c)) for c in comp.ifs]
            for field in ("elt", "key", "value"):
                if hasattr(node, field):
                    setattr(node, field, self.visit(Substitute().visit(getattr(node, field))))
            return node

        visit_GeneratorExp = visit_ListComp = visit_SetComp = visit_DictComp = _comprehension

        def visit_For(self, node):
            target = None
            if is_list(node.iter):
                target, item = node.target, temp()
                node.target = _store(item, node)
            elif _enumerates(node.iter, is_list) and not shadowed("enumerate") and isinstance(
                    node.target, gast.Tuple) and len(node.target.elts) == 2:
                target, item = node.target.elts[1], temp()
                node.target.elts[1] = _store(item, node)
                node.iter.args[1:] = [self.visit(a) for a in node.iter.args[1:]]
            if target is None:
                return self.generic_visit(node)
            node.target = self.visit(node.target)
            node.body = [located(gast.Assign(targets=[target],
                                             value=element(_load(item, node), node),
                                             type_comment=None), node)] + node.body
            node.body = [self.visit(stmt) for stmt in node.body]
            node.orelse = [self.visit(stmt) for stmt in node.orelse]
            return node

    rewrite = Rewrite()
    fdef.body = [rewrite.visit(stmt) for stmt in fdef.body]
    if rewrite.other is not None:
        return None, rewrite.other
    return fdef, None


def _iterates(node, name):
    """Whether comprehension ``node`` reads list ``name`` only as its first iterable (which
    the enclosing scope evaluates), into a plain name bound nowhere else in it, and holds no
    nested function (so every read of that name is the comprehension's own)."""
    if not isinstance(node, (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)):
        return False
    first = node.generators[0]
    if not (isinstance(first.iter, gast.Name) and first.iter.id == name and isinstance(
            first.target, gast.Name)) or first.target.id == name:
        return False
    for n in walk(node):
        if isinstance(n, (gast.Lambda, gast.FunctionDef, gast.ClassDef)):
            return False
        if isinstance(n, gast.Name) and n is not first.iter and n.id == name:
            return False
        if isinstance(n, gast.Name) and n is not first.target and n.id == first.target.id \
                and not isinstance(n.ctx, gast.Load):
            return False
    return True


def _enumerates(node, is_list):
    """Whether ``node`` is ``enumerate(xs)`` or ``enumerate(xs, start)`` of the list."""
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "enumerate" and 1 <= len(node.args) <= 2 and not node.keywords and \
        is_list(node.args[0])


def _load(ident, where):
    return located(gast.Name(id=ident, ctx=gast.Load(), annotation=None, type_comment=None),
                   where)


def _store(ident, where):
    return located(gast.Name(id=ident, ctx=gast.Store(), annotation=None, type_comment=None),
                   where)
