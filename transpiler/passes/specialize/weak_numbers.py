"""NEP 50: a Python number meeting an array or NumPy scalar takes its dtype (``weak(number,
other)``, or a transpiler.helpers.weak helper where the other side cannot be evaluated twice).
"""

import gast

from ...analysis.scalar_kinds import CALL, UNKNOWN
from ...analysis.static_values import Static
from ...number_rules import WEAK_ARRAY_BINOPS, WEAK_BINOPS
from .nodes import _pure
from ...nodes import copy_tree


class WeakNumbers:
    """NEP 50's weak Python numbers."""

    def _weak_helper(self, op, left, right, left_node, right_node):
        """The transpiler.helpers.weak helper applying NEP 50 to ``left op right`` when one side is
        a Python number and the other a NumPy value that cannot be evaluated twice (a call),
        so ``_weak_pair`` could not wrap the number; None otherwise."""
        if not self.fidelity:
            return None

        def impure_numpy(value, node):
            return not isinstance(value, Static) and not _pure(value) and not \
                self.numbers.is_python(node)

        def array(node):
            kinds = self.scalar_types.of(node) if self.scalar_types is not None else ()
            return self.numbers.is_array(node) or (
                kinds and all(k.startswith("arr:") for k in kinds))

        name = type(op).__name__
        if self._python_number(left, left_node) and impure_numpy(right, right_node):
            return WEAK_BINOPS.get((name, "left")) or (
                WEAK_ARRAY_BINOPS.get((name, "left")) if array(right_node) else None)
        if self._python_number(right, right_node) and impure_numpy(left, left_node):
            return WEAK_BINOPS.get((name, "right")) or (
                WEAK_ARRAY_BINOPS.get((name, "right")) if array(left_node) else None)
        return None

    def _weak_pair(self, left, right, left_node, right_node):
        """NEP 50: a Python number meeting an array or NumPy scalar takes its dtype. Wrap the
        number in ``weak(number, other)`` (transpiler.ir.weak) when the other side can be
        evaluated twice without effect (a name, attribute or subscript of names)."""
        if not self.fidelity:
            return left, right   # graphjit's helpers compare with literals on purpose

        def weak_side(value, node):
            return self._python_number(value, node)

        def strong_side(value, node):
            return not isinstance(value, Static) and _pure(value) and not \
                self.numbers.is_python(node)

        if weak_side(left, left_node) and strong_side(right, right_node):
            left = self._weak(left, left_node, right)
        elif weak_side(right, right_node) and strong_side(left, left_node):
            right = self._weak(right, right_node, left)
        return left, right

    def _untyped_operands(self, left, right, left_node, right_node):
        """An operand the scalar-type analysis could not type, meeting a NumPy scalar or an
        array, is passed through ``untyped_operand`` (transpiler.ir): Numba then compiles it
        only where it is an array; as a number, NumPy's result type would depend on whether
        it is a Python number (NEP 50), which compiled code cannot tell."""
        if not self.fidelity or self.scalar_types is None or self.program.runs_python:
            return left, right
        kinds = [self.scalar_types.of(left_node), self.scalar_types.of(right_node)]
        values = [left, right]
        for side, other in ((0, 1), (1, 0)):
            if any(k.startswith(("np:", "arr:")) for k in kinds[other]):
                values[side] = self._untyped(values[side], (left_node, right_node)[side])
        return values[0], values[1]

    def _untyped(self, value, node):
        """``value`` through ``untyped_operand`` where the analysis could not type ``node``
        (see _untyped_operands); itself elsewhere."""
        if not self.fidelity or self.scalar_types is None or self.program.runs_python or \
                isinstance(value, Static) or not self.scalar_types.of(node) & {UNKNOWN, CALL}:
            return value
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                node.func.attr == "type" and isinstance(node.func.value, gast.Attribute) and \
                node.func.value.attr == "dtype":
            return value    # a.dtype.type(v): a NumPy scalar, whatever a's dtype
        return gast.copy_location(gast.Call(func=self.program.ir_symbol(
            "untyped_operand").ref(), args=[value], keywords=[]), node)

    def _weak(self, value, node, like):
        number = self.materialize(value, node) if isinstance(value, Static) else value
        call = gast.Call(func=self.program.ir_symbol("weak").ref(),
                         args=[number, copy_tree(like)], keywords=[])
        return gast.copy_location(call, node)
