"""How the caller boxes a compiled result as the plain call would (transpiler.api).

Numba returns a Python float/int/bool/complex for a float64/int64/bool/complex128 scalar (Numba
docs, "Supported Python features"); the plain call may give the NumPy scalar. The types come
from :mod:`transpiler.analysis.scalar_types` (``result_types``; ``tagged``/``alike_tag`` when
the box depends on the path, carried by a flag beside the result).
"""
import numpy as np

_BOXES = {"np:float64": (float, np.float64), "np:int64": (int, np.int64),
          "np:bool": (bool, np.bool_), "np:complex128": (complex, np.complex128)}


_NUMBERS = {"float": float, "int": int, "bool": bool, "complex": complex}


def tag_reboxer(dtype, python, slot=None, kinds=None):
    """The boxing of a tagged result (``ScalarTypes.weak_merges(tag_result=True)``,
    ``ScalarTypes.alike_tag``): compiled code returns ``(value, is_python)``; the plain call
    gives a Python ``python`` ("float", "int", "bool" or "complex") where a Python number was
    assigned last, else an np.<dtype>. With ``slot`` (``((index, dtype, python), ...)``),
    ``value`` is a tuple and those items are so tagged; the other items are boxed by their
    ``kinds`` (``ScalarTypes.result_types``, a tuple of sets), as :func:`reboxer` does."""
    if slot is not None:
        tagged = {index: (_NUMBERS[kind], np.dtype(item_dtype).type)
                  for index, item_dtype, kind in slot}
        others = [None if k in tagged else reboxer(part)
                  for k, part in enumerate(kinds)] if isinstance(kinds, tuple) else None

        def rebox_item(result):
            value, is_python = result
            items = list(value)
            for k, item in enumerate(items):
                if k in tagged:
                    items[k] = tagged[k][0](item) if is_python else tagged[k][1](item)
                elif others and others[k] is not None:
                    items[k] = others[k](item)
            return tuple(items)
        return rebox_item
    box = np.dtype(dtype).type
    number = _NUMBERS[python]

    def rebox_tagged(result):
        value, is_python = result
        return number(value) if is_python else box(value)
    return rebox_tagged


def reboxer(kinds):
    """A function boxing a compiled result as the plain call boxes it, or None when nothing
    needs it: where ``kinds`` (``ScalarTypes.result_types``) says a result is an
    np.float64/np.int64/np.bool_/np.complex128 on every path, Numba still returns a Python
    number (Numba docs, "Supported Python features")."""
    if isinstance(kinds, tuple):
        slots = [reboxer(k) for k in kinds]
        if not any(slots):
            return None
        size = len(slots)

        def rebox_items(value):
            if type(value) is tuple and len(value) == size:
                return tuple(v if box is None else box(v) for v, box in zip(value, slots))
            return value
        return rebox_items
    if kinds is None or len(kinds) != 1:
        return None
    box = _BOXES.get(next(iter(kinds)))
    if box is None:
        return None
    python, numpy = box

    def rebox_one(value):
        return numpy(value) if type(value) is python else value
    return rebox_one


def set_boxing(spec, made):
    """Set how ``spec`` (a Specialization of the Program ``made``) boxes its results:
    ``rebox`` (a NumPy graph's result is NumPy's own: none), and for the numba-cpu backend
    the parts of the result whose type is unknown, checked per overload
    (transpiler.result_box_check)."""
    from .result_box_check import unknown_parts
    tagged = getattr(made.entry, "tagged", None)
    kinds = getattr(made.entry, "result_types", None)
    spec.rebox = None if made.backend.name == "numpy-graph" else tag_reboxer(
        *tagged[1:], kinds=kinds) if tagged else reboxer(kinds)
    if made.backend.name == "numba-cpu":
        spec.unknown_boxes = unknown_parts(kinds, getattr(made.entry, "returns_value", True))
        if tagged and spec.unknown_boxes:
            # compiled code returns (value, flag): the paths are inside its item 0
            spec.unknown_boxes = tuple((0,) + tuple(path) for path in spec.unknown_boxes)
