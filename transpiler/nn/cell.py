"""``Cell``, the base of models, and ``SequentialCell``, after MindSpore's ``mindspore.nn``.

Calling a cell runs its ``construct``: eagerly in PYNATIVE_MODE, compiled in GRAPH_MODE, and
compiled in either mode when ``construct`` is decorated with ``@jit`` (MindSpore 2.x rules) or
when the call comes from a jitted function's code that runs as Python (its fallback:
transpiler.python_scope).
Sub-cells and other attributes are resolved at transpile time; array attributes reach the
compiled code as runtime inputs, so assigning a new ``weight`` shows at the next call.
"""
import threading

from .. import python_scope
from ..api import JitFunction
from ..registry import register
from ..context import GRAPH_MODE, get_context
from ..settings import CONTEXT as _CONTEXT

_LOCK = threading.Lock()
_NO_DICT = {}       # what a Cell without an instance dict (__slots__) has of its own


def _graph_function(construct):
    """The JitFunction that GRAPH_MODE uses for a class's ``construct`` (one per function,
    made once however many threads call first). Kept on the function itself, so it lives as
    long as the class does (a module-level table kept every class ever defined)."""
    jitted = getattr(construct, "__graphjit_graph__", None)
    if jitted is None:
        with _LOCK:
            jitted = getattr(construct, "__graphjit_graph__", None)
            if jitted is None:
                jitted = JitFunction(construct)
                construct.__graphjit_graph__ = jitted
    return jitted


class Cell:
    """Base class of models and layers. Subclasses define ``construct(self, *inputs)``."""

    def construct(self, *inputs):
        """The computation; subclasses override it."""
        raise TypeError(f"{type(self).__name__} must define construct()")

    def __call__(self, *args, **kwargs):
        own = getattr(self, "__dict__", _NO_DICT).get("construct")
        if own is not None:
            # construct replaced on this instance: that one runs, as in PYNATIVE mode
            return self._call_own(own, args, kwargs)
        construct = type(self).construct
        if isinstance(construct, JitFunction):
            return construct._call(self, args, kwargs)
        if _CONTEXT["mode"] == GRAPH_MODE:
            graph = getattr(construct, "__graphjit_graph__", None) or _graph_function(construct)
            return graph._call(self, args, kwargs)
        if python_scope.active() is not None:
            # called from a jitted function's Python (its fallback): compiled all the same
            graph = _graph_function(construct)
            python_scope.note(graph, self)
            return graph._call(self, args, kwargs)
        return self.construct(*args, **kwargs)

    def _call_own(self, own, args, kwargs):
        import types
        compiled = get_context("mode") == GRAPH_MODE or python_scope.active() is not None
        if not compiled or isinstance(own, JitFunction) or not isinstance(
                own, (types.FunctionType, types.MethodType)):
            return own(*args, **kwargs)
        if isinstance(own, types.MethodType):
            return _graph_function(own.__func__)._call(own.__self__, args, kwargs)
        return _graph_function(own)._call(None, args, kwargs)

    def cells(self):
        """The direct sub-cells, in attribute order."""
        return [v for v in vars(self).values() if isinstance(v, Cell)]

    def parameters_and_names(self, prefix=""):
        """``(name, array)`` for every floating array this cell and its sub-cells hold (in
        attribute order, each array once): MindSpore's parameters, named by attribute path
        (``dense_relu_sequential.cell_list.0.weight``)."""
        import numpy as np
        seen, out = set(), []

        def visit(obj, path):
            if isinstance(obj, np.ndarray):
                if obj.dtype.kind == "f" and id(obj) not in seen:
                    seen.add(id(obj))
                    out.append((path, obj))
            elif isinstance(obj, Cell):
                for key, value in getattr(obj, "__dict__", _NO_DICT).items():
                    visit(value, f"{path}.{key}" if path else key)
            elif isinstance(obj, (list, tuple)):
                for k, value in enumerate(obj):
                    visit(value, f"{path}.{k}")
        visit(self, prefix)
        return out

    def trainable_params(self):
        """The arrays training updates (``parameters_and_names()``'s arrays): pass them to
        an optimizer and as ``weights`` to ``grad``/``value_and_grad``."""
        return [array for _, array in self.parameters_and_names()]


register("cell", Cell)


class SequentialCell(Cell):
    """Runs its cells in order: ``SequentialCell(a, b, c)(x) == c(b(a(x)))``.

    Args:
        *args: cells, or one list/tuple of cells.

    Raises:
        TypeError: an element is not a Cell.
    """

    def __init__(self, *args):
        super().__init__()
        cells = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) \
            else list(args)
        for cell in cells:
            if not isinstance(cell, Cell):
                raise TypeError(f"SequentialCell takes Cells, got {type(cell).__name__}")
        self.cell_list = cells

    def __len__(self):
        return len(self.cell_list)

    def __getitem__(self, index):
        return self.cell_list[index]

    def append(self, cell):
        """Add a cell at the end; the next compiled call transpiles again (a guard fails)."""
        if not isinstance(cell, Cell):
            raise TypeError(f"SequentialCell takes Cells, got {type(cell).__name__}")
        self.cell_list.append(cell)

    def construct(self, x):
        for cell in self.cell_list:
            x = cell(x)
        return x
