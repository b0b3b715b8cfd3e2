"""Guards: the one implementation of "does this static value still hold?".

A :class:`~transpiler.program.Guard` becomes a Python condition, true when the guard *fails*
(:func:`failed_condition`). The generated ``_prepare`` (backends/base.py) inlines these
conditions, run before every call; :func:`holds` evaluates the same text for one value, where
the dispatcher must pick which of a class's shared specializations an instance meets
(transpiler.specialization). One text, so the two cannot disagree.
"""
import math

from .program import Forgotten
from .type_keys import list_holds


def failed_condition(guard, v, const, structural=False):
    """A Python expression, true when the value of expression ``v`` fails ``guard``.

    Args:
        guard (Guard): the guard.
        v (str): an expression reading the guarded value now.
        const (callable): ``const(value)`` -> an expression naming a constant object.
        structural (bool): the guard checks structure only (``program.structural``): type and
            length, not identity.
    """
    expected = guard.expected
    if structural:
        if isinstance(expected, Forgotten):     # a shared specialization's forgotten object
            kind, size = expected.type, expected.length
        else:
            kind = type(expected)
            size = len(expected) if isinstance(expected, (list, tuple)) else None
        cond = f"type({v}) is not {const(kind)}"
        return cond + (f" or len({v}) != {size}" if size is not None else "")
    if guard.kind == "is":
        return f"{v} is not {const(expected)}"
    if guard.kind == "type":
        return f"type({v}) is not {const(expected)}"
    if guard.kind == "type_sign":
        return (f"type({v}) is not {const(expected[0])} or "
                f"({v} >= 0) is not {bool(expected[1])}")
    if guard.kind == "array":
        # (a dtype object, not its name: `dtype != "float64"` parses the name at each call,
        # 90 ns; a dtype compares by identity first, 20 ns, then equal dtypes, 35 ns)
        dtype = const(_dtype(expected[1]))
        return (f"getattr({v}, 'ndim', None) != {int(expected[0])} or "
                f"(getattr({v}, 'dtype', None) is not {dtype} and "
                f"getattr({v}, 'dtype', None) != {dtype})")
    if guard.kind == "typekey":
        return typekey_condition(v, expected, const)
    if guard.kind == "len":
        return f"{v} is not {const(expected)} or len({v}) != {len(expected)}"
    if isinstance(expected, float) and math.isnan(expected):
        return f"type({v}) is not float or {v} == {v}"
    cond = f"type({v}) is not {const(type(expected))} or {v} != {const(expected)}"
    if _has_zero_part(expected):
        # 0.0 == -0.0, but the sign reaches results (copysign, 1 / x, atan2): compare the text
        cond += f" or repr({v}) != {const(repr(expected))}"
    return cond


def _dtype(name):
    """The NumPy dtype of ``name`` (NumPy is imported: an array argument was seen)."""
    import numpy as np
    return np.dtype(name)


def _has_zero_part(value):
    """Whether ``value`` is a float or complex (Python's or NumPy's) with a zero part, whose
    sign ``==`` does not see."""
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if not isinstance(value, (float, complex)) and kind not in ("f", "c"):
        return False
    parts = (value.real, value.imag) if isinstance(value, complex) or kind == "c" else (value,)
    return any(part == 0 for part in parts)


def typekey_condition(v, key, const):
    """A condition true when value expression ``v`` does not have the complete type ``key``
    (transpiler.type_keys.type_key): its type, an array's dtype and ndim, a tuple's length and the
    keys of its items, a list's elements' type."""
    if key[0] == "array":
        dtype = const(key[2])
        return (f"type({v}) is not {const(key[1])} or {v}.ndim != {int(key[3])} or "
                f"({v}.dtype is not {dtype} and {v}.dtype != {dtype})")
    if key[0] in ("tuple", "namedtuple"):
        kind = const(key[2]) if key[0] == "namedtuple" else "tuple"
        items = [f"type({v}) is not {kind}", f"len({v}) != {len(key[1])}"]
        items += [f"({typekey_condition(f'{v}[{i}]', k, const)})"
                  for i, k in enumerate(key[1])]
        return " or ".join(items)
    if key[0] == "list":    # its elements' one type (passes/list_arguments.py)
        return f"type({v}) is not list or not {const(list_holds)}({v}, {const(key[1])})"
    return f"type({v}) is not {const(key[1])}"


def holds(guard, value, structural=False):
    """Whether ``value`` passes ``guard``: :func:`failed_condition` evaluated on it (an
    exception while checking, like an unreadable value in ``_prepare``, fails it)."""
    constants = []

    def const(obj):
        constants.append(obj)
        return f"_K[{len(constants) - 1}]"

    condition = failed_condition(guard, "_v", const, structural)
    try:
        return not eval(condition, {"__builtins__": {"type": type, "len": len,  # noqa: S307
                                                     "getattr": getattr, "tuple": tuple,
                                                     "float": float, "repr": repr}},
                        {"_v": value, "_K": constants})
    except Exception:  # noqa: BLE001 - as _prepare: a guard that cannot be checked fails
        return False
