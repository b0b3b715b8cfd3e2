"""Result types of calls with keywords for the scalar-type analysis
(transpiler.analysis.scalar_types): NumPy calls whose keywords are literals
(``x.mean(axis=0)``, ``np.sum(a, axis=1, keepdims=True)``, ``a.astype(dtype=np.float32)``),
typed by running NumPy itself once on sample values (scalar_kinds._apply: NumPy's own type
and dimension rules, not a table of ours), and value islands' calls (transpiler.islands),
typed by the statement's own expression kept as their keyword.
"""
import gast
import numpy as np

from ..island_frames import UPDATE_KEYWORD
from .scalar_kinds import CALL, UNKNOWN, _constant, _method

_NOT_LITERAL = object()


def literal_keywords(analysis, keywords):
    """``((name, value), ...)`` of a call's keywords when each value is a literal (a number,
    a string, True/False/None, a tuple of them) or a NumPy scalar type or dtype named
    statically (``dtype=np.float32``); None otherwise, and for ``out=`` (the result is that
    array) and ``**kw``. ``analysis``: the ScalarTypes (its ``resolve``)."""
    found = []
    for keyword in keywords:
        if keyword.arg is None or keyword.arg == "out":
            return None
        value = _literal(keyword.value)
        if value is _NOT_LITERAL and isinstance(keyword.value, (gast.Name, gast.Attribute)):
            static = analysis.resolve(keyword.value)
            if isinstance(static, np.dtype) or (isinstance(static, type) and (
                    issubclass(static, np.generic) or static in (int, float, bool, complex))):
                value = static
        if value is _NOT_LITERAL:
            return None
        found.append((keyword.arg, value))
    return tuple(found)


def library_call(analysis, node, keywords):
    """The result types (a set of type strings) of ``node``, a call with literal ``keywords``
    (literal_keywords) of an array's method or of a NumPy function: NumPy's own, on samples;
    ``{"?"}`` for any other callee. Outside a value island (where Python computes the call)
    only calls of arrays: a NumPy scalar's (``np.round(x[j], decimals=1)``) converts by the
    specializer's scalar rules, which take positional arguments (a float32 came back a
    Python float)."""
    func = node.func
    args = [analysis.of(a) for a in node.args]
    if any(not kinds for kinds in args):
        return set()                    # an operand not known yet in the fixpoint (bottom)
    if not getattr(analysis, "island_value", False) and not all(
            kinds and all(k.startswith("arr:") for k in kinds) for kinds in args):
        return {UNKNOWN}
    if isinstance(func, gast.Attribute) and not analysis._static(func.value):
        base = analysis.of(func.value)
        if not base:
            return set()                # not known yet in the fixpoint (bottom)
        if all(k.startswith("arr:") for k in base) or (
                getattr(analysis, "island_value", False) and all(
                    k.startswith(("arr:", "np:")) for k in base)):
            return analysis._combine(_method(func.attr), [base] + args, keywords)
        return {UNKNOWN}
    fn = analysis.resolve(func) if isinstance(func, (gast.Name, gast.Attribute)) else \
        analysis.unknown
    if isinstance(fn, np.ufunc) or (getattr(fn, "__module__", None) or "").split(".")[0] \
            == "numpy" and not (isinstance(fn, type) and issubclass(fn, np.generic)):
        return analysis._combine(fn, args, keywords)
    return {UNKNOWN}


def island_types(analysis, node, island):
    """The types of a call of ``island`` (transpiler.island_frames.Island): an expression
    island's fixed type; a value island's, those of the statement's expression, kept as its
    keyword (``x op= e`` of an array ``x`` updates it in place, NumPy casting into its dtype:
    ``x``'s type; of a number, ``x op e``'s); a statement island gives nothing compiled code
    reads (``CALL``)."""
    if island.result_kind:
        return {island.result_kind}
    if not island.gives_value:
        return {CALL}
    keyword = node.keywords[0]
    if keyword.arg == UPDATE_KEYWORD:
        base = analysis.of(keyword.value.left)
        if not base:
            return set()                # not known yet in the fixpoint (bottom)
        if all(k.startswith("arr:") for k in base):
            return base
    expr = keyword.value
    if _unsure(expr):
        return {UNKNOWN}
    # (ScalarTypes.island_value: True while typing a value island's expression)
    saved, analysis.island_value = getattr(analysis, "island_value", False), True
    try:
        found = analysis.of(expr)
    finally:
        analysis.island_value = saved
    if found == {"int"} and not (isinstance(expr, gast.Call) and (getattr(
            analysis.resolve(expr.func), "__module__", None) or "").startswith("numpy")):
        # a Python int not from NumPy (math.comb, int arithmetic) may pass int64: compiled
        # code cannot hold it, and the loop cannot run again as Python after the island ran
        return {UNKNOWN}
    return found


# NumPy functions whose result's dimensions or dtype depend on the values or shapes (not only
# on the operands' types: samples would type them wrong), that give read-only views or that
# change the byte order (compiled code's is native)
_UNSURE = frozenset({"squeeze", "real_if_close", "cross", "as_strided", "sliding_window_view",
                     "broadcast_to", "broadcast_arrays", "frombuffer", "lib", "emath",
                     "nonzero", "where", "argwhere", "flatnonzero", "newbyteorder",
                     "byteswap"})


def _unsure(expr):
    """Whether the expression of a value island names something of _UNSURE, or a dtype of a
    byte order (``">f8"``): the samples may not give its result's type."""
    for node in gast.walk(expr):
        if (isinstance(node, gast.Attribute) and node.attr in _UNSURE) or (
                isinstance(node, gast.Name) and node.id in _UNSURE):
            return True
        if isinstance(node, gast.Constant) and isinstance(node.value, str) and any(
                c in node.value for c in "<>=|"):
            return True
    return False


def _literal(node):
    """The value of a literal (a constant, a negated number, a tuple of literals), or
    _NOT_LITERAL. Numbers beyond 64 in size are not taken: the call runs on samples, and a
    keyword may be a size (``np.ones(shape=10**9)`` must not allocate while transpiling)."""
    if isinstance(node, gast.Constant) and not isinstance(node.value, bytes) and not (
            type(node.value) in (int, float, complex) and abs(node.value) > 64):
        return node.value
    number = _constant(node)
    if number is not None and abs(number) <= 64:
        return number
    if isinstance(node, gast.Tuple) and len(node.elts) <= 8 and not any(
            isinstance(e, gast.Starred) for e in node.elts):
        items = tuple(_literal(e) for e in node.elts)
        return _NOT_LITERAL if any(i is _NOT_LITERAL for i in items) else items
    return _NOT_LITERAL
