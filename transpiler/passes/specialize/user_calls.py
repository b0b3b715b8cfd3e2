"""Calls to converted functions (user functions, methods, Cells, local functions, the helpers of
transpiler.helpers): each specialized for its call site into a generated function, memoized
per static arguments and argument types, structurally identical ones shared; recursion
completed once the callee is done.
"""
import types

import gast

from ...analysis.scopes import local_names, parameter_names
from ...analysis.static_values import (is_scalar, is_user_function, library_reference,
                                       LIBRARY_ROOTS, Static)
from ...errors import UnsupportedConstruct
from ...registry import is_bound_jit_function, is_cell, is_jit_function
from ...source import capture, FunctionSource
from .. import tuple_arguments
from .local_functions import LocalFunction, NotYetDefined
from ...analysis.scalar_types import UNKNOWN as UNKNOWN_TYPE
from ...analysis.merge_problems import _names
from ...island_frames import UNTYPED_CHECK
from .nodes import _Converted, _generated_name, _load


def _static_key(value):
    if isinstance(value, LocalFunction):
        return ("local", id(value.node), tuple(c for c, _ in value.captures))
    if is_scalar(value):
        return ("value", type(value).__name__, repr(value))
    return ("id", id(value))


# the dtypes a value island may give compiled code (backends/runtime/islands.py unboxes them)
_ISLAND_DTYPES = frozenset(("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                            "uint32", "uint64", "float32", "float64", "complex64",
                            "complex128"))


class UserCalls:
    """Calls converted into calls of generated functions."""

    def python_island(self, node, island):
        """A call of a Python island (transpiler.island_frames, made by transpiler.split):
        ``python_island(slot, kinds, (reads...))``, each read's type string telling how Python
        holds it (compiled code boxes an np.float64 as a float). A read of no one known type
        (a Python int or an np.int64 by path) cannot be boxed as Python holds it: refused."""
        kinds, values = [], []
        for arg in node.args:
            found = self.scalar_types.of(arg) if self.scalar_types is not None else set()
            if len(found) > 1 and not UNTYPED_CHECK.get():
                # a float or an np.float64 by path: which one reaches this read
                boxed = self.scalar_types.boxed_as(arg)
                found = {boxed} if boxed is not None else found
            if UNTYPED_CHECK.get():
                found = {UNKNOWN_TYPE}      # (checked before any call: typed at the call)
            elif len(found) != 1 or not (next(iter(found)) in ("int", "float", "bool",
                                                                 "complex") or
                                         next(iter(found)).startswith(("np:", "arr:"))):
                self.fail(arg, f"the statement at line {island.origin.lineno} runs as Python "
                               f"inside the compiled loop, but {arg.id!r} is "
                               f"{_names(found) or 'of no type known'} there, by path: "
                               "compiled code could not give it to Python as Python holds it")
            kinds.append(next(iter(found)))
            values.append(self._m(self.expr(arg), arg))
        packed = gast.Tuple(elts=values, ctx=gast.Load())
        result = island.result_kind or ""
        kinds = ";".join(kinds)
        if island.gives_value:
            result = self._island_value_kind(node, island)
            kinds += "|" + result       # checked when it runs (island_frames.call_island)
        call = gast.Call(func=self.program.ir_symbol("python_island").ref(), args=[
            gast.Constant(value=island.slot, kind=None),
            gast.Constant(value=kinds, kind=None), packed,
            gast.Constant(value=result, kind=None)], keywords=[])
        return gast.copy_location(call, node)

    def _island_value_kind(self, node, island):
        """The one type string of a value island's value (its statement's expression, typed
        by the scalar analysis): a Python number, a NumPy scalar or an array of a dtype
        compiled code holds; else the statement stays Python with its loop."""
        if UNTYPED_CHECK.get():
            return "float"      # (checked before any call: typed at the call)
        found = self.scalar_types.of(node) if self.scalar_types is not None else set()
        kind = next(iter(found)) if len(found) == 1 else None
        dtype = kind.split(":")[1] if kind and kind.startswith(("np:", "arr:")) else None
        if kind is None or not (kind in ("int", "float", "bool", "complex") or (
                dtype is not None and dtype in _ISLAND_DTYPES)):
            self.fail(node, f"the statement at line {island.origin.lineno} runs as Python "
                            "inside the compiled loop, but the value it gives compiled code "
                            f"is {_names(found) or 'of no type known'} there (compiled code "
                            "takes a number or an array of one type)")
        return kind

    def _user_callable(self, callee, node):
        """``(python function, bound self Static or None)`` for a call graphjit converts."""
        fn = callee.value
        path = callee.path
        # A bound method's object is re-read through the method itself: ``holder.method`` is
        # the holder's method, but a bound method stored as an attribute (``self.f =
        # self.inner.construct``) belongs to another object than the one holding it.
        parent = path.child(".", "__self__") if path is not None and len(path) > 1 else None
        if isinstance(fn, LocalFunction):
            return fn, None
        if isinstance(fn, NotYetDefined):
            self.fail(node, f"this calls {fn!r}")
        if is_jit_function(fn):
            return fn.python_function, None
        if is_bound_jit_function(fn):
            return fn.__func__, Static(fn.__self__, parent)
        if is_cell(fn):
            construct = type(fn).construct
            construct = getattr(construct, "python_function", construct)
            return construct, callee
        if isinstance(fn, types.MethodType) and not isinstance(fn.__self__, type):
            if library_reference(fn.__func__) is None and isinstance(
                    fn.__func__, types.FunctionType):
                return fn.__func__, Static(fn.__self__, parent)
            return None
        if is_user_function(fn):
            return fn, None
        if isinstance(fn, type):
            if fn.__module__.split(".")[0] in LIBRARY_ROOTS:
                return None
            self.fail(node, f"creating a {fn.__qualname__} object in compiled code is not "
                            "converted")
        call = getattr(type(fn), "__call__", None)
        if isinstance(call, types.FunctionType) and library_reference(call) is None:
            return call, callee
        return None

    def _call_user(self, node, fn, self_static):
        """Specialize ``fn`` for this call site and call the generated function."""
        if any(isinstance(a, gast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            self.fail(node, "*args / **kwargs at a call are not converted yet")
        bound, dynamic_nodes = {}, {}
        if isinstance(fn, LocalFunction):
            source, defaults, qualname = fn.source(), dict(fn.defaults), fn.name
            given = parameter_names(source.node)
            for captured, var in fn.captures:   # captured locals: passed as leading arguments
                given.remove(captured)
                dynamic_nodes[captured] = _load(var)
            bound.update(fn.static_captures)
            given = [g for g in given if g not in fn.static_captures]
            key_fn = fn.node
        else:
            try:
                source = capture(fn)
            except UnsupportedConstruct as exc:
                self.fail(node, f"cannot convert the call to {fn.__qualname__}: {exc.reason}")
            fargs = source.node.args
            if fargs.vararg or fargs.kwarg or fargs.kwonlyargs or fargs.posonlyargs:
                self.fail(node, f"calling {fn.__module__}.{fn.__qualname__} is not converted: "
                                "it takes *args, **kwargs, keyword-only or positional-only "
                                "parameters")
            given = parameter_names(source.node)
            defaults = {name: Static(value) for name, value in zip(
                reversed(given), reversed(fn.__defaults__ or ()))}
            qualname, key_fn = _generated_name(fn), fn
        if self_static is not None:
            bound[given.pop(0)] = self_static
        if len(node.args) > len(given):
            self.fail(node, f"{qualname}() takes {len(given)} arguments, {len(node.args)} given")
        args = dict(zip(given, node.args))
        for kw in node.keywords:
            if kw.arg not in given or kw.arg in args:
                self.fail(node, f"{qualname}() got an unexpected or repeated keyword argument "
                                f"{kw.arg!r}")
            args[kw.arg] = kw.value
        # A tuple display passed (`inner((a, x))`, or a tuple argument of the entry, which
        # reads as one): one parameter per item, each typed (passes/tuple_arguments).
        split = {}
        for name in list(given):
            value = args.get(name)
            if not self.fidelity or not isinstance(value, gast.Tuple) or not value.elts or any(
                    isinstance(e, gast.Starred) for e in value.elts):
                continue
            items = tuple_arguments.item_names(name, len(value.elts), local_names(source.node))
            rewritten = tuple_arguments.desugar(source.node, name, items)
            if rewritten is None:
                continue
            source = FunctionSource(source.function, source.filename, rewritten)
            position = given.index(name)
            given[position:position + 1] = items
            del args[name]
            args.update(zip(items, value.elts))
            split[name] = tuple(items)
        extra = []
        for name in given:
            if name in args:
                result = self.expr(args[name])
            elif name in defaults:
                result = defaults[name]
            else:
                self.fail(node, f"{qualname}() missing argument {name!r}")
            if isinstance(result, Static) and isinstance(result.value, LocalFunction):
                # A function passed as an argument: its captured locals travel with it.
                local_fn = result.value
                moved = []
                for capture_name, var in local_fn.captures:
                    param = f"{name}_{capture_name}"
                    dynamic_nodes[param] = _load(var)
                    extra.append(param)
                    moved.append((capture_name, param))
                result = Static(local_fn.with_captures(moved), result.path)
                bound[name] = result
            elif isinstance(result, Static) and not library_reference(result.value):
                bound[name] = result
            else:
                dynamic_nodes[name] = self._m(result, args.get(name, node))
        typed_args = dict(args)
        if isinstance(fn, LocalFunction):   # captured locals are typed as arguments are
            typed_args.update((captured, _load(var)) for captured, var in fn.captures)
        typed_args.update((param, dynamic_nodes[param]) for param in extra)   # ... and those
        # of a nested function passed on
        typed = self._argument_types(typed_args, dynamic_nodes)
        key = (key_fn, ) + tuple(sorted(
            (name, _static_key(s.value)) for name, s in bound.items())) + (
            ("types",) + tuple(sorted(typed[3].items())), ("split",) + tuple(sorted(
                split.items())))
        if key in self.program.in_progress:
            return self._recursive_call(node, self.program.in_progress[key], dynamic_nodes)
        if key not in self.program.memo:
            symbol = self.program.function_symbol(qualname)
            python_params, numpy_params, array_params, param_types = typed
            specializer = type(self)(self.program, source, bound, extra,
                                      python_params=python_params, numpy_params=numpy_params,
                                      array_params=array_params, param_types=param_types)
            self.program.in_progress[key] = specializer
            try:
                generated = specializer.run(symbol)
            finally:
                del self.program.in_progress[key]
            canonical = generated if specializer.recursive_calls else self._dedup(generated)
            if canonical is generated and generated not in self.program.functions:
                self.program.functions.append(generated)
            self.program.memo[key] = canonical, generated.inputs
        generated, inputs = self.program.memo[key]
        call_args = [dynamic_nodes[p] for p in generated.dynamic_params]
        call_args += [self.runtime_input(path) for _, path in inputs]
        return gast.Call(func=generated.symbol.ref(), args=call_args, keywords=[])

    def _argument_types(self, args, dynamic_nodes):
        """What this call site knows of the runtime arguments of a converted callee, so that
        the callee computes as Python and NumPy would (NEP 50 for a Python float argument,
        float32 elements of an array argument, merges by path): ``(python_params,
        numpy_params, array_params, param_types)`` as ``specialize`` builds them for an entry
        from the argument values. An argument of several types by path stays unknown."""
        python_params, numpy_params, array_params, param_types = {}, set(), {}, {}
        if self.scalar_types is None:
            return python_params, numpy_params, array_params, param_types
        for name, node in args.items():
            if name not in dynamic_nodes or isinstance(node, _Converted):
                continue
            kinds = self.scalar_types.of(node)
            if len(kinds) != 1:
                continue
            kind = next(iter(kinds))
            if kind in ("int", "float") and self.numbers.is_python(node):
                python_params[name] = kind
            elif kind.startswith("np:") and self.numbers.is_numpy_scalar(node):
                numpy_params.add(name)
            elif kind.startswith("arr:"):
                array_params[name] = int(kind.split(":")[2])
            else:
                continue
            param_types[name] = kind
        return python_params, numpy_params, array_params, param_types

    def _recursive_call(self, node, target, dynamic_nodes):
        """A call to a function still being specialized (recursion): its runtime inputs are
        known only when it is done, so the call is completed then."""
        call = gast.Call(func=target.symbol.ref(),
                         args=[dynamic_nodes[p] for p in target.dynamic_params], keywords=[])
        target.recursive_calls.append((call, self, node))
        return call

    def _dedup(self, generated):
        """Share structurally identical generated functions (two ReLUs, three Dense layers)."""
        saved = generated.node.name
        generated.node.name = ""
        key = gast.dump(generated.node)
        generated.node.name = saved
        existing = self.program.dedup.get(key)
        if existing is not None:
            return existing
        self.program.dedup[key] = generated
        return generated

    def _call_helper(self, node, fn, values):
        """Call the transpiler.helpers function ``fn`` on generated expressions."""
        call = gast.Call(func=node, args=[_Converted(v) for v in values], keywords=[])
        return gast.copy_location(self._call_user(call, fn, None), node)
