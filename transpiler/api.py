"""``jit`` and the JitFunction object: dispatch, specialization cache, fallback policy."""
import functools
import inspect
import os
import threading
import types
import warnings
import weakref

from .context import default_backend, env_flag, get_context
from .errors import (FallbackWarning, Origin, SourceUnavailable, TranspileError,
                     UnsupportedConstruct, translate_numba_error, user_stacklevel)
from .program import Program
from .registry import register
from .type_keys import type_key, values_key

# Specializations kept per function (or per instance for methods); the oldest is dropped.
MAX_SPECIALIZATIONS = 16


class GeneratedSource(str):
    """Generated source text; renders syntax-highlighted in Jupyter (Pygments, if installed)."""

    def _repr_html_(self):
        try:
            from pygments import highlight
            from pygments.formatters import HtmlFormatter
            from pygments.lexers import PythonLexer
        except ImportError:  # Pygments is optional: plain text then
            return None
        return highlight(str(self), PythonLexer(), HtmlFormatter(noclasses=True))

    def __repr__(self):
        return str(self)


class Specialization:
    """One specialization of a jitted function: generated code, or a fallback with its reason."""

    def __init__(self, fallback_reason=None):
        self.fallback_reason = fallback_reason
        self.prepare = None
        self.function = None
        self.constants = ()
        self.roots = ()
        self.dynamic_indices = ()
        self.source = None
        self.path = None
        self.line_map = {}
        self.backend = None
        self.failed_types = {}      # numba type tuple -> TranspileError
        self.dynamic_names = ()
        self.guards = ()
        self.program = None
        self.split = None           # a transpiler.split.SplitFunction, when one was made
        self.raise_sites = {}       # exception class name -> [Origin] of its raise statements
        self.backend_name = None    # the backend asked for when it was made
        self.effect_free = None     # whether the code may run again (analysis.effects); lazy
        self.rebox = None           # result -> result boxed as the plain call boxes it
        self.arg_key = None         # the argument types a fallback was decided for
        self.shared = False         # serves every instance of its class (program.structural)
        self.for_calls = True       # False: made for source()/ir() before any call

    def matches(self, obj, values):
        """Runtime inputs (a tuple) when the guards hold, else None. A fallback is kept for
        the argument types it was decided on (another type may compile)."""
        if self.fallback_reason is not None:
            return () if self.arg_key is None or self.arg_key == values_key(values) else None
        return self.prepare(obj, values, self.roots, self.constants)


def _find(specs, obj, values, backend_name):
    """The first specialization in ``specs`` whose guards hold, and its runtime inputs; else
    ``(None, None)``."""
    # Lists change only by one whole-content assignment under the lock; a search racing it
    # may miss the newest entry, which the search again under the lock then finds.
    for candidate in specs:
        if candidate.backend_name != backend_name or not candidate.for_calls:
            continue
        inputs = candidate.matches(obj, values)
        if inputs is not None:
            return candidate, inputs
    return None, None


def _holds_for(spec, obj):
    """Whether the guards of ``spec`` that read from ``self`` hold for ``obj`` (the argument
    guards aside): which of a class's shared specializations is this instance's."""
    from .program import Forgotten, structural
    for guard in spec.guards:
        if guard.path[0][0] != "self":
            continue
        try:
            now = guard.path.read(obj, (), spec.roots)
        except Exception:  # noqa: BLE001 - unreadable: does not hold
            return False
        expected = guard.expected
        if structural(guard, spec.program):
            kind = expected.type if isinstance(expected, Forgotten) else type(expected)
            size = expected.length if isinstance(expected, Forgotten) else (
                len(expected) if isinstance(expected, (list, tuple)) else None)
            if type(now) is not kind or (size is not None and len(now) != size):
                return False
        elif guard.kind == "eq":
            if type(now) is not type(expected) or not (now == expected or now != now):
                return False
        elif guard.kind == "typekey":
            if type_key(now) != expected:
                return False
        elif guard.kind in ("is", "len") and now is not expected:
            return False
    return True


def _forget_instance(spec):
    """Drop a shared specialization's references to the objects of the instance it was made
    for (its structural guards only need their type, already in ``spec.constants``), so the
    class's list does not keep that instance's layers and weights alive."""
    from .program import Forgotten, structural
    for guard in spec.guards:
        if structural(guard, spec.program):
            guard.expected = Forgotten(guard.expected)


def _origin_of(function):
    code = getattr(function, "__code__", None)
    return Origin(code.co_filename, code.co_firstlineno) if code else None


class JitFunction:
    """A function compiled on first call; see :func:`jit`.

    Attributes:
        python_function: the original Python function (always callable as plain Python).
    """

    def __init__(self, function, backend=None, fullgraph=None, static_argnames=(),
                 cache=None, boundscheck=True, source=None, split=True, check_int_overflow=True):
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
        unknown = set(self.static_argnames) - set(self._params)
        if unknown:
            raise ValueError(f"static_argnames {sorted(unknown)} are not parameters of "
                             f"{function.__qualname__}")
        self._plain = []
        self._by_instance = {}
        self._by_class = weakref.WeakKeyDictionary()   # class -> shared specializations
        self._lock = threading.RLock()   # guards _plain, _by_instance, _pending
        self._pending = {}               # key -> [lock, waiters]: specializations under way

    def __repr__(self):
        origin = _origin_of(self.python_function)
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

    def _like(self, bound_self):
        function = self.python_function if bound_self is None else \
            types.MethodType(self.python_function, bound_self)
        return JitFunction(function, backend=self.backend, fullgraph=self.fullgraph,
                           static_argnames=self.static_argnames, cache=self.cache,
                           boundscheck=self.boundscheck, source=self._source,
                           split=self._split_allowed,
                           check_int_overflow=self.check_int_overflow)

    # -- binding ----------------------------------------------------------------------------

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return BoundJitFunction(self, obj)

    def __call__(self, *args, **kwargs):
        if self._bound_self is not None:
            return self._call(self._bound_self, args, kwargs)
        if (args and self._params and self._params[0] == "self"
                and not _is_data(args[0])):
            # jit(Class.method)(obj, ...): the same as obj.method(...)
            return self._call(args[0], args[1:], kwargs)
        return self._call(None, args, kwargs)

    def _python(self, obj, args, kwargs):
        if obj is None:
            return self.python_function(*args, **kwargs)
        return self.python_function(obj, *args, **kwargs)

    def _bind(self, obj, args, kwargs):
        """The argument values in parameter order (without self), or None if binding fails."""
        n = len(self._params) - (obj is not None)
        if not kwargs and self._simple and len(args) == n:
            return args
        try:
            lead = (obj,) if obj is not None else ()
            bound = self._signature.bind(*lead, *args, **kwargs)
        except TypeError:
            return None
        bound.apply_defaults()
        values = tuple(bound.arguments.values())
        return values[1:] if obj is not None else values

    # -- dispatch ---------------------------------------------------------------------------

    def _call(self, obj, args, kwargs):
        if (_ENVIRON.get("GRAPHJIT_DISABLE") and env_flag("GRAPHJIT_DISABLE")) or getattr(
                self.python_function, "__graphjit_do_not_convert__", False):
            return self._python(obj, args, kwargs)
        values = self._bind(obj, args, kwargs)
        if values is None or not self._simple:
            if values is not None and not self._simple:
                error = UnsupportedConstruct(
                    "parameters other than plain positional-or-keyword ones (*args, **kwargs, "
                    "keyword-only, positional-only) are not converted yet",
                    _origin_of(self.python_function))
                if self._fullgraph():
                    raise error
                self._fall_back(Specialization(str(error)), None)
            return self._python(obj, args, kwargs)  # Python raises the binding TypeError
        specs = self._specs_for(obj)
        backend_name = self._backend_name()   # set_context(device_target=) may change it
        spec, inputs = _find(specs, obj, values, backend_name)
        if spec is None and obj is not None:
            spec, inputs = _find(self._shared_for(obj), obj, values, backend_name)
        if spec is None:
            offset = 1 if obj is not None else 0
            runtime = [(n, v) for n, v in zip(self._params[offset:], values)
                       if n not in self.static_argnames]
            problem = _argument_problem([v for _, v in runtime], [n for n, _ in runtime])
            if problem is not None:   # no code could take it: do not transpile for it
                if self._fullgraph():
                    raise UnsupportedConstruct(problem, _origin_of(self.python_function))
                self._fall_back(None, None, problem)
                return self._python(obj, args, kwargs)
            from .progress import compile_progress
            key = (id(self), id(specs) if obj is None else type(obj), values_key(values))
            with compile_progress(self._describe(obj), key):   # a first call: transpile, compile
                spec, inputs = self._specialize_once(specs, obj, values, backend_name)
                if spec.fallback_reason is None:
                    return self._run(spec, inputs, specs, obj, values, args, kwargs)
        return self._run(spec, inputs, specs, obj, values, args, kwargs)

    def _describe(self, obj):
        origin = _origin_of(self.python_function)
        where = f" ({os.path.basename(origin.filename)}:{origin.lineno})" if origin else ""
        return f"{self.python_function.__qualname__}{where}"

    def _run(self, spec, inputs, specs, obj, values, args, kwargs):
        """Call ``spec`` (its guards held, giving ``inputs``), or fall back; ``specs`` is the
        instance's list (or the function's)."""
        if spec.fallback_reason is not None:
            return self._run_fallback(spec, obj, args, kwargs, warn=True)
        dynamic = [values[i] for i in spec.dynamic_indices]
        problem = _argument_problem(dynamic, spec.dynamic_names)
        if problem is not None:
            if self._fullgraph():
                raise UnsupportedConstruct(problem, _origin_of(self.python_function))
            self._fall_back(None, None, problem)
            return self._python(obj, args, kwargs)
        if spec.failed_types and _numba_types(dynamic, inputs) in spec.failed_types:
            return self._run_fallback(spec, obj, args, kwargs)
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
                      before_python=lambda rerun: None):
        try:
            try:
                result = spec.function(*dynamic, *inputs)
            except Exception as exc:
                if not spec.backend.is_cache_error(exc):
                    raise
                # A corrupt on-disk cache entry failed to load, before any user code ran:
                # drop it and compile afresh.
                spec.backend.clear_cache(spec.path, exc)
                result = spec.function(*dynamic, *inputs)
        except Exception as exc:
            if not spec.backend.is_compile_failure(exc, spec.function, (*dynamic, *inputs)):
                if self._rerun_allowed(spec, exc):
                    before_python(True)
                    return self._python(obj, args, kwargs)
                _note_raise_site(exc, spec, self.python_function)
                raise  # the user's own exception, raised by the compiled code
            error = translate_numba_error(exc, spec.path, spec.line_map,
                                          _origin_of(self.python_function))
            if self._fullgraph():
                raise error from None
            before_python(False)
            if spec.shared:
                # A split is bound to its instance: this one gets its own fallback, found
                # before the shared code at its later calls with these argument types.
                spec = self._instance_fallback(specs, obj, values, error)
                return self._run_fallback(spec, obj, args, kwargs, warn=True)
            with self._lock:   # one split per specialization, however many threads fail
                spec.failed_types[_numba_types(dynamic, inputs)] = error
                if spec.split is None:
                    spec.split = self._split(obj, str(error))
            return self._run_fallback(spec, obj, args, kwargs, warn=True, error=error)
        result = spec.backend.box_result(spec.function, result, dynamic, inputs)
        if spec.rebox is not None:
            result = spec.rebox(result)
        return result

    def _specialize_once(self, specs, obj, values, backend_name):
        """Specialize for these arguments, once however many threads ask at the same time.

        One lock per argument-type key: the first thread transpiles, the others wait on it and
        then find its specialization (the list is searched again under the lock); calls with
        other types specialize independently. The specialization is published (inserted in
        ``specs``) only when complete, so no call sees a half-built one. Locks rather than the
        GIL: free-threaded CPython runs these in parallel.

        Returns:
            tuple[Specialization, tuple]: the specialization and its runtime inputs.
        """
        types = values_key(values)
        key = (id(specs) if obj is None else type(obj), types, backend_name)
        with self._lock:
            entry = self._pending.get(key)
            if entry is None:
                # Reentrant: a property read while transpiling may call this function again
                # on the same thread (it then transpiles its own, as the plain call nests).
                entry = self._pending[key] = [threading.RLock(), 0]
            entry[1] += 1
        try:
            with entry[0]:
                shared = self._shared_for(obj) if obj is not None else []
                for where in (specs, shared):
                    spec, inputs = _find(where, obj, values, backend_name)
                    if spec is not None:
                        return spec, inputs
                spec = self._specialize(obj, values)
                spec.arg_key = types
                inputs = spec.matches(obj, values)
                if inputs is None:
                    spec.fallback_reason = self._unstable_guard(spec, obj, values)
                    inputs = ()
                # Code that depends on nothing of this instance but what its guards check
                # serves every instance of the class (program.structural).
                where = shared if spec.shared else specs
                if spec.shared:
                    _forget_instance(spec)
                with self._lock:
                    where[:] = [spec, *where][:MAX_SPECIALIZATIONS]
                return spec, inputs
        finally:
            with self._lock:
                entry[1] -= 1
                if not entry[1]:
                    del self._pending[key]

    def _serving(self, obj):
        """Every specialization a call on ``obj`` may use: its own, then its class's shared
        ones (for tests and explain)."""
        own = list(self._specs_for(obj))
        return own + (list(self._shared_for(obj)) if obj is not None else [])

    def _instance_fallback(self, specs, obj, values, error):
        """A fallback specialization for one instance, with its split (see _split), after the
        code shared by its class failed to compile for these argument types."""
        spec = Specialization(fallback_reason=str(error))
        spec.arg_key = values_key(values)
        spec.backend_name = self._backend_name()
        spec.split = self._split(obj, str(error))
        with self._lock:
            specs[:] = [spec, *specs][:MAX_SPECIALIZATIONS]
        return spec

    def _shared_for(self, obj):
        """The specializations shared by every instance of ``type(obj)`` (a list)."""
        kind = type(obj)
        shared = self._by_class.get(kind)
        if shared is None:
            with self._lock:
                shared = self._by_class.setdefault(kind, [])
        return shared

    def _rerun_allowed(self, spec, exc):
        """Whether the call may run again as Python after compiled code raised ``exc``: its
        result does not fit compiled code (an int beyond int64, a complex number) and the
        generated code has no effects (transpiler.analysis.effects), so nothing happened yet
        that the caller can see. Warns once per function."""
        from .fidelity import not_representable
        if not not_representable(exc) or self._fullgraph():
            return False
        if spec.effect_free is None:
            from .analysis.effects import effect_free
            spec.effect_free = effect_free(str(spec.source))
        if not spec.effect_free:
            return False
        reason = (f"{exc} (the compiled code has no effects, so the call ran again as "
                  "Python; it does at every such call)")
        # Through the warnings registry, at the user's line: Python's filters decide how often
        # it shows (default: once per call site), as for any warning.
        warnings.warn(f"graphjit: a call of {self.python_function.__qualname__} ran as "
                      f"plain Python: {reason}", FallbackWarning, stacklevel=user_stacklevel())
        return True

    def _run_fallback(self, spec, obj, args, kwargs, warn=False, error=None):
        """Run the plain function, or its split form (compiled loops, Python between).

        With ``warn``, warn once why (``error``, else the spec's reason). A split call warns
        after it ran, when its loops have met their argument types: it counts only the loops
        that compiled (a region may fall back too, transpiler.split)."""
        if spec.split is None:
            if warn:
                self._fall_back(spec, error)
            return self._python(obj, args, kwargs)
        try:
            return spec.split(obj, args, kwargs)
        finally:
            if warn:
                self._fall_back(spec, error)

    def _split(self, obj, reason):
        """Try region-level fallback (transpiler.split); None when nothing compiles."""
        if not self._split_allowed:
            return None
        from .split import split
        try:
            return split(self.python_function, obj, {"backend": self.backend,
                                                     "cache": self.cache,
                                                     "boundscheck": self.boundscheck,
                                                     "check_int_overflow":
                                                         self.check_int_overflow}, reason)
        except Exception:  # noqa: BLE001 - splitting is an optimisation: never break the call
            return None

    def _transpile_check(self, obj):
        """Specialize for ``obj`` now (argument types aside); raise TranspileError if the code
        does not convert. Used by transpiler.split to choose the regions it compiles."""
        spec = self._specialize(obj, None)
        if spec.fallback_reason is not None:
            raise TranspileError(spec.fallback_reason)
        # Not kept for calls: made without the argument types, it would apply Python's rules
        # where NEP 50 and the scalar-type checks need them (a call specializes again).

    def _fullgraph(self):
        return self.fullgraph if self.fullgraph is not None else env_flag("GRAPHJIT_FULLGRAPH")

    def _unstable_guard(self, spec, obj, values):
        """Why the guards fail right after specializing: name the value that changed."""
        names = [p for p in self._params[1 if obj is not None else 0:]]
        for guard in spec.guards:
            try:
                now = guard.path.read(obj, values, spec.roots)
            except Exception:  # noqa: BLE001 - unreadable now: that is the change
                now = _MISSING
            same = now is guard.expected if guard.kind != "eq" else (
                type(now) is type(guard.expected) and (now == guard.expected or now != now))
            if not same:
                return (f"{guard.path.describe(names) or 'a static value'} is a new object at "
                        "every read (a property that builds its result?), so code specialized "
                        "on it could never be reused")
        return "its static values change while they are read"

    def _fall_back(self, spec, error, reason=None):
        reason = reason or (str(error) if error is not None else spec.fallback_reason)
        how = "runs as plain Python"
        compiled = [] if spec is None or spec.split is None else [
            r for r in spec.split.regions if not _region_fell_back(r)]
        if compiled:
            loops = ", ".join(f"line {r.origin.lineno}" for r in compiled)
            how = f"runs as Python with {len(compiled)} compiled loop(s) ({loops}; see explain())"
        elif spec is not None and spec.split is not None:
            how = "runs as plain Python, its loops too (see explain())"
        warnings.warn(f"graphjit: {self.python_function.__qualname__} {how}: {reason}",
                      FallbackWarning, stacklevel=user_stacklevel())

    def _specs_for(self, obj):
        if obj is None:
            return self._plain
        key = id(obj)
        slot = self._by_instance.get(key)
        if slot is not None and slot[0]() is obj:
            return slot[1]
        with self._lock:
            slot = self._by_instance.get(key)
            if slot is not None and slot[0]() is obj:
                return slot[1]
            store = self._by_instance

            def forget(_ref, key=key):
                store.pop(key, None)
            try:
                ref = weakref.ref(obj, forget)
            except TypeError:  # not weak-referenceable: keep it alive with its code
                ref = (lambda o: lambda: o)(obj)
            specs = []
            store[key] = (ref, specs)
            return specs

    # -- specialization ---------------------------------------------------------------------

    def _backend_name(self):
        return self.backend or default_backend()

    def _specialize(self, obj, values):
        """Transpile and load, or decide to fall back; never raises unless fullgraph."""
        spec = self._specialize_for(obj, values)
        spec.backend_name = self._backend_name()
        return spec

    def _specialize_for(self, obj, values):
        from backends import get_backend
        from .analysis.result_boxing import reboxer, tag_reboxer
        from .passes.specialize import specialize

        fn = self.python_function
        offset = 1 if obj is not None else 0
        params = self._params[offset:]
        static_args = {}
        if values is not None:
            static_args = {name: (params.index(name), values[params.index(name)])
                           for name in self.static_argnames if name in params}
        python_args, numpy_args = {}, {}
        if values is not None:
            python_args = {name: (i, type(v), v)
                           for i, (name, v) in enumerate(zip(params, values))
                           if type(v) in (int, float, bool) and name not in static_args}
            np = _numpy()
            numpy_args = {name: (i, type(v), v.ndim if isinstance(v, np.ndarray) else None,
                                 v.dtype.name)
                          for i, (name, v) in enumerate(zip(params, values))
                          if isinstance(v, np.ndarray) or (isinstance(v, np.generic) and
                                                           name not in static_args)}
        arg_keys = {}
        if values is not None:
            arg_keys = {name: (i, type_key(v)) for i, (name, v) in enumerate(zip(params, values))
                        if name not in static_args}
        try:
            program = Program()
            program.check_int = self.check_int_overflow
            entry = specialize(program, fn, obj, static_args, source=self._source,
                               python_args=python_args, numpy_args=numpy_args,
                               arg_keys=arg_keys)
            cache = self.cache if self.cache is not None else get_context(
                "enable_compile_cache")
            backend = get_backend(self._backend_name(), cache=cache,
                                  boundscheck=self.boundscheck)
            backend.standalone = False
            origin = _origin_of(fn)
            # The versions are part of the text, so of the file's content hash: an upgrade of
            # any of them gives a new module and a new Numba cache entry, never a stale one.
            header = (f"# graphjit: generated from {origin} ({fn.__qualname__}) for the "
                      f"{backend.name} backend.\n# Do not edit: regenerated when the source "
                      f"changes.\n# {backend.versions()}")
            generated = backend.lower(program, header)
            module, path = backend.load(generated, fn.__qualname__)
        except TranspileError as exc:
            if self._fullgraph():
                raise exc.with_traceback(None) from None
            spec = Specialization(fallback_reason=str(exc))
            if not isinstance(exc, SourceUnavailable):
                spec.split = self._split(obj, str(exc))
            return spec
        except Exception as exc:  # noqa: BLE001 - a converter bug must not break user code
            if self._fullgraph():
                raise
            return Specialization(
                fallback_reason=f"internal error in graphjit ({type(exc).__name__}: {exc}); "
                                "please report it")
        spec = Specialization()
        from .loader import release_with
        release_with(module.__name__, spec)   # the module goes when its last user does
        spec.backend = backend
        spec.prepare = module._prepare
        spec.function = getattr(module, generated.entry_name)
        spec.constants = generated.constants
        spec.roots = generated.roots
        spec.dynamic_indices = tuple(params.index(p) for p in entry.dynamic_params)
        spec.dynamic_names = tuple(entry.dynamic_params)
        spec.guards = tuple(program.guards.values())
        spec.program = program
        spec.shared = obj is not None and not program.instance_specific and \
            self._bound_self is None
        spec.raise_sites = _raise_sites(program)
        tagged = getattr(entry, "tagged", None)
        spec.rebox = tag_reboxer(*tagged[1:]) if tagged else reboxer(
            getattr(entry, "result_types", None))
        spec.source = GeneratedSource(generated.source)
        spec.path = path
        spec.line_map = generated.line_map
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
            return _comment(f"graphjit: {self.python_function.__qualname__} runs as plain "
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
            return _comment(f"graphjit: {self.python_function.__qualname__} runs as plain "
                            f"Python: {spec.fallback_reason}")
        from backends.eager import EagerBackend
        origin = _origin_of(self.python_function)
        where = f"{os.path.basename(origin.filename)}:{origin.lineno}" if origin else "?"
        generated = EagerBackend().lower(
            spec.program, f"# graphjit IR of {self.python_function.__qualname__} ({where})",
            include_prepare=False)
        return GeneratedSource(generated.source)

    def explain(self):
        """What compiled and what runs as Python, and why: an :class:`Explanation`.

        Each row is a region (the whole function, or a loop of a split function): its lines,
        ``compiled`` or ``python``, and the reason. ``print(f.explain())`` shows a table;
        ``f.explain().rows`` is the data; Jupyter renders it as an HTML table.
        """
        return self._explain_for(self._bound_self)

    def _explain_for(self, obj):
        fn = self.python_function
        origin = _origin_of(fn)
        rows = []
        if env_flag("GRAPHJIT_DISABLE"):
            rows.append(ExplainRow("function", origin, "python", "GRAPHJIT_DISABLE is set"))
        specs = list(self._specs_for(obj))
        if obj is not None:
            specs.extend(s for s in self._shared_for(obj) if _holds_for(s, obj))
        if obj is None:  # a method asked on its class: every instance's specializations
            for _ref, instance_specs in list(self._by_instance.values()):
                specs.extend(instance_specs)
            for class_specs in list(self._by_class.values()):
                specs.extend(class_specs)
        if any(spec.for_calls for spec in specs):   # one made for source() is superseded
            specs = [spec for spec in specs if spec.for_calls]
        for spec in specs:
            if spec.fallback_reason is None:
                rows.append(ExplainRow("function", origin, "compiled",
                                       f"by {spec.backend.name} into {spec.path}"))
                gpu_rows = getattr(spec.backend, "explain_rows", None)
                if gpu_rows is not None:   # numba-cuda: which parts run on the GPU, and why not
                    rows.extend(ExplainRow(*row) for row in gpu_rows())
            if spec.fallback_reason is not None:
                rows.append(ExplainRow("function", origin, "python", spec.fallback_reason))
            for error in spec.failed_types.values():
                rows.append(ExplainRow("function", origin, "python",
                                       f"for some argument types: {error}"))
            if spec.split is not None:
                rows.extend(_split_rows(spec.split))
        return Explanation(fn.__qualname__, rows)


def _raise_sites(program):
    """``raise X(...)`` statements of the generated program, by exception class name."""
    import gast
    sites = {}
    for fn in program.functions:
        for node in gast.walk(fn.node):
            if isinstance(node, gast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, gast.Call) else node.exc
                name = exc.id if isinstance(exc, gast.Name) else getattr(exc, "attr", None)
                if name:
                    sites.setdefault(name, []).append(Origin(fn.filename, node.lineno,
                                                             node.col_offset))
    return sites


def _region_fell_back(region):
    """Why a loop region ran as Python (its last specialization that did), or None."""
    why = None
    for spec in region.jit._specs_for(None) + [s for _r, specs in list(
            region.jit._by_instance.values()) for s in specs]:
        if spec.fallback_reason is not None:
            why = spec.fallback_reason
        elif spec.failed_types:
            why = str(next(iter(spec.failed_types.values())))
    return why


def _split_rows(split):
    rows = []
    for region in split.regions:
        first, last = region.lines
        status, detail = "compiled", (f"inputs ({', '.join(region.inputs)}) -> outputs "
                                      f"({', '.join(region.outputs)})")
        why = _region_fell_back(region)
        if why is not None:
            status, detail = "python", why
        rows.append(ExplainRow(f"loop, lines {first}-{last}", region.origin, status, detail))
    for origin, why in split.python_parts:
        rows.append(ExplainRow("loop", origin, "python", why))
    rows.append(ExplainRow("rest of the function", None, "python",
                           "the statements between the compiled loops run as Python"))
    return rows


class ExplainRow(tuple):
    """One row of :meth:`JitFunction.explain`: ``(region, origin, status, reason)``.

    ``status`` is ``"compiled"`` or ``"python"``; with the numba-cuda backend also ``"gpu"`` (a
    region mapped to kernels) or ``"cpu"`` (a region of a compiled function that stays on the
    CPU); ``origin`` the user's file:line (an
    :class:`~transpiler.errors.Origin`, or None).
    """

    __slots__ = ()

    def __new__(cls, region, origin, status, reason):
        return tuple.__new__(cls, (region, origin, status, reason))

    region = property(lambda self: self[0])
    origin = property(lambda self: self[1])
    status = property(lambda self: self[2])
    reason = property(lambda self: self[3])


class Explanation:
    """The report of :meth:`JitFunction.explain`: ``rows`` (a list of :class:`ExplainRow`);
    ``str()`` is a table; ``_repr_html_`` an HTML table for Jupyter."""

    def __init__(self, name, rows):
        self.name = name
        self.rows = rows

    def __str__(self):
        lines = [f"{self.name}:"]
        if not self.rows:
            lines.append("  not called yet")
        for row in self.rows:
            where = f"{os.path.basename(row.origin.filename)}:{row.origin.lineno}" \
                if row.origin else "-"
            reason = row.reason.replace("\n", "\n" + " " * 12)
            lines.append(f"  {row.status:<9} {where:<22} {row.region}: {reason}")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        import html
        cells = "".join(
            f"<tr><td>{html.escape(r.region)}</td><td>{html.escape(str(r.origin or '-'))}</td>"
            f"<td>{r.status}</td><td><pre>{html.escape(r.reason)}</pre></td></tr>"
            for r in self.rows) or "<tr><td colspan=4>not called yet</td></tr>"
        return (f"<b>{html.escape(self.name)}</b><table><tr><th>region</th><th>where</th>"
                f"<th>status</th><th>why</th></tr>{cells}</table>")


class BoundJitFunction:
    """A :class:`JitFunction` bound to an instance (what ``obj.method`` gives)."""

    def __init__(self, jit_function, obj):
        self._jit = jit_function
        self.__self__ = obj
        function = jit_function.python_function
        self.__func__ = function
        # What a bound method shows: the function's name, doc and signature without self.
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__
        self.__module__ = function.__module__
        self.__wrapped__ = function.__get__(obj, type(obj))
        params = list(jit_function._signature.parameters.values())[1:]
        self.__signature__ = jit_function._signature.replace(parameters=params)

    def __repr__(self):
        return f"<bound graphjit function {self.__qualname__} of {self.__self__!r}>"

    def __eq__(self, other):
        return isinstance(other, BoundJitFunction) and other._jit is self._jit and \
            other.__self__ is self.__self__

    def __hash__(self):
        return hash((id(self._jit), id(self.__self__)))

    def __call__(self, *args, **kwargs):
        return self._jit._call(self.__self__, args, kwargs)

    def source(self):
        """See :meth:`JitFunction.source`."""
        return self._jit._source_for(self.__self__)

    def ir(self):
        """See :meth:`JitFunction.ir`."""
        return self._jit._ir_for(self.__self__)

    def explain(self):
        """See :meth:`JitFunction.explain`."""
        return self._jit._explain_for(self.__self__)

    @property
    def python_function(self):
        return self._jit.python_function


register("jit", JitFunction)
register("bound_jit", BoundJitFunction)


_MISSING = object()


def _comment(text):
    """``text`` as Python comment lines (valid source, as ``source()`` promises)."""
    return GeneratedSource("".join(f"# {line}\n" for line in text.splitlines()))


def _note_raise_site(exc, spec, function):
    """Name the user's line in an exception raised by compiled code.

    Numba's exceptions carry no frame of the compiled function; when exactly one ``raise`` of
    this exception type in the generated code can have raised it, its origin is added as a
    note (PEP 678), shown in the traceback. An IndexError with no ``raise`` of it comes from
    the bounds check of an index: the note names the function (Numba does not say which
    index)."""
    if spec.program is None or not hasattr(exc, "add_note"):
        return
    from .fidelity import not_representable
    if not_representable(exc):
        # An effect-free call would have run again as Python: this one has effects.
        where = ""
        if "int beyond int64" in str(exc) and spec.program.int_sites:
            lines = sorted({f"{os.path.basename(o.filename)}:{o.lineno}"
                            for o in spec.program.int_sites})
            where = (f" at {lines[0]}" if len(lines) == 1 else
                     f" at one of {', '.join(lines[:6])}{', ...' if len(lines) > 6 else ''}")
            if len(spec.program.int_sites) == 1:
                excerpt = spec.program.int_sites[0].excerpt()
                where += f"\n{excerpt}" if excerpt else ""
        exc.add_note(f"in compiled code of {function.__qualname__} "
                     f"({_origin_of(function)}): Python's result does not fit there{where}; "
                     "the function has effects (it stores into an array or calls something "
                     "that may), so graphjit did not run it again as Python. Call it plainly" +
                     (", or use NumPy int64 values (they wrap as NumPy does)"
                      if "int beyond int64" in str(exc) else ""))
        return
    sites = spec.raise_sites.get(type(exc).__name__)
    if sites is None:
        if isinstance(exc, IndexError):
            exc.add_note(f"an index out of range in the compiled code of "
                         f"{function.__qualname__} ({_origin_of(function)}); Numba's bounds "
                         "check does not say which index")
        return
    if len(sites) == 1:
        origin = sites[0]
        excerpt = origin.excerpt()
        exc.add_note(f"raised in compiled code at {origin}" + (f"\n{excerpt}" if excerpt
                                                                  else ""))


def _argument_problem(values, names):
    """Why these runtime arguments cannot go to compiled code, or None.

    Arrays (exactly ``np.ndarray``), NumPy scalars, Python bool/int (within int64)/float/
    complex/str/None and tuples of them can. Lists cannot: Numba's reflected lists do not behave
    like Python lists (a float stored into an int list is truncated). ndarray subclasses cannot:
    Numba would treat a masked array as a plain one.
    """
    for name, value in zip(names, values):
        problem = _value_problem(value)
        if problem is not None:
            return (f"argument {name!r} is {problem}; compiled code takes arrays, numbers, "
                    "strings and tuples of them (pass objects as attributes of self, or name "
                    "them in static_argnames)")
    return None


def _value_problem(value):
    kind = type(value)
    if kind in _PLAIN_TYPES:
        if kind is int and not -2 ** 63 <= value < 2 ** 63:
            return "an int beyond int64"
        return None
    np = _numpy()
    if kind is np.ndarray or isinstance(value, np.generic):
        return None
    if isinstance(value, np.ndarray):
        return f"an ndarray subclass ({kind.__name__}) that Numba would treat as an ndarray"
    if kind is tuple:
        for item in value:
            problem = _value_problem(item)
            if problem is not None:
                return f"a tuple holding {problem}"
        return None
    article = "an" if kind.__name__[:1].lower() in "aeiou" else "a"
    return f"{article} {kind.__name__}"


_PLAIN_TYPES = frozenset({int, float, bool, complex, str, type(None)})
_ENVIRON = os.environ


def _numpy():
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


_np = None


def _is_data(value):
    import numpy as np
    return isinstance(value, (np.ndarray, np.generic, int, float, complex, bool, str, tuple,
                              list, type(None)))


def _numba_types(dynamic, inputs):
    from numba import typeof
    try:
        return tuple(typeof(v) for v in (*dynamic, *inputs))
    except Exception:  # noqa: BLE001 - untypable value: one key for all of them
        return ("untypable",)


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
        boundscheck=True, check_int_overflow=True):
    """Compile ``function`` on its first call; use as ``@jit``, ``@jit(...)`` or ``jit(fn)``.

    Args:
        function: a Python function, a method (``@jit`` on ``Cell.construct``) or a bound method.
        backend (str | None): ``"numba-cpu"``, ``"numba-cuda"`` (GPU kernels, see README "GPU")
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
            give garbage or crash the process, for speed (README gives the measured cost).
        check_int_overflow (bool): Python-int ``+ - * -x abs //`` in compiled code are checked
            for int64 overflow (Python's int grows: an effect-free call then runs again as
            Python, one with effects raises OverflowError naming the line). False lets them
            wrap as in Numba and C, for speed (README gives the measured cost). NumPy integers
            always wrap as NumPy's do.

    Returns:
        JitFunction, or a decorator when ``function`` is None.

    Raises:
        TypeError: ``function`` is not a Python function.
        ValueError: a static argument name is not a parameter.
    """
    def wrap(fn):
        return JitFunction(fn, backend=backend, fullgraph=fullgraph,
                           static_argnames=static_argnames, cache=cache,
                           boundscheck=boundscheck, check_int_overflow=check_int_overflow)
    return wrap if function is None else wrap(function)
