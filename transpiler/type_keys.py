"""The complete type of a runtime value, as specializations are keyed and guarded on it.

A leaf module: the dispatcher (transpiler.api, transpiler.specialization) and the specializer
(guards on values read from objects) use it; the guard's test is transpiler.guards.
"""


def type_key(value):
    """The complete type of an argument, as a specialization is guarded on it: ``("type",
    T)``; an array's ``("array", T, dtype, ndim)``; a tuple's ``("tuple", item keys)``; a
    namedtuple's ``("namedtuple", item keys, T)``; a list's ``("list", T)``, T its elements'
    one type when compiled code takes it (:func:`list_element_type`), else None."""
    kind = type(value)
    if kind is list:
        return ("list", list_element_type(value))
    if kind is tuple:
        return ("tuple", tuple(type_key(item) for item in value))
    if is_namedtuple_type(kind):
        return ("namedtuple", tuple(type_key(item) for item in value), kind)
    if kind.__module__ == "numpy":
        import numpy as np      # already imported: the value is NumPy's
        if isinstance(value, np.ndarray):
            return ("array", kind, value.dtype, value.ndim)
    return ("type", kind)


LIST_ELEMENT_TYPES = (int, float, bool)


def list_element_type(value):
    """The one Python type of the elements of list ``value`` when it is ``int`` (every one
    within int64), ``float`` or ``bool``; ``int`` for an empty list; else None (several
    types, or another type: the list stays Python). passes/list_arguments.py reads such a
    list as an array. O(1) when the first element's type already refuses the list."""
    if value and type(value[0]) not in LIST_ELEMENT_TYPES:
        return None     # a list of tuples, arrays, str...: no need to read the rest
    kinds = set(map(type, value))
    if not kinds:
        return int
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if kind is int:
        if not -2 ** 63 <= min(value) <= max(value) < 2 ** 63:
            return None
    elif kind not in LIST_ELEMENT_TYPES:
        return None
    return kind


def list_holds(value, kind):
    """Whether every element of list ``value`` is exactly a ``kind`` (an empty list: ``kind``
    is int), the guard of a specialization made for ``("list", kind)``. The int64 range is
    not checked here: :func:`list_array` raises OverflowError beyond it, which fails the
    call's ``_prepare`` as a guard would (the call is decided again, and falls back)."""
    kinds = set(map(type, value))
    return kinds == {kind} if kinds else kind is int


def list_array(value, dtype):
    """The 1-D array (a copy, of NumPy dtype name ``dtype``) compiled code reads list
    argument ``value`` as (passes/list_arguments.py; ``_prepare`` calls it after the guard on
    its elements' type); OverflowError for an int beyond ``dtype`` (NumPy's own check)."""
    import numpy as np      # a list argument's call: NumPy is loaded by then
    return np.array(value, dtype=dtype)


def values_key(values):
    """``type_key`` of each value, as a tuple (a specialization's argument-type key)."""
    return tuple(type_key(v) for v in values)


def is_namedtuple_type(kind):
    """Whether ``kind`` is a class made by ``collections.namedtuple`` / ``typing.NamedTuple``
    whose items read as a tuple's: a tuple subclass with ``_fields`` and ``_make``, each field
    still the generated item getter, and ``__getitem__``/``__iter__``/``__len__`` tuple's own
    (a subclass overriding them, or a field with a property, reads otherwise)."""
    if not issubclass(kind, tuple) or kind is tuple or not isinstance(
            getattr(kind, "_fields", None), tuple) or not hasattr(kind, "_make"):
        return False
    if any(getattr(kind, name) is not getattr(tuple, name)
           for name in ("__getitem__", "__iter__", "__len__")):
        return False
    return all(type(getattr(kind, field, None)).__name__ == "_tuplegetter"
               for field in kind._fields)
