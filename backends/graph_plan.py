"""The NumPy graph path's planner: whether a program is array code that NumPy runs as well as
Numba would, and if so the flat graph of NumPy calls to run (issue 18: "array programs do not
need LLVM").

A program is a graph when every function its entry reaches is straight-line (assignments and
one final ``return``: no loop, branch or functional form; loops are what Numba is for) and it
handles arrays (an array argument or runtime input). Its functions are then inlined into one
flat function in A-normal form (every operation assigned to its own name, in Python's order of
evaluation), graphjit's Numba-only helpers mapped back to the plain operation (``weak(v, like)``
-> ``v``: NumPy applies NEP 50 itself; ``int_add(a, b)`` -> ``a + b``: Python's ints do not
overflow; ``numpy_reshape(a, s)`` -> ``a.reshape(s)``). Run as Python, the flat function is
the plain call: every value, dtype, warning and exception is NumPy's own.

The planner also marks the operations that may write into memory other than a fresh result:

- *in place*: an element-wise ufunc (``+ - * / // %``, ``np.add``, ``np.maximum``, ``np.exp``,
  ...) whose operand is a temporary that nothing reads afterwards (no later use of it or of a
  view of it) writes into that operand (``np.add(t, b, out=t)``);
- *buffer*: a ufunc or ``np.dot``/``np.matmul``/``@`` whose result does not escape the call (it
  is not returned, nor a view of what is) writes into a buffer kept across calls.

Storage classes follow aliasing conservatively: the result of any operation that is not a ufunc
or a matrix product may be a view of any name it mentions (``reshape``, ``.T``, slicing,
``np.asarray``). Whether each marked operation really can write there (the result is an
ndarray of the operand's shape, dtype and strides) depends on the shapes, so it is checked at
run time, once per argument shapes (backends/runtime/array_graph.py); where it cannot, that
operation computes a fresh result as plainly.
"""
import builtins
import copy
import os

import gast
import numpy as np

from transpiler.ir import CHECKED_INT

# Element-wise operators and the ufunc each calls on ndarrays (ndarray.__add__ is np.add, ...).
# ``**`` is left out: ndarray.__pow__ takes fast paths (square, sqrt, reciprocal) np.power does
# not, so the two may differ in the last bit.
_BINOP_UFUNCS = {gast.Add: "add", gast.Sub: "subtract", gast.Mult: "multiply",
                 gast.Div: "true_divide", gast.FloorDiv: "floor_divide", gast.Mod: "remainder",
                 gast.BitAnd: "bitwise_and", gast.BitOr: "bitwise_or", gast.BitXor: "bitwise_xor"}
_MATRIX = ("dot", "matmul")
_CHECKED_OPS = {"int_add": gast.Add, "int_sub": gast.Sub, "int_mul": gast.Mult}
# graphjit's NumPy-rules helpers (transpiler.helpers.numpy_arith) that give the operator's own
# result when NumPy computes it: Numba needs them for division by zero and mixed types.
_HELPER_OPS = {"numpy_truediv": gast.Div, "numpy_floordiv": gast.FloorDiv,
               "numpy_mod": gast.Mod, "numpy_pow": gast.Pow, "alike_div": gast.Div,
               "alike_floordiv": gast.FloorDiv, "alike_mod": gast.Mod}
# Helpers that run as Python with NumPy's and Python's own results (NEP 50 by NumPy itself).
_PLAIN_HELPER_FILE = "weak.py"
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
# Attributes read without effects or errors on the values graphjit passes (arrays, scalars).
_PURE_ATTRS = {"T", "shape", "ndim", "dtype", "size", "itemsize", "real", "imag"}
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


class NotAGraph(Exception):
    """The program is not array code for the NumPy graph path; the message says why."""


class Op:
    """One statement of the flat function: ``target = value`` (``value`` a gast expression of
    names, constants and module attributes only) or the final ``return``.

    Attributes:
        target (str | None): the assigned name; None for the return.
        targets (list[str]): every assigned name (a tuple unpacking assigns several).
        value (gast.expr): the expression (or the returned one).
        line (int | None): the user's line; filename the file.
        fusion (str | None): "inplace" or "buffer" when it may write elsewhere (see module
            docstring); ``ufunc`` the NumPy function it then calls; ``operands`` the names an
            in-place op may write into (the first that fits at run time), ``buffered``
            whether it may write into a kept buffer (its result does not escape).
    """

    def __init__(self, targets, value, where, filename):
        self.targets = targets
        self.target = targets[0] if len(targets) == 1 else None
        self.value = value
        self.line = getattr(where, "lineno", None)
        self.filename = filename
        self.fusion = None
        self.ufunc = None
        self.operands = []
        self.buffered = False
        self.inexact = False        # may fuse only where the result is float or complex
        self.slot = None


class Graph:
    """The plan of one program: ``params`` (the entry's parameters, in order), ``arrays``
    (those that are arrays, for the shape key), ``ops`` (the flat function; the last one is the
    return), ``numpy`` (the module name NumPy is bound to in the generated module) and
    ``slots`` (the ops that may fuse, in order)."""

    def __init__(self, params, arrays, ops, numpy_name, fusible):
        self.params = params
        self.arrays = arrays
        self.ops = ops
        self.numpy = numpy_name
        self.fusible = fusible
        self.slots = [op for op in ops if op.fusion is not None]
        for k, op in enumerate(self.slots):
            op.slot = k


def _name(identifier, store=False):
    return gast.Name(id=identifier, ctx=gast.Store() if store else gast.Load(),
                     annotation=None, type_comment=None)


def plan(program, numpy_args, reserved, numpy_name, python_args=None):
    """The :class:`Graph` of ``program`` (finalized: its module names are final).

    Args:
        program (transpiler.program.Program): the specialization.
        numpy_args (dict): the specialization's NumPy arguments (transpiler.arguments:
            name -> (index, type, ndim or None, dtype name)).
        reserved (set[str]): module-level names the flat function must not use.
        numpy_name (str): the name NumPy is bound to in the generated module.
        python_args (dict): its Python-number arguments (name -> (index, type, value)).

    Raises:
        NotAGraph: not straight-line array code (the reason names the construct and line).
    """
    if program.uses_random:
        raise NotAGraph("it draws random numbers (compiled with Numba's generator, as "
                        "graphjit carries NumPy's state in and out)")
    entry = program.entry
    params = list(entry.dynamic_params) + [name for name, _ in entry.inputs]
    arrays = [name for name in entry.dynamic_params
              if name in numpy_args and numpy_args[name][2] is not None]
    if any(numpy_args[name][3] == "object" for name in arrays):
        raise NotAGraph("an object array (its elements' Python methods run in NumPy's loops)")
    arrays += [name for name, _ in entry.inputs]
    if not arrays:
        raise NotAGraph("no array argument or array attribute: scalar code compiles with Numba")
    python_args = python_args or {}
    # integer arguments: their values are in the shape key (a shape may be made of them)
    integers = [p for p in entry.dynamic_params if (
        p in python_args and python_args[p][1] in (int, bool)) or (
        p in numpy_args and numpy_args[p][2] is None and
        np.dtype(numpy_args[p][3]).kind in "biu")]
    inliner = _Inliner(program, set(reserved) | set(params))
    ops = inliner.run(entry, params)
    unkeyed = set(params) - set(integers)
    fusible = _plan_fusion(ops, params, unkeyed, numpy_name, inliner.modules)
    graph = Graph(params, arrays, ops, numpy_name, fusible)
    graph.integers = integers
    return graph


class _Inliner:
    """Flattens the entry and the program functions it calls into A-normal form."""

    def __init__(self, program, taken):
        self.program = program
        self.functions = {fn.symbol.name: fn for fn in program.functions}
        self.taken = set(taken)
        self.ops = []
        self.stack = []
        self.constants = {}         # flat name of a parameter -> the constant it is bound to
        forms = dict((form, alias) for form, alias in program.ir_imports())
        self.weak = forms.get("weak")
        self.checked = {alias: form for form, alias in forms.items() if form in CHECKED_INT}
        self.forms = {alias for form, alias in forms.items()
                      if form not in CHECKED_INT and form != "weak"}
        self.modules = {alias for _, alias in program.imports()}

    def fresh(self, base):
        base = base.lstrip("_") or "t"
        name, n = base, 1
        while name in self.taken or hasattr(builtins, name):
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name

    def run(self, entry, params):
        env = {a.id: a.id for a in entry.node.args.args}
        result = self.inline(entry, env)
        self.ops.append(Op([], result, entry.node.body[-1], entry.filename))
        return self.ops

    def inline(self, fn, env):
        """Emit ``fn``'s body with parameters bound by ``env`` (param -> flat name); returns
        the atom its ``return`` gives."""
        if fn.symbol.name in self.stack:
            raise NotAGraph(f"{fn.qualname} is recursive")
        self.stack.append(fn.symbol.name)
        body = [s for s in fn.node.body if not (
            isinstance(s, gast.Expr) and isinstance(s.value, gast.Constant))]
        where = fn.node
        if not body or not isinstance(body[-1], gast.Return) or body[-1].value is None:
            raise NotAGraph(f"{fn.qualname} (line {where.lineno}) does not end in a return "
                            "of a value")
        for stmt in body[:-1]:
            if not isinstance(stmt, gast.Assign) or len(stmt.targets) != 1:
                raise NotAGraph(_why_not(stmt, fn))
            target = stmt.targets[0]
            names = [target] if isinstance(target, gast.Name) else (
                list(target.elts) if isinstance(target, gast.Tuple) and all(
                    isinstance(e, gast.Name) for e in target.elts) else None)
            if names is None:
                raise NotAGraph(f"an assignment to {type(target).__name__} at line "
                                f"{stmt.lineno} (stores have effects; Numba compiles them)")
            value = self.expr(stmt.value, env, fn, stmt)
            if isinstance(target, gast.Name) and isinstance(value, gast.Name) and (
                    value.id in self.taken):
                env[target.id] = value.id       # a copy: the same value under a new name
                continue
            flat = [self.fresh(n.id) for n in names]
            self.ops.append(Op(flat, value, stmt, fn.filename))
            for n, f in zip(names, flat):
                env[n.id] = f
        result = self.atom(self.expr(body[-1].value, env, fn, body[-1]), fn, body[-1])
        self.stack.pop()
        return result

    # -- expressions --------------------------------------------------------------------------

    def atom(self, value, fn, where, base="t"):
        """``value`` as a name or constant: a new op when it is an operation."""
        if _is_atom(value, self.modules) or (_pure(value, self.modules) and not any(
                isinstance(n, gast.Name) for n in gast.walk(value))):
            return value        # a name, a constant, -1
        name = self.fresh(base)
        self.ops.append(Op([name], value, where, fn.filename))
        return _name(name)

    def expr(self, node, env, fn, where):
        """``node`` with its operands made atoms (emitted as ops, in evaluation order) and
        names renamed by ``env``; the operation itself is returned, not yet emitted."""
        if isinstance(node, gast.Name):
            if node.id in env:
                flat = env[node.id]
                if flat in self.constants:
                    return copy.deepcopy(self.constants[flat])
                return _name(flat)
            if node.id in self.functions or node.id in self.forms:
                raise NotAGraph(f"{node.id} used as a value at line {where.lineno}")
            return _name(node.id)
        if isinstance(node, gast.Constant):
            return node
        if isinstance(node, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp,
                             gast.GeneratorExp, gast.Yield, gast.YieldFrom, gast.Await,
                             gast.NamedExpr, gast.Starred)):
            raise NotAGraph(f"{type(node).__name__} at line {where.lineno}: compiled by Numba")
        if isinstance(node, (gast.IfExp, gast.BoolOp)) or (
                isinstance(node, gast.Compare) and len(node.ops) > 1):
            # evaluated lazily: kept whole (its parts must not call program functions)
            if any(isinstance(n, gast.Name) and (n.id in self.functions or n.id in self.forms)
                   for n in gast.walk(node)):
                raise NotAGraph(f"a lazily evaluated expression calling a function at line "
                                f"{where.lineno}")
            return self.rename(node, env)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            return self.call(node, env, fn, where)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute):
            # a method or module function: its receiver an atom, the attribute kept
            func = node.func
            if not _is_atom(func, self.modules):
                func = gast.Attribute(value=self.operand(func.value, env, fn, where),
                                      attr=func.attr, ctx=gast.Load())
            return self.expr_generic(gast.Call(func=func, args=node.args,
                                               keywords=node.keywords), env, fn, where)
        if isinstance(node, gast.Attribute):
            if _is_atom(node, self.modules):
                return node
            value = self.operand(node.value, env, fn, where)
            return gast.Attribute(value=value, attr=node.attr, ctx=gast.Load())
        node = copy.copy(node)
        for field, child in gast.iter_fields(node):
            if isinstance(child, gast.expr):
                setattr(node, field, self.operand(child, env, fn, where))
            elif isinstance(child, list):
                setattr(node, field, [self.operand(c, env, fn, where) if isinstance(
                    c, gast.expr) else self.keyword(c, env, fn, where) for c in child])
        return node

    def keyword(self, node, env, fn, where):
        if isinstance(node, gast.keyword):
            return gast.keyword(arg=node.arg, value=self.operand(node.value, env, fn, where))
        if isinstance(node, gast.comprehension):
            raise NotAGraph(f"a comprehension at line {where.lineno}: compiled by Numba")
        return node

    def operand(self, node, env, fn, where):
        if _pure(node, self.modules):     # x.shape[0], x.dtype.type, -1: read in place
            return self.rename(node, env)
        if isinstance(node, gast.Slice):
            return gast.Slice(*(None if part is None else self.operand(part, env, fn, where)
                                for part in (node.lower, node.upper, node.step)))
        if isinstance(node, (gast.Tuple, gast.List)):
            return type(node)(elts=[self.operand(e, env, fn, where) for e in node.elts],
                              ctx=gast.Load())
        value = self.expr(node, env, fn, where)
        return self.atom(value, fn, where)

    def rename(self, node, env):
        """A copy of ``node`` with its names renamed by ``env`` (a constant argument bound
        to a parameter: the constant itself)."""
        constants = self.constants

        class Rename(gast.NodeTransformer):
            def visit_Name(self, n):
                flat = env.get(n.id)
                if flat is None:
                    return n
                if flat in constants:
                    return copy.deepcopy(constants[flat])
                n.id = flat
                return n
        return Rename().visit(copy.deepcopy(node))

    def call(self, node, env, fn, where):
        name = node.func.id
        if name == self.weak and len(node.args) == 2 and not node.keywords:
            return self.expr(node.args[0], env, fn, where)     # NumPy applies NEP 50 itself
        if name in self.checked and not node.keywords:
            form = self.checked[name]
            args = [self.operand(a, env, fn, where) for a in node.args]
            if form in _CHECKED_OPS:
                return gast.BinOp(left=args[0], op=_CHECKED_OPS[form](), right=args[1])
            if form == "int_neg":
                return gast.UnaryOp(op=gast.USub(), operand=args[0])
            return gast.Call(func=_name("abs"), args=args, keywords=[])
        if name in self.forms:
            raise NotAGraph(f"a loop or branch ({name}) at line {where.lineno}: compiled by "
                            "Numba")
        callee = self.functions.get(name)
        if callee is None:
            return self.expr_generic(node, env, fn, where)
        if callee.is_helper:
            args = node.args
            if callee.qualname == "numpy_reshape" and len(args) == 2:
                array, shape = (self.operand(a, env, fn, where) for a in args)
                return gast.Call(func=gast.Attribute(value=array, attr="reshape",
                                                     ctx=gast.Load()), args=[shape], keywords=[])
            if callee.qualname in _HELPER_OPS and len(args) == 2 and not node.keywords:
                left, right = (self.operand(a, env, fn, where) for a in args)
                return gast.BinOp(left=left, op=_HELPER_OPS[callee.qualname](), right=right)
            if os.path.basename(callee.filename) != _PLAIN_HELPER_FILE:
                # Python's number rules as Numba needs them (a Python float held as an
                # np.float64): run as Python they would not give the plain call's types
                raise NotAGraph(f"graphjit's {callee.qualname} helper at line {where.lineno} "
                                "(Python's number rules in Numba's terms): compiled by Numba")
        if node.keywords or any(isinstance(a, gast.Starred) for a in node.args):
            raise NotAGraph(f"a call of {callee.qualname} with keywords at line {where.lineno}")
        args = [self.operand(a, env, fn, where) for a in node.args]
        params = [a.id for a in callee.node.args.args]
        if len(params) != len(args):
            raise NotAGraph(f"a call of {callee.qualname} with {len(args)} arguments")
        inner = {}
        for p, a in zip(params, args):
            if isinstance(a, gast.Name):
                inner[p] = a.id
            elif _pure(a, self.modules) and not any(
                    isinstance(n, gast.Name) for n in gast.walk(a)):
                flat = self.fresh(p)        # a constant: used in place of the parameter
                self.constants[flat] = a
                inner[p] = flat
            else:     # bound to a name, as the parameter is
                flat = self.fresh(p)
                self.ops.append(Op([flat], a, where, fn.filename))
                inner[p] = flat
        return self.inline(callee, inner)

    def expr_generic(self, node, env, fn, where):
        node = copy.copy(node)
        node.args = [self.operand(a, env, fn, where) for a in node.args]
        node.keywords = [self.keyword(k, env, fn, where) for k in node.keywords]
        return node


def _is_atom(node, modules):
    """A name, a constant, or an attribute chain of a module (``np.linalg.norm``)."""
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    chain = node
    while isinstance(chain, gast.Attribute):
        chain = chain.value
    return isinstance(node, gast.Attribute) and isinstance(chain, gast.Name) and \
        chain.id in modules


def _pure(node, modules):
    """An atom, a constant's sign, or reads of attributes and constant indices of such (they
    have no effects and cannot fail on the arrays and scalars graphjit passes)."""
    if _is_atom(node, modules):
        return True
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        return isinstance(node.operand, gast.Constant)
    if isinstance(node, gast.Attribute):
        return node.attr in _PURE_ATTRS and _pure(node.value, modules) or (
            node.attr == "type" and isinstance(node.value, gast.Attribute) and
            node.value.attr == "dtype" and _pure(node.value, modules))
    if isinstance(node, gast.Subscript):
        return isinstance(node.slice, gast.Constant) and isinstance(node.value, gast.Attribute) \
            and node.value.attr == "shape" and _pure(node.value, modules)
    return False


def _why_not(stmt, fn):
    kinds = {gast.For: "a for loop", gast.While: "a while loop", gast.If: "an if statement",
             gast.AugAssign: "an in-place update", gast.Raise: "a raise statement",
             gast.Expr: "an expression statement", gast.Return: "an early return",
             gast.FunctionDef: "a loop or branch"}   # a functional form's body function
    what = kinds.get(type(stmt), f"a {type(stmt).__name__} statement")
    return f"{what} at line {stmt.lineno} ({fn.qualname}): compiled by Numba"


# -- fusion ---------------------------------------------------------------------------------

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


def _plan_fusion(ops, params, arrays, numpy_name, modules):
    """Mark each op "inplace" / "buffer" where the aliasing allows it (module docstring).
    ``arrays``: the parameters whose values the shape key does not hold (arrays, floats).
    Returns False when shapes may depend on such values (then no op is marked: buffers are
    chosen by argument shapes and integers)."""
    if not _shapes_from_arguments(ops, params, arrays):
        return False
    klass = {p: {p} for p in params}         # name -> its storage class (a shared set)
    fresh = set()
    last_use = {}
    for i, op in enumerate(ops):
        for n in gast.walk(op.value):
            if isinstance(n, gast.Name):
                last_use[n.id] = i
    for i, op in enumerate(ops[:-1]):
        found = _ufunc_of(op, numpy_name) if op.target else None
        mentioned = {n.id for n in gast.walk(op.value) if isinstance(n, gast.Name)
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
    for n in gast.walk(ops[-1].value):
        if isinstance(n, gast.Name) and n.id in klass:
            escaping |= klass[n.id]
    for op in ops:
        op.buffered = op.fusion is not None and op.target not in escaping
        if op.fusion == "buffer" and not op.buffered:
            op.fusion = None        # its result is returned: a fresh array, as plainly
        if op.fusion is None:
            op.ufunc = None
    return True


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


def _shapes_from_arguments(ops, params, arrays):
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
        return any(bad(child) for child in gast.iter_child_nodes(node))

    for op in ops:
        value = op.value
        for node in gast.walk(value):
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
            numpy_fn = isinstance(func, gast.Attribute) and not _is_method(func, params, ops)
            if numpy_fn and (isinstance(getattr(np, callee, None), np.ufunc) or
                             callee in _DATA_ALL):
                continue                      # every argument is data: shapes broadcast
            data = 1 if numpy_fn and callee in _DATA_FIRST else 0
            if any(bad(a) for a in node.args[data:]):
                return False                  # x.reshape(k), np.ones(k), x.sum(k) ...
        names = {n.id for n in gast.walk(value) if isinstance(n, gast.Name)}
        if (isinstance(value, gast.Attribute) and value.attr in ("shape", "ndim", "size")) or (
                isinstance(value, gast.Call) and getattr(value.func, "id", None) == "len"):
            shape_of.update(op.targets)
        elif names & shape_of and not names & (tainted - shape_of) and not isinstance(
                value, gast.Call):
            shape_of.update(op.targets)
        elif names & tainted or isinstance(value, gast.Call):
            tainted.update(op.targets)
    return True


def _is_method(func, params, ops):
    """Whether ``func`` (an Attribute) is a method of a value rather than a module function."""
    root = func.value
    while isinstance(root, gast.Attribute):
        root = root.value
    return not (isinstance(root, gast.Name) and root.id not in params and all(
        root.id not in op.targets for op in ops))
