"""The scalar type of a user function's result, for the scalar-type analysis of its caller
(transpiler.analysis.scalar_types ``_call``): ``helper(a[i])`` is an np.float64 where
``helper`` returns ``x * 2`` of an np.float64, so ``s = 0.0; s += helper(a[i]); return s``
merges a Python float with an np.float64 and the caller boxes its result by path (a result
flag) as the plain call would, instead of as Numba boxes it.

The callee's own scalar types are computed on its source with the argument types as its
parameters' types (one analysis per combination of them), as the specializer converts it. The
callee's source is analysed as written, before its own desugaring and web splitting: its
result types are then the same or more (a union over one name's webs), never fewer, so what
the caller concludes from them (one box on every path, or a merge to tag or refuse) stays
true.
"""
import builtins
import inspect
import itertools
import types

from ..helpers import is_helper_module
from ..source import capture
from .scalar_kinds import CALL, UNKNOWN
from .scopes import local_names

_MAX_COMBINATIONS = 16
_MAX_DEPTH = 3


class CalleeTypes:
    """Result types of user functions by argument types, memoised for one caller's analysis.

    ``result(fn, arg_kinds)`` -> frozenset of type strings, or None when not known (not a
    plain Python function with readable source and only positional parameters, an argument
    of unknown type, recursion, too deep)."""

    def __init__(self, depth=0):
        self.depth = depth
        self.memo = {}
        self.active = set()

    def result(self, fn, arg_kinds):
        if self.depth >= _MAX_DEPTH or not isinstance(fn, types.FunctionType) or \
                is_helper_module(fn.__module__):
            return None
        code = fn.__code__
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR
                            | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR) or \
                code.co_kwonlyargcount or code.co_argcount != len(arg_kinds):
            return None
        if any(not kinds or any(k in (UNKNOWN, CALL) or not isinstance(k, str) for k in kinds)
               for kinds in arg_kinds):
            return None
        combos = list(itertools.islice(itertools.product(*[sorted(k) for k in arg_kinds]),
                                       _MAX_COMBINATIONS + 1))
        if len(combos) > _MAX_COMBINATIONS:
            return None
        key = (code, tuple(frozenset(k) for k in arg_kinds))
        if key in self.memo:
            return self.memo[key]
        if code in self.active:
            return None         # recursion: typed where it is converted
        self.active.add(code)
        try:
            found = self._analyse(fn, combos)
        finally:
            self.active.discard(code)
        self.memo[key] = found
        return found

    def _analyse(self, fn, combos):
        from .scalar_types import ScalarTypes     # its caller: imported when first needed
        try:
            source = capture(fn)
        except Exception:  # noqa: BLE001 - no source, a lambda: not known
            return None
        node = source.node
        params = [a.id for a in node.args.args]
        resolve = _resolver(fn, local_names(node))
        out = set()
        for combo in combos:
            analysis = ScalarTypes(node, dict(zip(params, combo)), resolve, _UNKNOWN,
                                   callees=CalleeTypes(self.depth + 1))
            kinds = analysis.result_types()
            if not isinstance(kinds, frozenset) or not kinds:
                return None         # no result, a tuple, or mixed arities
            out |= kinds
        return frozenset(out)


_UNKNOWN = object()


def _resolver(fn, locals_):
    """``resolve(node)`` for ``fn``'s own names: a global, closure cell, builtin or module
    attribute, else ``_UNKNOWN`` (locals, anything else)."""
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    globals_ = fn.__globals__

    def resolve(node):
        import gast
        if isinstance(node, gast.Name):
            if node.id in locals_:
                return _UNKNOWN
            if node.id in closure:
                try:
                    return closure[node.id].cell_contents
                except ValueError:
                    return _UNKNOWN
            if node.id in globals_:
                return globals_[node.id]
            return getattr(builtins, node.id, _UNKNOWN)
        if isinstance(node, gast.Attribute):
            base = resolve(node.value)
            if isinstance(base, types.ModuleType):
                return getattr(base, node.attr, _UNKNOWN)
        return _UNKNOWN
    return resolve
