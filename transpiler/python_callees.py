"""Plain functions called from a jitted function's Python run compiled (issue 20).

When a jitted function runs as Python (its fallback, a refusal, a re-run, a split's driver),
the plain Python functions it calls by a global name would run as Python too: one ``print`` in
a driver function would keep every loop it reaches in the interpreter. torch.compile resumes
compiling in the frames after a graph break; graphjit does the same for the functions such
Python calls: the jitted function's Python runs as a *variant*, a copy of its code whose calls
``g(..)`` of a qualifying plain function ``g`` are spelled ``g.resolve()(..)``, ``g`` being a
free variable holding a :class:`_Redirect`. The callee's compiled form is a quiet
:class:`~transpiler.api.JitFunction` (no FallbackWarning: nobody asked to compile it), one per
callee and options, shared by every caller; ``explain()`` of the caller lists each callee.

A callee is redirected only where that cannot change what the call does:

- ``g`` is a global of the function's module bound to a plain Python function of the user's
  code (not the standard library, site-packages or graphjit) that has a loop or a
  comprehension, is not a generator or coroutine, whose source compiles to its own code, and
  whose code converts (argument types aside; code that reads frames, prints, warns or logs
  does not, so no redirected callee can see the frames graphjit adds).
- every use of the name in the function (nested functions, lambdas, comprehensions included)
  is the callee of a call: never a value (``map(g, xs)``), never assigned, deleted, a
  parameter or declared ``global``/``nonlocal``; the function does not use ``super``,
  ``locals``, ``vars``, ``globals``, ``eval`` or ``exec``; its source compiles to its own code
  again (an edited file never runs).
- ``resolve()`` runs where Python looks the name up, before the arguments: a global rebound
  (even by an argument's evaluation), deleted (NameError), or a callee whose ``__code__`` or
  defaults changed (``%autoreload``) is called as plain Python calls it.
- whether a call runs compiled is measured per kind of call (argument types, dtypes, sizes
  within a factor of 16): 3 plain calls timed; if their median is under 20 us that kind stays
  plain, else after the compiling call 3 compiled calls are timed and the faster way is kept
  (issue 18: never slower than plain; a compiled call costs a dispatch of a few us). A callee
  whose first decided kind stays plain, with none compiled, stays plain for good: the variant
  is made again without it.

The variant shares the function's globals dict, closure cells (``nonlocal`` writes reach the
enclosing function), defaults, names and lines; a new variant is made when the function's
code or defaults change.
"""
import ast
import dis
import os
import sysconfig
import threading
import time
import types
from .nodes import copy_tree, walk

_CO_NESTED = 0x10       # set on a function compiled inside another (the factory)
_SKIP = object()         # the function has no variant: it runs as itself
_LOCK = threading.Lock()
_CALLEE_LOCK = threading.RLock()   # a callee's transpile check may reach another callee
_SAMPLES = 3              # calls timed each way per kind of call
_WORTH_SECONDS = 20e-6    # plain calls this long (median) may be worth compiling
_SCOPE_READERS = {"super", "locals", "vars", "eval", "exec", "globals"}
_LOOP_OPS = {"FOR_ITER", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"}
_NOT_PLAIN = 0x20 | 0x80 | 0x100 | 0x200    # CO_GENERATOR, CO_COROUTINE, CO_ITERABLE_COROUTINE,
                                            # CO_ASYNC_GENERATOR


def variant(jit, function):
    """The function to run for ``jit``'s Python ``function``: a copy whose calls of plain user
    functions may run compiled (see the module docstring), or ``function`` itself when it
    calls none. Made once per (jit, function, its code and defaults) and kept on ``jit``."""
    key = (function, getattr(function, "__code__", None), getattr(function, "__defaults__", None),
           getattr(function, "__kwdefaults__", None))
    kept = jit.__dict__.get("_variant")
    if _holds(kept, key) and kept[2] is None:
        return kept[1]
    with _LOCK:    # once, however many threads fall back first
        kept = jit.__dict__.get("_variant")
        if _holds(kept, key) and kept[2] is None:
            return kept[1]
        # A callee that stays plain leaves the variant (stale): made again without it, the
        # others' redirects (and their choices) kept.
        earlier = kept[2] if _holds(kept, key) else None
        try:
            made = _make(jit, function, earlier)
        except Exception:  # noqa: BLE001 - a variant is an optimisation: run the function
            made = None
        result = function if made is None else made
        jit.__dict__["_variant"] = [key, result, None]
        if made is not None:
            for name, redirect in made.__graphjit_callees__.items():
                redirect.owner = jit.__dict__["_variant"]
                jit.__dict__.setdefault("_callees", {})[name] = redirect
    return result


def _holds(kept, key):
    """Whether the kept variant record ``[key, function, stale]`` was made for ``key`` (the
    function, its code and defaults: identities)."""
    return kept is not None and all(a is b for a, b in zip(kept[0], key))


def callees(jit):
    """The ``(name, redirect)`` pairs of the plain functions ``jit``'s Python has called
    through a redirect (for explain()), in the order of their names; ``redirect.jit`` is the
    callee's JitFunction, ``redirect.choice`` None (its first calls), the plain function
    (kept plain) or that JitFunction."""
    return sorted(jit.__dict__.get("_callees", {}).items())


def _make(jit, function, earlier=None):
    """The variant of ``function`` (None: none); ``earlier``: the redirects of a stale one."""
    function = getattr(function, "__func__", function)
    if not isinstance(function, types.FunctionType):
        return None
    code = function.__code__
    candidates = _candidates(jit, function) if earlier is None else None
    if candidates == {}:
        return None
    fdef, filename = _faithful_source(function)
    if fdef is None:
        return None         # no source, or the file no longer holds this function's code
    if earlier is not None:
        redirects_ = {n: r for n, r in earlier.items() if r.choice is not r.original}
    else:
        redirects_ = _redirects(jit, function, candidates,
                                _calls_only(fdef, set(candidates)))
    if not redirects_:
        return None
    fdef = _resolving_calls(copy_tree(fdef), set(redirects_))
    freevars = list(code.co_freevars) + sorted(redirects_)
    redirected = _with_qualnames(
        _compile(fdef, filename, freevars, function.__name__, _imported(function)), code)
    cells = dict(zip(code.co_freevars, function.__closure__ or ()))
    for name, redirect in redirects_.items():
        cells[name] = types.CellType(redirect)
    copy_ = types.FunctionType(redirected, function.__globals__, function.__name__,
                               function.__defaults__,
                               tuple(cells[v] for v in redirected.co_freevars))
    copy_.__kwdefaults__ = function.__kwdefaults__
    copy_.__qualname__ = function.__qualname__
    copy_.__module__ = function.__module__
    copy_.__doc__ = function.__doc__
    copy_.__graphjit_callees__ = redirects_
    return copy_


def redirects(jit, function, fdef):
    """``{name: redirect}`` for the plain functions that ``fdef`` (the gast definition of a
    split's Python driver of ``function``, transpiler.split) calls by a global name and that
    qualify (see the module docstring). Rewrites those calls in ``fdef`` (``g(..)`` becomes
    ``g.resolve()(..)``); the driver takes the names as free variables."""
    function = getattr(function, "__func__", function)
    candidates = _candidates(jit, function)
    if not candidates:
        return {}
    made = _redirects(jit, function, candidates, _calls_only(fdef, set(candidates)))
    _resolving_calls(fdef, set(made))
    return made


def _redirects(jit, function, candidates, names):
    """A :class:`_Redirect` per name whose callee converts (its source is its code, and the
    converter takes it, argument types aside: code that reads frames, prints or warns does
    not)."""
    made = {}
    for name in sorted(names):
        callee = _callee_jit(jit, candidates[name])
        if callee is not None:
            made[name] = _Redirect(name, function.__globals__, candidates[name], callee)
    return made


def _candidates(jit, function):
    """``{name: function}`` of the globals ``function`` may call that are worth compiling."""
    code = function.__code__
    if code.co_flags & _NOT_PLAIN or "__class__" in code.co_freevars:
        return {}
    scope = function.__globals__
    candidates = {}
    for name in _global_names(code):
        value = scope.get(name)
        if value is not function and value is not jit.python_function and \
                _worth_compiling(value):
            candidates[name] = value
    return candidates


def _faithful_source(function):
    """``(gast FunctionDef, filename)`` of ``function`` when its source compiles to its own
    code again (line numbers aside), else ``(None, None)``."""
    from .source import capture
    from .errors import TranspileError
    try:
        source = capture(function)
    except TranspileError:
        return None, None
    code = function.__code__
    plain = _compile(source.node, source.filename, list(code.co_freevars), function.__name__,
                     _imported(function))
    if not _same_code(plain, code):
        return None, None
    return source.node, source.filename


def _imported(function):
    """Globals of ``function``'s module that hold modules: bound by ``import`` there, which
    makes CPython 3.11+ read their attributes with LOAD_ATTR rather than LOAD_METHOD."""
    scope = function.__globals__
    return sorted(n for n in _global_names(function.__code__)
                  if isinstance(scope.get(n), types.ModuleType))


def _resolving_calls(fdef, names):
    """``fdef`` with each call ``g(..)`` of a name in ``names`` spelled ``g.resolve()(..)``:
    the callee is chosen before the arguments are evaluated, as Python looks ``g`` up."""
    import gast
    for node in walk(fdef):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id in names:
            resolve = gast.Attribute(value=node.func, attr="resolve", ctx=gast.Load())
            node.func = gast.copy_location(gast.Call(func=gast.copy_location(
                resolve, node.func), args=[], keywords=[]), node.func)
    return fdef


def _with_qualnames(made, original):
    """``made`` with the qualified names of ``original``'s nested code (compiled inside the
    factory, nested functions would be named ``__graphjit_factory__.<locals>...``)."""
    if not hasattr(made, "co_qualname"):
        return made                  # CPython 3.10: qualnames are constants, compared
    theirs = iter([c for c in original.co_consts if isinstance(c, types.CodeType)])
    consts = tuple(_with_qualnames(c, next(theirs)) if isinstance(c, types.CodeType) else c
                   for c in made.co_consts)
    return made.replace(co_qualname=original.co_qualname, co_consts=consts)


def _global_names(code):
    """Names read as globals by ``code`` and the code nested in it (a superset: co_names also
    holds attribute names)."""
    stack, names = [code], set()
    while stack:
        current = stack.pop()
        names.update(current.co_names)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return names


def _library_dirs():
    paths = sysconfig.get_paths()
    dirs = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib", "purelib", "platlib")
            if k in paths}
    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    dirs.update(os.path.join(here, p) for p in ("transpiler", "backends"))
    return tuple(d + os.sep for d in dirs)


_LIBRARY_DIRS = None


def _worth_compiling(value):
    """A plain Python function of the user's own code with a loop or a comprehension."""
    global _LIBRARY_DIRS
    if type(value) is not types.FunctionType or getattr(
            value, "__graphjit_do_not_convert__", False):
        return False
    code = value.__code__
    if code.co_flags & _NOT_PLAIN or "__class__" in code.co_freevars:
        return False
    filename = code.co_filename
    if not filename or filename.startswith("<"):
        return False            # exec, a REPL: no source to convert
    if _LIBRARY_DIRS is None:
        _LIBRARY_DIRS = _library_dirs()
    if os.path.realpath(filename).startswith(_LIBRARY_DIRS):
        return False
    return _has_loop(code) and _faithful_source(value)[0] is not None


def _has_loop(code):
    stack = [code]
    while stack:
        current = stack.pop()
        if any(i.opname in _LOOP_OPS or (i.opname == "JUMP_ABSOLUTE" and i.argval < i.offset)
               for i in dis.get_instructions(current)):
            return True
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return False


def _calls_only(fdef, candidates):
    """The names of ``candidates`` that ``fdef`` (a gast FunctionDef) uses only as the callee
    of calls, in its whole body; empty where the function reads its own scope."""
    import gast
    callee_nodes = set()
    for node in walk(fdef):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            callee_nodes.add(id(node.func))
    used, spoiled = set(), set()
    for node in walk(fdef):
        if isinstance(node, gast.Name):
            if node.id in _SCOPE_READERS:
                return set()
            if node.id not in candidates:
                continue
            if isinstance(node.ctx, gast.Load) and id(node) in callee_nodes:
                used.add(node.id)
            else:
                spoiled.add(node.id)   # stored, deleted, a parameter, or read as a value
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            spoiled.update(node.names)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            spoiled.add(node.name)
        elif isinstance(node, gast.alias):
            spoiled.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, gast.ExceptHandler) and isinstance(node.name, str):
            spoiled.add(node.name)
    return used - spoiled


def _compile(fdef, filename, freevars, name, imported=()):
    """The code object of ``fdef`` compiled inside ``def factory(*freevars)``, so that those
    names are free variables of it (the user's line numbers kept), in a module that imports
    ``imported`` (never run: only compiled)."""
    import gast
    tree = gast.gast_to_ast(gast.Module(body=[copy_tree(fdef)], type_ignores=[]))
    inner = tree.body[0]
    indent = fdef.col_offset or 0
    for node in walk(inner):   # source.capture shifted col_offset by the indent only
        if getattr(node, "end_col_offset", None) is not None:
            node.end_col_offset += indent
    factory = ast.FunctionDef(
        name="__graphjit_factory__",
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=v) for v in freevars],
                           vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                           defaults=[]),
        body=[inner, ast.Return(value=ast.Name(id=inner.name, ctx=ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    ast.copy_location(factory, inner)
    imports = [ast.copy_location(ast.Import(names=[ast.alias(name=n)]), inner)
               for n in imported]
    module = ast.Module(body=imports + [factory], type_ignores=[])
    ast.fix_missing_locations(module)
    outer = compile(module, filename, "exec", dont_inherit=True)
    factory_code = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
    return next(c for c in factory_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == name)


def _same_code(made, code):
    """Whether ``made`` (compiled from the source) is ``code`` again, nested code included
    (line numbers aside)."""
    if (made.co_code != code.co_code or made.co_names != code.co_names
            or made.co_varnames != code.co_varnames or made.co_freevars != code.co_freevars
            or made.co_cellvars != code.co_cellvars or made.co_argcount != code.co_argcount
            or (made.co_flags | _CO_NESTED) != (code.co_flags | _CO_NESTED)):
        return False
    mine = [c for c in made.co_consts if isinstance(c, types.CodeType)]
    theirs = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    others = [c for c in made.co_consts if not isinstance(c, types.CodeType)]
    if others != [c for c in code.co_consts if not isinstance(c, types.CodeType)]:
        return False
    return len(mine) == len(theirs) and all(_same_code(a, b) for a, b in zip(mine, theirs))


def _callee_jit(jit, callee):
    """The quiet JitFunction of ``callee``, shared by every caller (kept on the callee
    function, one per backend and cache option), or None where its code does not convert
    (decided once). The caller's opt-outs (``boundscheck=False``, ``check_int_overflow=False``,
    ``parallel``) are its own: a callee nobody decorated keeps Python's checks."""
    options = dict(backend=jit.backend, cache=jit.cache)
    key = tuple(sorted(options.items(), key=lambda item: item[0]))
    with _CALLEE_LOCK:
        table = callee.__dict__.setdefault("__graphjit_callee_jits__", {})
        if key in table:
            return table[key]
        made = type(jit)(callee, fullgraph=False, **options)
        made._quiet = True
        try:
            made._transpile_check(None)
        except Exception:  # noqa: BLE001 - TranspileError, or a converter bug: stays plain
            made = None
        table[key] = made
    return made


class _Redirect:
    """What the variant's ``name(..)`` calls, chosen by :meth:`resolve` before the arguments
    are evaluated: whatever the global (or builtin) holds now where that is not ``original``
    with its code and defaults of the time (as plain Python would call); else this object,
    which calls ``original`` or the compiled ``jit`` by what was measured for calls like this
    one (:func:`_call_key`: the argument types, dtypes and sizes within a factor of 16):
    ``_SAMPLES`` plain calls timed; under ``_WORTH_SECONDS`` (median) it stays plain;
    else, after the compiling call, ``_SAMPLES`` compiled calls timed, and the faster one is
    kept. A callee whose first decided kind of call stays plain, with none compiled, stays
    plain for good: the variant is made again without it (no cost beyond the plain call)."""

    __slots__ = ("name", "scope", "original", "code", "defaults", "kwdefaults", "jit",
                 "choice", "kinds", "owner")

    def __init__(self, name, scope, original, jit):
        self.name, self.scope, self.original, self.jit = name, scope, original, jit
        self.code = original.__code__
        self.defaults, self.kwdefaults = original.__defaults__, original.__kwdefaults__
        self.choice = None          # None: by the kind of call; original: plain for good
        self.kinds = {}             # _call_key -> _PLAIN, _COMPILED or a _Trial
        self.owner = None           # the kept variant record (variant()) this one is in

    def resolve(self):
        """The callable a plain ``name(..)`` call would reach, or this object."""
        original = self.original
        current = self.scope.get(self.name, _SKIP)
        if current is original and original.__code__ is self.code and \
                original.__defaults__ is self.defaults and \
                original.__kwdefaults__ is self.kwdefaults:
            choice = self.choice
            return self if choice is None else choice
        if current is _SKIP:
            import builtins
            current = getattr(builtins, self.name, _SKIP)
            if current is _SKIP:
                raise NameError(f"name '{self.name}' is not defined", name=self.name)
        return current

    def __call__(self, *args, **kwargs):
        key = _call_key(args, kwargs)
        state = self.kinds.get(key)
        if state is _PLAIN:
            return self.original(*args, **kwargs)
        if state is _COMPILED:
            return self.jit(*args, **kwargs)
        if state is None:
            state = self.kinds.setdefault(key, _Trial())
        compiled = len(state.plain) >= _SAMPLES
        start = time.perf_counter()
        try:
            return (self.jit if compiled else self.original)(*args, **kwargs)
        finally:
            self._decide(key, state, compiled, time.perf_counter() - start)

    def _decide(self, key, state, compiled, seconds):
        """Record one timed call of a kind (threads may race here: a lost sample only delays
        the choice, and either choice gives the plain call's result)."""
        if not compiled:
            state.plain.append(seconds)
            if len(state.plain) == _SAMPLES and _median(state.plain) < _WORTH_SECONDS:
                self._settle(key, _PLAIN)
            return
        state.compiled.append(seconds)
        if len(state.compiled) == _SAMPLES + 1:     # the first one compiled
            faster = _median(state.compiled[1:]) < _median(state.plain)
            self._settle(key, _COMPILED if faster else _PLAIN)

    def _settle(self, key, state):
        self.kinds[key] = state
        if state is _PLAIN and self.owner is not None and not any(
                s is _COMPILED for s in self.kinds.values()):
            # plain for good: the variant is made again without this name, so that a plain
            # call costs nothing more than in the function itself
            self.choice = self.original
            self.owner[2] = self.owner[1].__graphjit_callees__

    def __reduce__(self):
        # a closure made by the variant pickles with the plain function (cloudpickle)
        return _Plain, (self.original,)


_PLAIN, _COMPILED = "plain", "compiled"


class _Trial:
    """The timed calls of one kind of call: plain ones, then compiled ones (seconds)."""

    __slots__ = ("plain", "compiled")

    def __init__(self):
        self.plain, self.compiled = [], []


def _median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _call_key(args, kwargs):
    """What decides whether a compiled call pays: each argument's type, and for arrays their
    dtype, ndim and size, for sized containers their length (within a factor of 16)."""
    key = tuple(_argument_key(a) for a in args)
    if kwargs:
        key += tuple(sorted((k, _argument_key(v)) for k, v in kwargs.items()))
    return key


def _argument_key(value):
    kind = type(value)
    if kind in (list, tuple, dict, set, str, bytes):
        return kind, len(value).bit_length() >> 2
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        size = getattr(value, "size", 1)
        return kind, dtype, getattr(value, "ndim", 0), (
            int(size).bit_length() >> 2 if isinstance(size, int) else -1)
    return kind


class _Plain:
    """A :class:`_Redirect` unpickled: always the plain function."""

    __slots__ = ("function",)

    def __init__(self, function):
        self.function = function

    def resolve(self):
        return self.function

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def __reduce__(self):
        return _Plain, (self.function,)
