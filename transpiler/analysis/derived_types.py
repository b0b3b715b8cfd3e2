"""Types of expressions that take them from another value, for the scalar-type analysis
(``ScalarTypes.of``, passed as ``analysis``): a comparison of tuple or list displays, a
number's ``.real``/``.imag``, ``type(x)(v)``, an item read by index of a list the function
made."""
import gast

from .list_results import iterated_elements
from .scalar_kinds import UNKNOWN, sample, type_of_value

_NUMBERS = ("int", "float", "bool", "complex")


def display(node):
    """Whether ``node`` is a tuple or list display without a starred item."""
    return isinstance(node, (gast.Tuple, gast.List)) and not any(
        isinstance(e, gast.Starred) for e in node.elts)


def sequences_compared(node):
    """Whether the Compare ``node`` is one comparison of two tuple or list displays."""
    return len(node.ops) == 1 and display(node.left) and display(node.comparators[0])


def sequence_compare_types(analysis, node):
    """The types of a comparison of two tuple or list displays (CPython
    ``Objects/tupleobject.c``, ``tuplerichcompare``): ``==`` and ``!=`` give a bool; an
    ordering gives the result of its first pair of items that are not equal (an np.bool_
    where one is a NumPy scalar) or, where every pair is, of the lengths (a bool): which one
    depends on the values."""
    op = node.ops[0]
    if isinstance(op, (gast.Eq, gast.NotEq)):
        return {"bool"}
    if not isinstance(op, (gast.Lt, gast.LtE, gast.Gt, gast.GtE)):
        return {UNKNOWN}
    out = {"bool"}
    for a, b in zip(node.left.elts, node.comparators[0].elts):
        left, right = analysis.of(a), analysis.of(b)
        if not left or not right:
            return set()        # not known yet in the fixpoint (bottom)
        if UNKNOWN in left or UNKNOWN in right or any(
                k.startswith("arr:") for k in left | right):
            return {UNKNOWN}
        out |= {"np:bool" if t.startswith("np:") or u.startswith("np:") else "bool"
                for t in left for u in right}
    return out


def part_types(base, attr):
    """The types of ``x.real``/``x.imag`` for ``x`` of the number types ``base``: its own
    type's part (np.float64(1).real is an np.float64, np.complex64's an np.float32, True.real
    the int 1), as a sample gives it; None for another attribute or a value not a number."""
    if attr not in ("real", "imag") or not base or not all(
            k in _NUMBERS or k.startswith("np:") for k in base):
        return None
    try:
        return {type_of_value(getattr(sample(k), attr)) for k in base}
    except (TypeError, ValueError, AttributeError):
        return {UNKNOWN}


def applied_type(analysis, node):
    """The types of ``type(x)(v)`` (the Call ``node``) for a number ``x``: x's own types
    (np.float64(1.5) gives np.float64s); None for another call."""
    func = node.func
    if not (isinstance(func, gast.Call) and len(func.args) == 1 and not func.keywords and
            isinstance(func.func, gast.Name) and analysis.resolve(func.func) is type and
            len(node.args) == 1 and not node.keywords):
        return None
    kinds = analysis.of(func.args[0])
    if kinds and all(k in _NUMBERS or k.startswith("np:") for k in kinds):
        return set(kinds)
    return None


def list_item_types(analysis, node):
    """The types of ``out[i]`` (the Subscript ``node``), ``out`` a list the function makes
    and only fills (list_results.iterated_elements: the types of its elements); else None."""
    if not isinstance(node.value, gast.Name) or isinstance(node.slice, (gast.Slice,
                                                                       gast.Tuple)):
        return None
    return iterated_elements(analysis, node.value.id)
