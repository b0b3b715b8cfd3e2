"""Is a compiled result boxed as the plain call boxes it, where the analyses do not know its type?

Numba boxes a float64/int64/bool/complex128 scalar as the Python number, a dict built in
compiled code as a ``numba.typed.Dict`` and a set's float64 items as Python floats
(Numba docs, "Supported Python features"). graphjit re-boxes a result whose type the
scalar-type analysis knows (transpiler.boxing); a part of the result it does not know
(``d["a"]`` of a dict, an item of ``enumerate``) may be an np.float64 in the plain call and
comes back a Python float: a silent wrong type. Before the first compiled call with some
argument types, the overload is compiled and its return type read: where such a part may be
boxed unlike the plain call, the call runs as Python instead, saying why.
"""
from .arguments import numba_types
from .errors import TranspileError
from .source import origin_of

# Numba types boxed as the Python number, which the plain call may give as a NumPy scalar
_AMBIGUOUS = {"float64": "float", "int64": "int", "bool": "bool", "complex128": "complex"}


def unknown_parts(kinds, returns_value):
    """The paths (item indices, ``()`` for the whole result) of the parts of a result whose
    types ``kinds`` (``ScalarTypes.result_boxes``: a set, or a tuple of them, nested) hold an
    unknown type; the whole result where ``kinds`` is None and a value is returned; None
    where there is none."""
    if kinds is None:
        return ((),) if returns_value else None
    from .analysis.scalar_kinds import CALL, UNKNOWN   # (NumPy: imported at the first call)
    found = []

    def visit(part, path):
        if isinstance(part, tuple):
            for index, item in enumerate(part):
                visit(item, path + (index,))
        elif UNKNOWN in part or CALL in part:
            found.append(path)
    visit(kinds, ())
    return tuple(found) or None


def box_problem(jit, spec, dynamic, inputs):
    """Where a part of ``spec``'s result has no type the analyses know
    (``spec.unknown_boxes``): the TranspileError that makes these argument types fall back
    (kept in ``spec.failed_types``; raised with ``fullgraph``), or None where the overload
    boxes it as the plain call (kept in ``spec.boxes_checked``)."""
    types = numba_types(dynamic, inputs)
    if types in spec.boxes_checked:
        return None
    reason = result_box_problem(spec.function, types, spec.unknown_boxes)
    if reason is None:
        spec.boxes_checked[types] = True
        return None
    error = TranspileError(reason, origin_of(jit.python_function))
    if jit._fullgraph():
        raise error
    with jit._lock:
        spec.failed_types[types] = error
    return error


def result_box_problem(function, types, paths):
    """Why the result of Numba dispatcher ``function`` called with arguments of Numba
    ``types`` cannot be boxed as the plain call's at ``paths`` (unknown_parts); None where it
    can, or where it does not compile (the call then reports that as usual)."""
    try:
        function.compile(types)
        cres = function.overloads.get(types)
    except Exception:  # noqa: BLE001 - a compile failure: the call itself reports it
        return None
    if cres is None:
        return None
    for path in paths:
        numba_type = cres.signature.return_type
        for index in path:      # (not unliteral'd: a literal-keyed dict item stays one)
            if not _is_tuple(numba_type) or index >= len(numba_type):
                break
            numba_type = numba_type[index]
        problem = _ambiguous(numba_type)
        if problem is not None:
            where = "the result" if not path else "item " + "][".join(map(str, path)) + \
                " of the result"
            return (f"{where} holds {problem}, of a type graphjit's analyses do not follow: "
                    "compiled code cannot give the plain call's type")
    return None


def _is_tuple(numba_type):
    from numba.core import types
    return isinstance(numba_type, types.BaseTuple)


def _ambiguous(numba_type, nested=False):
    """What in a value of ``numba_type`` Numba boxes unlike the plain call may, or None.
    ``nested``: inside a set, where no scalar is re-boxed (a float32 element comes back a
    Python float too); the result and its tuples' items are re-boxed where their Numba type
    says which (backends/numba_cpu.py: float32 and the other types Python has not)."""
    from numba.core import types
    if isinstance(numba_type, (types.DictType, types.LiteralStrKeyDict)):
        return "a dict (Numba returns a numba.typed.Dict or cannot box it)"
    if isinstance(numba_type, types.Literal):
        # (a literal scalar only: unliteral would make a literal-keyed dict a named tuple)
        numba_type = types.unliteral(numba_type)
    if isinstance(numba_type, types.Optional):
        return _ambiguous(numba_type.type, nested)
    if isinstance(numba_type, types.BaseTuple):
        return next((p for p in (_ambiguous(t, nested) for t in numba_type)
                     if p is not None), None)
    if isinstance(numba_type, types.ListType):
        return "a list (Numba returns a numba.typed.List)"
    if isinstance(numba_type, types.Set):
        inner = _ambiguous(numba_type.dtype, True)
        return None if inner is None else f"a set of {inner}"
    if nested and isinstance(numba_type, (types.Number, types.Boolean)):
        return f"a {numba_type} (boxed as a Python number inside a set)"
    # (a reflected list's elements: analysis.list_results refuses the lists whose elements
    # may be NumPy scalars or cannot be typed)
    python = _AMBIGUOUS.get(str(numba_type))
    if python is not None and isinstance(numba_type, (types.Number, types.Boolean)):
        return f"a {numba_type} (a Python {python} or a NumPy scalar)"
    return None
