"""What the specializer refuses: ``fail`` (UnsupportedConstruct with the construct's origin), the
statements, expressions and builtins not converted, and the check that a list never holds
numbers of several types.
"""
import gast
import numpy as np

from ...analysis.scalar_types import CALL as CALL_TYPE, UNKNOWN as UNKNOWN_TYPE
from ...analysis.static_values import Static
from ...errors import UnsupportedConstruct
from ...nodes import walk

_UNSUPPORTED_STMTS = {
    gast.Try: "try/except", gast.With: "a with block", gast.AsyncWith: "async with",
    gast.AsyncFor: "async for", gast.AsyncFunctionDef: "an async def",
    gast.ClassDef: "a class definition",
    gast.Global: "a global declaration", gast.Nonlocal: (
        "a nonlocal declaration (converted where each call of its function is a statement's "
        "whole value or can move before its statement without a read of the variables "
        "first, the variables are bound before its def, and there is no try)"),
    gast.Import: "an import statement", gast.ImportFrom: "an import statement",
    gast.Delete: "a del statement (of a name read afterwards, an item or an attribute)",
    gast.Match: "a match statement with class, sequence or mapping patterns (or a guard "
                "after a capture)",
}

_UNSUPPORTED_EXPRS = {
    gast.GeneratorExp: "a generator expression",
    gast.Yield: "yield", gast.YieldFrom: "yield from", gast.Await: "await",
    gast.NamedExpr: "an assignment expression (:=) that cannot move before its statement", gast.SetComp: "a set comprehension",
    gast.DictComp: "a dict comprehension", gast.JoinedStr: "an f-string",
}

# Builtins whose Numba versions give other results than Python's (str(1.5) is not '1.5';
# print formats dicts, floats and arrays its own way).
_DIFFERENT_BUILTINS = {str: "str()", repr: "repr()", format: "format()", hash: "hash()",
                       id: "id()", print: "print()"}


class Refusals:
    """Failing with the construct's origin, and checks that refuse whole functions."""

    def fail(self, node, reason):
        raise UnsupportedConstruct(f"{reason} (in {self.fn.__qualname__})",
                                   self.src.origin(node))

    def gap(self, node, reason):
        """Numba would compute ``node`` otherwise than NumPy: fail, or, where the program may
        still run as a NumPy graph (``program.defer_gaps``), note the refusal and let the
        caller keep the plain operation (transpiler.pipeline raises the note if the program
        goes to Numba after all)."""
        if not self.program.defer_gaps:
            self.fail(node, reason)
        self.program.numba_gaps.append(UnsupportedConstruct(
            f"{reason} (in {self.fn.__qualname__})", self.src.origin(node)))

    def _refuse_number_of_container(self, node, fn):
        """``float(t)``, ``int(t)``, ``complex(t)`` of a tuple, list, set or dict: Python
        raises TypeError; Numba's ``np.float64`` of a tuple makes an array (Numba's usecases)."""
        arg = node.args[0] if node.args else None
        if isinstance(arg, (gast.Tuple, gast.List, gast.Set, gast.Dict)) or (
                isinstance(arg, gast.Name) and arg.id in self.tuple_params):
            self.fail(node, f"{fn.__name__}() of a tuple, list, set or dict: Python raises "
                            "TypeError")

    def _refuse_unordered(self, node, callee):
        """Calls whose compiled order of operations is not NumPy's: ``argsort`` but stable
        (NumPy's and Numba's quicksorts order ties otherwise; a stable sort's order is
        unique); ``np.arange`` with a ``dtype=`` of float arguments (NumPy fills in that dtype
        from its first two elements: helpers.numpy_calls.numpy_arange3)."""
        if not self.fidelity:
            return
        fn = callee.value if isinstance(callee, Static) else None
        name = node.func.attr if isinstance(node.func, gast.Attribute) else None
        if fn is np.argsort or (fn is None and name == "argsort"):
            kind = [k.value for k in node.keywords if k.arg == "kind"]
            if not (kind and isinstance(kind[0], gast.Constant) and kind[0].value in (
                    "stable", "mergesort")):
                self.gap(node, "argsort() but a stable one (kind='stable'): NumPy's quicksort "
                                "orders equal elements otherwise than the compiled one")
        if fn is np.arange and any(k.arg == "dtype" for k in node.keywords) and (
                self.scalar_types is None or any(
                    self.scalar_types.of(a) - {"int", "bool"} for a in node.args)):
            self.gap(node, "np.arange() of floats with a dtype: NumPy fills it in that dtype "
                            "from its first two elements, the compiled one otherwise")

    def _check_list_elements(self, fdef):
        """Fall back where a list would hold numbers of more than one type: Numba's lists
        have one element type, so ``[42.0]`` then ``.append(0)`` would hold 0.0, ``[1] +
        [2.0]`` give ``[1.0, 2.0]`` and ``[1, True]`` hold 1. Lists are followed by name
        (displays, ``append``/``insert``/``extend``, ``+``, ``+=``), flow-insensitively."""
        kinds_of = {}       # list name -> kinds of its elements

        def one(elt):
            if isinstance(elt, gast.Starred):
                return {UNKNOWN_TYPE}
            if isinstance(elt, gast.Tuple):   # a tuple element: its items' kinds, in order
                return {"tuple(" + ",".join("|".join(sorted(one(e))) for e in elt.elts) + ")"}
            if isinstance(elt, gast.IfExp):
                return one(elt.body) | one(elt.orelse)
            found = self.scalar_types.of(elt)
            if not found or found <= {UNKNOWN_TYPE, CALL_TYPE}:
                # comprehension variables: the Python-number analysis may know them
                found = {"int": {"int"}, "float": {"float"}, "num": {"int", "float"}}.get(
                    self.numbers.kind(elt), found)
            return found

        def element_kinds(node):
            if isinstance(node, (gast.List, gast.Tuple)):
                found = set()
                for elt in node.elts:
                    found |= one(elt)
                return found
            if isinstance(node, gast.ListComp):
                return one(node.elt)
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                    node.func.id == "list" and len(node.args) == 1 and isinstance(
                        node.args[0], gast.Call) and isinstance(node.args[0].func, gast.Name) \
                    and node.args[0].func.id == "range":
                return {"int"}
            if isinstance(node, gast.Name):
                return kinds_of.get(node.id, set())
            if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Add):
                return element_kinds(node.left) | element_kinds(node.right)
            return set()

        def check(where, found):
            numbers = {k for k in found if k in ("int", "bool", "float", "complex") or
                       k.startswith(("np:", "tuple("))}
            if any("|" in k for k in numbers):   # a tuple item of several kinds
                numbers.add("mixed tuple items")
            if numbers and (not found <= numbers | {"str"}) and found & {UNKNOWN_TYPE,
                                                                         CALL_TYPE}:
                numbers.add("values of unknown type")   # may be another number type
            if len(numbers) > 1:
                self.fail(where, "a list holding numbers of several types ("
                                 f"{', '.join(sorted(numbers))}): Numba's lists have one "
                                 "element type, so Python's elements would be converted")

        for _ in range(2):   # twice: a name's later definitions reach earlier appends
            for node in walk(fdef):
                if isinstance(node, (gast.List, gast.BinOp, gast.ListComp)):
                    found = element_kinds(node)
                    check(node, found)
                if isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                        node.targets[0], gast.Subscript) and isinstance(
                        node.targets[0].value, gast.Name) and \
                        node.targets[0].value.id in kinds_of:
                    name = node.targets[0].value.id     # values[i] = v
                    kinds_of[name] |= one(node.value)
                    check(node, kinds_of[name])
                if isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                        node.targets[0], gast.Name):
                    found = element_kinds(node.value)
                    if found or isinstance(node.value, gast.List):
                        name = node.targets[0].id
                        kinds_of[name] = kinds_of.get(name, set()) | found
                        check(node, kinds_of[name])
                elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) \
                        and node.target.id in kinds_of and isinstance(node.op, gast.Add):
                    kinds_of[node.target.id] |= element_kinds(node.value)
                    check(node, kinds_of[node.target.id])
                elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                        and isinstance(node.func.value, gast.Name) \
                        and node.func.value.id in kinds_of and node.args:
                    name, method = node.func.value.id, node.func.attr
                    if method == "append":
                        kinds_of[name] |= one(node.args[0])
                    elif method == "insert" and len(node.args) == 2:
                        kinds_of[name] |= one(node.args[1])
                    elif method == "extend":
                        kinds_of[name] |= element_kinds(node.args[0])
                    check(node, kinds_of[name])
