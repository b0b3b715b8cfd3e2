"""IPython / Jupyter support: the ``%%graphjit`` cell magic.

Load it with ``%load_ext transpiler.notebook`` (or ``%load_ext transpiler``). Then::

    %%graphjit
    def dot(a, b):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i] * b[i]
        return s

runs the cell in the notebook's namespace, replaces every function the cell defines (or
redefines) by ``transpiler.jit(function)`` and shows each one's generated source,
syntax-highlighted. Options: ``--backend numba-cpu|eager`` and ``--fullgraph`` (the same as
:func:`transpiler.jit`'s arguments).

Functions defined in ordinary cells can be jitted as well: IPython keeps every cell's source
in :mod:`linecache`, where graphjit reads it. ``f.source()`` and ``f.ir()`` render as
highlighted HTML (Pygments), ``f.explain()`` as an HTML table.

This module imports IPython only when the extension is loaded.
"""
import ast
import types

from .api import JitFunction
from .errors import TranspileError

__all__ = ["load_ipython_extension", "unload_ipython_extension", "jit_cell_functions"]

MAGIC_NAME = "graphjit"


def load_ipython_extension(ipython):
    """Register the ``%%graphjit`` cell magic (``%load_ext transpiler.notebook``)."""
    ipython.register_magic_function(_make_magic(ipython), magic_kind="cell",
                                    magic_name=MAGIC_NAME)


def unload_ipython_extension(ipython):
    """Remove the ``%%graphjit`` cell magic (``%unload_ext``)."""
    ipython.magics_manager.magics["cell"].pop(MAGIC_NAME, None)


def _make_magic(shell):
    from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

    @magic_arguments()
    @argument("--backend", default=None,
              help='"numba-cpu" or "eager"; default: from transpiler.set_context')
    @argument("--fullgraph", action="store_true",
              help="raise TranspileError instead of falling back to plain Python")
    def graphjit(line, cell):
        """Run the cell, jit every function it defines and show their generated source.

        The cell runs in the notebook's namespace. Every function it defines at top level
        (``def``, not lambdas, not methods) is replaced there by ``transpiler.jit(function,
        backend=..., fullgraph=...)``, and its generated source is displayed (transpiled
        now, without arguments; compiled by Numba at the first call). A function that cannot
        be converted shows why instead; with ``--fullgraph`` that raises. The value of the
        cell's last expression, if any, is the result of the cell.
        """
        __tracebackhide__ = True  # noqa: F841 - IPython hides this frame in tracebacks
        args = parse_argstring(graphjit, line)
        return _run_cell(shell, line, cell, backend=args.backend, fullgraph=args.fullgraph)

    return graphjit


def _run_cell(shell, line, cell, backend, fullgraph):
    from IPython.display import display

    __tracebackhide__ = True  # noqa: F841 - IPython hides this frame in tracebacks
    namespace = shell.user_ns
    before = dict(namespace)
    filename, code, last = _compile_cell(shell, line, cell)
    exec(code, shell.user_global_ns, namespace)
    value = eval(last, shell.user_global_ns, namespace) if last is not None else None
    jitted = jit_cell_functions(namespace, before, filename, backend=backend,
                                fullgraph=fullgraph)
    errors = []
    for function in jitted:
        # Transpiled for display by a separate JitFunction: asking the namespace's one for
        # its source before its first call would fix its specialization without the
        # arguments' types (and, for a function that does not compile whole, without the
        # region-level split that the first call would make).
        shown = JitFunction(function.python_function, backend=backend, fullgraph=fullgraph)
        try:
            display(shown.source())
        except TranspileError as exc:   # only with --fullgraph
            errors.append(exc)
    if errors:
        raise errors[0].with_traceback(None)
    return value


def _compile_cell(shell, line, cell):
    """Cache the cell's source where ``inspect`` finds it and compile it, as IPython does.

    Returns ``(filename, code, last)``: ``last`` is the code of the cell's final expression
    (evaluated after the rest), or None.
    """
    transformed = shell.transform_cell(cell)
    # A blank first line stands for the '%%graphjit' line, so that line numbers in
    # tracebacks and in the generated source are the cell's. The raw text only names the
    # entry (ipykernel hashes it): marked, so that it is never an ordinary cell's name.
    text = "\n" + transformed
    filename = shell.compile.cache(text, shell.execution_count,
                                   raw_code=f"%%{MAGIC_NAME} {line}\n{cell}\n# graphjit cell")
    tree = shell.transform_ast(shell.compile.ast_parse(text, filename))
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = shell.compile(ast.Expression(tree.body.pop().value), filename, "eval")
    return filename, shell.compile(tree, filename, "exec"), last


def jit_cell_functions(namespace, before, filename, backend=None, fullgraph=None):
    """Replace in ``namespace`` the functions a cell defined by their ``jit``.

    Args:
        namespace (dict): the namespace the cell ran in.
        before (dict): a copy of ``namespace`` from before the cell ran.
        filename (str): the file name the cell's code was compiled with: only functions
            defined there, at top level, are converted (not lambdas, nested functions,
            methods, functions imported or merely renamed by the cell, nor functions marked
            with :func:`transpiler.do_not_convert`).
        backend, fullgraph: passed to :func:`transpiler.jit`.

    Returns:
        list[JitFunction]: the new jitted functions, in the cell's order (one per function,
        whatever the number of names bound to it).
    """
    converted = {}
    for name, value in list(namespace.items()):
        if before.get(name, _MISSING) is value or not _defined_by(value, filename):
            continue
        jitted = converted.get(id(value))
        if jitted is None:
            jitted = converted[id(value)] = JitFunction(value, backend=backend,
                                                        fullgraph=fullgraph)
        namespace[name] = jitted
    return sorted(converted.values(), key=lambda f: f.python_function.__code__.co_firstlineno)


def _defined_by(value, filename):
    return (isinstance(value, types.FunctionType)
            and value.__code__.co_filename == filename
            and value.__name__ != "<lambda>"
            and value.__qualname__ == value.__name__
            and not getattr(value, "__graphjit_do_not_convert__", False))


_MISSING = object()
