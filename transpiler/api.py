"""``jit`` and the JitFunction object: dispatch, specialization cache, fallback policy.

A call binds its arguments, finds the specialization whose guards hold
(transpiler.specialization), else makes one (transpiler.pipeline: capture, specialize, lower,
load) or falls back to Python, whole or split into compiled loops (transpiler.split). The
``explain()`` report is transpiler.explain. See docs/ARCHITECTURE.md.
"""
import functools
import inspect
import os
import threading
import types
import weakref

from .bound import BoundJitFunction
from .arguments import argument_facts, argument_problem, bind_values, is_data, numba_types
from .context import default_backend, env_flag, parallel_value
from .errors import (SourceUnavailable, TranspileError, UnsupportedConstruct,
                     translate_numba_error)
# Explanation, ExplainRow, GeneratedSource and Specialization: still importable from here.
from .explain import Explanation, ExplainRow, explain  # noqa: F401
from .graph_dispatch import MISS, graph_call, remember_graph
from .island_frames import UNTYPED_CHECK
from .python_scope import run_reaching
from .raise_sites import note_raise_site
from .registry import register
from .result_box_check import box_problem
from .source import origin_of
from .specialization import (GeneratedSource, SpecializationCache,  # noqa: F401
                             Specialization, _find, _holds_for, comment, specialization_of)
from .fallback import Fallback
from .fast_path import (_DISABLE_KEY, _ENV_DATA, _MISS, FastPath, disable_may_be_set,
                        fullgraph_may_be_set)
from .type_keys import values_key



def _nothing(rerun):
    return None


class JitFunction(SpecializationCache, FastPath, Fallback):
    """A function compiled on first call; see :func:`jit`.

    Attributes:
        python_function: the original Python function (always callable as plain Python).
    """

    _quiet = False   # a callee of a caller's Python (python_callees): no FallbackWarning

    def __init__(self, function, backend=None, fullgraph=None, static_argnames=(),
                 cache=None, boundscheck=True, source=None, split=True, check_int_overflow=True,
                 parallel=None):
        bound_self = None
        if isinstance(function, JitFunction):
            function = function.python_function
        elif isinstance(function, (types.MethodType, BoundJitFunction)):
            bound_self, function = function.__self__, function.__func__
        if not isinstance(function, types.FunctionType):
            raise TypeError(f"jit() needs a Python function or method, got {function!r}")
        functools.update_wrapper(self, function)
        self.python_function = function
        self.backend = backend
        self.fullgraph = fullgraph
        self.static_argnames = tuple(static_argnames)
        self.cache = cache
        self.boundscheck = boundscheck
        self.check_int_overflow = check_int_overflow
        self.parallel = None if parallel is None else parallel_value(parallel)
        self._source = source       # a FunctionSource when not the function's own (a region)
        self._split_allowed = split
        self._bound_self = bound_self
        self._signature = inspect.signature(function)
        if bound_self is not None:   # what the caller passes: no self
            self.__signature__ = self._signature.replace(
                parameters=list(self._signature.parameters.values())[1:])
        params = list(self._signature.parameters.values())
        self._params = [p.name for p in params]
        self._simple = all(p.kind == p.POSITIONAL_OR_KEYWORD for p in params)
        # (bound in the signature's order and passed positionally: passes/specialize)
        self._varargs = all(p.kind != p.VAR_KEYWORD for p in params)
        unknown = set(self.static_argnames) - set(self._params)
        if unknown:
            raise ValueError(f"static_argnames {sorted(unknown)} are not parameters of "
                             f"{function.__qualname__}")
        self._plain = []
        self._by_instance = {}
        self._by_class = weakref.WeakKeyDictionary()   # class -> shared specializations
        self._lock = threading.RLock()   # guards _plain, _by_instance, _pending
        self._pending = {}               # key -> [lock, waiters]: specializations under way
        # Decisions kept per argument types (transpiler.fast_path): plainly called functions.
        self._init_fast_path(bound_self is None and self._simple and not self.static_argnames
                             and self._params[:1] != ["self"])

    def __repr__(self):
        origin = origin_of(self.python_function)
        where = f" ({os.path.basename(origin.filename)}:{origin.lineno})" if origin else ""
        bound = "" if self._bound_self is None else f" bound to {self._bound_self!r}"
        return f"<graphjit function {self.python_function.__qualname__}{where}{bound}>"

    def __copy__(self):
        return self._like(self._bound_self)

    def __deepcopy__(self, memo):
        """A new JitFunction of the same function and options, with no specializations
        (compiled code, locks and modules are not data); a bound ``self`` is deep-copied."""
        import copy
        bound = self._bound_self
        return self._like(copy.deepcopy(bound, memo) if bound is not None else None)

    def __reduce_ex__(self, protocol):
        """Pickled by reference where ``module.qualname`` is this object, else as its Python
        function and options; never its specializations (transpiler.pickling)."""
        from .pickling import reduce_jit
        return reduce_jit(self)

    def __setstate__(self, state):
        from .pickling import set_state
        set_state(self, state)

    def _like(self, bound_self):
        function = self.python_function if bound_self is None else \
            types.MethodType(self.python_function, bound_self)
        return JitFunction(function, fullgraph=self.fullgraph, source=self._source,
                           static_argnames=self.static_argnames, split=self._split_allowed,
                           **self._options())

    def _options(self):
        """The compile options a copy or a region of this function keeps."""
        return dict(backend=self.backend, cache=self.cache, boundscheck=self.boundscheck,
                    check_int_overflow=self.check_int_overflow, parallel=self.parallel)

    # -- binding ----------------------------------------------------------------------------

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return BoundJitFunction(self, obj)

    def __call__(self, *args, **kwargs):
        fast = self._fast   # what calls with these argument types did (transpiler.fast_path)
        if fast is not None and not kwargs and len(args) == self._arity and \
                _DISABLE_KEY not in _ENV_DATA and \
                "__graphjit_do_not_convert__" not in self.python_function.__dict__:
            decision = fast.get(self._fast_key(args))
            if decision is not None:
                result = decision(self, args)
                if result is not _MISS:
                    return result
        if self._bound_self is not None:
            return self._call(self._bound_self, args, kwargs)
        if (args and self._params and self._params[0] == "self"
                and not is_data(args[0])):
            # jit(Class.method)(obj, ...): the same as obj.method(...)
            return self._call(args[0], args[1:], kwargs)
        return self._call(None, args, kwargs)

    def _python(self, obj, args, kwargs):
        """The plain call, the Cells it reaches compiled (transpiler.python_scope)."""
        return run_reaching(self, self.python_function, args if obj is None else (obj, *args),
                            kwargs)

    # -- dispatch ---------------------------------------------------------------------------

    def _call(self, obj, args, kwargs):
        if (disable_may_be_set() and env_flag("GRAPHJIT_DISABLE")) or getattr(
                self.python_function, "__graphjit_do_not_convert__", False):
            return self.python_function(*((obj,) if obj is not None else ()), *args, **kwargs)
        if obj is not None and not kwargs and (   # a NumPy graph on an instance, seen before
                result := graph_call(self, obj, args)) is not MISS:
            return result
        values = bind_values(self._signature, len(self._params), self._simple, obj, args,
                             kwargs)
        if values is None or not self._varargs:    # *args: a tuple argument (passes/specialize)
            if values is not None:
                error = UnsupportedConstruct(
                    "a **kwargs parameter is not converted yet",
                    origin_of(self.python_function))
                if self._fullgraph():
                    raise error
                self._signature_refusal = str(error)     # (explain)
                self._fall_back(Specialization(str(error)), None)
            return self._python(obj, args, kwargs)  # Python raises the binding TypeError
        specs = self._specs_for(obj)
        backend_name = self._backend_name()   # set_context(device_target=) may change it
        table = self._fast_table(obj, values, args, kwargs)
        spec, inputs = _find(specs, obj, values, backend_name)
        if spec is None and obj is not None:
            spec, inputs = _find(self._shared_for(obj), obj, values, backend_name)
        if spec is None:
            offset = 1 if obj is not None else 0
            runtime = [(n, v) for n, v in zip(self._params[offset:], values)
                       if n not in self.static_argnames]
            problem = argument_problem([v for _, v in runtime], [n for n, _ in runtime])
            if problem is not None:   # no code could take it: do not transpile for it
                if self._fullgraph():
                    raise UnsupportedConstruct(problem, origin_of(self.python_function))
                spec = self._argument_fallback(specs, obj, values, runtime, problem)
                if spec is not None:    # its loops that do not read the argument compile
                    return self._run(spec, (), specs, obj, values, args, kwargs, table)
                self._fast_keep_refusal(table, values, [n for n, _ in runtime], problem)
                self._fall_back(None, None, problem)
                return self._python(obj, args, kwargs)
            from .progress import compile_progress
            key = (id(self), id(specs) if obj is None else type(obj), values_key(values))
            with compile_progress(self._describe(obj), key):   # a first call: transpile, compile
                spec, inputs = self._specialize_once(specs, obj, values, backend_name)
                if spec.fallback_reason is None:
                    return self._run(spec, inputs, specs, obj, values, args, kwargs, table)
        return self._run(spec, inputs, specs, obj, values, args, kwargs, table)

    def _describe(self, obj):
        origin = origin_of(self.python_function)
        where = f" ({os.path.basename(origin.filename)}:{origin.lineno})" if origin else ""
        return f"{self.python_function.__qualname__}{where}"

    def _run(self, spec, inputs, specs, obj, values, args, kwargs, table=None):
        """Call ``spec`` (its guards held, giving ``inputs``), or fall back; ``specs`` is the
        instance's list (or the function's); ``table``: the fast path's, to keep the decision
        in (transpiler.fast_path), or None."""
        if spec.fallback_reason is not None:
            if spec.argument_problem and self._fullgraph():
                raise UnsupportedConstruct(spec.fallback_reason,
                                           origin_of(self.python_function))
            self._fast_keep_spec(table, values, spec)
            return self._run_fallback(spec, obj, args, kwargs, warn=True)
        dynamic = [values[i] for i in spec.dynamic_indices]
        problem = argument_problem(dynamic, spec.dynamic_names)
        if problem is not None:
            if self._fullgraph():
                raise UnsupportedConstruct(problem, origin_of(self.python_function))
            self._fall_back(None, None, problem)
            return self._python(obj, args, kwargs)
        if spec.failed_types and (error := spec.failed_types.get(numba_types(dynamic, inputs))):
            return self._run_fallback(spec, obj, args, kwargs, warn=True, error=error)
        if spec.unknown_boxes and (error := box_problem(self, spec, dynamic, inputs)):
            return self._run_fallback(spec, obj, args, kwargs, warn=True, error=error)
        self._fast_keep_spec(table, values, spec)
        remember_graph(self, obj, values, spec)
        if spec.program.uses_random:
            return self._run_with_random_state(spec, dynamic, inputs, specs, obj, values, args,
                                               kwargs)
        return self._run_compiled(spec, dynamic, inputs, specs, obj, values, args, kwargs)

    def _run_with_random_state(self, spec, dynamic, inputs, specs, obj, values, args, kwargs):
        """The compiled call with NumPy's global random state carried in and back
        (transpiler.random_state). Python never runs in between: a fallback or a re-run as
        Python first gives the state back (a re-run: as it was before the compiled draws)."""
        from . import random_state
        held = [random_state.enter()]

        def before_python(rerun):
            if held:
                random_state.leave(held.pop(), restore=rerun,
                                   seeded=spec.program.random_seeded)
        try:
            return self._run_compiled(spec, dynamic, inputs, specs, obj, values, args, kwargs,
                                      before_python)
        finally:
            before_python(False)

    def _run_compiled(self, spec, dynamic, inputs, specs, obj, values, args, kwargs,
                      before_python=_nothing):
        if spec.writeback and not spec.attributes_fit(obj):     # an int beyond int64
            return self._python(obj, args, kwargs)
        try:
            result = spec.function(*dynamic, *inputs)
        except Exception as exc:
            done, result = self._compiled_raised(exc, spec, dynamic, inputs, specs, obj,
                                                 values, args, kwargs, before_python)
            if not done:
                raise  # the user's own exception, raised by the compiled code
            return result
        return spec.written_back(obj, self._boxed(spec, result, dynamic, inputs))

    @staticmethod
    def _boxed(spec, result, dynamic, inputs):
        """The compiled ``result`` boxed as the plain call boxes it."""
        boxer = spec.boxer
        if boxer is None:   # made once per specialization (two racing threads: the same)
            boxer = spec.boxer = spec.backend.result_boxer(spec.function)
        if isinstance(result, boxer[0]):
            result = boxer[1](result, dynamic, inputs)
        return result if spec.rebox is None else spec.rebox(result)

    def _compiled_raised(self, exc, spec, dynamic, inputs, specs, obj, values, args, kwargs,
                         before_python):
        """After compiled code raised ``exc``: ``(True, result)``, or ``(False, None)`` when
        ``exc`` is the user's own, for the caller to raise again (inside its ``except``)."""
        if not spec.backend.is_cache_error(exc):
            return self._compiled_failed(exc, spec, dynamic, inputs, specs, obj, values, args,
                                         kwargs, before_python)
        # A corrupt on-disk cache entry failed to load, before any user code ran: drop it and
        # compile afresh.
        spec.backend.clear_cache(spec.path, exc)
        try:
            result = spec.function(*dynamic, *inputs)
        except Exception as again:
            done, result = self._compiled_failed(again, spec, dynamic, inputs, specs, obj,
                                                 values, args, kwargs, before_python)
            if not done:
                raise
            return True, result
        return True, spec.written_back(obj, self._boxed(spec, result, dynamic, inputs))

    def _compiled_failed(self, exc, spec, dynamic, inputs, specs, obj, values, args, kwargs,
                         before_python):
        """``_compiled_raised`` once a cache error is ruled out (called inside the caller's
        ``except``: Python code run here chains to ``exc`` as it always did)."""
        if not spec.backend.is_compile_failure(exc, spec.function, (*dynamic, *inputs)):
            # stores into attributes not written back yet: Python stores, then raises
            if spec.writeback or self._rerun_allowed(spec, exc):
                before_python(True)
                return True, self._python(obj, args, kwargs)
            note_raise_site(exc, spec, self.python_function)
            return False, None
        error = translate_numba_error(exc, spec.path, spec.line_map,
                                      origin_of(self.python_function))
        if self._fullgraph():
            raise error from None
        before_python(False)
        if spec.shared:
            # A split is bound to its instance: this one gets its own fallback, found
            # before the shared code at its later calls with these argument types.
            spec = self._instance_fallback(specs, obj, values, error)
            return True, self._run_fallback(spec, obj, args, kwargs, warn=True)
        with self._lock:   # one split per specialization, however many threads fail
            spec.failed_types[numba_types(dynamic, inputs)] = error
            if spec.split is None:
                spec.split = self._split(obj, error)
        return True, self._run_fallback(spec, obj, args, kwargs, warn=True, error=error)

    def _transpile_check(self, obj):
        """Specialize for ``obj`` now (argument types aside); raise TranspileError if the code
        does not convert. Used by transpiler.split to choose the regions it compiles."""
        token = UNTYPED_CHECK.set(True)
        try:
            spec = self._specialize(obj, None)
        finally:
            UNTYPED_CHECK.reset(token)
        if spec.fallback_reason is not None:
            raise spec.fallback_error or TranspileError(spec.fallback_reason)
        # Not kept for calls: made without the argument types, it would apply Python's rules
        # where NEP 50 and the scalar-type checks need them (a call specializes again).

    def _fullgraph(self):
        if self.fullgraph is not None:
            return self.fullgraph
        return fullgraph_may_be_set() and env_flag("GRAPHJIT_FULLGRAPH")

    # -- specialization ---------------------------------------------------------------------

    def _backend_name(self):
        return self.backend or default_backend()

    def _specialize(self, obj, values):
        """Transpile and load, or decide to fall back; never raises unless fullgraph."""
        spec = self._specialize_for(obj, values)
        spec.backend_name = self._backend_name()
        return spec

    def _specialize_for(self, obj, values, native=False):
        """The Specialization for ``obj`` and ``values``; ``native``: Numba's, never a NumPy
        graph, and no split where it does not convert (tier 1, transpiler.tiers)."""
        from . import dynamic_numbers, pipeline
        from .boxing import set_boxing

        fn = self.python_function
        offset = 1 if obj is not None else 0
        params = self._params[offset:]
        static_args, python_args, numpy_args, arg_keys = argument_facts(
            params, values, self.static_argnames)
        def compile_it():
            return pipeline.compile_function(
                fn, obj, static_args, source=self._source, python_args=python_args,
                numpy_args=numpy_args, arg_keys=arg_keys, check_int=self.check_int_overflow,
                backend_name=self._backend_name(), cache=self.cache,
                boundscheck=self.boundscheck, parallel=self.parallel, rerun=not self._fullgraph(),
                native=native)

        try:
            with dynamic_numbers.attempt() as used:
                try:
                    made = compile_it()
                except TranspileError:
                    if not used:
                        raise
                    # it compiled only with those numbers as constants (dynamic_numbers.py)
                    dynamic_numbers.pin(used)
                    made = compile_it()
        except TranspileError as exc:
            if native:
                return Specialization(fallback_reason=str(exc))
            if self._fullgraph():
                raise exc.with_traceback(None) from None
            spec = Specialization(fallback_reason=str(exc))
            spec.fallback_error = exc
            if not isinstance(exc, SourceUnavailable) and not UNTYPED_CHECK.get():
                spec.split = self._split(obj, exc)
            return spec
        except Exception as exc:  # noqa: BLE001 - a converter bug must not break user code
            if self._fullgraph() and not native:
                raise
            return Specialization(
                fallback_reason=f"internal error in graphjit ({type(exc).__name__}: {exc}); "
                                "please report it")
        spec = specialization_of(made, params, obj is not None and
                                 not made.program.instance_specific and self._bound_self is None)
        refused = spec.set_writeback(getattr(made.entry, "writeback", None), fn)
        if refused:
            return Specialization(fallback_reason=refused)
        set_boxing(spec, made)
        return spec

    # -- inspection -------------------------------------------------------------------------

    def _latest(self, obj):
        specs = self._specs_for(obj)
        shared = [s for s in self._shared_for(obj) if _holds_for(s, obj)] \
            if obj is not None else []
        made = tuple(specs) + tuple(shared)
        if made:
            return made[0]
        if self.static_argnames:
            raise ValueError(f"{self.python_function.__qualname__} has static arguments: "
                             "call it once before asking for its source")
        spec = self._specialize(obj, None)
        # Made without the argument types (Python's number rules, no type guards): shown,
        # never run; the first call specializes on its arguments.
        spec.for_calls = False
        with self._lock:
            if not specs:
                specs.insert(0, spec)
                self._fast_forget()
        return specs[0]

    def source(self):
        """The generated module source of the latest specialization (a str).

        Transpiles now if the function was not called yet (not possible with static
        arguments: then ValueError). A function that falls back returns a comment that says
        why.
        """
        return self._source_for(self._bound_self)

    def _source_for(self, obj):
        spec = self._latest(obj)
        if spec.fallback_reason is not None:
            return comment(f"graphjit: {self.python_function.__qualname__} runs as plain "
                            f"Python: {spec.fallback_reason}")
        return spec.source

    def ir(self):
        """The functional program of the latest specialization, as Python source (a str).

        Every ``if``/``while``/``for`` is a functional form (``cond``, ``while_loop``,
        ``for_range``, ``for_each``; see :mod:`transpiler.ir`) with explicit inputs and
        outputs, before backend lowering. Transpiles now if not called yet (see
        :meth:`source`).
        """
        return self._ir_for(self._bound_self)

    def _ir_for(self, obj):
        spec = self._latest(obj)
        if spec.program is None:
            return comment(f"graphjit: {self.python_function.__qualname__} runs as plain "
                            f"Python: {spec.fallback_reason}")
        from .pipeline import ir_source
        return GeneratedSource(ir_source(spec.program, self.python_function))

    def explain(self):
        """What compiled and what runs as Python, and why: an :class:`Explanation`.

        Each row is a region (the whole function, or a loop of a split function): its lines,
        ``compiled`` or ``python``, and the reason. ``print(f.explain())`` shows a table;
        ``f.explain().rows`` is the data; Jupyter renders it as an HTML table.
        """
        return self._explain_for(self._bound_self)

    def _explain_for(self, obj):
        return explain(self, obj)


register("jit", JitFunction)


def _register_pickling():
    from .pickling import register_cloudpickle
    register_cloudpickle(JitFunction)   # cloudpickle (Dask): by value where it pickles by value


_register_pickling()


def do_not_convert(function):
    """Mark ``function`` to always run as plain Python (AutoGraph's ``do_not_convert``).

    ``jit`` of it runs it as Python, silently; a converted function that calls it runs that
    part as Python (the call cannot be compiled, so the function is split into regions).

    Returns:
        the same function, marked.
    """
    function.__graphjit_do_not_convert__ = True
    return function


def jit(function=None, *, backend=None, fullgraph=None, static_argnames=(), cache=None,
        boundscheck=True, check_int_overflow=True, parallel=None):
    """Compile ``function`` on its first call; use as ``@jit``, ``@jit(...)`` or ``jit(fn)``.

    Args:
        function: a Python function, a method (``@jit`` on ``Cell.construct``) or a bound method.
        backend (str | None): ``"numba-cpu"``, ``"numba-cuda"`` (GPU kernels, see docs/guide/gpu.md)
            or ``"eager"``; None: from the device target of :func:`transpiler.set_context` at
            the first call.
        fullgraph (bool | None): True raises :class:`UnsupportedConstruct` (or
            :class:`TranspileError` for what Numba rejects) instead of falling back; None:
            the environment variable ``GRAPHJIT_FULLGRAPH``.
        static_argnames (tuple[str]): parameters resolved at transpile time; each new value
            transpiles again.
        cache (bool | None): keep Numba's machine code on disk beside the generated module,
            so a later process skips compiling; None: ``set_context(enable_compile_cache=)``,
            else the environment variable ``GRAPHJIT_CACHE``.
        boundscheck (bool): index checks in compiled code, raising IndexError as Python does
            (Numba's ``boundscheck``). False reads and writes out of range unchecked, which can
            give garbage or crash the process, for speed (docs/benchmarks.md gives the
            measured cost).
        check_int_overflow (bool): Python-int ``+ - * -x abs //`` in compiled code are checked
            for int64 overflow (Python's int grows: an effect-free call then runs again as
            Python, one with effects raises OverflowError naming the line). False lets them
            wrap as in Numba and C, for speed (docs/benchmarks.md gives the measured cost).
            NumPy integers
            always wrap as NumPy's do.
        parallel (bool | str | None): True runs each loop proved independent and unable to
            raise across cores (numba-cpu; integer reductions included), ``"fast-reductions"``
            float sums too (rounding may differ); None: ``set_context(parallel=)``. See
            docs/guide/parallel.md.

    Returns:
        JitFunction, or a decorator when ``function`` is None.

    Raises:
        TypeError: ``function`` is not a Python function.
        ValueError: a static argument name is not a parameter; a bad ``parallel``.
    """
    def wrap(fn):
        return JitFunction(fn, backend=backend, fullgraph=fullgraph,
                           static_argnames=static_argnames, cache=cache, parallel=parallel,
                           boundscheck=boundscheck, check_int_overflow=check_int_overflow)
    return wrap if function is None else wrap(function)
