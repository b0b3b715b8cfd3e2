"""Sets made in compiled code: where Numba's set differs from Python's.

Numba's set is its own hash table: iterating it (``for v in s``, ``list(s)``, ``sorted(s)``,
``return s``, ``min(s)``) visits the elements in another order than CPython's ``setobject.c``
(``list(set(a))`` of seven floats came back in another order), and it gives its elements back
as Numba boxes them (an np.float64 element came back a Python float; found by Numba's own
``test_sets`` usecases). So a set made in the function (a display ``{a, b}``, ``set(..)``,
``frozenset(..)``) compiles only where neither its order nor an element can reach a result:
as the right operand of ``in`` / ``not in``, measured by ``len``, and changed by ``add``,
``discard``, ``remove``, ``clear``, ``update``; any other use, or a set that is not bound to a
name or tested directly, runs as Python. Used by analysis.merge_problems.
"""
import builtins

import gast

from ..nodes import child_nodes, walk

_CHANGING = frozenset({"add", "discard", "remove", "clear", "update"})
_MESSAGE = ("a set used here other than by 'in', len() or add/discard/remove/clear/update: "
            "Numba's set iterates in another order than Python's and gives its elements back "
            "as its own number types")


def set_problem(analysis):
    """``(node, message)`` for a set made in the function (``analysis``: its ScalarTypes,
    for ``resolve``) used otherwise than the module docstring allows; else None."""
    fdef = analysis.fdef
    parents = {}
    for node in walk(fdef):
        for child in child_nodes(node):
            parents[id(child)] = node
    names = set()
    for node in walk(fdef):
        if not _makes_set(analysis, node):
            continue
        parent = parents.get(id(node))
        if _tested(node, parent):
            continue
        if isinstance(parent, gast.Assign) and parent.value is node and all(
                isinstance(t, gast.Name) for t in parent.targets):
            names.update(t.id for t in parent.targets)
            continue
        return node, _MESSAGE
    for node in walk(fdef):
        if isinstance(node, gast.Name) and node.id in names and isinstance(
                node.ctx, gast.Load) and not _harmless(node, parents.get(id(node)), parents):
            return node, _MESSAGE
    return None


def _makes_set(analysis, node):
    if isinstance(node, gast.Set):
        return True
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
            node.func.id in ("set", "frozenset"):
        return analysis.resolve(node.func) is getattr(builtins, node.func.id)
    return False


def _tested(node, parent):
    """Whether ``node`` is the right operand of an ``in`` / ``not in`` test."""
    return isinstance(parent, gast.Compare) and any(
        comparator is node and isinstance(op, (gast.In, gast.NotIn))
        for op, comparator in zip(parent.ops, parent.comparators))


def _harmless(node, parent, parents):
    if _tested(node, parent):
        return True
    if isinstance(parent, gast.Call) and isinstance(parent.func, gast.Name) and \
            parent.func.id == "len" and parent.args == [node]:
        return True
    if isinstance(parent, gast.Attribute) and parent.value is node and \
            parent.attr in _CHANGING:
        call = parents.get(id(parent))
        return isinstance(call, gast.Call) and call.func is parent and isinstance(
            parents.get(id(call)), gast.Expr)      # its result (None) not used
    return False
