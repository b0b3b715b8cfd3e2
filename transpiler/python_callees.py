"""Plain functions called from a jitted function's Python run compiled (issue 20).

When a jitted function runs as Python (its fallback, a refusal, a re-run), the plain Python
functions it calls by a global name would run as Python too: one ``print`` in a driver function
would keep every loop it reaches in the interpreter. torch.compile resumes compiling in the
frames after a graph break; graphjit does the same for the functions such Python calls: the
jitted function's Python runs as a *variant*, a copy of its code whose calls ``g(...)`` of a
plain user function ``g`` go to a compiled :class:`~transpiler.api.JitFunction` of ``g``
(quiet: a callee that does not compile runs as Python without a warning, since its author did
not ask for it; ``explain()`` of the caller lists each callee and how it ran).

A callee is redirected only where that cannot change what the call does:

- ``g`` is a global of the function's module, bound to a plain Python function defined outside
  the standard library, site-packages and graphjit, that has a loop or a comprehension (a
  function without one gains nothing from compiling and would pay the dispatch at each call),
  is not a generator or coroutine, and is not the function itself.
- every use of the name in the function (nested functions, lambdas and comprehensions included)
  is the callee of a call: never a value (``map(g, xs)``, ``g is h``), never assigned, deleted,
  a parameter or declared ``global``/``nonlocal``; the function does not use ``super``,
  ``locals``, ``vars``, ``eval`` or ``exec`` (which see its scope).
- the variant is compiled from the function's source, and its bytecode equals the function's
  own when compiled without the redirection (so an edited file never runs).

At each call the redirection checks that the global still holds the same function: rebinding
``g`` later (a monkeypatch, a reload) calls the new one, exactly as plain Python would.
The variant shares the function's globals dict, its closure cells (``nonlocal`` writes reach
the enclosing function), its defaults and its name.
"""
import ast
import copy
import dis
import os
import sysconfig
import threading
import types

_CO_NESTED = 0x10       # set on a function compiled inside another (the factory)
_SKIP = object()         # the function has no variant: it runs as itself
_LOCK = threading.Lock()
_SCOPE_READERS = {"super", "locals", "vars", "eval", "exec", "globals"}
_LOOP_OPS = {"FOR_ITER", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"}
_NOT_PLAIN = 0x20 | 0x80 | 0x100 | 0x200    # CO_GENERATOR, CO_COROUTINE, CO_ITERABLE_COROUTINE,
                                            # CO_ASYNC_GENERATOR


def variant(jit, function):
    """The function to run for ``jit``'s Python ``function``: a copy whose calls of plain user
    functions run compiled (see the module docstring), or ``function`` itself when it calls
    none. Made once per (jit, function) and kept on ``jit``, with the callees' JitFunctions
    (a plain function called from two jitted functions' Python compiles for each)."""
    kept = jit.__dict__.get("_variant")
    if kept is not None and kept[0] is function:
        return kept[1]
    with _LOCK:    # once, however many threads fall back first
        kept = jit.__dict__.get("_variant")
        if kept is not None and kept[0] is function:
            return kept[1]
        try:
            made = _make(jit, function)
        except Exception:  # noqa: BLE001 - a variant is an optimisation: run the function
            made = None
        result = function if made is None else made
        jit.__dict__["_variant"] = (function, result)
    return result


def callees(jit):
    """The ``(name, callee JitFunction)`` pairs ``jit``'s Python calls compiled (for
    explain()), in the order of their names."""
    kept = jit.__dict__.get("_variant")
    if kept is None or kept[1] is kept[0]:
        return []
    return sorted(kept[1].__graphjit_callees__.items())


def callee_jit(redirect):
    """The callee JitFunction behind one of :func:`redirects`' values."""
    return redirect.jit


def _make(jit, function):
    function = getattr(function, "__func__", function)
    if not isinstance(function, types.FunctionType):
        return None
    code = function.__code__
    candidates = _candidates(function)
    if not candidates:
        return None
    scope = function.__globals__
    from .source import capture
    source = capture(function)             # raises without a source: no variant
    fdef = source.node
    names = _calls_only(fdef, set(candidates))
    if not names:
        return None
    plain = _compile(fdef, source.filename, list(code.co_freevars), function.__name__)
    if not _same_code(plain, code):
        return None         # the file no longer holds this function's code
    freevars = list(code.co_freevars) + sorted(names)
    redirected = _compile(fdef, source.filename, freevars, function.__name__)
    cells = dict(zip(code.co_freevars, function.__closure__ or ()))
    made = {name: _callee_jit(jit, candidates[name]) for name in names}
    for name in names:
        cells[name] = types.CellType(_Redirect(name, scope, candidates[name], made[name]))
    copy_ = types.FunctionType(redirected, scope, function.__name__, function.__defaults__,
                               tuple(cells[v] for v in redirected.co_freevars))
    copy_.__kwdefaults__ = function.__kwdefaults__
    copy_.__qualname__ = function.__qualname__
    copy_.__module__ = function.__module__
    copy_.__doc__ = function.__doc__
    copy_.__graphjit_callees__ = made
    return copy_


def redirects(jit, function, fdef):
    """``{name: callable}`` for the plain functions that ``fdef`` (the gast definition of a
    split's Python driver of ``function``, transpiler.split) calls by a global name and that
    qualify (see the module docstring): the driver takes them as free variables."""
    function = getattr(function, "__func__", function)
    candidates = _candidates(function)
    names = _calls_only(fdef, set(candidates)) if candidates else set()
    return {name: _Redirect(name, function.__globals__, candidates[name],
                            _callee_jit(jit, candidates[name])) for name in sorted(names)}


def _candidates(function):
    """``{name: function}`` of the globals ``function`` may call that are worth compiling."""
    code = function.__code__
    if code.co_flags & _NOT_PLAIN or "__class__" in code.co_freevars:
        return {}
    scope = function.__globals__
    candidates = {}
    for name in _global_names(code):
        value = scope.get(name)
        if value is not function and _worth_compiling(value):
            candidates[name] = value
    return candidates


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
    return _has_loop(code)


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
    for node in gast.walk(fdef):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
            callee_nodes.add(id(node.func))
    used, spoiled = set(), set()
    for node in gast.walk(fdef):
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


def _compile(fdef, filename, freevars, name):
    """The code object of ``fdef`` compiled inside ``def factory(*freevars)``, so that those
    names are free variables of it (the user's line numbers kept)."""
    import gast
    tree = gast.gast_to_ast(gast.Module(body=[copy.deepcopy(fdef)], type_ignores=[]))
    inner = tree.body[0]
    indent = fdef.col_offset or 0
    for node in ast.walk(inner):   # source.capture shifted col_offset by the indent only
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
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    outer = compile(module, filename, "exec")
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
    """The quiet JitFunction of ``callee`` with ``jit``'s options (kept by ``jit``'s variant:
    nothing is stored on the user's function)."""
    made = type(jit)(callee, fullgraph=False, **jit._options())
    made._quiet = True
    return made


class _Redirect:
    """What the variant calls for ``name``: the compiled ``jit`` while the global still holds
    ``original``, else whatever the global (or builtin) holds now, as plain Python would."""

    __slots__ = ("name", "scope", "original", "jit")

    def __init__(self, name, scope, original, jit):
        self.name, self.scope, self.original, self.jit = name, scope, original, jit

    def __call__(self, *args, **kwargs):
        current = self.scope.get(self.name, _SKIP)
        if current is self.original:
            return self.jit(*args, **kwargs)
        if current is _SKIP:
            import builtins
            current = getattr(builtins, self.name, _SKIP)
            if current is _SKIP:
                raise NameError(f"name '{self.name}' is not defined")
        return current(*args, **kwargs)
