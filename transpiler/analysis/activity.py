"""Activity analysis: which local names a statement or expression reads and writes.

Nested function definitions (the bodies of functional forms) are opaque: their inputs are
passed explicitly at the form's call, so they read nothing here and write only their own name.
"""
import gast
from ..nodes import child_nodes


def reads(node):
    """Names loaded in ``node`` (an expression or a simple statement), comprehension variables
    excluded, nested function bodies excluded."""
    if node is None:
        return set()
    found, bound = set(), None
    stack = [node]
    pop, push, extend = stack.pop, stack.append, stack.extend
    ast_node = gast.AST
    while stack:
        current = pop()
        kind = type(current)
        if kind is gast.Name:
            # a Name's other fields hold no names here (annotations only on parameters,
            # which belong to the nested defs and lambdas skipped below)
            if type(current.ctx) is gast.Load:
                found.add(current.id)
            continue
        if kind is gast.FunctionDef or kind is gast.Lambda:
            continue
        if kind is gast.comprehension:
            bound = writes(current.target) | (bound or set())
        for field in current._fields:   # gast.iter_child_nodes, without its generators
            value = getattr(current, field, None)
            if isinstance(value, ast_node):
                push(value)
            elif type(value) is list:
                extend(v for v in value if isinstance(v, ast_node))
    return found - bound if bound else found


def writes(node):
    """Names stored by ``node`` (an assignment target or a statement); a nested def writes its
    name."""
    if node is None:
        return set()
    if isinstance(node, gast.FunctionDef):
        return {node.name}
    found = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, gast.FunctionDef):
            found.add(current.name)
            continue
        if isinstance(current, gast.comprehension):
            continue
        if isinstance(current, gast.Name) and isinstance(current.ctx, gast.Store):
            found.add(current.id)
        stack.extend(child_nodes(current))
    return found
