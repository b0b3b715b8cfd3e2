"""The NumPy graph's fusion plan (backends/graph_plan.py builds the flat function): which
operations may write in place into a dead fresh operand, or into a buffer kept across calls,
and whether shapes follow from the shape key at all. See graph_plan's docstring for the rules;
backends/runtime/array_graph.py checks each choice at the first call per shapes.
"""
import gast
import numpy as np
from transpiler.nodes import child_nodes, walk

# Element-wise operators and the ufunc each calls on ndarrays (ndarray.__add__ is np.add, ...).
# ``**`` is left out: ndarray.__pow__ takes fast paths (square, sqrt, reciprocal) np.power does
# not, so the two may differ in the last bit.
_BINOP_UFUNCS = {gast.Add: "add", gast.Sub: "subtract", gast.Mult: "multiply",
                 gast.Div: "true_divide", gast.FloorDiv: "floor_divide", gast.Mod: "remainder",
                 gast.BitAnd: "bitwise_and", gast.BitOr: "bitwise_or", gast.BitXor: "bitwise_xor"}
_MATRIX = ("dot", "matmul")
# Functions and methods whose result is a new array or a scalar, never a view of an operand
# nor an operand itself (np.diff(a, 0) is a; copy=False, out= may be): the result may be
# written in place later, and its operands do not escape through it. Only with at most
# _FRESH_POSITIONAL positional arguments (a later one may be ``out``: np.clip(a, 0, 1, a)) and
# no keyword but these.
_FRESH_CALLS = {"sum", "mean", "std", "var", "max", "min", "amax", "amin", "prod", "any",
                "all", "argmax", "argmin", "cumsum", "cumprod", "concatenate", "stack",
                "vstack", "hstack", "where", "outer", "inner", "copy", "dot", "sort",
                "argsort", "clip", "average", "nansum", "nanmean", "ptp", "zeros_like",
                "ones_like", "empty_like", "full_like", "zeros", "ones", "empty", "full"}
_FRESH_POSITIONAL = {"where": 3, "clip": 3, "full": 2, "full_like": 2}   # else 2 (a, axis)
_FRESH_KEYWORDS = {"axis", "keepdims", "dtype", "ddof", "initial"}
# NumPy functions and methods whose result's shape depends on the values of an array.
_VALUE_SHAPED = {"nonzero", "flatnonzero", "argwhere", "unique", "extract", "compress",
                 "trim_zeros", "item", "tolist", "int", "float", "bool", "complex",
                 "round", "sorted", "list", "tuple", "range", "arange", "linspace"}
# NumPy functions whose result's shape follows from their arguments' shapes alone.
_DATA_ALL = {"dot", "matmul", "outer", "inner", "clip", "where", "vdot", "kron", "cross",
             "solve"}
# ... from the first argument's shape (the others are axes, orders, dtypes: not data).
_DATA_FIRST = {"sum", "mean", "std", "var", "max", "min", "amax", "amin", "prod", "cumsum",
               "cumprod", "any", "all", "argmax", "argmin", "sort", "argsort", "diff",
               "transpose", "ravel", "copy", "asarray", "ascontiguousarray", "squeeze",
               "concatenate", "stack", "vstack", "hstack", "column_stack", "average",
               "median", "ptp", "nansum", "nanmean", "nanmax", "nanmin", "trace", "diagonal",
               "flip", "fliplr", "flipud", "rot90", "roll", "tile", "repeat", "atleast_1d",
               "atleast_2d", "zeros_like", "ones_like", "empty_like", "full_like", "norm",
               "inv", "det", "cholesky"}


def _ufunc_of(op, numpy_name):
    """("inplace-able ufunc name", operand names) or ("matrix", ...) or None."""
    value = op.value
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Pow):
        # ndarray.__pow__ (numpy/_core/src/multiarray/number.c, fast_scalar_power; checked on
        # NumPy 2.4 with an __array_ufunc__ probe): an array to the Python int 2 is
        # np.square of it; a float or complex one to the Python int -1 or the Python float
        # 0.5 np.reciprocal, np.sqrt (op.inexact); any other exponent (2.0, np.int64(2))
        # np.power. Only a constant exponent says which at transpile time.
        exponent = value.right
        if not isinstance(exponent, gast.Constant) or type(exponent.value) not in (int, float):
            return None
        fast = {(int, 2): "square", (int, -1): "reciprocal", (float, 0.5): "sqrt"}.get(
            (type(exponent.value), exponent.value))
        if fast is None:
            return "power", [value.left, value.right], True
        op.inexact = fast != "square"
        return fast, [value.left], True
    if isinstance(value, gast.BinOp):
        if isinstance(value.op, gast.MatMult):
            return "matmul", [value.left, value.right], False
        name = _BINOP_UFUNCS.get(type(value.op))
        return (name, [value.left, value.right], True) if name else None
    if isinstance(value, gast.UnaryOp) and isinstance(value.op, gast.USub):
        return "negative", [value.operand], True
    if isinstance(value, gast.Call) and not value.keywords and isinstance(
            value.func, gast.Attribute) and isinstance(value.func.value, gast.Name) and \
            value.func.value.id == numpy_name:
        attr = value.func.attr
        if attr in _MATRIX and len(value.args) == 2:
            return attr, list(value.args), False
        fn = getattr(np, attr, None)
        if isinstance(fn, np.ufunc) and fn.nout == 1 and len(value.args) == fn.nin:
            return attr, list(value.args), True
    return None


def plan_fusion(ops, params, arrays, numpy_name, modules):
    """Mark each op "inplace" / "buffer" where the aliasing allows it (module docstring).
    ``arrays``: the parameters whose values the shape key does not hold (arrays, floats).
    Returns False when shapes may depend on such values (then no op is marked: buffers are
    chosen by argument shapes and integers)."""
    if not _shapes_from_arguments(ops, arrays, modules):
        return False
    klass = {p: {p} for p in params}         # name -> its storage class (a shared set)
    fresh = set()
    last_use = last_uses(ops)
    for i, op in enumerate(ops[:-1]):
        found = _ufunc_of(op, numpy_name) if op.target else None
        mentioned = {n.id for n in walk(op.value) if isinstance(n, gast.Name)
                     and n.id in klass}
        if found is not None:
            ufunc, operands, elementwise = found
            op.ufunc = ufunc
            if elementwise:     # every dead fresh operand: the first one that fits is chosen
                op.operands = list(dict.fromkeys(
                    o.id for o in operands if isinstance(o, gast.Name) and o.id in fresh
                    and all(last_use.get(m, -1) <= i for m in klass[o.id])))
            op.fusion = "inplace" if op.operands else "buffer"
            _join(klass, [op.target] + op.operands)
            fresh.add(op.target)
            continue
        if op.target and _fresh_result(op.value, modules):
            klass[op.target] = {op.target}
            fresh.add(op.target)
            continue
        # anything else may give a view of whatever it mentions
        joined = {t for t in op.targets}
        for m in mentioned:
            joined |= klass[m]
        for m in joined:
            klass[m] = joined
    escaping = set()
    for n in walk(ops[-1].value):
        if isinstance(n, gast.Name) and n.id in klass:
            escaping |= klass[n.id]
    for op in ops:
        op.buffered = op.fusion is not None and op.target not in escaping
        if op.fusion == "buffer" and not op.buffered:
            op.fusion = None        # its result is returned: a fresh array, as plainly
        if op.fusion is None:
            op.ufunc = None
    _share_buffers(ops, klass, last_use)
    return True


def _share_buffers(ops, klass, last_use):
    """Give each buffered op ``op.live``: ``(i, j)``, the indices of the op and of the last op
    that may read its buffer (the last read of anything in its storage class: the values
    written into it in place later, the views of it). Buffers whose spans do not overlap may
    share memory (backends/runtime/array_graph._share, which knows which ops got a buffer).
    Why: a buffer per op kept every temporary's memory at once (matrix_norms: three of
    1.3 MB, 0.75x plain NumPy), where NumPy's freed temporaries reuse one warm block."""
    for i, op in enumerate(ops):
        op.live = None
        if op.buffered:
            op.live = (i, max([last_use.get(n, i) for n in klass.get(op.target, {op.target})]
                              + [i]))


def _join(klass, names):
    """One storage class for ``names`` (each name's class merged)."""
    joined = set()
    for name in names:
        joined |= klass.get(name, {name})
    for name in joined:
        klass[name] = joined


def _fresh_result(value, modules):
    """Whether ``value`` always makes a new array or scalar (``**``, a comparison, a
    reduction, ``np.concatenate``...): never a view of an operand."""
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Pow):
        return True
    if isinstance(value, gast.Compare) and len(value.ops) == 1 and not isinstance(
            value.ops[0], (gast.Is, gast.IsNot, gast.In, gast.NotIn)):
        return True
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Attribute):
        attr = value.func.attr
        if attr == "astype":        # copy=False (by keyword or 4th) may give the array itself
            return len(value.args) == 1 and not value.keywords
        # a method's receiver is its first operand: one positional fewer (a.sum(axis))
        limit = _FRESH_POSITIONAL.get(attr, 2) - (0 if _module_call(value.func, modules) else 1)
        return attr in _FRESH_CALLS and len(value.args) <= limit and all(
            kw.arg in _FRESH_KEYWORDS for kw in value.keywords)
    return False


def _module_call(func, modules):
    """Whether the attribute ``func`` is looked up on a module (``np.sum``), not a value."""
    root = func.value
    while isinstance(root, gast.Attribute):
        root = root.value
    return isinstance(root, gast.Name) and root.id in modules


def _scalar_type(name):
    """Whether ``np.<name>`` is a NumPy scalar type (``np.float64``): called on a value it
    converts it, keeping its shape (a 0-d or scalar value gives a scalar, an array an array of
    that shape), so the result's shape is its argument's."""
    found = getattr(np, name, None)
    return isinstance(found, type) and issubclass(found, np.generic)


def last_uses(ops):
    """Name -> the index of the last op of ``ops`` that reads it."""
    last = {}
    for i, op in enumerate(ops):
        for n in walk(op.value):
            if isinstance(n, gast.Name):
                last[n.id] = i
    return last


def _shapes_from_arguments(ops, arrays, modules):
    """Whether every shape in the flat function follows from the arguments' shapes and the
    non-array arguments' values (the key the buffers are chosen by): no name computed from
    array values (``int(x[0])``, ``x.max()``, a mask) reaches an index, a shape or axis
    argument, or a call that makes a shape from values (``np.nonzero``, ``np.unique``)."""
    tainted = set(arrays)        # names whose value the key does not hold (array elements,
    shape_of = set()             # floats); names that are only shapes or sizes

    def bad(node):
        if isinstance(node, gast.Attribute) and node.attr in ("shape", "ndim", "size",
                                                              "dtype", "itemsize"):
            return False
        if isinstance(node, gast.Name):
            return node.id in tainted and node.id not in shape_of
        return any(bad(child) for child in child_nodes(node))

    for op in ops:
        value = op.value
        for node in walk(value):
            if isinstance(node, (gast.IfExp, gast.BoolOp)):
                return False        # chooses between values: their shapes may differ
            if isinstance(node, gast.Subscript) and bad(node.slice):
                return False
            if not isinstance(node, gast.Call):
                continue
            func = node.func
            callee = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
            if callee in _VALUE_SHAPED or (callee == "where" and len(node.args) == 1) or (
                    isinstance(func, gast.Name) and callee in ("min", "max")):
                return False        # ... or chooses one of its arguments by value
            if any(bad(kw.value) for kw in node.keywords):
                return False
            numpy_fn = isinstance(func, gast.Attribute) and _module_call(func, modules)
            if numpy_fn and (isinstance(getattr(np, callee, None), np.ufunc) or
                             callee in _DATA_ALL or _scalar_type(callee)):
                continue                      # every argument is data: shapes broadcast
            data = 1 if numpy_fn and callee in _DATA_FIRST else 0
            if any(bad(a) for a in node.args[data:]):
                return False                  # x.reshape(k), np.ones(k), x.sum(k) ...
        names = {n.id for n in walk(value) if isinstance(n, gast.Name)}
        if (isinstance(value, gast.Attribute) and value.attr in ("shape", "ndim", "size")) or (
                isinstance(value, gast.Call) and getattr(value.func, "id", None) == "len"):
            shape_of.update(op.targets)
        elif names & shape_of and not names & (tainted - shape_of) and not isinstance(
                value, gast.Call):
            shape_of.update(op.targets)
        elif names & tainted or isinstance(value, gast.Call):
            tainted.update(op.targets)
    return True
