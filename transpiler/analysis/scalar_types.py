"""Which scalar types each variable may hold, and where Numba's one type per variable would
change a result.

Python and NumPy types flow path by path: after ``s = 0.0`` and a loop of ``s += a[i]`` over a
float32 array, ``s`` is a Python float when the loop did not run and an np.float32 when it did,
and NumPy 2 (NEP 50) adds in float32. Numba gives ``s`` one type, float64 (its unification of
float64 and float32), so the sum is computed in float64 and returned as a float: another value
and another type. After :mod:`transpiler.passes.split_webs` a name is one web, so the types a
name may hold are the union over its definitions (a least fixpoint over the assignments), and a
name with two of them is a merge that Numba unifies.

Types are strings: ``"int"``, ``"float"``, ``"bool"``, ``"complex"`` (Python numbers),
``"np:<dtype>"`` (a NumPy scalar, ``np:float32``), ``"arr:<dtype>:<ndim>"`` (an array) and
``"?"`` (anything else: no decision is taken on it). Result types of operators and NumPy
functions are NumPy's and Python's own: the operation is evaluated once on sample values of the
operand types (``np.float32(1) * 1.5`` is an np.float32 under NEP 50).

``problems`` gives the merges that change a result:

- a name holding a NumPy scalar on one path and another type on another, other than the pairs
  that compute alike (a Python float and an np.float64, an int and an np.int64, a bool and an
  np.bool): the arithmetic differs (float32 vs float64; NumPy's int32 wraps);
- a returned value whose type differs by path (``return 1`` / ``return 1.5``, or ``s`` above),
  beyond those same pairs (Numba returns a float for an np.float64: README, "Known gaps").
"""
import math
import operator
import warnings

import gast
import numpy as np

UNKNOWN = "?"
_PY = {bool: "bool", int: "int", float: "float", complex: "complex"}
_SAME = {"float": "np:float64", "int": "np:int64", "bool": "np:bool", "complex": "np:complex128"}
_BINOPS = {gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
           gast.Div: operator.truediv, gast.FloorDiv: operator.floordiv, gast.Mod: operator.mod,
           gast.Pow: operator.pow, gast.BitAnd: operator.and_, gast.BitOr: operator.or_,
           gast.BitXor: operator.xor, gast.LShift: operator.lshift, gast.RShift: operator.rshift}
_UNARY = {gast.USub: operator.neg, gast.UAdd: operator.pos, gast.Invert: operator.invert}
_PY_CALLS = {float: "float", int: "int", bool: "bool", complex: "complex", len: "int"}


def type_of_value(value):
    """The type string of a Python value (a static value, an argument)."""
    if type(value) in _PY:
        return _PY[type(value)]
    if isinstance(value, np.generic):
        return "np:" + value.dtype.name
    if isinstance(value, np.ndarray):
        return f"arr:{value.dtype.name}:{value.ndim}"
    return UNKNOWN


def sample(kind):
    """A value of type string ``kind`` (small and positive: most functions accept it)."""
    if kind in ("int", "float", "bool", "complex"):
        return {"int": 3, "float": 1.5, "bool": True, "complex": 1.5 + 1j}[kind]
    if kind.startswith("np:"):
        return np.dtype(kind[3:]).type(1)
    if kind.startswith("arr:"):
        _, dtype, ndim = kind.split(":")
        return np.ones((2,) * int(ndim), dtype=dtype)
    raise ValueError(kind)


_cache = {}


def _apply(fn, kinds):
    key = (fn, kinds)
    if key not in _cache:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                _cache[key] = type_of_value(fn(*[sample(k) for k in kinds]))
        except Exception:  # noqa: BLE001 - no result type known
            _cache[key] = UNKNOWN
    return _cache[key]


class ScalarTypes:
    """The types each name of a function may hold (module docstring).

    Args:
        fdef (gast.FunctionDef): the function, one name per web (passes.split_webs).
        params (dict[str, str]): parameter -> type string (``type_of_value`` of the argument
            the specialization is guarded on); missing parameters are ``"?"``.
        resolve (callable): ``resolve(node)`` -> the static value of a Name/Attribute that is
            not a local variable, or ``unknown``.
        unknown: what ``resolve`` returns for a non-static name.

    Attributes:
        types (dict[str, frozenset[str]]): local name -> the types it may hold.
        definitions (dict[str, list]): local name -> its definitions (gast nodes).
    """

    def __init__(self, fdef, params, resolve, unknown):
        self.resolve = resolve
        self.unknown = unknown
        self.params = dict(params)
        defs = {}
        for node in _own_walk(fdef):
            if isinstance(node, gast.Assign):
                for target in node.targets:
                    if isinstance(target, gast.Name):
                        defs.setdefault(target.id, []).append((node, node.value))
                    else:
                        for name in _stores(target):
                            defs.setdefault(name.id, []).append((node, None))
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                defs.setdefault(node.target.id, []).append(
                    (node, gast.BinOp(left=gast.Name(id=node.target.id, ctx=gast.Load(),
                                                     annotation=None, type_comment=None),
                                      op=node.op, right=node.value)))
            elif isinstance(node, gast.AnnAssign) and isinstance(node.target, gast.Name):
                defs.setdefault(node.target.id, []).append((node, node.value))
            elif isinstance(node, gast.For):
                for name in _stores(node.target):
                    simple = isinstance(node.target, gast.Name)
                    defs.setdefault(name.id, []).append((node, ("for", node.iter) if simple
                                                         else None))
        for name in self.params:
            defs.setdefault(name, []).insert(0, (None, ("param", name)))
        self.definitions = defs
        self.types = {name: frozenset() for name in defs}
        changed = True
        while changed:   # least fixpoint: types only grow, over a finite set of strings
            changed = False
            for name, items in defs.items():
                found = set()
                for _, value in items:
                    found |= self._of_definition(value)
                found = frozenset(found) | self.types[name]
                if found != self.types[name]:
                    self.types[name] = found
                    changed = True

    def _of_definition(self, value):
        if value is None:
            return {UNKNOWN}
        if isinstance(value, tuple) and value[0] == "param":
            return {self.params.get(value[1], UNKNOWN)}
        if isinstance(value, tuple) and value[0] == "for":
            it = value[1]
            if isinstance(it, gast.Call) and isinstance(it.func, gast.Name) and \
                    it.func.id == "range" and self.resolve(it.func) is range:
                return {"int"}
            out = set()
            for kind in self.of(it):
                if kind.startswith("arr:"):
                    _, dtype, ndim = kind.split(":")
                    out.add(f"np:{dtype}" if ndim == "1" else f"arr:{dtype}:{int(ndim) - 1}")
                else:
                    out.add(UNKNOWN)
            return out
        return set(self.of(value))

    def of(self, node):
        """The set of type strings expression ``node`` may give."""
        if isinstance(node, gast.Constant):
            return {type_of_value(node.value)}
        if isinstance(node, gast.Name):
            if node.id in self.types:   # empty: not known yet in the fixpoint (bottom)
                return set(self.types[node.id])
            value = self.resolve(node)
            return {UNKNOWN if value is self.unknown else type_of_value(value)}
        if isinstance(node, gast.Attribute):
            value = self.resolve(node)
            return {UNKNOWN if value is self.unknown else type_of_value(value)}
        if isinstance(node, gast.BinOp):
            fn = _BINOPS.get(type(node.op))
            return self._combine(fn, [self.of(node.left), self.of(node.right)])
        if isinstance(node, gast.UnaryOp):
            if isinstance(node.op, gast.Not):
                return {"bool"}
            return self._combine(_UNARY.get(type(node.op)), [self.of(node.operand)])
        if isinstance(node, gast.Compare):
            kinds = [self.of(node.left)] + [self.of(c) for c in node.comparators]
            if any(UNKNOWN in k or any(t.startswith("arr:") for t in k) for k in kinds):
                return {UNKNOWN}
            if not any(t.startswith("np:") for k in kinds for t in k):
                return {"bool"}
            return {"np:bool"} if len(kinds) == 2 else {UNKNOWN}
        if isinstance(node, gast.BoolOp):    # Python gives one of the operands
            return set().union(*[self.of(v) for v in node.values])
        if isinstance(node, gast.IfExp):
            return self.of(node.body) | self.of(node.orelse)
        if isinstance(node, gast.Subscript):
            base = self.of(node.value)
            index = node.slice
            parts = index.elts if isinstance(index, gast.Tuple) else [index]
            if any(isinstance(p, (gast.Slice, gast.Starred)) for p in parts) or not all(
                    self.of(p) <= {"int", "np:int64", "np:int32"} for p in parts):
                return {UNKNOWN}
            out = set()
            for kind in base:
                if kind.startswith("arr:"):
                    _, dtype, ndim = kind.split(":")
                    rest = int(ndim) - len(parts)
                    out.add(f"np:{dtype}" if rest == 0 else
                            f"arr:{dtype}:{rest}" if rest > 0 else UNKNOWN)
                else:
                    out.add(UNKNOWN)
            return out
        if isinstance(node, gast.Call):
            return self._call(node)
        return {UNKNOWN}

    def _call(self, node):
        if node.keywords or any(isinstance(a, gast.Starred) for a in node.args):
            return {UNKNOWN}
        func = node.func
        if isinstance(func, gast.Name) and func.id in self.types:
            return {UNKNOWN}
        fn = self.resolve(func) if isinstance(func, (gast.Name, gast.Attribute)) else \
            self.unknown
        if fn is self.unknown:
            return {UNKNOWN}
        args = [self.of(a) for a in node.args]
        if fn in _PY_CALLS and fn is not len:
            if fn is int and args and args[0] <= {"int", "bool", "float"} | set(_SAME.values()):
                return {"int"}
            return {_PY_CALLS[fn]}
        if fn is len:
            return {"int"}
        if fn in (min, max):     # Python gives one of the arguments
            return set().union(*args) if len(args) > 1 else {UNKNOWN}
        if getattr(fn, "__module__", None) == "math":
            found = self._combine(fn, args)
            return {"float" if k == UNKNOWN and UNKNOWN not in set().union(*args) else k
                    for k in found}
        if fn in (abs, round) or (
                isinstance(fn, type) and issubclass(fn, np.generic)) or isinstance(
                fn, np.ufunc) or (getattr(fn, "__module__", None) or "").split(".")[0] == "numpy":
            return self._combine(fn, args)
        return {UNKNOWN}

    def _combine(self, fn, arg_types):
        if fn is None:
            return {UNKNOWN}
        if any(not kinds for kinds in arg_types):
            return set()    # an operand not known yet (bottom)
        out = set()
        for kinds in _product(arg_types):
            if UNKNOWN in kinds:
                out.add(UNKNOWN)
            else:
                out.add(_apply(fn, kinds))
        return out or {UNKNOWN}

    def weak_merges(self, fdef):
        """Names merging Python numbers with one NumPy float type ``np:D`` whose every read
        meets a ``D`` value under NEP 50 (``s + a[i]``, ``s += a[i]``, ``out[i] = s`` into a
        ``D`` array): Python converts the number to ``D`` at each such read, so converting it
        where it is assigned instead gives the same values, and Numba one type, ``D``
        (``s = 0.0; for ...: s += a[i]; out[i] = s`` over float32 arrays).

        Returns:
            dict[str, str]: name -> dtype name (``"float32"``).
        """
        candidates = {}
        for name, kinds in self.types.items():
            numpy = {k for k in kinds if k.startswith("np:")}
            python = kinds - numpy
            if len(numpy) == 1 and python and python <= {"int", "float", "bool"} and \
                    name not in self.params:
                dtype = next(iter(numpy))[3:]
                if np.dtype(dtype).kind == "f" and dtype != "float64" and all(
                        isinstance(value, gast.AST) for _, value in self.definitions[name]):
                    candidates[name] = dtype
        if not candidates:
            return {}
        parents = {}
        for node in _own_walk(fdef):
            for child in gast.iter_child_nodes(node):
                parents[id(child)] = node
        for node in _own_walk(fdef):
            if isinstance(node, gast.Name) and node.id in candidates and \
                    not isinstance(node.ctx, gast.Store):
                if not self._meets(node, parents.get(id(node)), "np:" + candidates[node.id]):
                    del candidates[node.id]
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) and \
                    node.target.id in candidates and \
                    self.of(node.value) != {"np:" + candidates[node.target.id]}:
                del candidates[node.target.id]
        return candidates

    def _meets(self, name, parent, kind):
        """Whether the read ``name`` (child of ``parent``) is converted to ``kind`` by NEP 50."""
        if isinstance(parent, gast.BinOp) and not isinstance(parent.op, gast.MatMult):
            other = parent.right if parent.left is name else parent.left
            return self.of(other) == {kind}
        if isinstance(parent, gast.Assign) and parent.value is name and \
                len(parent.targets) == 1 and isinstance(parent.targets[0], gast.Subscript):
            target = parent.targets[0]     # a store of one element: converted to the dtype
            return self.of(target.value) == {f"arr:{kind[3:]}:{_ndim(target)}"}
        return False

    def problems(self, fdef, weak=(), renamed=None):
        """``[(node, message)]``: the merges of types that change a result (module docstring),
        in source order, at most one per name and one for the returns; names in ``weak``
        (``weak_merges``: converted where assigned) are not merges any more; ``renamed``
        maps a web's name to the user's (passes.split_webs) for the messages."""
        renamed = renamed or {}
        found = []
        for name, kinds in sorted(self.types.items()):
            if name in self.params and len(self.definitions[name]) == 1 or name in weak:
                continue
            reason = _numpy_merge(kinds)
            if reason:
                node = next((n for n, _ in self.definitions[name] if n is not None), fdef)
                lines = _lines_by_type(self, name)
                found.append((node, f"'{renamed.get(name, name)}' holds {lines} depending on the path taken: "
                                    f"{reason}; compiled code gives a variable one type. Give "
                                    f"it one type (for example {_hint(kinds)})"))
        returns = [n for n in _own_walk(fdef) if isinstance(n, gast.Return)]
        slots = {}
        for ret in returns:
            value = ret.value
            parts = value.elts if isinstance(value, gast.Tuple) else [value]
            for i, part in enumerate(parts):
                if part is not None:
                    slots.setdefault((len(parts), i), []).append((ret, self.of(part)))
        for (_, i), items in sorted(slots.items()):
            kinds = frozenset().union(*[k for _, k in items])
            if _differ(kinds):
                what = "the result" if len(slots) == 1 else f"item {i} of the result"
                found.append((items[-1][0],
                              f"{what} is {_names(kinds)} depending on the path taken (Python "
                              "and NumPy give each path's own type); compiled code gives a "
                              "result one type"))
                break
        return found


def _ndim(subscript):
    """The ndim an array indexed by ``subscript`` (all indices ints) must have: as many."""
    index = subscript.slice
    return str(len(index.elts) if isinstance(index, gast.Tuple) else 1)


def _differ(kinds):
    if UNKNOWN in kinds or len(kinds) < 2:
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
    if UNKNOWN not in kinds and (numpy == {"np:float64"} and python <= {"int", "float", "bool"}
                                 or numpy == {"np:int64"} and python <= {"int", "bool"}):
        # Numba's unified type (float64, int64) holds each path's values and computes them as
        # NumPy does (ints below 2**53); only a returned value shows the type (checked apart).
        return None
    return "NumPy computes each in its own dtype"


def _names(kinds):
    shown = []
    for k in sorted(kinds):
        shown.append("a Python " + k if k in _PY.values() else
                     "an np." + k[3:] if k.startswith("np:") else "an array")
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


def _product(sets):
    out = [()]
    for s in sets:
        out = [prefix + (k,) for prefix in out for k in sorted(s)]
        if len(out) > 64:
            return [(UNKNOWN,)]
    return out


def _stores(target):
    return [n for n in gast.walk(target) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store)]


def _own_walk(fdef):
    """The nodes of ``fdef`` outside nested functions, lambdas and comprehensions."""
    stack = list(gast.iter_child_nodes(fdef))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ListComp, gast.SetComp,
                             gast.DictComp, gast.GeneratorExp, gast.ClassDef)):
            continue
        stack.extend(gast.iter_child_nodes(node))
