"""Activity analysis: which local names a statement or expression reads and writes.

Nested function definitions (the bodies of functional forms) are opaque: their inputs are
passed explicitly at the form's call, so they read nothing here and write only their own name.
"""
import gast


def reads(node):
    """Names loaded in ``node`` (an expression or a simple statement), comprehension variables
    excluded, nested function bodies excluded."""
    if node is None:
        return set()
    found, bound = set(), set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (gast.FunctionDef, gast.Lambda)):
            continue
        if isinstance(current, gast.comprehension):
            bound |= writes(current.target)
        if isinstance(current, gast.Name) and isinstance(current.ctx, gast.Load):
            found.add(current.id)
        elif isinstance(current, (gast.Subscript, gast.Attribute)) and isinstance(
                current.ctx, gast.Store):
            pass  # the base and index of a store target are loads; visited below
        stack.extend(gast.iter_child_nodes(current))
    return found - bound


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
        stack.extend(gast.iter_child_nodes(current))
    return found
