"""What a NumPy graph module (backends/numpy_graph.py) runs with: per thread and per argument
shapes, which of its fusible operations may write in place or into a kept buffer.

The first call with given argument shapes (per thread) runs the graph's plain form, which
records the value of each fusible operation and of the operand it would overwrite. An
operation may then write in place when its result is an ndarray of exactly the operand's shape,
dtype and strides, and the operand was a fresh array (``base is None``); into a buffer when its
result is a fresh ndarray (C-contiguous for ``np.dot``/``np.matmul``, whose ``out=`` requires
it) and ``np.empty_like`` gives the same strides. NumPy picks its loop from the inputs (NumPy's
ufunc type resolution; ``out=`` of the result's own dtype casts nothing), so either way each
operation computes the same values as plainly, in the same layout.

Buffers belong to one thread (``threading.local``): two threads never share one. A call that
re-enters the same graph on the same thread while it runs (a signal handler) computes plainly.
"""
import threading

import numpy as np

_ndarray = np.ndarray
KEYS_PER_THREAD = 8        # argument-shape keys kept per thread; the oldest goes first
RECORDS_PER_THREAD = 64    # after so many first calls, new keys run plainly (values churn)


class GraphState:
    """The fusion choices and buffers of one generated graph.

    Args:
        kinds (tuple[str]): per fusible operation, ``"inplace"``, ``"buffer"`` or
            ``"matrix"`` (a buffer for ``np.dot``/``np.matmul``).
    """

    def __init__(self, kinds):
        self.kinds = kinds
        self.none = (False,) * len(kinds)
        self._local = threading.local()

    def get(self, key):
        """``[flags, buffers, busy]`` for ``key`` on this thread, or None (first call)."""
        table = getattr(self._local, "table", None)
        if table is None:
            return None
        return table.get(key)

    def record(self, key, made):
        """Keep what the plain run ``made`` (``(result, values)``) allows for ``key``;
        returns the result."""
        result, values = made
        local = self._local
        table = getattr(local, "table", None)
        if table is None:
            table = local.table = {}
            local.records = 0
        if local.records >= RECORDS_PER_THREAD:
            return result
        local.records += 1
        flags, buffers = [], []
        for kind, value in zip(self.kinds, values):
            ok, buffer = _check(kind, value)
            flags.append(ok)
            buffers.append(buffer)
        if len(table) >= KEYS_PER_THREAD:
            table.pop(next(iter(table)))
        try:
            table[key] = [tuple(flags), buffers, False]
        except TypeError:   # an argument value that cannot be a key: computed plainly
            pass
        return result


def _check(kind, value):
    """(whether the operation may write elsewhere, its buffer or None)."""
    if value is None:
        return False, None
    if kind == "inplace":
        result, operand = value
        ok = (type(result) is _ndarray and type(operand) is _ndarray and result.ndim > 0
              and result.shape == operand.shape and result.dtype == operand.dtype
              and result.strides == operand.strides and operand.base is None
              and operand.flags.writeable)
        return ok, None
    result = value[0]
    if type(result) is not _ndarray or result.ndim == 0 or result.base is not None or (
            result.dtype.hasobject):
        return False, None
    if kind == "matrix" and not result.flags.c_contiguous:
        return False, None
    buffer = np.empty_like(result)
    if buffer.strides != result.strides:
        return False, None
    return True, buffer
