"""The complete type of a runtime value, as specializations are keyed and guarded on it.

A leaf module: the dispatcher (transpiler.api, transpiler.specialization) and the specializer
(guards on values read from objects) use it; the guard's test is transpiler.guards.
"""


def type_key(value):
    """The complete type of an argument, as a specialization is guarded on it: ``("type",
    T)``; an array's ``("array", T, dtype, ndim)``; a tuple's ``("tuple", item keys)``."""
    kind = type(value)
    if kind is tuple:
        return ("tuple", tuple(type_key(item) for item in value))
    if kind.__module__ == "numpy":
        import numpy as np      # already imported: the value is NumPy's
        if isinstance(value, np.ndarray):
            return ("array", kind, value.dtype, value.ndim)
    return ("type", kind)


def values_key(values):
    """``type_key`` of each value, as a tuple (a specialization's argument-type key)."""
    return tuple(type_key(v) for v in values)
