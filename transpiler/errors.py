"""Errors and warnings that graphjit shows to users.

Every error that comes from the user's code carries an *origin*: the user's file, line and
column, so that the message points at the construct and not at generated code or at Numba's
internals.
"""
import linecache
import os
import re
import sys


class Origin(tuple):
    """Where a construct comes from: ``(filename, lineno, col_offset)``.

    ``lineno`` is 1-based as in Python tracebacks, ``col_offset`` 0-based as in :mod:`ast`.
    """

    __slots__ = ()

    def __new__(cls, filename, lineno, col_offset=0):
        return tuple.__new__(cls, (filename, int(lineno), int(col_offset or 0)))

    filename = property(lambda self: self[0])
    lineno = property(lambda self: self[1])
    col_offset = property(lambda self: self[2])

    def __str__(self):
        return f"{self.filename}:{self.lineno}"

    def excerpt(self):
        """The source line and a caret under the column, or '' when the file cannot be read."""
        line = linecache.getline(self.filename, self.lineno)
        if not line.strip():
            return ""
        line = line.rstrip("\n")
        stripped = line.lstrip()
        lead = len(line) - len(stripped)
        caret = " " * max(self.col_offset - lead, 0) + "^"
        return f"    {stripped}\n    {caret}"


class TranspileError(Exception):
    """graphjit could not turn a function into compiled code.

    Attributes:
        reason (str): what went wrong, in the user's terms.
        origin (Origin | None): the user's file, line and column, when known.
    """

    def __init__(self, reason, origin=None):
        self.reason = reason
        self.origin = origin
        super().__init__(self._format())

    def _format(self):
        if self.origin is None:
            return self.reason
        text = f"{self.origin}: {self.reason}"
        excerpt = self.origin.excerpt()
        return f"{text}\n{excerpt}" if excerpt else text


class UnsupportedConstruct(TranspileError):
    """A construct that graphjit does not compile (raised under ``fullgraph=True``).

    Without ``fullgraph`` the same condition makes the function run as plain Python, with a
    :class:`FallbackWarning` that gives the same reason and origin.
    """


class SourceUnavailable(UnsupportedConstruct):
    """The function's source cannot be read: made by ``exec``/``eval``, typed at a REPL, or a
    builtin. ``inspect.getsource`` raised ``OSError`` or ``TypeError`` for it."""


class CacheWarning(UserWarning):
    """A corrupt or truncated on-disk cache entry was found; it is ignored and rebuilt."""


class FallbackWarning(UserWarning):
    """Issued when graphjit runs a function (or a part of it) as plain Python.

    Issued through :func:`warnings.warn` at every such call, pointing at the user's line, so
    Python's own filters and registry decide what shows: by default once per message and call
    site; ``pytest.warns``, ``-W error::transpiler.FallbackWarning`` and
    ``warnings.filterwarnings`` behave as for any warning."""


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_GEN_LINE = re.compile(r'File "([^"]+)", line (\d+)|at (\S+) \((\d+)\)')
_NOISE = ("Failed in ", "During:", "File \"", "Enable logging", "For more information")


def _is_generated(path, generated_path):
    return path == generated_path or path.endswith("/" + generated_path.rsplit("/", 1)[-1])


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _ours(origin):
    """Whether ``origin`` is a line of graphjit's own package (a helper it calls)."""
    return os.path.abspath(origin.filename).startswith(_PACKAGE)


def translate_numba_error(exc, generated_path, line_map, where):
    """Turn a Numba compile-time error into a :class:`TranspileError` in the user's terms.

    Args:
        exc (Exception): the ``numba.core.errors.NumbaError`` (TypingError, LoweringError,
            UnsupportedError, ...) or ``UnsupportedBytecodeError`` that Numba raised.
        generated_path (str): path of the generated module Numba compiled.
        line_map (dict[int, Origin]): generated line number -> user's origin.
        where (Origin | None): the function's own origin, used when no line can be mapped.

    Returns:
        TranspileError: with Numba's headline (its first meaningful line, internals dropped) and
        the user's file:line of the statement Numba rejected.
    """
    text = _ANSI.sub("", str(exc))
    origin = None
    for match in _GEN_LINE.finditer(text):
        path = match.group(1) or match.group(3)
        line = int(match.group(2) or match.group(4))
        if _is_generated(path, generated_path) and line in line_map:
            if origin is None or _ours(origin):
                origin = line_map[line]     # the first line of the user's (not a helper's)
            if not _ours(origin):
                break
    if origin is not None and _ours(origin):
        origin = None       # only a helper's line: the user's function instead
    headline = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            if headline:
                break
            continue
        if line.startswith(_NOISE) or line.startswith("^"):
            if headline:
                break
            continue
        headline.append(line)
        if len(headline) == 3:
            break
    reason = " ".join(headline) or type(exc).__name__
    numpy_operand = re.search(r"graphjit: (?:a value whose type the converter could not "
                              r"follow|an untyped value) is a NumPy (\w+) scalar", text)
    if numpy_operand:       # backends/runtime/builtin_ops.NUMPY_OPERAND
        reason = (f"a value whose type graphjit could not follow is a NumPy "
                  f"{numpy_operand.group(1)} scalar here, computed as a Python int would be: "
                  "NumPy's own rules (wrapping at its width, its result type) differ")
    elif "function untyped_operand" in reason or "graphjit: a value whose type" in text:
        # transpiler.ir.untyped_operand said it (Numba words it as a missing implementation)
        reason = ("a value whose type graphjit could not follow (an item of a tuple or list "
                  "built at run time, a call's result) is a number meeting a NumPy value: "
                  "NumPy's result type depends on its Python type (NEP 50)")
    reason = reason.replace(generated_path, "<generated>")
    reason = re.sub(r"'(\w+)\.\d+'", r"'\1'", reason)  # Numba's SSA names: 'y.2' -> 'y'
    reason = re.sub(r",? ?defined at <generated> \(\d+\)", "", reason)
    kind = type(exc).__name__
    return TranspileError(f"Numba cannot compile this ({kind}): {reason}", origin or where)


def user_stacklevel():
    """The ``stacklevel`` that makes ``warnings.warn``, called by the caller of this function,
    point at the first frame outside graphjit: its packages and its generated modules. A
    warning then names the user's line whether the call came from a jitted function, a Cell or
    a GPU driver, however deep graphjit's own frames are."""
    frame = sys._getframe(1)    # the function that calls warnings.warn: stacklevel 1
    level = 1
    internal = _INTERNAL
    while frame is not None:
        filename = frame.f_code.co_filename
        inside = internal.get(filename)
        if inside is None:
            inside = _internal(filename)
            if len(internal) > 4096:   # files without end (exec'd code): start again
                internal.clear()
            internal[filename] = inside
        if not inside:
            break
        frame = frame.f_back
        level += 1
    return level


_INTERNAL = {}   # file name -> whether it is graphjit's (its packages, generated modules)
_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOTS = (_HERE + os.sep, os.path.join(os.path.dirname(_HERE), "backends") + os.sep)


def _internal(filename):
    return filename.startswith(_ROOTS) or os.path.basename(filename).startswith("_graphjit_")
