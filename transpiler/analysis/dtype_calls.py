"""Result types of NumPy calls given a dtype: ``np.zeros(n, np.int8)``,
``np.arange(n, dtype=np.int16)``, ``np.full((n, 2), 1.5, "f4")``, ``a.astype(np.float32)``.

The scalar-type analysis (analysis.scalar_types) types a NumPy call by calling it on samples
of its arguments' types; a dtype argument is a static value (a class, an ``np.dtype``, a
string), which has no type string, so such calls were untyped and their elements' arithmetic
followed Numba's rules (``np.ones(n, np.int8)[0] + 1`` in int64). Here the dtype is passed as
itself and the other arguments as samples; NumPy's own result gives the type (its dtype and
ndim do not depend on the sample values for these calls). Used by ScalarTypes._call.
"""
import warnings

import gast
import numpy as np

from .scalar_kinds import CALL, UNKNOWN, random_state_kept, sample, type_of_value

_cache = {}


def static_dtype(analysis, node):
    """The ``np.dtype`` that ``node`` names statically (``np.int8``, ``float``, ``"f4"``,
    ``np.dtype("u2")``), or None."""
    if isinstance(node, gast.Constant):
        value = node.value
        if not isinstance(value, str):
            return None
    elif isinstance(node, (gast.Name, gast.Attribute)):
        try:
            value = analysis.resolve(node)
        except Exception:  # noqa: BLE001 - not a static value
            return None
        if value is analysis.unknown or not isinstance(value, (type, np.dtype)):
            return None
    else:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dtype = np.dtype(value)
    except (TypeError, ValueError):
        return None
    return dtype if dtype.kind in "biufc" else None


def dtype_call(analysis, node):
    """The set of type strings ``node`` (a gast.Call) gives where it is a NumPy function or
    ``.astype`` called with a static dtype (positional or ``dtype=``); set() while an
    argument is not typed yet (the analysis' fixpoint); None where it is no such call."""
    func = node.func
    if isinstance(func, (gast.Name, gast.Attribute)) and node.args and not any(
            isinstance(a, gast.Starred) for a in node.args) and all(
                k.arg == "axis" for k in node.keywords) and analysis.resolve(func) is np.roll:
        base = analysis.of(node.args[0])      # np.roll(a, k[, axis]): a's dtype and ndim
        return base and ({k for k in base if k.startswith("arr:")} if all(
            k.startswith("arr:") for k in base) else {UNKNOWN})
    if isinstance(func, gast.Attribute) and func.attr == "reshape" and node.args and not \
            node.keywords and not any(isinstance(a, gast.Starred) for a in node.args) and \
            not _static(analysis, func.value):
        # a.reshape(2, -1), a.reshape((2, 3)): a's dtype, one dimension per size (NumPy)
        sizes = node.args[0].elts if len(node.args) == 1 and isinstance(
            node.args[0], gast.Tuple) else node.args
        base = analysis.of(func.value)
        if len(node.args) == 1 and not isinstance(node.args[0], gast.Tuple):
            one = analysis.of(node.args[0])
            if not one:
                return set()    # not known yet in the fixpoint (bottom)
            if not one <= {"int", "bool"}:
                return None     # a shape held in a variable: its length is not known here
        if not base:
            return set()
        if all(k.startswith("arr:") for k in base):
            return {f"arr:{k.split(':')[1]}:{len(sizes)}" for k in base}
    if any(isinstance(a, gast.Starred) for a in node.args) or any(
            k.arg != "dtype" for k in node.keywords):
        return None
    keyword = [static_dtype(analysis, k.value) for k in node.keywords]
    if any(d is None for d in keyword):
        return None
    if isinstance(func, gast.Attribute) and func.attr == "astype" and not _static(
            analysis, func.value):
        dtypes = keyword or [static_dtype(analysis, a) for a in node.args[:1]]
        if len(dtypes) != 1 or dtypes[0] is None or len(node.args) + len(keyword) != 1:
            return None
        base = analysis.of(func.value)
        if not base:
            return set()
        out = set()
        for kind in base:
            if kind.startswith("arr:"):
                out.add(f"arr:{dtypes[0].name}:{kind.split(':')[2]}")
            elif kind.startswith("np:"):
                out.add(f"np:{dtypes[0].name}")
            else:
                out.add(UNKNOWN)
        return out
    if not isinstance(func, (gast.Name, gast.Attribute)):
        return None
    fn = analysis.resolve(func)
    module = getattr(fn, "__module__", None) or ""
    if fn is analysis.unknown or not callable(fn) or not isinstance(module, str) or \
            module.split(".")[0] != "numpy":
        return None
    positional = [static_dtype(analysis, a) for a in node.args]
    if not keyword and not any(d is not None for d in positional):
        return None
    parts = []
    for arg, dtype in zip(node.args, positional):
        if dtype is not None:
            parts.append(("dtype", dtype))
        elif isinstance(arg, gast.Tuple) and arg.elts:
            kinds = [analysis.of(e) for e in arg.elts]
            if any(not k for k in kinds):
                return set()
            if not all(k == {"int"} for k in kinds):
                return {UNKNOWN}
            parts.append(("shape", len(kinds)))
        else:
            kinds = analysis.of(arg)
            if not kinds:
                return set()
            if kinds & {UNKNOWN, CALL}:
                return {UNKNOWN}
            parts.append(("kinds", tuple(sorted(kinds))))
    out = set()
    for args in _product(parts):
        out.add(_result(fn, tuple(args), keyword[0] if keyword else None))
    return out


def _static(analysis, node):
    try:
        return analysis.resolve(node) is not analysis.unknown
    except Exception:  # noqa: BLE001 - not a static value
        return False


def _product(parts):
    """Each combination of the arguments' samples: a dtype as itself, a tuple of ints as a
    shape, a value as each of its types."""
    combos = [[]]
    for what, value in parts:
        options = [("dtype", value)] if what == "dtype" else [("shape", value)] if \
            what == "shape" else [("kind", k) for k in value]
        combos = [c + [o] for c in combos for o in options]
    return combos


def _result(fn, args, dtype):
    key = (fn, args, dtype)
    if key not in _cache:
        kwargs = {"dtype": dtype} if dtype is not None else {}
        try:
            values = [value if what == "dtype" else (3,) * value if what == "shape" else
                      sample(value) for what, value in args]
            with warnings.catch_warnings(), np.errstate(all="ignore"), random_state_kept(fn):
                warnings.simplefilter("ignore")
                _cache[key] = type_of_value(fn(*values, **kwargs))
        except Exception:  # noqa: BLE001 - no result type known
            _cache[key] = UNKNOWN
    return _cache[key]
