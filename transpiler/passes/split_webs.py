"""Split each variable into its webs: one name per set of definitions that reach common uses.

Numba gives a variable one type for the whole function: ``y = 1`` then ``y = a[0] * 2`` makes
``y`` a float64 everywhere (measured, Numba 0.68), where Python holds an int, then an
np.float32. A *web* (the register-allocation term: the union of the def-use chains that share a
use) is the unit Python's types really flow in: definitions that reach a common use must share a
type at run time only if the program merges them. Renaming every web but one to a fresh name
(``y__2``) keeps the program's meaning (no use can see two webs) and lets Numba type each web by
itself, so only real merges (``s = 0.0`` before a loop, ``s += a[i]`` in it) are unified.
:mod:`transpiler.analysis.scalar_types` then decides whether a merge changes a result.

``y op= v`` is both a use of ``y`` and a definition. On a scalar (``scalar_update(node)``) it is
rewritten ``y__2 = y op v`` so the definition may start a web of its own; on anything else
(an array updated in place) the definition stays in the web of what it updates.

Names read by a nested function, lambda or comprehension, and names read where no definition
reaches (a global of the same name, or a maybe-undefined read reported later) keep one name.
Def-use chains come from beniget.
"""

import gast

from ..analysis.def_use import QuietDefUseChains
from ..analysis.scopes import NESTED_SCOPES, own_nodes, scope_locals
from ..naming import web_name
from ..nodes import copy_tree, walk

def _own_nodes(fdef):
    """Nodes of ``fdef`` outside nested scopes, and every name used inside them."""
    own, nested = [], set()
    for node in own_nodes(fdef):
        if isinstance(node, NESTED_SCOPES):
            # (a nested function's own parameters and locals are not the names of fdef)
            nested |= {n.id for n in walk(node) if isinstance(n, gast.Name)} - \
                scope_locals(node)
            if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
                nested.add(node.name)
        else:
            own.append(node)
    return own, nested


def split_webs(fdef, scalar_update=lambda node: False, reaching=None):
    """A copy of ``fdef`` whose variables are renamed web by web (see the module docstring).

    Args:
        fdef (gast.FunctionDef): the function (not changed).
        scalar_update (callable): ``scalar_update(augassign)`` -> True when the target of that
            ``x op= v`` (a gast.AugAssign node of ``fdef`` itself) holds a number there.
        reaching (dict | None): the def-use chains of ``fdef`` already computed
            (analysis.def_use.reaching_definitions: id(use) -> definitions), reused instead
            of computing them again (one beniget pass less per function).

    Returns:
        tuple[gast.FunctionDef, dict[str, str]]: the renamed copy, and new name -> old name.
    """
    original, fdef = fdef, copy_tree(fdef)
    scalar = {id(new) for old, new in zip(walk(original), walk(fdef))
              if isinstance(old, gast.AugAssign) and isinstance(old.target, gast.Name)
              and scalar_update(old)}
    if reaching is None:
        chains = QuietDefUseChains()
        try:
            chains.visit(gast.Module(body=[fdef], type_ignores=[]))
        except Exception:  # noqa: BLE001 - no chains: no renaming (only an optimization)
            return fdef, {}
    elif not reaching:
        return fdef, {}     # the chains could not be computed
    own, nested = _own_nodes(fdef)
    params = [a for a in fdef.args.args + fdef.args.posonlyargs + fdef.args.kwonlyargs]
    for extra in (fdef.args.vararg, fdef.args.kwarg):
        if extra is not None:
            params.append(extra)
    names = [n for n in own if isinstance(n, gast.Name)]
    defs = params + [n for n in names if isinstance(n.ctx, gast.Store)]
    reach = {}
    if reaching is None:
        for d in defs:
            chain = chains.chains.get(d)
            if chain is None:
                continue
            for user in chain.users():
                reach.setdefault(id(user.node), []).append(d)
    else:   # the original's chains, carried over to the copy node by node
        copies = {id(old): new for old, new in zip(walk(original), walk(fdef))}
        own_defs = {id(d) for d in defs}
        for use, found in reaching.items():
            user = copies.get(use)
            for d in found:
                copied = copies.get(id(d))
                if user is not None and copied is not None and id(copied) in own_defs:
                    reach.setdefault(id(user), []).append(copied)
    split_aug = {}
    for node in own:
        if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            if id(node) in scalar:
                split_aug[id(node.target)] = node
    parent = {id(d): id(d) for d in defs}

    def find(key):
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    def union(group):
        roots = [find(id(d)) for d in group]
        for root in roots[1:]:
            parent[root] = roots[0]

    keep = set(nested)   # names not renamed
    for name in names:
        reaching = reach.get(id(name), [])
        if isinstance(name.ctx, gast.Load):
            if not reaching:
                keep.add(name.id)
            union(reaching)
        elif isinstance(name.ctx, gast.Store) and reaching:   # the read of `x op= v`
            union(reaching if id(name) in split_aug else reaching + [name])
    for name in names:
        if isinstance(name.ctx, gast.Del):
            keep.add(name.id)

    webs = {}   # name -> {root: [defs]}
    for d in defs:
        webs.setdefault(d.id, {}).setdefault(find(id(d)), []).append(d)
    taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)} | {
        n.name for n in walk(fdef) if isinstance(n, gast.FunctionDef)}
    new_name = {}   # root -> name
    renamed = {}
    param_ids = {id(p) for p in params}

    def first(item):
        """The web that keeps the name: a parameter's, else the earliest in the source."""
        _, group = item
        is_param = any(id(d) in param_ids for d in group)
        return (not is_param, min((getattr(d, "lineno", 0) or 0,
                                   getattr(d, "col_offset", 0) or 0) for d in group))

    for name, groups in webs.items():
        if len(groups) < 2 or name in keep:
            for root in groups:
                new_name[root] = name
            continue
        ordered = sorted(groups.items(), key=first)
        new_name[ordered[0][0]] = name
        for k, (root, _) in enumerate(ordered[1:], 2):
            fresh = web_name(name, k, taken)
            taken.add(fresh)
            new_name[root] = fresh
            renamed[fresh] = name
    if not renamed:
        return fdef, {}

    reads = {}   # id(read node) -> its web's name
    for name in names:
        reaching = reach.get(id(name), [])
        if name.id in keep or not reaching:
            continue
        if isinstance(name.ctx, gast.Load) or id(name) in split_aug:
            reads[id(name)] = new_name[find(id(reaching[0]))]
    for d in defs:
        if d.id not in keep:
            target = new_name[find(id(d))]
            if id(d) in split_aug:
                node = split_aug[id(d)]
                node.read_name = reads.get(id(d), d.id)
            d.id = target
    for name in names:
        if isinstance(name.ctx, gast.Load) and id(name) in reads:
            name.id = reads[id(name)]
    return _AugToAssign(set(map(id, split_aug.values()))).visit(fdef), renamed


class _AugToAssign(gast.NodeTransformer):
    """``y__2 op= v`` (split) -> ``y__2 = y op v``."""

    def __init__(self, ids):
        self.ids = ids

    def visit_AugAssign(self, node):
        if id(node) not in self.ids:
            return self.generic_visit(node)
        read = gast.copy_location(gast.Name(id=node.read_name, ctx=gast.Load(), annotation=None,
                                            type_comment=None), node.target)
        value = gast.copy_location(gast.BinOp(left=read, op=node.op, right=node.value), node)
        return gast.copy_location(gast.Assign(targets=[node.target], value=value,
                                              type_comment=None), node)
