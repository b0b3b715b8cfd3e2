"""NumPy scalars: NumPy 2's loop for an operator or ufunc with a NumPy scalar operand
(analysis.numpy_scalars), the ``/``, ``//``, ``%`` of values alike by path, and builtins and
ufuncs called on scalars by the type model.
"""
import itertools
import math
import warnings

import gast
import numpy as np

from ...analysis.scalar_kinds import alike_pair
from ...analysis.numpy_scalars import (COMPARISONS, LOOP_UFUNCS, numpy_loop, operand_dtype,
                                       plan as numpy_scalar_plan, UFUNC_OPERATORS, ufunc_plan)
from ...analysis.scalar_types import (CALL as CALL_TYPE, random_state_kept, sample as sample_of,
                                      type_of_value, UNKNOWN as UNKNOWN_TYPE)
from ...analysis.static_values import constant_node, Static
from ...helpers.math_checks import to_complex2
from ...helpers.numpy_arith import (
    alike_int_pow, alike_pow, fit_int, int_uint64_sign, numpy_floordiv_int64, numpy_int_pow,
    numpy_lshift, numpy_maximum, numpy_minimum, numpy_rshift, numpy_sign,
    python_to_int_dtype)
from ...helpers.python_arith import evaluated_then, python_divmod_int, python_gcd
from ...helpers.rounding import checked_round, numpy_round_digits, python_round_digits
from ...number_rules import (ALIKE_BINOPS, NUMPY_SCALAR_BINOPS, numpy_complex_div,
                             REPLACEMENTS)
from .nodes import _cannot_raise, _hashable, _pure

from .python_number_rules import _CHECKED_BINOPS

_INTS = {"int", "bool", "np:int64", "np:bool"}


def _int_merge(kinds):
    """Whether ``kinds`` is a Python int on some paths and an np.int64 on others (bools
    beside them)."""
    return {"int", "np:int64"} <= kinds <= _INTS


class Abs:
    """The operator of ``abs(x)`` for analysis.numpy_scalars (NumPy's ``np.absolute``)."""


class NumpyScalarRules:
    """NumPy 2's loops for NumPy scalar operands."""

    def _numpy_scalar_op(self, node, op, values, sources):
        """NumPy 2's loop for an operator with a NumPy scalar operand (analysis.numpy_scalars):
        each operand converted to the loop's dtype, the result to NumPy's result dtype. None
        where the other rules apply (no NumPy scalar, a type not known by path); falls back
        where NumPy's result cannot be computed exactly.

        Args:
            node: the user's operator node (for locations and messages).
            op: the gast operator (``gast.Add()``, ``gast.Lt()``, ``gast.USub()``...).
            values (list): the converted operands (generated nodes or Static values).
            sources (list): the user's operand nodes, as the analyses know them."""
        if not self.fidelity or self.scalar_types is None:
            return None
        ufunc = op if isinstance(op, np.ufunc) else None
        name = ufunc.__name__ if ufunc is not None else type(op).__name__
        kinds = []
        every = [({type_of_value(value.value)} if isinstance(value, Static)
                  else self.scalar_types.of(source)) for value, source in zip(values, sources)]
        if name in ("Div", "Pow") and any(len(found) > 1 for found in every) and any(
                k == "complex" or k.startswith("np:complex") for found in every for k in found):
            # A complex value that is a Python complex on one path and a NumPy one on another
            # (or meets one): CPython divides (_Py_c_quot) and raises to powers (complex_pow)
            # otherwise than NumPy (npy_math_complex.c.src cdiv, npy_cpow); compiled code has
            # one type, so one of them.
            self.fail(node, "a complex " + ("division" if name == "Div" else "power") +
                            " of a value that is a Python or a NumPy number by path (CPython "
                            "and NumPy compute it differently)")
        for k, source in enumerate(sources):
            if isinstance(source, gast.Name) and source.id in self.weak_merges:
                # converted to the NumPy float type where assigned (ScalarTypes.weak_merges):
                # `y // s` with `s` 0 or an np.float32 is NumPy's float32 loop either way
                every[k] = {"np:" + self.weak_merges[source.id]}
        every = _strong_alike(name, every, ufunc)
        # A static NumPy scalar (np.float32(2.0) folded) is as strong as a runtime one.
        strong = any(isinstance(v, Static) and isinstance(v.value, np.generic) for v in values)
        if ufunc is None and any(len(found) > 1 for found in every):
            return self._merged_plan(node, name, every, values, sources, strong, op)
        for found in every:
            if len(found) != 1:
                return None
            kinds.append(next(iter(found)))
        if ufunc is None and any(k.startswith("arr:") for k in kinds):
            return self._numpy_array_op(node, op, name, kinds, values, sources)
        if ufunc is not None and any(k.startswith("arr:") for k in kinds):
            return self._ufunc_loop_arrays(node, ufunc, kinds, values, sources)
        found = (ufunc_plan(ufunc, kinds) if ufunc is not None
                 else numpy_scalar_plan(name, kinds, strong))
        return self._planned(node, op, name, found, kinds, values, sources, ufunc)

    def _merged_plan(self, node, name, every, values, sources, strong, op):
        """NumPy's loop for an operator with an operand whose type differs by path (a Python
        bool or an np.bool_: ``s = True; for x in flags: s = x``): NumPy's plan for every
        combination of the operands' types. The same plan for all: that loop, whatever the
        path (``s + np.True_`` is the bool loop either way; ``s - np.True_`` raises
        TypeError either way). A path where NumPy raises (or cannot be compiled) beside one
        where Python's rules compute (``-s``: -1 for True, TypeError for np.True_): falls
        back. Otherwise None (the alike and Python rules decide)."""
        if any(not found or not all(k in ("int", "float", "bool", "complex") or
                                    k.startswith("np:") for k in found) for found in every):
            return None
        combos = list(itertools.product(*[sorted(found) for found in every]))
        if len(combos) > 16:
            return None
        plans = {numpy_scalar_plan(name, list(combo), strong) for combo in combos}
        if len(plans) == 1 and None not in plans:
            found = next(iter(plans))
            # no operand's own type is taken as the loop's: every one is converted
            return self._planned(node, op, name, found, [None] * len(every), values, sources,
                                 None)
        if name == "Pow" and None in plans and all(found <= {"int", "np:int64"}
                                                   for found in every):
            # v0 ** -2 with v0 a Python int on some paths (0.01) and an np.int64 on others
            # (ValueError): alike only for a non-negative exponent and a result in int64
            return self._call_helper(node, alike_int_pow, [
                self._m(v, s) for v, s in zip(values, sources)])
        problems = sorted(p.problem for p in plans if p is not None and p.problem)
        if name == "Pow" and None in plans and any(
                found & {"bool", "np:bool"} for found in every):
            # True ** -1 is 1.0 in Python; np.True_ ** -1 (or True ** np.int64(-1)) is
            # NumPy's integer power, which raises ValueError: no one compiled form
            problems.append("NumPy's integer power of a bool raises ValueError for a negative "
                            "exponent where Python gives a float")
        if problems:
            self.fail(node, f"this operation computes otherwise depending on the path taken "
                            f"(an operand is {' or '.join(sorted(set().union(*every)))} by "
                            f"path; on one path: {problems[0]})")
        return None

    def _planned(self, node, op, name, found, kinds, values, sources, ufunc):
        """The operation computed by NumPy's plan ``found`` (analysis.numpy_scalars.Plan) on
        operands of types ``kinds`` (None: converted to the loop's dtype whatever it is)."""
        if found is None:
            return None
        if found.problem:
            return self.gap(node, found.problem)     # None: the plain operator, kept
        if ufunc in UFUNC_OPERATORS:
            # computed as the operator is (Numba's own integer ufunc loops differ from NumPy's:
            # np.floor_divide(np.int8(-128), -1) is 0 there, np.remainder traps)
            name = UFUNC_OPERATORS[ufunc]
            op = getattr(gast, name)() if name != "Abs" else Abs()
            ufunc = None
        if found.int_uint64:
            # i < u is sign(i, u) < 0; u < i is 0 < sign(i, u)
            exprs = [self._m(v, s) for v, s in zip(values, sources)]
            swapped = kinds[0] == "np:uint64"
            sign = self._call_helper(node, int_uint64_sign, exprs[::-1] if swapped else exprs)
            pair = [constant_node(0), sign] if swapped else [sign, constant_node(0)]
            out = gast.copy_location(gast.Compare(left=pair[0], ops=[op],
                                                  comparators=[pair[1]]), node)
            return gast.copy_location(self._np_cast("bool", out, node), node)
        loop = found.loop[0]
        operands = []
        for value, source, kind, weak_int in zip(values, sources, kinds, found.weak_int):
            expr = self._m(value, source)
            if weak_int:
                info = np.iinfo(loop)
                if not isinstance(value, Static) or not info.min <= value.value <= info.max:
                    # NumPy 2 raises OverflowError where it does not fit (a constant: always)
                    expr = self._call_helper(node, fit_int, [
                        expr, constant_node(int(info.min)), constant_node(int(info.max))])
            if kind != "np:" + loop:
                expr = self._loop_operand(loop, kind, expr, node)
            operands.append(expr)
        if found.numpy_loop is not None:
            # NumPy's own inner loop (transpiler.ir.ufunc_loop): its bits, not libm's
            out = self._ufunc_loop(node, found.numpy_loop, operands)
        elif ufunc is np.sign:
            out = self._call_helper(node, numpy_sign, operands + [
                self._np_cast(loop, constant_node(0), node),
                self._np_cast(loop, constant_node(1), node)])
        elif ufunc in (np.maximum, np.minimum) and np.dtype(loop).kind == "f":
            out = self._call_helper(node, numpy_maximum if ufunc is np.maximum
                                    else numpy_minimum, operands)
        elif ufunc is not None:
            out = gast.Call(func=self.materialize(Static(ufunc), node), args=operands,
                            keywords=[])
        elif name in COMPARISONS:
            out = gast.Compare(left=operands[0], ops=[op], comparators=[operands[1]])
        elif name == "Abs":
            out = gast.Call(func=self.materialize(Static(abs), node), args=operands,
                            keywords=[])
        elif len(operands) == 1:
            # NumPy's invert of a bool is logical (Numba's ~True is -2)
            out = gast.UnaryOp(op=gast.Not() if name == "Invert" and loop == "bool" else op,
                               operand=operands[0])
        elif name == "LShift":
            out = self._call_helper(node, numpy_lshift, operands + [
                constant_node(np.dtype(loop).itemsize * 8)])
        elif name == "RShift":
            out = self._call_helper(node, numpy_rshift, operands + [
                constant_node(np.dtype(loop).itemsize * 8),
                self._np_cast(loop, constant_node(0), node),
                self._np_cast(loop, constant_node(-1 if np.dtype(loop).kind == "i" else 0),
                              node)])
        elif name == "FloorDiv" and loop == "int64":
            out = self._call_helper(node, numpy_floordiv_int64, operands)
        elif name == "Pow" and np.dtype(loop).kind in "biu":
            out = self._call_helper(node, numpy_int_pow, operands)
        elif loop == "int64" and name in ("Add", "Sub", "Mult", "USub"):
            # wrapping int64 arithmetic, spelled in uint64 (Numba's signed ops are `nsw`)
            unsigned = [self._np_cast("uint64", o, node) for o in operands]
            if name == "USub":
                unsigned = [self._np_cast("uint64", constant_node(0), node)] + unsigned
                op = gast.Sub()
            out = gast.BinOp(left=unsigned[0], op=op, right=unsigned[1])
        elif name == "Div" and loop.startswith("complex"):
            out = self._call_helper(node, numpy_complex_div[loop], operands)
        elif name in NUMPY_SCALAR_BINOPS:    # a scalar plan: both operands are scalars
            out = self._call_helper(node, NUMPY_SCALAR_BINOPS[name], operands)
        else:
            out = gast.BinOp(left=operands[0], op=op, right=operands[1])
        return gast.copy_location(self._np_cast(found.result, gast.copy_location(out, node),
                                                node), node)

    def _loop_operand(self, loop, kind, expr, node):
        """Scalar ``expr`` of type string ``kind`` converted to NumPy's loop dtype ``loop``.
        A Python int becomes a float32/float16 through a C double, as NumPy converts it
        (FLOAT_setitem: MyPyFloat_AsDouble, then the cast): rounded twice, where one int64 to
        float32 conversion rounds once (2**60 + 2**36 + 1 differs; found by a review)."""
        if kind in ("int", "bool") and loop in ("float32", "float16", "complex64"):
            expr = self._np_cast("float64", expr, node)
        return self._np_cast(loop, expr, node)

    def _ufunc_loop(self, node, ufunc, operands):
        """``ufunc_loop(ufunc, *operands)`` (transpiler.ir): operands already of the loop's
        dtypes."""
        return gast.Call(func=self.program.ir_symbol("ufunc_loop").ref(),
                         args=[self.materialize(Static(ufunc), node)] + operands, keywords=[])

    def _ufunc_loop_arrays(self, node, ufunc, kinds, values, sources):
        """``np.exp(a)``, ``np.arctan2(a, 0.5)``... with an array operand, for a ufunc whose
        loop NumPy computes with its own code (analysis.numpy_scalars.numpy_loop): NumPy's
        loop for the operands (``ufunc.resolve_dtypes``, NEP 50: a Python number is weak),
        each operand converted to it as NumPy converts inputs, then that loop (a 0-d array
        as its scalar: NumPy's result is a scalar then). None where the call stays Numba's
        (other ufuncs, types NumPy refuses); a float16 loop and arrays of different ndims
        (NumPy's iterator broadcasts them in several loop calls) fall back."""
        if ufunc.nout != 1 or len(kinds) != ufunc.nin or not all(
                k in ("int", "float", "complex", "bool") or k.startswith(("np:", "arr:"))
                for k in kinds):
            return None
        try:
            resolved = ufunc.resolve_dtypes(tuple(operand_dtype(k) for k in kinds) + (None,))
        except Exception:  # noqa: BLE001 - NumPy raises for these types: the call stays
            return None
        loop = resolved[:-1]
        if ufunc in LOOP_UFUNCS and any(d.name == "float16" for d in resolved):
            self.fail(node, f"np.{ufunc.__name__} of these arrays is NumPy's float16 loop "
                            "(compiled code would compute in float32)")
        if not numpy_loop(ufunc, tuple(d.name for d in loop), arrays=True):
            return None
        operands = []
        for value, source, kind, dtype in zip(values, sources, kinds, loop):
            expr = self._m(value, source)
            if kind.startswith("arr:") and kind.endswith(":0"):
                # a 0-d array is NumPy's scalar operand (step 0); all 0-d: a scalar result
                expr = gast.Call(func=gast.Attribute(value=expr, attr="item",
                                                     ctx=gast.Load()), args=[], keywords=[])
                kind = "np:" + kind.split(":")[1]
            if kind.startswith("arr:") and np.dtype(kind.split(":")[1]) != dtype:
                expr = self._astype(dtype, expr, node)      # as NumPy converts a ufunc input
            elif not kind.startswith("arr:") and kind != "np:" + dtype.name:
                expr = self._loop_operand(dtype.name, kind, expr, node)
            operands.append(expr)
        return gast.copy_location(self._ufunc_loop(node, ufunc, operands), node)

    def _alike_op(self, node, op, values, sources):
        """``/``, ``//``, ``%`` with an operand that is a Python float on some paths and an
        np.float64 on others (an int and an np.int64, a bool and an np.bool_ meeting a
        number: ``2 // s``): they compute alike but by zero
        (helpers.numpy_arith.alike_div). None elsewhere."""
        name = type(op).__name__
        if not self.fidelity or self.scalar_types is None:
            return None
        pairs = ({"float", "np:float64"}, {"int", "np:int64"}, {"bool", "np:bool"})
        kinds = [{type_of_value(v.value)} if isinstance(v, Static) else self.scalar_types.of(s)
                 for v, s in zip(values, sources)]
        operands = [self._m(v, s) for v, s in zip(values, sources)]
        form = _CHECKED_BINOPS.get(type(op))
        if form is not None and self.program.check_int and any(map(_int_merge, kinds)) and all(
                k <= _INTS and k & {"int", "bool"} for k in kinds):
            # Python ints on every operand on some path: Python's result may leave int64
            # where NumPy's (an np.int64 on the other paths) wraps; checked, an effect-free
            # call runs again as Python there (either path's own result).
            return self._checked_int(node, form, operands)
        if name == "Pow" and any({"float", "np:float64"} <= k for k in kinds) and all(
                k <= {"int", "bool", "float", "np:float64", "np:int64", "np:bool"}
                for k in kinds):
            return self._call_helper(node, alike_pow, operands)
        if name not in ALIKE_BINOPS:
            return None
        if any(any(pair <= k for pair in pairs) for k in kinds):
            return self._call_helper(node, ALIKE_BINOPS[name], operands)
        return None

    def _alike_int(self, node):
        """Whether ``node`` is a Python int on some paths and an np.int64 on others (checked
        where Python's result may leave int64: ``-s``, ``abs(s)`` of -2**63)."""
        if not self.fidelity or self.scalar_types is None or not self.program.check_int:
            return False
        return _int_merge(self.scalar_types.of(node))

    def _numpy_scalar_call(self, node, fn):
        """Builtins and ufuncs called on scalars, by the type model (analysis.scalar_types,
        analysis.numpy_scalars); None where the other rules apply.

        - a ufunc of EXACT_UFUNCS: NumPy's loop, as for operators;
        - ``isinstance(x, T)``: decided here from x's type (the specialization is guarded on
          it; Numba's typing takes an int64 for an int and a bool for no int);
        - ``divmod(a, b)`` with a NumPy scalar: NumPy's ``//`` and ``%`` loops;
        - ``sum((a, b, ...))`` / ``sum((...), start)``: ``start + a + b ...`` in Python's
          order, each ``+`` by the rules for operators;
        - ``range(...)`` of NumPy integers: Python ints (Numba would keep int16/uint8 counters);
        - ``round(x, n)`` of an integer (Python's or NumPy's): the value itself for a constant
          ``n >= 0``; otherwise it falls back (Python rounds the integer exactly, NumPy
          through float64); ``round(np.bool_)`` raises TypeError plainly: falls back."""
        args = node.args
        types = self.scalar_types
        kinds = [types.of(a) for a in args]
        known = all(len(k) == 1 and not k & {UNKNOWN_TYPE, CALL_TYPE, "shape"} for k in kinds)
        if known and _hashable(fn) and (fn in (round, int, float, complex, abs, divmod, len) or (
                fn in (max, min) and len(args) == 1) or (
                getattr(fn, "__module__", None) == "math")):
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"), \
                        random_state_kept(fn):
                    warnings.simplefilter("ignore")
                    fn(*[sample_of(next(iter(k))) for k in kinds])
            except TypeError as exc:   # decided by the types: the plain call raises it too
                self.fail(node, f"{getattr(fn, '__name__', fn)}() of these types raises "
                                f"TypeError in Python ({exc})")
            except Exception:  # noqa: BLE001 - a value error of the sample: decided at run time
                pass
        if fn is sum and args and not isinstance(args[0], gast.Tuple) and self.fidelity:
            # passes/comprehensions.py made a loop of every sum it could move before its
            # statement (on CPython < 3.12): Numba's own sum adds ints in int64 (wrapping)
            # and floats without 3.12's compensation
            self.fail(node, "sum() where it cannot become a loop of its own (inside a "
                            "condition, or beside another call; on Python 3.12+ sum() adds "
                            "floats compensated): compiled code would add in its own types")
        if fn is complex and len(args) == 2 and known and all(
                next(iter(k)) in ("int", "float", "bool") or (next(iter(k)).startswith("np:") and
                                                               "complex" not in next(iter(k)))
                for k in kinds):
            return self._call_helper(node, to_complex2, [self._m(self.expr(a), a) for a in args])
        if isinstance(fn, type) and issubclass(fn, np.integer) and len(args) == 1 and \
                kinds[0] and kinds[0] <= {"int", "float"}:
            info = np.iinfo(fn)
            value = self.expr(args[0])
            if isinstance(value, Static) and info.min <= value.value <= info.max:
                return None
            if kinds[0] == {"int"}:     # int64 bounds cannot be passed as int64 +-1
                below, above = [constant_node(int(info.min) - 1 if info.min > -2 ** 63
                                              else -1.0e300),
                                constant_node(int(info.max) + 1 if info.max < 2 ** 63 - 1
                                              else 1.0e300)]
            else:   # the floats nearest min - 1 and max + 1 outward: exact bounds (float(
                # -2**63) - 1.0 rounds back to -2**63, which np.int64 takes)
                below, above = (constant_node(_float_toward(int(info.min) - 1, -math.inf)),
                                constant_node(_float_toward(int(info.max) + 1, math.inf)))
            value = self._call_helper(node, python_to_int_dtype, [
                self._m(value, args[0]), below, above])
            return gast.Call(func=self.materialize(Static(fn), node), args=[value],
                             keywords=[])
        if isinstance(fn, type) and issubclass(fn, np.integer) and len(args) == 1 and \
                len(kinds[0]) == 1 and next(iter(kinds[0])).startswith("np:float"):
            # a NumPy float into an integer type: C's cast (through int32 or int64, as a
            # store into an array of the type: numpy_array_rules), undefined beyond that
            value = self._numpy_float_cast(node, np.dtype(fn),
                                           self._m(self.expr(args[0]), args[0]))
            return gast.Call(func=self.materialize(Static(fn), node), args=[value],
                             keywords=[])
        if fn is math.gcd and len(args) == 2 and known and not node.keywords and all(
                next(iter(k)) in ("int", "bool") or (next(iter(k)).startswith("np:") and
                                                     np.dtype(next(iter(k))[3:]).kind in "iu")
                for k in kinds):
            # CPython's gcd of the index values: a Python int (helpers.python_arith)
            return self._call_helper(node, python_gcd, [self.value(a) for a in args])
        if fn in (np.round, np.around) and 1 <= len(args) <= 2 and not node.keywords and \
                len(kinds[0]) == 1 and (next(iter(kinds[0])).startswith("np:") or
                                        kinds[0] <= {"float", "int", "bool"}):
            # a Python int is NumPy's int64 (compiled code holds no larger one), a bool its
            # bool_ (np.round(True) is np.True_): Numba's np.round goes through float64
            kind = {"int": "np:int64", "bool": "np:bool"}.get(next(iter(kinds[0])),
                                                               next(iter(kinds[0])))
            return self._numpy_round(node, args, kind, kinds[1] if len(args) == 2 else {"int"})
        if fn is np.where and len(args) == 3 and not node.keywords and all(
                len(k) == 1 and (next(iter(k)) in ("int", "float", "complex", "bool") or
                                 next(iter(k)).startswith("np:")) for k in kinds[1:]):
            # NumPy's result dtype is the weak (NEP 50) promotion of the two scalars, each
            # converted to it unsafely (np.where(c, np.int8(1), 300) is array(44, int8) where
            # 300 is taken); Numba promotes by its own rules
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                dtype = np.result_type(*[sample_of(next(iter(k))) for k in kinds[1:]])
            if dtype.name == "float16":
                self.fail(node, "np.where of float16 scalars (Numba has no float16 scalars)")
            return gast.Call(func=self.materialize(Static(np.where), node), args=[
                self.value(args[0])] + [self._np_cast(dtype.name, self._m(self.expr(a), a),
                                                      node) for a in args[1:]], keywords=[])
        if fn is np.divmod and len(args) == 2 and not node.keywords and all(
                k and all(t in ("int", "float", "complex", "bool") or t.startswith("np:")
                          for t in k) for k in kinds):
            # NumPy's floor_divide and remainder loops (Numba's np.divmod gives Python numbers
            # and traps for int8(-128), -1)
            if not all(_pure(a) for a in args):
                self.fail(node, "np.divmod() of scalars with an operand that is a call (its "
                                "// and % would evaluate it twice here)")
            values = [self.expr(a) for a in args]
            parts = [self._numpy_scalar_op(node, u, values, args)
                     for u in (np.floor_divide, np.remainder)]
            if any(p is None for p in parts):
                self.fail(node, "np.divmod() of scalars whose types differ by path")
            return gast.Tuple(elts=[self._m(p, node) for p in parts], ctx=gast.Load())
        if isinstance(fn, np.ufunc) and _hashable(fn):
            values = [self.expr(a) for a in args]
            return self._numpy_scalar_op(node, fn, values, args)
        if fn is isinstance and len(args) == 2:
            kinds = types.of(args[0])
            cls = self.expr(args[1])
            if len(kinds) == 1 and isinstance(cls, Static) and not (kinds & {
                    UNKNOWN_TYPE, CALL_TYPE}) and not next(iter(kinds)) == "shape":
                try:
                    known = isinstance(sample_of(next(iter(kinds))), cls.value)
                except (TypeError, ValueError):
                    return None
                if _cannot_raise(args[0]):
                    return Static(known)
                # Python evaluates the argument first (it may raise): keep that
                return self._call_helper(node, evaluated_then,
                                         [self.value(args[0]), constant_node(known)])
            return None
        if fn is divmod and len(args) == 2:
            pair = [gast.copy_location(gast.BinOp(left=args[0], op=op, right=args[1]), node)
                    for op in (gast.FloorDiv(), gast.Mod())]
            if not any(k.startswith("np:") for k in set().union(*kinds)):
                if all(k <= {"int", "bool"} for k in kinds) and any("int" in k
                                                                     for k in kinds):
                    # Python's divmod, but -2**63 // -1 leaves int64 (Numba gives 0)
                    return self._call_helper(node, python_divmod_int,
                                             [self.value(a) for a in args])
                return None         # Python numbers: Numba's divmod is Python's
            if not all(len(k) == 1 for k in kinds):
                self.fail(node, "divmod() of a NumPy scalar whose operands' types differ by "
                                "path")
            if not all(_pure(a) for a in args):
                self.fail(node, "divmod() of a NumPy scalar with an operand that is a call "
                                "(NumPy's // and % would evaluate it twice here)")
            return gast.Tuple(elts=[self._m(self.expr(p), p) for p in pair], ctx=gast.Load())
        if fn is sum and 1 <= len(args) <= 2 and isinstance(args[0], gast.Tuple) and not any(
                isinstance(e, gast.Starred) for e in args[0].elts) and len(args[0].elts) < 64:
            total = args[1] if len(args) == 2 else gast.copy_location(
                gast.Constant(value=0, kind=None), node)
            for item in args[0].elts:
                total = gast.copy_location(gast.BinOp(left=total, op=gast.Add(), right=item),
                                           node)
            return self.expr(total)
        if fn is range and any(types.of(a) and all(
                k.startswith("np:") or k == "bool" for k in types.of(a)) for a in args):
            values = []
            for a in args:
                value = self._m(self.expr(a), a)
                if all(k.startswith("np:") or k == "bool" for k in types.of(a)):
                    value = self._call_helper(node, REPLACEMENTS[int], [value])
                values.append(value)
            return gast.Call(func=self.materialize(Static(range), node), args=values,
                             keywords=[])
        if fn is round and len(args) == 1 and types.of(args[0]) and all(
                k in ("int", "bool") or k in ("np:int8", "np:int16", "np:int32", "np:int64",
                                              "np:uint8", "np:uint16", "np:uint32",
                                              "np:uint64")
                for k in types.of(args[0])):
            # round() of an integer is that integer as a Python int, exactly (Numba goes
            # through float64: round(2**53 + 1) lost the 1; an np.uint64 from 2**63 on wrapped
            # to a negative int64: checked_int raises there and the call runs as Python)
            value = self._m(self.expr(args[0]), args[0])
            if types.of(args[0]) == {"int"}:
                return value
            return self._call_helper(node, REPLACEMENTS[int], [value])
        if fn is round and len(args) == 1 and types.of(args[0]) and all(
                k == "float" or k in ("np:float32", "np:float64") for k in types.of(args[0])):
            return self._call_helper(node, checked_round, [self._m(self.expr(args[0]),
                                                                   args[0])])
        # the digits are an index (PyNumber_Index): an int, a bool or a NumPy integer alike
        digits_ok = len(args) == 2 and types.of(args[1]) and types.of(args[1]) <= {
            "int", "bool", "np:int8", "np:int16", "np:int32", "np:int64", "np:uint8",
            "np:uint16", "np:uint32", "np:uint64"}
        if fn is round and len(args) == 2 and types.of(args[0]) == {"float"} and digits_ok:
            # CPython's correctly rounded round(x, n) (Numba's scales by 10**n: 0.2 for 0.1)
            return self._call_helper(node, python_round_digits,
                                     [self._m(self.expr(a), a) for a in args])
        if fn is round and len(args) == 2 and len(types.of(args[0])) == 1 and \
                types.of(args[0]) <= {"np:float32", "np:float64"} and digits_ok:
            # NumPy's own algorithm, in the scalar's dtype (Numba's differs from 10**9 on)
            return self._call_helper(node, numpy_round_digits,
                                     [self._m(self.expr(a), a) for a in args])
        if fn is round and args:
            kinds = types.of(args[0])
            if kinds == {"np:bool"}:
                self.fail(node, "round() of an np.bool_ raises TypeError")
            integer = kinds and all(k in ("int", "bool") or (k.startswith("np:") and np.dtype(
                k[3:]).kind in "iu") for k in kinds)
            if integer and len(args) == 2:
                digits = self.expr(args[1])
                if not (isinstance(digits, Static) and type(digits.value) is int
                        and digits.value >= 0):
                    self.fail(node, "round() of an integer to a number of digits that may be "
                                    "negative (Python rounds the integer exactly)")
                value = self._m(self.expr(args[0]), args[0])
                if kinds == {"bool"}:   # round(True, 1) is the int 1
                    value = gast.Call(func=self.materialize(Static(int), node),
                                      args=[value], keywords=[])
                return value
            if len(args) == 2:
                # Numba's round(x, n) scales by 10**n (round(2.675, 2) is 2.68; CPython's is
                # correctly rounded, 2.67): only the kinds above have an exact helper
                self.fail(node, "round(x, n) of a value not known here to be a Python float, "
                                "an integer or an np.float32/np.float64 (Numba rounds "
                                "otherwise than Python and NumPy)")
        return None

    def _numpy_round(self, node, args, kind, digit_kinds):
        """``np.round(x[, n])`` of a NumPy scalar or a Python float ``x`` (type ``kind``):
        NumPy's algorithm in x's dtype (helpers.rounding.numpy_round_digits; Numba's
        np.round of a float32 gives a float64), an integer unchanged for a constant ``n >=
        0``; otherwise it falls back."""
        dtype = "float64" if kind == "float" else kind[3:]
        value = self._m(self.expr(args[0]), args[0])
        digits = self.expr(args[1]) if len(args) == 2 else Static(0)
        if np.dtype(dtype).kind in "iu":
            if isinstance(digits, Static) and type(digits.value) is int and digits.value >= 0:
                return self._np_cast(dtype, value, node)
            self.fail(node, "np.round of a NumPy integer to digits that may be negative")
        if dtype not in ("float32", "float64") or not digit_kinds <= {"int", "bool"}:
            self.fail(node, f"np.round of a {dtype} scalar (NumPy's own rounding of its type)")
        return self._np_cast(dtype, self._call_helper(node, numpy_round_digits, [
            self._np_cast(dtype, value, node), self._m(digits, args[1] if len(args) == 2
                                                       else node)]), node)

    def _np_cast(self, dtype, expr, node):
        """``np.<dtype>(expr)`` (a conversion: wraps integers, rounds floats)."""
        return gast.copy_location(gast.Call(
            func=self.materialize(Static(np.dtype(dtype).type), node), args=[expr],
            keywords=[]), node)


def _strong_alike(name, every, ufunc):
    """The operands' type sets ``every`` with an alike merge (``{"int", "np:int64"}``:
    analysis.scalar_kinds ``alike_pair``) taken as its NumPy scalar where every other operand
    is one NumPy scalar type and NumPy's loop and result are the same from either path
    (``np.int64(2) ** s``: the int64 loop, a Python int weak; NumPy's wrapping power on both
    paths, not Numba's); else ``every`` unchanged."""
    if name not in ("Pow", "LShift", "RShift"):
        return every    # + - * wrap in Numba's int64 as NumPy's (and stay reductions)
    merged = [k for k, found in enumerate(every) if len(found) == 2 and alike_pair(found)]
    if ufunc is not None or len(merged) != 1 or len(every) != 2 or not all(
            len(found) == 1 and next(iter(found)).startswith("np:")
            for k, found in enumerate(every) if k != merged[0]):
        return every
    plans = []
    for kind in alike_pair(every[merged[0]]):
        kinds = [next(iter(found)) if k != merged[0] else kind for k, found in enumerate(every)]
        plans.append(numpy_scalar_plan(name, kinds, False))
    if None in plans or any(p.problem for p in plans) or (plans[0].loop, plans[0].result) != (
            plans[1].loop, plans[1].result):
        return every
    return [{alike_pair(found)[1]} if k == merged[0] else found for k, found in enumerate(every)]


def _float_toward(n, direction):
    """The float nearest the int ``n`` on the side of ``direction`` (``-math.inf``: the
    largest float <= n; ``math.inf``: the smallest float >= n)."""
    value = float(n)
    if (direction < 0 and value > n) or (direction > 0 and value < n):
        value = math.nextafter(value, direction)
    return value
