"""Run-time checks of numba-cpu's parallel loops (``jit(parallel=True)``, backends/parallel_cpu.py).

A loop the analyses prove independent and unable to raise runs as ``numba.prange`` only after
these checks hold (with its trip count), computed once before it (loop versioning); otherwise
its serial twin runs:

- ``extent(a, axis)``: ``a.shape[axis]`` of an array, -1 for anything else (a tuple or list
  indexed in the loop keeps it serial);
- ``apart(a, b)``: the memory of two arrays does not overlap (the byte ranges their data
  spans, as ``np.may_share_memory`` decides; Numba has no ``np.shares_memory``): an array the
  loop stores to and another one it reads could be one array passed twice;
- ``rows_apart(a)``: the elements ``a[i, ...]`` of distinct ``i`` never share memory (a
  writable view with a zero or small first stride would make two iterations store to one
  element).

Deferred raises (backends/parallel_deferred.py): ``flags(n)``, zeroed flags for ``n``
iterations in whole 8-byte words, and ``any_set(flags)``, whether one is set, read a word at a
time (8x fewer reads than ``flags.any()``: 0.5 ms instead of 3.8 for 4 million iterations).

``threadsafe()`` chooses Numba's threading layer once: a thread-safe one (OpenMP or TBB, Numba
docs "The Threading Layers": workqueue aborts the process when two Python threads launch
parallel code at once), or None when there is none (loops then stay serial, and explain() says
why).
"""
import os
import threading

import numba
import numpy as np
from numba.core import types
from numba.extending import overload

_LAYER = []          # [the layer's name or None], once decided
_LOCK = threading.Lock()


def threadsafe():
    """The thread-safe threading layer Numba will use (``"omp"``/``"tbb"``), or None.

    Sets ``numba.config.THREADING_LAYER = "threadsafe"`` unless the user chose a layer
    (``NUMBA_THREADING_LAYER``); a chosen layer that is not thread-safe gives None."""
    with _LOCK:
        if not _LAYER:
            _LAYER.append(_choose())
        return _LAYER[0]


def _choose():
    chosen = os.environ.get("NUMBA_THREADING_LAYER", "").strip().lower()
    layers = {"omp": "numba.np.ufunc.omppool", "tbb": "numba.np.ufunc.tbbpool"}
    if chosen and chosen not in ("default", "threadsafe", "safe", *layers):
        return None      # workqueue, or a layer graphjit does not know to be thread-safe
    import importlib
    order = [chosen] if chosen in layers else ["tbb", "omp"]
    for name in order:
        try:
            importlib.import_module(layers[name])
        except Exception:   # noqa: BLE001 - the library (libtbb, libgomp) is not loadable
            continue
        if not chosen or chosen in ("default",):
            numba.config.THREADING_LAYER = "threadsafe"
        return name
    return None


def extent(a, axis):
    """``a.shape[axis]`` for an array with more than ``axis`` dimensions, else -1."""
    shape = getattr(a, "shape", None)
    return shape[axis] if shape is not None and axis < len(shape) else -1


def apart(a, b):
    """The byte ranges of ``a``'s and ``b``'s data do not overlap (arrays; True otherwise)."""
    import numpy as np
    return not np.may_share_memory(a, b)


def rows_apart(a):
    """``a[i, ...]`` of distinct ``i`` share no memory (an array; True otherwise)."""
    shape, strides = getattr(a, "shape", None), getattr(a, "strides", None)
    if shape is None:
        return True
    return _rows_apart(shape, strides, a.itemsize)


@numba.njit(inline="always")
def _span(shape, strides, itemsize, data):
    low, high = data, data + itemsize
    for k in range(len(shape)):
        if shape[k] == 0:
            return data, data
        step = (shape[k] - 1) * strides[k]
        if step < 0:
            low += step
        else:
            high += step
    return low, high


@numba.njit(inline="always")
def _rows_apart(shape, strides, itemsize):
    if len(shape) == 0:
        return True
    rest = itemsize
    for k in range(1, len(shape)):
        rest += (shape[k] - 1) * abs(strides[k])
    return shape[0] <= 1 or abs(strides[0]) >= rest


@overload(extent, inline="always")
def _extent(a, axis):
    if isinstance(a, types.Array):
        # no branch: the shape padded with -1, indexed at min(axis, ndim)
        ndim = a.ndim
        return lambda a, axis: (a.shape + (-1,))[min(axis, ndim)]
    return lambda a, axis: -1


@overload(apart, inline="always")
def _apart(a, b):
    if isinstance(a, types.Array) and isinstance(b, types.Array) and a.layout in "CF" and \
            b.layout in "CF":
        # contiguous: the data spans nbytes from its pointer (a quarter of the compile time of
        # the general case, measured)
        def contiguous(a, b):
            pa, pb = a.ctypes.data, b.ctypes.data
            return a.size == 0 or b.size == 0 or pa + a.nbytes <= pb or pb + b.nbytes <= pa
        return contiguous
    if isinstance(a, types.Array) and isinstance(b, types.Array):
        def impl(a, b):
            a_low, a_high = _span(a.shape, a.strides, a.itemsize, a.ctypes.data)
            b_low, b_high = _span(b.shape, b.strides, b.itemsize, b.ctypes.data)
            return a_low == a_high or b_low == b_high or a_high <= b_low or b_high <= a_low
        return impl
    return lambda a, b: True


@overload(rows_apart, inline="always")
def _rows_apart_overload(a):
    if isinstance(a, types.Array):
        if a.layout in ("C", "F"):
            return lambda a: True
        return lambda a: _rows_apart(a.shape, a.strides, a.itemsize)
    return lambda a: True


@numba.njit(inline="always")
def flags(n):
    """Zeroed flags for ``n`` iterations (uint8), rounded up to whole 8-byte words."""
    return np.zeros((n + 7) // 8 * 8, np.uint8)


@numba.njit
def any_set(flags):
    """Whether one of ``flags`` (made by ``flags``) is set."""
    for word in flags.view(np.uint64):
        if word:
            return True
    return False
