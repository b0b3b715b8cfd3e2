"""Arrays: operators with an array operand by NumPy's rules, ``a op= b`` on an array, and values
stored into an element of an integer array as NumPy's setitem stores them.
"""
import gast
import numpy as np

from ...analysis.numpy_scalars import (array_plan, COMPARISONS, operand_dtype as _ufunc_operand,
                                       UFUNCS)
from ...analysis.static_values import constant_node, Static
from ...helpers.numpy_arith import (
    fit_int, numpy_float_to_int_type, numpy_float_to_uint64, store_float_checked,
    store_int_checked)
from .nodes import _as_load


class NumpyArrayRules:
    """NumPy's rules for array operands and stores into arrays."""

    def _numpy_array_op(self, node, op, name, kinds, values, sources):
        """An operator with an array operand by NumPy's rules (analysis.numpy_scalars
        ``array_plan``): a NumPy scalar meeting an array converted to the loop dtype (the
        array too, where its dtype is not the loop's); ``a ** 0.5`` is ``np.sqrt(a)``; falls
        back where Numba's array loop differs. None where Numba's operator already agrees."""
        if name == "MatMult":
            return None     # ufunc_loop(np.matmul, ...): expressions.py, whatever the types
        constants = [v.value if isinstance(v, Static) else self.numbers.constant(s)
                     for v, s in zip(values, sources)]
        found = array_plan(name, kinds, constants)
        if found is None:
            return None
        if found.problem:
            return self.gap(node, found.problem)     # None: the plain operator, kept
        operands = [self._m(v, s) for v, s in zip(values, sources)]
        if found.sqrt:
            base = operands[0]
            if kinds[0] != f"arr:{found.loop}:{kinds[0].split(':')[2]}":
                base = self._astype(found.loop, base, node)
            return gast.copy_location(gast.Call(func=self.materialize(Static(np.sqrt), node),
                                                args=[base], keywords=[]), node)
        if not found.loop:
            return None
        converted = []
        for expr, kind in zip(operands, kinds):
            if kind.startswith("arr:") and kind.split(":")[1] != found.loop:
                expr = self._astype(found.loop, expr, node)
            elif (kind.startswith("np:") and kind[3:] != found.loop) or kind == "complex":
                expr = self._np_cast(found.loop, expr, node)
            converted.append(expr)
        if name in COMPARISONS:
            out = gast.Compare(left=converted[0], ops=[op], comparators=[converted[1]])
        else:
            out = gast.BinOp(left=converted[0], op=op, right=converted[1])
        return gast.copy_location(out, node)

    def _inplace_array_update(self, node, target, value, target_kinds):
        """``a op= b`` of an array ``a``: ``np.<ufunc>(a, b, out=a)`` with casting
        'same_kind' in NumPy. Where NumPy's result dtype cannot be cast so into ``a``'s, the
        plain call raises (UFuncOutputCastingError, a TypeError): fall back. A NumPy scalar
        ``b`` is converted to the loop dtype, as for ``a op b``. None where the other rules
        apply. Float ``//=`` and ``%=`` become ``a[...] = a // b``: NumPy's npy_divmod, not
        Numba's in-place kernels."""
        if len(target_kinds) != 1:
            return None
        kind = next(iter(target_kinds))
        value_kinds = self.scalar_types.of(node.value)
        if len(value_kinds) != 1:
            return None
        other = next(iter(value_kinds))
        name = type(node.op).__name__
        constants = [None, value.value if isinstance(value, Static) else
                     self.numbers.constant(node.value)]
        found = array_plan(name, [kind, other], constants)
        if found is None:
            return None
        if found.problem:
            self.fail(node, found.problem)
        ufunc = UFUNCS.get(name)
        dtypes = (np.dtype(kind.split(":")[1]), _ufunc_operand(other))
        try:
            resolved = ufunc.resolve_dtypes(dtypes + (None,))
        except Exception:  # noqa: BLE001 - NumPy refuses the types: Numba's typing too
            return None
        result = resolved[-1]
        if not np.can_cast(result, dtypes[0], casting="same_kind"):
            self.fail(node, f"NumPy cannot cast {ufunc.__name__}'s {result.name} result into "
                            f"the {dtypes[0].name} array updated in place (it raises "
                            "UFuncOutputCastingError)")
        if found.sqrt:
            return None
        value = self._m(value, node.value)
        if other.startswith("np:") and found.loop and other[3:] != found.loop:
            value = self._np_cast(found.loop, value, node)
        elif other in ("float", "int", "bool", "complex") and resolved[0].kind in "fc" and \
                resolved[0].name not in ("float64", "complex128"):
            # NEP 50: `float32_array -= 0.1` subtracts float32(0.1) in float32; Numba's
            # in-place loop would run in float64 and cast the result (other last bits)
            value = self._np_cast(resolved[0].name, value, node)
        if other == "int" and dtypes[0].kind in "iu":
            # NEP 50: a Python int meeting an integer array must fit its dtype
            info = np.iinfo(dtypes[0])
            constant = constants[1]
            if constant is None or not info.min <= constant <= info.max:
                value = self._call_helper(node, fit_int, [
                    value, constant_node(int(info.min)), constant_node(int(info.max))])
            if dtypes[0].kind == "u":
                # ... and is that dtype's scalar (NumPy's loop): Numba types an unsigned array
                # op= an int64 with no loop (its in-place typing then fails on an assert: the
                # whole function ran as Python)
                value = self._np_cast(dtypes[0].name, value, node)
        if name in ("FloorDiv", "Mod") and resolved[0].kind == "f":
            # `a[...] = a // b`: NumPy's float // and % are npy_divmod, CPython's
            # float_floor_div and float_rem (-1.5 // inf is -1.0, -1.5 % -1.5 is -0.0), as
            # Numba's out-of-place array operators; its in-place ones (and its np.floor_divide
            # and np.remainder kernels) give -0.0 and 0.0 there. The result is computed
            # whole, then stored, cast to the array's dtype ('same_kind', checked above).
            whole = gast.Subscript(value=_as_load(target), slice=gast.Constant(
                value=Ellipsis, kind=None), ctx=gast.Store())
            return gast.copy_location(gast.Assign(
                targets=[whole], value=gast.BinOp(left=_as_load(target), op=node.op,
                                                  right=value), type_comment=None), node)
        return gast.AugAssign(target=target, op=node.op, value=value)

    def _astype(self, dtype, expr, node):
        """``expr.astype(np.<dtype>)``: an array converted as NumPy converts a ufunc input."""
        return gast.copy_location(gast.Call(
            func=gast.Attribute(value=expr, attr="astype", ctx=gast.Load()),
            args=[self.materialize(Static(np.dtype(dtype).type), node)], keywords=[]), node)

    def _checked_store(self, node, target, source, value, kinds=None):
        """``value`` (the user's ``source``; its types ``kinds`` when known otherwise) stored
        into an element of an integer array as NumPy 2's setitem stores it (measured per
        target and value type, NumPy 2.4): into a signed array every value is converted as
        ``int()`` converts it, and one that does not fit raises OverflowError (nan:
        ValueError); into an unsigned array a Python int or float is so too, while a NumPy
        integer wraps and a NumPy float is converted through int64 (C's conversion). Numba
        wraps everything (and a float out of range is undefined). Complex values fall back."""
        if not self.fidelity or self.scalar_types is None:
            return value
        base = self.scalar_types.of(target.value)
        if len(base) != 1 or not next(iter(base)).startswith("arr:"):
            return value
        parts = next(iter(base)).split(":")
        ndim = int(parts[2])
        index = target.slice.elts if isinstance(target.slice, gast.Tuple) else [target.slice]
        kinds = self.scalar_types.of(source) if kinds is None else kinds
        fancy = self.fancy_index(target)
        if (fancy or len(index) != ndim or any(_slice_like(i) for i in index)) and (
                not kinds or not all(_real_kind(k) or k == "complex" or (
                    k.startswith("np:") and np.dtype(k[3:]).kind == "c") for k in kinds)):
            # a store of an array into a slice: NumPy's unsafe cast, as Numba's (a scalar
            # into a slice is converted as into one element, measured: a[1:] = 300 raises)
            return value
        dtype = np.dtype(parts[1])
        if not fancy and dtype.kind == "i" and any(
                k.startswith("np:") and k != "np:" + dtype.name for k in kinds) and any(
                not (self.scalar_types.of(i) and all(
                    k in ("int", "bool") or (k.startswith("np:") and np.dtype(k[3:]).kind in
                                             "biu") for k in self.scalar_types.of(i)))
                for i in index if not _slice_like(i)):
            # an element store raises where a store through an index array wraps
            self.fail(node, "a NumPy value stored into an integer array through an index "
                            "graphjit cannot type (an int or an index array: NumPy converts "
                            "the value otherwise for each)")
        return self.checked_scalar_store(node, dtype, source, value, kinds, unsafe_numpy=fancy)

    def fancy_index(self, target):
        """Whether the subscript ``target`` indexes with an array (an index array, a mask)."""
        index = target.slice.elts if isinstance(target.slice, gast.Tuple) else [target.slice]
        return any(any(k.startswith("arr:") for k in self.scalar_types.of(i))
                   for i in index if not _slice_like(i))

    def checked_scalar_store(self, node, dtype, source, value, kinds, unsafe_numpy=False):
        """``value`` (the user's ``source``, of types ``kinds``) converted as NumPy 2 converts
        a scalar stored into an array of ``dtype`` (an element, a slice, ``a.fill(value)``:
        the same rules, measured): see _checked_store. With ``unsafe_numpy`` (a store through
        an index array or a mask, a 0-d ``np.array(v, dtype)``) a NumPy value is cast
        unsafely into a signed array too, as into an unsigned one (measured: ``a[idx] =
        np.uint8(200)`` is -56 in an int8 array where ``a[0] = np.uint8(200)`` raises)."""
        if dtype.kind not in "iu" or not kinds:
            return value
        if len(kinds) > 1:
            # A value of several types (`y = 1; ..; y -= x` with x a np.float64): compiled
            # code holds it in one unified type, so a per-type check cannot apply. Where any
            # of its types needs one, fall back rather than store what Numba's cast gives.
            if all(self._checked_store_kind(node, dtype, kind, source, value,
                                             unsafe_numpy) is value
                   for kind in sorted(kinds)):
                return value
            as_int = all(_real_kind(k) and (dtype.kind == "i" or k in ("int", "bool", "float"))
                         for k in kinds)
            if as_int:
                # every one of its types is converted as int() converts it: one check of
                # the unified value applies to each
                if any(k == "float" or (k.startswith("np:") and np.dtype(k[3:]).kind == "f")
                       for k in kinds):
                    return self._store_float_check(node, dtype, value)
                info = np.iinfo(dtype)
                return self._call_helper(node, store_int_checked, [
                    value, constant_node(int(info.min)), constant_node(int(info.max))])
            self.fail(node, f"a value of several types ({', '.join(sorted(kinds))}) stored "
                            f"into an {dtype.name} array (NumPy converts each type its own "
                            "way)")
        return self._checked_store_kind(node, dtype, next(iter(kinds)), source, value,
                                        unsafe_numpy)

    def _checked_store_kind(self, node, dtype, kind, source, value, unsafe_numpy=False):
        """``value`` (of type ``kind``) stored into an element of an integer ``dtype`` array:
        ``value`` itself where NumPy and Numba store alike, else a checked form (see
        _checked_store)."""
        if kind == "np:" + dtype.name:
            return value
        if not (kind in ("int", "bool", "float", "complex") or kind.startswith("np:")):
            return value
        # a Python number as compiled code holds it (int64, float64, complex128)
        source_dtype = np.dtype(_ufunc_operand(kind))
        if source_dtype.kind == "c":
            self.fail(node, f"a complex value stored into an {dtype.name} array (NumPy "
                            "raises or warns by type)")
        python = kind in ("int", "float", "bool")
        info = np.iinfo(dtype)
        unsafe = dtype.kind == "u" or unsafe_numpy
        if source_dtype.kind in "biu":
            if unsafe and not python:
                return value                      # a NumPy integer wraps, as in Numba
            constant = self.numbers.constant(source)
            if constant is not None and info.min <= constant <= info.max:
                return value
            if source_dtype.kind == "b":
                return value
            own = np.iinfo(source_dtype)
            low, high = max(info.min, own.min), min(info.max, own.max)
            if low == own.min and high == own.max:
                return value                      # every value of its type fits
            return self._call_helper(node, store_int_checked, [
                value, self._np_cast(source_dtype.name, constant_node(int(low)), node),
                self._np_cast(source_dtype.name, constant_node(int(high)), node)])
        # a float
        if unsafe and not python:
            return self._numpy_float_cast(node, dtype, value)
        return self._store_float_check(node, dtype, value)

    def _numpy_float_cast(self, node, dtype, value):
        """``value`` (a NumPy float) converted to the integer ``dtype`` as NumPy's C cast does,
        for a store into an array or a constructor (``np.int8(f)``): through int32 (into 8-
        and 16-bit integers, and int32) or int64, uint64 directly from 2**63; undefined
        beyond (helpers.numpy_arith.numpy_float_to_int_type, numpy_float_to_uint64)."""
        if dtype.name == "uint64":
            return self._call_helper(node, numpy_float_to_uint64, [value])
        bound = 2.0 ** 31 if dtype.itemsize <= 2 or dtype.name == "int32" else 2.0 ** 63
        return self._call_helper(node, numpy_float_to_int_type, [
            value, constant_node(-bound - (1.0 if bound < 2 ** 53 else 2048.0)),
            constant_node(bound)])

    def _store_float_check(self, node, dtype, value, check=store_float_checked):
        """``value`` (a float) stored into an integer ``dtype`` array as ``int()`` converts
        it: nan raises ValueError, a value beyond the dtype's range OverflowError (``check``:
        the helper given the open bounds ``(low, high)``)."""
        info = np.iinfo(dtype)
        low = float(info.min) - 1.0
        if low == float(info.min):
            low = float(np.nextafter(float(info.min), -np.inf))
        return self._call_helper(node, check, [
            value, constant_node(low), constant_node(float(info.max) + 1.0)])


def _slice_like(index):
    """Whether an index item selects many elements: a slice or ``...``."""
    return isinstance(index, gast.Slice) or (isinstance(index, gast.Constant) and
                                             index.value is Ellipsis)


def _real_kind(kind):
    """Whether a value type (analysis.scalar_types' name) is a real number: a Python bool,
    int or float, or a NumPy bool, integer or float scalar."""
    if kind in ("int", "bool", "float"):
        return True
    return kind.startswith("np:") and np.dtype(kind[3:]).kind in "biuf"
