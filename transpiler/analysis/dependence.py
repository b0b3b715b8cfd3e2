"""Dependence analysis of counted loops: may the iterations run at once, in any order?

A loop ``for v in range(...)`` (no ``else``) is *independent* -- a parallel loop, one GPU thread
per iteration -- when no iteration reads or writes what another one writes:

- every array element it stores is indexed by the loop variable itself in the first position
  (``a[v] = ...``, ``a[v, j] += ...``), so two iterations never store to the same element;
- an array it stores to is used only at such elements (``a[v]``, ``a[v, k]``) or for its
  ``shape``: not read elsewhere, aliased (``b = a``, ``a.T``) or handed whole to a call;
- every variable it assigns is assigned before it is read in each iteration (private to the
  iteration) and is not read after the loop;
- it has no ``break``, ``continue``, ``return``, ``yield``, ``try``, ``with``, nested definition
  or slice, and calls only functions without effects (``math``, a few builtins, NumPy scalar
  casts and element-wise functions, and the program's own functions that store to no array).

A variable updated only as ``s += e`` (or ``-=``, ``*=``, ...) and read nowhere else is a
*reduction*: recognised, and refused with that name (its result would depend on the order of the
floating-point additions, which Python fixes and a GPU does not).

This is the classic test for a DOALL loop (Allen & Kennedy, "Optimizing Compilers for Modern
Architectures", ch. 2), restricted to the subscript forms above: the distance of every
dependence carried by the loop must be zero.
"""
import gast

from .activity import reads, writes
from . import liveness
from ..nodes import child_nodes, walk

# Calls a kernel may make: effect-free functions with a CUDA implementation (numba-cuda,
# "Supported Python features in CUDA Python": math, builtins, NumPy scalar types).
MATH_FUNCTIONS = frozenset({
    "sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs",
    "floor", "ceil", "trunc", "pow", "hypot", "copysign", "isnan", "isinf", "isfinite", "erf",
    "erfc", "gamma", "lgamma", "fmod", "degrees", "radians"})
BUILTINS = frozenset({"abs", "min", "max", "int", "float", "bool", "range", "len"})
NUMPY_SCALAR_TYPES = frozenset({
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
    "uint32", "uint64", "bool_", "complex64", "complex128"})
# NumPy element-wise functions of scalars that have a math equivalent of the same result
# dtype on CUDA (numba-cuda has no scalar NumPy ufuncs): np.exp(x) -> math.exp(x).
NUMPY_TO_MATH = {"exp": "exp", "log": "log", "sqrt": "sqrt", "sin": "sin", "cos": "cos",
                 "tan": "tan", "tanh": "tanh", "sinh": "sinh", "cosh": "cosh",
                 "arcsin": "asin", "arccos": "acos", "arctan": "atan", "expm1": "expm1",
                 "log1p": "log1p", "log2": "log2", "log10": "log10", "abs": None,
                 "absolute": None}

_FORBIDDEN = {
    gast.Break: "a break", gast.Continue: "a continue", gast.Return: "a return",
    gast.Yield: "a yield", gast.YieldFrom: "a yield", gast.Await: "an await",
    gast.Try: "a try statement", gast.With: "a with statement", gast.FunctionDef:
    "a nested def", gast.Lambda: "a lambda", gast.Global: "a global statement",
    gast.Nonlocal: "a nonlocal statement", gast.Delete: "a del statement",
    gast.ListComp: "a comprehension", gast.SetComp: "a comprehension",
    gast.DictComp: "a comprehension", gast.GeneratorExp: "a generator", gast.List: "a list",
    gast.Dict: "a dict", gast.Set: "a set", gast.Slice: "a slice", gast.JoinedStr:
    "an f-string", gast.Starred: "a starred expression", gast.NamedExpr: "an := expression",
}


class LoopVerdict:
    """The result of :func:`classify_loop`.

    Attributes:
        independent (bool): the iterations may run in parallel.
        reason (str): why not (empty when independent).
        variable (str): the loop variable.
        stored (list[str]): arrays the loop stores elements of.
        inputs (list[str]): names the body reads that are defined before the loop.
        reductions (dict[str, str]): reduction variable -> its operator (``reduction_ok``).
        constants (dict[str, object]): variables the loop only sets to this constant
            (:func:`constant_stores`), which hold it after the loop if an iteration did.
    """

    def __init__(self, independent, reason="", variable=None, stored=(), inputs=()):
        self.independent = independent
        self.reason = reason
        self.variable = variable
        self.stored = list(stored)
        self.inputs = list(inputs)
        self.reductions, self.constants = {}, {}


def range_loop(node):
    """True for ``for <name> in range(...)`` without ``else`` (the loops a kernel can run)."""
    return (isinstance(node, gast.For) and isinstance(node.target, gast.Name)
            and not node.orelse and isinstance(node.iter, gast.Call)
            and isinstance(node.iter.func, gast.Name) and node.iter.func.id == "range"
            and 1 <= len(node.iter.args) <= 3 and not node.iter.keywords)


def classify_loop(loop, live_after, call_ok, module_aliases, reduction_ok=None,
                  call_problem=None):
    """Decide whether ``loop`` (a gast.For) is independent.

    Args:
        loop: the loop, in structured form (``backends.restructure``).
        live_after (set[str]): variables read after the loop (liveness).
        call_ok (callable[str] -> str | None): for a call of the program's own function
            ``name``, None when a kernel may call it, else why not.
        module_aliases (dict[str, str]): local alias -> module (``np`` -> ``numpy``).
        reduction_ok (callable[(str, str)] -> str | None): None (the GPU): every reduction is
            refused. Else, for a variable only updated as ``name = name op e`` (``op`` one of
            ``"+"``, ``"*"``, ``"max"``, ``"min"``: :func:`update_op`), None to accept it as a
            reduction (``LoopVerdict.reductions``), or why not.
        call_problem (callable[gast.Call] -> str | None): replaces the GPU's call rules.

    Returns:
        LoopVerdict.
    """
    if not range_loop(loop):
        return LoopVerdict(False, "it is not a loop over range() without else")
    var = loop.target.id
    raised = _raised(loop.body)
    for node in walk(gast.Module(body=loop.body, type_ignores=[])):
        for kind, what in _FORBIDDEN.items():
            if isinstance(node, kind):
                return LoopVerdict(False, f"its body has {what} (line {_line(node, loop)})")
        if isinstance(node, gast.Attribute) and isinstance(node.ctx, gast.Store):
            return LoopVerdict(False, f"it assigns an attribute (line {_line(node, loop)})")
        if isinstance(node, gast.Call):
            why = call_problem(node) if call_problem is not None else _call_problem(
                node, call_ok, module_aliases, raised)
            if why:
                return LoopVerdict(False, f"{why} (line {_line(node, loop)})")

    stored, problem = _stored_arrays(loop.body, var)
    if problem:
        return LoopVerdict(False, problem)
    # An array the loop stores to may be used only as name[var, ...] or name.shape: any other
    # use (name[i - 1], an alias b = name, name.T, passing it whole) could reach an element
    # that another iteration stores.
    for parent in walk(gast.Module(body=loop.body, type_ignores=[])):
        for child in child_nodes(parent):
            if not (isinstance(child, gast.Name) and child.id in stored):
                continue
            if isinstance(parent, gast.Subscript) and parent.value is child:
                if _indexed_by(parent.slice, var):
                    continue
                return LoopVerdict(False, f"it reads {gast.unparse(parent).strip()} (line "
                                          f"{_line(parent, loop)}), which another iteration "
                                          f"may write (it stores {child.id}[{var}])")
            if isinstance(parent, gast.Attribute) and parent.value is child and \
                    parent.attr in ("shape", "ndim", "size", "dtype"):
                continue
            return LoopVerdict(False, f"it uses {child.id}, which it stores to, other than as "
                                      f"{child.id}[{var}, ...] (line {_line(parent, loop)}: "
                                      f"{gast.unparse(parent).strip()[:60]})")
    for name in stored:
        if name == var or name in writes(gast.Module(body=loop.body, type_ignores=[])):
            return LoopVerdict(False, f"it rebinds {name}, which it also indexes to store")

    assigned = writes(gast.Module(body=loop.body, type_ignores=[])) - {var}
    carried = assigned & liveness.live_in(loop.body, set())
    reductions = {}
    for name in sorted(carried):
        op = update_op(loop.body, name) if reduction_ok is not None else None
        if op is not None:
            why = reduction_ok(name, op)
            if why is not None:
                return LoopVerdict(False, why)
            reductions[name] = op
            continue
        if _only_updated(loop.body, name):
            return LoopVerdict(False, f"it accumulates {name} across iterations (a reduction: "
                                      f"{name} op= ...); on the GPU the order of the updates "
                                      "would differ from Python's")
        return LoopVerdict(False, f"iteration i reads {name} as iteration i - 1 left it (a "
                                  "loop-carried dependence)")
    if var in assigned:
        return LoopVerdict(False, f"it assigns its loop variable {var}")
    constants = constant_stores(loop.body, assigned - carried) if reduction_ok else {}
    after = sorted((assigned | {var}) & set(live_after) - set(reductions) - set(constants))
    if after:
        return LoopVerdict(False, f"{', '.join(after)} is read after the loop (the last "
                                  "iteration's value)")
    inputs = sorted(reads(gast.Module(body=loop.body, type_ignores=[])) - assigned - {var})
    verdict = LoopVerdict(True, variable=var, stored=sorted(stored), inputs=inputs)
    verdict.reductions, verdict.constants = reductions, constants
    return verdict


def _line(node, loop):
    return getattr(node, "lineno", None) or loop.lineno


def _indexed_by(index, var):
    """``index`` is ``var`` or a tuple whose first element is ``var``."""
    if isinstance(index, gast.Tuple) and index.elts:
        index = index.elts[0]
    return isinstance(index, gast.Name) and index.id == var


def _stored_arrays(body, var):
    """Names of arrays whose elements ``body`` stores, or why a store is not allowed."""
    stored = set()
    for node in walk(gast.Module(body=body, type_ignores=[])):
        targets = []
        if isinstance(node, gast.Assign):
            targets = node.targets
        elif isinstance(node, (gast.AugAssign, gast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, gast.For):
            targets = [node.target]
        for target in targets:
            for sub in walk(target):
                if isinstance(sub, gast.Subscript) and isinstance(sub.ctx, gast.Store):
                    text = gast.unparse(sub).strip()
                    if not isinstance(sub.value, gast.Name):
                        return None, f"it stores to {text}, not to an element of a named array"
                    if not _indexed_by(sub.slice, var):
                        return None, (f"it stores to {text} (line {sub.lineno}): the first index "
                                      f"is not the loop variable {var}, so two iterations "
                                      "may store to the same element")
                    stored.add(sub.value.id)
    return stored, None


def _only_updated(body, name):
    """``name`` is used only in updates ``name op= e`` or ``name = name op e`` (the form the
    converter gives ``op=`` on numbers), ``e`` not reading ``name``."""
    allowed = set()
    for node in walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) \
                and node.target.id == name:
            if name in reads(node.value):
                return False
            allowed.add(id(node.target))
        elif isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], gast.Name) and node.targets[0].id == name and isinstance(
                node.value, gast.BinOp) and isinstance(node.value.left, gast.Name) and \
                node.value.left.id == name and name not in reads(node.value.right):
            allowed |= {id(node.targets[0]), id(node.value.left)}
    return all(id(node) in allowed for node in walk(gast.Module(body=body, type_ignores=[]))
               if isinstance(node, gast.Name) and node.id == name)


_UPDATE_OPS = {gast.Add: "+", gast.Mult: "*"}


def update_op(body, name):
    """The one operator ``op`` of a reduction variable that ``body`` only updates as ``name =
    name op e``, ``name op= e`` or ``name = max(name, e)`` / ``min`` (``e`` not reading
    ``name``; conditional updates allowed): ``"+"``, ``"*"``, ``"max"``, ``"min"``, else None;
    ``"+@int32"`` where each update is cast to a NumPy integer (:func:`_update_value`).
    These are the forms Numba's parfors recognise as reductions (numba/parfors/parfor.py,
    ``supported_reduction``), restricted to the associative and commutative ones."""
    ops, allowed = set(), set()
    for node in walk(gast.Module(body=body, type_ignores=[])):
        target, value = None, None
        if isinstance(node, gast.AugAssign):
            target, op, operand = node.target, _UPDATE_OPS.get(type(node.op)), node.value
        elif isinstance(node, gast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        if not (isinstance(target, gast.Name) and target.id == name):
            continue
        if value is not None:
            op, operand, left = _update_value(value, name)
            if op is None:
                return None
            allowed.add(id(left))
        if op is None or name in reads(operand):
            return None
        ops.add(op)
        allowed.add(id(target))
    uses = [n for n in walk(gast.Module(body=body, type_ignores=[]))
            if isinstance(n, gast.Name) and n.id == name]
    if len(ops) != 1 or any(id(n) not in allowed for n in uses):
        return None
    return ops.pop()


_INT_CASTS = frozenset({"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                        "uint64"})


def reduction_cast(value):
    """``(alias, dtype, inner)`` of ``alias.<dtype>(inner)``, a NumPy integer cast around an
    update (graphjit keeps NumPy's fixed-width integers so: ``s = np.int32(s + x[i])``), or
    None."""
    if isinstance(value, gast.Call) and len(value.args) == 1 and not value.keywords and \
            isinstance(value.func, gast.Attribute) and isinstance(value.func.value, gast.Name) \
            and value.func.attr in _INT_CASTS:
        return value.func.value.id, value.func.attr, value.args[0]
    return None


_WIDE_CASTS = frozenset({"int64", "uint64"})


def _peel_wide(node):
    """``node`` without its 64-bit integer casts (``np.uint64(np.int64(s))`` is ``s``
    modulo 2**64)."""
    cast = reduction_cast(node)
    while cast is not None and cast[1] in _WIDE_CASTS:
        node = cast[2]
        cast = reduction_cast(node)
    return node


def _update_value(value, name):
    """``(op, e, the read of name)`` of ``name op e`` / ``max(name, e)`` (``op`` then
    ``"+@int32"`` for ``name = np.int32(name + e)``: + and * modulo 2**w, see
    :func:`reduction_cast`), else Nones."""
    cast = reduction_cast(value)
    if cast is not None and isinstance(cast[2], gast.BinOp):
        inner = cast[2]
        if cast[1] in _WIDE_CASTS:
            # NumPy's int64 arithmetic spelled in uint64 (analysis.numpy_scalars: Numba's
            # signed add is `nsw`): np.int64(np.uint64(np.int64(s)) + np.uint64(e)) is s + e
            # modulo 2**64, a reduction as the narrower casts are
            inner = gast.BinOp(left=_peel_wide(inner.left), op=inner.op, right=inner.right)
        op, operand, left = _update_value(inner, name)
        if op in ("+", "*"):
            return f"{op}@{cast[1]}", operand, left
        return None, None, None
    if isinstance(value, gast.BinOp) and type(value.op) in _UPDATE_OPS and isinstance(
            value.left, gast.Name) and value.left.id == name:
        return _UPDATE_OPS[type(value.op)], value.right, value.left
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Name) and \
            value.func.id in ("max", "min") and len(value.args) == 2 and not value.keywords:
        first, second = value.args
        if isinstance(first, gast.Name) and first.id == name:
            return value.func.id, second, first
    return None, None, None


def constant_stores(body, names):
    """The names among ``names`` that ``body`` assigns only a constant, the same one (in any
    branch), and never reads: after the loop they hold that constant if some iteration
    assigned it, else their value before the loop (graphjit's ``s_is_python = False`` result
    flags). Constants ``(type, value)``-equal count as the same."""
    found = {}
    for node in walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.Name) and node.id in names and not isinstance(
                node.ctx, gast.Store):
            found[node.id] = None
    for node in walk(gast.Module(body=body, type_ignores=[])):
        stores = [n.id for n in walk(node) if isinstance(n, gast.Name) and n.id in names
                  and isinstance(n.ctx, gast.Store)] if isinstance(
            node, (gast.Assign, gast.AugAssign, gast.For, gast.AnnAssign)) else []
        for name in stores:
            ok = isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], gast.Name) and isinstance(node.value, gast.Constant)
            value = (type(node.value.value), node.value.value) if ok else None
            if not ok or (name in found and found[name] != value):
                found[name] = None
            else:
                found[name] = value
    return {name: kv[1] for name, kv in found.items() if kv is not None}


def _raised(body):
    """ids of the exception expressions of ``raise`` statements (device code replaces the
    raise with an error flag: the exception is never built)."""
    found = set()
    for node in walk(gast.Module(body=body, type_ignores=[])):
        if isinstance(node, gast.Raise):
            found.update(id(n) for n in walk(node))
        if isinstance(node, gast.Assert) and node.msg is not None:
            found.update(id(n) for n in walk(node.msg))
    return found


def _call_problem(call, call_ok, module_aliases, raised=frozenset()):
    """Why a kernel may not make this call, or None."""
    if id(call) in raised:
        return None
    func = call.func
    if call.keywords:
        return f"it calls {gast.unparse(func).strip()} with keyword arguments"
    if isinstance(func, gast.Name):
        if func.id in BUILTINS or func.id == "weak":
            return None
        return call_ok(func.id)
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
        module = module_aliases.get(func.value.id)
        if module == "math" and func.attr in MATH_FUNCTIONS:
            return None
        if module == "numpy" and (func.attr in NUMPY_SCALAR_TYPES
                                  or func.attr in NUMPY_TO_MATH):
            return None
    return (f"it calls {gast.unparse(func).strip()}, which has no effect-free GPU "
            "implementation here")


def function_problem(fdef, call_ok, module_aliases):
    """Why a kernel may not call the program's function ``fdef`` as a device function, or
    None: the rules of a loop body (``return`` allowed), and no store to any array element."""
    raised = _raised(fdef.body)
    for node in walk(gast.Module(body=fdef.body, type_ignores=[])):
        for kind, what in _FORBIDDEN.items():
            if isinstance(node, kind) and kind is not gast.Return:
                return f"{fdef.name} has {what} (line {_line(node, fdef)})"
        if isinstance(node, (gast.Subscript, gast.Attribute)) and isinstance(node.ctx,
                                                                           gast.Store):
            return f"{fdef.name} stores to {gast.unparse(node).strip()}"
        if isinstance(node, gast.Call):
            why = _call_problem(node, call_ok, module_aliases, raised)
            if why:
                return f"{fdef.name}: {why}"
    return None
