"""The numba-cuda backend's region planner: which GPU mapping a program's entry function gets
(network, element-wise function or loops; see :mod:`backends.numba_cuda`), and the definitions
that mapping emits (device functions, kernels, their CPU twins and the host driver).
"""
import copy

import gast

from transpiler.analysis import liveness
from transpiler.analysis.definite_assignment import annotate_defined
from transpiler.analysis.dependence import (NUMPY_TO_MATH, classify_loop, function_problem,
                                            range_loop)
from transpiler.analysis.activity import writes
from transpiler.analysis.scopes import local_names, parameter_names
from transpiler.ir import CHECKED_INT
from transpiler.number_rules import NUMPY_DIVISION_HELPERS

from .cuda_kernels import ERR, DEVICE_SUFFIX, DeviceRewriter, device_statements
from transpiler.nodes import copy_tree, ufunc_call, walk

_GRAPH_ATTRS = {"T", "shape", "dtype", "type", "reshape", "ndim"}
_GRAPH_NUMPY = {"dot", "matmul", "maximum", "minimum", "add", "subtract", "multiply"}
_GRAPH_OPS = (gast.Add, gast.Sub, gast.Mult, gast.MatMult, gast.Div)
_ELEMENTWISE_NUMPY = set(NUMPY_TO_MATH) | {"maximum", "minimum"}
_FIDELITY_OPERATORS = {name: getattr(gast, op) for name, op in NUMPY_DIVISION_HELPERS.items()}


def _n(identifier, store=False):
    return gast.Name(id=identifier, ctx=gast.Store() if store else gast.Load(),
                     annotation=None, type_comment=None)


def _const(value):
    return gast.Constant(value=value, kind=None)


def _tuple(elts):
    return gast.Tuple(elts=list(elts), ctx=gast.Load())


def _attr(value, attr):
    return gast.Attribute(value=value, attr=attr, ctx=gast.Load())


def _call(func, args):
    return gast.Call(func=func, args=list(args), keywords=[])


def _locate(node, where):
    for child in walk(node):   # new nodes take ``where``; copied ones keep their lines
        if "lineno" in getattr(child, "_attributes", ()) and getattr(
                child, "lineno", None) is None:
            gast.copy_location(child, where)
            if getattr(child, "end_lineno", None) is None:
                child.end_lineno, child.end_col_offset = child.lineno, child.col_offset
    return node


def _def(name, params, body, where):
    args = gast.arguments(args=[_n(p, store=False) for p in params], posonlyargs=[],
                          vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    for a in args.args:
        a.ctx = gast.Param()
    node = gast.FunctionDef(name=name, args=[], body=[], decorator_list=[], returns=None,
                            type_comment=None, type_params=[])
    _locate(node, where)
    node.args = _locate(args, where)
    for stmt in body:     # statements keep their own lines; new ones take the def's
        if getattr(stmt, "lineno", None) is None:
            _locate(stmt, where)
    node.body = body
    return node


def _contains(node, kinds):
    return any(isinstance(n, kinds) for n in walk(node))


class _Planner:
    """Chooses the GPU mapping of a program's entry function and builds its definitions."""

    def __init__(self, backend, program):
        self.backend = backend
        self.program = program
        self.entry = program.entry
        self.functions = {fn.symbol.name: fn for fn in program.functions}
        self.nodes = {name: backend.function_node(fn) for name, fn in self.functions.items()}
        self._plain_reshapes()
        self.aliases = {alias: module for module, alias in program.imports()}
        self.numpy = {a for a, m in self.aliases.items() if m == "numpy"}
        self.entry_name = self.entry.symbol.name
        self.filename = self.entry.filename
        self.driver_name = self.entry_name + "__gpu"
        self.rows = []
        self.sites = []
        self.mapping = "cpu"
        self._device_problems = {}
        # graphjit's NumPy-rules helpers (transpiler.helpers.numpy_arith): on the device the plain operator with a
        # flagged zero divisor (the CPU rerun then gives NumPy's inf/nan/0 and its warning).
        self.operators = {name: _FIDELITY_OPERATORS[fn.qualname]
                          for name, fn in self.functions.items()
                          if fn.qualname in _FIDELITY_OPERATORS and fn.is_helper}
        # Checked Python-int operators (transpiler.ir.CHECKED_INT): on the device the
        # operator with a flagged overflow (the CPU rerun then raises or runs as Python).
        self.checked = {alias: form for form, alias in program.ir_imports()
                        if form in CHECKED_INT}
        # The final name of transpiler.ir.weak here (a user's local ``weak`` renames it).
        self.weak = program.ir_name("weak")

    def origin(self, line):
        from transpiler.errors import Origin
        return Origin(self.filename, line)

    def site(self, region, line, plan):
        self.sites.append((region, self.filename, line, plan))
        return len(self.sites) - 1

    # -- choosing ---------------------------------------------------------------------------

    def plan(self):
        root = self.nodes[self.entry_name]
        reached = self._reached(self.entry_name)
        if all(self._graph_ok(self.nodes[n]) for n in reached) and any(
                self._has_matmul(self.nodes[n]) for n in reached):
            self.mapping = "network"
            return self._network(root, reached)
        if self._elementwise_ok(self.entry_name, set()):
            self.mapping = "element-wise"
            return self._elementwise(root, reached)
        emitted = self._loops(root)
        if emitted:
            self.mapping = "loops"
            return emitted
        if not self.rows:
            self.rows.append(("function", self.origin(root.lineno), "cpu",
                              "no independent loop, element-wise function or network to map "
                              "to the GPU: compiled for the CPU"))
        return []

    def _reached(self, name, seen=None):
        seen = [] if seen is None else seen
        if name in seen:
            return seen
        seen.append(name)
        for node in walk(self.nodes[name]):
            if isinstance(node, gast.Name) and node.id in self.functions:
                self._reached(node.id, seen)
        return seen

    def _module_attr(self, node, module):
        return (isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name)
                and self.aliases.get(node.value.id) == module)

    def _graph_ok(self, fdef):
        """Array code without effects: what ``runtime.cuda_graph`` runs on device tensors."""
        for stmt in fdef.body:
            if isinstance(stmt, gast.Return) or (isinstance(stmt, gast.Expr) and isinstance(
                    stmt.value, gast.Constant)):
                continue
            if not (isinstance(stmt, gast.Assign) and all(
                    isinstance(t, gast.Name) for t in stmt.targets)):
                return False
        for node in walk(gast.Module(body=fdef.body, type_ignores=[])):
            if isinstance(node, gast.BinOp) and not isinstance(node.op, _GRAPH_OPS):
                return False
            if isinstance(node, gast.UnaryOp) and not (
                    isinstance(node.op, gast.USub) and isinstance(node.operand, gast.Constant)):
                return False
            if isinstance(node, (gast.BoolOp, gast.Compare, gast.IfExp, gast.Lambda,
                                 gast.Starred, gast.Slice)):
                return False
            if isinstance(node, gast.Subscript) and not (
                    isinstance(node.value, gast.Attribute) and node.value.attr == "shape"):
                return False
            if isinstance(node, gast.Attribute):
                if self._module_attr(node, "numpy"):
                    if node.attr not in _GRAPH_NUMPY:
                        return False
                elif node.attr not in _GRAPH_ATTRS:
                    return False
            if isinstance(node, gast.Call):
                func = node.func
                if node.keywords:
                    return False
                if isinstance(func, gast.Name) and func.id not in self.functions and \
                        func.id != self.weak and func.id not in self.checked:
                    return False
        return True

    def _has_matmul(self, fdef):
        return any((isinstance(n, gast.BinOp) and isinstance(n.op, gast.MatMult)) or (
            self._module_attr(n, "numpy") and n.attr in ("dot", "matmul"))
            for n in walk(fdef))

    def _elementwise_ok(self, name, seen):
        """Straight-line arithmetic of its parameters and NumPy element-wise functions: the
        same function of arrays and of their elements (NumPy's ufunc rules)."""
        if name in seen:
            return False    # recursion: not straight-line
        seen = seen | {name}
        fdef = self.nodes[name]
        body = fdef.body
        if not body or not isinstance(body[-1], gast.Return) or body[-1].value is None or \
                isinstance(body[-1].value, gast.Tuple):
            return False
        for stmt in body[:-1]:
            if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], gast.Name)):
                return False
        if not any(isinstance(n, (gast.BinOp, gast.UnaryOp, gast.Call, gast.Compare))
                   for n in walk(gast.Module(body=body, type_ignores=[]))):
            return False    # returns an argument itself: no copy may be made
        for node in walk(gast.Module(body=body, type_ignores=[])):
            if isinstance(node, (gast.Subscript, gast.IfExp, gast.BoolOp, gast.Lambda,
                                 gast.Tuple, gast.List, gast.Starred, gast.Slice)):
                return False
            if isinstance(node, gast.Compare) and len(node.ops) != 1:
                return False
            if isinstance(node, gast.Attribute) and not (
                    self._module_attr(node, "numpy") and node.attr in _ELEMENTWISE_NUMPY):
                return False
            if isinstance(node, gast.Call):
                func = node.func
                if node.keywords:
                    return False
                if isinstance(func, gast.Name):
                    if func.id == self.weak or func.id in self.checked:
                        continue
                    if func.id not in self.functions or not self._elementwise_ok(func.id, seen):
                        return False
        return True

    def _plain_reshapes(self):
        """``numpy_reshape(a, shape)`` (transpiler.helpers.numpy_calls: NumPy's errors and strides on the
        CPU) as ``a.reshape(shape)`` in the planner's copies: device tensors and kernels see
        the method they map (device tensors are contiguous; the CPU code keeps the check)."""
        helpers = {name for name, fn in self.functions.items()
                   if fn.qualname == "numpy_reshape" and fn.is_helper}
        # transpiler.ir.untyped_operand and opaque: device code takes the operand itself
        # (CUDA's pow is libdevice's, not the host libm that opaque keeps for the CPU)
        for form in ("untyped_operand", "opaque"):
            stripped = self.program.ir_name(form)
            if stripped:
                for node in self.nodes.values():
                    _strip_calls(node, stripped)
        # transpiler.ir.ufunc_loop: device code calls the ufunc (CUDA has no NumPy loops)
        loops = self.program.ir_name("ufunc_loop")
        if loops:
            for node in self.nodes.values():
                _strip_calls(node, loops, first_called=True)
        if not helpers:
            return
        for node in self.nodes.values():
            for call in walk(node):
                if isinstance(call, gast.Call) and isinstance(call.func, gast.Name) and \
                        call.func.id in helpers and len(call.args) == 2:
                    array, shape = call.args
                    call.func = gast.Attribute(value=array, attr="reshape", ctx=gast.Load())
                    call.args = [shape]

    def _device_problem(self, name):
        """None when the program function ``name`` can be a device function."""
        if name in self.operators or name in self.checked:
            return None
        if name not in self.functions:
            return f"it calls {name}, which has no GPU implementation here"
        if name not in self._device_problems:
            self._device_problems[name] = "recursion"     # until decided
            self._device_problems[name] = function_problem(
                self.nodes[name], self._device_problem, self.aliases)
        return self._device_problems[name]

    # -- emitting ---------------------------------------------------------------------------

    def _rewriter(self, check_division):
        return DeviceRewriter(set(self.functions) - set(self.operators), self.numpy,
                              "_gj_math", check_division, self.operators, self.checked,
                              self.weak)

    def _device_defs(self, names, check_division):
        """``<name>__dev(params..., _err)`` device versions of program functions."""
        out = []
        for name in names:
            fdef = self.nodes[name]
            body = device_statements(fdef.body, self._rewriter(check_division))
            node = _def(name + DEVICE_SUFFIX, parameter_names(fdef) + [ERR], body, fdef)
            out.append((node, self.functions[name].filename, "@cuda.jit(device=True)"))
        return out

    def _python_defs(self, names):
        """``<name>__py``: the functions as plain Python, calling each other (not the CPU
        dispatchers), for device tensors and for NumPy's dtype of a map."""
        out = []
        for name in names:
            fdef = copy_tree(self.nodes[name])
            for node in walk(fdef):
                if isinstance(node, gast.Name) and node.id in self.functions:
                    node.id += "__py"
            fdef.name = name + "__py"
            out.append((fdef, self.functions[name].filename, None))
        return out

    def _params(self):
        return parameter_names(self.nodes[self.entry_name])

    def _driver(self, body_of):
        root = self.nodes[self.entry_name]
        params = self._params()
        return (_def(self.driver_name, params, body_of(params, root), root), self.filename,
                None)

    def _network(self, root, reached):
        index = self.site("network", root.lineno,
                          "kernel launches on device-resident arrays: tiled shared-memory "
                          "matmul with the bias add and ReLU fused into its epilogue, "
                          "element-wise kernels for the rest; inputs copied in once, the "
                          "result out once")

        def body(params, where):
            call = _call(_attr(_n("_gpu"), "run_graph"), [
                _n(self.entry_name + "__py"), _n(self.entry_name),
                gast.Subscript(value=_n("_GJ_SITES"), slice=_const(index), ctx=gast.Load()),
                _tuple(_const(p) for p in params), _tuple(_n(p) for p in params)])
            return [_locate(gast.Return(value=call), where)]
        return self._python_defs(reached) + [self._driver(body)]

    def _elementwise(self, root, reached):
        index = self.site("element-wise function", root.lineno,
                          f"device function {self.entry_name}{DEVICE_SUFFIX} mapped by the "
                          f"grid-stride kernel {self.entry_name}__map")
        params = self._params()
        # kernel(_err, _gj_n, _gj_out, p0, _gj_s0, p1, _gj_s1, ...)
        kernel_params = [ERR, "_gj_n", "_gj_out"]
        elements = []
        for i, p in enumerate(params):
            kernel_params += [p, f"_gj_s{i}"]
            elements.append(gast.Subscript(value=_n(p), slice=gast.BinOp(
                left=_n("_gj_k"), op=gast.Mult(), right=_n(f"_gj_s{i}")), ctx=gast.Load()))
        store = gast.Assign(targets=[gast.Subscript(value=_n("_gj_out"), slice=_n("_gj_k"),
                                                    ctx=gast.Store())],
                            value=_call(_n(self.entry_name + DEVICE_SUFFIX), elements + [_n(ERR)]),
                            type_comment=None)
        loop = gast.For(target=_n("_gj_k", True), iter=_grid_stride(_n("_gj_n")),
                        body=[store], orelse=[], type_comment=None)
        kernel = _def(self.entry_name + "__map", kernel_params, [_locate(loop, root)], root)

        def body(params, where):
            call = _call(_attr(_n("_gpu"), "map_elementwise"), [
                _n(self.entry_name + "__map"), _n(self.entry_name), _n(self.entry_name + "__py"),
                gast.Subscript(value=_n("_GJ_SITES"), slice=_const(index), ctx=gast.Load()),
                _tuple(_const(p) for p in params), _tuple(_n(p) for p in params)])
            return [_locate(gast.Return(value=call), where)]
        return (self._python_defs(reached) + self._device_defs(reached, False)
                + [(kernel, self.filename, "@cuda.jit"), self._driver(body)])

    def _loops(self, root):
        root = copy_tree(root)
        liveness.annotate(root)
        all_locals = local_names(root)
        annotate_defined(root, all_locals)
        self._emitted, self._device_names, self._independent = [], [], 0
        new_body = self._block(root.body, all_locals)
        if new_body is None or not self._independent:
            return []
        emitted, device_names = self._emitted, self._device_names
        closure = []
        for name in device_names:
            closure.extend(n for n in self._reached(name)
                           if n not in closure and n not in self.operators)
        emitted = self._device_defs(closure, True) + emitted
        params = self._params()
        first = gast.Expr(value=_call(_attr(_n("_gpu"), "compile_cpu_first"), [
            _n(self.entry_name), _tuple(_n(p) for p in params)]))
        driver = _def(self.driver_name, params, [_locate(first, root)] + new_body, root)
        return emitted + [(driver, self.filename, None)]

    def _block(self, stmts, all_locals):
        """The driver's statements for ``stmts``: independent range() loops become launches,
        an ``if`` holding loops is walked into (the driver runs it, as Python), other statements
        holding loops become CPU regions, the rest stays as it is. None: no driver possible."""
        out = []
        for stmt in stmts:
            if range_loop(stmt):
                verdict = classify_loop(stmt, stmt.live_out, self._device_problem,
                                        self.aliases)
                if verdict.independent:
                    self._independent += 1
                    defs, call = self._loop_kernel(stmt, verdict, all_locals)
                    self._emitted.extend(defs)
                    out.append(call)
                    self._device_names.extend(n.id for n in walk(stmt) if isinstance(
                        n, gast.Name) and n.id in self.functions)
                    continue
                self.rows.append(("loop", self.origin(stmt.lineno), "cpu",
                                  f"its iterations are not independent: {verdict.reason}"))
            elif isinstance(stmt, gast.If) and _contains(stmt, (gast.For, gast.While)):
                stmt = copy.copy(stmt)
                stmt.body = self._block(stmt.body, all_locals)
                stmt.orelse = self._block(stmt.orelse, all_locals)
                if stmt.body is None or stmt.orelse is None:
                    return None
                stmt.body = stmt.body or [_locate(gast.Pass(), stmt)]
                out.append(stmt)
                continue
            elif _contains(stmt, (gast.For, gast.While)):
                self.rows.append(("loop", self.origin(stmt.lineno), "cpu",
                                  "not a loop over range() (a while loop, a for over an array, "
                                  "or a loop inside one): only range() loops map to the GPU"))
            if _contains(stmt, (gast.For, gast.While)):
                region, why = self._cpu_region(stmt, all_locals)
                if region is None:
                    self.rows.append(("function", self.origin(stmt.lineno), "cpu",
                                      f"the loop at line {stmt.lineno} cannot run as a CPU "
                                      f"region between GPU kernels ({why}): the whole function "
                                      "runs on the CPU"))
                    return None
                self._emitted.append(region[0])
                out.append(region[1])
                continue
            out.append(stmt)
        return out

    def _loop_kernel(self, loop, verdict, all_locals):
        """The kernel and CPU twin of an independent loop, and the driver's launch."""
        line = loop.lineno
        name = f"{self.entry_name}__loop_{line}"
        inputs = [v for v in verdict.inputs if v in all_locals]
        index = self.site("loop", line, f"kernel {name}, one thread per iteration "
                                        "(grid-stride)")
        var = verdict.variable
        body = device_statements(loop.body, self._rewriter(True))
        first = gast.Assign(targets=[_n(var, True)], value=gast.BinOp(
            left=_n("_gj_start"), op=gast.Add(), right=gast.BinOp(
                left=_n("_gj_k"), op=gast.Mult(), right=_n("_gj_step"))), type_comment=None)
        grid_loop = gast.For(target=_n("_gj_k", True), iter=_grid_stride(_n("_gj_count")),
                             body=[_locate(first, loop)] + body, orelse=[], type_comment=None)
        kernel = _def(name, [ERR, "_gj_start", "_gj_step", "_gj_count"] + inputs,
                      [_locate(grid_loop, loop)], loop)
        cpu_loop = gast.For(target=_n(var, True), iter=_call(_n("range"), [
            _n("_gj_start"), _n("_gj_stop"), _n("_gj_step")]), body=copy_tree(loop.body),
            orelse=[], type_comment=None)
        cpu = _def(name + "__cpu", inputs + ["_gj_start", "_gj_stop", "_gj_step"],
                   [_locate(cpu_loop, loop)], loop)
        stored = [inputs.index(a) for a in verdict.stored if a in inputs]
        launch = gast.Expr(value=_call(_attr(_n("_gpu"), "launch_loop"), [
            _n(name), _n(name + "__cpu"),
            gast.Subscript(value=_n("_GJ_SITES"), slice=_const(index), ctx=gast.Load()),
            _tuple(_const(v) for v in inputs), copy_tree(loop.iter),
            _tuple(_n(v) for v in inputs), _tuple(_const(i) for i in stored)]))
        return ([(kernel, self.filename, "@cuda.jit"), (cpu, self.filename, "@_jit")],
                _locate(launch, loop))

    def _cpu_region(self, stmt, all_locals):
        """A statement with loops as a CPU-compiled function of its inputs returning its
        outputs (as transpiler.split does for Python drivers), and the driver's call."""
        if _contains(stmt, (gast.Return,)):
            return None, "it may return from the function"
        if _contains(stmt, (gast.FunctionDef, gast.Lambda)):
            return None, "it defines a function"
        outputs = sorted(writes(stmt) & set(getattr(stmt, "live_out", ())) & all_locals)
        inputs = sorted(liveness.live_in([stmt], set(outputs)) & all_locals)
        defined = getattr(stmt, "defined_in", None)
        if defined is None or any(v not in defined for v in inputs):
            return None, "one of its inputs may be undefined where it starts"
        name = f"{self.entry_name}__cpu_{stmt.lineno}"
        value = (_n(outputs[0]) if len(outputs) == 1 else _tuple(_n(o) for o in outputs)) \
            if outputs else None
        fdef = _def(name, inputs, [copy_tree(stmt), _locate(gast.Return(value=value),
                                                                 stmt)], stmt)
        call = _call(_n(name), [_n(v) for v in inputs])
        if not outputs:
            use = gast.Expr(value=call)
        else:
            target = _n(outputs[0], True) if len(outputs) == 1 else gast.Tuple(
                elts=[_n(o, True) for o in outputs], ctx=gast.Store())
            use = gast.Assign(targets=[target], value=call, type_comment=None)
        return ((fdef, self.filename, "@_jit"), _locate(use, stmt)), None


def _grid_stride(count):
    """``range(cuda.grid(1), count, cuda.gridsize(1))``: each thread takes every
    gridsize-th index, so any count runs on any grid."""
    cuda = _n("cuda")
    return _call(_n("range"), [_call(_attr(cuda, "grid"), [_const(1)]), count,
                               _call(_attr(cuda, "gridsize"), [_const(1)])])


def _strip_calls(node, name, first_called=False):
    """Replace each one-argument call of ``name`` in ``node`` by its argument (in place);
    with ``first_called``, each call ``name(f, *args)`` by ``f(*args)``."""
    class Strip(gast.NodeTransformer):
        def visit_Call(self, call):
            self.generic_visit(call)
            if not isinstance(call.func, gast.Name) or call.func.id != name or call.keywords:
                return call
            if first_called and call.args:
                return ufunc_call(call)
            if not first_called and len(call.args) == 1:
                return call.args[0]
            return call
    for field, value in gast.iter_fields(node):
        if isinstance(value, list):
            setattr(node, field, [Strip().visit(v) if isinstance(v, gast.AST) else v
                                  for v in value])
