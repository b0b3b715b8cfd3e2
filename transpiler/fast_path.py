"""The dispatcher's fast path: a call of a plain jitted function whose argument types were
seen before skips the general search (a mixin of transpiler.api.JitFunction).

What the general path (``JitFunction._call``) decides for a call is kept per argument-type
key, for the next call with arguments of exactly those types: the specialization it ran (its
``_prepare`` still re-checks every guard and re-reads every runtime input at each call), the
fallback it took, or that compiled code cannot take such arguments. Only what depends on the
types alone is skipped: binding, the search through the specializations, the argument checks
(an int is still checked against int64 at each call), the warning's text. A call the kept
decision does not fit (a guard fails, an int beyond int64, a backend changed, a Numba compile
failure recorded) goes the general way, which decides again.

The key: the exact type of each argument (``type(v)``, so an ndarray subclass, a NumPy scalar
type, bool and int are each their own). Arrays and tuples are told apart further by the
specialization's ``_prepare`` (its guards check an array's dtype and ndim, a tuple's items'
types); a fallback kept for them compares the complete argument key (transpiler.type_keys), as
the general path does. Several decisions may be kept for one key (arrays of two dtypes), the
newest tried first. An array's layout and writeability are not in the key: compiled code is a
Numba dispatcher, which picks (or compiles) its overload for them.

Thread safety: a call only reads the table. It is written on the general path only (one
dict store, atomic; a racing store of another decision for the same key is just as valid)
and replaced whole, under the function's lock, whenever a specialization list changes, so a
decision for a specialization no longer kept is never used again. Used only for functions
called plainly (not bound to an instance, no static arguments, no ``self`` first, plain
parameters); methods and Cells take the general path.
"""
import os
import sys
import warnings

from . import tiers
from .arguments import value_problem
from .python_scope import run_reaching
from .context import _DEVICE_BACKENDS as _BACKENDS
from .settings import CONTEXT as _CONTEXT
from .type_keys import LIST_ELEMENT_TYPES, values_key
from .errors import _INTERNAL, FallbackWarning, user_stacklevel

_MISS = object()        # the kept decision does not fit this call: take the general path
_warn = warnings.warn   # (message, category, stacklevel) positionally: a little cheaper
_MAX_KEYS = 256         # a table larger than this starts again (argument types without end)

try:   # os.environ's own mapping: reading it skips encoding the name at every call
    _ENV_DATA = os.environ._data
    _DISABLE_KEY = os.environ.encodekey("GRAPHJIT_DISABLE")
    _FULLGRAPH_KEY = os.environ.encodekey("GRAPHJIT_FULLGRAPH")
except AttributeError:  # pragma: no cover - not CPython's os.environ
    _ENV_DATA, _DISABLE_KEY, _FULLGRAPH_KEY = os.environ, "GRAPHJIT_DISABLE", "GRAPHJIT_FULLGRAPH"

# Value-dependent argument checks (argument_problem): an int may be beyond int64, a tuple may
# hold one, a list may hold several types. Every other type is accepted or refused by its type
# alone.
_VALUE_CHECKED = (int, tuple, list)
# Types a refusal is kept for: builtins no guard accepts (their instances have no ``ndim`` or
# ``dtype`` that an array guard could read), so no specialization could ever match them.
_REFUSED_TYPES = frozenset({dict, set, frozenset, bytes, bytearray, range, slice})
_PYTHON_FIXED = frozenset({float, int, bool, complex, str, type(None)})
_MAX_DECISIONS = 4      # kept per key whose arguments hold arrays or tuples


def disable_may_be_set():
    """Whether ``GRAPHJIT_DISABLE`` is in the environment (the caller reads its value: set
    through ``os.environ``, as ``env_flag`` reads it)."""
    return _DISABLE_KEY in _ENV_DATA


def fullgraph_may_be_set():
    """Whether ``GRAPHJIT_FULLGRAPH`` is in the environment (the caller reads its value)."""
    return _FULLGRAPH_KEY in _ENV_DATA


def _key_function(arity):
    """A function giving the exact type of each of ``arity`` arguments, as a tuple."""
    if arity == 0:
        return lambda args: ()
    if arity == 1:
        return lambda args: (type(args[0]),)
    if arity == 2:
        return lambda args: (type(args[0]), type(args[1]))
    if arity == 3:
        return lambda args: (type(args[0]), type(args[1]), type(args[2]))
    if arity == 4:
        return lambda args: (type(args[0]), type(args[1]), type(args[2]), type(args[3]))
    return lambda args: tuple(map(type, args))


def _types_only(spec, kinds):
    """Whether ``_prepare`` of ``spec`` can only return ``()`` for arguments of exact types
    ``kinds``: every guard checks an argument's exact type (no array or tuple, whose dtype or
    items the key does not hold) and it reads no runtime input."""
    if spec.program.entry.inputs or any(issubclass(k, _refined_kinds()) for k in kinds):
        return False
    return all(len(g.path) == 1 and g.path[0][0] == "arg" and g.kind in ("typekey", "type")
               for g in spec.guards)


def _fixed_overload(kinds):
    """Whether arguments of exact types ``kinds`` always give compiled code one Numba type
    each (so one overload, one result type): Python scalars, str and None, NumPy numbers and
    bools (not timedelta64, whose unit is in its Numba type)."""
    np = _numpy()
    return all(k in _PYTHON_FIXED or (issubclass(k, (np.number, np.bool_)) and
                                      not issubclass(k, np.timedelta64)) for k in kinds)


def _compiled(spec, kinds, backend_name, fixed_overload=False):
    """The decision "run compiled ``spec``": a function ``(jit, args)`` -> the result, or
    ``_MISS``. It checks what JitFunction._call and _run check per call (the backend, Numba
    compile failures recorded, ints within int64, the guards and runtime inputs through
    ``_prepare``, skipped when it only checks what the key holds) and runs what
    JitFunction._run_compiled runs, inline; where the arguments' types fix the overload, the
    result's boxing is found once (Backend.result_converter), as it is where the caller says
    the key, the guards and its own checks fix the overload (``fixed_overload``: tier 1,
    transpiler.tiers)."""
    dynamic_indices = spec.dynamic_indices
    checked = tuple(i for i in dynamic_indices if issubclass(kinds[i], _VALUE_CHECKED))
    identity = dynamic_indices == tuple(range(len(kinds)))
    skip_prepare = _types_only(spec, kinds)
    prepare, roots, constants = spec.prepare, spec.roots, spec.constants
    function, backend = spec.function, spec.backend
    failed = spec.failed_types   # the specialization's own dict, filled in place
    if spec.boxer is None:
        spec.boxer = backend.result_boxer(function)
    box_kinds, box = spec.boxer
    rebox = spec.rebox
    fixed = [] if fixed_overload or (skip_prepare and _fixed_overload(kinds)) else None
    # (fixed: [converter], once known)

    def run_compiled(jit, args):
        if failed or backend_name != (jit.backend or _BACKENDS[_CONTEXT["device_target"]]):
            return _MISS
        for i in checked:
            if value_problem(args[i]) is not None:
                return _MISS
        if skip_prepare:
            inputs = ()
        else:
            inputs = prepare(None, args, roots, constants)
            if inputs is None:
                return _MISS
        dynamic = args if identity else tuple(args[i] for i in dynamic_indices)
        try:
            # (a tuple passed on as it is: one argument tuple fewer built per call)
            result = function(*dynamic, *inputs) if inputs else function(*dynamic)
        except Exception as exc:
            done, result = jit._compiled_raised(exc, spec, dynamic, inputs, jit._plain, None,
                                                args, args, {}, _nothing)
            if not done:
                raise  # the user's own exception, raised by the compiled code
            return result
        if fixed:
            convert = fixed[0]
            if convert is not None:
                result = convert(result)
        else:
            if fixed is not None:   # the first call: its overload exists now
                fixed.append(backend.result_converter(function, dynamic))
            if isinstance(result, box_kinds):
                result = box(result, dynamic, inputs)
        return result if rebox is None else rebox(result)
    run_compiled.spec = spec
    return run_compiled


def _nothing(rerun):
    return None


def _fallback(spec, message, backend_name, kinds, python):
    """The decision "run fallback ``spec``" (JitFunction._run_fallback): the plain function
    ``python`` after warning ``message`` (None: the split form, whose warning says what its
    loops did).
    Kept for the argument key it was decided for: compared in full where the exact types do
    not hold it (arrays, tuples)."""
    arg_key = spec.arg_key if any(issubclass(k, _refined_kinds()) for k in kinds) else None
    user_code = [None]   # the code of the last caller outside graphjit (_warn_at_caller)

    def run_fallback(jit, args):
        if backend_name != (jit.backend or _BACKENDS[_CONTEXT["device_target"]]):
            return _MISS
        if spec.argument_problem and jit._fullgraph():
            return _MISS        # (the general path raises)
        if arg_key is not None and values_key(args) != arg_key:
            return _MISS
        if message is None:
            return jit._run_fallback(spec, None, args, {}, warn=True)
        if not jit._quiet:
            # _warn_at_caller's lines, inlined: the call costs ~0.06 us of the ~1.05 us a
            # fallen-back call adds (make bench 5b, measured side by side)
            code = sys._getframe(2).f_code     # __call__'s caller: stacklevel 3 from here
            if code is user_code[0] or _INTERNAL.get(code.co_filename) is False:
                user_code[0] = code
                _warn(message, FallbackWarning, 3)
            else:
                _warn(message, FallbackWarning, user_stacklevel())
        if jit.__dict__.get("_reaches") is False:   # reaches no Cell (python_scope): plain
            return python(*args)
        return run_reaching(jit, python, args, {})
    return run_fallback


def _refused(message, python, first=None):
    """The decision "compiled code cannot take these arguments": warn ``message``, run the
    plain function ``python`` (with ``fullgraph`` the general path raises instead).
    ``first``: ``(i, T)`` where argument ``i`` is a list refused for its element 0 of type
    ``T``: the decision fits only calls whose list there starts with a ``T``."""
    user_code = [None]   # (_warn_at_caller)

    def run_refused(jit, args):
        if first is not None:
            held = args[first[0]]
            if not held or type(held[0]) is not first[1]:    # (its exact type: the key's)
                return _MISS
        if jit._fullgraph():
            return _MISS
        if not jit._quiet:
            _warn_at_caller(message, user_code)
        if jit.__dict__.get("_reaches") is False:
            return python(*args)
        return run_reaching(jit, python, args, {})
    return run_refused


def _warn_at_caller(message, user_code):
    """Warn ``message`` (a FallbackWarning) at the first frame outside graphjit, for a
    decision called by ``__call__``: that frame is ``__call__``'s caller unless graphjit's own
    code called it (user_stacklevel). ``user_code[0]``: the code of the last caller found
    outside, told apart without the file lookup."""
    code = sys._getframe(3).f_code     # frames: this, the decision, __call__, its caller
    if code is user_code[0] or _INTERNAL.get(code.co_filename) is False:
        user_code[0] = code
        _warn(message, FallbackWarning, 4)
    else:
        _warn(message, FallbackWarning, user_stacklevel())


def _either(decisions):
    """Several decisions for one key, tried in order: the first that fits the call."""
    def run_either(jit, args):
        for decision in decisions:
            result = decision(jit, args)
            if result is not _MISS:
                return result
        return _MISS
    run_either.decisions = decisions
    return run_either


def _numpy():
    import numpy    # the arguments of a call that made a decision: NumPy is loaded by then
    return numpy


def _refined_kinds():
    """The argument types the exact type does not say all of: arrays, tuples (their
    subclasses too: a namedtuple's items) and lists (their elements' type)."""
    return (_numpy().ndarray, tuple, list)


class FastPath:
    """The fast path's table and its upkeep (a base class of JitFunction). ``_fast`` is the
    table (exact types -> decision), None where the function never takes the fast path."""

    def _init_fast_path(self, enabled):
        self._fast = {} if enabled else None
        self._arity = len(self._params)
        self._fast_key = _key_function(self._arity)

    def _fast_table(self, obj, values, args, kwargs):
        """The table a decision for this call may go in (read before the general search, so
        one made for a list replaced meanwhile lands in the old table), or None."""
        fast = self._fast
        if fast is None or obj is not None or values is not args or kwargs:
            return None
        return fast

    def _fast_forget(self):
        """Drop every decision (a specialization list changed); under ``_lock``."""
        if self._fast is not None:
            self._fast = {}

    def _fast_keep(self, table, kinds, decision):
        if len(table) >= _MAX_KEYS:
            table.clear()
        kept = table.get(kinds)
        if kept is not None and any(issubclass(k, _refined_kinds()) for k in kinds):
            # Arrays of another dtype, say: each decision tells its own calls apart.
            spec = getattr(decision, "spec", None)
            kept = tuple(d for d in getattr(kept, "decisions", (kept,))
                         if spec is None or getattr(d, "spec", None) is not spec)
            decision = _either((decision,) + kept[:_MAX_DECISIONS - 1])
        table[kinds] = decision

    def _fast_keep_spec(self, table, args, spec):
        """Keep ``spec`` (found or made for these arguments, about to run) for their types."""
        if table is None or spec.backend_name is None:
            return
        kinds = self._fast_key(args)
        if spec.fallback_reason is not None:
            message = None if spec.split is not None or spec.argument_problem else \
                self._fallback_message(spec, None)
            self._fast_keep(table, kinds, _fallback(spec, message, spec.backend_name, kinds,
                                                         self.python_function))
        elif not spec.program.uses_random and not spec.failed_types and (
                spec.unknown_boxes is None or _fixed_overload(kinds)):
            # (random: always a miss; a result part of unknown type: its box is checked per
            # overload on the general path, and only these types fix the overload)
            decision = _compiled(spec, kinds, spec.backend_name)
            if spec.backend.name == "numpy-graph" and tiers.enabled():
                # which of plain, the graph and Numba's code runs: measured (transpiler.tiers)
                decision = tiers.race_for(spec, kinds, decision, self.python_function,
                                          run_reaching, _MISS, _compiled)
            self._fast_keep(table, kinds, decision)

    def _fast_keep_refusal(self, table, args, names, reason):
        """Keep a refusal (``reason``, of argument ``names``) where the argument types alone
        refuse the call: the refused argument is a builtin container no guard accepts, or a
        list refused for the type of its element 0. An int, tuple or list before it may be
        refused too at a later call: the kept message then names the later argument, still
        truly (the general path names the first)."""
        if table is None:
            return
        for index, (name, value) in enumerate(zip(names, args)):
            kind = type(value)
            if kind is list and value and type(value[0]) not in LIST_ELEMENT_TYPES and \
                    f"argument {name!r} " in reason:
                # refused by its element 0's type alone (arguments.value_problem): kept for
                # calls whose list there starts with an element of that type
                self._fast_keep(table, self._fast_key(args), _refused(
                    self._fallback_message(None, None, reason), self.python_function,
                    (index, type(value[0]))))
                return
            if issubclass(kind, _VALUE_CHECKED):
                # an int, tuple or list before the refused one: refused too at another call,
                # which changes only which argument the (true) message names
                continue
            if value_problem(value) is not None:
                if kind in _REFUSED_TYPES and f"argument {name!r} " in reason:
                    self._fast_keep(table, self._fast_key(args), _refused(
                        self._fallback_message(None, None, reason), self.python_function))
                return
