"""``f(*t)`` of a tuple display the function assigned to ``t`` becomes ``f(t[0], t[1], ...)``
(issue 20: ``t = (x, 2.0); helper(*t)`` fell back: "*args / **kwargs at a call are not
converted yet").

Python passes the items of the tuple object as positional arguments, in order (Python
reference, "Calls"); ``t[i]`` are those very objects, and reading a local tuple twice changes
nothing. Only where that is certain: ``t = (e0, ..., en)`` (no starred item) is ``t``'s only
assignment in the function, nothing deletes it or reads it from a nested function, lambda or
comprehension, and the call is in a statement after the assignment in the same block (so ``t``
is assigned wherever the call runs). Where every read of ``t`` is such a call or ``t[i]`` (a
constant index), after the assignment, no tuple is made at all: one local per item
(``t__0 = x; t__1 = 2.0``), so items of several types keep theirs. Tuple arguments are
rewritten earlier (passes/tuple_arguments.py).
"""

import gast

from ..analysis.scopes import NESTED_SCOPES
from ..nodes import copy_tree, located, walk
from .namedtuple_locals import _blocks
from .tuple_arguments import is_starred, item_names, spliced_args


def desugar(fdef):
    """A copy of ``fdef`` (read-only) with each such ``f(*t)`` spelled with ``t``'s items, or
    ``fdef`` itself when there is none."""
    plans = [(block_index, position, stmt) for block_index, block in enumerate(_blocks(fdef))
             for position, stmt in enumerate(block) if _tuple_of(fdef, stmt) is not None]
    if not plans:
        return fdef
    fdef = copy_tree(fdef)
    blocks = list(_blocks(fdef))
    for block_index, position, _ in plans:
        block = blocks[block_index]
        stmt = block[position]
        name, count = _tuple_of(fdef, stmt)
        items = None
        loads = sum(1 for n in walk(fdef) if isinstance(n, gast.Name) and
                    n.id == name and isinstance(n.ctx, gast.Load))
        later = sum(1 for s in block[position + 1:] for n in walk(s) if isinstance(
            n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load))
        if loads == later and _read_by_item_only(fdef, name, count):
            # one local per item: no tuple is made (a tuple of mixed types would be typed
            # as one, which Numba cannot hold exactly)
            items = item_names(name, count, {n.id for n in walk(fdef)
                                             if isinstance(n, gast.Name)})
            block[position:position + 1] = [located(gast.Assign(targets=[gast.Name(
                id=item, ctx=gast.Store(), annotation=None, type_comment=None)], value=value,
                type_comment=None), stmt) for item, value in zip(items, stmt.value.elts)]
            position += count - 1
        for later in block[position + 1:]:
            _splice(later, name, count, items)
    return fdef


def _read_by_item_only(fdef, name, count):
    """Whether every read of ``name`` is ``*name`` in a call's arguments or ``name[i]`` of a
    constant index in range."""
    allowed = set()
    for node in walk(fdef):
        if isinstance(node, gast.Call):
            allowed.update(id(a.value) for a in node.args if is_starred(a, name))
        elif isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name) and \
                node.value.id == name and isinstance(node.ctx, gast.Load) and isinstance(
                    node.slice, gast.Constant) and type(node.slice.value) is int and \
                0 <= node.slice.value < count:
            allowed.add(id(node.value))
    return all(id(n) in allowed for n in walk(fdef) if isinstance(n, gast.Name) and
               n.id == name and isinstance(n.ctx, gast.Load))


def _tuple_of(fdef, stmt):
    """``(name, item count)`` when ``stmt`` is ``t = (..)``, ``t``'s only binding (module
    docstring), else None."""
    if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Tuple) and not any(
                isinstance(e, gast.Starred) for e in stmt.value.elts)):
        return None
    name = stmt.targets[0].id
    for node in walk(fdef):
        if isinstance(node, gast.Name) and node.id == name and isinstance(
                node.ctx, (gast.Store, gast.Del, gast.Param)) and node is not stmt.targets[0]:
            return None
        if node is not fdef and isinstance(node, NESTED_SCOPES) and any(
                isinstance(n, gast.Name) and n.id == name for n in walk(node)):
            return None
    return name, len(stmt.value.elts)


def _splice(stmt, name, count, items):
    """``f(*t)`` in ``stmt`` (outside nested scopes) -> ``f(t[0], ..)`` (``f(t__0, ..)`` and
    ``t[i]`` -> ``t__i`` with ``items``), in place."""
    def item(i, where):
        if items is not None:
            return located(gast.Name(id=items[i], ctx=gast.Load(), annotation=None,
                                     type_comment=None), where)
        return located(gast.Subscript(value=gast.Name(
            id=name, ctx=gast.Load(), annotation=None, type_comment=None),
            slice=gast.Constant(value=i, kind=None), ctx=gast.Load()), where)

    class Rewrite(gast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            node.args = spliced_args(node.args, name, count, item)
            return node

        def visit_Subscript(self, node):
            if items is not None and isinstance(node.value, gast.Name) and \
                    node.value.id == name and isinstance(node.ctx, gast.Load):
                return item(node.slice.value, node)
            return self.generic_visit(node)

        def visit_Lambda(self, node):
            return node

        def visit_FunctionDef(self, node):
            return node

    Rewrite().visit(stmt)
