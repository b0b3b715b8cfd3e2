"""What a NumPy graph module (backends/numpy_graph.py) runs with: per thread and per argument
shapes, which of its fusible operations may write in place or into a kept buffer.

The first call with given argument shapes (per thread) runs the graph's plain form, which
records the value of each fusible operation and of the operands it could overwrite. An
operation may then write in place into the first such operand of exactly its result's shape,
dtype and strides that was a fresh array (``base is None``); else into a buffer, where its
result does not leave the call, is a fresh ndarray (C-contiguous for ``np.dot``/``np.matmul``,
whose ``out=`` requires it) and ``np.empty_like`` gives the same strides. NumPy picks its loop from the inputs (NumPy's
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
        kinds (tuple): per fusible operation ``(kind, operands, buffered)``: ``kind``
            ``"elementwise"`` (a ufunc) or ``"matrix"`` (``np.dot``/``np.matmul``, whose
            ``out=`` must be C-contiguous), ``operands`` how many operands it may write into,
            ``buffered`` whether it may write into a kept buffer, ``inexact`` whether only a
            float or complex result may (``x ** 2`` is ``np.square`` only for those).
    """

    def __init__(self, kinds):
        self.kinds = kinds
        self._local = threading.local()

    def get(self, key):
        """``[choices, buffers, busy]`` for ``key`` on this thread, or None (first call)."""
        table = getattr(self._local, "table", None)
        if table is None:
            return None
        return table.get(key)

    def record(self, key, made, arguments):
        """Keep what the plain run ``made`` (``(result, values)``) allows for ``key``;
        returns the result. Per operation the choice is 0 (plainly), ``i`` (into its i-th
        operand) or ``operands + 1`` (into its buffer). ``arguments``: the call's, whose
        memory is never written (an operand that may share it is not chosen)."""
        result, values = made
        arrays = [a for a in arguments if isinstance(a, _ndarray)]
        local = self._local
        table = getattr(local, "table", None)
        if table is None:
            table = local.table = {}
            local.records = 0
        if local.records >= RECORDS_PER_THREAD:
            return result
        local.records += 1
        choices, buffers = [], []
        for kind, value in zip(self.kinds, values):
            choice, buffer = _choose(kind, value, arrays)
            choices.append(choice)
            buffers.append(buffer)
        if len(table) >= KEYS_PER_THREAD:
            table.pop(next(iter(table)))
        try:
            table[key] = [tuple(choices), buffers, False]
        except TypeError:   # an argument value that cannot be a key: computed plainly
            pass
        return result


def _choose(kind, value, arrays):
    """(the place the operation writes into, its buffer or None); see GraphState.record."""
    if value is None:
        return 0, None
    what, operands, buffered, inexact = kind
    result = value[0]
    if type(result) is not _ndarray or result.ndim == 0 or result.dtype.hasobject or (
            inexact and result.dtype.kind not in "fc"):
        return 0, None
    for i, operand in enumerate(value[1:]):
        if (type(operand) is _ndarray and result.shape == operand.shape
                and result.dtype == operand.dtype and result.strides == operand.strides
                and operand.base is None and operand.flags.writeable
                and not any(np.may_share_memory(operand, a) for a in arrays)):
            return i + 1, None
    if not buffered or result.base is not None or (
            what == "matrix" and not result.flags.c_contiguous):
        return 0, None
    buffer = np.empty_like(result)
    if buffer.strides != result.strides:
        return 0, None
    return operands + 1, buffer
