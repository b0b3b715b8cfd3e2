"""The merges of types that change a result (``ScalarTypes.problems``, a method bound by
analysis/scalar_merges.py): a name holding a NumPy scalar on one path and another type on
another, a name a nested function reads, ``range()`` of a float, a pick (``min``, ``if``-``else``,
``and``/``or``) of two types, a tuple item, a returned value whose type differs by path, and an
operation whose result type differs by path (an int / np.int64 merge meeting an np.uint16:
NumPy's NEP 50 makes the Python int weak and the np.int64 strong). Each becomes a fallback with
its message (transpiler.passes.specialize)."""
import gast

from .scalar_kinds import _PY, _SAME, CALL, UNKNOWN
from .list_results import list_result_problem
from .set_uses import set_problem
from ..nodes import walk


def merge_problems(self, weak=(), renamed=None):
    """``[(node, message)]``: the merges of types that change a result (module docstring),
    in source order, at most one per name and one for the returns; names in ``weak``
    (``weak_merges``: converted where assigned) are not merges any more; ``renamed``
    maps a web's name to the user's (passes.split_webs) for the messages."""
    renamed = renamed or {}
    found = []
    for name, kinds in sorted(self.types.items()):
        if name in self.params and len(self.definitions[name]) == 1 or name in weak or \
                name in self.float_names:
            continue
        reason = _numpy_merge(kinds)
        if reason:
            node = next((n for n, _ in self.definitions[name] if n is not None), self.fdef)
            lines = _lines_by_type(self, name)
            found.append((node, f"'{renamed.get(name, name)}' holds {lines} depending on "
                                f"the path taken: {reason}; compiled code gives a variable "
                                f"one type. Give it one type (for example {_hint(kinds)})"))
    nested = self.closure_reads
    for name, kinds in sorted(self.types.items()):
        if name in nested and name not in weak and _differ(kinds):
            node = next((n for n, _ in self.definitions[name] if n is not None), self.fdef)
            found.append((node, f"'{renamed.get(name, name)}' is {_names(kinds)} depending "
                                "on the path taken, and a nested function or comprehension "
                                "reads it; compiled code gives a variable one type"))
    for node in self.nodes:
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id not in self.types and self.resolve(node.func) is range and any(
                    self.of(a) & {"float", "complex", "np:bool"} or any(
                        k.startswith(("np:float", "np:complex")) for k in self.of(a))
                    for a in node.args):
            # Numba's range() takes a float; Python raises TypeError.
            found.append((node, "range() of a value that may be a float (Python raises "
                                "TypeError; compiled code would count)"))
            break
    returned_parts = {id(p) for r in self.returns if r.value is not None for p in (
        r.value.elts if isinstance(r.value, (gast.Tuple, gast.List)) else [r.value])}
    for node in self.nodes:
        # Python picks one operand by value: `min(0.0, a[i])` is a float or an np.float32,
        # and Numba computes with their unified type wherever the expression is used.
        # Returned, even a float and an np.float64 differ (the result's type).
        picks = isinstance(node, (gast.IfExp, gast.BoolOp)) or (
            isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and
            self.resolve(node.func) in (min, max) and node.func.id not in self.types)
        kinds = frozenset(self.of(node))
        differ = (len(kinds - {CALL}) > 1 and UNKNOWN not in kinds) or _differ(kinds) if id(
            node) in returned_parts else _differ(kinds)
        if picks and differ and not self._pick_passed_on(node):
            found.append((node, f"this expression is {_names(self.of(node))} depending on "
                                "the values (Python gives one of its operands); compiled "
                                "code gives it one type"))
            break
    returns = self.returns
    returned = {id(r.value) for r in returns}
    for node in self.nodes:
        if isinstance(node, (gast.Tuple, gast.List)) and isinstance(node.ctx, gast.Load) \
                and id(node) not in returned:
            for elt in node.elts:
                kinds = self.of(elt)
                if _differ(kinds):
                    found.append((node, f"an item of this {type(node).__name__.lower()} "
                                        f"is {_names(kinds)} depending on the path taken; "
                                        "compiled code gives it one type"))
                    break
    operation = _operation_by_path(self, set(weak) | set(self.float_names))
    if operation is not None:
        found.append(operation)
    for problem in (list_result_problem(self), set_problem(self)):
        if problem is not None:
            found.append(problem)
    for ret in returns:
        untyped = self._untyped_tuple_item(ret.value)
        if untyped is not None:
            found.append((ret, "the result is computed from an item of a tuple a function "
                               f"returns ({untyped}) that graphjit cannot type (a nested "
                               "tuple, an item not known here): compiled code would box "
                               "it as Numba does"))
            break
    slots = {}
    # `return (x, 0.0) if c else (0.0, x)`: each alternative is a return of its own
    alternatives = [(ret, v, len(_picked(ret.value)) > 1) for ret in returns
                    for v in _picked(ret.value)]
    for ret, value, pick in alternatives:
        parts = value.elts if isinstance(value, (gast.Tuple, gast.List)) else [value]
        items = self.value_items(value) if len(parts) == 1 else None
        if isinstance(items, tuple):    # `return helper(k)`: its tuple's items
            for i, kinds in enumerate(items):
                slots.setdefault((len(items), i), []).append((ret, set(kinds), pick))
            continue
        for i, part in enumerate(parts):
            if part is not None:
                slots.setdefault((len(parts), i), []).append((ret, self.of(part), pick))
    for (_, i), items in sorted(slots.items()):
        kinds = frozenset().union(*[k for _, k, _ in items])
        # a call typed only where it is converted (its box is Numba's) beside a NumPy
        # scalar on another path: Numba boxes that one as a Python number
        untyped = CALL in kinds and any(k.startswith("np:") for k in kinds)
        # a Python number on some paths, something not typed on others (`s = 0; for x in
        # items: s = s + x`; unchecked without argument types: docs/reference/semantics.md):
        # Numba unifies them
        # (an int path comes back a float); a pick (no flag follows it) of float/np.float64
        untyped = untyped or (UNKNOWN in kinds and bool(kinds & set(_PY.values())) and not (
            self.params and set(self.params.values()) == {UNKNOWN})) or (
            len(kinds - {CALL, UNKNOWN}) > 1 and any(p for _, _, p in items))
        if (_differ(kinds) or untyped) and not getattr(self, "tagged", None):
            what = "the result" if len(slots) == 1 else f"item {i} of the result"
            found.append((items[-1][0],
                          f"{what} is {_names(kinds)} depending on the path taken (Python "
                          "and NumPy give each path's own type); compiled code gives a "
                          "result one type"))
            break
    return found


def _picked(value):
    """The values ``value`` may give: each branch of a conditional expression."""
    return _picked(value.body) + _picked(value.orelse) if isinstance(value, gast.IfExp) \
        else [value]


def _differ(kinds):
    if CALL in kinds:
        return False    # docs/reference/semantics.md: results of user calls are not typed by path
    if UNKNOWN in kinds:
        # Something not typed here merging with a NumPy scalar may be another NumPy type;
        # the types that are known differ among themselves whatever the unknown one is
        # (an int and a float by path: Numba's unified float64 loses the int).
        return any(k.startswith("np:") for k in kinds) or _differ(kinds - {UNKNOWN})
    if len(kinds) < 2:
        return False
    classes = {_SAME.get(k, k) for k in kinds}
    return len(classes) > 1


def _numpy_merge(kinds):
    """Why a name with these types computes differently compiled, or None."""
    if not _differ(kinds) or not any(k.startswith("np:") for k in kinds):
        return None
    if any(k.startswith("arr:") for k in kinds):
        return None    # an array and a scalar: Numba refuses to unify them (a fallback anyway)
    numpy = {k for k in kinds if k.startswith("np:")}
    python = kinds - numpy
    if numpy == {"np:float64"} and python <= {"int", "float", "bool"}:
        # Numba's unified float64 holds each path's values and computes them as NumPy does
        # (ints below 2**53); only a returned value shows the type (checked apart). An int
        # and an np.int64 do not: `s ** -1` and `s // 0` differ.
        return None
    return "NumPy computes each in its own dtype"


def _names(kinds):
    shown = []
    for k in sorted(kinds):
        shown.append("a Python " + k if k in _PY.values() else
                     "an np." + k[3:] if k.startswith("np:") else
                     "an array" if k.startswith("arr:") else
                     "a value of a type not known here")
    return " or ".join(shown)


def _lines_by_type(types, name):
    parts = []
    for node, value in types.definitions[name]:
        kinds = types._of_definition(value)
        line = getattr(node, "lineno", None)
        where = f"line {line}" if line else "the argument"
        parts.append((where, _names(kinds)))
    seen = {}
    for where, what in parts:
        seen.setdefault(what, where)
    return " and ".join(f"{what} ({where})" for what, where in seen.items())


def _hint(kinds):
    numpy = sorted(k for k in kinds if k.startswith("np:"))
    return f"np.{numpy[0][3:]}(...) where it is first assigned" if numpy else "float(...)"


def _operation_by_path(self, converted):
    """The first binary operation whose result type differs by path, as ``(node, message)``,
    or None. A name merging a Python int with an np.int64 (or a float with an np.float64)
    computes alike with Python numbers, but NumPy's NEP 50 (numpy.org/neps/nep-0050) makes
    the Python number weak and the NumPy scalar strong: ``np.uint16(6) - v`` is an np.uint16
    (OverflowError for ``v = -1``) or an np.int64 by path, and compiled code computes one.
    Operations reading a name in ``converted`` (weak merges, float storage) are typed by
    their reads and skipped."""
    for node in self.nodes:
        if not isinstance(node, gast.BinOp) or isinstance(node.op, gast.MatMult):
            continue
        kinds = self.of(node)
        if kinds & {UNKNOWN, CALL} or not _numpy_merge(kinds) or any(
                isinstance(n, gast.Name) and n.id in converted for n in walk(node)):
            continue
        return (node, f"this operation gives {_names(kinds)} depending on the path taken "
                      "(NumPy computes a Python number and a NumPy scalar differently: NEP "
                      "50); compiled code gives it one type")
    return None
