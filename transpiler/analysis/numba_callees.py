"""Calls of functions the user compiled with ``numba.njit``: their result types.

A plain call ``helper(a[i])`` of a ``numba.njit`` function runs Numba's machine code for the
argument types Numba infers from the Python values (``numba.typeof``: a Python int is int64, a
float float64, an np.float32 float32, an array its dtype and ndim) and boxes the result the
way Numba boxes every result (``numba/core/boxing.py``): any Numba float as a Python ``float``,
any integer as a Python ``int``, a boolean as ``bool``, a complex as ``complex``, an array as
an ndarray. Compiled code calls the same dispatcher with the same Numba types, so the value is
the same; its *type* is made the boxed one here: the result of a float32 function is widened to
float64 (exact) and typed as a Python float, a narrow integer to int64 (exact) and typed as a
Python int. A result Numba boxes as a Python int that int64 may not hold (uint64), or a result
of another kind (a tuple, None, a string), is not typed: the caller does not compile.

The result type is found by compiling the dispatcher for the arguments' Numba types at
transpile time (``Dispatcher.get_compile_result``): the plain call would compile the same
specialization at its first call (an array is taken as C-contiguous; its layout does not change
the result's type).
"""
import sys

import numpy as np

from .scalar_kinds import UNKNOWN

_PYTHON_NUMBERS = {"int": "int64", "float": "float64", "bool": "boolean",
                   "complex": "complex128"}
_memo = {}


def is_numba_dispatcher(fn):
    """Whether ``fn`` is a CPU dispatcher made by ``numba.njit``/``numba.jit`` (Numba already
    imported by the user: nothing is imported here)."""
    registry = sys.modules.get("numba.core.registry")
    # (another thread may be importing Numba: the module is there, not yet its class)
    dispatcher = getattr(registry, "CPUDispatcher", None)
    return dispatcher is not None and isinstance(fn, dispatcher)


def _numba_type(kind):
    from numba.core import types
    from numba.np.numpy_support import from_dtype
    if kind in _PYTHON_NUMBERS:
        return getattr(types, _PYTHON_NUMBERS[kind])
    if kind.startswith("np:") and kind != "np:float16":
        return from_dtype(np.dtype(kind[3:]))
    if kind.startswith("arr:"):
        _, dtype, ndim = kind.split(":")
        return types.Array(from_dtype(np.dtype(dtype)), int(ndim), "C")
    return None


def result_kinds(fn, arg_kinds):
    """The scalar-type analysis' types of the call's result (an empty set while an argument
    is not known yet in its fixpoint; UNKNOWN where the call is not compiled)."""
    if any(not kinds for kinds in arg_kinds):
        return set()
    found = result_type(fn, arg_kinds)
    return {found[0]} if isinstance(found, tuple) else {UNKNOWN}


def result_type(fn, arg_kinds):
    """The result of calling the dispatcher ``fn`` with arguments of these types.

    Args:
        fn: a ``numba.njit`` dispatcher (:func:`is_numba_dispatcher`).
        arg_kinds (list[set[str]]): each argument's type strings (scalar_kinds); each must be
            one type.

    Returns:
        tuple[str, str | None] | str: ``(kind, conversion)``: the result's type string
        (``"float"``, ``"int"``, ``"bool"``, ``"complex"``, ``"arr:<dtype>:<ndim>"``; UNKNOWN
        for None, which Numba and Python give alike) and the NumPy type that widens Numba's
        value exactly to the boxed one's in compiled code (np.float64 for a float32 result,
        np.int64 for a narrow integer, np.complex128 for complex64; None: none needed;
        Numba's ``float()`` keeps a float32); or a str saying why the call is not compiled.
    """
    if any(len(kinds) != 1 for kinds in arg_kinds):
        return ("an argument of the numba.njit function may have several types here (its "
                "plain call would compile one specialization per type)")
    kinds = tuple(next(iter(k)) for k in arg_kinds)
    key = (fn, kinds)
    if key not in _memo:
        _memo[key] = _result_type(fn, kinds)
    return _memo[key]


def _result_type(fn, kinds):
    from numba.core import types
    from numba.core.errors import NumbaError
    from numba.core.typing import signature
    numba_types = [_numba_type(k) for k in kinds]
    if any(t is None for t in numba_types):
        bad = kinds[numba_types.index(None)]
        return (f"an argument of type {bad!r} passed to a numba.njit function (only numbers "
                "and arrays are passed on compiled)")
    try:
        returned = fn.get_compile_result(signature(None, *numba_types)).signature.return_type
    except NumbaError as exc:
        headline = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"the numba.njit function does not compile for these types ({headline})"
    returned = getattr(returned, "literal_type", returned) if isinstance(
        returned, types.Literal) else returned
    if isinstance(returned, types.Boolean):
        return "bool", None
    if isinstance(returned, types.Float):
        return "float", None if returned == types.float64 else np.float64
    if isinstance(returned, types.Integer):
        if returned == types.uint64:
            return ("the numba.njit function returns a uint64, which its plain call boxes as a "
                    "Python int that int64 may not hold")
        return "int", None if returned == types.int64 else np.int64
    if isinstance(returned, types.Complex):
        return "complex", None if returned == types.complex128 else np.complex128
    if isinstance(returned, types.NoneType):
        return UNKNOWN, None        # None either way; nothing computes with it
    if isinstance(returned, types.Array):
        return f"arr:{np.dtype(str(returned.dtype)).name}:{returned.ndim}", None
    return (f"the numba.njit function returns {returned} (compiled code types numbers and "
            "arrays from it)")
