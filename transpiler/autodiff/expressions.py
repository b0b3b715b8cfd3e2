"""Expressions of the differentiated function: static values folded, calls of Cells and user
functions inlined, every runtime operation one :class:`~.normalize.Op` (see normalize.py)."""
import builtins
import types

import gast
import numpy as np

from ..errors import UnsupportedConstruct
from ..registry import is_bound_jit_function, is_cell, is_jit_function
from . import rules
from .values import (Dyn, Lazy, LocalFunction, Method, Op, Static, Tup, is_active, is_user_function, render,
                        render_index)

# Builtins and math functions evaluated at transpile time when their operands are static.
_NOT_PURE = {"print", "input", "open", "next", "iter", "exec", "eval", "compile", "id",
             "hash", "setattr", "delattr", "vars", "globals", "locals", "breakpoint"}
_ARRAY_ATTRS = {"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "strides", "flags"}
_COMPARE = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=",
            "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in"}


def expression(nz, node, env):
    """The value of ``node``: Static, Dyn (operations emitted), Tup or Method."""
    origin = env.origin(node)
    if isinstance(node, gast.Constant):
        return Static(node.value)
    if isinstance(node, gast.Name):
        return env.lookup(node.id, origin)
    if isinstance(node, gast.Attribute):
        return attribute(nz, expression(nz, node.value, env), node.attr, origin)
    if isinstance(node, gast.Call):
        return call(nz, node, env, origin)
    if isinstance(node, gast.BinOp):
        return nz.binop(type(node.op).__name__, expression(nz, node.left, env),
                        expression(nz, node.right, env), origin)
    if isinstance(node, gast.UnaryOp):
        operand = expression(nz, node.operand, env)
        kind = type(node.op).__name__
        if isinstance(operand, Static):
            value = operand.value
            return Static({"USub": lambda: -value, "UAdd": lambda: +value,
                           "Not": lambda: not value, "Invert": lambda: ~value}[kind]())
        if kind == "UAdd":
            return operand
        if kind == "USub":
            return nz.op(f"-{render(operand, nz.program)}", "neg", [operand], {}, origin)
        symbol = "not " if kind == "Not" else "~"
        if is_active(operand) and kind == "Invert":
            raise UnsupportedConstruct("'~' of a differentiated value", origin)
        return nz.op(f"{symbol}{render(operand, nz.program)}", None, [operand], {}, origin,
                     kind="cmp")
    if isinstance(node, (gast.Compare, gast.BoolOp)):
        return predicate(nz, node, env, origin)
    if isinstance(node, gast.Subscript):
        return subscript(nz, expression(nz, node.value, env), expression(nz, node.slice, env),
                         origin)
    if isinstance(node, gast.Slice):
        parts = [Static(None) if p is None else expression(nz, p, env)
                 for p in (node.lower, node.upper, node.step)]
        if all(isinstance(p, Static) for p in parts):
            return Static(slice(*(p.value for p in parts)))
        if any(is_active(p) for p in parts):
            raise UnsupportedConstruct("a slice bound computed from a differentiated value",
                                       origin)
        return nz.op("slice({}, {}, {})".format(*(render(p, nz.program) for p in parts)),
                     None, parts, {}, origin)
    if isinstance(node, (gast.Tuple, gast.List)):
        items = [expression(nz, e, env) for e in node.elts]
        kind = "list" if isinstance(node, gast.List) else "tuple"
        if all(isinstance(i, Static) for i in items) and kind == "tuple":
            return Static(tuple(i.value for i in items))
        return Tup(items, kind)
    if isinstance(node, gast.Lambda):
        return Static(nz.local_function(node, env, "<lambda>"))
    if isinstance(node, gast.IfExp):
        test = expression(nz, node.test, env)
        if isinstance(test, Static):
            return expression(nz, node.body if test.value else node.orelse, env)
        return conditional(nz, node, test, env, origin)
    raise UnsupportedConstruct(f"a {type(node).__name__} expression is not differentiated",
                               origin)


def conditional(nz, node, test, env, origin):
    """``a if test else b`` on a runtime test: a branch (only the branch taken is computed,
    as in Python), its value merged into one new name."""
    from .control import IfStmt
    if is_active(test):
        raise UnsupportedConstruct("a branch on a differentiated value's truth", origin)
    blocks, values = [], []
    for branch in (node.body, node.orelse):
        saved, nz.statements = nz.statements, []
        nz.control += 1
        try:
            values.append(expression(nz, branch, env))
            blocks.append(nz.statements)
        finally:
            nz.statements = saved
            nz.control -= 1
    merged = Dyn(nz.program.new_name("t"), any(is_active(v) for v in values))
    for block, value in zip(blocks, values):
        block.append(Op(merged.name, render(value, nz.program),
                        "copy" if is_active(value) else None, [value], {}, origin))
    statement = IfStmt(test, blocks[0], blocks[1], origin)
    statement.merged.append(merged.name)
    nz.statements.append(statement)
    return merged


def attribute(nz, base, attr, origin):
    if isinstance(base, Static):
        owner = base.value
        try:
            value = getattr(owner, attr)
        except AttributeError as exc:
            raise AttributeError(f"{origin}: {exc}") from None
        if isinstance(value, np.ndarray):
            return nz_input(nz, owner, attr, value)
        if not isinstance(owner, types.ModuleType) and not isinstance(owner, type):
            nz.program.guards.append((owner, attr, value))
        return Static(value)
    if isinstance(base, Dyn):
        if attr == "T":
            return nz.op(f"{base.name}.T", "T", [base], {}, origin, view_of=base)
        if attr in _ARRAY_ATTRS:
            return Lazy(f"{base.name}.{attr}", [base])
        if attr in ("real",) and not base.active:
            return nz.op(f"{base.name}.{attr}", None, [base], {}, origin)
        return Method(base, attr)
    if isinstance(base, Lazy):
        return Lazy(f"{base.text}.{attr}", [base])
    raise UnsupportedConstruct(f"the attribute .{attr} of a tuple", origin)


def nz_input(nz, owner, attr, value):
    """An array held by an object (a Cell's weight): a runtime input of the gradient."""
    key = (id(owner), attr)
    known = nz.input_names.get(key)
    if known is None:
        # one array held by two attributes (tied weights): one input, its gradient summed;
        # the second attribute guarded to hold it still
        same = nz.input_names.get(("array", id(value)))
        if same is not None:
            nz.program.guards.append((owner, attr, value))
            nz.input_names[key] = same
            return same
        weight = nz.weights.get(id(value))
        name = nz.program.new_name(attr)
        known = nz.input_names[key] = Dyn(name, weight is not None, borrowed=True)
        nz.input_names[("array", id(value))] = known
        nz.program.inputs.append((owner, attr, name, weight))
    return known


def subscript(nz, base, index, origin):
    if isinstance(base, Static) and isinstance(index, Static):
        return Static(base.value[index.value])
    if isinstance(base, Tup) and isinstance(index, Static) and isinstance(index.value, int):
        return base.items[index.value]
    if is_active(index):
        raise UnsupportedConstruct("an index computed from a differentiated value", origin)
    if isinstance(base, Lazy) and isinstance(index, (Static, Lazy)):
        return Lazy(f"{base.text}[{render_index(index, nz.program)}]", [base, index])
    if isinstance(base, Dyn):
        text = render_index(index, nz.program)
        basic = isinstance(index, Static) and all(
            isinstance(p, (int, slice, type(None), type(Ellipsis)))
            for p in (index.value if isinstance(index.value, tuple) else (index.value,)))
        return nz.op(f"{base.name}[{text}]", "index", [base, index], {}, origin,
                     view_of=base if basic else None)
    if isinstance(base, Static) and not is_active(index):
        return nz.op(f"{render(base, nz.program)}[{render(index, nz.program)}]", None,
                     [index], {}, origin, kind="static-index")
    raise UnsupportedConstruct("indexing this value is not differentiated", origin)


def predicate(nz, node, env, origin):
    """Comparisons and and/or: bools, never differentiated (static when their operands are)."""
    if isinstance(node, gast.BoolOp):
        values = []
        for item in node.values:
            value = expression(nz, item, env)
            if isinstance(value, Static) and not values:
                truth = bool(value.value)
                if isinstance(node.op, gast.And) and not truth or \
                        isinstance(node.op, gast.Or) and truth:
                    return value
                continue
            values.append(value)
        if not values:
            return value
        if len(values) == 1:
            return values[0]
        joiner = " and " if isinstance(node.op, gast.And) else " or "
        text = joiner.join(f"({render(v, nz.program)})" for v in values)
        return nz.op(text, None, values, {}, origin, kind="boolop")
    left = expression(nz, node.left, env)
    comparators = [expression(nz, c, env) for c in node.comparators]
    values = [left] + comparators
    if all(isinstance(v, Static) for v in values):
        result = True
        for (a, b), op in zip(zip(values, values[1:]), node.ops):
            result = result and eval(f"_a {_COMPARE[type(op).__name__]} _b",  # noqa: S307
                                     {}, {"_a": a.value, "_b": b.value})
        return Static(bool(result) if not isinstance(result, np.ndarray) else result)
    parts = [render(left, nz.program)]
    for op, value in zip(node.ops, comparators):
        parts.append(f"{_COMPARE[type(op).__name__]} {render(value, nz.program)}")
    return nz.op(" ".join(parts), None, values, {}, origin, kind="cmp")


def call(nz, node, env, origin):
    func = expression(nz, node.func, env)
    if any(isinstance(a, gast.Starred) for a in node.args) or \
            any(k.arg is None for k in node.keywords):
        raise UnsupportedConstruct("*args or **kwargs in a call are not differentiated yet",
                                   origin)
    args = [expression(nz, a, env) for a in node.args]
    kwargs = {k.arg: expression(nz, k.value, env) for k in node.keywords}
    if isinstance(func, Method):
        return method_call(nz, func, args, kwargs, origin)
    if isinstance(func, Lazy) and all(isinstance(a, (Static, Lazy)) for a in args) \
            and not kwargs and func.text.endswith(".type"):
        # x.dtype.type(0): a number of x's dtype
        return Lazy(_call_text(nz, func.text, args, {}), [func] + args)
    if not isinstance(func, Static):
        raise UnsupportedConstruct("calling a runtime value", origin)
    f = func.value
    if isinstance(f, LocalFunction):
        return nz.function(f, None, args, dict(kwargs), origin)[0]
    if is_cell(f):
        return nz.cell_call(f, args, kwargs, origin)
    if is_jit_function(f):
        bound = getattr(f, "_bound_self", None)
        f = f.python_function if bound is None else types.MethodType(f.python_function, bound)
    if is_bound_jit_function(f):
        f = types.MethodType(f.__func__, f.__self__)
    if isinstance(f, types.MethodType) and is_user_function(f.__func__):
        return nz.function(f.__func__, f.__self__, args, kwargs, origin)[0]
    if is_user_function(f):
        return nz.function(f, None, args, dict(kwargs), origin)[0]
    statics = all(isinstance(a, Static) for a in args) and \
        all(isinstance(v, Static) for v in kwargs.values())
    if statics and _pure(f):
        value = f(*(a.value for a in args), **{k: v.value for k, v in kwargs.items()})
        if not isinstance(value, np.ndarray):
            return Static(value)
    if isinstance(f, type) and issubclass(f, np.floating) and len(args) == 1:
        return nz.op(f"{render(func, nz.program)}({render(args[0], nz.program)})", "astype",
                     args, {}, origin)
    name = getattr(f, "__name__", None)
    if name is not None and getattr(np, name, None) is f:
        return numpy_call(nz, name, f"np.{name}", args, kwargs, origin)
    if f is float and len(args) == 1 and not kwargs:
        return nz.op(f"float({render(args[0], nz.program)})", "float", args, {}, origin)
    if f is abs and len(args) == 1:
        return nz.op(f"abs({render(args[0], nz.program)})", "abs", args, {}, origin)
    text = _call_text(nz, render(func, nz.program), args, kwargs)
    values = args + list(kwargs.values())
    if any(is_active(v) for v in values):
        raise UnsupportedConstruct(
            f"{getattr(f, '__qualname__', f)!r} is called on a differentiated value and has no "
            "gradient rule (graphjit differentiates NumPy's arithmetic, ufuncs, reductions, "
            "dot/matmul, shapes, indexing, Cells and user functions with source)", origin)
    return nz.op(text, None, values, {}, origin)


def _pure(f):
    module = getattr(f, "__module__", None) or ""
    name = getattr(f, "__name__", "")
    if f in (builtins.print,) or name in _NOT_PURE:
        return False
    if isinstance(f, type):
        return True
    return module in ("builtins", "math") or (module.startswith("numpy") and
                                              "random" not in module)


def _call_text(nz, callee, args, kwargs):
    parts = [render(a, nz.program) for a in args]
    parts += [f"{k}={render(v, nz.program)}" for k, v in kwargs.items()]
    return f"{callee}({', '.join(parts)})"


def _static_kw(kwargs, origin, allowed):
    out = {}
    for key, value in kwargs.items():
        if key not in allowed:
            raise UnsupportedConstruct(f"the keyword {key}= is not differentiated here", origin)
        if not isinstance(value, Static):
            raise UnsupportedConstruct(f"{key}= must be known at transpile time to "
                                       "differentiate", origin)
        out[key] = value.value
    return out


_REDUCE_KW = ("axis", "keepdims", "ddof", "dtype")
_REDUCTIONS = ("sum", "mean", "max", "min", "var", "std")
# NumPy's array makers: their result's shape is their arguments' values (known when those
# are constants or shapes), or the shape of an array argument (the *_like ones)
_CREATE = {"zeros", "ones", "empty", "full", "arange", "eye", "identity", "linspace"}
_CREATE_LIKE = {"zeros_like", "ones_like", "empty_like", "full_like"}


_IN_PLACE_FUNCTIONS = {"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"}
_IN_PLACE_METHODS = {"fill", "sort", "resize", "put", "partition", "itemset", "byteswap"}


def _refuse_in_place(what, origin):
    raise UnsupportedConstruct(
        f"{what} updates an array in place: the gradient follows stores (a[i] = v) and "
        "assignments, not in-place calls (write it as an assignment: a = ..., a[...] = ...)",
        origin)


def numpy_call(nz, name, callee, args, kwargs, origin):
    """``np.<name>(...)``: its rule, or an inactive operation."""
    if name in _IN_PLACE_FUNCTIONS or "out" in kwargs:
        _refuse_in_place(f"np.{name}(..., out=...)" if "out" in kwargs else f"np.{name}()",
                         origin)
    values = args + list(kwargs.values())
    rule = rules.FUNCTIONS.get(name)
    text = _call_text(nz, callee, args, kwargs)
    if name in rules.CONSTANT or not any(is_active(v) for v in values):
        f = getattr(np, name)
        kind = "ufunc" if isinstance(f, np.ufunc) else (
            "create" if name in _CREATE else "create-like" if name in _CREATE_LIKE else
            None if name in rules.CONSTANT or kwargs and rule not in _REDUCTIONS else rule)
        return nz.op(text, None, values, {}, origin, active=False, kind=kind)
    if rule is None:
        raise UnsupportedConstruct(f"np.{name} of a differentiated value has no gradient rule",
                                   origin)
    if rule in ("sum", "mean", "max", "min", "var", "std"):
        kw = _static_kw(kwargs, origin, _REDUCE_KW)
        if len(args) > 1:
            kw["axis"] = args[1].value if isinstance(args[1], Static) else None
        return nz.op(text, rule, [args[0]], kw, origin)
    if rule in ("concatenate", "stack"):
        kw = _static_kw(kwargs, origin, ("axis",))
        if len(args) > 1:
            kw["axis"] = args[1].value
        parts = args[0]
        if not isinstance(parts, Tup):
            raise UnsupportedConstruct(f"np.{name} of a sequence not written out", origin)
        return nz.op(text, rule, list(parts.items), kw, origin)
    if rule == "transpose":
        kw = _static_kw(kwargs, origin, ("axes",))
        if len(args) > 1:
            kw["axes"] = args[1].value
        return nz.op(text, rule, [args[0]], kw, origin, view_of=args[0])
    if rule == "reshape":       # the shape arguments kept (the shape analysis reads them)
        return nz.op(text, rule, list(args), {}, origin,
                     view_of=args[0] if name in ("ravel", "reshape", "squeeze",
                                                 "expand_dims") else None)
    if rule == "clip":
        lo = args[1] if len(args) > 1 else kwargs.get("a_min", Static(None))
        hi = args[2] if len(args) > 2 else kwargs.get("a_max", Static(None))
        if is_active(lo) or is_active(hi):
            raise UnsupportedConstruct("np.clip with differentiated bounds", origin)
        return nz.op(text, rule, [args[0], lo, hi], {}, origin)
    if kwargs:
        raise UnsupportedConstruct(f"np.{name} with keyword arguments is not differentiated",
                                   origin)
    return nz.op(text, rule, list(args), {}, origin,
                 view_of=args[0] if name in ("asarray", "ascontiguousarray") and
                 isinstance(args[0], Dyn) else None)


def method_call(nz, method, args, kwargs, origin):
    """``x.name(...)`` of a runtime array ``x``."""
    base, name = method.owner, method.attr
    if name in _IN_PLACE_METHODS or "out" in kwargs:
        _refuse_in_place(f".{name}()", origin)
    text = _call_text(nz, f"{base.name}.{name}", args, kwargs)
    values = [base] + args + list(kwargs.values())
    if name in rules.CONSTANT or not base.active:
        if any(is_active(v) for v in args + list(kwargs.values())) and name not in ("dot",):
            raise UnsupportedConstruct(f".{name}() with a differentiated argument", origin)
        if name != "dot" or not any(is_active(v) for v in values):
            kind = None if name in rules.CONSTANT or (
                kwargs and rules.METHODS.get(name) not in _REDUCTIONS) else rules.METHODS.get(name)
            return nz.op(text, None, values, {}, origin, active=False, kind=kind,
                         view_of=base if kind in ("reshape", "transpose") and
                         name != "flatten" else None)
    rule = rules.METHODS.get(name)
    if rule is None:
        raise UnsupportedConstruct(f"the method .{name}() of a differentiated array has no "
                                   "gradient rule", origin)
    if rule in ("sum", "mean", "max", "min", "var", "std"):
        kw = _static_kw(kwargs, origin, _REDUCE_KW)
        if args:
            kw["axis"] = args[0].value if isinstance(args[0], Static) else None
        return nz.op(text, rule, [base], kw, origin)
    if rule == "reshape":       # the shape arguments kept (the shape analysis reads them)
        return nz.op(text, rule, [base] + args, {}, origin,
                     view_of=None if name == "flatten" else base)
    if rule == "transpose":
        axes = tuple(a.value for a in args) if args else None
        if len(args) == 1 and isinstance(args[0].value, (tuple, list)):
            axes = tuple(args[0].value)
        return nz.op(text, rule, [base], {"axes": axes}, origin, view_of=base)
    if rule == "astype":
        dtype = args[0].value if args and isinstance(args[0], Static) else None
        if dtype is None or np.dtype(dtype).kind not in "fc":
            return nz.op(text, None, values, {}, origin, active=False)
        return nz.op(text, rule, [base], {}, origin)
    if rule == "dot":
        return nz.op(text, rule, [base] + args, {}, origin)
    if rule == "clip":
        lo = args[0] if args else kwargs.get("min", Static(None))
        hi = args[1] if len(args) > 1 else kwargs.get("max", Static(None))
        return nz.op(text, rule, [base, lo, hi], {}, origin)
    return nz.op(text, rule, [base], {}, origin)

