"""Expressions: the ``expr``/``value`` dispatch (``expr_<Kind>``; a Static when known at transpile
time) and the operator nodes, which try the number rules in turn (NumPy scalars, Python
numbers, NEP 50, checked operators) before Numba's plain operator.
"""
import copy

import gast
import numpy as np

from ...analysis.static_values import BINOPS, CMPOPS, is_scalar, Static, UNARYOPS
from ...analysis.derived_types import display as _display
from ...analysis.scalar_kinds import UNKNOWN as UNKNOWN_KIND
from ...helpers.python_arith import identity_exact
from .nodes import _Converted, _pure
from .python_number_rules import _CHECKED_BINOPS
from .refusals import _UNSUPPORTED_EXPRS

_ORDERING = (gast.Eq, gast.NotEq, gast.Lt, gast.LtE, gast.Gt, gast.GtE)


class Expressions:
    """Rewriting expressions: the dispatch and the operator nodes."""

    def value(self, node):
        """Rewrite ``node`` into a generated expression (static values materialized)."""
        result = self.expr(node)
        return self.materialize(result, node) if isinstance(result, Static) else result

    def expr(self, node):
        """Rewrite ``node``: a :class:`Static` when known at transpile time, else a gast node."""
        if isinstance(node, _Converted):
            return node.value
        kind = type(node)
        if kind in _UNSUPPORTED_EXPRS:
            self.fail(node, f"{_UNSUPPORTED_EXPRS[kind]} is not converted")
        method = getattr(self, "expr_" + kind.__name__, None)
        if method is not None:
            result = method(node)
        else:
            result = self._generic(node)
        if not isinstance(result, Static) and getattr(result, "lineno", None) is None:
            gast.copy_location(result, node)
        return result

    def _generic(self, node):
        """Rebuild any other expression with its sub-expressions rewritten."""
        new = copy.copy(node)
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                setattr(new, field, [self._child(item) for item in old])
            else:
                setattr(new, field, self._child(old))
        return new

    def _child(self, item):
        if isinstance(item, gast.expr):
            if isinstance(getattr(item, "ctx", None), gast.Store):
                return self.target(item)
            return self.value(item)
        if isinstance(item, gast.comprehension):
            return gast.comprehension(target=self.target(item.target),
                                      iter=self.value(item.iter),
                                      ifs=[self.value(i) for i in item.ifs], is_async=0)
        if isinstance(item, gast.keyword):
            return gast.keyword(arg=item.arg, value=self.value(item.value))
        return item

    def expr_Tuple(self, node):
        elts = [self.expr(e) for e in node.elts]
        if all(isinstance(e, Static) for e in elts) and not any(
                isinstance(e, gast.Starred) for e in node.elts):
            return Static(tuple(e.value for e in elts))
        return gast.Tuple(elts=[self.materialize(e, n) if isinstance(e, Static) else e
                                for e, n in zip(elts, node.elts)], ctx=gast.Load())

    def expr_BinOp(self, node):
        left, right = self.expr(node.left), self.expr(node.right)
        folded = self._fold(BINOPS.get(type(node.op)), left, right)
        if folded is not None:
            return folded
        left, right = self._untyped_operands(left, right, node.left, node.right)
        exact = self._numpy_scalar_op(node, node.op, [left, right], [node.left, node.right])
        if exact is not None:
            return exact
        python = self._python_number_op(node, node.op, [left, right], [node.left, node.right])
        if python is not None:
            return python
        alike = self._alike_op(node, node.op, [left, right], [node.left, node.right])
        if alike is not None:
            return alike
        if not isinstance(node.op, gast.MatMult):
            left, right = self._weak_pair(left, right, node.left, node.right)
            helper = self._weak_helper(node.op, left, right, node.left, node.right)
            if helper is not None:
                return self._call_helper(node, helper, [left, right])
        call = self._checked_binop(node, node.op, left, right, node.left, node.right)
        if call is not None:
            return call
        if self._may_be_python_int(node.op, [left, right], [node.left, node.right]):
            return self._checked_int(node, _CHECKED_BINOPS[type(node.op)],
                                     [self._m(left, node.left), self._m(right, node.right)])
        if isinstance(node.op, gast.MatMult) and self.fidelity:
            # NumPy's own matmul loop where Numba's types allow it (1-D or 2-D arrays of one
            # float or complex dtype: NumPy's bits), else Numba's @; decided when Numba types
            # the call (backends/runtime/ufunc_loops.py), so also for operands whose types
            # are not known here (the command line converts without argument types)
            return gast.copy_location(self._ufunc_loop(node, np.matmul, [
                self._m(left, node.left), self._m(right, node.right)]), node)
        return gast.BinOp(left=self._m(left, node.left), op=node.op,
                          right=self._m(right, node.right))

    def expr_UnaryOp(self, node):
        operand = self.expr(node.operand)
        folded = self._fold(UNARYOPS.get(type(node.op)), operand)
        if folded is not None:
            return folded
        exact = self._numpy_scalar_op(node, node.op, [operand], [node.operand])
        if exact is not None:
            return exact
        if isinstance(node.op, gast.USub) and not isinstance(operand, Static) and (
                self._python_int(node.operand) or self._alike_int(node.operand)):
            return self._checked_int(node, "int_neg", [operand])
        if isinstance(node.op, gast.Invert) and self.scalar_types is not None and \
                self.scalar_types.of(node.operand) == {"bool"}:
            # Python's ~True is the int -2 (Numba's is False)
            operand = gast.Call(func=self.materialize(Static(int), node),
                                args=[self._m(operand, node.operand)], keywords=[])
        return gast.UnaryOp(op=node.op, operand=self._m(operand, node.operand))

    def expr_Compare(self, node):
        guarded = self._identity_items(node)
        if guarded:
            # each float item checked for NaN, then the comparison (items are pure: names,
            # constants, arithmetic of names, evaluated again harmlessly)
            result = self._m(self.expr_Compare(_unguarded(node)), node)
            for item in reversed(guarded):
                result = self._call_helper(node, identity_exact,
                                           [self._m(self.expr(item), item), result])
            return result
        links = self._int_float_chain(node) or self._numpy_chain(node)
        if links is not None:     # exact links, one by one
            return self.expr(links)
        operands = [self.expr(node.left)] + [self.expr(c) for c in node.comparators]
        if all(isinstance(o, Static) for o in operands):
            self._compare_fact(node.ops, operands)
            result = True
            try:
                for op, a, b in zip(node.ops, operands, operands[1:]):
                    result = CMPOPS[type(op)](a.value, b.value)
                    if not result:
                        break
                if is_scalar(result):
                    return Static(result)
            except Exception as exc:  # noqa: BLE001 - Python raises here, every time
                # (`(-1.5) ** 0.5 >= 0` compares a complex): Numba would compare something.
                self.fail(node, f"this comparison of constants raises {type(exc).__name__} "
                                f"in Python ({exc})")
        sources = [node.left] + node.comparators
        for k in range(len(operands) - 1):   # NumPy compares by the operand types too
            operands[k], operands[k + 1] = self._untyped_operands(
                operands[k], operands[k + 1], sources[k], sources[k + 1])
        if len(operands) == 2:
            exact = self._numpy_scalar_op(node, node.ops[0], operands, sources) or \
                self._int_float_compare(node, node.ops[0], operands, sources)
            if exact is not None:
                return exact
        python_int = len(operands) == 2 and any(
            self._python_number(o, n) and self._number_kind(o, n) == "int" and
            self._integer_typed(other) for (o, n), other in zip(
                zip(operands, sources), reversed(sources)))
        if len(operands) == 2 and isinstance(node.ops[0], _ORDERING) and not python_int:
            # NumPy 2 compares a Python int with an integer scalar exactly (np.uint8(5) < 300
            # is True, no OverflowError): only a Python float takes the other side's dtype.
            operands = list(self._weak_pair(operands[0], operands[1], *sources))
            helper = self._weak_helper(node.ops[0], operands[0], operands[1], *sources)
            if helper is not None:   # the NumPy side cannot be evaluated twice
                return self._call_helper(node, helper, operands)
        for k, (op, a, b) in enumerate(zip(node.ops, operands, operands[1:])):
            if isinstance(op, (gast.Is, gast.IsNot)) and (isinstance(a, Static) != isinstance(
                    b, Static)):
                static, runtime = (a, sources[k + 1]) if isinstance(a, Static) else (
                    b, sources[k])
                if type(static.value) is bool:
                    # `x is True`: Numba compares the values; Python the objects, and an
                    # np.True_ is not True
                    kinds = self.scalar_types.of(runtime) if self.scalar_types else set()
                    if kinds and "bool" not in kinds and not any(
                            k2.startswith("?") for k2 in kinds) and len(node.ops) == 1:
                        return Static(isinstance(op, gast.IsNot))
                    if "bool" in kinds and kinds != {"bool"}:
                        self.fail(node, "'is True'/'is False' of a value that may not be a "
                                        "Python bool is not compiled (Numba compares values)")
                    # (untyped values, None or a str: Numba's `is` gives False as Python)
            if isinstance(op, (gast.Is, gast.IsNot)) and not isinstance(a, Static) and \
                    not isinstance(b, Static):
                # Numba compares two arrays' data pointers (a is a[:] is True there)
                self.fail(node, "'is' between two runtime values (arrays, numbers) is not "
                                "compiled: Numba does not compare Python object identity")
        nodes = [self._m(o, n) for o, n in zip(operands, sources)]
        return gast.Compare(left=nodes[0], ops=node.ops, comparators=nodes[1:])

    def _identity_items(self, node):
        """The items of a comparison of tuple or list displays (``(x, 1) < (y, 2)``) or of
        an ``in`` test against one (``x in (y, 1.0)``) that may be a float or complex NaN, where
        Python's answer depends on object identity (helpers.python_arith.identity_exact); []
        where none may be. Falls back where such an item is not pure."""
        if getattr(node, "_identity_checked", False) or len(node.ops) != 1 or \
                self.scalar_types is None or not self.fidelity:
            return []
        op, right = node.ops[0], node.comparators[0]
        left_items, right_items = self._held_items(node.left), self._held_items(right)
        if isinstance(op, (gast.In, gast.NotIn)) and right_items is not None:
            items = [node.left] + right_items
        elif isinstance(op, (gast.Eq, gast.NotEq, gast.Lt, gast.LtE, gast.Gt, gast.GtE)) and \
                left_items is not None and right_items is not None:
            items = left_items + right_items
        else:
            return []
        found = [item for item in items if _may_be_nan(self.scalar_types.of(item)) and not (
            isinstance(item, gast.Constant) and item.value == item.value)]
        if found and not all(_pure(item) for item in found):
            self.fail(node, "a comparison of tuples or lists (or an 'in' test) with a float "
                            "item that is not a name or arithmetic of names: Python compares "
                            "a NaN object as equal to itself, compiled code cannot tell")
        return found

    def _held_items(self, node):
        """The items of ``node`` as expressions: a tuple or list display's, or, for a name
        whose one definition is a tuple display (``t = (x, 2.0)``; not a parameter), ``t[0]``,
        ``t[1]``... (what the tuple holds, whatever happened to ``x`` since); else None."""
        if _display(node):
            return list(node.elts)
        if not isinstance(node, gast.Name):
            return None
        found = self.scalar_types.definitions.get(node.id, ())
        if len(found) != 1 or not isinstance(found[0][1], gast.Tuple) or not _display(
                found[0][1]):
            return None
        return [gast.Subscript(value=gast.Name(id=node.id, ctx=gast.Load(), annotation=None,
                                               type_comment=None),
                               slice=gast.Constant(value=k, kind=None), ctx=gast.Load())
                for k in range(len(found[0][1].elts))]

    def _numpy_chain(self, node):
        """A chained comparison with a NumPy scalar operand (``a == b == c``) as the ``and``
        of its links (Python's own meaning, the middle operands evaluated once: they must be
        pure), so that each link takes NumPy's rules (NEP 50: ``np.float32(0.1) == 0.1`` is
        True); None where no operand is a NumPy scalar."""
        if len(node.ops) < 2 or not self.fidelity or self.scalar_types is None:
            return None
        sources = [node.left] + node.comparators
        if not any(k.startswith("np:") for s in sources for k in self.scalar_types.of(s)):
            return None
        if any(isinstance(op, (gast.In, gast.NotIn, gast.Is, gast.IsNot)) for op in node.ops):
            return None
        if not all(_pure(s) for s in sources[1:-1]):
            self.fail(node, "a chained comparison of NumPy scalars whose middle operand is "
                            "not a name or arithmetic of names (write two comparisons)")
        links = [gast.copy_location(gast.Compare(left=a, ops=[op], comparators=[b]), node)
                 for op, a, b in zip(node.ops, sources, sources[1:])]
        return gast.copy_location(gast.BoolOp(op=gast.And(), values=links), node)

    def expr_BoolOp(self, node):
        # Python returns the first operand that decides: fold a static prefix.
        is_and = isinstance(node.op, gast.And)
        rest = []
        for i, child in enumerate(node.values):
            value = self.expr(child)
            if isinstance(value, Static) and not rest:
                self._truth_of(value)
                decided = (not value.value) if is_and else bool(value.value)
                if decided or i == len(node.values) - 1:
                    return value
                continue
            rest.append(self._m(value, child))
        if len(rest) == 1:
            return rest[0]
        return gast.BoolOp(op=node.op, values=rest)

    def expr_IfExp(self, node):
        test = self.expr(node.test)
        if isinstance(test, Static):
            self._truth_of(test)
            return self.expr(node.body if test.value else node.orelse)
        return gast.IfExp(test=test, body=self.value(node.body), orelse=self.value(node.orelse))

    def _m(self, result, node):
        return self.materialize(result, node) if isinstance(result, Static) else result


def _may_be_nan(kinds):
    """Whether a value of the types ``kinds`` (analysis.scalar_types) may be a NaN: a float
    or complex number, Python's or NumPy's, or a value of unknown type (not an array)."""
    return any(k in ("float", "complex", UNKNOWN_KIND) or k.startswith("np:float") or
               k.startswith("np:complex") or k.startswith("np:longdouble") for k in kinds) or (
        not kinds)


def _unguarded(node):
    """A copy of the Compare ``node`` marked as checked (expr_Compare converts it as usual)."""
    copied = gast.copy_location(gast.Compare(left=node.left, ops=node.ops,
                                             comparators=node.comparators), node)
    copied._identity_checked = True
    return copied
