"""Which expressions are Python numbers, which are NumPy scalars, and what kind of number.

NumPy 2's promotion rules (NEP 50) treat Python ints and floats as *weak*: only where a Python
number meets an array or a NumPy scalar does the converter need ``weak(...)`` (see
transpiler.ir.weak). The operators ``**``, ``/``, ``//`` and ``%`` follow Python's rules for
Python numbers (``2 ** -1 == 0.5``, ``1.0 / 0.0`` raises) and NumPy's where a NumPy scalar is an
operand (``np.float32(1) / 0`` is inf); Numba follows neither everywhere, so the converter needs
to know which operands are which (transpiler.helpers).

A variable is a *Python number* when every assignment to it gives one: an int/float literal, a
static Python number (a global, a constant attribute), another such variable, arithmetic of
them, ``len``/``int``/``float``/``round``/``abs``/``min``/``max`` of them, a ``math`` function,
or the target of ``for ... in range(...)``. Parameters are not (a caller may pass anything),
unless the specialization is guarded on their type (``seeds``). A greatest fixpoint over the
assignments. Its *kind* is ``"int"``, ``"float"`` or ``"num"`` (either, by path: Numba unifies
it to a float), a least fixpoint; an int is *non-negative* when every assignment gives one.

A variable is a *NumPy scalar* at a use when every assignment that reaches the use gives one
(def-use chains, beniget): an element of an array (``a[i]`` with as many integer indices as the
array has dimensions, known for arguments), a NumPy scalar type called on a number
(``np.float32(x)``), a ufunc of numbers, arithmetic of a NumPy scalar with numbers, or a
parameter called with a NumPy scalar (guarded on its type). ``y = 1.0`` followed by
``y = a[0]`` makes ``y`` a NumPy scalar after the second assignment only.
"""
import math

import gast
import numpy as np

from ..number_rules import PYTHON_FLOAT_MATH
from .def_use import paired, reaching_definitions as _reaching_definitions
from ..nodes import child_nodes, walk

_PY_CALLS = {"len": "any", "int": "any", "float": "any", "bool": "any", "round": "py",
             "abs": "py", "min": "py", "max": "py"}
_INT_MATH = frozenset({"floor", "ceil", "trunc", "factorial", "gcd", "lcm", "isqrt", "comb",
                       "perm"})
_REDUCTIONS = frozenset({"sum", "prod", "mean", "max", "min", "amax", "amin", "std", "var",
                         "median"})

UNKNOWN = object()
"""What ``resolve`` returns for a name or attribute that is not a static value."""


def _no_resolve(node):
    return UNKNOWN


class Numbers:
    """The analysis of one function.

    Args:
        fdef (gast.FunctionDef): the function.
        local_vars (set[str]): its local variables that are not static.
        seeds (dict[str, str] | Iterable[str]): parameters called with a Python number, with
            their kind (``"int"``/``"float"``; an iterable: kind unknown, ``"num"``).
        resolve (callable | None): ``resolve(node)`` -> the static value of a Name or
            Attribute that is not local (a global, ``math.pi``, ``np.float32``), or UNKNOWN.
        numpy_seeds (Iterable[str]): parameters called with a NumPy scalar.
        array_dims (dict[str, int] | None): parameters called with an array -> its ndim.
        item_kinds (dict[int, str] | None): id(store) -> type string for names bound by a
            tuple target from a call's result whose item's type is known
            (ScalarTypes.item_kinds: ``"int"``, ``"float"``, ``"np:float32"``...).

    Attributes:
        kinds (dict[str, str]): Python-number locals -> kind.
        nonneg (set[str]): Python int locals never negative.
        numpy_scalars (set[str]): NumPy-scalar locals.
    """

    def __init__(self, fdef, local_vars, seeds=(), resolve=None, numpy_seeds=(),
                 array_dims=None, item_kinds=None, nonneg_seeds=()):
        self.resolve = resolve or _no_resolve
        items = {key: ("numpy", kind) if kind.startswith("np:") else ("kind", kind)
                 for key, kind in (item_kinds or {}).items()}
        self.array_dims = dict(array_dims or {})
        if not isinstance(seeds, dict):
            seeds = {name: "num" for name in seeds}
        definitions, elements = {}, {}
        params = {a.id for a in fdef.args.args}
        for node in _outer_nodes(fdef):
            if isinstance(node, gast.Assign):
                for target in node.targets:
                    pairs = dict((id(t), v) for t, v in paired(target, node.value))
                    if pairs:       # `a, b = x, y`: item by item
                        for store in _names_nodes(target):
                            definitions.setdefault(store.id, []).append(pairs.get(id(store)))
                        continue
                    if isinstance(target, (gast.Tuple, gast.List)):
                        for elt in target.elts:     # an item of a call's result, if known
                            for store in walk(elt):
                                if isinstance(store, gast.Name) and isinstance(
                                        store.ctx, gast.Store):
                                    definitions.setdefault(store.id, []).append(
                                        items.get(id(store)))
                        continue
                    for name in _names(target):
                        value = node.value if isinstance(target, gast.Name) else None
                        definitions.setdefault(name, []).append(value)
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                definitions.setdefault(node.target.id, []).append(
                    gast.BinOp(left=node.target, op=node.op, right=node.value))
            elif isinstance(node, (gast.For, gast.comprehension)):
                ranged = node.iter if _is_range(node.iter) else None
                counter = self._enumerate_counter(node)
                if counter is not None:     # enumerate's count is a Python int
                    definitions.setdefault(counter, []).append(("range", None))
                element = self._loop_element(node)
                if element is not None:     # an element of a 1-D array: a NumPy scalar
                    store, value = element
                    definitions.setdefault(store.id, []).append(value)
                    elements[id(store)] = value
                for name in _names(node.target):
                    if name == counter or (element is not None and name == element[0].id):
                        continue
                    simple = isinstance(node.target, gast.Name)
                    definitions.setdefault(name, []).append(
                        ("range", ranged if simple else None) if ranged is not None else None)
            elif isinstance(node, gast.AnnAssign) and isinstance(node.target, gast.Name):
                definitions.setdefault(node.target.id, []).append(node.value)
        self._definitions = definitions
        self.assigned = frozenset(definitions)   # names assigned somewhere in the function
        # Python numbers: greatest fixpoint.
        py = {n for n in definitions if n in local_vars and n not in params}
        py |= set(seeds)
        for seed in seeds:
            definitions.setdefault(seed, [])
        self.kinds = {name: "num" for name in py}
        changed = True
        while changed:
            changed = False
            for name in sorted(py):
                if not all(_is_range_def(d) or self.is_python(d) for d in definitions[name]):
                    py.discard(name)
                    del self.kinds[name]
                    changed = True
        # Kinds (a least fixpoint from "unset" up to int/float, then "num") and non-negative
        # ints (a greatest fixpoint), until neither changes: `k ** j` is an int when j >= 0.
        # Both start optimistic (every name a non-negative int), so that a loop-carried
        # `v = 3 ** v % 1009` settles as an int: each round can only drop names from `nonneg`.
        # (int arguments the code is specialized on being >= 0, never reassigned: see
        # exponent_params; `n ** i0` is then an int, as the converter computes it)
        self._nonneg_seeds = frozenset(nonneg_seeds) & set(seeds)
        self.nonneg = (set(py) - set(seeds)) | self._nonneg_seeds
        while True:
            self._kind_fixpoint(py, seeds)
            before = self.nonneg
            self._nonneg_fixpoint(seeds)
            if self.nonneg == before:
                break
        # NumPy scalars: greatest fixpoints, per variable (for nodes the def-use chains do not
        # know: copies made by the converter) and per definition.
        numpy_seeds = set(numpy_seeds)
        self._reaching, values = _reaching_definitions(fdef, params)
        values.update((key, item) for key, item in items.items() if key in values)
        values.update((key, value) for key, value in elements.items() if key in values)
        self.numpy_scalars = set()
        defs = {key for key, value in values.items() if value is not None}
        self._numpy_defs = defs
        self._def_values = values
        changed = True
        while changed:
            changed = False
            for key in sorted(defs):
                value = values[key]
                keep = value[1] in numpy_seeds if isinstance(value, tuple) and value[
                    0] == "param" else self.is_numpy_scalar(value)
                if not keep:
                    defs.discard(key)
                    changed = True
        scalars = {n for n in definitions if n in local_vars and n not in params
                   and n not in self.kinds} | numpy_seeds
        self.numpy_scalars = scalars
        changed = True
        while changed:
            changed = False
            for name in sorted(scalars):
                if name in numpy_seeds:
                    continue
                if not all(d is not None and not _is_range_def(d) and self.is_numpy_scalar(d)
                           for d in definitions[name]):
                    scalars.discard(name)
                    changed = True

    def _loop_element(self, node):
        """``(store, a[0])`` for the target ``v`` of ``for v in a`` or ``for i, v in
        enumerate(a)`` with ``a`` a 1-D array parameter (the element read stands for every
        element: ``_is_element`` then checks ``a`` is never reassigned), else None."""
        it, target = node.iter, node.target
        if self._enumerate_counter(node) is not None:
            it, target = it.args[0], target.elts[1]
        if isinstance(it, gast.Name) and self.array_dims.get(it.id) == 1 and isinstance(
                target, gast.Name):
            return target, gast.Subscript(value=it, slice=gast.Constant(value=0, kind=None),
                                          ctx=gast.Load())
        return None

    def _enumerate_counter(self, node):
        """The name ``i`` of ``for i, v in enumerate(a)`` (the builtin, one argument), else
        None. CPython's enumerate counts with Python ints (Objects/enumobject.c)."""
        it, target = node.iter, node.target
        if isinstance(it, gast.Call) and isinstance(it.func, gast.Name) and len(
                it.args) == 1 and not it.keywords and self.resolve(it.func) is enumerate and \
                isinstance(target, gast.Tuple) and len(target.elts) == 2 and isinstance(
                    target.elts[0], gast.Name):
            return target.elts[0].id
        return None

    def _kind_fixpoint(self, py, seeds):
        definitions = self._definitions
        self.kinds = {name: seeds.get(name) for name in py}
        changed = True
        while changed:
            changed = False
            for name in sorted(py):
                kind = self.kinds[name]
                for d in definitions[name]:
                    kind = _join(kind, "int" if _is_range_def(d) else self.kind(d))
                if kind != self.kinds[name]:
                    self.kinds[name] = kind
                    changed = True
        for name, kind in self.kinds.items():
            if kind is None:
                self.kinds[name] = "num"

    def _nonneg_fixpoint(self, seeds):
        definitions = self._definitions
        nonneg = {n for n, k in self.kinds.items() if k == "int" and (
            n not in seeds or n in self._nonneg_seeds)}
        nonneg &= self.nonneg
        self.nonneg = nonneg
        changed = True
        while changed:
            changed = False
            for name in sorted(nonneg):
                if not all(self._range_nonneg(d[1]) if _is_range_def(d) else self.is_nonneg(d)
                           for d in definitions[name]):
                    nonneg.discard(name)
                    changed = True

    # -- Python numbers ---------------------------------------------------------------------

    def is_python(self, node):
        """Whether expression ``node`` always gives a Python int/float."""
        return self.kind(node) is not None

    def kind(self, node):
        """``"int"``, ``"float"``, ``"num"`` for a Python-number expression, else None."""
        if node is None or _is_range_def(node):
            return None
        if isinstance(node, tuple):         # an item of a call's result (item_kinds)
            return node[1] if node[0] == "kind" else None
        if isinstance(node, gast.Constant):
            return _kind_of_value(node.value)
        if isinstance(node, gast.Name):
            if node.id in self.kinds:
                return self.kinds[node.id]
            if node.id in self._definitions:
                return None
            return _kind_of_value(self.resolve(node))
        if isinstance(node, gast.Attribute):
            return _kind_of_value(self.resolve(node))
        if isinstance(node, gast.BinOp):
            if isinstance(node.op, gast.MatMult):
                return None
            left, right = self.kind(node.left), self.kind(node.right)
            if left is None or right is None:
                return None
            if isinstance(node.op, gast.Div):
                return "float"
            if isinstance(node.op, gast.Pow) and left == right == "int":
                exponent = self.constant(node.right)
                if exponent is not None:
                    return "int" if exponent >= 0 else "float"
                return "int" if self.is_nonneg(node.right) else "num"
            return _join(left, right)
        if isinstance(node, gast.UnaryOp) and not isinstance(node.op, gast.Not):
            kind = self.kind(node.operand)
            if isinstance(node.op, gast.Invert):
                return "int" if kind == "int" else None
            return kind
        if isinstance(node, gast.IfExp):
            body, orelse = self.kind(node.body), self.kind(node.orelse)
            return None if body is None or orelse is None else _join(body, orelse)
        if isinstance(node, gast.Call) and not node.keywords and not any(
                isinstance(a, gast.Starred) for a in node.args):
            return self._call_kind(node)
        return None

    def _call_kind(self, node):
        func = node.func
        if isinstance(func, gast.Name) and func.id in _PY_CALLS and \
                func.id not in self._definitions:
            name = func.id
            if name in ("len", "int", "bool"):
                return "int"        # (a bool computes as an int: True + 0.5 is 1.5)
            if name == "float":
                return "float"
            kinds = [self.kind(a) for a in node.args]
            if not kinds or any(k is None for k in kinds):
                return None
            if name == "round":
                return "int" if len(kinds) == 1 else kinds[0]
            result = None
            for kind in kinds:
                result = _join(result, kind)
            return result
        if isinstance(func, gast.Attribute) or (isinstance(func, gast.Name)
                                                 and func.id not in self._definitions):
            fn = self.resolve(func)
            name = getattr(fn, "__name__", None)
            if fn is not UNKNOWN and name and getattr(math, name, None) is fn:
                # Python's math functions give Python numbers whatever their arguments.
                if name in _INT_MATH:
                    return "int"
                return "float" if name in PYTHON_FLOAT_MATH else None
        return None

    def constant(self, node):
        """The int/float value of a constant (or negated constant, or static) expression."""
        if isinstance(node, gast.Constant) and _kind_of_value(node.value):
            return node.value
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            value = self.constant(node.operand)
            if value is not None:
                return -value if isinstance(node.op, gast.USub) else value
        if isinstance(node, (gast.Name, gast.Attribute)) and not (
                isinstance(node, gast.Name) and node.id in self._definitions):
            value = self.resolve(node)
            if _kind_of_value(value):
                return value
        return None

    def is_nonneg(self, node):
        """Whether a Python-int expression is never negative."""
        value = self.constant(node)
        if value is not None:
            return value >= 0
        if isinstance(node, gast.Name):
            return node.id in self.nonneg
        if isinstance(node, gast.BinOp):
            if isinstance(node.op, (gast.Add, gast.Mult, gast.FloorDiv, gast.Pow)):
                return self.is_nonneg(node.left) and self.is_nonneg(node.right)
            if isinstance(node.op, gast.Mod):
                return self.is_nonneg(node.right)
            return False
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.UAdd):
            return self.is_nonneg(node.operand)
        if isinstance(node, gast.IfExp):
            return self.is_nonneg(node.body) and self.is_nonneg(node.orelse)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id not in self._definitions and not node.keywords:
            name, args = node.func.id, node.args
            if name in ("len", "abs"):
                return True
            if name == "min":
                return bool(args) and all(self.is_nonneg(a) for a in args)
            if name == "max":
                return any(self.is_nonneg(a) for a in args)
        return False

    def _range_nonneg(self, call):
        """The target of ``for v in range(...)`` is never negative."""
        if call is None:
            return False
        args = call.args
        if len(args) == 1:
            return True
        if len(args) == 2:
            return self.is_nonneg(args[0])
        step = self.constant(args[2]) if len(args) == 3 else None
        if step is None:
            return False
        if step > 0:
            return self.is_nonneg(args[0])
        stop = self.constant(args[1])
        return stop is not None and stop >= -1

    # -- NumPy scalars ----------------------------------------------------------------------

    def is_numpy_scalar(self, node):
        """Whether expression ``node`` always gives a NumPy scalar (np.float32, np.int64...)."""
        if isinstance(node, tuple):         # an item of a call's result (item_kinds)
            return node[0] == "numpy"
        if isinstance(node, gast.Name):
            reaching = self._reaching.get(id(node))
            if reaching is not None:
                return bool(reaching) and all(id(d) in self._numpy_defs for d in reaching)
            return node.id in self.numpy_scalars
        if isinstance(node, gast.Subscript):
            return self._is_element(node)
        if isinstance(node, gast.BinOp):
            if isinstance(node.op, gast.MatMult):
                return False
            left, right = self.is_numpy_scalar(node.left), self.is_numpy_scalar(node.right)
            return (left and (right or self._python_here(node.right))) or (
                right and self._python_here(node.left))
        if isinstance(node, gast.UnaryOp) and not isinstance(node.op, gast.Not):
            return self.is_numpy_scalar(node.operand)
        if isinstance(node, gast.IfExp):
            return self.is_numpy_scalar(node.body) and self.is_numpy_scalar(node.orelse)
        if isinstance(node, gast.Call) and not node.keywords and node.args and not any(
                isinstance(a, gast.Starred) for a in node.args):
            return self._numpy_call(node)
        return False

    def _python_here(self, node):
        """A Python number at this use: always (``is_python``), or a name whose definitions
        reaching this use all give Python numbers (``y = 1; y += a[0]``: the ``y`` read by
        the ``+=`` is the Python int 1, so ``y + a[0]`` is a NumPy scalar)."""
        if self.is_python(node):
            return True
        if isinstance(node, gast.Name):
            reaching = self._reaching.get(id(node))
            if reaching:
                values = [self._def_values.get(id(d)) for d in reaching]
                return all(v is not None and (not isinstance(v, tuple) or v[0] == "kind")
                           and self.is_python(v) for v in values)
        return False

    def _is_element(self, node):
        base = node.value
        if not isinstance(base, gast.Name) or base.id not in self.array_dims or \
                base.id in self._definitions:
            return False
        index = node.slice
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        return len(parts) == self.array_dims[base.id] and all(
            self.kind(p) == "int" for p in parts)

    def _numpy_call(self, node):
        func = node.func
        numbers = all(self.is_python(a) or self.is_numpy_scalar(a) for a in node.args)
        if isinstance(func, gast.Name) and func.id not in self._definitions:
            if func.id == "abs" and len(node.args) == 1:
                return self.is_numpy_scalar(node.args[0])
            if func.id in ("min", "max"):
                return all(self.is_numpy_scalar(a) for a in node.args)
        fn = self.resolve(func) if isinstance(func, (gast.Name, gast.Attribute)) and not (
            isinstance(func, gast.Name) and func.id in self._definitions) else UNKNOWN
        if fn is UNKNOWN:
            if isinstance(func, gast.Attribute) and func.attr in _REDUCTIONS and \
                    len(node.args) == 0:
                return self.is_array(func.value)
            return False
        if isinstance(fn, type) and issubclass(fn, np.generic):
            return len(node.args) == 1 and numbers
        if isinstance(fn, np.ufunc):
            return fn.nout == 1 and numbers
        if getattr(fn, "__name__", None) in _REDUCTIONS and getattr(np, fn.__name__, None) is fn:
            return len(node.args) == 1 and self.is_array(node.args[0])
        return False

    def is_array(self, node):
        """Whether ``node`` names an argument that is an array."""
        return isinstance(node, gast.Name) and node.id in self.array_dims and \
            node.id not in self._definitions


def python_number_vars(fdef, local_vars, seeds=()):
    """The subset of ``local_vars`` that always hold Python numbers in ``fdef``; ``seeds`` are
    parameters known to be called with Python numbers (the specialization is guarded on it)."""
    return set(Numbers(fdef, local_vars, seeds).kinds)


def exponent_params(fdef, candidates):
    """The names among ``candidates`` (int parameters) read in the exponent of a ``**`` and
    never assigned in ``fdef``. The converter specializes on their sign (Program.guard_sign)
    so that ``n ** i`` has one type, an int for ``i >= 0`` (Python gives a float for a
    negative exponent), and every analysis agrees on it."""
    stored, found = set(), set()
    for node in walk(fdef):
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
            stored.add(node.id)
        exponent = node.right if isinstance(node, gast.BinOp) and isinstance(
            node.op, gast.Pow) else node.value if isinstance(node, gast.AugAssign) and \
            isinstance(node.op, gast.Pow) else None
        if exponent is not None:
            found |= {n.id for n in walk(exponent) if isinstance(n, gast.Name)}
    return (found & set(candidates)) - stored


def _kind_of_value(value):
    if type(value) is int:
        return "int"
    if type(value) is float:
        return "float"
    return None


def _join(a, b):
    if a is None:
        return b
    if b is None or a == b:
        return a
    return "num"


def _names_nodes(target):
    return [n for n in walk(target) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store)]


def _outer_nodes(fdef):
    """The nodes of ``fdef`` and of its comprehensions, not those of its nested functions and
    lambdas (their parameters and assignments are their own names) unless one declares
    ``nonlocal`` or ``global`` (then it may assign ``fdef``'s names: walked too)."""
    stack = [fdef]
    while stack:
        node = stack.pop()
        yield node
        for child in child_nodes(node):
            if isinstance(child, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)) and \
                    not any(isinstance(n, (gast.Nonlocal, gast.Global)) for n in walk(child)):
                continue
            stack.append(child)


def _is_range_def(d):
    return isinstance(d, tuple) and d and d[0] == "range"


def _names(target):
    """Names bound by an assignment target (not those read in ``a[i] = ...``'s index)."""
    return [n.id for n in walk(target) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store)]


def _is_range(node):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "range"
