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

The merge checks (``problems``, ``weak_merges``, ``float_storage``, ``alike_tag``,
``result_types``) are transpiler.analysis.scalar_merges; the type strings and the sampling of
result types transpiler.analysis.scalar_kinds.
"""
import operator

import gast
import numpy as np

# The passes import UNKNOWN, CALL, assigns, random_state_kept, ... from here: defined there.
from .scalar_kinds import (_BINOPS, _PY_CALLS, _SAME, _UNARY, CALL, UNKNOWN,  # noqa: F401
                           _apply, _constant, _method, _pow_negative, compared_arrays_kinds,
                           index_array_kinds, random_state_kept, sample, type_of_value)
from .scalar_merges import ScalarMerges, assigns  # noqa: F401
from .call_binding import positional_call
from .dtype_calls import dtype_call
from .numba_callees import is_numba_dispatcher, result_kinds
from .list_results import iterated_elements
from .derived_types import (applied_type, list_item_types, part_types, sequence_compare_types,
                            sequences_compared)
from ..island_frames import Island
from .keyword_calls import island_types, library_call, literal_keywords
from .scopes import local_definitions, local_names, nested_reads, own_nodes
from ..nodes import child_nodes, walk


def _bind(defs, node, target, value):
    """Definitions made by ``target = value``: names get ``value`` (None: unknown); a tuple
    target and a tuple value of the same length pair up element by element."""
    if isinstance(target, gast.Name):
        defs.setdefault(target.id, []).append((node, value))
    elif isinstance(target, (gast.Tuple, gast.List)) and isinstance(
            value, (gast.Tuple, gast.List)) and len(target.elts) == len(value.elts) and not any(
            isinstance(e, gast.Starred) for e in target.elts + value.elts):
        for t, v in zip(target.elts, value.elts):
            _bind(defs, node, t, v)
    elif isinstance(target, (gast.Tuple, gast.List)) and isinstance(value, gast.Call) and all(
            isinstance(e, gast.Name) for e in target.elts):
        # `q, r = divmod(a, b)`, `s, n = helper(x)`: the call's result item by item
        for index, elt in enumerate(target.elts):
            defs.setdefault(elt.id, []).append(
                (node, ("item", value, index, len(target.elts), elt)))
    elif isinstance(target, (gast.Tuple, gast.List)) and isinstance(value, gast.Call):
        # `a, (b, c) = helper(x)`: an item that is a tuple is not typed (None); marked so
        # that a result computed from it is refused, not boxed as Numba boxes it
        for name in _stores(target):
            defs.setdefault(name.id, []).append((node, ("item", value, None, None, name)))
    else:
        for name in _stores(target):
            defs.setdefault(name.id, []).append((node, None))


class ScalarTypes(ScalarMerges):
    """The types each name of a function may hold (module docstring).

    Args:
        fdef (gast.FunctionDef): the function, one name per web (passes.split_webs).
        params (dict[str, str]): parameter -> type string (``type_of_value`` of the argument
            the specialization is guarded on); missing parameters are ``"?"``.
        resolve (callable): ``resolve(node)`` -> the static value of a Name/Attribute that is
            not a local variable, or ``unknown``.
        unknown: what ``resolve`` returns for a non-static name.
        int_power (callable | None): ``int_power(binop)`` -> whether the converter computes
            that ``**`` of two Python ints as an int (else a float: ``checked_pow``; so is an
            int argument specialized on being negative, see ``Program.guard_sign``).
        callees (CalleeTypes | None): types the results of user functions it calls
            (transpiler.analysis.callee_types); None: they are ``"call"``.
        local_defs (dict | None): the enclosing function's nested functions, name ->
            ``(FunctionDef, its owner's ScalarTypes)``, for a nested function analysed as a
            callee (it may call its siblings); its own are added.

    Attributes:
        types (dict[str, frozenset[str]]): local name -> the types it may hold.
        definitions (dict[str, list]): local name -> its definitions (gast nodes).
    """

    def __init__(self, fdef, params, resolve, unknown, int_power=None, reaching=None,
                 callees=None, local_defs=None):
        self.resolve = resolve
        self.callees = callees    # CalleeTypes: user functions' result types, or None
        self._reaching = reaching
        self._refined = {}        # id(read) -> its types, for names kept in float64 storage
        self.float_names = {}     # name -> dtype (float_storage)
        self.tag_param = None     # alike_tag of a parameter: whether the argument is Python
        self.result_tag = None    # alike_tag: (name, dtype, python kind, slot) of the result's box
        self.tag_chain = {}       # alike_tag: the names with a flag (see _tag_chain)
        self.tag_updates = {}     # alike_tag: id(stmt) -> [(name, flag update)]
        self.tag_params = {}      # alike_tag: name -> its flag as a loop region's input
        self._parent_map = None
        self._tuples = {}         # id(call) -> its tuple result's item types (_found)
        self.int_power = int_power
        self.unknown = unknown
        self.params = dict(params)
        defs = {}
        self.fdef = fdef
        own = local_names(fdef)
        self.local_defs = {name: held for name, held in (local_defs or {}).items()
                           if name not in own}
        self.local_defs.update((name, (fn, self)) for name, fn in local_definitions(fdef).items())
        self.nodes = list(own_nodes(fdef))   # read by every check below: walked once
        self.returns = [n for n in self.nodes if isinstance(n, gast.Return)]
        self.closure_reads = nested_reads(fdef)
        for node in self.nodes:
            if isinstance(node, gast.Assign):
                for target in node.targets:
                    _bind(defs, node, target, node.value)
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                defs.setdefault(node.target.id, []).append((node, ("update", node)))
            elif isinstance(node, gast.AnnAssign) and isinstance(node.target, gast.Name):
                defs.setdefault(node.target.id, []).append((node, node.value))
            elif isinstance(node, gast.For):
                self._bind_for(defs, node, node.target, node.iter)
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

    def _bind_for(self, defs, node, target, it):
        """Definitions of a ``for`` target: elements of ``it``; ``enumerate``/``zip``
        unpacked element by element."""
        if isinstance(target, gast.Name):
            defs.setdefault(target.id, []).append((node, ("for", it)))
            return
        fn = self.resolve(it.func) if isinstance(it, gast.Call) and isinstance(
            it.func, gast.Name) and not it.keywords else None
        elts = target.elts if isinstance(target, gast.Tuple) else None
        if elts and fn is enumerate and len(elts) == 2 and (len(it.args) == 1 or (
                len(it.args) == 2 and isinstance(it.args[1], gast.Constant) and
                type(it.args[1].value) is int and it.args[1].value < 2 ** 62)):
            # the counter is a Python int (from a literal int start, far below int64's end:
            # Numba counts in the start's own type, and an int64 counter would wrap)
            if isinstance(elts[0], gast.Name):
                defs.setdefault(elts[0].id, []).append((node, ("kind", "int")))
            else:
                _bind(defs, node, elts[0], None)
            self._bind_for(defs, node, elts[1], it.args[0])
        elif elts and fn is zip and len(it.args) == len(elts):
            for elt, arg in zip(elts, it.args):
                self._bind_for(defs, node, elt, arg)
        else:
            _bind(defs, node, target, None)

    def _of_definition(self, value):
        if value is None:
            return {UNKNOWN}
        if isinstance(value, tuple) and value[0] == "kind":
            return {value[1]}
        if isinstance(value, tuple) and value[0] == "update":   # x op= v
            node = value[1]
            target = self.types.get(node.target.id, frozenset())
            arrays = {k for k in target if k.startswith("arr:")}   # updated in place
            scalars = set(target) - arrays
            out = set(arrays)
            if scalars:
                out |= self._combine(_BINOPS.get(type(node.op)), [scalars, self.of(node.value)])
            return out
        if isinstance(value, tuple) and value[0] == "param":
            return {self.params.get(value[1], UNKNOWN)}
        if isinstance(value, tuple) and value[0] == "item":    # an item of a call's tuple
            _, call, index, count, _ = value
            if index is None:
                return {UNKNOWN}            # inside a nested tuple target
            items = self._items(call)
            if items == "bottom":
                return set()
            if items is None or len(items) != count:
                return {UNKNOWN}
            return set(items[index])        # empty: bottom
        if isinstance(value, tuple) and value[0] == "for":
            it = value[1]
            if self._range(it) or (isinstance(it, gast.Name) and all(
                    self._range(v) for _, v in self.definitions.get(it.id, [(None, None)]))):
                return {"int"}      # a range, or a name only ever bound to one
            if isinstance(it, (gast.Tuple, gast.List)) and it.elts and not any(
                    isinstance(e, gast.Starred) for e in it.elts):
                return set().union(*[self.of(e) for e in it.elts])     # each item in turn
            if isinstance(it, gast.Name):
                elements = iterated_elements(self, it.id)   # a list the function fills
                if elements is not None:
                    return elements
            out = set()
            for kind in self.of(it):
                if kind.startswith("arr:"):
                    _, dtype, ndim = kind.split(":")
                    out.add(f"np:{dtype}" if ndim == "1" else f"arr:{dtype}:{int(ndim) - 1}")
                else:
                    out.add(UNKNOWN)
            return out
        return set(self.of(value))

    def _range(self, node):
        """Whether ``node`` is a call of the builtin ``range`` (its elements: Python ints)."""
        return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
            node.func.id == "range" and self.resolve(node.func) is range

    def of(self, node):
        """The set of type strings expression ``node`` may give."""
        if isinstance(node, gast.Constant):
            return {type_of_value(node.value)}
        if isinstance(node, gast.Name):
            if id(node) in self._refined:
                return set(self._refined[id(node)])
            if node.id in self.types:   # empty: not known yet in the fixpoint (bottom)
                return set(self.types[node.id])
            value = self.resolve(node)
            return {UNKNOWN if value is self.unknown else type_of_value(value)}
        if isinstance(node, gast.Attribute):
            base = self.of(node.value) if not self._static(node.value) else {UNKNOWN}
            if not base:
                return set()        # not known yet in the fixpoint (bottom)
            if all(k.startswith("arr:") for k in base):
                if node.attr in ("size", "ndim"):
                    return {"int"}
                if node.attr == "shape":
                    return {"shape"}
                if node.attr == "T":
                    return set(base)
            parts = part_types(base, node.attr)     # x.real, x.imag of a number
            if parts is not None:
                return parts
            value = self.resolve(node)
            return {UNKNOWN if value is self.unknown else type_of_value(value)}
        if isinstance(node, gast.BinOp):
            fn = _BINOPS.get(type(node.op))
            left, right = self.of(node.left), self.of(node.right)
            exponent = _constant(node.right)
            if isinstance(node.op, gast.Pow) and exponent is None and self.int_power and \
                    left == {"int"} and right == {"int"} and not self.int_power(node):
                return {"float"}     # converted as a float power (checked_pow)
            if isinstance(node.op, gast.Pow) and isinstance(exponent, int) and exponent < 0:
                # int ** negative int is a float in Python (the samples' exponents are > 0)
                fn = _pow_negative
            return self._combine(fn, [left, right])
        if isinstance(node, gast.UnaryOp):
            if isinstance(node.op, gast.Not):
                return {"bool"}
            return self._combine(_UNARY.get(type(node.op)), [self.of(node.operand)])
        if isinstance(node, gast.Compare):
            if sequences_compared(node):     # (a, 1) < (b, 2)
                return sequence_compare_types(self, node)
            kinds = [self.of(node.left)] + [self.of(c) for c in node.comparators]
            if any(UNKNOWN in k or any(t.startswith("arr:") for t in k) for k in kinds):
                return compared_arrays_kinds(kinds) if len(kinds) == 2 else {UNKNOWN}
            if not all(kinds):
                return set()        # an operand not known yet in the fixpoint (bottom)
            # each comparison of a NumPy scalar gives an np.bool_ (the chain gives the one
            # that decides): a chain is one type when every link is
            # (per pair of operand types: an operand that is a float or an np.float64 by path,
            # `min(0.0, x) == 5`, gives a bool or an np.bool_ by path)
            links = [{t.startswith("np:") or u.startswith("np:") for t in a for u in b}
                     for a, b in zip(kinds, kinds[1:])]
            if all(link == {False} for link in links):
                return {"bool"}
            if all(link == {True} for link in links):
                return {"np:bool"}
            # else: the link that decides gives a bool or an np.bool_, either may (a chain
            # gives the first false link's result, or the last's)
            return {"bool", "np:bool"}
        if isinstance(node, gast.BoolOp):    # Python gives one of the operands
            return set().union(*[self.of(v) for v in node.values])
        if isinstance(node, gast.IfExp):
            return self.of(node.body) | self.of(node.orelse)
        if isinstance(node, gast.Subscript):
            index = _constant(node.slice)
            items = self._items(node.value) if type(index) is int else None
            if items == "bottom":
                return set()                # not known yet in the fixpoint
            if items is not None and type(index) is int and -len(items) <= index < len(items):
                return set(items[index])     # divmod(a, b)[1]
            if type(index) is int and isinstance(node.value, (gast.Name, gast.Attribute)) and \
                    self._static(node.value):
                value = self.resolve(node.value)    # an item of a static tuple
                if isinstance(value, tuple) and -len(value) <= index < len(value):
                    return {type_of_value(value[index])}
            elements = list_item_types(self, node)     # out[0] of a list made
            if elements is not None:
                return elements
            base = self.of(node.value)
            index = node.slice
            parts = index.elts if isinstance(index, gast.Tuple) else [index]
            ints = [p for p in parts if not isinstance(p, gast.Slice)]
            if not any(isinstance(p, gast.Starred) for p in parts) and any(
                    not self.of(p) for p in ints):
                return set()        # an index not known yet in the fixpoint (bottom)
            if len(parts) == 1 and ints and index_array_kinds(base, self.of(index)):
                return index_array_kinds(base, self.of(index))  # a[mask], a[idx]
            if any(isinstance(p, gast.Starred) for p in parts) or not all(
                    self.of(p) and all(k in ("int", "bool") or (
                        k.startswith("np:") and np.dtype(k[3:]).kind in "iu")
                        for k in self.of(p)) for p in ints):
                return {UNKNOWN}
            out = set()
            for kind in base:
                if kind == "shape" and len(parts) == 1 and ints:
                    out.add("int")
                elif kind.startswith("arr:"):
                    _, dtype, ndim = kind.split(":")
                    rest = int(ndim) - len(ints)
                    out.add(f"np:{dtype}" if rest == 0 else
                            f"arr:{dtype}:{rest}" if rest > 0 else UNKNOWN)
                else:
                    out.add(UNKNOWN)
            return out
        if isinstance(node, gast.Call):
            return self._call(node)
        return {UNKNOWN}

    def _call(self, node):
        if any(isinstance(a, gast.Starred) for a in node.args):
            return {UNKNOWN}
        if isinstance(node.func, gast.Name) and node.func.id not in self.types and \
                isinstance(island := self.resolve(node.func), Island):
            return island_types(self, node, island)     # transpiler.islands
        typed = dtype_call(self, node)      # np.zeros(n, np.int8), a.astype("f4")
        if typed is not None:
            return typed
        applied = applied_type(self, node)      # type(x)(v)
        if applied is not None:
            return applied
        if node.keywords and isinstance(node.func, gast.Name) and \
                node.func.id in self.local_defs and self.callees is not None:
            return self._local_call(node, *self.local_defs[node.func.id])   # binds keywords
        if node.keywords:
            fn = self.resolve(node.func) if isinstance(node.func, (
                gast.Name, gast.Attribute)) else self.unknown
            positional = positional_call(node, fn) if self.callees is not None else None
            if positional is not None:      # a user function's g(x, y=v): as g(x, v)
                return self.of(positional)
            keywords = literal_keywords(self, node.keywords)
            if keywords is not None:    # axis=0: NumPy's own type
                return library_call(self, node, keywords)
            if not (isinstance(node.func, gast.Attribute) and node.func.attr in ("var", "std")
                    and all(k.arg == "ddof" for k in node.keywords)):
                return {UNKNOWN}
            # ddof changes the divisor, not the result's type (numpy/_core/_methods.py)
            node = gast.Call(func=node.func, args=node.args, keywords=[])
        func = node.func
        if isinstance(func, gast.Name) and func.id in self.local_defs and \
                self.callees is not None:
            return self._local_call(node, *self.local_defs[func.id])
        if isinstance(func, gast.Name) and func.id in self.types:
            return {CALL}
        if isinstance(func, gast.Attribute) and func.attr == "type" and isinstance(
                func.value, gast.Attribute) and func.value.attr == "dtype" and len(
                node.args) == 1:
            # a.dtype.type(v): the NumPy scalar type of a's dtype (numpy.dtype.type)
            base = self.of(func.value.value)
            if not base:
                return set()                # not known yet in the fixpoint (bottom)
            dtypes = {k.split(":")[1] for k in base if k.startswith(("arr:", "np:"))}
            if len(dtypes) == 1 and all(k.startswith(("arr:", "np:")) for k in base):
                return {f"np:{dtypes.pop()}"}
            return {UNKNOWN}
        if isinstance(func, gast.Attribute) and not self._static(func.value):
            base = self.of(func.value)      # an array method: NumPy's result type
            if not base:
                return set()                # not known yet in the fixpoint (bottom)
            if all(k.startswith(("arr:", "np:")) for k in base):
                return self._combine(_method(func.attr), [base] + [self.of(a)
                                                                   for a in node.args])
            return {CALL}                   # a method of an object
        fn = self.resolve(func) if isinstance(func, (gast.Name, gast.Attribute)) else \
            self.unknown
        if fn is self.unknown:
            return {UNKNOWN}
        args = [self.of(a) for a in node.args]
        if any(fn is k for k in _PY_CALLS) and fn is not len:     # (fn may be unhashable)
            if fn is int and args and args[0] <= {"int", "bool", "float"} | set(_SAME.values()):
                return {"int"}
            return {_PY_CALLS[fn]}
        if fn is len:
            return {"int"}
        if fn is sum and len(node.args) in (1, 2) and isinstance(node.args[0], gast.Tuple) \
                and not any(isinstance(e, gast.Starred) for e in node.args[0].elts):
            total = args[1] if len(node.args) == 2 else {"int"}   # start + a + b ...
            for item in node.args[0].elts:
                total = self._combine(operator.add, [total, self.of(item)])
            return total
        if fn in (min, max):     # Python gives one of the arguments
            if len(args) == 1 and len(args[0]) == 1 and next(iter(args[0])).startswith(
                    "arr:") and next(iter(args[0])).endswith(":1"):
                return {"np:" + next(iter(args[0])).split(":")[1]}   # one of its elements
            return set().union(*args) if len(args) > 1 else {UNKNOWN}
        if getattr(fn, "__module__", None) == "cmath":    # a Python complex, float or bool
            return self._combine(fn, args)
        if getattr(fn, "__module__", None) == "math":
            found = self._combine(fn, args)
            return {"float" if k == UNKNOWN and UNKNOWN not in set().union(*args) else k
                    for k in found}
        if fn in (abs, round) or (
                isinstance(fn, type) and issubclass(fn, np.generic)) or isinstance(
                fn, np.ufunc) or (getattr(fn, "__module__", None) or "").split(".")[0] == "numpy":
            return self._combine(fn, args)
        if is_numba_dispatcher(fn):     # a numba.njit function: Numba's boxed result
            return result_kinds(fn, args)
        if self.callees is not None and hasattr(fn, "typing_view"):  # a nested function
            if any(not kinds for kinds in args):
                return set()                # an argument not known yet in the fixpoint
            found = self.callees.view_result(fn.typing_view(), args, lambda var: set(
                self.types.get(var, ())) or ({self.params[var]} if var in self.params else
                                             set()), self.resolve, self.unknown)
            return self._found(node, found, UNKNOWN)     # empty: bottom
        if self.callees is not None:    # a user function: its own analysis, if it has one
            if any(not kinds for kinds in args):
                return set()                # an argument not known yet in the fixpoint
            if self.callees.split is not None:   # tuple displays: their items' types
                args = [tuple(self.of(e) for e in a.elts) if isinstance(a, gast.Tuple) and a.elts
                        and not any(isinstance(e, gast.Starred) for e in a.elts) else kinds
                        for a, kinds in zip(node.args, args)]
                if any(isinstance(k, tuple) and not all(k) for k in args):
                    return set()                # an item not known yet in the fixpoint
            found = self.callees.result(fn, args)
            return self._found(node, found, CALL)   # empty: bottom (a recursion, the fixpoint)
        return {CALL}       # else its result is typed where it is converted

    def _local_call(self, node, fdef, owner):
        """The result types of a call of the nested function ``fdef`` defined in ``owner``'s
        function (callee_types.CalleeTypes.local_result): its parameters take this call's
        argument types (its defaults ``owner``'s), the enclosing variables it reads
        ``owner``'s types of them."""
        params = [a.id for a in fdef.args.args]
        if len(node.args) > len(params) or any(
                isinstance(a, gast.Starred) for a in node.args):
            return {UNKNOWN}
        kinds = {p: self.of(a) for p, a in zip(params, node.args)}
        for keyword in node.keywords:       # g(y=i): bound by name, as Python binds it
            if keyword.arg not in params or keyword.arg in kinds:
                return {UNKNOWN}            # **kw, or Python raises TypeError
            kinds[keyword.arg] = self.of(keyword.value)
        defaults = dict(zip(reversed(params), reversed(fdef.args.defaults)))
        for p in params:
            if p in kinds:
                continue
            if p not in defaults:
                return {UNKNOWN}            # Python raises TypeError: typed where converted
            kinds[p] = owner.of(defaults[p])
        inner = local_names(fdef)
        for name in {n.id for n in walk(fdef) if isinstance(n, gast.Name)
                     and isinstance(n.ctx, gast.Load)} - inner:
            if name in owner.definitions and name not in owner.local_defs:
                kinds[name] = set(owner.types.get(name, ()))    # a captured variable
        if any(not k for k in kinds.values()):
            return set()                    # not known yet in the fixpoint (bottom)
        # The owner's types still grow in its fixpoint, and a sibling this one calls may read
        # others of its variables: they are part of the memo's key.
        seen = tuple((name, owner.types.get(name, frozenset())) for name in sorted(
            owner.definitions) if name in owner.closure_reads)
        found = self.callees.local_result(fdef, kinds, owner.resolve, owner.unknown,
                                          self.local_defs, seen)
        return self._found(node, found, UNKNOWN)   # empty: bottom

    def _found(self, node, found, unknown):
        """The types of the call ``node`` of a user or nested function whose result types
        are ``found`` (callee_types: a frozenset, a tuple of them, or None); a tuple result
        is kept for ``_items`` (its items' types) and is ``unknown`` as a whole."""
        if isinstance(found, tuple):
            self._tuples[id(node)] = found
            return {unknown}
        self._tuples.pop(id(node), None)
        return {unknown} if found is None else set(found)

    def _items(self, node):
        """The item types of a call giving a tuple: ``items_of``'s, or those of a user or
        nested function returning tuples of one length (``s, n = helper(x)``); "bottom"
        while its arguments are not known yet in the fixpoint; else None."""
        items = self.items_of(node)
        if items is not None or not isinstance(node, gast.Call):
            return items
        if not self.of(node):
            return "bottom"
        return self._tuples.get(id(node))

    def _static(self, node):
        """Whether ``node`` is a static name or attribute chain (a module, a global)."""
        if isinstance(node, gast.Name):
            return node.id not in self.types and self.resolve(node) is not self.unknown
        if isinstance(node, gast.Attribute):
            return self._static(node.value)
        return False

    def _combine(self, fn, arg_types, keywords=()):
        if fn is None:
            return {UNKNOWN}
        if any(not kinds for kinds in arg_types):
            return set()    # an operand not known yet (bottom)
        out = set()
        for kinds in _product(arg_types):
            if UNKNOWN in kinds:
                out.add(UNKNOWN)
            elif CALL in kinds:
                out.add(CALL)
            else:
                out.add(_apply(fn, kinds, keywords))
        return out or {UNKNOWN}

    def _parents(self):
        """id(node) -> its parent, over the function's own nodes (built once)."""
        if self._parent_map is None:
            self._parent_map = {}
            for node in self.nodes:
                for child in child_nodes(node):
                    self._parent_map[id(child)] = node
        return self._parent_map

    def item_kinds(self):
        """``{id(store): type}`` for the names a tuple target binds from a call's result
        (``s, n = helper(x)``) whose item has one type, a Python int or float or a NumPy
        scalar: what transpiler.analysis.python_numbers.Numbers cannot see (its
        ``item_kinds``)."""
        found = {}
        for items in self.definitions.values():
            for _, value in items:
                if isinstance(value, tuple) and value[0] == "item":
                    kinds = self._of_definition(value)
                    if len(kinds) == 1:
                        kind = next(iter(kinds))
                        if kind in ("int", "float") or kind.startswith("np:"):
                            found[id(value[4])] = kind
        return found

    def refine_reads(self):
        """Type each read of a local by the definitions reaching it (def-use chains) instead
        of by every definition of its name: ``c = c + v; return c`` with ``c`` an int
        parameter and ``v`` a float returns a float, not an int or a float. For a function
        analysed as written (a callee: callee_types), whose names are not split into webs;
        after the fixpoint, so the types of the definitions are final."""
        for _ in range(4):      # each round reads the last one's types: they only shrink
            found = self._read_types()
            if all(self._refined.get(key) == kinds for key, kinds in found.items()):
                break
            self._refined.update(found)

    def _read_types(self):
        """id(read) -> the union of the types of the definitions reaching it (beniget
        def-use chains), for every read of a local name the chains know."""
        if self._reaching is None:
            from .def_use import reaching_definitions
            self._reaching = reaching_definitions(self.fdef, list(self.params))[0]
        by_store = {}
        args = {a.id: a for a in self.fdef.args.args if isinstance(a, gast.Name)}
        for name, items in self.definitions.items():
            for stmt, value in items:
                kinds = frozenset(self._of_definition(value))
                if stmt is None:
                    stores = [args[name]] if name in args else []
                else:
                    targets = stmt.targets if isinstance(stmt, gast.Assign) else [stmt.target]
                    stores = [n for t in targets for n in _stores(t) if n.id == name]
                for store in stores:
                    by_store[id(store)] = by_store.get(id(store), frozenset()) | kinds
        out = {}
        for node in self.nodes:
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Load) and \
                    node.id in self.types:
                reaching = self._reaching.get(id(node))
                if reaching and all(id(d) in by_store for d in reaching):
                    out[id(node)] = frozenset().union(*[by_store[id(d)] for d in reaching])
        return out


def _product(sets):
    out = [()]
    for s in sets:
        out = [prefix + (k,) for prefix in out for k in sorted(s)]
        if len(out) > 64:
            return [(UNKNOWN,)]
    return out


def _stores(target):
    return [n for n in walk(target) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store)]
