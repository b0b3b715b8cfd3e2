"""Convert a whole file without importing it: the engine behind ``graphjit convert``.

The file is parsed, never executed. Its module namespace is rebuilt from the source alone:
imports of library modules (NumPy, math, the standard library but those whose import acts:
EFFECTFUL_IMPORTS) are imported for real; constants whose value is a literal
(``ast.literal_eval``) are bound; each top-level ``def`` is compiled on its own, without its
decorators and annotations, into a function whose globals are that namespace (defining a
function runs none of its body; a default value that is not a literal keeps the function out).
Everything else (classes, calls, other module-level code) is never run. The file is read as
Python reads source (coding cookie, BOM), and only if it is a regular file (read_source).

The converted functions share one program (a helper used by two of them is generated once) and
are lowered into one module that imports only NumPy, Numba and the standard library: the steps
of transpiler.pipeline, capture and specialize per function, lower once.
"""
import ast
import errno
import gc
import hashlib
import importlib
import io
import os
import stat
import sys
import tokenize

from .errors import TranspileError
from .nodes import walk

HEADER = "# graphjit-generated"
FREEZE_EVERY = 100  # functions converted between two gc.freeze() calls (see _convert)
# Modules whose import the converter may run: they are not the user's code.
SAFE_IMPORTS = frozenset({"numpy", "numba", "math", "cmath", "operator", "functools",
                          "itertools", "json", "os", "sys", "time", "random", "statistics"})
# Standard-library modules whose import does something (opens a browser, prints, starts Tk,
# runs tests): an input naming them is never made to run them.
EFFECTFUL_IMPORTS = frozenset({"antigravity", "this", "__hello__", "__phello__", "idlelib",
                               "turtle", "turtledemo", "tkinter", "test", "ensurepip", "venv"})


class ConvertedFunction:
    """One top-level function of the input: converted, or kept as Python with a reason."""

    def __init__(self, name, lineno, marked, reason=None):
        self.name = name
        self.lineno = lineno
        self.marked = marked          # decorated with @jit in the input
        self.reason = reason          # None when converted

    @property
    def converted(self):
        return self.reason is None


class ConvertedModule:
    """The result of converting one file: ``source`` of the output module, the functions."""

    def __init__(self, path, source_hash, functions, source):
        self.path = path
        self.source_hash = source_hash
        self.functions = functions
        self.source = source

    @property
    def fell_back(self):
        return [f for f in self.functions if not f.converted]


class InputError(Exception):
    """The input cannot be read or parsed (the CLI exits with status 2)."""


def source_hash(text):
    """SHA-256 of the input's text: recorded in the output header, checked by ``--check``."""
    return hashlib.sha256(text.encode()).hexdigest()


def _is_jit_decorator(node):
    target = node.func if isinstance(node, ast.Call) else node
    return (isinstance(target, ast.Name) and target.id == "jit") or (
        isinstance(target, ast.Attribute) and target.attr == "jit")


def _safe_module(name):
    top = name.split(".")[0]
    return top not in EFFECTFUL_IMPORTS and (
        top in SAFE_IMPORTS or top in sys.stdlib_module_names)


def read_source(path):
    """The text of ``path``, decoded as Python decodes a source file (PEP 263 coding cookie,
    UTF-8 BOM; universal newlines).

    The file is opened without following a symbolic link and without blocking (a FIFO would
    wait for a writer forever), and must be a regular file: a link could make an input its own
    output, and reading a FIFO or a device never ends.

    Raises:
        InputError: missing, unreadable, a link, not a regular file, or not decodable.
    """
    if os.path.islink(path):  # O_NOFOLLOW below does the same where it exists (not Windows)
        raise InputError(f"{path}: is a symbolic link; not read (name the file it points to)")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | \
        getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{path}: is a symbolic link; not read (name the file it points "
                             "to)") from None
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise InputError(f"{path}: not a regular file (a folder, FIFO or device); not read")
        try:
            data = handle.read()
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return io.TextIOWrapper(io.BytesIO(data), encoding).read()
    except (SyntaxError, UnicodeDecodeError, LookupError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None


def read_module(path, use_import=False):
    """Parse ``path`` and rebuild its namespace (see the module docstring).

    Returns:
        tuple[str, ast.Module, dict, dict[str, function]]: text, tree, namespace, functions.

    Raises:
        InputError: unreadable file or syntax error (with file and line).
    """
    text = read_source(path)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        raise InputError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None
    except ValueError as exc:       # a NUL byte in the source
        raise InputError(f"{path}: cannot parse: {exc}") from None
    if use_import:
        return text, tree, *_imported_namespace(path, tree)
    namespace = {"__name__": "__graphjit_convert__", "__file__": path,
                 "__builtins__": __builtins__}
    functions = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if _safe_module(alias.name):
                    module = importlib.import_module(alias.name)
                    if alias.asname:
                        namespace[alias.asname] = module
                    else:
                        namespace[alias.name.split(".")[0]] = importlib.import_module(
                            alias.name.split(".")[0])
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
            if _safe_module(stmt.module):
                module = importlib.import_module(stmt.module)
                for alias in stmt.names:
                    if hasattr(module, alias.name):
                        namespace[alias.asname or alias.name] = getattr(module, alias.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                try:
                    namespace[targets[0].id] = ast.literal_eval(stmt.value)
                except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                    namespace.pop(targets[0].id, None)  # not a literal: unknown here
        elif isinstance(stmt, ast.FunctionDef):
            fn = _define(stmt, path, namespace)
            if fn is not None:
                functions[stmt.name] = fn
    return text, tree, namespace, functions


def _define(stmt, path, namespace):
    """The function of one ``def``, compiled alone, decorators, annotations and the return
    annotation dropped (defining a function evaluates them: they could run the user's code);
    None if a default is not a literal (evaluating it could too)."""
    for default in stmt.args.defaults + [d for d in stmt.args.kw_defaults if d is not None]:
        try:
            ast.literal_eval(default)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
    bare = ast.FunctionDef(name=stmt.name, args=_without_annotations(stmt.args),
                           body=stmt.body, decorator_list=[], returns=None, type_comment=None,
                           type_params=[])
    ast.copy_location(bare, stmt)
    module = ast.Module(body=[bare], type_ignores=[])
    ast.fix_missing_locations(module)
    local = {}
    exec(compile(module, path, "exec"), namespace, local)  # defines it; runs no body
    fn = local[stmt.name]
    namespace[stmt.name] = fn
    return fn


def _without_annotations(args):
    """A copy of ``ast.arguments`` whose parameters carry no annotation (the body and the
    defaults are shared, not copied)."""
    def bare(arg):
        return None if arg is None else ast.copy_location(
            ast.arg(arg=arg.arg, annotation=None, type_comment=None), arg)
    return ast.arguments(posonlyargs=[bare(a) for a in args.posonlyargs],
                         args=[bare(a) for a in args.args], vararg=bare(args.vararg),
                         kwonlyargs=[bare(a) for a in args.kwonlyargs],
                         kw_defaults=args.kw_defaults, kwarg=bare(args.kwarg),
                         defaults=args.defaults)


def _imported_namespace(path, tree):
    """``--import``: run the module for real and use its live values."""
    import importlib.util
    name = "__graphjit_convert_" + hashlib.sha1(path.encode()).hexdigest()[:10]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(folder)
    functions = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            fn = getattr(module, stmt.name, None)
            fn = getattr(fn, "python_function", fn)
            if callable(fn) and getattr(fn, "__code__", None) is not None:
                functions[stmt.name] = fn
    return vars(module), functions


def convert(path, backend="numba-cpu", convert_all=False, use_import=False, progress=None):
    """Convert one file; see the module docstring.

    Args:
        path (str): the input .py file.
        backend (str): ``"numba-cpu"`` or ``"eager"`` (plain Python, structured loops).
        convert_all (bool): every top-level function, not only those marked ``@jit``.
        use_import (bool): import the module for live values (runs its code).
        progress (callable | None): called as ``progress(done, total)`` after each function
            to convert (the CLI's bar inside a large file).

    Returns:
        ConvertedModule

    Raises:
        InputError: unreadable or unparsable input, or one too deeply nested or too large to
            convert (RecursionError, MemoryError).
        ValueError: unknown backend.
    """
    if backend not in ("numba-cpu", "eager"):
        raise ValueError(f"backend {backend!r} is not available for conversion; use "
                         "'numba-cpu' or 'eager'")
    try:
        return _convert(path, backend, convert_all, use_import, progress)
    except RecursionError:
        raise InputError(f"{path}: too deeply nested to convert (RecursionError: a nested "
                         "expression or a chain of calls deeper than Python's stack)") from None
    except MemoryError:
        raise InputError(f"{path}: out of memory while converting it (MemoryError)") from None


def _convert(path, backend, convert_all, use_import, progress):
    from backends import get_backend

    from .pipeline import new_program

    text, tree, namespace, functions = read_module(path, use_import)
    defs = [s for s in tree.body if isinstance(s, ast.FunctionDef)]
    chosen = [(stmt, any(_is_jit_decorator(d) for d in stmt.decorator_list)) for stmt in defs]
    chosen = [(stmt, marked) for stmt, marked in chosen if marked or convert_all]
    results, program = [], new_program()
    program.runs_python = backend == "eager"
    # The program only grows: each full collection of the cyclic GC would scan all of it
    # again (about a fifth of the time at 4,000 functions, and growing with the file). What
    # survived is frozen out of the collector every FREEZE_EVERY functions, young garbage
    # collected first; unfrozen at the end. Not when the caller froze objects itself
    # (unfreeze would release theirs too).
    freeze = gc.get_freeze_count() == 0
    try:
        for done, (stmt, marked) in enumerate(chosen, 1):
            results.append(_convert_one(program, stmt, marked, functions.get(stmt.name)))
            if freeze and done % FREEZE_EVERY == 0:
                gc.collect(1)
                gc.freeze()
            if progress is not None:
                progress(done, len(chosen))
    finally:
        if freeze:
            gc.unfreeze()
    source = _emit(path, text, tree, program, results, get_backend(
        "numba-cpu" if backend == "numba-cpu" else "eager"), backend)
    return ConvertedModule(path, source_hash(text), results, source)


def _convert_one(program, stmt, marked, fn):
    """Specialize one top-level function into ``program``; its :class:`ConvertedFunction`."""
    from .pipeline import specialize_into

    if fn is None:
        return ConvertedFunction(stmt.name, stmt.lineno, marked,
                                 "a default value is not a literal")
    # A failure must not leave half a function behind: the program is rolled back to this
    # point (not tried first in a fresh program, which would specialize each callee once per
    # caller: quadratic for a file whose functions call one another).
    state = program.checkpoint()
    try:
        entry = specialize_into(program, fn)
    except TranspileError as exc:
        program.rollback(state)
        return ConvertedFunction(stmt.name, stmt.lineno, marked, str(exc))
    except RecursionError:
        program.rollback(state)
        return ConvertedFunction(stmt.name, stmt.lineno, marked, "too deeply nested for the "
                                 "converter (RecursionError)")
    except BaseException:
        program.rollback(state)
        raise
    if entry.inputs:
        program.rollback(state)
        return ConvertedFunction(stmt.name, stmt.lineno, marked, "it reads arrays held by "
                                 "objects or globals, which a standalone module cannot re-read")
    if any(_raises_user_class(f) for f in program.functions_since(state)):
        # a standalone module has no jit object to run the call again as Python
        program.rollback(state)
        return ConvertedFunction(stmt.name, stmt.lineno, marked, "it raises an exception class "
                                 "defined in Python code, which compiled code cannot create")
    entry.public_name = stmt.name
    entry.defaults = fn.__defaults__
    return ConvertedFunction(stmt.name, stmt.lineno, marked)


def _raises_user_class(generated):
    """Whether a generated function signals a user exception class's raise (the call would
    run again as Python: passes.specialize stmt_Raise)."""
    import gast

    from .helpers.messages import USER_EXCEPTION
    return any(isinstance(n, gast.Constant) and n.value == USER_EXCEPTION
               for n in walk(generated.node))


def _emit(path, text, tree, program, results, lowerer, backend):
    """The output module: header, library imports, constants, generated code, Python parts."""
    from backends.restructure import restructure

    from .pipeline import lower

    digest = source_hash(text)
    lines = [f"{HEADER} from {os.path.basename(path)} sha256={digest}",
             f"# Converted by graphjit for the {backend} backend. Do not edit: rerun "
             "`graphjit convert` after changing the source.",
             "# It imports only NumPy, Numba and the standard library."]
    for stmt in tree.body:   # the input's library imports and literal constants, verbatim
        if isinstance(stmt, ast.Import) and all(_safe_module(a.name) for a in stmt.names):
            lines.append(ast.unparse(stmt))
        elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0 and \
                _safe_module(stmt.module):
            lines.append(ast.unparse(stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            try:
                ast.literal_eval(stmt.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            lines.append(ast.unparse(stmt))
    converted = {r.name for r in results if r.converted}
    # Names the Python parts of the output define: generated helpers must not take them.
    taken = {s.name for s in tree.body if isinstance(s, ast.FunctionDef)} - converted
    taken |= {t.id for s in tree.body if isinstance(s, ast.Assign) for t in s.targets
              if isinstance(t, ast.Name)}
    if program.functions:
        for fn in program.functions:
            if getattr(fn, "public_name", None):
                fn.symbol.preferred = fn.public_name
                _add_defaults(fn)
        if backend == "eager":
            # Structured loops again: the eager output is plain Python needing no graphjit.
            body = _eager_body(program, lowerer, restructure, taken)
        else:
            body = lower(program, lowerer, include_prepare=False, reserved=taken).source
        lines.append(body.rstrip("\n"))
    reasons = {}    # a dict, not a search of results per kept function (quadratic)
    for r in results:
        reasons.setdefault(r.name, r.reason)
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name not in converted:
            reason = reasons.get(stmt.name)
            kept = ast.FunctionDef(name=stmt.name, args=stmt.args, body=stmt.body,
                                   decorator_list=[d for d in stmt.decorator_list
                                                   if not _is_jit_decorator(d)],
                                   returns=stmt.returns, type_comment=None, type_params=[])
            ast.copy_location(kept, stmt)
            lines.append("")
            lines.append("")
            if reason:
                first = reason.splitlines()[0]
                lines.append(f"# graphjit: kept as Python: {first}")
            lines.append(ast.unparse(kept))
    return "\n".join(lines) + "\n"


def _eager_body(program, lowerer, restructure, taken):
    class Structured(type(lowerer)):
        keeps_forms = False

        def function_node(self, fn):
            return restructure(fn.node)
    from .pipeline import lower
    return lower(program, Structured(), include_prepare=False, reserved=taken).source


def _add_defaults(fn):
    """Give a converted entry its literal default values back (the wrapper that applies them
    at run time is not in a standalone module)."""
    import gast
    defaults = fn.defaults or ()
    if defaults and all(type(d) in (int, float, bool, str, type(None)) for d in defaults):
        fn.node.args.defaults = [gast.Constant(value=d, kind=None) for d in defaults]


def read_header(path):
    """The recorded source hash of a graphjit-written output, or None (not ours / missing)."""
    try:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline()
    except OSError:
        return None
    if not first.startswith(HEADER):
        return None
    for part in first.split():
        if part.startswith("sha256="):
            return part[len("sha256="):]
    return ""
