"""Scope analysis: which names of a function are local (Python's rule: a name bound anywhere in
the function body is local everywhere in it, unless declared ``global``/``nonlocal``)."""
import copy

import gast
from ..nodes import child_nodes, walk


def parameter_names(fdef):
    """Names of all parameters of ``fdef`` (gast.FunctionDef), in order."""
    args = fdef.args
    names = [a.id for a in args.posonlyargs + args.args]
    if args.vararg:
        names.append(args.vararg.id)
    names += [a.id for a in args.kwonlyargs]
    if args.kwarg:
        names.append(args.kwarg.id)
    return names


def local_names(fdef):
    """The set of local names of ``fdef``: its parameters and every name it binds.

    Binding forms (Python reference, "Naming and binding"): assignment targets, ``for``
    targets, ``with ... as``, ``except ... as``, imports, nested ``def``/``class`` names, and
    comprehension targets (local to the comprehension in Python 3; counted here so they are
    never resolved as globals).
    """
    names = set(parameter_names(fdef))
    for node in walk(fdef):
        if node is fdef:
            continue
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            names.add(node.id)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, gast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, gast.ExceptHandler) and node.name is not None:
            if isinstance(node.name, gast.Name):
                names.add(node.name.id)
    return names


NESTED_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
                 gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
"""Nodes that open a scope of their own inside a function (Python reference, "Naming and
binding"; comprehensions since Python 3)."""


def own_nodes(fdef):
    """The nodes of ``fdef`` outside its nested scopes. A nested scope's node itself is
    included (it is a statement or an expression of ``fdef``), its contents are not."""
    stack = list(child_nodes(fdef))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, NESTED_SCOPES):
            stack.extend(child_nodes(node))


def nested_reads(fdef):
    """Names read inside the nested functions, lambdas and comprehensions of ``fdef``: a
    closure reads them when it is called, which def-use chains and liveness of ``fdef``
    do not see."""
    found = set()
    for scope in own_nodes(fdef):
        if isinstance(scope, NESTED_SCOPES):
            reads = {n.id for n in walk(scope) if isinstance(n, gast.Name)
                     and isinstance(n.ctx, gast.Load)}
            found |= reads - scope_locals(scope)
    return found


def scope_locals(scope):
    """The names a nested function or lambda binds itself (its parameters, what its own code
    assigns): reading them never reads the enclosing function's variable. Empty for a
    comprehension (its reads all count: an over-approximation, which is safe)."""
    if not isinstance(scope, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)):
        return set()
    declared = {n for node in own_nodes(scope) if isinstance(node, (gast.Nonlocal, gast.Global))
                for n in node.names}
    names = set(parameter_names(scope))
    for node in own_nodes(scope):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            names.add(node.id)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            names.add(node.name)
    return names - declared


def local_definitions(fdef):
    """The nested functions of ``fdef`` that calls can be typed through: name -> FunctionDef,
    for a ``def`` at the top level of its body or of a loop's body, or ``name = lambda ...``
    there (as a FunctionDef returning the lambda's body), the name bound nowhere else in
    ``fdef``."""
    found, stores = {}, {}
    bodies = [fdef.body] + [node.body for node in own_nodes(fdef)
                            if isinstance(node, (gast.For, gast.While))]
    for stmt in (stmt for body in bodies for stmt in body):
        if isinstance(stmt, gast.FunctionDef) and not stmt.decorator_list:
            found[stmt.name] = stmt
        elif isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Lambda):
            lam = stmt.value
            fn = gast.FunctionDef(name=stmt.targets[0].id, args=copy.copy(lam.args),
                                  body=[gast.Return(value=lam.body)], decorator_list=[],
                                  returns=None, type_comment=None, type_params=[])
            found[stmt.targets[0].id] = fn
    for node in own_nodes(fdef):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, gast.FunctionDef):
            stores[node.name] = stores.get(node.name, 0) + 1
    for arg in fdef.args.args:
        stores[arg.id] = stores.get(arg.id, 0) + 1
    return {name: fn for name, fn in found.items() if stores.get(name, 0) == 1 and not (
        fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs or fn.args.posonlyargs)}
