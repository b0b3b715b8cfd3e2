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

Nested functions and lambdas bound once in the analysed function (``def g(v): ...`` at the top
level of its body, ``g = lambda v: ...``) are typed the same way (``local_result``): their
parameters take the call's argument types and the enclosing variables they read (their
captures, which the specializer passes as leading arguments) take the enclosing analysis'
types of those variables (every type the variable may hold: a superset, so the conclusions stay
true as above).
"""
import builtins
import inspect
import itertools
import types

import gast

from ..helpers import is_helper_module
from ..source import capture
from .scalar_kinds import CALL, UNKNOWN, type_of_value
from .scopes import local_names

_MAX_COMBINATIONS = 16
_MAX_DEPTH = 3
_MAX_ROUNDS = 8       # of a recursion's fixpoint: types only grow, over few strings


class CalleeTypes:
    """Result types of user functions by argument types, memoised for one caller's analysis.

    ``result(fn, arg_kinds)`` -> frozenset of type strings (a tuple of them, item by item,
    for a function returning tuple displays of one length), or None when not known (not a
    plain Python function with readable source and only positional parameters, an argument
    of unknown type, too deep). A recursive call (the same function with the same argument
    types, directly or through others) is solved as a least fixpoint: it first gives no type
    (bottom), then the types found so far, until they no longer grow."""

    def __init__(self, depth=0, partial=None, split=None):
        self.depth = depth
        # split(fdef, name, count) -> (fdef with parameter `name` split into one parameter
        # per item, the items' names) or None: passes.tuple_arguments as the specializer
        # applies it to a tuple display argument; None: such arguments are not typed
        self.split = split
        self.memo = {}
        # key -> the result types found so far, for the calls being analysed (all depths)
        self.partial = {} if partial is None else partial

    def _solve(self, key, compute):
        """The least fixpoint of ``compute()`` (a frozenset, a tuple of them for a tuple
        result, or None) for ``key``."""
        if key in self.memo:
            return self.memo[key]
        if key in self.partial:
            return self.partial[key]      # recursion: what is known so far
        outermost = not self.partial
        self.partial[key] = frozenset()
        try:
            for _ in range(_MAX_ROUNDS):
                found = compute()
                if found is None or found == self.partial[key]:
                    break
                self.partial[key] = found
            else:
                found = None
        finally:
            del self.partial[key]
        # A result computed from another call's partial types is not final: kept only at the
        # outermost call. An empty one waits on the caller's own fixpoint (bottom).
        if outermost and found != frozenset() and not (
                isinstance(found, tuple) and not all(found)):
            self.memo[key] = found
        return found

    def result(self, fn, arg_kinds):
        bound = _NOT_BOUND
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
            # a method of an object (``layer.apply(x)``): its function, ``self`` that object
            bound, fn = fn.__self__, fn.__func__
        if self.depth >= _MAX_DEPTH or not isinstance(fn, types.FunctionType) or \
                is_helper_module(fn.__module__):
            return None
        code = fn.__code__
        skip = 0 if bound is _NOT_BOUND else 1      # self: resolved to the object, not typed
        missing = code.co_argcount - skip - len(arg_kinds)
        if 0 < missing <= len(fn.__defaults__ or ()):
            # the defaults of the parameters the call does not give (h(x) of h(x, k=2.0))
            arg_kinds = list(arg_kinds) + [{type_of_value(v)}
                                           for v in fn.__defaults__[-missing:]]
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR
                            | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR) or \
                code.co_kwonlyargcount or code.co_argcount != skip + len(arg_kinds):
            return None
        try:
            source = capture(fn)
        except Exception:  # noqa: BLE001 - no source, a lambda: not known
            return None
        node = source.node
        params = [a.id for a in node.args.args]
        own, params = (params[0], params[1:]) if skip else (None, params)
        key = (code, id(bound), tuple(tuple(frozenset(i) for i in k) if isinstance(k, tuple)
                                      else frozenset(k) for k in arg_kinds))
        flat = []
        for name, kinds in zip(list(params), arg_kinds):
            if not isinstance(kinds, tuple):
                flat.append(kinds)
                continue
            found = self.split(node, name, len(kinds)) if self.split else None
            if found is None:
                return None
            node, items = found          # a tuple display: one parameter per item
            position = params.index(name)
            params[position:position + 1] = items
            flat.extend(kinds)
        arg_kinds = flat
        if any(not kinds or any(k in (UNKNOWN, CALL) or not isinstance(k, str) for k in kinds)
               for kinds in arg_kinds):
            return None
        combos = list(itertools.islice(itertools.product(*[sorted(k) for k in arg_kinds]),
                                       _MAX_COMBINATIONS + 1))
        if len(combos) > _MAX_COMBINATIONS:
            return None
        resolve = _resolver(fn, local_names(node) - {own},
                            None if own is None else (own, bound))
        return self._solve(key, lambda: self._analyse(node, params, combos, resolve, _UNKNOWN,
                                                      {}))

    def _analyse(self, node, params, combos, resolve, unknown, local_defs):
        """The union of ``node``'s result types over the parameter type ``combos``."""
        from .scalar_types import ScalarTypes     # its caller: imported when first needed
        out = set()
        for combo in combos:
            analysis = ScalarTypes(node, dict(zip(params, combo)), resolve, unknown,
                                   callees=CalleeTypes(self.depth + 1, self.partial,
                                                       self.split),
                                   local_defs=local_defs)
            analysis.refine_reads()     # the callee is not split into webs: per read
            kinds = analysis.result_types()
            if kinds is None:
                return None         # no result, or mixed arities
            if kinds == frozenset():
                continue            # bottom: not known yet (a recursion's first round)
            if isinstance(kinds, tuple):    # `return x, y`: the types item by item
                if isinstance(out, list) and len(out) == len(kinds):
                    out = [o | k for o, k in zip(out, kinds)]
                elif out:
                    return None     # a tuple of another length, or not a tuple
                else:
                    out = [set(k) for k in kinds]
            elif isinstance(out, list):
                return None         # a tuple for some argument types, not for others
            else:
                out |= kinds
        if isinstance(out, list):
            return tuple(frozenset(o) for o in out)
        return frozenset(out)

    def local_result(self, fdef, kinds_by_param, resolve, unknown, local_defs, context=()):
        """Result types of the nested function ``fdef`` (a FunctionDef; module docstring)
        called with ``kinds_by_param`` (parameter or captured name -> set of type strings);
        ``resolve``/``unknown``: the enclosing analysis' resolver (names the nested function
        does not bind or capture are the enclosing function's globals); ``local_defs``: the
        enclosing function's nested functions by name (one may call another); ``context``:
        what else the result depends on (hashable, part of the memo key). A frozenset (a
        tuple of them for a tuple result), or None when not known (an unknown argument, too
        deep, mixed results); an empty
        frozenset while the result waits on the enclosing fixpoint or a recursion (bottom)."""
        if self.depth >= _MAX_DEPTH:
            return None
        names = sorted(kinds_by_param)
        arg_kinds = [kinds_by_param[n] for n in names]
        if any(not kinds or any(k in (UNKNOWN, CALL) or not isinstance(k, str) for k in kinds)
               for kinds in arg_kinds):
            return None
        combos = list(itertools.islice(itertools.product(*[sorted(k) for k in arg_kinds]),
                                       _MAX_COMBINATIONS + 1))
        if len(combos) > _MAX_COMBINATIONS:
            return None
        key = (id(fdef), tuple(names), tuple(frozenset(k) for k in arg_kinds), context)
        return self._solve(key, lambda: self._analyse(fdef, names, combos, resolve, unknown,
                                                      local_defs))

    def view_result(self, view, arg_kinds, var_kinds, resolve, unknown):
        """Result types of a call of a specializer's nested-function value (its
        ``typing_view()``: FunctionDef, captures, statics, defaults) with positional
        ``arg_kinds``; ``var_kinds(name)``: the caller's types of a variable it captures;
        ``resolve``/``unknown``: the caller's resolver, the nested function's statics bound
        over it. A frozenset (empty: not known yet in the caller's fixpoint), or None when
        not known."""
        fdef, captures, statics, defaults = view
        params = [a.id for a in fdef.args.args]
        if len(arg_kinds) > len(params):
            return None
        kinds = dict(zip(params, arg_kinds))
        for name in params[len(arg_kinds):]:
            if name not in defaults:
                return None
            kinds[name] = {type_of_value(defaults[name])}
        for name, var in captures:
            kinds[name] = var_kinds(var)
        if any(not k for k in kinds.values()):
            return None

        def bound(node):
            if isinstance(node, gast.Name) and node.id in statics and node.id not in kinds:
                return statics[node.id]
            return resolve(node)
        return self.local_result(fdef, kinds, bound, unknown, {})


_UNKNOWN = object()


_NOT_BOUND = object()     # CalleeTypes.result of a function, not a bound method


def _resolver(fn, locals_, own=None):
    """``resolve(node)`` for ``fn``'s own names: a global, closure cell, builtin or module
    attribute, else ``_UNKNOWN`` (locals, anything else). ``own``: ``(name, object)``, a
    method's ``self`` parameter and the object it is bound to, whose attributes resolve to
    their values now (the caller's specialization guards what it reads of them)."""
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    globals_ = fn.__globals__

    def resolve(node):
        import gast
        if own is not None and isinstance(node, gast.Attribute) and isinstance(
                node.value, gast.Name) and node.value.id == own[0]:
            # self.factor, read without running a property or other descriptor (the
            # analyses only need its type; a property's code runs when the code does)
            try:
                value = inspect.getattr_static(own[1], node.attr)
            except AttributeError:
                return _UNKNOWN
            return _UNKNOWN if hasattr(type(value), "__get__") else value
        if isinstance(node, gast.Name):
            if own is not None and node.id == own[0]:
                return own[1]
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
