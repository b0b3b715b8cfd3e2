"""Stores into attributes of the instance a jitted method is bound to (issue 20: ``self.count
+= 1; self.total += x``) become local variables, read from the instance when the call starts
and written back when it returns, before the number analyses run.

    def update(self, x):            def update(self, x):
        self.count += 1                 self_count = self.count        # a runtime input
        self.total += x         ->      self_total = self.total
        return self.total / n           self_count += 1
                                        self_total += x
                                        return (self_total / n, self_count, self_total)

The caller (transpiler.api) sets the attributes from the returned tuple and returns its first
item. Python stores each attribute when the statement runs; nothing can observe the instance
between the call's start and its end here, because ``self`` is used only to read and store
plain attributes (no method call, no other use of ``self``, no nested function naming it), so
the last value stored is all that shows, as in Python. When the compiled code raises, nothing
is written back and the call runs again as Python (it has no other effects: transpiler.api
checks), which stores and raises as Python does.

Only attributes the instance holds in its ``__dict__`` already, with a Python or NumPy number
or an ndarray, are rewritten; anything else is left (the specializer says a store into an
attribute is not converted).
"""

import gast
import numpy as np

from ..naming import fresh
from ..nodes import child_nodes, copy_tree, located, name, OwnScopeTransformer, walk

_NUMBERS = (bool, int, float, complex, np.number, np.bool_, np.ndarray)


def desugar(fdef, self_name, instance):
    """``(fdef', stored, reads)``: a copy of ``fdef`` (gast.FunctionDef, read-only) with the
    stores into ``self_name``'s attributes as locals; ``stored`` the attribute names in the
    order the returned tuple carries them; ``reads`` the ids of the ``self.attr`` nodes that
    read them at the start (runtime inputs, not constants). ``(fdef, [], set())`` when there
    is nothing to rewrite or it cannot be rewritten."""
    nothing = (fdef, [], set())
    stored = []
    for node in _own(fdef):
        target = None
        if isinstance(node, gast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        elif isinstance(node, gast.AugAssign):
            target = node.target
        if isinstance(target, gast.Attribute) and _is_self(target.value, self_name):
            if target.attr not in stored:
                stored.append(target.attr)
    if not stored:
        return nothing
    state = getattr(instance, "__dict__", None)
    if not isinstance(state, dict) or any(
            attr not in state or not isinstance(state[attr], _NUMBERS) or
            isinstance(getattr(type(instance), attr, None), property) for attr in stored):
        return nothing
    if not _self_only_for_attributes(fdef, self_name):
        return nothing
    fdef = copy_tree(fdef)
    taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)} | {fdef.name}
    local = {}
    for attr in stored:
        local[attr] = fresh(f"{self_name}_{attr}", taken)
        taken.add(local[attr])

    class Rewrite(OwnScopeTransformer):
        def visit_Attribute(self, node):
            self.generic_visit(node)
            if _is_self(node.value, self_name) and node.attr in local:
                ctx = gast.Store() if isinstance(node.ctx, gast.Store) else gast.Load()
                return located(gast.Name(id=local[node.attr], ctx=ctx, annotation=None,
                                         type_comment=None), node)
            return node

        def visit_Return(self, node):
            value = node.value if node.value is not None else gast.Constant(value=None,
                                                                              kind=None)
            node.value = located(gast.Tuple(elts=[self.visit(value)] + [
                name(local[a]) for a in stored], ctx=gast.Load()), node)
            return node

    Rewrite(fdef).visit(fdef)
    reads = set()
    start = []
    for attr in stored:
        read = gast.Attribute(value=name(self_name), attr=attr, ctx=gast.Load())
        reads.add(id(read))
        start.append(located(gast.Assign(targets=[name(local[attr], store=True)], value=read,
                                         type_comment=None), fdef.body[0]))
    body = start + fdef.body
    if not isinstance(body[-1], gast.Return):
        end = gast.Return(value=gast.Tuple(elts=[gast.Constant(value=None, kind=None)] + [
            name(local[a]) for a in stored], ctx=gast.Load()))
        body.append(located(end, fdef.body[-1]))
    fdef.body = body
    return fdef, stored, reads


def _is_self(node, self_name):
    return isinstance(node, gast.Name) and node.id == self_name


def _own(fdef):
    stack = list(fdef.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            stack.extend(child_nodes(node))


def _self_only_for_attributes(fdef, self_name):
    """Whether every use of ``self_name`` is ``self.attr`` read or stored, not called (a
    method could read what the call stored), and no nested scope names it."""
    parents = {}
    for node in walk(fdef):
        for child in child_nodes(node):
            parents[id(child)] = node
    for node in walk(fdef):
        if isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)) and \
                node is not fdef and any(_is_self(n, self_name) for n in walk(node)):
            return False
        if isinstance(node, (gast.Global, gast.Nonlocal)) and self_name in node.names:
            return False
        if not _is_self(node, self_name) or id(node) not in parents:
            continue
        parent = parents[id(node)]
        if isinstance(parent, gast.arguments):
            continue        # the parameter itself
        if not isinstance(node.ctx, gast.Load) or not isinstance(parent, gast.Attribute):
            return False    # `self = ...`, `f(self)`, `return self`
        above = parents.get(id(parent))
        if isinstance(above, gast.Call) and above.func is parent:
            return False    # `self.method(...)`
    return True
