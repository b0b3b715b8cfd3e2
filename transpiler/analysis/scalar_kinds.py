"""The type strings of the scalar-type analysis (transpiler.analysis.scalar_types), and the
result type of an operation by evaluating it once on sample values of its operand types.

Types are strings: ``"int"``, ``"float"``, ``"bool"``, ``"complex"`` (Python numbers),
``"np:<dtype>"`` (a NumPy scalar, ``np:float32``), ``"arr:<dtype>:<ndim>"`` (an array) and
``"?"`` (``UNKNOWN``: anything else, no decision is taken on it); ``CALL`` is the result of a
call to a user function or method.
"""
import operator
import warnings

import gast
import numpy as np

UNKNOWN = "?"
CALL = "?call"    # the result of a call to a user function or method: not typed by path here
_PY = {bool: "bool", int: "int", float: "float", complex: "complex"}
_SAME = {"float": "np:float64", "int": "np:int64", "bool": "np:bool", "complex": "np:complex128"}
_BINOPS = {gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
           gast.Div: operator.truediv, gast.FloorDiv: operator.floordiv, gast.Mod: operator.mod,
           gast.Pow: operator.pow, gast.BitAnd: operator.and_, gast.BitOr: operator.or_,
           gast.BitXor: operator.xor, gast.LShift: operator.lshift, gast.RShift: operator.rshift,
           gast.MatMult: operator.matmul}
_UNARY = {gast.USub: operator.neg, gast.UAdd: operator.pos, gast.Invert: operator.invert}
_PY_CALLS = {float: "float", int: "int", bool: "bool", complex: "complex", len: "int",
             isinstance: "bool", issubclass: "bool", callable: "bool"}
_FLOATS = ("float16", "float32", "float64")


def _pow_negative(base, exponent):
    return base ** -exponent


def _constant(node):
    """The value of a literal number, negated literals included; None otherwise."""
    if isinstance(node, gast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
        inner = _constant(node.operand)
        return -inner if inner is not None else None
    return None


_methods = {}


def _method(name):
    """``obj.name(*args, **keywords)`` as a function (one per name: it keys the result-type
    cache)."""
    if name not in _methods:
        _methods[name] = lambda obj, *args, **keywords: getattr(obj, name)(*args, **keywords)
    return _methods[name]


def type_of_value(value):
    """The type string of a Python value (a static value, an argument)."""
    if type(value) in _PY:
        return _PY[type(value)]
    if isinstance(value, np.generic):
        return "np:" + value.dtype.name
    if isinstance(value, np.ndarray):
        return f"arr:{value.dtype.name}:{value.ndim}"
    return UNKNOWN


def sample(kind):
    """A value of type string ``kind`` (small and positive: most functions accept it)."""
    if kind in ("int", "float", "bool", "complex"):
        return {"int": 3, "float": 1.5, "bool": True, "complex": 1.5 + 1j}[kind]
    if kind.startswith("np:"):
        return np.dtype(kind[3:]).type(1)
    if kind.startswith("arr:"):
        _, dtype, ndim = kind.split(":")
        return np.ones((2,) * int(ndim), dtype=dtype)
    raise ValueError(kind)


_cache = {}


def _apply(fn, kinds, keywords=()):
    """The type string of ``fn(*samples of kinds, **dict(keywords))``: NumPy's own result
    type, found by running it once on sample values (``keywords``: literal values only, as
    ``axis=0, keepdims=True``; a tuple of pairs)."""
    key = (fn, kinds, keywords)
    if key not in _cache:
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"), random_state_kept(fn):
                warnings.simplefilter("ignore")
                _cache[key] = type_of_value(fn(*[sample(k) for k in kinds], **dict(keywords)))
        except Exception:  # noqa: BLE001 - no result type known
            _cache[key] = UNKNOWN
    return _cache[key]


class random_state_kept:
    """Context manager: NumPy's global random state is as it was afterwards when ``fn`` is
    an ``np.random`` function (sampled for its result type, it would draw: transpiling must
    never consume the user's random numbers)."""

    def __init__(self, fn):
        module = getattr(fn, "__module__", None) or ""
        self.draws = module.startswith("numpy.random") or type(fn).__module__.startswith(
            "numpy.random") or getattr(getattr(fn, "__self__", None), "__module__",
                                       "").startswith("numpy.random")
        self.state = None

    def __enter__(self):
        if self.draws:
            self.state = np.random.get_state()
        return self

    def __exit__(self, *exc):
        if self.state is not None:
            np.random.set_state(self.state)
        return False


def alike_pair(kinds):
    """``(python kind, "np:dtype")`` when ``kinds`` is a Python number and the NumPy scalar
    that computes alike (``{"float", "np:float64"}``), else None."""
    numpy = {k for k in kinds if k.startswith("np:")}
    python = set(kinds) - numpy
    if len(numpy) != 1 or len(python) != 1 or _SAME.get(next(iter(python))) != next(
            iter(numpy)):
        return None
    return next(iter(python)), next(iter(numpy))


def _number_pair(kinds):
    """``(python kind, "np:dtype")`` when ``kinds`` is one Python number kind and one NumPy
    scalar type (``{"int", "np:float64"}``), else None: a merge a result flag can follow."""
    numpy = {k for k in kinds if k.startswith("np:")}
    python = set(kinds) - numpy
    if len(numpy) != 1 or len(python) != 1 or not python <= {"int", "float", "bool",
                                                             "complex"}:
        return None
    return next(iter(python)), next(iter(numpy))


def of_with(analysis, expr, reads):
    """``analysis.of(expr)`` (a ScalarTypes) with the Name reads in ``reads`` ({Name node: set
    of type strings}: a name taken as each of its types) taken as given."""
    saved = {id(n): analysis._refined.get(id(n)) for n in reads}
    try:
        analysis._refined.update((id(n), set(kinds)) for n, kinds in reads.items())
        return analysis.of(expr)
    finally:
        for key, kinds in saved.items():
            if kinds is None:
                analysis._refined.pop(key, None)
            else:
                analysis._refined[key] = kinds


def index_array_kinds(base, index):
    """The types of ``a[index]`` where ``index`` (its types) is a boolean mask (NumPy:
    ``a.ndim - mask.ndim + 1`` dimensions) or an integer index array (``a.ndim + idx.ndim -
    1``) and ``a`` (``base``) an array; None where either is not (NumPy's "Advanced
    indexing": the result is a new array of ``a``'s dtype)."""
    if not base or not index or not all(k.startswith("arr:") for k in base | index):
        return None
    out = set()
    for a in base:
        _, dtype, ndim = a.split(":")
        for i in index:
            _, kind, depth = i.split(":")
            if np.dtype(kind).kind == "b" and int(depth) <= int(ndim):
                out.add(f"arr:{dtype}:{int(ndim) - int(depth) + 1}")
            elif np.dtype(kind).kind in "iu" and int(ndim) >= 1:
                out.add(f"arr:{dtype}:{int(ndim) + int(depth) - 1}")
            else:
                return None
    return out


def compared_arrays_kinds(kinds):
    """The types of ``x < y`` (one comparison) where an operand is an array and neither is
    untyped: a bool array of the operands' broadcast ndim; {UNKNOWN} otherwise."""
    if any(UNKNOWN in k or CALL in k or not k for k in kinds) or any(
            not (t.startswith(("arr:", "np:")) or t in ("int", "float", "bool", "complex"))
            for k in kinds for t in k):
        return {UNKNOWN}
    return {f"arr:bool:{max(int(t.split(':')[2]) if t.startswith('arr:') else 0 for k in kinds for t in k)}"}
