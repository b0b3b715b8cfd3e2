"""The dispatcher's fast path for NumPy graphs called on an instance: a Cell's ``construct``
in GRAPH_MODE, a jitted method (transpiler.fast_path covers plain functions).

A call that the general path (``JitFunction._call``) ran as a NumPy graph (backends/
numpy_graph.py) is remembered by the exact types of the instance and the arguments. The next
call with the same types runs that specialization's ``_prepare`` (every guard re-checked, every
runtime input re-read, as always) and its graph, skipping the search through the
specializations. It takes the general path when the instance has specializations of its own
(they come first there), when an argument is an int or a tuple (their values are checked), or
when a guard fails or the backend changed. A graph raises only the user's or NumPy's own
exceptions (no compile step can fail), which are re-raised with their raise site noted.

Thread safety: a call only reads the table; the general path stores one entry at a time (a
racing store of another valid decision is as good); entries are never mutated.
"""
from .context import _DEVICE_BACKENDS as _BACKENDS
from .raise_sites import note_raise_site
from .settings import CONTEXT as _CONTEXT

MISS = object()
_MAX_KEYS = 64
_VALUE_CHECKED = (int, tuple)


def graph_call(jit, obj, args):
    """The result of ``jit`` called on ``obj`` with positional ``args`` by a remembered NumPy
    graph, or :data:`MISS`."""
    table = jit.__dict__.get("_graph_table")
    if not table:
        return MISS
    spec = table.get((type(obj), *map(type, args)))
    if spec is None or spec.backend_name != (jit.backend or _BACKENDS[_CONTEXT["device_target"]]):
        return MISS
    own = jit._by_instance.get(id(obj))
    if own is None or own[1] or own[0]() is not obj:
        return MISS         # its own specializations come first: the general path
    inputs = spec.prepare(obj, args, spec.roots, spec.constants)
    if inputs is None:
        return MISS
    try:
        if spec.identity:
            return spec.function(*args, *inputs)
        return spec.function(*[args[i] for i in spec.dynamic_indices], *inputs)
    except Exception as exc:
        note_raise_site(exc, spec, jit.python_function)
        raise


def remember_graph(jit, obj, values, spec):
    """Keep ``spec`` (it just ran for ``obj`` and ``values``) for the next such call, when it
    is a NumPy graph and the arguments' types alone choose it."""
    if obj is None or spec.backend.name != "numpy-graph" or any(
            isinstance(v, _VALUE_CHECKED) for v in values):
        return
    spec.identity = spec.dynamic_indices == tuple(range(len(values)))
    table = jit.__dict__.get("_graph_table")
    if table is None or len(table) >= _MAX_KEYS:
        table = jit.__dict__["_graph_table"] = {}
    table[(type(obj), *map(type, values))] = spec

