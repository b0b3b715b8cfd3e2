"""The NumPy graph path's planner: whether a program is array code that NumPy runs as well as
Numba would, and if so the flat graph of NumPy calls to run (issue 18: "array programs do not
need LLVM").

A program is a graph when every function its entry reaches is straight-line (assignments and
one final ``return``: no loop, branch or functional form; loops are what Numba is for) and it
handles arrays (an array argument or runtime input). Its functions are then inlined into one
flat function in A-normal form (every operation assigned to its own name, in Python's order of
evaluation), graphjit's Numba-only helpers mapped back to the plain operation (``weak(v, like)``
-> ``v``: NumPy applies NEP 50 itself; ``int_add(a, b)`` -> ``a + b``: Python's ints do not
overflow; ``numpy_reshape(a, s)`` -> ``a.reshape(s)``; ``numpy_sum(a)`` -> ``a.sum()``).
Run as Python, the flat function is
the plain call: every value, dtype, warning and exception is NumPy's own.

The planner also marks the operations that may write into memory other than a fresh result:

- *in place*: an element-wise ufunc (``+ - * / // %``, ``np.add``, ``np.maximum``, ``np.exp``,
  ...) whose operand is a temporary that nothing reads afterwards (no later use of it or of a
  view of it) writes into that operand (``np.add(t, b, out=t)``);
- *buffer*: a ufunc or ``np.dot``/``np.matmul``/``@`` whose result does not escape the call (it
  is not returned, nor a view of what is) writes into a buffer kept across calls; buffers
  whose values are never needed at once share memory (graph_fusion._share_buffers).

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
from transpiler.number_rules import NUMPY_DIVISION_HELPERS
from transpiler.naming import fresh
from transpiler.nodes import name as _name, ufunc_call, walk

from .graph_fusion import plan_fusion

_CHECKED_OPS = {"int_add": gast.Add, "int_sub": gast.Sub, "int_mul": gast.Mult}
# graphjit's NumPy-rules helpers (transpiler.helpers.numpy_arith) that give the operator's own
# result when NumPy computes it: Numba needs them for division by zero and mixed types.
_HELPER_OPS = {"numpy_pow": gast.Pow, "alike_div": gast.Div, "alike_floordiv": gast.FloorDiv,
               "alike_mod": gast.Mod, **{name: getattr(gast, op)
                                         for name, op in NUMPY_DIVISION_HELPERS.items()}}
# Helpers that run as Python with NumPy's and Python's own results (NEP 50 by NumPy itself).
_PLAIN_HELPER_FILE = "weak.py"
# transpiler.helpers.numpy_reductions: NumPy's reductions as Numba must spell them.
_REDUCTION_HELPERS = {"numpy_sum": "sum", "numpy_complex_sum": "sum", "numpy_mean": "mean",
                      "numpy_integer_mean": "mean", "numpy_var": "var", "numpy_std": "std",
                      "numpy_integer_var": "var", "numpy_integer_std": "std"}
_BUILTIN_HELPERS = {"python_max_1d": "max", "python_min_1d": "min"}
# transpiler.helpers.numpy_axis_reductions: ``helper(a, axis[, ddof])`` is ``a.<method>(axis=,
# ddof=)``; ``keep_axis(helper(...), axis)`` the same with ``keepdims=True``.
_AXIS_HELPERS = {"numpy_sum_axis": "sum", "numpy_mean_axis": "mean", "numpy_var_axis": "var",
                 "numpy_std_axis": "std", "numpy_max_axis": "max", "numpy_min_axis": "min"}
# transpiler.helpers.numpy_calls: NumPy functions as Numba must spell them (np.clip with a
# bound that may be NaN, np.roll with an axis, np.arange's zero step); NumPy itself runs the
# plain call and raises its own errors.
_NUMPY_CALL_HELPERS = {"numpy_clip": ("clip", 3), "numpy_clip_array": ("clip", 3),
                       "numpy_roll_axis": ("roll", 3), "numpy_arange3": ("arange", 3)}
_BUILTINS = frozenset(dir(builtins))
# Attributes read without effects or errors on the values graphjit passes (arrays, scalars).
_PURE_ATTRS = {"T", "shape", "ndim", "dtype", "size", "itemsize", "real", "imag"}
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
            whether it may write into a kept buffer (its result does not escape), ``live``
            the span of ops that may read that buffer (graph_fusion._share_buffers).
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
        self.live = None            # (op, last read) of its buffer: graph_fusion


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
    if program.calls_numba:
        raise NotAGraph("it calls a numba.njit function (Numba calls it from compiled code)")
    entry = program.entry
    params = list(entry.dynamic_params) + [name for name, _ in entry.inputs]
    arrays = [name for name in entry.dynamic_params
              if name in numpy_args and numpy_args[name][2] is not None]
    if any(numpy_args[name][3] == "object" for name in arrays):
        raise NotAGraph("an object array (its elements' Python methods run in NumPy's loops)")
    # runtime inputs: arrays and NumPy scalars held by objects, and closures' floats once
    # dynamic (transpiler/dynamic_numbers.py), which have no shape
    arrays += [name for name, path in entry.inputs if not _python_float(program, path)]
    if not arrays:
        raise NotAGraph("no array argument or array attribute: scalar code compiles with Numba")
    python_args = python_args or {}
    # integer arguments: their values are in the shape key (a shape may be made of them)
    integers = [p for p in entry.dynamic_params if (
        p in python_args and python_args[p][1] in (int, bool)) or (
        p in numpy_args and numpy_args[p][2] is None and
        np.dtype(numpy_args[p][3]).kind in "biu")]
    inliner = _Inliner(program, set(reserved) | set(params), numpy_name)
    ops = inliner.run(entry, params)
    unkeyed = set(params) - set(integers)
    fusible = plan_fusion(ops, params, unkeyed, numpy_name, inliner.modules)
    graph = Graph(params, arrays, ops, numpy_name, fusible)
    graph.integers = integers
    return graph


def _python_float(program, path):
    """Whether the runtime input read through ``path`` is guarded to be a Python float."""
    guard = program.guards.get(path)
    return guard is not None and guard.kind == "typekey" and guard.expected == ("type", float)


class _Inliner:
    """Flattens the entry and the program functions it calls into A-normal form."""

    def __init__(self, program, taken, numpy_name):
        self.program = program
        self.numpy = numpy_name
        self.functions = {fn.symbol.name: fn for fn in program.functions}
        self.taken = set(taken)
        self.ops = []
        self.stack = []
        self.constants = {}         # flat name of a parameter -> the constant it is bound to
        forms = dict((form, alias) for form, alias in program.ir_imports())
        self.weak = forms.get("weak")
        self.untyped = forms.get("untyped_operand")
        self.opaque = forms.get("opaque")
        self.ufunc_loop = forms.get("ufunc_loop")
        self.checked = {alias: form for form, alias in forms.items() if form in CHECKED_INT}
        self.forms = {alias for form, alias in forms.items() if form not in CHECKED_INT
                      and form not in ("weak", "untyped_operand", "opaque", "ufunc_loop")}
        self.modules = {alias for _, alias in program.imports()} | {numpy_name}

    def fresh(self, base):
        """A flat name for the user's ``base`` (never a builtin's: they stay readable)."""
        flat = fresh(base.lstrip("_") or "t", self.taken | _BUILTINS)
        self.taken.add(flat)
        return flat

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
                isinstance(n, gast.Name) for n in walk(value))):
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
            if any(isinstance(n, gast.Name) and (
                    n.id in self.functions or n.id in self.forms or n.id in self.checked or
                    n.id in (self.weak, self.opaque, self.ufunc_loop)) for n in walk(node)):  # nor mapped
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
            if isinstance(child, (gast.expr, gast.Slice)):   # (gast.Slice is not an expr)
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
        if name == self.untyped and len(node.args) == 1 and not node.keywords:
            return self.expr(node.args[0], env, fn, where)     # NumPy knows its type
        if name == self.opaque and len(node.args) == 1 and not node.keywords:
            return self.expr(node.args[0], env, fn, where)     # NumPy calls libm itself
        if name == self.ufunc_loop and node.args and not node.keywords:
            # NumPy runs its own loop: the ufunc's call (a matrix product as the operator)
            return self.expr(ufunc_call(node), env, fn, where)
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
            if callee.qualname == "keep_axis" and len(args) == 2:
                inner = args[0]
                held = self.functions.get(inner.func.id) if isinstance(inner, gast.Call) and \
                    isinstance(inner.func, gast.Name) else None
                if held is not None and held.is_helper and held.qualname in _AXIS_HELPERS:
                    return self.axis_reduction(held.qualname, inner.args, True, env, fn, where)
            if callee.qualname in _AXIS_HELPERS and len(args) in (2, 3):
                return self.axis_reduction(callee.qualname, args, False, env, fn, where)
            if callee.qualname in _REDUCTION_HELPERS and len(args) in (1, 2):
                array = self.operand(args[0], env, fn, where)   # NumPy's own pairwise sum
                ddof = [gast.keyword(arg="ddof", value=self.operand(args[1], env, fn, where))
                        ] if len(args) == 2 else []
                return gast.Call(func=gast.Attribute(
                    value=array, attr=_REDUCTION_HELPERS[callee.qualname], ctx=gast.Load()),
                    args=[], keywords=ddof)
            numpy_call = _NUMPY_CALL_HELPERS.get(callee.qualname)
            if numpy_call and len(args) == numpy_call[1] and not node.keywords:
                return gast.Call(func=gast.Attribute(value=_name(self.numpy), attr=numpy_call[0],
                                                     ctx=gast.Load()),
                                 args=[self.operand(a, env, fn, where) for a in args],
                                 keywords=[])
            if callee.qualname in _BUILTIN_HELPERS and len(args) == 1:
                return gast.Call(func=_name(_BUILTIN_HELPERS[callee.qualname]),
                                 args=[self.operand(args[0], env, fn, where)], keywords=[])
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
                    isinstance(n, gast.Name) for n in walk(a)):
                flat = self.fresh(p)        # a constant: used in place of the parameter
                self.constants[flat] = a
                inner[p] = flat
            else:     # bound to a name, as the parameter is
                flat = self.fresh(p)
                self.ops.append(Op([flat], a, where, fn.filename))
                inner[p] = flat
        return self.inline(callee, inner)

    def axis_reduction(self, qualname, args, keepdims, env, fn, where):
        """``a.<method>(axis=k[, ddof=d][, keepdims=True])``: NumPy's own reduction for the
        helper ``qualname`` of transpiler.helpers.numpy_axis_reductions called on ``args``."""
        array = self.operand(args[0], env, fn, where)
        keywords = [gast.keyword(arg="axis", value=self.operand(args[1], env, fn, where))]
        if len(args) == 3:
            keywords.append(gast.keyword(arg="ddof", value=self.operand(args[2], env, fn, where)))
        if keepdims:
            keywords.append(gast.keyword(arg="keepdims", value=gast.Constant(value=True,
                                                                             kind=None)))
        return gast.Call(func=gast.Attribute(value=array, attr=_AXIS_HELPERS[qualname],
                                             ctx=gast.Load()), args=[], keywords=keywords)

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
