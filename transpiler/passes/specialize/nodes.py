"""Small gast constructors and predicates shared by the specializer's modules (no state)."""
import keyword
import re

import gast
import numpy as np

from ...nodes import assign, const, copy_tree, name as name_node, walk



def _describe(value):
    own = getattr(type(value), "description", None)     # graphjit's own (LocalFunction)
    if isinstance(own, str):
        return own
    return f"{type(value).__module__}.{type(value).__qualname__} object"


class _Converted:
    """An expression already rewritten, passed where a source node is expected."""

    def __init__(self, value):
        self.value = value


def _generated_name(function):
    """``Class_method`` or ``function``: the qualname after its last ``<locals>``."""
    name = function.__qualname__.rsplit("<locals>.", 1)[-1]
    name = re.sub(r"\W+", "_", name).strip("_") or "function"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_fn"       # `is_` stripped is the keyword `is`
    return name if not name[0].isdigit() else "f_" + name


def _pure(node):
    """An expression that can be evaluated twice with the same value and no effect."""
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if isinstance(node, gast.Attribute):
        return _pure(node.value)
    if isinstance(node, gast.Subscript):
        return _pure(node.value) and _pure(node.slice)
    if isinstance(node, gast.Tuple):
        return all(_pure(e) for e in node.elts)
    if isinstance(node, gast.Slice):   # `a[1:n]`: a view, the same elements each time
        return all(part is None or _pure(part) for part in (node.lower, node.upper, node.step))
    if isinstance(node, gast.BinOp):   # arithmetic of pure operands: same value, no effect
        return _pure(node.left) and _pure(node.right)
    if isinstance(node, gast.UnaryOp):
        return _pure(node.operand)
    return False


def _cannot_raise(node):
    """Whether evaluating ``node`` can neither raise nor have an effect: a name, a constant,
    a negated constant (``a[-1]``), a slice or a tuple of them; not arithmetic (``1 % 0``) or calls."""
    if isinstance(node, gast.Tuple):
        return all(_cannot_raise(e) for e in node.elts)
    if isinstance(node, gast.Slice):
        return all(part is None or _cannot_raise(part)
                   for part in (node.lower, node.upper, node.step))
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        return isinstance(node.operand, gast.Constant)
    return isinstance(node, (gast.Name, gast.Constant))


def _assign(identifier, value):
    """``identifier = value`` for a Python constant ``value``."""
    return assign(identifier, const(value))


def _store(identifier):
    return name_node(identifier, store=True)


def _load(identifier):
    return name_node(identifier)


def _as_load(target):
    """A copy of an assignment target that reads it (``a[i]`` for ``a[i] op= v``)."""
    copied = copy_tree(target)
    for child in walk(copied):
        if hasattr(child, "ctx"):
            child.ctx = gast.Load()
    return copied


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def k_ok(kwargs):
    return all(k is not None for k in kwargs)


def _defines_trunc(kind):
    """Whether values of ScalarTypes type ``kind`` have ``__trunc__``, which CPython's
    ``math.trunc`` looks up on the type and raises TypeError without (Modules/mathmodule.c
    ``math_trunc``): Python's bool/int/float and np.float64 (a float subclass); no other
    NumPy scalar type defines it (NumPy 2)."""
    if kind in ("int", "bool", "float"):
        return True
    if kind.startswith("np:"):
        try:
            return hasattr(np.dtype(kind[3:]).type, "__trunc__")
        except TypeError:
            return False
    return False
