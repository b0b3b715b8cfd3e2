"""What a NumPy graph module (backends/numpy_graph.py) runs with: per thread and per argument
shapes, which of its fusible operations may write in place or into a kept buffer.

The first call with given argument shapes (per thread) runs the graph's plain form, which
records the value of each fusible operation and of the operands it could overwrite. An
operation may then write in place into the first such operand of exactly its result's shape,
dtype and strides that was a fresh array (``base is None``); else into a buffer, where its
result does not leave the call, is a fresh ndarray (C-contiguous for ``np.dot``/``np.matmul``,
whose ``out=`` requires it) and ``np.empty_like`` gives the same strides. NumPy picks its
loop from the inputs (NumPy's ufunc type resolution; ``out=`` of the result's own dtype casts
nothing), so either way each operation computes the same values as plainly, in the same
layout. Buffers of operations never in use at once (their spans of ops, graph_fusion) share
one block of memory, as NumPy's freed temporaries would; each block starts on a cache line
away from the arguments' offsets in their pages (``_apart``).

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
        kinds (tuple): per fusible operation ``(kind, operands, buffered, inexact, live)``:
            ``kind`` ``"elementwise"`` (a ufunc) or ``"matrix"`` (``np.dot``/``np.matmul``, whose
            ``out=`` must be C-contiguous), ``operands`` how many operands it may write into,
            ``buffered`` whether it may write into a kept buffer, ``inexact`` whether only a
            float or complex result may (``x ** 2`` is ``np.square`` only for those),
            ``live`` the span of ops that may read its buffer (graph_fusion._share_buffers).
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
        _share(self.kinds, buffers, arrays)
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
    what, operands, buffered, inexact, _live = kind
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


def _share(kinds, buffers, arrays):
    """Replace the C-contiguous ``buffers`` by views of fewer blocks: ops whose spans
    (``kind[4]``: the op's index, the last that may read its buffer; graph_fusion) do not
    overlap share one, as large as the largest of them, assigned greedily in op order like
    registers by linear scan; each block placed by ``_apart``."""
    spans = sorted((kind[4], k) for k, (kind, buffer) in enumerate(zip(kinds, buffers))
                   if buffer is not None and buffer.flags.c_contiguous)
    blocks = []                         # [last index read, [members]]
    for (first, last), k in spans:
        for block in blocks:
            if block[0] < first:
                block[0] = last
                block[1].append(k)
                break
        else:
            blocks.append([last, [k]])
    for _, members in blocks:
        block = _apart(max(buffers[k].nbytes for k in members), arrays)
        for k in members:
            buffer = buffers[k]
            view = block[:buffer.nbytes].view(buffer.dtype).reshape(buffer.shape)
            if view.strides == buffer.strides:      # else the op keeps its own buffer
                buffers[k] = view


_PAGE = 4096          # bytes: the address bits a load and a store are compared on
_LINE = 64            # bytes: a cache line (and every dtype's alignment)


def _apart(nbytes, others):
    """``nbytes`` of empty memory (a uint8 array) starting on a cache line, at an address
    whose remainder modulo 4 KiB is as far as possible from those of ``others``' data.

    Why: a large allocation is its own mmap, its data 16 bytes into a page, so a buffer made
    by ``np.empty_like`` is off the cache lines and at the same place in its page as the
    arguments. SIMD loads that cross cache lines are slower (``b.sum()`` of 400,000 float64:
    0.20 ms there, 0.14 ms on a cache line, measured on the 2-core machine), and a loop that
    loads ``x[i]`` and stores ``out[i]`` at addresses equal modulo 4 KiB stalls on stores
    ("4K aliasing": a load is checked against earlier stores by those address bits only;
    Intel's optimization reference manual).
    """
    raw = np.empty(nbytes + _PAGE + _LINE, np.uint8)
    start = raw.ctypes.data
    taken = [a.ctypes.data % _PAGE for a in others]

    def distance(offset):
        at = (start + offset) % _PAGE
        return min([min((at - t) % _PAGE, (t - at) % _PAGE) for t in taken] or [0])
    offset = max(range(-start % _LINE, _PAGE, _LINE), key=distance)   # on a cache line
    return raw[offset:offset + nbytes]
