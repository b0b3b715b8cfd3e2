"""Capture: get a function's source, parse it with gast, and tag every node with its origin."""
import inspect
import linecache
import textwrap

import gast

from .errors import Origin, SourceUnavailable, UnsupportedConstruct
from .nodes import walk


class FunctionSource:
    """The parsed source of one Python function.

    Attributes:
        function: the Python function object.
        filename (str): the file the source comes from.
        node (gast.FunctionDef): the definition, decorators removed, line and column numbers
            those of the user's file.
    """

    def __init__(self, function, filename, node):
        self.function = function
        self.filename = filename
        self.node = node

    def origin(self, node):
        """The :class:`Origin` of ``node`` (any node of this function)."""
        return Origin(self.filename, getattr(node, "lineno", self.node.lineno),
                      getattr(node, "col_offset", 0))


_parsed = {}  # code object -> (filename, FunctionDef): sources parse once per process


def capture(function):
    """Read and parse the source of ``function`` (parsed once per code object; the returned
    ``node`` is shared and must be treated as read-only).

    Args:
        function: a plain Python function (not a builtin, not a lambda).

    Returns:
        FunctionSource

    Raises:
        SourceUnavailable: no source (``exec``, REPL, builtin); ``inspect.getsourcelines``
            raised ``OSError`` or ``TypeError``.
        UnsupportedConstruct: the source is a lambda or does not define this function.
    """
    code = getattr(function, "__code__", None)
    cached = _parsed.get(code)
    if cached is not None and linecache_fresh(cached[0]):
        return FunctionSource(function, cached[0], cached[1])
    where = Origin(code.co_filename, code.co_firstlineno) if code else None
    try:
        # Read through the code object: inspect follows ``__wrapped__`` on functions, which
        # would return the source of the function a decorator wrapped, not of this one.
        lines, firstlineno = inspect.getsourcelines(code)
        filename = inspect.getsourcefile(code) or code.co_filename
    except (OSError, TypeError) as exc:
        raise SourceUnavailable(
            f"the source of {getattr(function, '__qualname__', function)!r} is not available "
            f"(defined with exec/eval or at an interactive prompt?): {exc}", where) from None
    text = "".join(lines)
    indent = len(lines[0]) - len(lines[0].lstrip())
    try:
        module = gast.parse(textwrap.dedent(text))
    except SyntaxError as exc:
        raise UnsupportedConstruct(f"cannot parse the source: {exc.msg}", where) from None
    node = module.body[0] if module.body else None
    # The code object's own name: functools.wraps renames the wrapper, not its code.
    if not isinstance(node, gast.FunctionDef) or node.name != code.co_name:
        raise UnsupportedConstruct(
            f"{function.__qualname__} is not defined by a plain 'def' statement "
            "(a lambda or a generated function?)", where)
    for child in walk(node):
        if hasattr(child, "lineno") and child.lineno is not None:
            child.lineno += firstlineno - 1
            if getattr(child, "end_lineno", None) is not None:
                child.end_lineno += firstlineno - 1
            child.col_offset = (child.col_offset or 0) + indent
            if getattr(child, "end_col_offset", None) is not None:
                # (columns of the user's file, both ends: code compiled from these nodes, a
                # loop region or an island of a method, needs a valid range)
                child.end_col_offset += indent
    node.decorator_list = []
    _parsed[code] = (filename, node)
    return FunctionSource(function, filename, node)


def linecache_fresh(filename):
    """False when the file changed since linecache read it (then parse again)."""
    linecache.checkcache(filename)
    return filename in linecache.cache


def origin_of(function):
    """Where ``function`` is defined (an :class:`Origin`, its ``def`` line), or None."""
    code = getattr(function, "__code__", None)
    return Origin(code.co_filename, code.co_firstlineno) if code else None
