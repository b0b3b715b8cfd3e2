"""Which classes are graphjit's own callables: a leaf module that cuts import circles.

The passes must recognise a jitted function or a Cell met as a static value, but may not import
``transpiler.api`` or ``transpiler.nn`` (those import the pipeline). Those classes register
themselves here when their modules are imported; until then no value can be one of them.
"""
# kind -> the registered classes, as the tuple isinstance takes (read on every static value)
_CLASSES = {"jit": (), "bound_jit": (), "cell": ()}


def register(kind, cls):
    """Record ``cls`` as graphjit's ``kind``: ``"jit"``, ``"bound_jit"`` or ``"cell"``.

    Raises:
        KeyError: for another kind.
    """
    _CLASSES[kind] = _CLASSES[kind] + (cls,)
    return cls


def is_jit_function(value):
    """Whether ``value`` is a ``JitFunction`` (a function decorated with ``jit``)."""
    return isinstance(value, _CLASSES["jit"])


def is_bound_jit_function(value):
    """Whether ``value`` is a ``BoundJitFunction`` (a jitted method bound to an instance)."""
    return isinstance(value, _CLASSES["bound_jit"])


def is_cell(value):
    """Whether ``value`` is a ``transpiler.nn.Cell`` instance."""
    return isinstance(value, _CLASSES["cell"])


def is_cell_class(value):
    """Whether ``value`` is ``transpiler.nn.Cell`` or a subclass of it."""
    return isinstance(value, type) and issubclass(value, _CLASSES["cell"])
