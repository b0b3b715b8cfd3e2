"""The numba-cpu backend: generated functions compiled with ``numba.njit``.

Options follow Numba's documentation: ``error_model="python"`` (the njit default) makes integer
and float division by zero raise ZeroDivisionError as Python does; ``cache=True`` writes machine
code next to the generated file (Numba's on-disk cache needs a real file, which graphjit writes).
"""
import glob
import os
import traceback
import warnings

import numpy as np

from .base import Backend
from .runtime.weak_source import OPAQUE_SOURCE, UNTYPED_SOURCE, WEAK_SOURCE
from transpiler.nodes import walk

_SCALAR_RESULTS = (float, int, bool, complex, tuple)

# The module's name of backends/runtime/checked_range.py's checked_range.
RANGE_NAME = "_gj_range"
# The module's name of backends/runtime/nonliteral.py's nonliteral.
NONLITERAL_NAME = "_gj_nonliteral"


class NumbaCPUBackend(Backend):
    """Compile with ``numba.njit``; every generated function is a Numba dispatcher."""

    name = "numba-cpu"
    keeps_forms = False
    native_jumps = True     # break/continue flags back to jumps (backends/native_jumps.py)

    def function_node(self, fn):
        """Structured loops again: Numba compiles them much faster than callbacks; and
        native ``break``/``continue`` where the flags allow (after the parallel rewrite,
        whose analyses refuse a loop with a jump in it)."""
        from .restructure import restructure
        node = restructure(fn.node)
        if self.parallel and not fn.is_helper and self._program is not None:
            node = self._parallelize(node, fn)
        if self.native_jumps:
            from .native_jumps import native_jumps
            node = native_jumps(node)
        return node

    def __init__(self, cache=False, boundscheck=True, parallel=False):
        self.cache = bool(cache)
        self.boundscheck = bool(boundscheck)
        self.parallel = parallel      # False, True or "fast-reductions" (parallel_cpu.py)
        self.parallel_rows = []       # (line, status, why) per loop: explain()
        self._outlined = []           # (FunctionDef, filename): the prange loops
        self._parallelizer = None     # parallel_cpu.LoopParallelizer of the program lowered
        self._program = None
        self._inlined = set()         # id() of the helpers inlined (backends/inlining.py)
        self._apart = []              # the helpers compiled on their own, called
        self.parallel_refusal = None  # why loops stay serial whatever they are
        # boundscheck: an index out of range raises IndexError as in Python, instead of
        # reading or writing outside the array (Numba's default, which can crash the process).
        # no_cfunc_wrapper: generated functions are called by Python or by each other, never
        # taken as first-class function values, so the C-callable wrapper Numba compiles for
        # each by default (an LLVM function per generated function) is not made: a faster
        # cold first call (benchmarks/cold_start.py).
        self.decorator_lines = [
            "import numba",
            f"_jit = numba.njit(cache={self.cache}, boundscheck={self.boundscheck}, "
            "no_cfunc_wrapper=True)",
            # graphjit's own small helpers (transpiler.helpers: NEP 50, Python's division...)
            # are inlined into their callers at Numba's IR level (Numba docs, "Notes on
            # inlining"): no separate compile of each (tens of ms per helper at a cold start)
            f"_jit_inline = numba.njit(cache={self.cache}, boundscheck={self.boundscheck}, "
            "no_cfunc_wrapper=True, inline='always')",
        ]
        if parallel:
            self._add_parallel_lines()

    def _add_parallel_lines(self):
        from .parallel_cpu import PARALLEL_OPTIONS, RUNTIME
        from .runtime.parallel import threadsafe
        self.threading_layer = threadsafe()
        if self.threading_layer is None:
            self.parallel = False
            self.parallel_refusal = ("Numba has no thread-safe threading layer here (OpenMP "
                                     "or TBB; NUMBA_THREADING_LAYER names another): loops "
                                     "stay serial")
            return
        self.decorator_lines = self.decorator_lines + [
            "from backends.runtime.parallel import " + ", ".join(
                f"{name} as {alias}" for name, alias in sorted(RUNTIME.items())),
            # boundscheck=False: every index of a parallel loop was checked in range before it
            # (parallel_cpu.py); Numba's checks there would only stop LLVM vectorizing
            f"_jit_par = numba.njit(cache={self.cache}, boundscheck=False, "
            f"no_cfunc_wrapper=True, parallel={PARALLEL_OPTIONS!r})"]

    def lower(self, program, header="", include_prepare=True, reserved=()):
        """Base lowering; the names of the parallel loops' runtime are reserved."""
        reserved = set(reserved) | {RANGE_NAME, NONLITERAL_NAME}
        if self.parallel:
            from .parallel_cpu import RUNTIME
            reserved = set(reserved) | set(RUNTIME.values()) | {"_jit_par"}
        self._program, self._parallelizer, self._outlined = program, None, []
        self.parallel_rows = []
        from transpiler.helpers import NOT_INLINED
        from .inlining import inlined_helpers
        self._inlined = inlined_helpers(program.functions, NOT_INLINED)
        self._apart = [fn for fn in program.functions
                       if fn.is_helper and id(fn) not in self._inlined]
        return super().lower(program, header, include_prepare, reserved)

    def runtime_lines(self, program):
        """``checked_range`` (backends/runtime/checked_range.py) where a loop needs it;
        ``nonliteral`` (backends/runtime/nonliteral.py) where a helper is called."""
        from .restructure import needs_range_check
        lines = []
        if self._apart:
            lines += self._runtime_import("nonliteral", NONLITERAL_NAME, "NONLITERAL_SOURCE")
        if any(getattr(node, "graphjit_form", None) == "for_range" and
               needs_range_check(*node.args[1:4])
               for fn in program.functions for node in walk(fn.node)):
            lines += self._runtime_import("checked_range", RANGE_NAME, "RANGE_SOURCE")
        return lines

    def _runtime_import(self, module, alias, source):
        """The lines binding ``alias`` to ``backends/runtime/<module>.py``'s function of the
        module's name: an import, or (standalone) the definition's own source text, that
        module's constant ``source``."""
        if not self.standalone:   # one shared registration, as for weak
            return [f"from backends.runtime.{module} import {module} as {alias}"]
        import importlib
        runtime = importlib.import_module(f"backends.runtime.{module}")
        return getattr(runtime, source).format(name=alias).splitlines()

    def emitted_node(self, fn):
        """Range loops whose count Numba could compute wrong call ``checked_range``."""
        import gast
        node = self.function_node(fn)
        called = {f.symbol.name for f in self._apart}   # (final names by now)
        for call in walk(node):
            if not isinstance(call, gast.Call):
                continue
            bounds = getattr(call, "graphjit_checked_range", None)
            if bounds is not None:
                call.func = gast.Name(id=RANGE_NAME, ctx=gast.Load(), annotation=None,
                                      type_comment=None)
                call.args = list(bounds)
            elif isinstance(call.func, gast.Name) and call.func.id in called:
                # a helper compiled once: one compile for all its constant arguments
                call.args = [_nonliteral(arg) for arg in call.args]
                for keyword in call.keywords:
                    keyword.value = _nonliteral(keyword.value)
        return node

    def decorator_for(self, fn):
        """``@_jit``; ``@_jit_inline`` for graphjit's helpers inlined (backends/inlining.py:
        the small ones, and those whose code lands in one place only)."""
        return "@_jit_inline" if id(fn) in self._inlined else "@_jit"

    def lower_more(self, program, lines, line_map):
        """The outlined parallel loops (``@_jit_par``), after the generated functions."""
        from .base import emit_def
        for node, filename in self._outlined:
            # (a deferring copy of a helper: inlined into the loop, backends/parallel_deferred)
            emit_def(lines, line_map, node, getattr(node, "filename", filename),
                     getattr(node, "decorator", "@_jit_par"))
        return None

    def _parallelize(self, node, fn):
        from transpiler.errors import Origin
        if self._parallelizer is None:   # once per program, its names final (lower)
            self._parallelizer = self._new_parallelizer(self._program)
        node, outlined, rows = self._parallelizer.rewrite(node, fn)
        self._outlined.extend((f, fn.filename) for f in outlined)
        self.parallel_rows.extend(("loop", Origin(fn.filename, line), status, why)
                                  for line, status, why in rows)
        return node

    def _new_parallelizer(self, program):
        from transpiler.ir import CHECKED_INT
        from .parallel_cpu import LoopParallelizer
        imports = dict((alias, module) for module, alias in program.imports())
        forms = program.ir_imports()
        checked = {alias: form for form, alias in forms if form in CHECKED_INT}
        functions = {f.symbol.name: f for f in program.functions}
        names = set(functions) | set(imports) | {alias for _, alias in forms} | {
            "_jit", "_jit_inline", "numba"}
        return LoopParallelizer(self.parallel, functions, checked, imports, names,
                                ufunc_loop=program.ir_name("ufunc_loop"))

    def explain_rows(self):
        """``(region, Origin, status, why)`` per loop under ``parallel``: "parallel" or
        "serial", and why (the dependence, the line that may raise)."""
        refusal = self.parallel_refusal
        return list(self.parallel_rows) + ([("loops", None, "serial", refusal)]
                                           if refusal else [])

    def memory_source(self, source):
        """Without a file Numba cannot cache (it raises when the decorator runs): a module
        compiled in memory (cache folder refused, read-only or unwritable) gets ``cache=False``
        on the same line."""
        if not self.cache:
            return source
        for line in self.decorator_lines[1:]:
            source = source.replace(line, line.replace("cache=True", "cache=False"), 1)
        return source

    def versions(self):
        import numba
        return f"{super().versions()}, Numba {numba.__version__}, NumPy {np.__version__}"

    def is_compile_failure(self, exc, function, args):
        """Numba's own errors, and any exception raised inside Numba or llvmlite while
        compiling (an AssertionError in its list lowering, NotImplementedError for float16).

        An exception raised while the compiled code *runs* (the user's ``raise``, or a
        ValueError from NumPy code Numba implements) is not one: then the dispatcher holds a
        compiled version for these argument types."""
        if isinstance(exc, self.compile_errors()):
            return True
        from numba import typeof
        try:
            key = tuple(typeof(a) for a in args)
        except Exception:  # noqa: BLE001 - untypable: it cannot have compiled for them
            key = None
        if key is not None and key in function.overloads:
            return False
        frames = traceback.extract_tb(exc.__traceback__)
        return any(_in_compiler(f.filename) for f in frames)

    def is_cache_error(self, exc):
        """An exception raised while Numba's cache loads an entry (a truncated index or data
        file raises UnpicklingError, EOFError, ...): its traceback passes through Numba's
        ``caching`` module. Exceptions of the user's compiled code never do."""
        if not self.cache:
            return False
        frames = traceback.extract_tb(exc.__traceback__)
        return any(f.filename.replace(os.sep, "/").endswith("numba/core/caching.py")
                   for f in frames)

    def clear_cache(self, path, exc):
        from transpiler.errors import CacheWarning, user_stacklevel
        folder = os.path.join(os.path.dirname(path), "__pycache__")
        stem = os.path.splitext(os.path.basename(path))[0]
        removed = 0
        for entry in glob.glob(os.path.join(folder, stem + ".*.nb[ic]")):
            try:
                os.remove(entry)
                removed += 1
            except OSError:
                pass
        warnings.warn(f"graphjit: the compile cache of {path} could not be read "
                      f"({type(exc).__name__}: {exc}); removed {removed} file(s), compiling "
                      "again", CacheWarning, stacklevel=user_stacklevel())

    def checked_int_source(self, aliases):
        """Python-int operators checked for int64 overflow (backends/runtime/checked_ints.py)."""
        if not self.standalone:   # one shared registration, as for weak
            return "from backends.runtime.checked_ints import " + ", ".join(
                form if form == name else f"{form} as {name}"
                for form, name in sorted(aliases.items()))
        from .runtime.checked_ints import checked_source
        return checked_source(aliases)

    def untyped_operand_source(self, name):
        if not self.standalone:   # one shared registration, as for weak
            return f"from backends.runtime.weak import untyped_operand as {name}"
        return UNTYPED_SOURCE.format(name=name)

    def opaque_source(self, name):
        if not self.standalone:   # one shared registration, as for weak
            return f"from backends.runtime.weak import opaque as {name}"
        return OPAQUE_SOURCE.format(name=name)

    def python_island_source(self, name):
        return f"from backends.runtime.islands import python_island as {name}"

    def ufunc_loop_source(self, name):
        if not self.standalone:   # one shared registration, as for weak
            return f"from backends.runtime.ufunc_loops import ufunc_loop as {name}"
        from .runtime.ufunc_loops import source
        return source(name)

    def weak_source(self, name, numpy_alias):
        if not self.standalone:   # one shared registration (backends/runtime/weak.py: why)
            return f"from backends.runtime.weak import weak as {name}"
        return WEAK_SOURCE.replace("np.", numpy_alias + ".").format(name=name)

    @staticmethod
    def compile_errors():
        """The exception types that mean "Numba cannot compile this" (never user errors)."""
        from numba.core import errors
        found = [errors.NumbaError]
        unsupported_bytecode = getattr(errors, "UnsupportedBytecodeError", None)
        if unsupported_bytecode is not None:
            found.append(unsupported_bytecode)  # not a NumbaError subclass
        return tuple(found)

    def box_result(self, function, result, dynamic, inputs):
        """Re-box scalars Numba returns as Python numbers into the NumPy scalar type.

        Numba boxes every scalar result as a Python ``float``/``int``/``bool`` (Numba docs,
        "Supported Python features"): a float32 result would come back as a Python float. A
        result typed float32, int8..int32, uint8..uint64, float16 or complex64 can only be a
        NumPy scalar in the plain call, so it is re-boxed as one. float64/int64/bool/complex128
        results are left as Numba gives them: they are Python or NumPy scalars depending on
        the code, and telling them apart needs the fidelity analysis (issue 4).
        """
        if not isinstance(result, _SCALAR_RESULTS):
            return result
        overloads = function.overloads
        if len(overloads) == 1:
            cres = next(iter(overloads.values()))
        else:
            from numba import typeof
            cres = overloads.get(tuple(typeof(v) for v in (*dynamic, *inputs)))
            if cres is None:
                return result
        return _rebox(cres.signature.return_type, result)

    def result_boxer(self, function):
        """``box_result`` with its one-overload case kept: while the dispatcher holds one
        overload (one set of argument types so far), its return type's boxing is found once.
        A dispatcher only gains overloads (``recompile`` makes the same signatures again)."""
        if type(self).box_result is not NumbaCPUBackend.box_result:
            return super().result_boxer(function)
        overloads = function.overloads
        single = []     # [boxing of the one overload's return type], once known

        def box(result, dynamic, inputs):
            if len(overloads) != 1:
                return self.box_result(function, result, dynamic, inputs)
            if not single:
                single.append(_converter(next(iter(overloads.values())).signature.return_type))
            return single[0](result)
        return _SCALAR_RESULTS, box

    def result_converter(self, function, args):
        """The boxing of the return type of the overload that ``args``' types select."""
        if type(self).box_result is not NumbaCPUBackend.box_result:
            return super().result_converter(function, args)
        from numba import typeof
        try:
            cres = function.overloads.get(tuple(typeof(v) for v in args))
        except Exception:  # noqa: BLE001 - untypable: box each result as box_result does
            cres = None
        if cres is None:
            return super().result_converter(function, args)
        convert = _converter(cres.signature.return_type)
        # A scalar return type's result is always the Python number Numba boxes it as.
        return None if convert is _identity else convert


def _nonliteral(expr):
    """``_gj_nonliteral(expr)`` (backends/runtime/nonliteral.py); a starred argument as it is."""
    import gast
    if isinstance(expr, gast.Starred):
        return expr
    return gast.copy_location(gast.Call(
        func=gast.Name(id=NONLITERAL_NAME, ctx=gast.Load(), annotation=None, type_comment=None),
        args=[expr], keywords=[]), expr)


def _in_compiler(filename):
    import llvmlite
    import numba
    roots = (os.path.dirname(numba.__file__), os.path.dirname(llvmlite.__file__))
    return filename.startswith(roots)


_AMBIGUOUS = frozenset({"float64", "int64", "bool", "complex128"})


_REBOXERS = {}  # Numba return type -> function giving the plain call's scalar type


def _rebox(numba_type, value):
    return _converter(numba_type)(value)


def _converter(numba_type):
    convert = _REBOXERS.get(numba_type)
    if convert is None:
        convert = _REBOXERS[numba_type] = _reboxer(numba_type)
    return convert


def _reboxer(numba_type):
    from numba.core import types
    numba_type = types.unliteral(numba_type)
    if isinstance(numba_type, types.Optional):     # a value or None (a loop's return)
        inner = _reboxer(numba_type.type)
        return _identity if inner is _identity else (
            lambda value: value if value is None else inner(value))
    if isinstance(numba_type, types.BaseTuple):
        parts = [_reboxer(t) for t in numba_type]
        return lambda value: tuple(f(v) for f, v in zip(parts, value)) if isinstance(
            value, tuple) else value
    name = str(numba_type)
    if isinstance(numba_type, (types.Integer, types.Float, types.Complex)) and (
            name not in _AMBIGUOUS):
        return np.dtype(name).type
    return _identity


def _identity(value):
    return value
