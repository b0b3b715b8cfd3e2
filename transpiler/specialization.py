"""Specializations of a jitted function: the generated code made for one set of guards (or
the decision to fall back), and how a call finds the one whose guards hold.

A :class:`~transpiler.api.JitFunction` keeps a list of them per function, per instance (a
method) and per class (code shared by every instance: program.structural); see
docs/ARCHITECTURE.md.
"""
import threading
import weakref

from .raise_sites import raise_sites
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
        self.writeback = None       # attribute names the result tuple carries after it
        self.boxer = None           # backend.result_boxer(function), made at the first call
        self.arg_key = None         # the argument types a fallback was decided for
        self.argument_problem = False   # a fallback for arguments compiled code cannot take
        self.fallback_error = None  # the TranspileError of fallback_reason, where one was raised
        self.shared = False         # serves every instance of its class (program.structural)
        self.for_calls = True       # False: made for source()/ir() before any call
        self.graph_refusal = None   # why the NumPy graph path was not taken (explain())
        self.identity = False       # dynamic_indices is every argument in order
        # paths (item indices) of result parts of unknown type (result_box_check), None: none
        self.unknown_boxes = None
        self.boxes_checked = {}     # numba type tuple -> True (fits) after the check


    def set_writeback(self, attributes, fn):
        """Carry the attribute stores of passes/attribute_stores.py (``attributes``: the
        names after the result in the returned tuple). Returns why not (a fallback reason)
        when the code has other effects: a raise then could not run again as Python (it
        must, so that Python stores what it stored before raising); else None."""
        if not attributes:
            return None
        from .analysis.effects import effect_free
        if not effect_free(str(self.source)):
            return (f"{fn.__qualname__} stores into attributes of its object and has other "
                    "effects: compiled code cannot store them as Python does if it raises")
        self.writeback = list(attributes)
        self.effect_free = True
        return None

    def attributes_fit(self, obj):
        """Whether compiled code can hold the stored attributes' values now (a Python int
        an earlier call left beyond int64 cannot: the call then runs as Python)."""
        from .arguments import value_problem
        return all(value_problem(getattr(obj, attr)) is None for attr in self.writeback)

    def written_back(self, obj, result):
        """The compiled ``result`` with its attribute values stored into ``obj`` (the
        instance the method is bound to) and removed; ``result`` when there are none."""
        if not self.writeback:
            return result
        for attr, value in zip(self.writeback, result[1:]):
            setattr(obj, attr, value)
        return result[0]
    def matches(self, obj, values):
        """Runtime inputs (a tuple) when the guards hold, else None. A fallback is kept for
        the argument types it was decided on (another type may compile)."""
        if self.fallback_reason is not None:
            return () if self.arg_key is None or self.arg_key == values_key(values) else None
        return self.prepare(obj, values, self.roots, self.constants)


def specialization_of(made, params, shared):
    """The :class:`Specialization` of the code ``made`` (a transpiler.pipeline.Compiled) for
    a function of parameters ``params`` (``self`` excluded); ``shared``: it serves every
    instance of its class. Its ``rebox`` is the caller's to set."""
    program, entry, generated, module = made.program, made.entry, made.generated, made.module
    spec = Specialization()
    from .loader import release_with
    release_with(module.__name__, spec)   # the module goes when its last user does
    spec.backend = made.backend
    spec.prepare = module._prepare
    spec.function = getattr(module, generated.entry_name)
    spec.constants = generated.constants
    spec.roots = generated.roots
    spec.dynamic_indices = tuple(params.index(p) for p in entry.dynamic_params)
    spec.dynamic_names = tuple(entry.dynamic_params)
    spec.guards = tuple(program.guards.values())
    spec.program = program
    spec.shared = shared
    spec.raise_sites = raise_sites(program)
    spec.source = GeneratedSource(generated.source)
    spec.path = made.path
    spec.line_map = generated.line_map
    spec.graph_refusal = made.graph_refusal
    return spec


class SpecializationCache:
    """Where a :class:`~transpiler.api.JitFunction` keeps its specializations, and how it makes
    one once however many threads ask (a base class of JitFunction).

    It reads the attributes JitFunction.__init__ sets: ``_plain`` (the function's list),
    ``_by_instance`` (id(obj) -> (weak reference, list)), ``_by_class`` (class -> the list
    shared by its instances), ``_lock``, ``_pending``, ``_params``; and calls its
    ``_specialize`` and ``_fast_forget`` (transpiler.fast_path).
    """

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
                    self._fast_forget()   # the fast path's decisions (transpiler.fast_path)
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

    def _shared_for(self, obj):
        """The specializations shared by every instance of ``type(obj)`` (a list)."""
        kind = type(obj)
        shared = self._by_class.get(kind)
        if shared is None:
            with self._lock:
                shared = self._by_class.setdefault(kind, [])
        return shared

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


_MISSING = object()


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
    from .guards import holds
    from .program import structural
    for guard in spec.guards:
        if guard.path[0][0] != "self":
            continue
        try:
            now = guard.path.read(obj, (), spec.roots)
        except Exception:  # noqa: BLE001 - unreadable: does not hold
            return False
        if not holds(guard, now, structural(guard, spec.program)):
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


def comment(text):
    """``text`` as Python comment lines (valid source, as ``source()`` promises)."""
    return GeneratedSource("".join(f"# {line}\n" for line in text.splitlines()))
