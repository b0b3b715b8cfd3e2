"""A comprehension's variables get names of their own where the function binds the same name
elsewhere (``i = np.float32(2); out = [i * 2 for i in range(n)]``).

Since Python 3 a comprehension is a scope of its own (Python reference, "Displays for lists,
sets and dictionaries": only the first iterable is evaluated in the enclosing scope); PEP 709
(3.12) inlines it but keeps its variables isolated. graphjit's analyses and the code it emits
name variables per function: without this pass the comprehension's ``i`` would be typed as
the function's ``i`` (an np.float32 there: each element computed in float32). Renaming the
variables within the comprehension's own scope (its targets, conditions, element, and the
iterables after the first) changes nothing Python can see. A comprehension holding a nested
function, lambda or class is left as it is (their parameters may rebind the name).
"""

import gast

from ..analysis.scopes import parameter_names
from ..naming import fresh
from ..nodes import child_nodes, copy_tree, walk

COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)


def desugar(fdef):
    """A copy of ``fdef`` (gast.FunctionDef, read-only) whose comprehensions' variables that
    collide with another binding of the function are renamed (module docstring); ``fdef``
    itself when none collides."""
    if not any(_colliding(fdef, comp) for comp in _comprehensions(fdef)):
        return fdef
    fdef = copy_tree(fdef)
    taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)} | {fdef.name}
    for comp in _comprehensions(fdef):      # outer first: an inner one is renamed after
        renames = {}
        for name in _colliding(fdef, comp):
            renames[name] = fresh(f"{name}_c", taken)
            taken.add(renames[name])
        if renames:
            _rename(comp, renames)
    return fdef


def _comprehensions(fdef):
    return [n for n in walk(fdef) if isinstance(n, COMPREHENSIONS)]


def _targets(comp):
    return [n for g in comp.generators for n in walk(g.target) if isinstance(n, gast.Name)]


def _colliding(fdef, comp):
    """The names ``comp`` binds that the function also binds outside ``comp``'s targets (a
    parameter, an assignment, another comprehension's variable, an inner one's); [] where
    ``comp`` holds a nested function (left alone)."""
    if any(isinstance(n, _FUNCTIONS) for n in walk(comp)):
        return []
    own = {id(n) for n in _targets(comp)}
    names = {n.id for n in _targets(comp)}
    elsewhere = set(parameter_names(fdef)) | {
        n.id for n in walk(fdef) if isinstance(n, gast.Name) and isinstance(
            n.ctx, (gast.Store, gast.Del)) and id(n) not in own}
    return sorted(names & elsewhere)


def _rename(comp, renames):
    """Rename ``renames`` (old -> new) in ``comp``'s scope: all of it but the first iterable
    (and what a ``:=`` binds: the enclosing scope's)."""
    first_iter = comp.generators[0].iter

    def visit(node):
        if node is first_iter:
            return
        if isinstance(node, gast.NamedExpr):
            visit(node.value)
            return
        if isinstance(node, gast.Name) and node.id in renames:
            node.id = renames[node.id]
        for child in child_nodes(node):
            visit(child)
    visit(comp)
