"""Which classes are graphjit's own callables: a leaf module that cuts import circles.

The passes must recognise a jitted function or a Cell met as a static value, but may not import
``transpiler.api`` or ``transpiler.nn`` (those import the pipeline). Those classes register
themselves here when their modules are imported; until then no value can be one of them.
"""
_JIT_FUNCTIONS = []     # JitFunction (transpiler.api)
_BOUND_JIT_FUNCTIONS = []   # BoundJitFunction (transpiler.api)
_CELLS = []             # Cell (transpiler.nn.cell)


def register(kind, cls):
    """Record ``cls`` as graphjit's ``kind``: ``"jit"``, ``"bound_jit"`` or ``"cell"``.

    Raises:
        KeyError: for another kind.
    """
    {"jit": _JIT_FUNCTIONS, "bound_jit": _BOUND_JIT_FUNCTIONS, "cell": _CELLS}[kind].append(cls)
    return cls


def is_jit_function(value):
    """Whether ``value`` is a ``JitFunction`` (a function decorated with ``jit``)."""
    return isinstance(value, tuple(_JIT_FUNCTIONS))


def is_bound_jit_function(value):
    """Whether ``value`` is a ``BoundJitFunction`` (a jitted method bound to an instance)."""
    return isinstance(value, tuple(_BOUND_JIT_FUNCTIONS))


def is_cell(value):
    """Whether ``value`` is a ``transpiler.nn.Cell`` instance."""
    return isinstance(value, tuple(_CELLS))
