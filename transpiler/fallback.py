"""What a jitted call does when compiled code cannot run it (a mixin of
transpiler.api.JitFunction): the fallback specializations (per instance, per argument types
compiled code cannot take), the split into a Python driver and compiled loop regions
(transpiler.split), the re-run as Python after compiled code met a value it cannot hold, and
the FallbackWarning saying so."""
import functools
import warnings

from .errors import FallbackWarning, TranspileError, user_stacklevel
from .island_frames import islands_ran
from .explain import fallback_message
from .arguments import argument_problem, bind_values, holds_big_int, value_problem
from .specialization import MAX_SPECIALIZATIONS, Specialization, _find
from .type_keys import values_key


MAX_NESTING = 8


class Fallback:
    """The fallback half of a JitFunction (see the module docstring); the JitFunction holds
    the state (``_lock``, the specialization lists, ``_quiet``, ``_split_allowed``)."""

    _nesting = 0     # a region of a region of ... of a function: how deep
    _split_function = None  # the function whose code a region's split reads, when not its own

    def _instance_fallback(self, specs, obj, values, error):
        """A fallback specialization for one instance, with its split (see _split), after the
        code shared by its class failed to compile for these argument types."""
        spec = Specialization(fallback_reason=str(error))
        spec.arg_key = values_key(values)
        spec.backend_name = self._backend_name()
        spec.split = self._split(obj, error)
        with self._lock:
            specs[:] = [spec, *specs][:MAX_SPECIALIZATIONS]
            self._fast_forget()
        return spec

    def _argument_fallback(self, specs, obj, values, runtime, problem):
        """A fallback specialization for arguments compiled code cannot take (``problem``):
        the function split into a Python driver and compiled loops (transpiler.split), whose
        regions take only the values they read, so a dict or an object argument costs the
        statements that use it, not the loops beside them. Kept in ``specs`` for the
        argument types; None when nothing compiles, or when the refusal depends on a value
        rather than the types (an int beyond int64: the same types may compile next call).
        Kept without a split where nothing compiles, so that explain() says so."""
        if not self._split_allowed or any(holds_big_int(v) for _n, v in runtime):
            return None
        with self._lock:
            spec, _inputs = _find(specs, obj, values, self._backend_name())
            if spec is not None:    # made by a racing thread
                return spec
            spec = Specialization(fallback_reason=problem)
            spec.argument_problem = True     # (fullgraph set later: raises, api._run)
            spec.arg_key = values_key(values)
            spec.backend_name = self._backend_name()
            spec.split = self._split(obj, python_values={
                name: value_problem(value) for name, value in runtime
                if value_problem(value) is not None})
            specs[:] = [spec, *specs][:MAX_SPECIALIZATIONS]
            self._fast_forget()
        return spec

    def _rerun_allowed(self, spec, exc):
        """Whether the call may run again as Python after compiled code raised ``exc``: its
        result does not fit compiled code (an int beyond int64, a complex number) and the
        generated code has no effects (transpiler.analysis.effects), so nothing happened yet
        that the caller can see. Warns once per function."""
        from .helpers.messages import not_representable, USER_EXCEPTION
        if not not_representable(exc) or self._fullgraph():
            return False
        if spec.effect_free is None:
            from .analysis.effects import effect_free
            # (Python islands: free of effects only while none of them ran in this call)
            source = str(spec.source)
            spec.effect_free = effect_free(source, islands=True) and (
                "until an island runs" if "python_island" in source else "free")
        free = bool(spec.effect_free) and (spec.effect_free == "free" or not islands_ran())
        if not free or str(exc) == USER_EXCEPTION or self._quiet:
            return free   # a user exception class: Python raises it, no warning
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
        that compiled (a region may fall back too, transpiler.split). A fallback for
        arguments compiled code cannot take says what this call's arguments are (the same
        types may be refused for another reason: a list of str, a list of float and tuple)."""
        if warn and error is None and spec.argument_problem:
            error = self._argument_reason(obj, args, kwargs)
        if spec.split is None:
            if warn:
                self._fall_back(spec, error)
            return self._python(obj, args, kwargs)
        try:
            return spec.split(obj, args, kwargs)
        finally:
            if warn:
                self._fall_back(spec, error)

    def _argument_reason(self, obj, args, kwargs):
        """Why compiled code cannot take this call's arguments (arguments.argument_problem),
        or None."""
        values = bind_values(self._signature, len(self._params), self._simple, obj, args,
                             kwargs)
        if values is None:
            return None
        offset = 1 if obj is not None else 0
        runtime = [(n, v) for n, v in zip(self._params[offset:], values)
                   if n not in self.static_argnames]
        return argument_problem([v for _, v in runtime], [n for n, _ in runtime])

    def _split(self, obj, error=None, python_values=None):
        """Try region-level fallback (transpiler.split); None when nothing compiles.
        ``error``: why the function did not compile (a TranspileError, its origin the
        statement to run as a Python island), or None; ``python_values``: arguments compiled
        code cannot take -> why (the statements reading them run as Python islands)."""
        if not self._split_allowed:
            return None
        from .python_callees import redirects
        from .split import split
        failed = error if isinstance(error, TranspileError) and getattr(
            error, "origin", None) is not None else None
        try:
            return split(self._split_function or self.python_function, obj, self._region_jit,
                         functools.partial(redirects, self), source=self._source,
                         inner=self._split_allowed == "inner", failed=failed,
                         python_values=python_values)
        except Exception:  # noqa: BLE001 - splitting is an optimisation: never break the call
            return None

    def _region_jit(self, function, source):
        """The JitFunction of a loop region of this function (transpiler.split): its options,
        its own parsed ``source``, split only below its own loop (``split="inner"``); quiet
        where this function is. Regions nest at most ``MAX_NESTING`` deep (a loop nest's
        depth; a guard against splitting one loop again and again)."""
        depth = self._nesting + 1
        region = type(self)(function, source=source,
                            split="inner" if depth < MAX_NESTING else False, **self._options())
        region._quiet = self._quiet
        region._nesting = depth
        return region

    def _fall_back(self, spec, error, reason=None):
        if self._quiet:
            return
        warnings.warn(self._fallback_message(spec, error, reason), FallbackWarning,
                      stacklevel=user_stacklevel())

    def _fallback_message(self, spec, error, reason=None):
        """The text of the FallbackWarning of ``spec`` (None: no specialization), ``error``
        or ``reason`` (transpiler.explain.fallback_message)."""
        return fallback_message(self, spec, error, reason)
