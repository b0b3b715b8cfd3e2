"""Def-use chains and reaching definitions: the one def-use service of the analyses, over
beniget (``beniget.DefUseChains`` on the gast tree).

Used by the number analyses (transpiler.analysis.python_numbers, scalar_types) and by the
split of variables into webs (transpiler.passes.split_webs).
"""
import beniget
import gast
from ..nodes import walk


class QuietDefUseChains(beniget.DefUseChains):
    """beniget's def-use chains without its warnings: globals and builtins are not bound in
    the function, which is fine here."""

    def warn(self, msg, node):
        pass


def reaching_definitions(fdef, params):
    """``({id(use): [definition nodes]}, {id(definition): value})`` for the local variables
    of ``fdef``. A definition's value is the assigned expression (``x op= v``: ``x op v``),
    ``("param", name)`` for a parameter, None when unknown (tuple targets, loop variables)."""
    chains = QuietDefUseChains()
    try:
        chains.visit(gast.Module(body=[fdef], type_ignores=[]))
    except Exception:  # noqa: BLE001 - no chains: every use falls back to the per-variable
        return {}, {}
    values = {}
    for node in walk(fdef):
        if isinstance(node, gast.Assign):
            for target in node.targets:
                for name in walk(target):
                    if isinstance(name, gast.Name) and isinstance(name.ctx, gast.Store):
                        values[id(name)] = node.value if name is target else None
                for name, value in paired(target, node.value):    # `a, b = x, y`
                    values[id(name)] = value
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            values[id(node.target)] = gast.BinOp(left=node.target, op=node.op,
                                                 right=node.value)
        elif isinstance(node, gast.AnnAssign) and isinstance(node.target, gast.Name):
            values[id(node.target)] = node.value
    for arg in fdef.args.args:
        values[id(arg)] = ("param", arg.id)
    reaching = {}
    for node, definition in chains.chains.items():
        if not isinstance(node, gast.Name) or isinstance(node.ctx, gast.Load):
            # beniget also chains a read to what it flows into (`y /= y`: the read y is a
            # "user" of the target): only stores and parameters are definitions.
            continue
        values.setdefault(id(node), None)
        for user in definition.users():
            reaching.setdefault(id(user.node), []).append(node)
    return reaching, values


def paired(target, value):
    """``[(Name, expression)]`` for a tuple target assigned a tuple display of the same
    length, element by element (``a, b = x, y``: Python evaluates the whole display first,
    so each name gets its own item); [] otherwise."""
    if not (isinstance(target, (gast.Tuple, gast.List)) and isinstance(
            value, (gast.Tuple, gast.List)) and len(target.elts) == len(value.elts)) or any(
            isinstance(e, gast.Starred) for e in target.elts + value.elts):
        return []
    out = []
    for t, v in zip(target.elts, value.elts):
        if isinstance(t, gast.Name):
            out.append((t, v))
        else:
            out.extend(paired(t, v))
    return out
