"""numba-cpu's parallel loops: ``jit(parallel=True)`` / ``set_context(parallel=True)``.

The user writes plain ``range``. Each outermost ``for v in range(...)`` of a generated function
(structured form, backends/restructure.py) that the analyses prove safe becomes two loops,
chosen before it runs (loop versioning):

    lo, hi, st = <range arguments>              # evaluated once, as Python does
    n = len(range(lo, hi, st))
    if n >= MIN_TRIP and <range, index and alias checks>:
        s, ... = f__parallel_12(<inputs>, lo, hi, st, n, s, ...)
    else:
        for v in range(lo, hi, st):             # the serial loop, unchanged
            <body>

    @_jit_par                                    # parallel=PARALLEL_OPTIONS, no boundscheck
    def f__parallel_12(<inputs>, lo, hi, st, n, s, ...):
        for k in numba.prange(n):               # Numba's parfors, its threading layer
            v = lo + k * st
            <body>
        return s, ...                           # the reductions

Safe means: independent (transpiler.analysis.dependence: every store ``a[v, ...]``, no
carried dependence), no iteration can raise (transpiler.analysis.loop_safety: exceptions are
not propagated reliably from Numba's worker threads, and the arrays would not hold what
Python's order leaves), every index checked in range before the loop, the arrays it stores to
apart in memory from every other array it uses (``f(x, x)`` would alias them) and row-distinct.
Reductions (``s += x[i]``, ``c = c + 1``, ``m = max(m, x[i])``) run in parallel when their
variable holds integers or booleans only (the specializer's scalar types): integer ``+``/``*``
wrap modulo 2**64 and ``max``/``min`` are exact in any order. Float and complex sums would
change the order of the additions, hence the last bits: serial unless the user asks
``parallel="fast-reductions"`` (float ``max``/``min`` stay serial even then: NaN order).
Loops inside a parallel loop run serially in its iterations; a loop that stays serial is
searched for parallel loops inside it.

Numba's other parfor conversions stay off (``PARALLEL_OPTIONS``): its parallel ``np.sum``,
``np.dot``, ``np.mean`` ... change floating-point results, and its parallel ``np.random``
draws other numbers.
"""
import copy

import gast

from transpiler import naming
from transpiler.analysis import liveness
from transpiler.analysis.dependence import classify_loop, range_loop
from transpiler.analysis.loop_safety import SMALL, LoopSafety, Unsafe
from transpiler.nodes import copy_tree, walk

from .parallel_deferred import deferred_body, deferred_call, private_arrays

# Numba's parfor passes allowed (numba/core/cpu_options.py ParallelOptions): prange loops and
# the fusion of those; not the conversions that change values (see the module docstring).
PARALLEL_OPTIONS = {"prange": True, "fusion": True, "comprehension": False,
                    "reduction": False, "inplace_binop": False, "setitem": False,
                    "numpy": False, "stencil": False}
# Break-even trip counts on 2 cores (make bench, section 10, "break-even"): a launch costs
# ~5 us; a flat body of arithmetic runs ~1 ns an iteration and is bound by memory bandwidth,
# which two cores share (parallel only about equals serial below ~2**18 iterations); a body
# calling a costly function (np.sin, np.sqrt: ~10-20 ns) wins from ~1000 iterations.
MIN_TRIP = 65536
MIN_TRIP_CALLS = 2048         # a flat body calling one of _COSTLY
MIN_TRIP_NESTED = 16          # a body with a loop in it: each iteration is a loop
RUNTIME = {"extent": "_gj_extent", "apart": "_gj_apart", "rows_apart": "_gj_rows_apart",
           "flags": "_gj_flags", "any_set": "_gj_any_set"}
# Functions of ~10 ns or more a call (math and NumPy's transcendental ones).
_COSTLY = frozenset({"sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos",
                     "tan", "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arctan2",
                     "asin", "acos", "atan", "atan2", "hypot", "power", "pow", "erf", "erfc",
                     "gamma", "lgamma", "cbrt"})
_SCALAR_TYPES = ("int", "float", "bool", "complex", "np:")
_INT_TYPES = ("int", "bool", "np:int", "np:uint", "np:bool")
_NONINT_TYPES = ("float", "complex", "np:float", "np:complex", "arr:float", "arr:complex")


def _n(name, store=False):
    return gast.Name(id=name, ctx=gast.Store() if store else gast.Load(), annotation=None,
                     type_comment=None)


def _call(func, args):
    return gast.Call(func=func, args=list(args), keywords=[])


def _assign(name, value):
    return gast.Assign(targets=[_n(name, True)], value=value, type_comment=None)


def _attr(value, attr):
    return gast.Attribute(value=value, attr=attr, ctx=gast.Load())


def _c(value):
    return gast.Constant(value=value, kind=None)


class LoopParallelizer:
    """Rewrites one generated function's loops (module docstring).

    Args:
        mode (bool | str): True, or ``"fast-reductions"`` (float and complex sums too).
        functions (dict[str, GeneratedFunction]): the program's functions by module symbol.
        checked (dict[str, str]): module names of the checked Python-int operations -> form.
        aliases (dict[str, str]): module alias -> module (``np`` -> ``numpy``).
        module_names (set[str]): the module's names; the outlined functions' names join it.
        ufunc_loop (str | None): the module's name of transpiler.ir.ufunc_loop, if it has one.

    One per lowered program: ``rewrite`` each generated function in turn.
    """
    runtime = RUNTIME      # the module's names of backends/runtime/parallel.py's functions

    def __init__(self, mode, functions, checked, aliases, module_names, ufunc_loop=None):
        self.mode, self.functions, self.checked, self.aliases = mode, functions, checked, aliases
        self.ufunc_loop = ufunc_loop
        self._module_names = module_names
        self.rows = []
        self._structured_nodes = {}    # callees' structured bodies, shared by all functions

    def _structured(self, fn):
        from .restructure import restructure
        node = self._structured_nodes.get(fn.symbol.name)
        if node is None:
            node = self._structured_nodes[fn.symbol.name] = restructure(fn.node)
        return node

    def rewrite(self, fdef, fn):
        """``(fdef', outlined, rows)``: ``fdef`` (structured, not modified) with its safe loops
        versioned, the functions of their ``prange`` twins (to decorate ``@_jit_par``), named
        apart from the module's names (which the new names join), and ``(line, status, why)``
        per loop considered."""
        fdef = copy_tree(fdef)
        liveness.annotate(fdef)
        self.outlined, self.rows, self._symbol = [], [], fn.symbol.name
        self._locals = set(fn.dynamic_params) | {name for name, _ in fn.inputs} | {
            n.id for n in walk(fdef) if isinstance(n, gast.Name) and isinstance(
                n.ctx, (gast.Store, gast.Param))} | {a.id for a in fdef.args.args}
        self._types = getattr(fn, "name_types", None) or {}
        self._taken = set(fn.locals) | {n.id for n in walk(fdef) if isinstance(
            n, gast.Name)} | set(RUNTIME.values())
        self._plain_ints = _number_names(fdef)
        self._made_arrays = self._array_ndims(fdef)
        self._private = private_arrays(fdef, self._made_arrays)
        fdef.body = self._block(fdef.body)
        return fdef, self.outlined, self.rows

    def _block(self, stmts):
        out = []
        for stmt in stmts:
            if range_loop(stmt):
                made = self._loop(stmt)
                if made is not None:
                    out.extend(made)
                    continue
                stmt.body = self._block(stmt.body)
            elif isinstance(stmt, (gast.For, gast.While)):
                stmt.body = self._block(stmt.body)
            elif isinstance(stmt, gast.If):
                stmt.body, stmt.orelse = self._block(stmt.body), self._block(stmt.orelse)
            out.append(stmt)
        return out

    # -- one loop ---------------------------------------------------------------------------

    def _loop(self, loop):
        line = loop.lineno
        verdict = classify_loop(loop, loop.live_out, None, self.aliases,
                                reduction_ok=self._reduction_ok,
                                call_problem=lambda call: None)
        if not verdict.independent:
            self.rows.append((line, "serial", verdict.reason))
            return None
        fresh = {key: naming.fresh(f"_gj_{key}", self._taken) for key in
                 ("lo", "hi", "st", "n", "k", "imin", "imax", "err")}
        self._taken |= set(fresh.values())
        lo, hi, st = (_n(fresh[k]) for k in ("lo", "hi", "st"))
        interval = (_n(fresh["imin"]), _n(fresh["imax"]))
        safety = self._safety(loop, verdict, interval)
        if isinstance(safety, str):
            self.rows.append((line, "serial", f"an iteration may raise: {safety} (Numba's "
                                              "threads do not propagate exceptions)"))
            return None
        checks = safety.checks
        arrays = sorted({name for name, _, _, _ in checks})
        conditions = self._conditions(checks, verdict.stored, arrays)
        # range arguments below 2**58 in magnitude: the trip count and the index interval
        # computed in int64 are exact (Numba's len(range()) of a range near the int64 limits
        # overflows); the loop variable then also lies in (-SMALL, SMALL), which a trusted
        # checked +/- of it needs (loop_safety.SMALL)
        conditions = [gast.Compare(left=_c(-SMALL), ops=[gast.Lt(), gast.Lt()],
                                   comparators=[_n(fresh[k]), _c(SMALL)])
                      for k in ("lo", "hi", "st")] + conditions
        nested = any(isinstance(n, (gast.For, gast.While)) for stmt in loop.body
                     for n in walk(stmt))
        # np.sin(x), math.sin(x), ufunc_loop(np.sin, x)
        # (or graphjit's checked_sqrt, checked_sin...: math.sqrt, math.sin as Python's)
        calls = any(isinstance(n, gast.Attribute) and n.attr in _COSTLY and isinstance(
            n.value, gast.Name) and n.value.id in self.aliases or isinstance(
            n, gast.Name) and n.id in self.functions and self.functions[n.id].is_helper and
            self.functions[n.id].qualname.startswith("checked_") and
            self.functions[n.id].qualname[len("checked_"):] in _COSTLY
                    for stmt in loop.body for n in walk(stmt))
        minimum = MIN_TRIP_NESTED if nested else MIN_TRIP_CALLS if calls else MIN_TRIP
        args = loop.iter.args
        start = args[0] if len(args) >= 2 else _c(0)
        stop = args[1] if len(args) >= 2 else args[0]
        step = args[2] if len(args) == 3 else _c(1)
        last = gast.BinOp(left=lo, op=gast.Add(), right=gast.BinOp(
            left=gast.BinOp(left=_n(fresh["n"]), op=gast.Sub(), right=_c(1)), op=gast.Mult(),
            right=st))
        before = [_assign(fresh["lo"], start), _assign(fresh["hi"], stop),
                  _assign(fresh["st"], step),
                  _assign(fresh["n"], _call(_n("len"), [_call(_n("range"), [lo, hi, st])]))]
        if checks:
            before += [_assign(fresh["imin"], _call(_n("min"), [lo, last])),
                       _assign(fresh["imax"], _call(_n("max"), [lo, last]))]
        test = gast.BoolOp(op=gast.And(), values=[gast.Compare(
            left=_n(fresh["n"]), ops=[gast.GtE()], comparators=[_c(minimum)])] + conditions)
        # a variable only set to a constant (a result flag), set once after the loop: where
        # every iteration sets it (a statement of the body itself), if the loop ran; where a
        # branch does, if an iteration did (an integer max reduction records it)
        always = {name for name in verdict.constants if any(
            _is_store_of(stmt, name) for stmt in loop.body) and not any(
            _is_store_of(n, name) for stmt in loop.body for n in walk(stmt)
            if n is not stmt)}
        hits = {name: naming.fresh(f"_gj_hit_{name}", self._taken)
                for name in sorted(set(verdict.constants) - always)}
        self._taken |= set(hits.values())
        body = _replace_constant_stores(copy_tree(loop.body), hits, always) or [
            gast.copy_location(gast.Pass(), loop)]
        # an update cast to a fixed-width integer (s = np.int32(s + e)): accumulated in
        # 64 bits of the same signedness and cast once after the loop, the same value modulo
        # 2**w whatever the order (reduction modulo 2**64, then to 2**w, is exact)
        wide = {}
        for red, op in sorted(verdict.reductions.items()):
            if "@" in op:
                wide[red] = (naming.fresh(f"_gj_wide_{red}", self._taken), op.split("@")[1])
                self._taken.add(wide[red][0])
        wrong = [w for w in _cast_operands(body, wide) if not self._surely_int(w)]
        if wrong:
            self.rows.append((line, "serial", f"it accumulates {', '.join(sorted(wide))} "
                              f"cast to a NumPy integer, adding {gast.unparse(wrong[0]).strip()}"
                              ", not known to be an integer (the cast would not be modular)"))
            return None
        body = _widen_updates(body, wide)
        one = isinstance(step, gast.Constant) and step.value == 1
        itself = one and isinstance(start, gast.Constant) and start.value == 0
        saved = {}
        if safety.raises:
            # deferred raises (parallel_deferred.py): the helpers that raise set the
            # iteration's flag in copies of them; the caller checks the flags after; each
            # iteration first saves the row it stores (arrays others may see)
            # (an array the body also reads is saved even when made here: the serial rerun
            # reads it and must find what the iterations before the raise left; review)
            loaded = {n.value.id for stmt in loop.body for n in walk(stmt)
                      if isinstance(n, gast.Subscript) and isinstance(n.ctx, gast.Load)
                      and isinstance(n.value, gast.Name)}
            for name in verdict.stored:
                if name not in self._private or name in loaded:
                    saved[name] = naming.fresh(f"_gj_saved_{name}", self._taken)
                    self._taken.add(saved[name])
            body = deferred_body(self, body, safety.visited, fresh["err"],
                                 verdict.variable if itself else fresh["k"], saved,
                                 verdict.variable)
        if itself:
            # prange(n) over the loop variable itself: Numba's fastest form (a start, or an
            # index computed from the prange variable, measured up to 2x slower for a reduction)
            prange = gast.For(target=_n(verdict.variable, True), iter=_call(
                _attr(_n("numba"), "prange"), [_n(fresh["n"])]), body=body, orelse=[],
                type_comment=None)
        else:
            offset = _n(fresh["k"]) if one else gast.BinOp(left=_n(fresh["k"]), op=gast.Mult(),
                                                             right=st)
            index = _assign(verdict.variable, gast.BinOp(left=offset, op=gast.Add(), right=lo))
            prange = gast.For(target=_n(fresh["k"], True), iter=_call(
                _attr(_n("numba"), "prange"), [_n(fresh["n"])]), body=[index] + body,
                orelse=[], type_comment=None)
        made_par = self._outline(line, prange, verdict, fresh, hits, wide,
                                 [fresh["err"]] + sorted(saved.values()) if safety.raises
                                 else [])
        if made_par is None:
            return None
        outlined, parallel = made_par
        serial = copy.copy(loop)
        serial.iter = _call(_n("range"), [lo, hi, st])
        if safety.raises:
            parallel = deferred_call(self, parallel, saved, fresh, serial)
        for name, value in sorted(verdict.constants.items()):
            ran = _n(hits[name]) if name in hits else _n(fresh["n"])
            parallel.append(gast.If(test=gast.Compare(left=ran, ops=[gast.Gt()],
                                                      comparators=[_c(0)]),
                                    body=[_assign(name, _c(value))], orelse=[]))
        made = before + [gast.If(test=test if len(test.values) > 1 else test.values[0],
                                 body=parallel, orelse=[serial])]
        for stmt in made + [outlined]:   # new nodes get the loop's line; the body its own
            for node in walk(stmt):
                if isinstance(node, (gast.stmt, gast.expr)) and getattr(
                        node, "lineno", None) is None:
                    gast.copy_location(node, loop)
        self.outlined.append(outlined)
        reductions = ", ".join(f"{name} ({op.replace('@', ' as ')})" for name, op in sorted(
            verdict.reductions.items()))
        self.rows.append((line, "parallel", "iterations independent" + (
            f", reductions {reductions}" if reductions else "") + f"; runs in parallel when it "
            f"has at least {minimum} iterations" + (" and its indexes are in range"
                                                    if checks else "") + (
            "; an iteration that would raise makes the serial loop run again from the start "
            "(its stores undone), which raises as Python" if safety.raises else "")))
        return made

    def _safety(self, loop, verdict, interval):
        """The loop's :class:`LoopSafety`, run; or why an iteration may raise (a str). A
        loop whose only raises are in graphjit's helpers (``math.sqrt`` of a negative...)
        defers them (``safety.raises``) where nothing but array elements is carried out of
        it (no reductions, no flags) and NumPy is imported."""
        def run(deferred):
            safety = LoopSafety(loop.body, verdict.variable, interval, self.functions,
                                self.checked, self.aliases, self._nonint, self._structured,
                                self._scalar, self._ndim, ufunc_loop=self.ufunc_loop,
                                deferred=deferred)
            safety.checks = safety.run()
            return safety
        try:
            return run(False)
        except Unsafe as exc:
            why = str(exc)
        if verdict.reductions or verdict.constants or not self._numpy():
            return why
        try:
            safety = run(True)
        except Unsafe:
            return why
        return safety if safety.raises else why

    def _numpy(self):
        """The generated module's name of NumPy, or None."""
        return next((k for k, v in self.aliases.items() if v == "numpy"), None)

    def _outline(self, line, prange, verdict, fresh, hits, wide, extra=()):
        """``(the @_jit_par function holding prange, the caller's statements that call it)``,
        or None (a row says why)."""
        # The prange loop is outlined into a function of its own (decorated @_jit_par): its
        # inputs as parameters, its reductions passed in and returned. In the caller Numba
        # compiles the rest without its parfor passes, and the reduction variables do not
        # meet the serial twin's at a join (that made the parallel loop ~1.6x slower).
        numpy = next((k for k, v in self.aliases.items() if v == "numpy"), None)
        if wide and numpy is None:
            self.rows.append((line, "serial", "NumPy is not imported in the generated module"))
            return None
        results = [wide[r][0] if r in wide else r for r in sorted(verdict.reductions)] + list(
            hits.values())
        inputs = sorted((set(verdict.inputs) & self._locals) - set(results)
                        - set(fresh.values())) + [fresh["lo"], fresh["hi"], fresh["st"],
                                                  fresh["n"]] + list(extra)
        name = naming.fresh(f"{self._symbol}__parallel_{line}", self._module_names)
        self._module_names.add(name)
        ret = gast.Return(value=gast.Tuple(elts=[_n(r) for r in results], ctx=gast.Load())
                          if results else None)
        outlined = gast.FunctionDef(
            name=name, args=gast.arguments(
                args=[gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None)
                      for p in inputs + results], posonlyargs=[], vararg=None,
                kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
            body=[prange, ret], decorator_list=[], returns=None, type_comment=None)
        call = _call(_n(name), [_n(p) for p in inputs] + [
            _c(0) if r in hits.values() else _n(r) for r in results])
        parallel = [_assign(w, _call(_attr(_n(numpy), "uint64" if dtype.startswith("u") else
                                           "int64"), [_n(red)]))
                    for red, (w, dtype) in sorted(wide.items())]
        parallel.append(gast.Assign(targets=[gast.Tuple(elts=[_n(r, True) for r in results],
                                                        ctx=gast.Store())], value=call,
                                    type_comment=None) if results else gast.Expr(value=call))
        parallel += [_assign(red, _call(_attr(_n(numpy), dtype), [_n(w)]))
                     for red, (w, dtype) in sorted(wide.items())]
        return outlined, parallel

    def _conditions(self, checks, stored, arrays):
        rt, out, seen = RUNTIME, [], set()
        for name, axis, low, high in checks:
            ndim = self._ndim(name)
            # an array of known ndim: its shape itself (Numba compiles the _gj_extent
            # overload slowly, ~0.4 s); else _gj_extent, -1 for what is not an array
            bound = gast.Subscript(value=_attr(_n(name), "shape"), slice=_c(axis),
                                   ctx=gast.Load()) if ndim is not None and axis < ndim else \
                _call(_n(rt["extent"]), [_n(name), _c(axis)])
            for expr in (gast.Compare(left=_c(0), ops=[gast.LtE()], comparators=[low]),
                         gast.Compare(left=high, ops=[gast.Lt()], comparators=[bound])):
                text = gast.unparse(expr)
                if text not in seen:
                    seen.add(text)
                    out.append(expr)
        for name in stored:
            out.append(_call(_n(rt["rows_apart"]), [_n(name)]))
            for other in arrays:
                if other != name and (other not in stored or other > name):
                    out.append(_call(_n(rt["apart"]), [_n(name), _n(other)]))
        return out

    def _array_ndims(self, fdef):
        """name -> ndim of arrays the function makes: every assignment of the name is
        ``np.empty``/``zeros``/``ones``/``full`` of a tuple display (its length) or of a plain
        integer (1), or ``np.empty_like``/``zeros_like``/``ones_like`` of an array of known
        ndim."""
        made, numpy = {}, {k for k, v in self.aliases.items() if v == "numpy"}
        for node in walk(fdef):
            if not isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.For)):
                continue
            targets = node.targets if isinstance(node, gast.Assign) else [node.target]
            for target in targets:
                bound = [target] if isinstance(target, gast.Name) else [
                    e for e in getattr(target, "elts", ()) if isinstance(e, gast.Name)]
                for name in (n.id for n in bound):   # a[i] = ... binds nothing
                    ndim = self._made_ndim(node, target, numpy) if isinstance(
                        node, gast.Assign) and target is not None else None
                    made[name] = ndim if made.get(name, ndim) == ndim else None
        return {k: v for k, v in made.items() if v is not None}

    def _made_ndim(self, node, target, numpy):
        value = node.value
        if not (isinstance(target, gast.Name) and isinstance(value, gast.Call) and isinstance(
                value.func, gast.Attribute) and isinstance(value.func.value, gast.Name) and
                value.func.value.id in numpy and value.args):
            return None
        first, kind = value.args[0], value.func.attr
        if kind in ("empty", "zeros", "ones", "full"):
            if isinstance(first, gast.Tuple):
                return len(first.elts)
            if isinstance(first, gast.Name) and self._types.get(first.id) == frozenset({"int"}):
                return 1
            return None
        if kind in ("empty_like", "zeros_like", "ones_like") and isinstance(first, gast.Name):
            return self._ndim_of_types(first.id)
        return None

    def _ndim(self, name):
        """The one ndim of an array variable (scalar types ``arr:<dtype>:<ndim>``, or an
        array the function makes), or None."""
        found = self._ndim_of_types(name)
        return found if found is not None else self._made_arrays.get(name)

    def _ndim_of_types(self, name):
        kinds = self._types.get(name) or ()
        dims = {k.rsplit(":", 1)[1] for k in kinds if k.startswith("arr:")}
        if len(dims) == 1 and len(dims) == len(kinds) and next(iter(dims)).isdigit():
            return int(next(iter(dims)))
        return None

    def _reduction_ok(self, name, op):
        kinds = self._types.get(name)
        if not kinds or any(k.startswith("?") for k in kinds):
            return (f"it accumulates {name} across iterations, whose type is not known here: "
                    "serial")
        if all(k.startswith(_INT_TYPES) for k in kinds):
            return None
        if self.mode == "fast-reductions" and op in ("+", "*") and all(
                k.startswith(_NONINT_TYPES) or k.startswith(_INT_TYPES) for k in kinds):
            return None
        return (f"it accumulates {name} ({op}) across iterations, a reduction of "
                f"{'/'.join(sorted(kinds))}: in parallel the order of the operations, so the "
                "rounding, would differ from Python's (parallel='fast-reductions' allows "
                "float sums)" if op in ("+", "*") else
                f"it takes the {op} of floats in {name}: NaN's place in the order decides "
                "the result")

    def _surely_int(self, node):
        """``node`` is an integer or boolean in every path (casts, constants, names and array
        elements of integer types, their integer arithmetic)."""
        if isinstance(node, gast.Constant):
            return type(node.value) in (int, bool)
        if isinstance(node, gast.Name):
            kinds = self._types.get(node.id)
            return bool(kinds) and all(k.startswith(_INT_TYPES) for k in kinds)
        if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name):
            kinds = self._types.get(node.value.id)
            return bool(kinds) and all(k.startswith(("arr:int", "arr:uint", "arr:bool"))
                                       for k in kinds)
        if isinstance(node, gast.BinOp) and isinstance(node.op, (
                gast.Add, gast.Sub, gast.Mult, gast.FloorDiv, gast.Mod, gast.BitAnd,
                gast.BitOr, gast.BitXor, gast.LShift, gast.RShift)):
            return self._surely_int(node.left) and self._surely_int(node.right)
        if isinstance(node, gast.Compare):
            return True
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute):
            return node.func.attr in ("int8", "int16", "int32", "int64", "uint8", "uint16",
                                      "uint32", "uint64", "bool_")
        return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
            node.func.id in ("int", "bool")

    def _scalar(self, name):
        kinds = self._types.get(name)
        if name in self._plain_ints:
            return True
        return bool(kinds) and all(k.startswith(_SCALAR_TYPES) for k in kinds)

    def _nonint(self, name):
        kinds = self._types.get(name)
        return bool(kinds) and all(k.startswith(_NONINT_TYPES) for k in kinds)


def _number_names(fdef):
    """Names every assignment of which in ``fdef`` gives a number by its form: a numeric
    constant (graphjit's flags: ``s_is_python = True``), ``len(x)``, ``x.shape[k]``,
    ``x.size``/``x.ndim``, or a tuple target unpacking ``x.shape`` (``n, m = X.shape``).
    Names the scalar types do not know (the converter's own) or know only as a tuple's part."""
    found, other = set(), set()
    for node in walk(fdef):
        if not isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.For)):
            continue
        targets = node.targets if isinstance(node, gast.Assign) else [node.target]
        value = getattr(node, "value", None) if not isinstance(node, (
            gast.For, gast.AugAssign)) else None
        for target in targets:
            if isinstance(target, gast.Name) and _numeric_form(value):
                found.add(target.id)
            elif isinstance(target, gast.Tuple) and isinstance(value, gast.Attribute) and \
                    value.attr == "shape" and all(isinstance(e, gast.Name)
                                                  for e in target.elts):
                found.update(e.id for e in target.elts)
            elif isinstance(target, (gast.Name, gast.Tuple, gast.List)):
                other.update(n.id for n in walk(target) if isinstance(n, gast.Name)
                             and isinstance(n.ctx, gast.Store))
    return found - other


def _numeric_form(value):
    if isinstance(value, gast.Constant):
        return type(value.value) in (bool, int, float, complex)
    if isinstance(value, gast.Attribute):
        return value.attr in ("size", "ndim")
    if isinstance(value, gast.Subscript):
        return isinstance(value.value, gast.Attribute) and value.value.attr == "shape" and \
            isinstance(value.slice, gast.Constant)
    return isinstance(value, gast.Call) and isinstance(value.func, gast.Name) and \
        value.func.id == "len"


def _cast_operands(stmts, wide):
    """The ``e`` of each ``s = np.<int>(s op e)`` of a name in ``wide``."""
    from transpiler.analysis.dependence import reduction_cast
    found = []
    for node in walk(gast.Module(body=stmts, type_ignores=[])):
        if isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], gast.Name) and node.targets[0].id in wide:
            found.append(reduction_cast(node.value)[2].right)
    return found


def _widen_updates(stmts, wide):
    """``stmts`` with each ``s = np.<int>(s op e)`` of a name in ``wide`` (name -> (wide
    name, dtype)) made ``w = w op np.int64(e)`` (``np.uint64`` for an unsigned dtype): Numba's
    64-bit arithmetic of one signedness, wrapping."""
    from transpiler.analysis.dependence import reduction_cast
    if not wide:
        return stmts
    out = []
    for stmt in stmts:
        target = stmt.targets[0] if isinstance(stmt, gast.Assign) and len(
            stmt.targets) == 1 else None
        if isinstance(target, gast.Name) and target.id in wide:
            alias, dtype, inner = reduction_cast(stmt.value)
            w = wide[target.id][0]
            cast = _attr(_n(alias), "uint64" if dtype.startswith("u") else "int64")
            out.append(gast.copy_location(_assign(w, gast.BinOp(
                left=_n(w), op=inner.op, right=_call(cast, [inner.right]))), stmt))
            continue
        for field in ("body", "orelse"):
            if getattr(stmt, field, None) and isinstance(getattr(stmt, field), list):
                setattr(stmt, field, _widen_updates(getattr(stmt, field), wide))
        out.append(stmt)
    return out


def _is_store_of(stmt, name):
    return isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
        stmt.targets[0], gast.Name) and stmt.targets[0].id == name


def _replace_constant_stores(stmts, hits, always=()):
    """``stmts`` with each ``name = constant`` of a name in ``hits`` replaced by
    ``hit = max(hit, 1)`` (a reduction Numba's parfors recognise), and those of names in
    ``always`` (set by every iteration) removed."""
    out = []
    for stmt in stmts:
        if any(_is_store_of(stmt, name) for name in always):
            continue
        if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], gast.Name) and stmt.targets[0].id in hits:
            hit = hits[stmt.targets[0].id]
            out.append(gast.copy_location(_assign(hit, _call(_n("max"), [_n(hit), _c(1)])),
                                          stmt))
            continue
        for field in ("body", "orelse"):
            if getattr(stmt, field, None) and isinstance(getattr(stmt, field), list):
                setattr(stmt, field, _replace_constant_stores(getattr(stmt, field), hits)
                        or [gast.copy_location(gast.Pass(), stmt)])
        out.append(stmt)
    return out
