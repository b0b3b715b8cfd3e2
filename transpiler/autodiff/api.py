"""``grad`` and ``value_and_grad``: reverse-mode gradients of plain NumPy functions, Cells and
methods, made source to source (normalize -> adjoint pass -> a generated function), run by
graphjit's compiled backends in GRAPH_MODE or when the function is jitted, else as eager
NumPy (PYNATIVE_MODE).

Names and defaults are MindSpore's (``grad_position``, ``weights``, ``has_aux``), with JAX's
``argnums`` accepted as a spelling of ``grad_position`` and JAX's result structures for
``has_aux``.
"""
import re
import threading
import types

import numpy as np

from ..context import GRAPH_MODE
from ..errors import Origin
from ..registry import is_bound_jit_function, is_cell, is_jit_function
from ..settings import CONTEXT
from ..source import origin_of
from .generate import facts_of, generate

_ARRAYLIKE = (np.ndarray, np.generic, float, int, complex)


class Specialized:
    """One gradient made for the arguments' types and shapes.

    Its first call runs the generic code (adjoints that read shapes at run time), eagerly,
    keeping the shapes and dtypes of every value; from them the specialized code is written
    (static axes, NumPy calls only) and used from the second call on: compiled by graphjit
    (the NumPy graph, or Numba where there are loops) in GRAPH_MODE or for a jitted function,
    eager NumPy otherwise.
    """

    def __init__(self, owner, program, wrt, dyn_positions, weight_names, compiled):
        self.owner, self.program, self.wrt = owner, program, wrt
        self.dyn_positions, self.weight_names = dyn_positions, weight_names
        self.want_compiled = compiled
        source, entry = generate(program, wrt, owner.has_aux)
        self.generic_source = self.source = source
        self.function = self.compiled = None
        self.generic = _load(source, entry, program)
        self.input_shapes = None
        self.sgd_step = None

    def run(self, runtime, inputs):
        if self.compiled is not None:
            return self.compiled(*runtime, *inputs)
        probe = {}
        result = self.generic(*runtime, *inputs, probe)
        facts = facts_of(probe)
        source, entry = generate(self.program, self.wrt, self.owner.has_aux, facts,
                                 value=self.owner.with_value)
        self.source = source
        self.function = _load(source, entry, self.program)
        self.input_shapes = [np.shape(v) for v in inputs]
        if self.owner.sgd:      # the training step with the SGD update fused in (eager)
            count = len(self.weight_names)
            source, entry = generate(self.program, self.wrt, self.owner.has_aux, facts,
                                     sgd=count)
            self.sgd_source = source
            self.sgd_step = _load(source, entry, self.program)
        # compiled where the code is NumPy and numbers only (no list tape, no run-time
        # helper: graphjit would convert those as user code), and where compiling pays:
        # straight-line code that updates an array in place is no NumPy graph, and Numba
        # would take seconds to compile what eager NumPy runs as fast
        body = source.split("\n", 4)[-1]
        self.compilable = "_ad." not in body and ".append(" not in source and (
            has_control(self.program.body) or not _IN_PLACE.search(body))
        if self.want_compiled and self.compilable:
            from ..api import JitFunction
            self.compiled = JitFunction(self.function)
            # graphjit's own generated code: what ran as Python is in explain(), the user's
            # code gets no FallbackWarning for it
            self.compiled._quiet = True
        else:
            self.compiled = self.function
        return result

    def holds(self, inputs):
        if self.input_shapes is not None and any(
                np.shape(v) != s for v, s in zip(inputs, self.input_shapes)):
            return False
        for owner, attr, value in self.program.guards:
            try:
                now = getattr(owner, attr)
            except AttributeError:
                return False
            if now is not value and not (isinstance(value, (bool, int, float, str))
                                         and type(now) is type(value) and now == value):
                return False
        return True


def stored_names(function):
    """Names ``function``'s own code stores into (``a[i] = v``, ``a[i] += v``)."""
    import gast
    from ..source import capture
    names = set()
    for node in gast.walk(capture(function).node):
        targets = node.targets if isinstance(node, gast.Assign) else (
            [node.target] if isinstance(node, gast.AugAssign) else [])
        for target in targets:
            if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
                names.add(target.value.id)
    return names


_IN_PLACE = re.compile(r"^\s+[\w.]+\[.*\] *[-+*/]?= ", re.M)


def has_control(statements):
    """Whether the program has runtime branches or loops. Their gradient code keeps its tapes
    in Python lists, which graphjit's compilers do not take: it runs eagerly (explain()
    says so)."""
    from .values import Op
    return any(not isinstance(s, Op) for s in statements)


def _load(source, entry, program):
    """The generated function, its globals the module's and the program's constants (two
    specializations with one text share the module, not the constants)."""
    from ..loader import load_source
    module, _ = load_source(source, entry)
    plain = module.__dict__[entry]
    namespace = dict(module.__dict__)
    namespace.update(program.constants)
    return types.FunctionType(plain.__code__, namespace, entry, plain.__defaults__)


def _positions(grad_position, argnums, nargs_hint=None):
    if argnums is not None:
        grad_position = argnums
    if grad_position is None:
        return None
    if isinstance(grad_position, int):
        return grad_position
    if isinstance(grad_position, (tuple, list)) and all(isinstance(p, int)
                                                        for p in grad_position):
        return tuple(grad_position)
    raise TypeError("grad_position must be an int, a tuple of ints or None")


class GradFunction:
    """The gradient (or value and gradient) of a function; see :func:`grad`.

    Calling it with the function's arguments returns the gradients (and the value): arrays of
    the differentiated inputs' shapes and dtypes (a Python float for a float input). The
    arguments are never mutated.
    """

    def __init__(self, fn, grad_position=0, weights=None, has_aux=False, with_value=False,
                 argnums=None):
        self.fn = fn
        self.positions = _positions(grad_position, argnums)
        self.weights = list(weights) if weights is not None else None
        if self.positions is None and not self.weights:
            raise ValueError("grad_position=None needs weights: there is nothing to "
                             "differentiate with respect to")
        for w in self.weights or ():
            if not isinstance(w, np.ndarray):
                raise TypeError(f"weights must be arrays (net.trainable_params()), got "
                                f"{type(w).__name__}")
        self._weight_ids = {id(w): k for k, w in enumerate(self.weights or ())}
        self.has_aux = bool(has_aux)
        self.with_value = with_value
        self.sgd = False         # set by sgd_step: also make the fused training step
        self._lock = threading.Lock()
        self._specs = {}
        self._last = None
        self.function, self.self_obj, self.jitted = _resolve(fn)
        # a Cell differentiated itself: called as a Cell, so that its own bprop is used
        self.cell = fn if is_cell(fn) else None

    # -- calling -------------------------------------------------------------------------------

    def __call__(self, *args):
        spec, inputs = self._specialization(args)
        runtime = [args[k] for k in spec.dyn_positions]
        value, aux, grads = spec.run(runtime, inputs)
        return self._structure(spec, args, value, aux, grads)

    def sgd_step(self, learning_rate, *args):
        """One SGD step on ``weights``: ``w -= learning_rate * grad`` in place, and the value
        (before the update). From the second call on, the update is part of the generated
        code (a weight whose gradient is one product is updated by one gemm into it).
        Used by ``nn.TrainOneStepCell`` with a plain ``nn.SGD``."""
        self.sgd = True
        spec, inputs = self._specialization(args)
        runtime = [args[k] for k in spec.dyn_positions]
        if spec.sgd_step is not None:
            return spec.sgd_step(*runtime, *inputs, float(learning_rate))[0]
        value, aux, grads = spec.run(runtime, inputs)
        _, weight_grads = self._structure(spec, args, value, aux, grads)
        for w, g in zip(self.weights, weight_grads):
            w -= learning_rate * g
        return value

    def _structure(self, spec, args, value, aux, grads):
        grads = list(grads)
        positions = self.positions
        count = 0 if positions is None else (1 if isinstance(positions, int) else
                                             len(positions))
        arg_grads, weight_grads = grads[:count], grads[count:]
        if self.weights is not None:
            by_name = dict(zip(spec.weight_names, weight_grads))
            weight_grads = tuple(by_name[k] if k in by_name else np.zeros_like(w)
                                 for k, w in enumerate(self.weights))
        if positions is None:
            out = weight_grads
        else:
            out = arg_grads[0] if isinstance(positions, int) else tuple(arg_grads)
            if self.weights is not None:
                out = (out, weight_grads)
        if self.with_value:
            return ((value, aux), out) if self.has_aux else (value, out)
        return (out, aux) if self.has_aux else out

    # -- specializations ---------------------------------------------------------------------

    def _key(self, args):
        key = []
        for a in args:
            if isinstance(a, np.ndarray):
                key.append(("a", a.shape, a.dtype.str))
            elif isinstance(a, _ARRAYLIKE) and not isinstance(a, bool):
                key.append(("s", type(a)))
            else:
                key.append(("o", id(a)) if not isinstance(a, (bool, str, type(None)))
                           else ("v", type(a), a))
        compiled = CONTEXT["mode"] == GRAPH_MODE or self.jitted
        return tuple(key), compiled

    def _specialization(self, args):
        key = self._key(args)
        spec = self._specs.get(key)
        if spec is not None:
            inputs = [getattr(owner, attr, None) for owner, attr, _, _ in spec.program.inputs]
            if spec.holds(inputs) and self._weights_hold(spec, inputs):
                self._last = spec
                return spec, inputs
        with self._lock:
            spec = self._build(args, key[1])
            self._specs[key] = spec
            self._last = spec
        return spec, [getattr(owner, attr) for owner, attr, _, _ in spec.program.inputs]

    def _weights_hold(self, spec, inputs):
        """Each array the code reads (``inputs``, read once per call) is still a weight where
        it was one, and not one where it was not (a weight swapped out and back in)."""
        ids = self._weight_ids
        return all(ids.get(id(value)) == index
                   for value, (_, _, _, index) in zip(inputs, spec.program.inputs))

    def _build(self, args, compiled):
        from .normalize import Normalizer
        from .values import Dyn, Program, Static
        function = self.function
        origin = origin_of(function) or Origin("<unknown>", 0)
        program = Program(function.__name__, origin)
        positions = self.positions
        wanted = () if positions is None else (
            (positions,) if isinstance(positions, int) else positions)
        for p in wanted:
            if not -len(args) <= p < len(args):
                raise ValueError(f"grad_position {p} is out of range for {len(args)} "
                                 "argument(s)")
        wanted = [p % len(args) for p in wanted]
        params = function.__code__.co_varnames[:function.__code__.co_argcount]
        offset = 1 if self.self_obj is not None else 0
        values, dyn_positions, wrt = [], [], []
        for k, a in enumerate(args):
            name = params[k + offset] if k + offset < len(params) else f"arg{k}"
            if isinstance(a, _ARRAYLIKE) and not isinstance(a, bool):
                if k in wanted:
                    _check_differentiable(a, k, name, origin)
                dyn = Dyn(program.new_name(name), k in wanted, borrowed=True)
                program.params.append(dyn.name)
                dyn_positions.append(k)
                values.append(dyn)
            else:
                if k in wanted:
                    raise TypeError(f"{origin}: grad_position {k} ('{name}') is a "
                                    f"{type(a).__name__}, not a floating number or array")
                values.append(Static(a))
        nz = Normalizer(program, self.weights or ())
        stored = stored_names(function)
        for k, value in enumerate(values):     # the caller's arrays the function stores into:
            name = params[k + offset] if k + offset < len(params) else None   # a copy first
            if name in stored and isinstance(value, Dyn):
                values[k] = nz.op(f"{value.name}.copy()", "copy", [value], {}, origin,
                                  hint=name)
        if self.cell is not None:
            program.result = nz.cell_call(self.cell, values, {}, origin)
            program.result_origin = origin
        else:
            program.result, program.result_origin = nz.function(function, self.self_obj,
                                                                 values, {}, origin)
        by_position = {k: v for k, v in zip(range(len(args)), values)}
        wrt = [by_position[k] for k in wanted]
        weight_names = []
        for owner, attr, name, index in program.inputs:
            if index is not None and index not in weight_names:
                weight_names.append(index)
                wrt.append(nz.input_names[(id(owner), attr)])
        return Specialized(self, program, wrt, dyn_positions, weight_names, compiled)

    # -- inspection ------------------------------------------------------------------------

    def source(self):
        """The generated value-and-gradient function of the last call (forward sweep, then
        backward sweep; each line tagged with the user's line it computes or
        differentiates).

        Raises:
            RuntimeError: not called yet (the code is made for the arguments' types).
        """
        from ..specialization import GeneratedSource
        spec = self._last
        if spec is None:
            raise RuntimeError("the gradient is made at its first call: call it first")
        return GeneratedSource(spec.source)

    def explain(self):
        """What ran compiled: the generated function's ``explain()`` (GRAPH_MODE or a jitted
        function), else a note that it runs eagerly."""
        spec = self._last
        if spec is None:
            raise RuntimeError("the gradient is made at its first call: call it first")
        if spec.compiled is None:
            return f"{self.function.__name__}: called once (the generic code ran, eagerly)"
        if self.sgd and spec.sgd_step is not None:
            return (f"{self.function.__name__}: the training step (nn.TrainOneStepCell with "
                    "nn.SGD) runs its generated code eagerly, the SGD update fused into it as "
                    "BLAS gemm calls into the weights (source: .sgd_source of the "
                    "specialization); the value-and-gradient code alone: " +
                    ("compiled" if spec.compilable and spec.want_compiled else "eager"))
        if spec.compiled is spec.function:
            if spec.want_compiled:
                return (f"{spec.function.__name__}: eager: its gradient code keeps arrays on "
                        "tapes (Python lists) or calls run-time helpers (transpiler.autodiff."
                        "runtime: shapes known only at run time), which graphjit does not "
                        "compile; the generated NumPy code runs as Python")
            return (f"{spec.function.__name__}: eager (PYNATIVE_MODE): the generated NumPy "
                    "code runs as Python; set_context(mode=GRAPH_MODE) or grad(jit(f)) "
                    "compiles it")
        return spec.compiled.explain()

    def ir(self):
        """The normalized program the adjoint pass read, of the last call: the function with
        its Cells and calls inlined, one operation per line, each tagged with its line.

        Raises:
            RuntimeError: not called yet.
        """
        from ..specialization import GeneratedSource
        from .adjoint import Emitter
        spec = self._last
        if spec is None:
            raise RuntimeError("the gradient is made at its first call: call it first")
        emitter = Emitter(spec.program)
        emitter.forward(spec.program.body)
        params = list(spec.program.params) + [n for _, _, n, _ in spec.program.inputs]
        head = f"# normalized {spec.program.name} ({spec.program.origin})\n" \
               f"def {spec.program.name}({', '.join(params)}):\n"
        tail = f"\n    return {emitter.render(spec.program.result)}\n"
        return GeneratedSource(head + "\n".join(emitter.lines) + tail)


def _check_differentiable(value, position, name, origin):
    dtype = value.dtype if isinstance(value, (np.ndarray, np.generic)) else \
        np.dtype(type(value)) if not isinstance(value, int) else np.dtype(np.int64)
    if dtype.kind != "f":
        if isinstance(value, np.ndarray):
            kind, fix = f"an array of {dtype}", f"{name}.astype(np.float64)"
        elif isinstance(value, (int, float, complex)):
            kind, fix = f"a Python {type(value).__name__}", f"float({name})"
        else:
            kind, fix = f"a NumPy {dtype}", f"np.float64({name})"
        raise TypeError(f"{origin}: grad_position {position} ('{name}') is {kind}: gradients "
                        f"are taken with respect to real floating inputs (pass {fix})")


def _resolve(fn):
    """(function, bound self or None, jitted) for a function, method, Cell or jit()."""
    from .cells import construct_of
    if isinstance(fn, GradFunction):
        raise TypeError("higher-order gradients (grad of grad) are not supported yet")
    if is_cell(fn):
        function, self_obj = construct_of(fn)
        return function, self_obj, is_jit_function(type(fn).construct)
    if is_bound_jit_function(fn):
        return fn.__func__, fn.__self__, True
    if is_jit_function(fn):
        bound = getattr(fn, "_bound_self", None)
        return fn.python_function, bound, True
    if isinstance(fn, types.MethodType):
        return fn.__func__, fn.__self__, False
    if isinstance(fn, types.FunctionType):
        return fn, None, False
    raise TypeError(f"grad needs a function, a method or a Cell, got {type(fn).__name__}")


def grad(fn, grad_position=0, weights=None, has_aux=False, *, argnums=None):
    """The gradient of ``fn``, a function of arrays returning a real floating scalar.

    Args:
        fn: a Python function, method, Cell (its ``construct``) or jitted function.
        grad_position (int | tuple[int] | None): the positional arguments to differentiate
            with respect to (``argnums`` is JAX's spelling). None: only ``weights``.
        weights (list[np.ndarray] | None): arrays held by Cells (``net.trainable_params()``)
            to differentiate with respect to, by identity.
        has_aux (bool): ``fn`` returns ``(value, aux)``; aux is returned beside the gradient.

    Returns:
        GradFunction: called with ``fn``'s arguments, it returns the gradient with respect to
        ``grad_position`` (one array, or a tuple for a tuple of positions), or
        ``(input grads, weight grads)`` when both are given, or the weights' gradients alone
        for ``grad_position=None``; with ``has_aux``, ``(grads, aux)``. Each gradient has its
        input's shape and dtype.

    Raises (at the call):
        TypeError: the result is not a real floating scalar, or a differentiated input is not
            floating (an integer array), naming the user's line.
        UnsupportedConstruct: a construct the adjoint pass does not differentiate, with its
            reason and line (never a silent zero).
    """
    return GradFunction(fn, grad_position, weights, has_aux, False, argnums)


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, *, argnums=None):
    """Like :func:`grad`, returning ``(value, grads)`` (``((value, aux), grads)`` with
    ``has_aux``): the forward's result computed once with its gradient."""
    return GradFunction(fn, grad_position, weights, has_aux, True, argnums)
