"""Python numbers: Python's rules where Numba's differ, i.e. int arithmetic checked for int64
overflow (transpiler.ir's checked forms), shifts, ``**``, ``/``, ``//``, ``%`` of Python
numbers, and the predicates on the number analyses that decide them.
"""
import gast
import numpy as np

from ...analysis.scalar_types import CALL as CALL_TYPE, type_of_value, UNKNOWN as UNKNOWN_TYPE
from ...analysis.static_values import constant_node, Static
from ...helpers.python_arith import (
    checked_pow, checked_pow_num, float_int_eq, float_int_ge, float_int_gt, float_int_le,
    float_int_lt, float_int_ne, int64_pow_bounds, int_float_eq, int_float_ge, int_float_gt,
    int_float_le, int_float_lt, int_float_ne, int_pow, int_pow_bounded, python_complex_pow,
    python_floordiv_int, python_int_truediv, python_lshift, python_rshift)
from ...helpers.numpy_arith import alike_exact_int
from ...helpers.weak import weak_left, weak_right
from ...number_rules import NUM_CHECKED, NUMPY_BINOPS, NUMPY_SCALAR_BINOPS
from ...ir import int_add as ir_int_add, int_mul as ir_int_mul, int_sub as ir_int_sub
from .nodes import _pure

# Python-int operators checked for int64 overflow (transpiler.ir.CHECKED_INT)
_CHECKED_BINOPS = {gast.Add: "int_add", gast.Sub: "int_sub", gast.Mult: "int_mul"}

_IR_OPERATORS = {form: op for op, form in _CHECKED_BINOPS.items()}

_IR_CHECKED = {ir_int_add: "int_add", ir_int_sub: "int_sub", ir_int_mul: "int_mul"}


# `int op float` as an exact helper of (int, float); the float on the left swaps the order.
_INT_FLOAT_COMPARE = {gast.Lt: int_float_lt, gast.LtE: int_float_le, gast.Gt: int_float_gt,
                      gast.GtE: int_float_ge, gast.Eq: int_float_eq, gast.NotEq: int_float_ne}
_FLOAT_INT_COMPARE = {gast.Lt: float_int_lt, gast.LtE: float_int_le, gast.Gt: float_int_gt,
                      gast.GtE: float_int_ge, gast.Eq: float_int_eq, gast.NotEq: float_int_ne}
_INTS = {"int", "bool", "np:int64", "np:bool"}
_SWAPPED = {gast.Lt: gast.Gt, gast.LtE: gast.GtE, gast.Gt: gast.Lt, gast.GtE: gast.LtE,
            gast.Eq: gast.Eq, gast.NotEq: gast.NotEq}


def _weak_number(value):
    return isinstance(value, Static) and type(value.value) in (int, float, complex)


def _int_or_float_by_path(kinds):
    """Whether Python-number operand kinds (python_numbers) hold an int on some paths and a
    float on others (kept in float64), with no operand always a float."""
    return "float" not in kinds and "num" in kinds


class PythonNumberRules:
    """Python's rules for Python numbers."""

    def _int_power(self, node):
        """Whether ``_checked_binop`` converts ``node`` (a ``**`` of Python numbers) as an int
        power: both kinds int (python_numbers) and an exponent known >= 0, or an int argument
        never reassigned that the code is specialized on being >= 0. Else it is
        ``checked_pow``, a float. (``_checked_binop``'s decision, taken before the body is
        converted.)"""
        numbers = self.numbers
        if (numbers.kind(node.left), numbers.kind(node.right)) != ("int", "int"):
            return False
        exponent = numbers.constant(node.right)
        if exponent is None and isinstance(node.right, gast.Name) and \
                node.right.id in self.python_values and node.right.id not in numbers.assigned:
            exponent = self.python_values[node.right.id][1]
        return (exponent is not None and exponent >= 0) or numbers.is_nonneg(node.right)

    def _integer_typed(self, node):
        """Whether ``node`` is an integer NumPy scalar or array on every path."""
        if self.scalar_types is None:
            return False
        kinds = self.scalar_types.of(node)
        return bool(kinds) and all(
            (k.startswith("np:") or k.startswith("arr:")) and
            np.dtype(k.split(":")[1]).kind in "iu" for k in kinds)

    def _holds_numbers(self, name):
        """Whether every type ``name`` may hold is a number (analysis.scalar_types)."""
        kinds = self.scalar_types.types.get(name) if self.scalar_types else None
        return bool(kinds) and all(k in ("int", "float", "bool", "complex") or
                                   k.startswith("np:") for k in kinds)

    def _python_number_op(self, node, op, values, sources):
        """Python's own rules where Numba's differ for Python numbers: ``<<``/``>>`` of ints
        (a negative count raises ValueError, a result beyond int64 is said so), ``**`` with a
        complex operand (CPython's complex_pow). None elsewhere."""
        if not self.fidelity or self.scalar_types is None:
            return None
        kinds = [{type_of_value(v.value)} if isinstance(v, Static) else self.scalar_types.of(s)
                 for v, s in zip(values, sources)]
        if not all(k and k <= {"int", "bool", "float", "complex"} for k in kinds):
            return None
        operands = [self._m(v, s) for v, s in zip(values, sources)]
        if isinstance(op, (gast.LShift, gast.RShift)) and all(k <= {"int", "bool"}
                                                                for k in kinds):
            helper = python_lshift if isinstance(op, gast.LShift) else python_rshift
            return self._call_helper(node, helper, operands)
        if isinstance(op, gast.Div) and all(k <= {"int", "bool"} for k in kinds) and not all(
                isinstance(v, Static) and abs(v.value) <= 2 ** 53 for v in values):
            # Python rounds the exact quotient once; Numba rounds each int to float64 first
            return self._call_helper(node, python_int_truediv, operands)
        if all(k <= {"int", "bool"} for k in kinds) and any("int" in k for k in kinds) and \
                self.program.check_int:
            # Python's int grows where int64 wraps: checked (backends/runtime/checked_ints.py)
            form = _CHECKED_BINOPS.get(type(op))
            if form is not None and self._cannot_overflow(op, values, sources):
                return None
            if isinstance(op, gast.FloorDiv) and isinstance(values[1], Static) and \
                    values[1].value != -1:
                return None             # only a divisor of -1 can leave int64
            if form is not None:
                return self._checked_int(node, form, operands)
            if isinstance(op, gast.FloorDiv):   # only -2**63 // -1 leaves int64
                return self._call_helper(node, python_floordiv_int, operands)
        if isinstance(op, gast.Pow) and any("complex" in k for k in kinds):
            return self._call_helper(node, python_complex_pow, operands)
        if isinstance(op, gast.Pow) and any(
                not isinstance(v, Static) and not self._python_number(v, s) and
                k & {"int", "float"} for v, s, k in zip(values, sources, kinds)):
            return self._typed_pow(node, kinds, values, sources, operands)
        return None

    def _typed_pow(self, node, kinds, values, sources, operands):
        """``**`` of Python numbers that only the scalar-type analysis types (the
        Python-number analysis gave up on a name: ``y0 = y0 - (not t0)``), so
        ``_checked_binop`` would not see them: Python's rules all the same (fuzz 2041/4258:
        a negative float to a fractional power was Numba's nan, never Python's complex)."""
        if all(k <= {"int", "bool"} for k in kinds):
            exponent = values[1]
            if isinstance(exponent, Static) and type(exponent.value) in (int, bool) and \
                    exponent.value >= 0:
                return None if exponent.value < 2 else self._call_helper(node, int_pow, operands)
            if self.numbers.is_nonneg(sources[1]):
                return self._call_helper(node, int_pow, operands)
            self.fail(node, "int ** int with an exponent that may be negative: Python gives an "
                            "int or a float depending on its sign, compiled code cannot")
        if any({"int", "float"} <= k for k in kinds) or (
                any("float" in k for k in kinds) and any("int" in k for k in kinds) and
                not all(len(k) == 1 for k in kinds)):
            return self._call_helper(node, checked_pow_num, operands)
        return self._call_helper(node, checked_pow, operands)

    def _checked_int(self, node, form, operands):
        """``form`` (transpiler.ir.CHECKED_INT) of Python-int operands: raises OverflowError
        where int64 cannot hold Python's result; the site is recorded so that the error can
        name the user's line (Program.int_sites)."""
        self.program.int_sites.append(self.src.origin(node))
        if self.fidelity and not (form in ("int_add", "int_sub") and any(
                isinstance(o, gast.Constant) and type(o.value) is int and
                abs(o.value) <= 2 ** 16 for o in operands)):
            # (a step by a small constant needs more than 2**47 steps to outgrow int64; the
            # user's own code only: a helper's int operation is its caller's, checked there)
            self.program.growing_int_sites.append(self.src.origin(node))
        call = gast.Call(func=self.program.ir_symbol(form).ref(), args=list(operands),
                         keywords=[])
        return gast.copy_location(call, node)

    def _may_be_python_int(self, op, values, sources):
        """``+ - *`` whose operands no analysis types (a tuple or list item, a dict value, a
        user function's result) but none says is a NumPy value, a float or an array: it may
        be a Python int, so it is checked too (an np.int64 there re-runs as Python, which
        wraps as NumPy; never a silently wrapped Python int). Numba's plain operator for
        other types (the checked forms' overloads fall through)."""
        if not (self.fidelity and self.program.check_int and type(op) in _CHECKED_BINOPS
                and self.scalar_types is not None):
            return False
        vague = False
        for value, source in zip(values, sources):
            if isinstance(value, Static):
                if type(value.value) not in (int, bool):
                    return False
                continue
            kinds = self.scalar_types.of(source)
            if kinds - {"int", "bool", UNKNOWN_TYPE, CALL_TYPE}:
                return False
            if self.numbers.kind(source) not in ("int", "num", None) or \
                    self.numbers.is_array(source) or self.numbers.is_numpy_scalar(source):
                return False
            vague = vague or not kinds or bool(kinds & {UNKNOWN_TYPE, CALL_TYPE})
        return vague and not self._cannot_overflow(op, values, sources)

    def _cannot_overflow(self, op, values, sources):
        """``counter ± small constant`` or ``range index ± constant``: no check needed
        (analysis.int_bounds says why)."""
        if not isinstance(op, (gast.Add, gast.Sub)):
            return False
        if self._int_safe is None:
            from ...analysis.int_bounds import safe_names
            builtin_range = "range" not in self.locals and self.fn_globals.get(
                "range", range) is range and "range" not in self.freevars
            self._int_safe = safe_names(self.src.node, builtin_range)
        counters, ranges = self._int_safe
        for (name, const) in ((sources[0], values[1]), (sources[1], values[0])):
            if not (isinstance(name, gast.Name) and isinstance(const, Static) and
                    type(const.value) is int):
                continue
            if name is sources[1] and isinstance(op, gast.Sub):
                continue                # c - name: not a step of name
            step = const.value if isinstance(op, gast.Add) else -const.value
            if name.id in counters and abs(step) <= 16:
                return True
            if name.id in ranges and -2 ** 62 <= step <= 1:
                return True
        return False

    def _python_int(self, node):
        """Whether ``node`` is a Python int (or bool) by every path, and an int on one (and
        its arithmetic is checked: ``jit(check_int_overflow=)``)."""
        if not self.fidelity or self.scalar_types is None or not self.program.check_int:
            return False
        kinds = self.scalar_types.of(node)
        return bool(kinds) and kinds <= {"int", "bool"} and "int" in kinds

    def _int_float_compare(self, node, op, values, sources):
        """A Python int compared with a Python float: exactly, as Python does
        (helpers.python_arith ``int_float_lt``...: Numba would round the int to float64
        first); None where the operands are not one of each."""
        if not self.fidelity or self.scalar_types is None or type(op) not in _SWAPPED:
            return None
        kinds = [{type_of_value(v.value)} if isinstance(v, Static) else self.scalar_types.of(s)
                 for v, s in zip(values, sources)]
        ints = [bool(k) and k <= {"int", "bool"} and "int" in k for k in kinds]   # (a bool
        # is exact in float64: Numba's float(bool) would not even compile in the helper)
        floats = [k == {"float"} for k in kinds]
        if ints[0] and floats[1]:
            helper, held = _INT_FLOAT_COMPARE[type(op)], values[0]
        elif floats[0] and ints[1]:     # (the operands keep their order: Python evaluates
            helper, held = _FLOAT_INT_COMPARE[type(op)], values[1]  # the left one first)
        else:
            return self._alike_int_float_compare(node, op, values, sources, kinds)
        if all(isinstance(v, Static) for v in values):
            return None
        if isinstance(held, Static) and -2 ** 53 <= held.value <= 2 ** 53:
            return None     # float64 holds this int exactly: the operator is exact (x > 0)
        operands = [self._m(v, s) for v, s in zip(values, sources)]
        return self._call_helper(node, helper, operands)

    def _alike_int_float_compare(self, node, op, values, sources, kinds):
        """An int compared with a float where one is a Python number on some paths and its
        alike NumPy scalar on others (``s = 2.0**53; for x in a: s += x; s == 2**53 + 1``):
        exact on the all-Python path, rounded to float64 on the others
        (helpers.numpy_arith.alike_exact_int: the same while float64 holds the int). None
        where that is not the case."""
        def int_side(k):
            return bool(k) and k <= _INTS and bool(k & {"int", "np:int64"})

        def float_side(k):
            return bool(k) and k <= {"float", "np:float64"}
        for i, f in ((0, 1), (1, 0)):
            if int_side(kinds[i]) and float_side(kinds[f]) and "int" in kinds[i] and \
                    "float" in kinds[f] and ("np:int64" in kinds[i] or
                                             "np:float64" in kinds[f]):
                if isinstance(values[i], Static):
                    if -2 ** 53 <= values[i].value <= 2 ** 53:
                        return None     # exact in float64: the operator is exact
                operands = [self._m(v, s) for v, s in zip(values, sources)]
                operands[i] = self._call_helper(node, alike_exact_int, [operands[i]])
                return gast.copy_location(gast.Compare(
                    left=operands[0], ops=[op], comparators=[operands[1]]), node)
        return None

    def _int_float_chain(self, node):
        """A chained comparison with a Python int beside a Python float (``0 <= n < 1e16``)
        as the ``and`` of its links, each then compared exactly (:meth:`_int_float_compare`):
        where every operand is pure (evaluated twice, the same value); else it does not
        compile. None when no link compares an int with a float."""
        if not self.fidelity or self.scalar_types is None:
            return None
        sources = [node.left] + node.comparators

        def mixed(a, b):
            return bool(a) and a <= {"int", "bool"} and "int" in a and b == {"float"}
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (gast.In, gast.NotIn)) and isinstance(right, (
                    gast.Tuple, gast.List)):
                left = self.scalar_types.of(sources[node.comparators.index(right)])
                if any(mixed(left, self.scalar_types.of(e)) or mixed(
                        self.scalar_types.of(e), left) for e in right.elts):
                    self.fail(node, "'in' of a Python int and a Python float: Python compares "
                                    "them exactly, Numba would round the int (compare with "
                                    "== one by one)")
        if len(node.ops) < 2:
            return None

        def exact(source):      # an int constant float64 holds exactly: no rounding to fear
            value = self.numbers.constant(source)
            return type(value) is int and -2 ** 53 <= value <= 2 ** 53
        kinds = [set() if exact(s) else self.scalar_types.of(s) for s in sources]
        if not any(mixed(a, b) or mixed(b, a) for a, b in zip(kinds, kinds[1:])):
            return None
        if not all(_pure(s) for s in sources):
            self.fail(node, "a chained comparison of a Python int with a Python float whose "
                            "operands are not names or arithmetic of them: Python compares "
                            "them exactly, Numba would round the int (write two comparisons)")
        links = [gast.copy_location(gast.Compare(left=a, ops=[op], comparators=[b]), node)
                 for op, a, b in zip(node.ops, sources, sources[1:])]
        return gast.copy_location(gast.BoolOp(op=gast.And(), values=links), node)

    def _python_number(self, value, node):
        """Whether ``value`` (``node`` rewritten) always is a Python int/float."""
        return _weak_number(value) or (not isinstance(value, Static) and self.numbers.is_python(
            node))

    def _number_kind(self, value, node):
        if isinstance(value, Static):
            return {int: "int", float: "float"}.get(type(value.value))
        return self.numbers.kind(node)

    def _checked_binop(self, node, op, left, right, left_node, right_node):
        """``**``, ``/``, ``//``, ``%`` with Python's rules where both operands are Python
        numbers and NumPy's where one is a NumPy scalar (transpiler.helpers): a call of the
        checked function, or None where Numba's operator already gives that result."""
        name = type(op).__name__
        if self.fidelity and name in NUM_CHECKED and self._python_number(left, left_node) and \
                self._python_number(right, right_node):
            kinds = (self._number_kind(left, left_node), self._number_kind(right, right_node))
            if _int_or_float_by_path(kinds):
                # An int on some paths (exact at any size in Python), a float on others:
                # float64 holds the int exactly only below 2 ** 53 (helpers.python_arith.checked_num_add).
                return self._call_helper(node, NUM_CHECKED[name], [
                    self._m(left, left_node), self._m(right, right_node)])
        if not self.fidelity or name not in NUMPY_BINOPS:
            return None
        numbers = self.numbers
        values = [self._m(left, left_node), self._m(right, right_node)]
        if isinstance(op, gast.Pow) and self._python_number(left, left_node) and \
                self._python_number(right, right_node):
            kinds = (self._number_kind(left, left_node), self._number_kind(right, right_node))
            if kinds == ("int", "int"):
                exponent = right.value if isinstance(right, Static) else numbers.constant(
                    right_node)
                if exponent is not None and exponent >= 0:
                    if exponent < 2:
                        return None
                    if isinstance(left, Static):
                        return None   # folds, or raises at run time as in Python
                    low, high = int64_pow_bounds(exponent)
                    return self._call_helper(node, int_pow_bounded, values + [
                        constant_node(low), constant_node(high)])
                if exponent is None and numbers.is_nonneg(right_node):
                    return self._call_helper(node, int_pow, values)
                if exponent is None and isinstance(right_node, gast.Name) and \
                        right_node.id in self.python_values and \
                        right_node.id not in numbers.assigned:
                    # An int argument, never reassigned: specialize on its sign (guarded).
                    path, value = self.python_values[right_node.id]
                    self.program.guard_sign(path, value >= 0)
                    if value >= 0:
                        return self._call_helper(node, int_pow, values)
                    exponent = value
                if exponent is None:
                    self.fail(node, "int ** int with an exponent that may be negative: Python "
                                    "gives an int or a float depending on its sign, compiled "
                                    "code cannot")
            if _int_or_float_by_path(kinds):
                # An int on some paths (a big int in Python), a float on others.
                return self._call_helper(node, checked_pow_num, values)
            return self._call_helper(node, checked_pow, values)
        left_np = not isinstance(left, Static) and numbers.is_numpy_scalar(left_node)
        right_np = not isinstance(right, Static) and numbers.is_numpy_scalar(right_node)
        if (left_np or right_np) and not (numbers.is_array(left_node)
                                         or numbers.is_array(right_node)):
            scalars = (left_np or self._python_number(left, left_node)) and (
                right_np or self._python_number(right, right_node))
            helper = Static((NUMPY_SCALAR_BINOPS if scalars else NUMPY_BINOPS)[name])
            if right_np and not _pure(values[1]) and self._python_number(left, left_node):
                # NEP 50 was not applied (the NumPy operand cannot be evaluated twice here).
                return self._call_helper(node, weak_left, [helper] + values)
            if left_np and not _pure(values[0]) and self._python_number(right, right_node):
                return self._call_helper(node, weak_right, [helper] + values)
            return self._call_helper(node, helper.value, values)
        return None
