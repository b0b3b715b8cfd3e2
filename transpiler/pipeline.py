"""The order of conversion, in one place: what ``jit`` (transpiler.api), ``ir()`` and
``graphjit convert`` (transpiler.convert_file) run. See docs/ARCHITECTURE.md.

1. **capture** (transpiler.source.capture): the function's source, parsed with gast, each node
   tagged with its origin in the user's file. A loop region of a split function brings its own
   parsed source (transpiler.split).
2. **specialize** (transpiler.passes.specialize.specialize): into a
   :class:`~transpiler.program.Program` whose entry is the function specialized on its static
   values (``self``, static arguments, globals, closure cells) and argument types. Per
   generated function (the ``Specializer``; callees recursively, each into its own):

   - analyse: which names hold Python numbers (analysis.python_numbers), one name per web
     (passes.split_webs), which scalar types each name holds by path and where Numba's one
     type per name would change a result (analysis.scalar_types: refused, or kept compiled
     with the plain call's values);
   - resolve and rewrite (``Specializer.run``): names and attribute chains known at transpile
     time become constants, runtime inputs (arrays, re-read through their guarded path at
     each call) or library references; static ``if`` pruned, static ``for`` unrolled, calls
     of Cells, user functions and methods specialized, NumPy/Python number rules made
     explicit (transpiler.helpers, transpiler.number_rules);
   - definite assignment (a read of a maybe-unassigned name is refused), then the functional
     forms (``cond``, ``while_loop``, ``for_range``, ``for_each``: explicit inputs and outputs,
     transpiler.ir).

   What does not convert raises :class:`~transpiler.errors.UnsupportedConstruct`.
3. **lower** (``Backend.lower``, backends/): the program finalized (names chosen) and emitted
   as module source: imports, the generated functions (each statement followed by a ``# file:
   line`` comment), ``_prepare`` (re-reads the runtime inputs and checks the guards). On the
   CPU a straight-line array program becomes a graph of NumPy calls instead, with no Numba
   compile (:func:`graph_backend`, backends/numpy_graph.py).
4. **load** (``Backend.load``, transpiler.loader): the module written to the cache folder
   (content-addressed) and imported; Numba compiles at the first call.

``jit`` runs 1-4 per specialization (:func:`compile_function`); ``ir()`` lowers a specialization's
program again with the eager backend, functional forms kept (:func:`ir_source`); ``graphjit
convert`` runs 1-2 per top-level function into one shared program (:func:`new_program`,
:func:`specialize_into`), then 3 once (:func:`lower`).
"""
import os

from .errors import UnsupportedConstruct
from .island_frames import UNTYPED_CHECK
from .program import Program
from .source import capture, origin_of


class Compiled:
    """What :func:`compile_function` made: ``program`` and its ``entry`` (GeneratedFunction),
    the ``backend``, the ``generated`` module (GeneratedModule), the loaded ``module`` and its
    ``path``."""

    def __init__(self, program, entry, backend, generated, module, path):
        self.program = program
        self.entry = entry
        self.backend = backend
        self.generated = generated
        self.module = module
        self.path = path
        self.graph_refusal = None   # why the NumPy graph path was not taken (None: taken/off)


def new_program(check_int=True):
    """An empty :class:`Program`; ``check_int``: Python-int arithmetic is checked for int64
    overflow (``jit(check_int_overflow=)``)."""
    program = Program()
    program.check_int = check_int
    return program


def specialize_into(program, function, self_value=None, static_args=None, *, source=None,
                    python_args=None, numpy_args=None, arg_keys=None):
    """Steps 1 and 2: capture ``function`` (unless ``source`` is given) and specialize it into
    ``program``; the arguments are those of :func:`transpiler.passes.specialize.specialize`.

    Returns:
        GeneratedFunction: the entry.

    Raises:
        TranspileError: the function does not convert (SourceUnavailable: no source).
    """
    from .passes.specialize import specialize
    source = source or capture(function)
    return specialize(program, function, self_value, static_args, source=source,
                      python_args=python_args, numpy_args=numpy_args, arg_keys=arg_keys)


def transpile(function, self_value=None, static_args=None, *, source=None, python_args=None,
              numpy_args=None, arg_keys=None, check_int=True, defer_gaps=False,
              runs_python=False):
    """Steps 1 and 2 into a new program: ``(program, entry)``; ``defer_gaps``,
    ``runs_python``: see ``Program``."""
    program = new_program(check_int)
    program.defer_gaps = defer_gaps
    program.runs_python = runs_python
    entry = specialize_into(program, function, self_value, static_args, source=source,
                            python_args=python_args, numpy_args=numpy_args, arg_keys=arg_keys)
    return program, entry


def jit_backend(name, cache=None, boundscheck=True, parallel=None):
    """The backend object ``jit`` lowers with: its modules import graphjit's shared helpers
    (not standalone); ``cache`` None: ``set_context(enable_compile_cache=)``; ``parallel``
    None: ``set_context(parallel=)`` (numba-cpu only)."""
    from backends import get_backend

    from .context import get_context
    if cache is None:
        cache = get_context("enable_compile_cache")
    if parallel is None:
        parallel = get_context("parallel")
    backend = get_backend(name, cache=cache, boundscheck=boundscheck,
                          parallel=parallel if name == "numba-cpu" else False)
    backend.standalone = False
    return backend


def module_header(function, backend):
    """The comment lines that open a module ``jit`` generates for ``function``."""
    origin = origin_of(function)
    # The versions are part of the text, so of the file's content hash: an upgrade of
    # any of them gives a new module and a new Numba cache entry, never a stale one.
    return (f"# graphjit: generated from {origin} ({function.__qualname__}) for the "
            f"{backend.name} backend.\n# Do not edit: regenerated when the source "
            f"changes.\n# {backend.versions()}")


def lower(program, backend, header="", *, include_prepare=True, reserved=()):
    """Step 3: ``program`` lowered by ``backend`` into a GeneratedModule (its ``source``,
    ``line_map``, ``entry_name``, ``constants``, ``roots``)."""
    return backend.lower(program, header, include_prepare=include_prepare, reserved=reserved)


def load(backend, generated, function):
    """Step 4: import the generated module; ``(module, path)``."""
    return backend.load(generated, function.__qualname__)


def compile_function(function, self_value=None, static_args=None, *, source=None,
                     python_args=None, numpy_args=None, arg_keys=None, check_int=True,
                     backend_name, cache=None, boundscheck=True, parallel=None, rerun=True,
                     native=False):
    """Steps 1-4 for one specialization of ``function`` (transpiler.api). ``rerun``: a call
    may run again as Python when compiled code says so (not under ``fullgraph=True``).
    ``native``: compile with Numba even where the NumPy graph would take the code (tier 1,
    transpiler.tiers); what Numba would compute otherwise than NumPy then raises.

    Returns:
        Compiled

    Raises:
        TranspileError: the function does not convert; any other exception is a converter or
            backend bug (the caller falls back).
    """
    from .context import get_context
    graph = not native and backend_name == "numba-cpu" and get_context("numpy_graph") and \
        numpy_args is not None
    # The eager backend runs Python: what Numba would compute otherwise never matters there.
    program, entry = transpile(function, self_value, static_args, source=source,
                               python_args=python_args, numpy_args=numpy_args,
                               arg_keys=arg_keys, check_int=check_int,
                               defer_gaps=graph or backend_name == "eager",
                               runs_python=backend_name == "eager")
    backend, why_not = None, None
    if graph:
        backend, why_not = graph_backend(program, numpy_args, python_args)
        if backend is None and program.numba_gaps:
            raise program.numba_gaps[0]      # what Numba would compute otherwise than NumPy
    if backend is None:
        backend = jit_backend(backend_name, cache, boundscheck, parallel)
    generated = lower(program, backend, module_header(function, backend))
    if program.user_raises:
        _check_user_raises(program, generated, rerun)
    if program.ir_name("python_island") and backend_name != "eager" and \
            not UNTYPED_CHECK.get():
        _check_islands(program, generated, function)
    module, path = load(backend, generated, function)
    made = Compiled(program, entry, backend, generated, module, path)
    made.graph_refusal = why_not
    return made


def _check_islands(program, generated, function):
    """Compiled code that says "Python's result does not fit here" (helpers.messages
    NOT_REPRESENTABLE: an int beyond int64, a complex power...) expects the call to run again
    as Python, which it may not once a Python island ran (transpiler.island_frames): the
    call could then neither go on nor start again. Such code keeps no islands.

    Raises:
        UnsupportedConstruct: at the Python int operation that may outgrow int64 (made an
            island too by transpiler.split, where it can), or at the function.
    """
    from .helpers.messages import NOT_REPRESENTABLE, USER_EXCEPTION
    if program.growing_int_sites:
        raise UnsupportedConstruct("a Python int here may outgrow int64 in a compiled loop "
                                   "that runs Python statements (islands)",
                                   program.growing_int_sites[0])
    said = next((m for m in NOT_REPRESENTABLE if m != USER_EXCEPTION and
                 repr(m)[1:-1] in generated.source), None)
    if said is not None:
        raise UnsupportedConstruct(
            f"this loop's compiled code may find a result it cannot hold ({said}) after a "
            "Python statement inside it ran (islands)", origin_of(function))


def _check_user_raises(program, generated, rerun):
    """A ``raise`` of a user-defined exception class runs the call again as Python
    (passes.specialize stmt_Raise): only where nothing the caller sees happened before it.

    Raises:
        UnsupportedConstruct: under ``fullgraph=True``, or where the generated code has effects
            (stores into arrays, calls out: transpiler.analysis.effects).
    """
    from .analysis.effects import effect_free
    origin, name = program.user_raises[0]
    why = None
    if not rerun:
        why = "which fullgraph=True does not allow"
    elif not effect_free(generated.source):
        why = ("which needs code without effects before it (this code stores into arrays or "
               "calls out)")
    if why:
        raise UnsupportedConstruct(f"raising {name} (a class defined in Python code): compiled "
                                   f"code runs the call again as Python to raise it, {why}",
                                   origin)


def graph_backend(program, numpy_args, python_args):
    """``(backend, None)``: the NumPy graph backend with ``program`` planned, when the
    program is straight-line array code (backends/graph_plan.py); else ``(None, why not)``."""
    from backends.graph_plan import NotAGraph
    from backends.numpy_graph import NumpyGraphBackend
    if getattr(program.entry, "tagged", None):
        return None, "its result carries a flag of its Python or NumPy box (Numba's boxing)"
    if getattr(program.entry, "writeback", None):
        return None, "it stores into attributes of its object (written back after the call)"
    if any(path[-1][0] == "list" for _, path in program.entry.inputs):
        # NumPy indexes the array with NumPy's rules (np.uint64 beyond intp: OverflowError);
        # compiled code checks each index as a list's (passes/list_arguments.py)
        return None, "it reads a list argument (as an array indexed as a list)"
    backend = NumpyGraphBackend(numpy_args, python_args or {})
    try:
        backend.plan(program)
    except NotAGraph as exc:
        return None, str(exc)
    return backend, None


def ir_source(program, function):
    """The functional program of ``program`` as Python source (``ir()``): step 3 by the eager
    backend, without ``_prepare``."""
    from backends.eager import EagerBackend
    origin = origin_of(function)
    where = f"{os.path.basename(origin.filename)}:{origin.lineno}" if origin else "?"
    generated = lower(program, EagerBackend(),
                      f"# graphjit IR of {function.__qualname__} ({where})",
                      include_prepare=False)
    return generated.source
