"""``del`` of local names nothing reads afterwards becomes a read of each name (issue 20:
``t = a * 2; ...; del t``), before the number analyses run.

``del x`` unbinds ``x``; it raises UnboundLocalError when ``x`` is not bound (language
reference, "The del statement"), exactly as reading ``x`` would. Where no later read could see
the name unbound, only that error is observable, so ``del x`` is replaced by the expression
statement ``x``: compiled code raises Python's UnboundLocalError at it where ``x`` may be
unassigned (passes/definedness_flags.py). Freeing the value sooner is not observable in compiled
code (Numba frees a value when its variable dies).

"Nothing reads it afterwards" is judged conservatively, in source order: no read of the name
after the ``del``; in each loop around it, every iteration binds the name before it could read
it (the next iteration would otherwise read it unbound); no nested function or lambda naming
it. Anything else (``del a[i]``, ``del obj.x``, a
name read later) is left, and the specializer says it is not converted.
"""

import gast

from ..nodes import child_nodes, copy_tree, located, OwnScopeTransformer, walk


def desugar(fdef):
    """A copy of ``fdef`` (gast.FunctionDef, read-only: shared by every specialization) with
    the ``del`` statements it may drop as reads, or ``fdef`` itself when there is none."""
    if not any(isinstance(n, gast.Delete) for n in walk(fdef)):
        return fdef
    fdef = copy_tree(fdef)
    parents = {}
    for node in walk(fdef):
        for child in child_nodes(node):
            parents[id(child)] = node
    nested = {n.id for scope in walk(fdef) if scope is not fdef and isinstance(
        scope, (gast.FunctionDef, gast.Lambda, gast.ClassDef)) for n in walk(scope)
        if isinstance(n, gast.Name)}
    loads = [n for n in walk(fdef) if isinstance(n, gast.Name) and
             isinstance(n.ctx, gast.Load)]

    def droppable(stmt):
        if not stmt.targets or not all(isinstance(t, gast.Name) for t in stmt.targets):
            return False
        where = (stmt.lineno, stmt.col_offset)
        loops, node = [], stmt
        while id(node) in parents:
            node = parents[id(node)]
            if isinstance(node, (gast.For, gast.While)):
                loops.append(node)
        for target in stmt.targets:
            if target.id in nested or any(
                    read.id == target.id and (read.lineno, read.col_offset) > where
                    for read in loads):
                return False
            if not all(_rebound_first(loop, target.id) for loop in loops):
                return False
        return True

    class Rewrite(OwnScopeTransformer):
        def visit_Delete(self, node):
            if not droppable(node):
                return node
            return [located(gast.Expr(value=gast.Name(
                id=t.id, ctx=gast.Load(), annotation=None, type_comment=None)), node)
                for t in node.targets]

    Rewrite(fdef).visit(fdef)
    return fdef


def _mentions(node, identifier):
    return any(isinstance(n, gast.Name) and n.id == identifier for n in walk(node))


def _rebound_first(loop, identifier):
    """Whether every iteration of ``loop`` binds ``identifier`` before it could read it: no
    mention of it in the loop at all, the loop's own ``for`` target, or the first statement
    of the body that mentions it is ``identifier = <value not naming it>`` (a ``while`` test
    must not name it: it is read before the body)."""
    if not _mentions(loop, identifier):
        return True
    if isinstance(loop, gast.For) and _mentions(loop.target, identifier):
        return True
    if isinstance(loop, gast.While) and _mentions(loop.test, identifier):
        return False
    first = next((s for s in loop.body if _mentions(s, identifier)), None)
    return isinstance(first, gast.Assign) and len(first.targets) == 1 and isinstance(
        first.targets[0], gast.Name) and first.targets[0].id == identifier and not _mentions(
            first.value, identifier)
