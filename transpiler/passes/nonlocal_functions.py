"""Nested functions that assign enclosing variables (``nonlocal``) become functional: the
variables go in as leading parameters and come back as leading items of the result, which
each call assigns back (issue 20: ``def bump(k): nonlocal count; count += k``), before the
number analyses run.

Python: a ``nonlocal`` name in ``g`` is the enclosing function's variable itself (a cell, the
language reference's "Naming and binding"): ``g`` reads it when it runs and its assignments are
seen by the enclosing function after the call. Passing the variable's value at the call and
assigning the returned value after it gives the same values wherever nothing but the call can
observe the variable in between. That holds when

- ``g`` is a ``def`` at the top level of the function body, bound once, not decorated, with
  plain positional parameters, and no function nested in it declares ``nonlocal``/``global``;
- each ``nonlocal`` name is a parameter of the enclosing function or assigned by a top-level
  statement before the ``def`` (so it is bound at every call: Python's NameError for an unbound
  free variable cannot happen), and is never deleted;
- every use of ``g`` is a call that is a whole statement's value: ``g(...)``, ``x = g(...)``
  (any targets: Python evaluates the value before the targets), ``return g(...)``, or
  ``x op= g(...)`` of a name ``g`` does not assign; in the enclosing function or in ``g``
  itself (recursion), never in another nested function, a lambda or a comprehension; its
  arguments call no such function and bind no name (the variables are read at the call, after
  the arguments, as ``g`` would read them);
- ``g`` calls no other nested function but writers of its own variables (another one would
  read them from the enclosing function, not yet assigned back);
- the enclosing function has no ``try`` (an exception leaving ``g`` after an assignment loses
  it here; without a handler nothing reads the variable again).

``return v`` in ``g`` becomes ``return (n1, ..., nk, v)``, falling off its end ``(n1, ...,
nk, None)``; a call ``x = g(a)`` becomes ``(n1, ..., nk, t) = g(n1, ..., nk, a); x = t``.
Anything else is left as it is, and the specializer says that a nonlocal declaration is not
converted.
"""

import gast

from ..analysis.scopes import local_names, NESTED_SCOPES, own_nodes, parameter_names
from ..nodes import const, copy_tree, located, name, rewrite_blocks, walk


def desugar(fdef, hoist=None):
    """A copy of ``fdef`` (gast.FunctionDef, read-only: shared by every specialization) with
    its nested functions that assign ``nonlocal`` variables made functional (module
    docstring), or ``fdef`` itself when there is none or one cannot be. ``hoist(fdef,
    protected)``: passes.named_expressions.desugar, which moves a call inside an expression
    (``if push(v):``, ``y = bump() * 2``, a ``while`` test) before its statement where
    Python's order allows, none of the variables being read before it; None: such calls
    are not converted."""
    if not any(isinstance(n, gast.Nonlocal) for n in walk(fdef)):
        return fdef
    original, fdef = fdef, copy_tree(fdef)
    writers = _writers(fdef)
    if not writers:
        return original
    fresh = _Fresh(local_names(fdef))
    if hoist is not None and _mark(fdef, writers, fresh):
        protected = {n for _, names in writers.values() for n in names}
        fdef = hoist(fdef, protected)
        fdef.body = [hoist(s, protected) if isinstance(s, gast.FunctionDef) and s.name in
                     writers else s for s in fdef.body]
        writers = _writers(fdef)
    if not all(_eligible(fdef, g, names, writers) for g, names in writers.values()):
        return original
    arity = {name: _tuple_arity(g) for name, (g, _) in writers.items()}
    for g, names in writers.values():
        g.body = [s for s in g.body if not isinstance(s, gast.Nonlocal)]
        g.args.args[:0] = [gast.Name(id=n, ctx=gast.Param(), annotation=None,
                                     type_comment=None) for n in names]
        g.body = rewrite_blocks(g.body, lambda stmt: _calls(stmt, writers, fresh, arity))
        g.body = rewrite_blocks(g.body, lambda stmt, names=names, flat=arity[g.name]: _returns(
            stmt, names, flat))
        if not g.body or not isinstance(g.body[-1], gast.Return):
            g.body.append(located(gast.Return(value=_items(names, const(None))), g.body[-1]
                                  if g.body else g))
    fdef.body = rewrite_blocks(fdef.body, lambda stmt: _calls(stmt, writers, fresh, arity))
    return fdef


def _writers(fdef):
    """name -> (FunctionDef, the names it declares nonlocal) of the top-level nested
    functions with a ``nonlocal`` declaration."""
    writers = {}
    for stmt in fdef.body:
        if isinstance(stmt, gast.FunctionDef):
            declared = [n for node in own_nodes(stmt) if isinstance(node, gast.Nonlocal)
                        for n in node.names]
            if declared:
                writers[stmt.name] = (stmt, list(dict.fromkeys(declared)))
    return writers


def _mark(fdef, writers, fresh):
    """Wrap each call of a writer that is not a statement's whole value (in ``fdef``'s own
    scope and the writers' own) in a named expression ``(_nonlocal_call_k := g(...))``, for
    ``hoist`` to move; not inside lambdas and comprehensions (their own scopes). Whether any
    was wrapped."""
    scopes = [fdef] + [g for g, _ in writers.values()]
    whole = {id(node.value) for scope in scopes for node in own_nodes(scope)
             if isinstance(node, (gast.Expr, gast.Assign, gast.Return, gast.AugAssign))
             and _writer_call(node.value, writers) is not None}
    wrapped = []

    class Wrap(gast.NodeTransformer):
        def visit_FunctionDef(self, node):
            return node                 # a nested function: its own scope (or a writer's)

        def visit_Lambda(self, node):
            return node

        visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda

        def visit_Call(self, node):
            self.generic_visit(node)
            if _writer_call(node, writers) is None or id(node) in whole:
                return node
            wrapped.append(node)
            return located(gast.NamedExpr(target=name(fresh("_nonlocal_call"), store=True),
                                          value=node), node)

    for scope in scopes:
        scope.body = [Wrap().visit(stmt) for stmt in scope.body]
    return bool(wrapped)


class _Fresh:
    def __init__(self, taken):
        self.taken = set(taken)

    def __call__(self, base):
        index = 0
        while f"{base}_{index}" in self.taken:
            index += 1
        self.taken.add(f"{base}_{index}")
        return f"{base}_{index}"


def _items(names, value, flat=None):
    values = list(value.elts) if flat is not None else [value]
    return gast.Tuple(elts=[name(n) for n in names] + values, ctx=gast.Load())


def _tuple_arity(g):
    """The length of the tuple displays ``g`` returns when every return of its own scope is
    one of that length and its body ends in a return (its result is then flattened into
    the returned tuple, so each item keeps its type: ``a, b = g(x)``); else None."""
    returns = [n for n in own_nodes(g) if isinstance(n, gast.Return)]
    if not returns or not g.body or not isinstance(g.body[-1], gast.Return):
        return None
    sizes = {len(r.value.elts) if isinstance(r.value, gast.Tuple) and not any(
        isinstance(e, gast.Starred) for e in r.value.elts) else None for r in returns}
    return sizes.pop() if len(sizes) == 1 else None


def _returns(stmt, names, flat=None):
    """``return v`` -> ``return (n1, ..., v)``, ``return (v1, v2)`` -> ``return (n1, ...,
    v1, v2)`` where ``flat`` (in ``g``'s own scope: rewrite_blocks keeps out of nested
    functions)."""
    if isinstance(stmt, gast.Return):
        value = stmt.value if stmt.value is not None else const(None)
        return [located(gast.Return(value=_items(names, value, flat)), stmt)]
    return [stmt]


def _writer_call(node, writers):
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
            node.func.id in writers:
        return node
    return None


def _calls(stmt, writers, fresh, arity):
    """The statement ``stmt`` with its call of a writer made functional (module docstring)."""
    call = _writer_call(getattr(stmt, "value", None), writers)
    if call is None or not isinstance(stmt, (gast.Expr, gast.Assign, gast.Return,
                                             gast.AugAssign)):
        return [stmt]
    names = writers[call.func.id][1]
    size = arity.get(call.func.id)
    results = [fresh(f"{call.func.id}_result") for _ in range(1 if size is None else size)]
    call.args[:0] = [name(n) for n in names]
    unpack = located(gast.Assign(
        targets=[gast.Tuple(elts=[name(n, store=True) for n in names + results],
                            ctx=gast.Store())], value=call, type_comment=None), stmt)
    if isinstance(stmt, gast.Expr):
        return [unpack]
    stmt.value = located(name(results[0]) if size is None else gast.Tuple(
        elts=[name(r) for r in results], ctx=gast.Load()), stmt)
    return [unpack, stmt]


def _eligible(fdef, g, names, writers):
    """Whether the writer ``g`` of ``names`` may be made functional (module docstring)."""
    args = g.args
    if g.decorator_list or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        return False
    if any(isinstance(n, (gast.Nonlocal, gast.Global)) for scope in walk(g)
           if scope is not g and isinstance(scope, NESTED_SCOPES) for n in walk(scope)):
        return False
    own = list(own_nodes(fdef))
    if any(isinstance(n, (gast.Try, gast.Nonlocal, gast.Global)) for n in own) or any(
            isinstance(n, getattr(gast, "TryStar", gast.Try)) for n in own):
        return False
    bound_here = set(parameter_names(fdef))
    for stmt in fdef.body:
        if stmt is g:
            break
        if isinstance(stmt, (gast.Assign, gast.AnnAssign)) and (
                not isinstance(stmt, gast.AnnAssign) or stmt.value is not None):
            targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
            bound_here |= {n.id for t in targets for n in walk(t)
                           if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)}
    if not set(names) <= bound_here:
        return False
    for n in walk(fdef):
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Del) and n.id in names:
            return False
        if isinstance(n, gast.FunctionDef) and n is not g and n.name == g.name:
            return False
        if isinstance(n, gast.Name) and n.id == g.name and not isinstance(n.ctx, gast.Load):
            return False
    # Another nested function of fdef called from g would read the variables from fdef,
    # where they are not yet assigned back: not converted.
    functions = {n.name for n in walk(fdef) if isinstance(n, gast.FunctionDef)
                 and n is not fdef} | {t.id for n in walk(fdef) if isinstance(
                     n, gast.Assign) and isinstance(n.value, gast.Lambda) for t in n.targets
                     if isinstance(t, gast.Name)}
    for node in own_nodes(g):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) and \
                node.id in functions and not (node.id in writers and set(
                    writers[node.id][1]) <= set(names)):
            return False
    # Every load of a writer: the function of a call that is a whole statement's value, in
    # the enclosing function's own scope or in a writer's own scope.
    allowed = set()
    for scope in [fdef] + [w for w, _ in writers.values()]:
        for node in own_nodes(scope):
            if not isinstance(node, gast.stmt):
                continue
            call = _writer_call(getattr(node, "value", None), writers)
            if call is None or not isinstance(node, (gast.Expr, gast.Assign, gast.Return,
                                                     gast.AugAssign)):
                continue
            if isinstance(node, gast.AugAssign) and (not isinstance(
                    node.target, gast.Name) or node.target.id in writers[call.func.id][1]):
                continue
            if call.keywords or any(isinstance(a, gast.Starred) for a in call.args) or any(
                    isinstance(n, gast.NamedExpr) or (isinstance(n, gast.Name) and n.id in
                                                      writers) for a in call.args
                    for n in walk(a)):
                continue
            if scope is not fdef and not set(writers[call.func.id][1]) <= set(
                    writers[scope.name][1]):
                continue    # what the callee assigns must be the caller's parameters too
            allowed.add(id(call.func))
    return all(id(n) in allowed for n in walk(fdef)
               if isinstance(n, gast.Name) and n.id == g.name and isinstance(n.ctx, gast.Load))

