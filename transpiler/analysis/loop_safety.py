"""Can an iteration of a loop raise? And which run-time checks prove its indexing in range?

What running a loop's iterations on several threads needs beyond their independence
(:mod:`transpiler.analysis.dependence`). Numba's parallel loops do not propagate exceptions
reliably: an exception raised on a worker thread is lost (the workqueue layer), an IndexError of
``boundscheck`` is not raised (numba/numba#2811, #6976, #9380), and even where one is raised the
iterations that ran before it are not Python's (other elements of the arrays were written). So
graphjit runs a loop in parallel only when no iteration can raise:

- no ``raise`` or ``assert``; no division, floor division or modulo by anything but a nonzero
  constant (ZeroDivisionError under Numba's ``error_model="python"``), no power but by a
  constant >= 0; no checked Python-int operation (``int_add`` ...: OverflowError) unless an
  operand is surely not an integer; calls only of functions that cannot raise (``math``, a few
  builtins, NumPy scalar casts, graphjit's helpers listed in ``RAISE_FREE_HELPERS``, and the
  program's own functions whose bodies pass the same test and index nothing);
- every subscript ``A[e0, e1, ...]`` indexes a name the loop does not assign, each ``ek`` an
  affine function (``+``, ``-``, ``*`` by a constant, ``//`` by a positive constant) of the
  loop variables and of loop invariants. Its interval over the iterations is computed before
  the loop, and the loop runs in parallel only if ``0 <= low`` and ``high < A.shape[k]``
  (loop versioning: otherwise the serial loop runs and raises as Python would). Negative
  indexes, which Python wraps, keep the loop serial: two iterations could reach one element.

Intervals are gast expression pairs ``(low, high)`` over the names the caller binds before the
loop; an interval that is empty at run time (an inner loop that does not run) only makes a check
fail more often, never pass wrongly.
"""
import gast

from ..number_rules import NUMPY_DIVISION_HELPERS
from .activity import writes
from .dependence import BUILTINS, MATH_FUNCTIONS, NUMPY_SCALAR_TYPES, NUMPY_TO_MATH
from ..nodes import child_nodes, walk

# Integers below this in magnitude: array extents (no array has 2**58 elements), constants
# below 2**32, the loop variable once checked: a checked + or - of two of them cannot leave
# int64, nor can a few such sums nested (at most _SMALL_DEPTH).
SMALL = 2 ** 58
_SMALL_DEPTH = 4
# graphjit helpers (transpiler/helpers) that never raise although their text divides: they
# exist to give NumPy's result (inf, nan, 0 with a warning) where Numba would raise.
RAISE_FREE_HELPERS = frozenset(NUMPY_DIVISION_HELPERS)
_NONINT_CASTS = frozenset({"float", "complex"})
_NONINT_NUMPY = frozenset({"float16", "float32", "float64", "complex64", "complex128"})
# NumPy functions that never raise for scalar arguments (a ufunc's domain errors are nan/inf
# and a RuntimeWarning; not np.power: an integer to a negative power raises ValueError)
_SAFE_NUMPY = frozenset({"isscalar", "isnan", "isinf", "isfinite", "signbit", "cbrt",
                         "hypot", "arctan2", "arcsinh", "arccosh", "arctanh", "exp2",
                         "logaddexp", "logaddexp2", "deg2rad", "rad2deg", "degrees",
                         "radians", "fmax", "fmin"})


class Unsafe(Exception):
    """Why an iteration might raise (its message names the line)."""


class LoopSafety:
    """The raise analysis of one loop body.

    Args:
        body (list[gast.stmt]): the loop's body (structured form).
        variable (str): the loop variable.
        interval (tuple): ``(low, high)`` gast expressions of the loop variable's values.
        functions (dict[str, object]): module symbol -> GeneratedFunction of the program.
        checked (dict[str, str]): the module's names of the checked Python-int operations
            -> the operation (``int_add`` ...).
        aliases (dict[str, str]): local alias -> module name (``np`` -> ``numpy``).
        nonint (callable[str] -> bool): the name holds no integer (floats, complex numbers or
            arrays of them) in every path (the specializer's scalar types).
        structured (callable[GeneratedFunction] -> gast.FunctionDef): a function's body with
            structured control flow (the backend's), not its functional forms.
        scalar (callable[str] -> bool): the name holds a number (Python or NumPy) in every
            path. Any other value read whole (an array: ``x + 1.0``, ``f(x)``, ``out[i] = x``,
            ``max(x)``) makes an iteration able to raise (shapes, empty or ambiguous arrays).
        ndim (callable[str] -> int | None): an array name's one ndim; a subscript must give
            an element (as many indexes), not a row (an array again).
        ufunc_loop (str | None): the module's name of transpiler.ir.ufunc_loop: its call
            ``ufunc_loop(np.sin, x)`` is judged as ``np.sin(x)``.
        deferred (bool): a ``raise`` in one of graphjit's helpers, outside a loop of its
            own, is allowed: the parallel loop defers it (backends/parallel_cpu.py: a flag
            per iteration instead, then the serial loop again if one is set). ``visited``
            lists the program functions the body reaches (those get a deferring copy).
    """

    def __init__(self, body, variable, interval, functions, checked, aliases, nonint,
                 structured=None, scalar=None, ndim=None, ufunc_loop=None, deferred=False):
        self.functions, self.checked, self.aliases = functions, checked, aliases
        self.deferred, self.visited, self.raises = deferred, [], 0
        self._helper = []       # the stack of called functions: whether each is a helper
        self._stack = []        # ... and their names
        self.ufunc_loop = ufunc_loop
        self.structured = structured or (lambda fn: fn.node)
        self.scalar = scalar or (lambda name: False)
        self.ndim = ndim or (lambda name: None)
        self.nonint_name = nonint
        self.assigned = writes(gast.Module(body=body, type_ignores=[]))
        self.body, self.variable, self.interval = body, variable, interval
        self.checks = []     # (array name, axis, low, high)
        # the loop variable must lie in (-SMALL, SMALL): a checked +/- of it was trusted
        self.bounded_variable = False
        self._small_vars = set()   # inner loop variables whose range() bounds are small
        self._seen_functions = {}

    def run(self):
        """The index checks ``[(array, axis, low, high)]``.

        Raises:
            Unsafe: an iteration might raise.
        """
        self._block(self.body, {self.variable: self.interval}, frozenset())
        return self.checks

    # -- statements -------------------------------------------------------------------------

    def _block(self, stmts, env, nonint, function=False):
        for stmt in stmts:
            self._stmt(stmt, env, nonint, function)

    def _stmt(self, stmt, env, nonint, function, in_loop=False):
        if isinstance(stmt, gast.Raise) and self.deferred and function and self._helper[-1] \
                and not in_loop and in_loop is not None:
            self.raises += 1        # deferred: the copy sets the iteration's flag instead
            return
        if isinstance(stmt, (gast.Raise, gast.Assert)):
            raise Unsafe(f"it may raise (line {_line(stmt)})")
        if function and any(isinstance(n, (gast.Attribute, gast.Subscript)) and isinstance(
                n.ctx, gast.Store) for n in walk(stmt)):
            raise Unsafe(f"a function it calls stores to an object (line {_line(stmt)})")
        if isinstance(stmt, (gast.Global, gast.Nonlocal, gast.Try, gast.With, gast.Delete)):
            raise Unsafe(f"it has a {type(stmt).__name__.lower()} statement (line "
                         f"{_line(stmt)})")
        if self.deferred and isinstance(stmt, gast.While):
            # after a deferred raise the iteration goes on with the helper's nan: a loop
            # whose end depends on values could then never end (found by review)
            raise Unsafe(f"a while loop (line {_line(stmt)}) beside a raise to defer")
        if self.deferred and isinstance(stmt, gast.For) and not self._fixed_range(
                stmt, function):
            raise Unsafe(f"a loop (line {_line(stmt)}) whose trip count is computed, beside a "
                         "raise to defer")
        if isinstance(stmt, gast.For):
            env = dict(env)
            env[stmt.target.id if isinstance(stmt.target, gast.Name) else ""] = \
                self._range_interval(stmt, env, function)
            for inner in stmt.body:
                self._stmt(inner, env, nonint, function, True)
            return
        if isinstance(stmt, gast.While):
            self._expr(stmt.test, env, nonint, function)
            for inner in stmt.body:
                self._stmt(inner, env, nonint, function, True)
            return
        if isinstance(stmt, gast.If):
            self._expr(stmt.test, env, nonint, function)
            for inner in stmt.body + stmt.orelse:
                self._stmt(inner, env, nonint, function, bool(in_loop))
            return
        for child in child_nodes(stmt):
            if isinstance(child, gast.expr):
                self._expr(child, env, nonint, function)
            elif isinstance(child, list):
                for item in child:
                    if isinstance(item, gast.expr):
                        self._expr(item, env, nonint, function)

    def _fixed_range(self, loop, function):
        """Whether ``loop`` is ``for v in range(...)`` of arguments no iteration computes:
        constants, ``.shape`` items and ``len()`` of names, and (in the loop body itself) names
        the body does not assign."""
        it = loop.iter
        if not (isinstance(it, gast.Call) and isinstance(it.func, gast.Name)
                and it.func.id == "range" and not it.keywords):
            return False
        for arg in it.args:
            for node in walk(arg):
                if isinstance(node, gast.Call) and not (
                        isinstance(node.func, gast.Name) and node.func.id == "len"):
                    return False
                if isinstance(node, gast.Name) and node.id != "len" and (
                        function or node.id in self.assigned) and not _shape_of(node, arg):
                    return False
        return True

    def _range_interval(self, loop, env, function):
        """The interval of an inner loop's variable, or None (unknown; uses then fail)."""
        it = loop.iter
        if not (isinstance(it, gast.Call) and isinstance(it.func, gast.Name)
                and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 3):
            self._expr(it, env, frozenset(), function)
            return None
        args = it.args
        for arg in args:
            self._expr(arg, env, frozenset(), function)
        step = args[2].value if len(args) == 3 and isinstance(args[2], gast.Constant) and \
            type(args[2].value) is int else None
        if len(args) == 3 and not step:
            raise Unsafe(f"range() at line {_line(loop)} has a step that may be 0 "
                         "(ValueError)")
        if step is not None and step < 0:
            return None       # a falling inner range: its variable is not bounded here
        if not function and isinstance(loop.target, gast.Name) and all(
                self._small(a, env) for a in args):
            self._small_vars.add(loop.target.id)
        start = args[0] if len(args) >= 2 else gast.Constant(value=0, kind=None)
        stop = args[1] if len(args) >= 2 else args[0]
        low, high = self._interval(start, env), self._interval(stop, env)
        if low is None or high is None or function:
            return None
        return low[0], _binop(high[1], gast.Sub(), _const(1))

    # -- expressions ------------------------------------------------------------------------

    def _expr(self, node, env, nonint, function):
        if isinstance(node, gast.Name) and not function and node.id not in env and not \
                self.scalar(node.id):
            raise Unsafe(f"it uses {node.id} whole (line {_line(node)}), not a number: an "
                         "array operation can raise (shapes, an empty array)")
        if isinstance(node, gast.Attribute) and node.attr in ("shape", "size", "ndim") and \
                isinstance(node.value, gast.Name):
            return          # typed, never raises
        if isinstance(node, gast.Subscript):
            self._subscript(node, env, nonint, function)
            return
        if isinstance(node, gast.BinOp):
            right = node.right
            if isinstance(node.op, (gast.Div, gast.FloorDiv, gast.Mod)) and not (
                    isinstance(right, gast.Constant) and _number(right.value)
                    and right.value != 0):
                raise Unsafe(f"it divides by {_text(right)} (line {_line(node)}), which may "
                             "be 0 (ZeroDivisionError)")
            if isinstance(node.op, gast.Pow) and not (isinstance(right, gast.Constant) and
                                                      _number(right.value) and
                                                      right.value >= 0):
                raise Unsafe(f"it raises to the power {_text(right)} (line {_line(node)}), "
                             "which may raise")
        if isinstance(node, gast.Call):
            self._call(node, env, nonint, function)
            return
        if isinstance(node, (gast.Lambda, gast.GeneratorExp, gast.ListComp, gast.SetComp,
                             gast.DictComp, gast.Yield, gast.YieldFrom, gast.Await)):
            raise Unsafe(f"it has {type(node).__name__} (line {_line(node)})")
        for child in child_nodes(node):
            if isinstance(child, gast.expr):
                self._expr(child, env, nonint, function)

    def _subscript(self, node, env, nonint, function):
        value = node.value
        if isinstance(value, gast.Attribute) and value.attr == "shape" and isinstance(
                node.slice, gast.Constant):
            return                   # an element of a shape: typed, never raises
        if function:
            raise Unsafe(f"a function it calls indexes {_text(node)} (line {_line(node)}): "
                         "not checked before the loop")
        if not isinstance(value, gast.Name) or value.id in self.assigned:
            raise Unsafe(f"it indexes {_text(node)} (line {_line(node)}), not an array the "
                         "loop leaves bound")
        index = node.slice
        elts = index.elts if isinstance(index, gast.Tuple) else [index]
        if self.ndim(value.id) != len(elts):
            raise Unsafe(f"{_text(node)} (line {_line(node)}) is not an element of an array of "
                         "known dimensions (a row is an array: its operations can raise)")
        for axis, elt in enumerate(elts):
            found = self._interval(elt, env)
            if found is None:
                raise Unsafe(f"its index {_text(elt)} of {value.id} (line {_line(node)}) is "
                             "not an affine function of the loop variables: not checked "
                             "before the loop")
            self.checks.append((value.id, axis, found[0], found[1]))

    def _loop_call(self, call):
        """``ufunc_loop(f, *args)`` as ``f(*args)``; other calls as they are."""
        if self.ufunc_loop and isinstance(call.func, gast.Name) and \
                call.func.id == self.ufunc_loop and call.args:
            return gast.copy_location(gast.Call(func=call.args[0], args=call.args[1:],
                                                keywords=call.keywords), call)
        return call

    def _call(self, call, env, nonint, function):
        call = self._loop_call(call)
        func = call.func
        if isinstance(func, gast.Name) and func.id == "len" and len(call.args) == 1 and \
                isinstance(call.args[0], gast.Name) and not call.keywords:
            return          # len() of an array or tuple: never raises
        for arg in call.args:
            self._expr(arg, env, nonint, function)
        for keyword in call.keywords:
            self._expr(keyword.value, env, nonint, function)
        where = f"(line {_line(call)})"
        if isinstance(func, gast.Name):
            name = func.id
            if name in self.checked:
                if any(self._nonint(a, nonint, function) for a in call.args):
                    return
                if not function and self.checked[name] in ("int_add", "int_sub") and all(
                        self._small(a, env) for a in call.args):
                    return
                raise Unsafe(f"a checked Python-int operation {where} may raise "
                             "OverflowError")
            if name in BUILTINS or name == "weak":
                return
            fn = self.functions.get(name)
            if fn is not None:
                self._function(fn, call, nonint, function)
                return
        elif isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
            module = self.aliases.get(func.value.id)
            if module == "math" and func.attr in MATH_FUNCTIONS:
                return
            if module == "numpy" and (func.attr in NUMPY_SCALAR_TYPES or func.attr in
                                      NUMPY_TO_MATH or func.attr in _SAFE_NUMPY):
                return
        raise Unsafe(f"it calls {_text(func)} {where}, which may raise")

    def _function(self, fn, call, nonint, function):
        """A call of the program's function ``fn``: its body must pass the same test."""
        if fn.is_helper and fn.qualname in RAISE_FREE_HELPERS:
            return
        node = self.structured(fn)
        params = [a.id for a in node.args.args]
        inner = frozenset(p for p, a in zip(params, call.args)
                          if self._nonint(a, nonint, function))
        key = (fn.symbol.name, inner)
        if self.deferred and fn.symbol.name in self._stack:
            # a recursion whose depth a deferred raise's nan decides could overflow the stack
            raise Unsafe(f"{fn.qualname} is recursive, beside a raise to defer")
        if key in self._seen_functions:
            if self._seen_functions[key] is not None:
                raise Unsafe(self._seen_functions[key])
            return
        self._seen_functions[key] = None      # a recursive call: decided by the first
        if fn.symbol.name not in self.visited:
            self.visited.append(fn.symbol.name)
        body = [s for s in node.body if not isinstance(s, gast.FunctionDef)]
        # a raise deferred falls through: only where a return ends the function
        self._helper.append(bool(fn.is_helper) and bool(body) and isinstance(body[-1],
                                                                            gast.Return))
        self._stack.append(fn.symbol.name)
        try:
            for stmt in body:       # (None: a raise here, under no branch, is not deferred)
                self._stmt(stmt, {}, inner, True, None)
        except Unsafe as exc:
            self._seen_functions[key] = f"{fn.qualname}: {exc}"
            raise Unsafe(self._seen_functions[key]) from None
        finally:
            self._helper.pop()
            self._stack.pop()

    def _nonint(self, node, nonint, function=False):
        """``node`` surely holds no integer: an integer overflow check cannot fire on it."""
        if isinstance(node, gast.Constant):
            return isinstance(node.value, (float, complex))
        if isinstance(node, gast.Name):     # in a called function: only its parameters
            return node.id in nonint or (not function and self.nonint_name(node.id))
        if isinstance(node, gast.Subscript):
            return not function and isinstance(node.value, gast.Name) and self.nonint_name(
                node.value.id)
        if isinstance(node, gast.BinOp):
            if isinstance(node.op, gast.Div):
                return True
            if isinstance(node.op, (gast.Add, gast.Sub, gast.Mult)):
                return self._nonint(node.left, nonint, function) or self._nonint(
                    node.right, nonint, function)
            return False
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
            return self._nonint(node.operand, nonint, function)
        if isinstance(node, gast.Call):
            func = self._loop_call(node).func
            if isinstance(func, gast.Name):
                if func.id in _NONINT_CASTS:
                    return True
                if func.id == "weak" and node.args:
                    return self._nonint(node.args[0], nonint, function)
            if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
                module = self.aliases.get(func.value.id)
                return (module == "numpy" and func.attr in _NONINT_NUMPY) or (
                    module == "math" and func.attr in MATH_FUNCTIONS - {"floor", "ceil",
                                                                        "trunc"})
        return False

    def _small(self, node, env, depth=0):
        """``node`` is an integer of magnitude below ``SMALL * 2**depth`` (see ``SMALL``)."""
        if depth > _SMALL_DEPTH:
            return False
        if isinstance(node, gast.Constant):
            return type(node.value) is int and abs(node.value) < 2 ** 32
        if isinstance(node, gast.Name):
            if node.id == self.variable:
                self.bounded_variable = True
                return True
            return node.id in self._small_vars and node.id in env
        if self._invariant_atom(node):
            return True
        if isinstance(node, gast.Call) and _cast_of_int(node, self.aliases):
            return self._small(node.args[0], env, depth)
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                self.checked.get(node.func.id) in ("int_add", "int_sub"):
            return all(self._small(a, env, depth + 1) for a in node.args)
        if isinstance(node, gast.BinOp) and isinstance(node.op, (gast.Add, gast.Sub)):
            return self._small(node.left, env, depth + 1) and self._small(
                node.right, env, depth + 1)
        return False

    # -- intervals --------------------------------------------------------------------------

    def _interval(self, node, env):
        """``(low, high)`` gast expressions bounding ``node`` over the iterations, or None."""
        if isinstance(node, gast.Constant):
            return (node, node) if type(node.value) is int else None
        if isinstance(node, gast.Name):
            if node.id in env:
                return env[node.id]
            return (node, node) if node.id not in self.assigned else None
        if self._invariant_atom(node):
            return node, node
        if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub):
            inner = self._interval(node.operand, env)
            return None if inner is None else (_neg(inner[1]), _neg(inner[0]))
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id in self.checked and len(node.args) == 2 and not node.keywords:
            op = {"int_add": gast.Add(), "int_sub": gast.Sub(), "int_mul": gast.Mult()}.get(
                self.checked[node.func.id])
            if op is None:
                return None
            node = gast.BinOp(left=node.args[0], op=op, right=node.args[1])
        if isinstance(node, gast.Call) and _cast_of_int(node, self.aliases):
            return self._interval(node.args[0], env)
        if not isinstance(node, gast.BinOp):
            return None
        left, right = self._interval(node.left, env), self._interval(node.right, env)
        if left is None or right is None:
            return None
        if isinstance(node.op, gast.Add):
            return _binop(left[0], gast.Add(), right[0]), _binop(left[1], gast.Add(), right[1])
        if isinstance(node.op, gast.Sub):
            return _binop(left[0], gast.Sub(), right[1]), _binop(left[1], gast.Sub(), right[0])
        for scale, other in ((node.left, right), (node.right, left)):
            if isinstance(node.op, gast.Mult) and isinstance(scale, gast.Constant) and type(
                    scale.value) is int:
                low, high = (_binop(other[0], gast.Mult(), scale),
                             _binop(other[1], gast.Mult(), scale))
                return (low, high) if scale.value >= 0 else (high, low)
        if isinstance(node.op, gast.FloorDiv) and isinstance(node.right, gast.Constant) and \
                type(node.right.value) is int and node.right.value > 0:
            return (_binop(left[0], gast.FloorDiv(), node.right),
                    _binop(left[1], gast.FloorDiv(), node.right))
        return None

    def _invariant_atom(self, node):
        """``X.shape[k]``, ``len(X)``, ``X.size`` of a name the loop does not assign."""
        if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Attribute) and \
                node.value.attr == "shape" and isinstance(node.slice, gast.Constant):
            base = node.value.value
        elif isinstance(node, gast.Attribute) and node.attr in ("size", "ndim"):
            base = node.value
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id == "len" and len(node.args) == 1:
            base = node.args[0]
        else:
            return False
        return isinstance(base, gast.Name) and base.id not in self.assigned


def _cast_of_int(call, aliases):
    """``np.int64(e)`` / ``int(e)``: the value of an integer ``e`` unchanged (indexes only)."""
    func = call.func
    if len(call.args) != 1 or call.keywords:
        return False
    if isinstance(func, gast.Name):
        return func.id == "int"
    return isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and \
        aliases.get(func.value.id) == "numpy" and func.attr in ("int64", "intp")


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _const(value):
    return gast.Constant(value=value, kind=None)


def _binop(left, op, right):
    return gast.BinOp(left=left, op=op, right=right)


def _neg(node):
    return gast.UnaryOp(op=gast.USub(), operand=node)


def _line(node):
    return getattr(node, "lineno", "?")


def _text(node):
    return gast.unparse(node).strip()[:60]


def _shape_of(name, expr):
    """Whether the Name node ``name`` appears in ``expr`` only as ``name.shape[...]`` or
    ``len(name)`` (an extent: no iteration computes it)."""
    for node in walk(expr):
        if isinstance(node, gast.Attribute) and node.value is name and node.attr == "shape":
            return True
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id == "len" and node.args and node.args[0] is name:
            return True
    return False
