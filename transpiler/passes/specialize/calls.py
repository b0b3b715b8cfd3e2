"""Calls: ``expr_Call`` decides which rule a call takes (``.item()``/``.reshape``, transpiler.ir's
checked forms, folded builtins, the number rules, refused builtins, converted user functions,
``np.random``, ``np.arange``/``np.clip`` checks, library calls).
"""
import math

import gast
import numpy as np

from ...analysis.dtype_calls import static_dtype
from ...analysis.numba_callees import is_numba_dispatcher, result_type as numba_result_type
from ...analysis.numpy_scalars import operand_dtype
from ...analysis.static_values import constant_node
from ...helpers.numpy_arith import created_float_checked, fit_int
from ...analysis.static_values import FOLDABLE_BUILTINS, is_scalar, library_reference, Static
from ...helpers.numpy_calls import (
    numpy_arange3, numpy_clip, numpy_clip_array, numpy_random_seed, numpy_random_uniform,
    numpy_reshape, numpy_roll_axis)
from ...helpers.numpy_reductions import python_max_1d, python_min_1d
from ...number_rules import DIFFERENT_CALLS, FLOAT_MATH, REPLACEMENTS, replacement
from ...ir import opaque as ir_opaque, weak as ir_weak
from ...island_frames import Island
from ...nodes import walk
from .nodes import k_ok, _defines_trunc, _describe, _hashable, _pure
from .numpy_scalar_rules import Abs
from .python_number_rules import _IR_CHECKED, _IR_OPERATORS
from .reductions import exact_reduction
from .refusals import _DIFFERENT_BUILTINS

# Python's ints define __floor__/__ceil__/__trunc__ (the int itself); NumPy's integer scalars
# do not, so math.floor goes through float there (np.int64(2**53 + 1) -> 2**53), as Numba's.
_INTEGER_TYPES = frozenset({"int", "bool"})


# Shifts and axes np.roll's helper takes: ints whose `%` with an int64 stays an integer
_ROLL_INTS = frozenset({"int", "bool"} | {f"np:{t}" for t in (
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32")})


class Calls:
    """``expr_Call``: the rule a call takes."""

    def expr_Call(self, node):
        exact = exact_reduction(self, node)
        if exact is not None:
            return exact
        callee = self.expr(node.func)
        if isinstance(callee, Static) and isinstance(callee.value, Island):
            return self.python_island(node, callee.value)   # (user_calls)
        self._refuse_unordered(node, callee)
        if not isinstance(callee, Static) and isinstance(node.func, gast.Name):
            callee = self._held_callee(node.func) or callee
        if not isinstance(callee, Static) and isinstance(node.func, gast.Attribute) and \
                node.func.attr == "item" and not node.args and not node.keywords and \
                self.scalar_types is not None:
            kinds = self.scalar_types.of(node.func.value)
            if len(kinds) == 1 and next(iter(kinds)) in ("int", "float", "bool", "complex"):
                self.fail(node, f"a Python {next(iter(kinds))} has no .item() (Python raises "
                                "AttributeError)")
            if len(kinds) == 1 and next(iter(kinds)).startswith("np:"):
                # a NumPy scalar's .item() is the Python number (Numba keeps the dtype)
                python = self.scalar_types.of(node)
                convert = {frozenset({"int"}): int, frozenset({"float"}): float,
                           frozenset({"complex"}): complex, frozenset({"bool"}): bool}.get(
                    frozenset(python))
                if convert is not None:
                    value = self._m(self.expr(node.func.value), node.func.value)
                    if convert is bool:
                        return gast.Call(func=self.materialize(Static(bool), node),
                                         args=[value], keywords=[])
                    return self._call_helper(node, REPLACEMENTS[convert], [value])
        if not isinstance(callee, Static) and self.fidelity and isinstance(
                node.func, gast.Attribute) and node.func.attr == "fill" and len(
                node.args) == 1 and not node.keywords and self.scalar_types is not None:
            kinds = self.scalar_types.of(node.func.value)
            if len(kinds) == 1 and next(iter(kinds)).startswith("arr:"):
                # a.fill(v) converts v as a store of it into one element does (measured:
                # np.zeros(3, np.int8).fill(300) raises OverflowError; Numba wraps)
                value = self._m(self.expr(node.args[0]), node.args[0])
                checked = self.checked_scalar_store(
                    node, np.dtype(next(iter(kinds)).split(":")[1]), node.args[0], value,
                    self.scalar_types.of(node.args[0]))
                if checked is not value:
                    return gast.Call(func=callee, args=[checked], keywords=[])
        if not isinstance(callee, Static) and self.fidelity and isinstance(
                node.func, gast.Attribute) and node.func.attr == "reshape" and node.args and \
                not node.keywords and self.scalar_types is not None and not any(
                isinstance(a, gast.Starred) for a in node.args):
            kinds = self.scalar_types.of(node.func.value)
            if kinds and all(k.startswith("arr:") for k in kinds) and _pure(node.func.value):
                # NumPy's errors and strides (helpers.numpy_calls.numpy_reshape)
                dims = node.args[0].elts if len(node.args) == 1 and isinstance(
                    node.args[0], gast.Tuple) else node.args
                one = self.scalar_types.of(node.args[0])
                if len(node.args) > 1 or isinstance(node.args[0], gast.Tuple) or (
                        one and one <= {"int", "bool"} or one and all(
                            k.startswith("np:int") for k in one)):
                    # a.reshape(6) is a.reshape((6,)): the helper takes a tuple
                    shape = gast.Tuple(elts=[self.value(d) for d in dims], ctx=gast.Load())
                else:
                    shape = self.value(node.args[0])
                return self._call_helper(node, numpy_reshape,
                                         [self.value(node.func.value), shape])
        if not isinstance(callee, Static):
            return gast.Call(func=callee, args=[self.value(a) for a in node.args],
                             keywords=[self._child(k) for k in node.keywords])
        fn = callee.value
        if _hashable(fn) and fn in _IR_CHECKED and not node.keywords and self.program.check_int:
            # transpiler.ir.int_add & co. called by graphjit's helpers (transpiler.helpers)
            return self._checked_int(node, _IR_CHECKED[fn], [self.value(a) for a in node.args])
        if _hashable(fn) and fn in _IR_CHECKED and not node.keywords:
            return gast.BinOp(left=self.value(node.args[0]), op=_IR_OPERATORS[_IR_CHECKED[fn]](),
                              right=self.value(node.args[1]))
        if fn is ir_opaque and len(node.args) == 1 and not node.keywords:
            # transpiler.ir.opaque used by transpiler.helpers: libm's pow, never folded
            return gast.Call(func=self.program.ir_symbol("opaque").ref(),
                             args=[self.value(node.args[0])], keywords=[])
        if fn is ir_weak and len(node.args) == 2 and not node.keywords:
            # transpiler.ir.weak used by transpiler.helpers.weak: the typed NEP 50 helper.
            return self._weak(self.value(node.args[0]), node.args[0],
                              self.value(node.args[1]))
        if _hashable(fn) and fn in FOLDABLE_BUILTINS and not any(
                isinstance(a, gast.Starred) for a in node.args):
            args = [self.expr(a) for a in node.args]
            kwargs = {k.arg: self.expr(k.value) for k in node.keywords}
            if all(isinstance(a, Static) for a in args + list(kwargs.values())) and k_ok(kwargs):
                if fn in (len, hasattr, getattr) and args:
                    self._instance_fact(args[0])   # instance state read without a path
                try:
                    result = fn(*(a.value for a in args),
                                **{k: v.value for k, v in kwargs.items()})
                except Exception:  # noqa: BLE001 - raise it at run time, as Python would
                    result = None
                else:
                    if fn is getattr:
                        return self.static(result, None, node)
                    if fn is type and len(args) == 1 and not kwargs and \
                            args[0].path is not None:
                        # type(self).scale: re-read (and guard) through __class__
                        return self.static(result, args[0].path.child(".", "__class__"), node)
                    if is_scalar(result) or isinstance(result, type):
                        return Static(result)
        plain_args = not node.keywords and not any(isinstance(a, gast.Starred)
                                                   for a in node.args)
        if fn is type and plain_args and len(node.args) == 1 and self.fidelity:
            return self._type_of(node)
        if plain_args and self.scalar_types is not None and fn in (min, max) and \
                len(node.args) == 1 and self.fidelity:
            kinds = self.scalar_types.of(node.args[0])
            if len(kinds) == 1 and next(iter(kinds)).startswith("arr:") and \
                    next(iter(kinds)).endswith(":1"):
                return self._call_helper(node, python_max_1d if fn is max else python_min_1d,
                                         [self.value(node.args[0])])
        if plain_args and self.scalar_types is not None:
            special = self._numpy_scalar_call(node, fn)
            if special is not None:
                return special
        if fn is abs and len(node.args) == 1 and not node.keywords and not isinstance(
                node.args[0], gast.Starred):
            operand = self.expr(node.args[0])
            kinds = self.scalar_types.of(node.args[0]) if self.scalar_types else set()
            if kinds and all(k.startswith(("arr:float", "arr:complex")) for k in kinds):
                # abs(array) is ndarray.__abs__, np.absolute (Numba has no builtin abs of
                # arrays): NumPy's loop where it is NumPy's own code, else Numba's np.absolute
                return self._numpy_scalar_op(node, np.absolute, [operand], [
                    node.args[0]]) or gast.Call(func=self.materialize(Static(np.absolute),
                                                                      node),
                                                args=[self._m(operand, node.args[0])],
                                                keywords=[])
            exact = self._numpy_scalar_op(node, Abs(), [operand], [node.args[0]])
            if exact is not None:
                return exact
            if not isinstance(operand, Static) and (self._python_int(node.args[0]) and \
                    self.scalar_types.of(node.args[0]) == {"int"} or self._alike_int(
                        node.args[0])):
                return self._checked_int(node, "int_abs", [operand])
            if self.scalar_types is not None and self.scalar_types.of(node.args[0]) == {"bool"}:
                # Python's abs(True) is the int 1 (Numba's an int8)
                return gast.Call(func=self.materialize(Static(abs), node), args=[gast.Call(
                    func=self.materialize(Static(int), node), args=[
                        self._m(operand, node.args[0])], keywords=[])], keywords=[])
        if fn is np.arange and self.scalar_types is not None and any(
                d is not None and d.kind == "b" for d in [
                    static_dtype(self.scalar_types, a) for a in list(node.args) +
                    [k.value for k in node.keywords if k.arg == "dtype"]]):
            self.fail(node, "np.arange() of booleans: NumPy raises TypeError beyond two "
                            "elements, Numba computes them")
        if _hashable(fn) and fn in _DIFFERENT_BUILTINS:
            self.fail(node, f"{_DIFFERENT_BUILTINS[fn]} in compiled code does not give "
                            "Python's result")
        if _hashable(fn) and fn in DIFFERENT_CALLS:
            self.gap(node, DIFFERENT_CALLS[fn])
        if _hashable(fn) and fn is math.ldexp and len(node.args) == 2 and \
                self.numbers.kind(node.args[1]) != "int":
            self.fail(node, "math.ldexp() with an exponent that may not be a Python int "
                            "(Python raises TypeError; compiled code would compute)")
        if _hashable(fn) and fn is math.gcd and not all(
                self._integer_typed(a) or self.numbers.kind(a) == "int" for a in node.args):
            self.fail(node, "math.gcd() of a value that may be a float (Python raises "
                            "TypeError; compiled code would compute)")
        if _hashable(fn) and fn is math.trunc and len(node.args) == 1 and self.fidelity and \
                not all(_defines_trunc(k) for k in (self.scalar_types.of(node.args[0])
                                                    if self.scalar_types else {"?"}) or {"?"}):
            self.fail(node, "math.trunc() of a value that may be a NumPy scalar other than "
                            "float64 (NumPy defines no __trunc__ there: Python raises "
                            "TypeError; compiled code would compute)")
        if _hashable(fn) and fn in (math.floor, math.ceil, math.trunc) and len(
                node.args) == 1 and not node.keywords and self.fidelity and \
                self.scalar_types is not None and not self.program.runs_python and (
                    self.scalar_types.of(node.args[0]) or {"?"}) <= _INTEGER_TYPES:
            # of an integer: the int itself (CPython's int.__floor__); the float route would
            # round beyond 2**53
            return self._call_user(node, REPLACEMENTS[int], None)
        checked = replacement(fn, len(node.args)) if _hashable(fn) else None
        if checked is not None and fn in (float, int, complex):
            self._refuse_number_of_container(node, fn)
        if (checked is not None and not node.keywords
                and self.fidelity     # not inside one of graphjit's own helpers
                and not self.program.runs_python):  # Python's own calls are Python's
            return self._call_user(node, checked, None)
        if is_numba_dispatcher(fn):
            return self._numba_function_call(node, callee)
        if getattr(fn, "__graphjit_do_not_convert__", False):
            self.fail(node, f"{getattr(fn, '__qualname__', fn)} is marked do_not_convert")
        target = self._user_callable(callee, node)
        if target is not None:
            return self._call_user(node, *target)
        if library_reference(fn) is None:
            self.fail(node.func, f"calling {_describe(fn) if not callable(fn) else repr(fn)} "
                                 "is not converted (not a library function graphjit can "
                                 "compile, nor Python source it can read)")
        if self.fidelity and fn in (np.arange, np.clip) and not node.keywords and not any(
                isinstance(a, gast.Starred) for a in node.args):
            checked = self._numpy_checked_call(node, fn)
            if checked is not None:
                return checked
        ref = library_reference(fn)
        if ref is not None and ref[0] == "numpy" and ref[1][:1] == ("random",):
            from ...random_state import EXACT
            if len(ref[1]) != 2 or ref[1][1] not in EXACT:
                self.fail(node, f"np.random.{'.'.join(ref[1][1:])} draws otherwise in "
                                "compiled code (Numba's implementation)")
            self.program.uses_random = True   # NumPy's state is carried in and out
            name = ref[1][1]
            if name == "seed":
                self.program.random_seeded = True   # NumPy's Gaussian cache is dropped too
            if self.fidelity and not node.keywords and (name, len(node.args)) in (
                    ("seed", 1), ("uniform", 2)):
                exprs = [self.expr(a) for a in node.args]
                if all(isinstance(e, Static) or self.scalar_types is not None and
                       self.scalar_types.of(a) and all(
                           k in ("int", "bool", "float") or k.startswith("np:")
                           for k in self.scalar_types.of(a))
                       for e, a in zip(exprs, node.args)):
                    helper = numpy_random_seed if name == "seed" else numpy_random_uniform
                    return self._call_helper(node, helper, [
                        self._m(e, a) for e, a in zip(exprs, node.args)])
        if ref is not None and ref[0] == "numpy":
            return self._numpy_library_call(node, callee)
        args = [self.value(a) for a in node.args]
        if ref is not None and ref[0] == "math" and ref[1][-1] in FLOAT_MATH and not any(
                isinstance(a, gast.Starred) for a in args):
            args = [gast.copy_location(gast.Call(func=gast.Attribute(
                value=self.program.import_symbol("numpy").ref(), attr="float64",
                ctx=gast.Load()), args=[a], keywords=[]), a) for a in args]
        return gast.Call(func=self.materialize(callee, node.func), args=args,
                         keywords=[self._child(k) for k in node.keywords])

    def _numba_function_call(self, node, callee):
        """A call of a ``numba.njit`` function (analysis.numba_callees): the dispatcher is a
        runtime input (Numba calls it from compiled code with the arguments' Numba types, as
        the plain call's ``numba.typeof`` gives them), its result converted to the type Numba
        boxes it as in a plain call (a float32 result is a Python float)."""
        if node.keywords or any(isinstance(a, gast.Starred) for a in node.args):
            self.fail(node, "a numba.njit function called with keywords or *args")
        if self.scalar_types is None:
            self.fail(node, "a numba.njit function called where the argument types are not "
                            "known (before the first call)")
        if callee.path is None:
            self.fail(node, "this numba.njit function is not reachable from a root graphjit "
                            "can re-read")
        found = numba_result_type(callee.value, [self.scalar_types.of(a) for a in node.args])
        if isinstance(found, str):
            self.fail(node, found)
        self.program.calls_numba = True      # backends/graph_plan.py: not a NumPy graph
        call = gast.Call(func=self.runtime_input(callee.path),
                         args=[self.value(a) for a in node.args], keywords=[])
        widened = found[1]      # np.float64 of a float32 result...: exact
        if widened is None or self.program.runs_python:
            return call
        return gast.Call(func=self.materialize(Static(widened), node), args=[call],
                         keywords=[])

    def _type_of(self, node):
        """``type(v)`` of a runtime value: the Python or NumPy class its one known type is
        (Numba's ``type()`` gives its own type objects: ``type(1.5) is float`` was False)."""
        kinds = self.scalar_types.of(node.args[0]) if self.scalar_types is not None else set()
        kind = next(iter(kinds)) if len(kinds) == 1 else None
        found = {"int": int, "float": float, "bool": bool, "complex": complex}.get(kind)
        if kind and kind.startswith("np:"):
            found = np.dtype(kind[3:]).type
        elif kind and kind.startswith("arr:"):
            found = np.ndarray
        if found is None:
            self.fail(node, "type() of a value whose type is not known here, or that differs "
                            "by path (compiled code gives its own type objects)")
        self.value(node.args[0])      # evaluated as Python does, for its errors
        return Static(found)

    def _held_callee(self, func):
        """The library function a local name holds where its one definition, a statement of
        the function's body itself, binds it to one (``f = np.sin``; ``f(x)``): calls of it
        then take that function's rules (NumPy's loops, graphjit's helpers), as the direct
        call does. None elsewhere (the call stays a call of the local's value)."""
        if self.scalar_types is None:
            return None
        found = self.scalar_types.definitions.get(func.id, ())
        body = self.scalar_types.fdef.body
        if len(found) != 1 or not isinstance(found[0][0], gast.Assign) or \
                found[0][0] not in body or \
                not isinstance(found[0][1], (gast.Attribute, gast.Name)):
            return None
        # no read before it (Python raises UnboundLocalError there: the call stays a call)
        definition = found[0][0]
        before = body[:body.index(definition)] + [definition.value]
        if any(isinstance(n, gast.Name) and n.id == func.id
               for stmt in before for n in walk(stmt)):
            return None
        value = self.expr(found[0][1])
        if isinstance(value, Static) and _hashable(value.value) and (
                isinstance(value.value, np.ufunc) or library_reference(value.value)):
            return value
        return None

    def _numpy_library_call(self, node, callee):
        """A NumPy function's call; a Python type given as a dtype (``np.zeros(n,
        dtype=bool)``, ``np.ones(n, int)``) is the NumPy scalar type NumPy maps it to
        (``np.dtype(bool).type``: np.bool_, int64, float64, complex128), which Numba types."""
        def arg(node_arg):
            value = self.expr(node_arg)
            if isinstance(value, Static) and _hashable(value.value) and value.value in (
                    bool, int, float, complex):
                return self.materialize(Static(np.dtype(value.value).type), node_arg)
            return self._m(value, node_arg)
        if callee.value is np.roll:
            rolled = self._roll_along_axis(node)
            if rolled is not None:
                return rolled
        args = [self.value(a) if isinstance(a, gast.Starred) else arg(a) for a in node.args]
        if callee.value in (np.full, np.array, np.asarray) if _hashable(callee.value) else False:
            args = self._created_values(node, callee.value, args)
        if isinstance(callee.value, np.ufunc) and not any(
                isinstance(a, gast.Starred) for a in node.args):
            # a ufunc's loop (and a NumPy scalar result) follows its operands' types
            args = [self._untyped(v, a) for v, a in zip(args, node.args)]
        keywords = [gast.keyword(arg=k.arg, value=arg(k.value)) if k.arg is not None
                    else self._child(k) for k in node.keywords]
        return gast.Call(func=self.materialize(callee, node.func), args=args, keywords=keywords)

    def _roll_along_axis(self, node):
        """``np.roll(a, k, axis)`` (``axis=`` too) of an array and int ``k`` and ``axis``:
        helpers.numpy_calls.numpy_roll_axis (Numba's np.roll has no axis). None where the
        code stays NumPy's (straight-line: its NumPy graph) or the types are others."""
        if self.scalar_types is None or not self.fidelity or self.straight_line():
            return None
        parts = list(node.args) + [k.value for k in node.keywords if k.arg == "axis"]
        if len(parts) != 3 or any(isinstance(a, gast.Starred) for a in node.args) or any(
                k.arg not in ("axis",) for k in node.keywords):
            return None
        array, shift, axis = (self.scalar_types.of(p) for p in parts)
        if len(array) != 1 or not next(iter(array)).startswith("arr:") or not (
                shift and shift <= _ROLL_INTS and axis and axis <= _ROLL_INTS):
            return None
        return self._call_helper(node, numpy_roll_axis, [self.value(p) for p in parts])

    def _clip_dtype_check(self, node, exprs, bound_kinds):
        """``np.clip(a, low, high)`` of an array: NumPy 2's clip is a ufunc whose loop is
        NEP 50's (``np._core.umath.clip.resolve_dtypes``: an int array clipped to float
        bounds is float64, a float32 one to an np.float64 bound float64); Numba's keeps the
        array's dtype: falls back where they differ, and where a Python int bound may not
        fit an integer array's dtype (NumPy clips by its value, Numba converts it first)."""
        if self.scalar_types is None:
            return
        kinds = self.scalar_types.of(node.args[0])
        if len(kinds) != 1 or not next(iter(kinds)).startswith("arr:"):
            return
        dtype = np.dtype(next(iter(kinds)).split(":")[1])
        operands = [dtype]
        for value, bound, found in zip(exprs[1:], node.args[1:], bound_kinds):
            if isinstance(value, Static) and value.value is None:
                continue
            if len(found) != 1:
                self.fail(node, "np.clip with a bound whose type differs by path")
            kind = next(iter(found))
            if not (kind in ("int", "float", "bool", "complex") or kind.startswith("np:")):
                return
            if kind == "int" and dtype.kind in "iu" and dtype.name != "int64":
                constant = self.numbers.constant(bound)
                info = np.iinfo(dtype)
                if constant is None or not info.min <= constant <= info.max:
                    self.fail(node, f"np.clip of an {dtype.name} array with a Python int bound "
                                    "that may not fit it (NumPy clips by the value, Numba "
                                    "converts it to the dtype first)")
            operands.append(operand_dtype(kind))
        if len(operands) != 3:
            return
        try:
            result = np._core.umath.clip.resolve_dtypes(tuple(operands) + (None,))[-1]
        except Exception:  # noqa: BLE001 - NumPy refuses the types: so does the plain call
            self.fail(node, "np.clip of these types raises in NumPy")
        if result != dtype:
            self.fail(node, f"np.clip of a {dtype.name} array with these bounds is "
                            f"{result.name} in NumPy (Numba keeps the array's dtype)")

    def _created_values(self, node, fn, args):
        """``args`` of ``np.full(shape, v, dtype)`` / ``np.array([v, ...], dtype)`` with an
        integer ``dtype``: a Python int ``v`` that does not fit raises OverflowError as in
        NumPy 2 (Numba wraps it); a float outside the dtype's range or nan (NumPy: undefined,
        with a RuntimeWarning) is said not to fit (helpers.numpy_arith.created_float_checked).
        NumPy integers wrap in both."""
        if not self.fidelity or self.scalar_types is None or any(
                isinstance(a, gast.Starred) for a in node.args):
            return args
        position = 2 if fn is np.full else 1
        named = [k.value for k in node.keywords if k.arg == "dtype"]
        source = named[0] if named else (node.args[position] if len(node.args) > position
                                         else None)
        found = self.expr(source) if source is not None else None
        try:
            dtype = np.dtype(found.value) if isinstance(found, Static) else None
        except TypeError:
            dtype = None
        if dtype is None or dtype.kind not in "iu":
            return args
        args = list(args)
        if fn is np.full and len(args) > 1:
            args[1] = self._created_value(node, dtype, node.args[1], args[1])
        elif args and isinstance(node.args[0], (gast.List, gast.Tuple)):
            args[0] = self._created_display(node, dtype, node.args[0])
        elif args:      # a 0-d array: NumPy values cast unsafely, Python numbers as int()
            kinds = self.scalar_types.of(node.args[0])
            if kinds and not any(k.startswith("arr:") for k in kinds):
                args[0] = self.checked_scalar_store(node, dtype, node.args[0], args[0], kinds,
                                                    unsafe_numpy=True)
        return args

    def _created_display(self, node, dtype, display):
        """A list or tuple display (nested ones too) made into an integer array: each
        element converted as a store into an element converts it (measured:
        ``np.array([300], np.int8)`` and ``np.asarray([np.int64(300)], np.int8)`` raise
        OverflowError)."""
        elts = []
        for e in display.elts:
            if isinstance(e, (gast.List, gast.Tuple)):
                elts.append(self._created_display(node, dtype, e))
                continue
            value = self.value(e)
            kinds = self.scalar_types.of(e)
            elts.append(self.checked_scalar_store(node, dtype, e, value, kinds) if kinds and
                        not any(k.startswith("arr:") for k in kinds) else value)
        return type(display)(elts=elts, ctx=gast.Load())

    def _created_value(self, node, dtype, source, value):
        """One value of _created_values, checked where NumPy and Numba differ."""
        kinds = self.scalar_types.of(source)
        info = np.iinfo(dtype)
        if kinds == {"int"}:
            constant = self.numbers.constant(source)
            if constant is not None and info.min <= constant <= info.max:
                return value
            return self._call_helper(node, fit_int, [
                value, constant_node(int(info.min)), constant_node(int(info.max))])
        if len(kinds) == 1 and (kinds == {"float"} or next(iter(kinds)).startswith(
                "np:float")):
            constant = self.numbers.constant(source)
            if constant is not None and info.min <= constant <= info.max:
                return value
            return self._store_float_check(node, dtype, value, created_float_checked)
        if kinds & {"int", "float"} or any(k.startswith("np:float") for k in kinds):
            self.fail(node, "a number of several types by path converted into a new integer "
                            "array (NumPy converts each its own way)")
        return value

    def _numpy_checked_call(self, node, fn):
        """``np.arange``/``np.clip`` where Numba's answer differs from NumPy's: the helpers of
        transpiler.helpers.numpy_calls (a zero step, a NaN or an infinite length, a NaN bound) or
        ``np.copy`` for ``np.clip(a, None, None)``; None where Numba's is NumPy's (the caller
        then emits the library call)."""
        exprs = [self.expr(a) for a in node.args]
        values = [self._m(e, a) for e, a in zip(exprs, node.args)]

        def may_be_float(e, a):   # a float may be NaN
            return not isinstance(e, Static) and (
                self.scalar_types is None or self.scalar_types.of(a) - {"int", "bool"})
        if fn is np.arange and len(exprs) in (1, 2):
            if self.scalar_types is None or not any(
                    may_be_float(e, a) for e, a in zip(exprs, node.args)):
                return None
            zero = gast.Constant(value=0, kind=None)
            one = gast.Constant(value=1, kind=None)
            return self._call_helper(node, numpy_arange3,
                                     ([zero] if len(values) == 1 else []) + values + [one])
        if fn is np.arange and len(exprs) == 3:
            step = exprs[2]
            if isinstance(step, Static) and step.value != 0 and not any(
                    may_be_float(e, a) for e, a in zip(exprs[:2], node.args)):
                return None
            return self._call_helper(node, numpy_arange3, values)
        if fn is not np.clip or len(exprs) != 3:
            return None
        bounds = exprs[1:]
        if any(isinstance(b, Static) and isinstance(b.value, float) and b.value != b.value
               for b in bounds):
            self.fail(node, "np.clip with a NaN bound (NumPy gives NaN; Numba ignores it)")
        kinds = [self.scalar_types.of(a) if self.scalar_types else set() for a in node.args[1:]]
        self._clip_dtype_check(node, exprs, kinds)
        if all(not isinstance(b, Static) or type(b.value) is float for b in bounds) and \
                all(k and all(x in ("float", "int") or x.startswith("np:float") for x in k)
                    for k in kinds) and any(
                "float" in k or any(x.startswith("np:float") for x in k) for k in kinds):
            # a float bound may be NaN: NumPy's result is NaN (helpers.numpy_calls.numpy_clip)
            first = self.scalar_types.of(node.args[0]) if self.scalar_types else set()
            array = first and all(k.startswith("arr:") and np.dtype(k.split(":")[1]).kind == "f"
                                  for k in first)
            return self._call_helper(node, numpy_clip_array if array else numpy_clip, values)
        if all(isinstance(b, Static) and b.value is None for b in bounds):
            # NumPy 2 returns a copy; Numba raises ValueError
            kinds = self.scalar_types.of(node.args[0]) if self.scalar_types else set()
            if not kinds or not all(k.startswith("arr:") for k in kinds):
                self.fail(node, "np.clip(x, None, None) of a value that may not be an array")
            return gast.Call(func=gast.Attribute(
                value=self.program.import_symbol("numpy").ref(), attr="copy",
                ctx=gast.Load()), args=[values[0]], keywords=[])
        return None
