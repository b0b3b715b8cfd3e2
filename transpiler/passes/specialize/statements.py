"""Statements: the ``block``/``stmt`` dispatch (``stmt_<Kind>``), assignments (with NumPy's
checked stores and in-place updates), ``return``, ``raise``, ``assert`` and assignment targets.
Control flow is in ``control_flow``, nested definitions in ``local_functions``.
"""

import types

import gast
import numpy as np

from ...analysis.static_values import Static, library_reference
from ...helpers.numpy_arith import element_index_checked
from ...helpers.numpy_calls import (masked_items, masked_store_items, masked_store_scalar,
                                      overlapping_operand)
from .nodes import _as_load, _cannot_raise, _load, _pure, _store
from .python_number_rules import _CHECKED_BINOPS
from .refusals import _UNSUPPORTED_STMTS
from ...analysis.scalar_kinds import UNKNOWN

_OPS = {gast.Add: "+", gast.Sub: "-", gast.Mult: "*", gast.Div: "/", gast.FloorDiv: "//",
        gast.Mod: "%", gast.Pow: "**", gast.BitAnd: "&", gast.BitOr: "|", gast.BitXor: "^",
        gast.LShift: "<<", gast.RShift: ">>", gast.MatMult: "@"}
from ...nodes import copy_tree, walk

_TERMINATORS = (gast.Return, gast.Raise, gast.Break, gast.Continue)

_CONTAINERS = (gast.Dict, gast.Set, gast.List, gast.ListComp, gast.DictComp, gast.SetComp)


class Statements:
    """Rewriting statements: the dispatch, assignments, return/raise/assert."""

    def block(self, stmts, top=False):
        out = []
        for i, stmt in enumerate(stmts):
            if top and i == 0 and isinstance(stmt, gast.Expr) and isinstance(
                    stmt.value, gast.Constant) and isinstance(stmt.value.value, str):
                continue  # docstring
            for new in self.stmt(stmt):
                if getattr(new, "lineno", None) is None:
                    gast.copy_location(new, stmt)
                out.append(new)
            if out and isinstance(out[-1], _TERMINATORS):
                break  # the rest is unreachable (e.g. after a pruned `if ...: return`)
        return out

    def stmt(self, node):
        kind = type(node)
        if kind in _UNSUPPORTED_STMTS:
            self.fail(node, f"{_UNSUPPORTED_STMTS[kind]} is not converted")
        method = getattr(self, "stmt_" + kind.__name__, None)
        if method is None:
            self.fail(node, f"the statement {kind.__name__} is not converted")
        out = method(node)
        if self.tagged:
            out = out + self._tag_update(node)
        return out

    def stmt_Expr(self, node):
        return [gast.Expr(value=self.value(node.value))]

    def stmt_Pass(self, node):
        return [gast.Pass()]

    def stmt_Assign(self, node):
        if isinstance(node.value, gast.Lambda) and len(node.targets) == 1 and isinstance(
                node.targets[0], gast.Name):
            self._define_local(node.targets[0].id, node.value)
            return []
        value = self.value(node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Subscript) and \
                self.nd_mask(node.targets[0].value, node.targets[0].slice):
            return self._masked_store(node, value)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Subscript):
            checked = self._checked_store(node, node.targets[0], node.value, value)
            index = node.targets[0].slice
            if checked is not value and self.fancy_index(node.targets[0]) and not any(
                    isinstance(n, gast.Slice) for n in walk(index)):
                # through an index array or a mask: Python evaluates the value, then the
                # index; NumPy converts the value as it stores it
                target = self.target(node.targets[0])
                held, where = self.new_local("value"), self.new_local("index")
                checked = self._checked_store(node, node.targets[0], node.value, _load(held))
                return [gast.Assign(targets=[_store(held)], value=value, type_comment=None),
                        gast.Assign(targets=[_store(where)], value=target.slice,
                                    type_comment=None),
                        gast.Assign(targets=[gast.Subscript(value=target.value,
                                                            slice=_load(where),
                                                            ctx=gast.Store())],
                                    value=checked, type_comment=None)]
            if checked is not value and (any(isinstance(n, gast.Slice) or (isinstance(
                    n, gast.Constant) and n.value is Ellipsis) for n in walk(index))
                                         or self.fancy_index(node.targets[0])):
                # a scalar into a slice: NumPy converts it as into an element, after Python
                # evaluated the index (which cannot raise here, or it falls back)
                if not _cannot_raise(index):
                    self.fail(node, "a checked store into a slice whose index may raise")
                return [gast.Assign(targets=[self.target(node.targets[0])], value=checked,
                                    type_comment=None)]
            if checked is not value:
                # Python evaluates the value, then the index, and NumPy's setitem checks the
                # index before it converts the value: `a[1 % 0] = -1.5` raises
                # ZeroDivisionError and `a[len(a)] = -1.5` IndexError, not OverflowError.
                return self._store_after_index(node, value)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Name) and \
                node.targets[0].id in self.weak_merges and not (
                    self.scalar_types.of(node.value) & {"np:" + self.weak_merges[
                        node.targets[0].id]}):
            # Every read converts it to this dtype anyway (ScalarTypes.weak_merges): convert
            # it here, so that Numba gives the variable that one type.
            cast = getattr(np, self.weak_merges[node.targets[0].id])
            value = gast.copy_location(gast.Call(func=self.materialize(Static(cast), node),
                                                 args=[value], keywords=[]), node.value)
        return [gast.Assign(targets=[self.target(t) for t in node.targets], value=value,
                            type_comment=None)]

    def _masked_store(self, node, value):
        """``a[mask] = value`` with an N-d mask (N >= 2; Numba stores through 1-D masks only):
        helpers.numpy_calls.masked_store_scalar for a scalar (converted as NumPy converts a
        value stored through a mask), masked_store_items for a 1-D array of ``a``'s dtype;
        anything else falls back."""
        target = node.targets[0]
        array = next(iter(self.scalar_types.of(target.value)))
        kinds = self.scalar_types.of(node.value)
        held = self.new_local("value")
        out = [gast.Assign(targets=[_store(held)], value=value, type_comment=None)]
        base, mask = self.expr(target.value), self.expr(target.slice)
        base, mask = self._m(base, target.value), self._m(mask, target.slice)
        if kinds and all(k in ("int", "float", "bool") or (
                k.startswith("np:") and np.dtype(k[3:]).kind in "biuf") for k in kinds):
            checked = self._checked_store(node, target, node.value, _load(held))
            call = self._call_helper(node, masked_store_scalar, [base, mask, checked])
        elif kinds == {"arr:" + array.split(":")[1] + ":1"}:
            call = self._call_helper(node, masked_store_items, [base, mask, _load(held)])
        else:
            self.fail(node, "a store through an N-d boolean mask of a value that is neither a "
                            "real number nor a 1-D array of the array's dtype")
        return out + [gast.Expr(value=call)]

    def _masked_update(self, node):
        """``a[mask] op= v`` with an N-d mask: Python's ``t = a[mask]; t op= v; a[mask] = t``
        (``__getitem__`` gives a 1-D copy, updated in place by NumPy's rules for ``t``'s
        dtype, then stored back through the mask), with the helpers of ``_masked_store``."""
        target = node.target
        if not _pure(target.value):
            self.fail(node, "an in-place update through an N-d boolean mask of an array that "
                            "is not a name")
        base = self._m(self.expr(target.value), target.value)
        mask = self._m(self.expr(target.slice), target.slice)
        read = []
        if not _pure(target.slice):     # z[z > 0] += v: the mask evaluated once, first
            held = self.new_local("mask")
            read.append(gast.Assign(targets=[_store(held)], value=mask, type_comment=None))
            mask = _load(held)
        items = self.new_local("items")
        read.append(gast.Assign(targets=[_store(items)], value=self._call_helper(
            node, masked_items, [base, mask]), type_comment=None))
        value = self.expr(node.value)
        if self._array_update_of_array(node):
            # t is a fresh copy (no overlap), but an operand that does not broadcast to it
            # must raise ValueError as NumPy does (Numba's in-place loops read past its end)
            held = self.new_local("operand")
            read += [gast.Assign(targets=[_store(held)], value=self._m(value, node.value),
                                 type_comment=None),
                     gast.Expr(value=self._call_helper(node, overlapping_operand, [
                         _load(items), _load(held)]))]
            value = _load(held)
        update = self._inplace_array_update(node, _store(items), value,
                                            self.scalar_types.of(target))
        if update is None:
            self.fail(node, "this in-place update through an N-d boolean mask (its operand's "
                            "type) is not converted")
        store = gast.Expr(value=self._call_helper(node, masked_store_items, [
            copy_tree(base), copy_tree(mask), _load(items)]))
        return read + [update, store]

    def _mixed_update_check(self, node):
        """``a[i] op= v`` into a float32/float16/complex64/integer array, ``v`` a Python
        number on some paths and a NumPy scalar on others: NumPy converts a Python number to
        the element's dtype first (NEP 50) and computes a NumPy scalar in the wider type,
        which compiled code, holding ``v`` in one type, cannot follow (fuzz seed 2036,
        program 8086: a float32 element off by one unit in the last place)."""
        if not (self.fidelity and self.scalar_types is not None and
                isinstance(node.target, gast.Subscript)):
            return
        base = self.scalar_types.of(node.target.value)
        kinds = self.scalar_types.of(node.value)
        if len(base) != 1 or not next(iter(base)).startswith("arr:"):
            return
        dtype = next(iter(base)).split(":")[1]
        python = kinds & {"int", "float", "bool", "complex"}
        numpy = {k for k in kinds if k.startswith("np:")}
        if python and numpy and dtype not in ("float64", "complex128"):
            self.fail(node, f"an in-place update of a {dtype} element by a value that is "
                            f"{' or '.join(sorted(kinds))} depending on the path (NumPy "
                            "converts each its own way)")

    def _store_after_index(self, node, value):
        """``a[index] = value`` with a store check (numpy_array_rules._checked_store) in
        Python's and NumPy's order: ``v = value; i = index; element_index_checked(a, i);
        a[i] = check(v)``."""
        target = self.target(node.targets[0])
        held = self.new_local("value")
        out = [gast.Assign(targets=[_store(held)], value=value, type_comment=None)]
        base, index = target.value, target.slice
        if not _pure(base):
            out.append(gast.Assign(targets=[_store(self.new_local("array"))], value=base,
                                   type_comment=None))
            base = _load(out[-1].targets[0].id)
        if not _cannot_raise(node.targets[0].slice):
            out.append(gast.Assign(targets=[_store(self.new_local("index"))], value=index,
                                   type_comment=None))
            index = _load(out[-1].targets[0].id)
        out.append(gast.Expr(value=self._call_helper(node, element_index_checked,
                                                     [base, index])))
        checked = self._checked_store(node, node.targets[0], node.value, _load(held))
        out.append(gast.Assign(targets=[gast.Subscript(value=base, slice=index,
                                                       ctx=gast.Store())],
                               value=checked, type_comment=None))
        return out

    def stmt_AnnAssign(self, node):
        if node.value is None:
            return []
        return [gast.Assign(targets=[self.target(node.target)], value=self.value(node.value),
                            type_comment=None)]

    def stmt_AugAssign(self, node):
        target = node.target
        if isinstance(target, gast.Subscript) and self.nd_mask(target.value, target.slice):
            return self._masked_update(node)
        if isinstance(target, gast.Subscript) and any(
                isinstance(n, gast.Slice) for n in walk(target.slice)):
            base = {n.id for n in walk(target.value) if isinstance(n, gast.Name)}
            value_kinds = self.scalar_types.of(node.value) if self.scalar_types else set()
            scalar = value_kinds and all(k in ("int", "float", "bool", "complex") or
                                         k.startswith("np:") for k in value_kinds)
            if base & {n.id for n in walk(node.value) if isinstance(n, gast.Name)} and \
                    not self._array_update_of_array(node) and not scalar:
                # NumPy buffers an in-place ufunc whose input overlaps its output; Numba
                # does not (out[1:] += out[:-1] gives running sums there).
                self.fail(node, "an in-place update of an array slice from the same array "
                                "(NumPy and Numba differ when the views overlap)")
        self._mixed_update_check(node)
        target = self.target(node.target)
        hoisted = []
        if isinstance(target, gast.Subscript) and _pure(target.value) and not _pure(
                target.slice) and not any(isinstance(n, gast.Slice)
                                          for n in walk(target.slice)):
            # `a[f(i)] op= v` reads and writes one element: evaluate the index once, first
            # (as Python does), so that the element can be named twice below.
            index = self.new_local("index")
            hoisted.append(gast.Assign(targets=[_store(index)], value=target.slice,
                                       type_comment=None))
            target = gast.Subscript(value=target.value, slice=_load(index), ctx=gast.Store())
        value = self.expr(node.value)
        if self._array_update_of_array(node) and (isinstance(target, gast.Name) or _pure(
                target)):
            # NumPy computes from the old values where the operand overlaps the array:
            # `v = value; if overlapping_operand(t, v): t op= v.copy() else: t op= v` (a
            # branch: a helper returning v or its copy costs Numba ~10 ns per update)
            held = self.new_local("operand")
            first = gast.Assign(targets=[_store(held)], value=self._m(value, node.value),
                                type_comment=None)
            test = self._call_helper(node, overlapping_operand, [_as_load(target),
                                                                 _load(held)])
            copied = gast.Call(func=gast.Attribute(value=_load(held), attr="copy",
                                                   ctx=gast.Load()), args=[], keywords=[])
            return hoisted + [first, gast.If(
                test=test, body=self._aug_update(node, copy_tree(target), copied),
                orelse=self._aug_update(node, target, _load(held)))]
        return hoisted + self._aug_update(node, target, value)

    def _aug_update(self, node, target, value):
        """The statements of ``target op= value`` (``node``; ``target`` converted, ``value``
        the converted operand) by the rules for its types."""
        current = _as_load(target)
        if isinstance(target, gast.Name) or (isinstance(target, gast.Subscript) and
                                             _pure(target)):
            target_kinds = self.scalar_types.of(node.target) if self.scalar_types else set()
            if target_kinds and all(k.startswith("arr:") for k in target_kinds):
                # an array updated in place: NumPy's loop, its result cast into the array
                inplace = self._inplace_array_update(node, target, value, target_kinds)
                if inplace is not None:
                    return [inplace]
            exact = None if target_kinds and all(k.startswith("arr:") for k in target_kinds) \
                else self._numpy_scalar_op(node, node.op, [current, value],
                                           [node.target, node.value])
            if exact is None and isinstance(target, gast.Name):
                exact = self._python_number_op(node, node.op, [current, value],
                                               [node.target, node.value])
            if exact is None and isinstance(target, gast.Name):
                exact = self._alike_op(node, node.op, [current, value],
                                       [node.target, node.value])
            if isinstance(target, gast.Subscript) and self.scalar_types is not None:
                result = self.scalar_types.of(gast.BinOp(left=node.target, op=node.op,
                                                         right=node.value))
                update = exact if exact is not None else gast.BinOp(
                    left=current, op=node.op, right=self._m(value, node.value))
                checked = self._checked_store(node, node.target, node.value, update, result)
                if checked is not update or exact is not None:
                    return [gast.Assign(targets=[target], value=checked,
                                                  type_comment=None)]
            if exact is not None:
                return [gast.Assign(targets=[target], value=exact, type_comment=None)]
        weak_value = self._python_number(value, node.value)
        strong_target = (isinstance(target, gast.Name) and target.id not in self.python_numbers
                         ) or (isinstance(target, gast.Subscript) and _pure(target))
        like = _as_load(target)
        if weak_value and strong_target and self.fidelity:
            value = self._weak(value, node.value, like)
        value = self._m(value, node.value)
        source = node.target    # the analyses know the original node (its ctx aside)
        scalar_target = (isinstance(target, gast.Name) and (
            target.id in self.python_numbers or self.numbers.is_numpy_scalar(source))) or (
            isinstance(target, gast.Subscript) and _pure(target)
            and self.numbers.is_numpy_scalar(source))
        if scalar_target:
            # `x op= v` on a number is `x = x op v`: the checked operators apply.
            call = self._checked_binop(node, node.op, like, value, source, node.value)
            if call is not None:
                return [gast.Assign(targets=[target], value=call, type_comment=None)]
        if isinstance(target, gast.Name) and self.fidelity and self.scalar_types is not None \
                and self.scalar_types.of(node.target) == {UNKNOWN} and \
                target.id not in self.scalar_types.params:   # (a parameter: typed per call)
            # `v = d[0]; v += 1`: an array updates in place (the caller's, through an alias),
            # a number rebinds; which one, compiled code cannot tell here
            self.fail(node, f"'{target.id} {_OPS.get(type(node.op), '?')}= ...' of a value "
                            "whose type is not known here: an array would be updated in place, "
                            "a number rebound")
        if isinstance(target, gast.Name) and self._may_be_python_int(
                node.op, [current, value], [node.target, node.value]):
            return [gast.Assign(targets=[target], value=self._checked_int(
                node, _CHECKED_BINOPS[type(node.op)], [like, value]), type_comment=None)]
        if isinstance(target, gast.Name) and (scalar_target or self._holds_numbers(target.id)
                                              or self._number_unknown_op(node)):
            # Spelled as a rebinding, so that an `x op= v` left in the generated code is an
            # in-place update of an array (analysis.effects relies on it).
            return [gast.Assign(targets=[target], value=gast.BinOp(
                left=like, op=node.op, right=value), type_comment=None)]
        return [gast.AugAssign(target=target, op=node.op, value=value)]

    def _array_update_of_array(self, node):
        """Whether ``node`` (``t op= v``) updates an array from an array: ``t`` an array on
        every path, ``v`` one on some path."""
        if self.scalar_types is None:
            return False
        target_kinds = self.scalar_types.of(node.target)
        value_kinds = self.scalar_types.of(node.value)
        return bool(target_kinds) and all(k.startswith("arr:") for k in target_kinds) and \
            any(k.startswith("arr:") for k in value_kinds)

    def _number_unknown_op(self, node):
        """Whether ``x op= v`` (``node``) updates a name that holds numbers but for this very
        operation, whose result type is unknown (``n &= 1j``: Python raises TypeError, Numba
        refuses to type it where it is reached). A number has no in-place operator, so the
        update is a rebinding, and it is spelled so (analysis.effects reads an ``x op= v``
        left in the generated code as an array updated in place)."""
        if self.scalar_types is None:
            return False
        kinds = self.scalar_types.types.get(node.target.id) or set()
        known = set(kinds) - {"?"}
        result = self.scalar_types.of(gast.BinOp(left=node.target, op=node.op,
                                                 right=node.value))
        return bool(known) and "?" in result and all(
            k in ("int", "float", "bool", "complex") or k.startswith("np:") for k in known)

    def stmt_Return(self, node):
        if self.entry and node.value is not None:
            parts = node.value.elts if isinstance(node.value, gast.Tuple) else [node.value]
            for part in parts:
                if isinstance(part, (gast.Name, gast.Attribute)) or (
                        isinstance(part, gast.Call) and isinstance(part.func, gast.Name)
                        and part.func.id == "type"):
                    value = self.expr(part)
                    if isinstance(value, Static) and isinstance(value.value, type) and \
                            issubclass(value.value, np.generic):
                        # Numba hands a NumPy scalar type back as a dtype (np.int8 -> dtype)
                        self.fail(part, "returning a NumPy scalar type from compiled code "
                                        "(it would come back as a dtype)")
                    if isinstance(value, Static) and isinstance(value.value, types.ModuleType):
                        # Numba cannot box a module (numba's usecases: `return np`)
                        self.fail(part, "a module returned from compiled code")
                    if isinstance(value, Static) and isinstance(value.value, type) and \
                            isinstance(node.value, gast.Tuple):
                        # `return s, type(s)`: Numba cannot box a class inside a tuple
                        self.fail(part, "a class returned inside a tuple from compiled code")
        if self.return_tags is not None:    # `return (value, is_python)`: result_tag
            return [gast.Return(value=gast.Tuple(elts=[
                self.value(node.value),
                gast.Constant(value=self.return_tags[id(node)], kind=None)], ctx=gast.Load()))]
        if self.tagged:     # `return s` -> `return (s, s_is_python)`: see _tag_update
            return [gast.Return(value=gast.Tuple(elts=[self.value(node.value), _load(self.tag)],
                                                 ctx=gast.Load()))]
        return [gast.Return(value=None if node.value is None else self.value(node.value))]

    def stmt_Raise(self, node):
        user_class = self._user_exception_class(node.exc)
        if user_class is not None:
            # Numba would box the arguments its own way and call the class at the boundary:
            # compiled code signals the raise instead, and the call runs again as Python,
            # which raises the very exception (transpiler.pipeline checks that it may).
            from ...helpers.messages import USER_EXCEPTION
            self.program.user_raises.append((self.src.origin(node), user_class.__qualname__))
            return [gast.copy_location(gast.Raise(exc=gast.Call(
                func=gast.Name(id="ValueError", ctx=gast.Load(), annotation=None,
                               type_comment=None),
                args=[gast.Constant(value=USER_EXCEPTION, kind=None)], keywords=[]),
                cause=None), node)]
        if isinstance(node.exc, gast.Call):
            if self._container_names is None:   # names bound to a container display
                self._container_names = {
                    t.id for n in walk(self.src.node) if isinstance(n, gast.Assign)
                    and isinstance(n.value, _CONTAINERS) for t in n.targets
                    if isinstance(t, gast.Name)}
            for arg in node.exc.args:
                if isinstance(arg, _CONTAINERS) or (isinstance(arg, gast.Name) and
                                                    arg.id in self._container_names):
                    # Numba hands over its own object: a typed dict for {'a': 1}
                    self.fail(arg, "an exception argument that is a dict, list or set "
                                   "(Numba would hand over its own typed container)")
        return [gast.Raise(exc=None if node.exc is None else self.value(node.exc),
                           cause=None if node.cause is None else self.value(node.cause))]

    def _user_exception_class(self, exc):
        """The exception class ``raise exc`` creates when it is defined in Python code (not
        a builtin or library class), else None."""
        func = exc.func if isinstance(exc, gast.Call) else exc
        if not isinstance(func, (gast.Name, gast.Attribute)) or (
                isinstance(func, gast.Name) and func.id in self.locals):
            return None
        value = self.expr(func)
        if not isinstance(value, Static) or not isinstance(value.value, type) or not issubclass(
                value.value, BaseException) or library_reference(value.value) is not None:
            return None
        return value.value

    def stmt_Assert(self, node):
        return [gast.Assert(test=self.value(node.test),
                            msg=None if node.msg is None else self.value(node.msg))]

    def target(self, node):
        if isinstance(node, gast.Name):
            if node.id in self.env:
                self.fail(node, f"cannot assign to {node.id!r}: it is bound to a static value")
            return gast.Name(id=node.id, ctx=gast.Store(), annotation=None, type_comment=None)
        if isinstance(node, (gast.Tuple, gast.List)):
            return type(node)(elts=[self.target(e) for e in node.elts], ctx=gast.Store())
        if isinstance(node, gast.Attribute):
            base = self.expr(node.value)
            if isinstance(base, Static):
                self.fail(node, f"assigning attribute {node.attr!r} of a static object is not "
                                "converted (compiled code cannot change Python objects)")
            return gast.Attribute(value=base, attr=node.attr, ctx=gast.Store())
        if isinstance(node, gast.Subscript):
            return gast.Subscript(value=self.value(node.value), slice=self.value(node.slice),
                                  ctx=gast.Store())
        if isinstance(node, gast.Starred):
            return gast.Starred(value=self.target(node.value), ctx=gast.Store())
        self.fail(node, f"cannot assign to {type(node).__name__}")
