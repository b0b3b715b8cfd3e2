"""The arguments of a call: whether compiled code can take them, and what the specializer is
told about them (their types, the static ones' values)."""
from .type_keys import LIST_ELEMENT_TYPES, is_namedtuple_type, list_element_type, type_key


def argument_problem(values, names):
    """Why these runtime arguments cannot go to compiled code, or None.

    Arrays (exactly ``np.ndarray``), NumPy scalars, Python bool/int (within int64)/float/
    complex/str/None and tuples of them can; so can a list whose elements are all ints within
    int64, all floats or all bools (read as an array: passes/list_arguments.py). Other lists
    cannot: Numba's reflected lists do not behave like Python lists (a float stored into an
    int list is truncated). ndarray subclasses cannot: Numba would treat a masked array as a
    plain one.
    """
    for name, value in zip(names, values):
        problem = value_problem(value)
        if problem is not None:
            try:
                hash(value)
                advice = "pass objects as attributes of self, or name them in static_argnames"
            except TypeError:   # a dict, a list: static_argnames takes hashable values only
                advice = ("pass what compiled code reads from it as arrays or numbers, or "
                          "objects as attributes of self")
            return (f"argument {name!r} is {problem}; compiled code takes arrays, numbers, "
                    f"strings, tuples of them and lists of numbers of one type ({advice})")
    return None


def value_problem(value):
    kind = type(value)
    if kind in _PLAIN_TYPES:
        if kind is int and not -2 ** 63 <= value < 2 ** 63:
            return "an int beyond int64"
        return None
    np = numpy_module()
    if kind is np.ndarray or isinstance(value, np.generic):
        return None
    if isinstance(value, np.ndarray):
        return f"an ndarray subclass ({kind.__name__}) that Numba would treat as an ndarray"
    if kind is tuple or is_namedtuple_type(kind):
        for item in value:
            if type(item) is list:      # only an argument itself is read as an array
                return "a tuple holding a list"
            problem = value_problem(item)
            if problem is not None:
                return f"a tuple holding {problem}"
        return None
    if kind is list:
        if list_element_type(value) is not None:
            return None
        first = type(value[0])
        if first not in LIST_ELEMENT_TYPES:     # said from element 0 alone: O(1) per call
            return (f"a list whose element 0 is {_article(first)} {first.__name__} (lists "
                    "are read as arrays only when their elements are all Python ints, all "
                    "floats or all bools)")
        kinds = sorted({type(v).__name__ for v in value})
        return (f"a list of {' and '.join(kinds)} values" if len(kinds) > 1 else
                "a list of int values beyond int64" if kinds == ["int"] else
                f"a list of {kinds[0]} values (lists are read as arrays only when their "
                "elements are all Python ints, all floats or all bools)")
    return f"{_article(kind)} {kind.__name__}"


def holds_big_int(value):
    """Whether ``value`` is, or a tuple of it holds, a Python int beyond int64: the one
    refusal of argument_problem that the argument's complete type (type_keys) does not
    decide."""
    kind = type(value)
    if kind is int:
        return not -2 ** 63 <= value < 2 ** 63
    if kind is tuple or is_namedtuple_type(kind):
        return any(holds_big_int(item) for item in value)
    return False


def _article(kind):
    return "an" if kind.__name__[:1].lower() in "aeiou" else "a"


_PLAIN_TYPES = frozenset({int, float, bool, complex, str, type(None)})


def numpy_module():
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


_np = None


def is_data(value):
    import numpy as np
    return isinstance(value, (np.ndarray, np.generic, int, float, complex, bool, str, tuple,
                              list, type(None)))


def bind_values(signature, n_params, simple, obj, args, kwargs):
    """The argument values of a call in parameter order (without ``obj``, the bound self),
    or None if ``signature`` (inspect.Signature of ``n_params`` parameters; ``simple``: all
    positional-or-keyword) does not bind them."""
    if not kwargs and simple and len(args) == n_params - (obj is not None):
        return args
    try:
        lead = (obj,) if obj is not None else ()
        bound = signature.bind(*lead, *args, **kwargs)
    except TypeError:
        return None
    bound.apply_defaults()
    values = tuple(bound.arguments.values())
    return values[1:] if obj is not None else values


def numba_types(dynamic, inputs):
    from numba import typeof
    try:
        return tuple(typeof(v) for v in (*dynamic, *inputs))
    except Exception:  # noqa: BLE001 - untypable value: one key for all of them
        return ("untypable",)


def argument_facts(params, values, static_argnames):
    """What the specializer is told about the arguments of one call (passes.specialize).

    Args:
        params (list[str]): the parameters that take ``values`` (``self`` excluded).
        values (tuple | None): the bound argument values; None when not called yet
            (``source()`` first): nothing is known then.
        static_argnames (tuple[str]): the parameters resolved at transpile time.

    Returns:
        tuple[dict, dict, dict, dict]: ``static_args``, ``python_args``, ``numpy_args`` and
        ``arg_keys``, as :func:`transpiler.passes.specialize.specialize` takes them.
    """
    static_args = {}
    if values is not None:
        static_args = {name: (params.index(name), values[params.index(name)])
                       for name in static_argnames if name in params}
    python_args, numpy_args = {}, {}
    if values is not None:
        python_args = {name: (i, type(v), v)
                       for i, (name, v) in enumerate(zip(params, values))
                       if type(v) in (int, float, bool) and name not in static_args}
        np = numpy_module()
        numpy_args = {name: (i, type(v), v.ndim if isinstance(v, np.ndarray) else None,
                             v.dtype.name)
                      for i, (name, v) in enumerate(zip(params, values))
                      if isinstance(v, np.ndarray) or (isinstance(v, np.generic) and
                                                       name not in static_args)}
    arg_keys = {}
    if values is not None:
        arg_keys = {name: (i, type_key(v)) for i, (name, v) in enumerate(zip(params, values))
                    if name not in static_args}
    return static_args, python_args, numpy_args, arg_keys
