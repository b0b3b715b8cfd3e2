"""Pickling jitted functions: by reference where the receiving process can import them, else by
value (``cloudpickle``: the Python function, the options and the source text graphjit reads).

What is pickled is what makes the function, never what it made: the specializations (loaded
modules, locks, weak references) are rebuilt empty and compile again in the receiving process
at its first call (or load Numba's on-disk cache, ``cache=True``).

- ``pickle`` (``multiprocessing``, ``concurrent.futures``): a ``JitFunction`` found at
  ``module.qualname`` pickles as that reference (``__main__`` too: ``multiprocessing`` workers
  run or import the main module). Another one (``g = jit(f)``, ``jit(obj.method)``) pickles as
  its Python function, by reference, and its options.
- ``cloudpickle`` (Dask): the same reference when cloudpickle would pickle the function itself
  by reference (an importable module, not ``__main__``, not registered by value); otherwise the
  Python function by value, with the text of its file, registered in ``linecache`` in the
  receiving process when its own copy of that file is missing or different, so capture
  (transpiler.source) finds the source there. A function whose source is nowhere (``exec``)
  still falls back there with a FallbackWarning.

Each pickled ``JitFunction`` carries an identifier: unpickled twice in one process (one task
after another), it is the same object, so a worker compiles once; in the process that made it,
the original. See docs/ARCHITECTURE.md.
"""
import collections
import linecache
import sys
import threading
import types
import uuid as _uuid
import weakref

_LOCK = threading.RLock()   # reentrant: a fingerprint pickles JitFunctions (identifier)
_BY_ID = weakref.WeakValueDictionary()   # identifier -> JitFunction, in this process
# The JitFunctions unpickled here, kept alive (a task's copy would otherwise be gone before the
# next task brings the same function, which would then compile again): the most recent ones.
_UNPICKLED = collections.OrderedDict()
KEEP_UNPICKLED = 256
_OPTIONS = ("backend", "fullgraph", "static_argnames", "cache", "boundscheck",
            "check_int_overflow", "parallel")
# Files carried by value above this size are not carried (the function then needs its file in
# the receiving process, or falls back there saying so).
MAX_SOURCE_BYTES = 4 << 20


def identifier(jit_function):
    """The pickling identifier of ``jit_function`` (made on first use), recorded in this
    process's table so that unpickling it here gives it back."""
    ident = jit_function.__dict__.get("_graphjit_id")
    if ident is None:
        with _LOCK:
            ident = jit_function.__dict__.get("_graphjit_id")
            if ident is None:
                ident = jit_function.__dict__["_graphjit_id"] = _uuid.uuid4().hex
                _BY_ID[ident] = jit_function
    return ident


def _attribute(module_name, qualname):
    module = sys.modules.get(module_name)
    if module is None or "<locals>" in qualname:
        return None
    value = module
    try:
        for part in qualname.split("."):
            value = getattr(value, part)
    except AttributeError:
        return None
    return value


def _found_at_its_name(jit_function):
    """Whether ``module.qualname`` of its Python function is ``jit_function`` itself."""
    fn = jit_function.python_function
    return jit_function._bound_self is None and \
        _attribute(fn.__module__, fn.__qualname__) is jit_function


def _cloudpickle_by_reference(module_name):
    """Whether cloudpickle pickles the functions of ``module_name`` by reference (its rule: an
    imported module, not the main one, not registered to be pickled by value)."""
    if module_name in ("__main__", "__mp_main__", None) or module_name not in sys.modules:
        return False
    import cloudpickle
    return module_name not in cloudpickle.list_registry_pickle_by_value()


def reduce_jit(jit_function, cloud=False):
    """The pickle reduction of ``jit_function`` (``__reduce_ex__`` for ``pickle``, the
    cloudpickle dispatch entry with ``cloud``)."""
    fn = jit_function.python_function
    if _found_at_its_name(jit_function) and (not cloud or
                                             _cloudpickle_by_reference(fn.__module__)):
        return fn.__qualname__    # pickle saves it as the global module.qualname
    state = {name: getattr(jit_function, name) for name in _OPTIONS}
    at_name = _attribute(fn.__module__, fn.__qualname__)
    by_reference = not cloud or _cloudpickle_by_reference(fn.__module__)
    if at_name is not jit_function and getattr(at_name, "python_function", None) is fn \
            and by_reference:
        # Its name holds another JitFunction of it (jit(obj.method) of a jitted method):
        # pickle cannot reach the function itself by name, only through that JitFunction.
        state["function"] = at_name
    else:
        state["function"] = fn
    state["bound_self"] = jit_function._bound_self
    state["split"] = jit_function._split_allowed
    state["region_source"] = jit_function._source
    state["source"] = None
    if cloud and not (by_reference and at_name is not None and
                      getattr(at_name, "python_function", at_name) is fn):
        state["source"] = _file_text(fn)   # the function travels by value: its source too
    return (rebuild, (type(jit_function), identifier(jit_function)), state)


def _file_text(fn):
    """(filename, lines) of the file ``fn`` was defined in, as this process reads it; lines
    None when no source is available here (``exec``) or the file is too large to carry."""
    filename = fn.__code__.co_filename
    lines = linecache.getlines(filename, getattr(fn, "__globals__", None))
    if not lines or sum(map(len, lines)) > MAX_SOURCE_BYTES:
        return filename, None
    return filename, list(lines)


def register_source(filename, lines):
    """Make ``lines`` the text linecache (and so inspect and capture) gives for ``filename`` in
    this process, unless this process already reads that text there (a file changed or
    missing here: the pickled function's own text wins, for its tracebacks too)."""
    if lines is None or linecache.getlines(filename) == lines:
        return
    linecache.cache[filename] = (sum(map(len, lines)), None, list(lines), filename)


# cloudpickle names the file of every code object it pickles by value "<dynamic-code>".
_DYNAMIC = "<dynamic-code>"


def restore_filenames(function, filename):
    """Give ``function`` (unpickled by value) and the by-value functions of its module it
    reaches through its globals their file's name again, so that capture reads their source
    (registered by :func:`register_source`) and tracebacks name the user's file."""
    seen = set()
    todo = [function]
    while todo:
        fn = todo.pop()
        if id(fn) in seen or fn.__code__.co_filename != _DYNAMIC:
            continue
        seen.add(id(fn))
        fn.__code__ = _renamed(fn.__code__, filename)
        for name in _names(fn.__code__):
            value = fn.__globals__.get(name)
            if isinstance(value, types.FunctionType) and value.__module__ == function.__module__:
                todo.append(value)


def _renamed(code, filename):
    consts = tuple(_renamed(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def _names(code):
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def rebuild(cls, ident):
    """The JitFunction of identifier ``ident`` in this process, or an empty one that
    :func:`set_state` then makes."""
    with _LOCK:
        existing = _BY_ID.get(ident)
        if existing is not None:
            if ident in _UNPICKLED:
                _UNPICKLED.move_to_end(ident)
            return existing
        made = cls.__new__(cls)
        made.__dict__["_graphjit_id"] = ident
        made.__dict__["_graphjit_unpickled"] = True   # set_state still to run
        _BY_ID[ident] = _UNPICKLED[ident] = made
        while len(_UNPICKLED) > KEEP_UNPICKLED:
            _UNPICKLED.popitem(last=False)
        return made


def set_state(jit_function, state):
    """``JitFunction.__setstate__``: make an unpickled JitFunction from ``state``.

    One this process made is left as it is (it is the live original). One unpickled here
    before is kept, with its specializations, when ``state`` is what it was made from (the
    same code, defaults, closure, the globals it reads, bound ``self`` and options, compared by
    their pickled bytes); otherwise it is made again from ``state`` (a global or the bound
    object changed in the sending process since: the old code would give old answers)."""
    with _LOCK:   # threads of one worker may unpickle the same function at once
        _set_state(jit_function, state)


def _set_state(jit_function, state):
    unpickled = jit_function.__dict__.pop("_graphjit_unpickled", False)
    if not unpickled and "_graphjit_fingerprint" not in jit_function.__dict__:
        return     # made in this process
    function = state["function"]
    function = getattr(function, "python_function", function)
    if state.get("source") is not None:   # it came by value (cloudpickle)
        filename, lines = state["source"]
        register_source(filename, lines)
        restore_filenames(function, filename)
    fingerprint = _fingerprint(function, state)
    if not unpickled and fingerprint is not None and \
            fingerprint == jit_function.__dict__.get("_graphjit_fingerprint"):
        return     # the same function again: keep what it compiled
    if state["bound_self"] is not None:
        function = types.MethodType(function, state["bound_self"])
    ident = jit_function.__dict__["_graphjit_id"]
    jit_function.__init__(function, source=state["region_source"], split=state["split"],
                          **{name: state.get(name) for name in _OPTIONS})
    jit_function.__dict__["_graphjit_id"] = ident
    jit_function.__dict__["_graphjit_fingerprint"] = fingerprint


def _fingerprint(function, state):
    """The bytes of what the code made from ``state`` depends on (None: not picklable here,
    then never reused)."""
    import marshal
    globals_read = {name: _comparable(function.__globals__[name])
                    for name in sorted(_names(function.__code__)) if name in function.__globals__}
    closure = tuple(_comparable(c.cell_contents) for c in function.__closure__ or ())
    parts = (marshal.dumps(function.__code__), function.__defaults__, function.__kwdefaults__,
             closure, globals_read,
             state["bound_self"], tuple(state.get(name) for name in _OPTIONS), state["split"])
    try:
        import cloudpickle as dumper
    except ImportError:
        import pickle as dumper
    try:
        import hashlib
        return hashlib.sha256(dumper.dumps(parts)).digest()
    except Exception:  # noqa: BLE001 - not picklable: compare nothing, make it again
        return None


def _comparable(value):
    return ("module", value.__name__) if isinstance(value, types.ModuleType) else value


def rebuild_bound(cls, jit_function, obj):
    """A BoundJitFunction again (``obj.method`` of a jitted method)."""
    return cls(jit_function, obj)


def register_cloudpickle(jit_class):
    """Give cloudpickle its own reduction of ``jit_class`` (by value where cloudpickle pickles
    by value), when cloudpickle is installed. cloudpickle consults its Pickler's
    ``dispatch_table`` before ``__reduce_ex__``; pickle never reads that table."""
    try:
        import cloudpickle
    except ImportError:
        return False
    table = getattr(getattr(cloudpickle, "Pickler", None), "dispatch_table", None)
    if table is None:
        return False
    table[jit_class] = lambda jit_function: reduce_jit(jit_function, cloud=True)
    return True
