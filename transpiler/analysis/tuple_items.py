"""The item types of tuple values that are not displays, for the scalar-type analysis
(``ScalarTypes``, whose methods these are: analysis/scalar_merges.py binds them): a user or
nested function's tuple result (``s, n = helper(x)``, ``return helper(x)``), a local bound
from one, and the result's types item by item."""
import math
import warnings

import gast
import numpy as np

from .scalar_kinds import CALL, UNKNOWN, sample, type_of_value
from ..nodes import walk


def untyped_tuple_item(self, value):
    """What in the returned expression ``value`` reads an item of a user or nested
    function's tuple result that has no known type: ``"helper(...)"``, a name bound
    from one, or None."""
    if value is None:
        return None
    whole = [value] + [n.value for n in walk(value) if isinstance(n, gast.Subscript)]
    for node in whole:      # `return helper(x)`, `helper(x)[1][1]`: a nested tuple
        if isinstance(node, gast.Call) and id(node) in self._tuples and any(
                not kinds or UNKNOWN in kinds for kinds in self._tuples[id(node)]):
            return "a call's result"
    for node in walk(value):
        if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load):
            for _, held in self.definitions.get(node.id, ()):
                if isinstance(held, tuple) and held[0] == "item" and held[2] is None:
                    return f"'{node.id}'"     # `a, (b, c) = helper(x)`
    return None

def items_of(self, node):
    """The item types of a call giving a tuple (``divmod``, ``np.divmod``, ``math.frexp``,
    ``math.modf``) on operands of one type each, as a tuple of frozensets; else None."""
    if not isinstance(node, gast.Call) or node.keywords or not isinstance(
            node.func, (gast.Name, gast.Attribute)):
        return None
    fn = self.resolve(node.func)
    if fn not in (divmod, np.divmod, math.frexp, math.modf):
        return None
    kinds = [self.of(a) for a in node.args]
    if not all(len(k) == 1 and not k & {UNKNOWN, CALL} for k in kinds):
        return None
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            result = fn(*[sample(next(iter(k))) for k in kinds])
    except Exception:  # noqa: BLE001 - no result type known
        return None
    return tuple(frozenset({type_of_value(v)}) for v in result)


def value_items(self, node):
    """The item types of a tuple value that is not a display: a call's tuple result
    (``_items``), or a local name every definition of which is such a call of one
    arity (``t = helper(k); return t``); None when not known."""
    if isinstance(node, gast.Name) and node.id in self.definitions:
        found = []
        for stmt, value in self.definitions[node.id]:
            if not (isinstance(stmt, gast.Assign) and isinstance(value, gast.Call)):
                return None
            items = self._items(value)
            if not isinstance(items, tuple):
                return None
            found.append(items)
        if found and len(set(map(len, found))) == 1:
            return tuple(frozenset().union(*parts) for parts in zip(*found))
        return None
    items = self._items(node)
    return items if isinstance(items, tuple) else None

def result_types(self):
    """The types of the function's result: a frozenset for ``return x``, a tuple of them
    for ``return x, y`` (every return the same arity), None when unknown or mixed."""
    returns = self.returns
    if not returns or any(r.value is None for r in returns):
        return None
    shapes = {len(r.value.elts) if isinstance(r.value, gast.Tuple) else None
              for r in returns}
    if len(shapes) != 1:
        return None
    arity = shapes.pop()
    if arity is None:
        items = [self.value_items(r.value) for r in returns]   # `return divmod(a, b)`
        if all(isinstance(i, tuple) for i in items) and len(set(map(len, items))) == 1:
            return tuple(frozenset().union(*parts) for parts in zip(*items))
        return frozenset().union(*[self.of(r.value) for r in returns])
    return tuple(frozenset().union(*[self.of(r.value.elts[i]) for r in returns])
                 for i in range(arity))


def _nested_kinds(self, values):
    """The types of the expressions ``values`` (one per return) merged: item by item where
    each is a tuple display of one length (recursively: a tuple of such), else the union of
    their types (a frozenset)."""
    if all(isinstance(v, gast.Tuple) and not any(isinstance(e, gast.Starred) for e in v.elts)
           for v in values) and len({len(v.elts) for v in values}) == 1:
        return tuple(_nested_kinds(self, [v.elts[i] for v in values])
                     for i in range(len(values[0].elts)))
    return frozenset().union(*[self.of(v) for v in values])


def result_boxes(self):
    """``result_types``, with the items that are tuple displays in every return typed item by
    item too (``return (x, 1), (2.0, (x,))``): what the caller's boxing needs
    (transpiler.boxing.reboxer follows nested tuples), where Numba boxes an np.float64 nested
    in a tuple as a Python float too."""
    kinds = self.result_types()
    if not isinstance(kinds, tuple) or not all(isinstance(r.value, gast.Tuple)
                                               for r in self.returns):
        return kinds
    nested = _nested_kinds(self, [r.value for r in self.returns])
    return nested if isinstance(nested, tuple) and len(nested) == len(kinds) else kinds


def kind_leaves(kinds, path=()):
    """``(path, frozenset)`` for each item of ``result_boxes``' nested tuples (``path``: the
    indices down to it), or the one set of a result that is not a tuple."""
    if isinstance(kinds, tuple):
        for index, part in enumerate(kinds):
            yield from kind_leaves(part, path + (index,))
    elif kinds is not None:
        yield path, kinds
