"""The rule of NumPy's reductions in compiled code: ``sum``, ``mean``, ``var``, ``std`` of a
whole array and, along one axis of a 2-D array, ``sum``, ``mean``, ``var``, ``std``, ``max``,
``min`` (``keepdims`` too), as NumPy computes them bit for bit (transpiler.helpers.
numpy_reductions, numpy_axis_reductions), where Numba adds in another order or has no
``axis=``. Other reductions Numba computes otherwise are refused (``gap``): the NumPy graph
still runs them, compiled loops make them islands.
"""
import gast
import numpy as np

from ...analysis.static_values import Static
from ...helpers.numpy_axis_reductions import (
    keep_axis, numpy_max_axis, numpy_mean_axis, numpy_min_axis, numpy_std_axis, numpy_sum_axis,
    numpy_var_axis)
from ...helpers.numpy_reductions import (
    numpy_complex_sum, numpy_integer_mean, numpy_integer_std, numpy_integer_var, numpy_mean,
    numpy_std, numpy_sum, numpy_var)

# NumPy reductions compiled exactly (transpiler.helpers.numpy_reductions), by array kind:
# "f" float32/float64, "c" complex, "i" integer or bool (their sums Numba gives exactly).
_REDUCTIONS = {
    "sum": {"f": numpy_sum, "c": numpy_complex_sum},
    "mean": {"f": numpy_mean, "i": numpy_integer_mean},
    "var": {"f": numpy_var, "i": numpy_integer_var},
    "std": {"f": numpy_std, "i": numpy_integer_std},
}
# Reductions Numba compiles with other arithmetic than NumPy's for float/complex arrays.
_DIFFERENT_REDUCTIONS = frozenset({
    "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile",
    "nanmean", "nanstd", "nanvar", "nansum", "average", "norm"})

# Along one axis of a 2-D array (transpiler.helpers.numpy_axis_reductions): the helper, and
# the array kinds it takes ("f" float32/float64, "i" signed and "u" unsigned integers).
_AXIS_REDUCTIONS = {
    "sum": (numpy_sum_axis, "f"), "mean": (numpy_mean_axis, "f"),
    "var": (numpy_var_axis, "f"), "std": (numpy_std_axis, "f"),
    "max": (numpy_max_axis, "fiu"), "amax": (numpy_max_axis, "fiu"),
    "min": (numpy_min_axis, "fiu"), "amin": (numpy_min_axis, "fiu"),
}


def _literal_int(node):
    """The int a literal ``node`` (``1``, ``-1``) spells, else None."""
    sign = 1
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        sign, node = -1, node.operand
    if isinstance(node, gast.Constant) and type(node.value) is int:
        return sign * node.value
    return None


def _along_axis(self, node, name, array, rest, keywords, kind, dtype, ndim):
    """``a.<name>(axis=k, keepdims=b)`` (``np.<name>(a, k)`` too; ``ddof=`` for var/std) of a
    2-D array, ``k`` a literal axis, ``b`` a literal bool: the helper's call; None when the
    call is not of that form (the rules after it decide)."""
    found = _AXIS_REDUCTIONS.get(name)
    if found is None or ndim != 2 or kind not in found[1] or dtype == "float16" or \
            len(rest) > 1 or (rest and "axis" in keywords):
        return None
    allowed = {"axis", "keepdims"} | ({"ddof"} if name in ("var", "std") else set())
    if set(keywords) - allowed:
        return None
    axis = _literal_int(rest[0] if rest else keywords.get("axis", gast.Constant(value=None,
                                                                                 kind=None)))
    keep = keywords.get("keepdims", gast.Constant(value=False, kind=None))
    if axis is None or axis not in (-2, -1, 0, 1) or not isinstance(keep, gast.Constant) or \
            type(keep.value) is not bool:
        return None
    axis %= 2
    args = [self.value(array), gast.Constant(value=axis, kind=None)]
    if name in ("var", "std"):
        ddof = keywords.get("ddof")
        if ddof is not None and not self.scalar_types.of(ddof) <= {"int", "bool"}:
            return None     # a float ddof: NumPy's own rules, not compiled exactly
        args.append(self.value(ddof) if ddof is not None else gast.Constant(value=0, kind=None))
    result = self._call_helper(node, found[0], args)
    if keep.value:
        result = self._call_helper(node, keep_axis, [result, gast.Constant(value=axis,
                                                                           kind=None)])
    return result


def exact_reduction(self, node):
    """``a.sum()``, ``a.mean()``, ``a.var()``, ``a.std()`` and their ``np.`` forms of an
    array (ndim >= 1, no axis or dtype; ``ddof=`` for var/std): NumPy's pairwise sums bit
    for bit (transpiler.helpers.numpy_reductions), where Numba adds in order. Other NumPy
    reductions Numba computes otherwise (``np.median``, ``np.linalg.norm``, an ``axis=``
    of a float array...) are refused (``gap``). None: another rule. Not for the eager
    backend (NumPy itself runs there) nor inside helpers."""
    if not self.fidelity or self.scalar_types is None or self.program.runs_python or \
            not isinstance(node.func, gast.Attribute) or any(
                isinstance(a, gast.Starred) for a in node.args):
        return None
    name = node.func.attr
    if name not in _REDUCTIONS and name not in _DIFFERENT_REDUCTIONS and \
            name not in _AXIS_REDUCTIONS:
        return None
    receiver = self.scalar_types.of(node.func.value)
    if len(receiver) == 1 and next(iter(receiver)).startswith("arr:"):
        array, rest = node.func.value, list(node.args)      # a.sum(...)
    else:
        module = self.expr(node.func.value)
        if not isinstance(module, Static) or not node.args or module.value not in (
                np, np.linalg) or (module.value is np.linalg) != (name == "norm"):
            return None
        array, rest = node.args[0], list(node.args[1:])     # np.sum(a, ...)
    kinds = self.scalar_types.of(array)
    if len(kinds) != 1 or not next(iter(kinds)).startswith("arr:"):
        return None
    _, dtype, ndim = next(iter(kinds)).split(":")
    kind = np.dtype(dtype).kind
    keywords = {k.arg: k.value for k in node.keywords}
    along = _along_axis(self, node, name, array, rest, keywords, kind, dtype, int(ndim))
    if along is not None or (name not in _REDUCTIONS and name not in _DIFFERENT_REDUCTIONS):
        return along
    plain = not rest and not set(keywords) - ({"ddof"} if name in ("var", "std") else set())
    helper = _REDUCTIONS.get(name, {}).get("c" if kind == "c" else "f" if kind == "f"
                                             else "i") if plain and int(ndim) >= 1 else None
    if helper is not None:
        args = [self.value(array)]
        if name in ("var", "std"):
            ddof = keywords.get("ddof")
            if ddof is not None and not self.scalar_types.of(ddof) <= {"int", "bool"}:
                return None     # a float ddof: NumPy's own rules, not compiled exactly
            args.append(self.value(ddof) if ddof is not None else gast.Constant(
                value=0, kind=None))
        return self._call_helper(node, helper, args)
    if name in _DIFFERENT_REDUCTIONS or kind in "fc":
        self.gap(node, f"{name}() of a {dtype} array here: NumPy computes it with its own "
                       "order of additions (pairwise sums, buffers), Numba otherwise (the "
                       "last bits differ)")
    elif not plain and (name in ("mean", "var", "std") or ndim == "1"):
        self.gap(node, f"{name}() of a {dtype} array with an axis: NumPy sums it in float64 "
                       "through its buffers or gives a NumPy scalar, Numba otherwise")
    return None

