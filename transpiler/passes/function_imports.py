"""``import`` statements in a function's body bind static modules (issue 20: ``def f(x): import
math; return math.sqrt(x)``), before the number analyses run.

``import m`` binds the local ``m`` to ``sys.modules["m"]``, importing it first if it is not
there (language reference, "The import statement"); ``from m import n`` binds ``n`` to
``m.n`` (or the submodule ``m.n``). Only modules already imported are resolved here: then the
statement runs no code and gives the same object at every call, so the name is that module
(or attribute) for the whole function, as a global would be. The statement must be one of the
function's top-level statements, before every mention of the names it binds, and nothing else
in the function may bind them; otherwise it is left, and the specializer says it is not
converted.
"""
import copy
import sys

import gast
from ..nodes import walk

_MISSING = object()


def desugar(fdef):
    """``(fdef', bindings)``: a copy of ``fdef`` (gast.FunctionDef, read-only) without the
    imports it resolves and ``{local name: module or attribute}`` they bound; ``(fdef, {})``
    when there is none."""
    if not any(isinstance(s, (gast.Import, gast.ImportFrom)) for s in fdef.body):
        return fdef, {}
    bindings, kept = {}, []
    stores = _stores(fdef)
    for index, stmt in enumerate(fdef.body):
        found = _resolve(stmt) if isinstance(stmt, (gast.Import, gast.ImportFrom)) else None
        if found is None or any(
                name in bindings or stores.get(name, 0) != 0 or
                _mentioned_before(fdef.body[:index], name) for name in found):
            kept.append(stmt)
            continue
        bindings.update(found)
    if not bindings:
        return fdef, {}
    fdef = copy.copy(fdef)
    fdef.body = kept or [gast.Pass()]
    return fdef, bindings


def _resolve(stmt):
    """``{name: value}`` the import binds, when every module it names is imported already."""
    out = {}
    if isinstance(stmt, gast.Import):
        for alias in stmt.names:
            module = sys.modules.get(alias.name)
            if module is None:
                return None
            if alias.asname:
                out[alias.asname] = module
            else:
                top = sys.modules.get(alias.name.split(".")[0])
                if top is None:
                    return None
                out[alias.name.split(".")[0]] = top
        return out
    if stmt.level or not stmt.module:
        return None         # a relative import: the package is the caller's business
    module = sys.modules.get(stmt.module)
    if module is None:
        return None
    for alias in stmt.names:
        if alias.name == "*":
            return None
        value = getattr(module, alias.name, _MISSING)
        if value is _MISSING:
            value = sys.modules.get(f"{stmt.module}.{alias.name}", _MISSING)
        if value is _MISSING:
            return None     # ImportError where the plain call runs it: left to Python
        out[alias.asname or alias.name] = value
    return out


def _stores(fdef):
    """name -> how many times ``fdef`` binds it other than by an import (any nested scope
    mentioning it counts: a closure could read it before the import ran)."""
    counts = {}
    for node in walk(fdef):
        if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, (gast.FunctionDef, gast.ClassDef)) and node is not fdef:
            counts[node.name] = counts.get(node.name, 0) + 1
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            for name in node.names:
                counts[name] = counts.get(name, 0) + 1
    for arg in fdef.args.args + fdef.args.posonlyargs + fdef.args.kwonlyargs:
        counts[arg.id] = counts.get(arg.id, 0) + 1
    return counts


def _mentioned_before(stmts, name):
    return any(isinstance(n, gast.Name) and n.id == name for s in stmts for n in walk(s))
