"""Code of a jitted function that runs as Python (its fallback, a refusal, a re-run) still
calls compiled Cells (issue 20; torch.compile likewise compiles the frames after a graph
break).

While such Python runs, a Cell it calls runs its ``construct`` compiled, as in GRAPH_MODE
(transpiler.nn.cell asks :func:`active`), each with its own specialization and guards; the
Cells reached are remembered on the jitted function for ``explain()``. Only functions whose
code refers to a Cell or a jitted function (their names, resolved in the function's globals and
closure, :func:`reaches_compiled`) pay for the scope: a counter on the thread.

Thread safety: the scope is per thread (``threading.local``).
"""
import threading
import types

from .registry import is_bound_jit_function, is_cell, is_cell_class, is_jit_function

_local = threading.local()


def active():
    """The jitted function whose Python runs now on this thread (innermost), or None."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None


def run_reaching(jit, function, args, kwargs):
    """``function(*args, **kwargs)`` with the Cells it calls compiled (see the module
    docstring) and the plain functions it calls too (transpiler.python_callees), for ``jit``
    (a JitFunction) whose Python ``function`` is."""
    if not reaches_compiled(jit):
        return function(*args, **kwargs)
    from .python_callees import variant
    function = variant(jit, function)
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    stack.append(jit)
    try:
        return function(*args, **kwargs)
    finally:
        stack.pop()


def note(graph_function, obj):
    """A Cell ``obj`` ran ``graph_function`` (its construct's JitFunction) from the Python of
    the active jitted function: kept for its explain()."""
    outer = active()
    if outer is not None:
        reached = outer.__dict__.setdefault("_reached", {})
        reached.setdefault(id(graph_function), (graph_function, type(obj)))


def reaches_compiled(jit):
    """Whether ``jit``'s Python function names a Cell (class or instance) or a jitted function
    anywhere in its code (nested code objects included), as resolved in its globals, builtins
    and closure now, or calls a plain function that runs compiled (python_callees); computed
    once."""
    found = jit.__dict__.get("_reaches")
    if found is None:
        found = _names_compiled(jit.python_function)
        if not found:   # or a plain function it calls runs compiled (python_callees)
            from .python_callees import variant
            found = variant(jit, jit.python_function) is not jit.python_function
        jit.__dict__["_reaches"] = found
    return found


def _names_compiled(function):
    function = getattr(function, "__func__", function)
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    scope = dict(getattr(function, "__globals__", {}))
    for name, cell in zip(code.co_freevars, function.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:
            pass
    stack = [code]
    while stack:
        current = stack.pop()
        for name in current.co_names + current.co_freevars:
            value = scope.get(name)
            if value is not None and (is_cell(value) or is_cell_class(value) or is_jit_function(
                    value) or is_bound_jit_function(value)):
                return True
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return False

