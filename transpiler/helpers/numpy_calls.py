"""NumPy calls whose Numba versions differ in their errors or results: ``reshape``, ``arange``
with three arguments, ``clip``, ``roll`` along an axis, ``np.random.seed``/``uniform`` (NumPy's own generator state).
"""
import math

import numpy as np
from numpy.exceptions import AxisError


def numpy_reshape(a, shape):
    """``a.reshape(shape)`` as NumPy: an unknown (-1) dimension of an empty array raises
    ValueError (Numba returns an array); an array that is not C-contiguous is said not to fit
    (NumPy copies or gives a view by its strides; Numba raises NotImplementedError): an
    effect-free call runs again as Python."""
    if not a.flags.c_contiguous:
        raise OverflowError("a reshape of an array that is not C-contiguous: NumPy copies it "
                            "or gives a view by its strides, Numba cannot (graphjit)")
    known = 1
    unknown = 0
    for size in shape:       # rebindings, not `op=`: analysis.effects reads `op=` as a store
        if size == -1:
            unknown = unknown + 1
        else:
            known = known * size
    if unknown == 1 and known == 0:
        raise ValueError("cannot reshape array of size 0 into the shape given (NumPy)")
    return a.reshape(shape)


def numpy_roll_axis(a, shift, axis):
    """``np.roll(a, shift, axis)`` of an int shift and axis (Numba's ``np.roll`` takes no
    axis): NumPy's slices (numpy/_core/numeric.py ``roll``: the last ``shift % n`` items
    along the axis first, an empty axis left as it is) on a C-ordered copy seen as
    (outer, n, inner).

    Raises:
        numpy.exceptions.AxisError: ``axis`` is not in ``[-a.ndim, a.ndim)`` (as NumPy)."""
    nd = a.ndim
    if axis < -nd or axis >= nd:
        raise AxisError("axis is out of bounds for array of this dimension (NumPy)")
    ax = axis % nd
    outer = 1
    inner = 1
    for d in range(ax):     # rebindings, not `op=`: analysis.effects reads `op=` as a store
        outer = outer * a.shape[d]
    for d in range(ax + 1, nd):
        inner = inner * a.shape[d]
    n = a.shape[ax]
    src = np.ascontiguousarray(a).reshape((outer, n, inner))
    out = np.empty((outer, n, inner), a.dtype)
    k = shift % n if n > 0 else 0
    out[:, k:, :] = src[:, :n - k, :]
    out[:, :k, :] = src[:, n - k:, :]
    return out.reshape(a.shape)


def numpy_random_seed(seed):
    """``np.random.seed(seed)`` of an int: NumPy's legacy RandomState accepts 0..2**32 - 1
    (numpy/random/_mt19937.pyx ``_legacy_seeding``); Numba would truncate."""
    if seed < 0 or seed > 4294967295:
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    np.random.seed(seed)


def numpy_random_uniform(low, high):
    """``np.random.uniform(low, high)`` of numbers: a range that is not finite raises
    OverflowError as NumPy's does (numpy/random/mtrand.pyx ``uniform``)."""
    if not np.isfinite(high - low):
        raise OverflowError("Range exceeds valid bounds")
    return np.random.uniform(low, high)


def numpy_arange3(start, stop, step):
    """``np.arange(start, stop, step)``: a zero step raises ZeroDivisionError as NumPy does
    (Numba raises ValueError "Maximum allowed size exceeded")."""
    if step == 0:
        raise ZeroDivisionError("division by zero")
    length = (stop - start) / step
    if length != length:             # a NaN, or inf - inf
        raise ValueError("arange: cannot compute length")
    if length == math.inf or length == -math.inf:
        raise ValueError("Maximum allowed size exceeded")
    out = np.arange(start, stop, step)
    # NumPy fills from the third element on as start + i * (a[1] - a[0]), in the array's
    # dtype (numpy/_core/src/multiarray/arraytypes.c.src, @NAME@_fill); Numba as start +
    # i * step (the last bits of a float step differ: np.arange(1, 2.2, 0.3))
    if out.shape[0] > 2:
        first = out[0]
        delta = out[1] - out[0]
        for i in range(2, out.shape[0]):
            out[i] = first + out.dtype.type(i) * delta
    return out


def numpy_clip(a, low, high):
    """``np.clip(a, low, high)`` with number bounds: a NaN bound gives NaN in NumPy (it is
    ``minimum(maximum(a, low), high)``) where Numba's comparisons ignore it: said not to fit
    (an effect-free call runs again as Python)."""
    if low != low or high != high:
        raise OverflowError("np.clip with a NaN bound: NumPy gives NaN, Numba ignores the "
                            "bound (graphjit)")
    return np.clip(a, low, high)


def numpy_clip_array(a, low, high):
    """``np.clip(a, low, high)`` of a float array ``a`` whose dtype is NumPy's result dtype
    (calls.py checks it), with number bounds: a NaN bound makes every element NaN in NumPy
    (``minimum(maximum(a, low), high)``), where Numba's comparisons ignore it."""
    out = np.clip(a, low, high)
    if low != low or high != high:
        out.fill(np.nan)
    return out


def _byte_extent(a):
    """The first and one-past-last byte addresses array ``a`` (not empty) may touch."""
    low = a.ctypes.data
    high = low + a.itemsize
    for k in range(a.ndim):
        step = (a.shape[k] - 1) * a.strides[k]
        if step < 0:
            low = low + step
        else:
            high = high + step
    return low, high


def overlapping_operand(out, b):
    """Whether the operand ``b`` of ``out op= b`` may share memory with ``out``: then it is
    copied first. NumPy buffers an in-place ufunc whose input overlaps its output (``a +=
    a[::-1]``, ``a[1:] += a[:-1]``, ``a += a.T``: the result is computed from the old values,
    numpy/_core/src/umath/ufunc_object.c, NPY_ITER_COPY_IF_OVERLAP); Numba's in-place loops
    read elements already updated. True where the byte extents overlap (more than NumPy's
    exact test, never less).

    Raises:
        ValueError: ``b`` does not broadcast to ``out``'s shape (NumPy raises; Numba's
            in-place loops do not check and read past ``b``'s end)."""
    if b.ndim > out.ndim:
        raise ValueError("non-broadcastable operand: it has more dimensions than the array "
                         "updated in place")
    for k in range(1, b.ndim + 1):
        size = b.shape[b.ndim - k]
        if size != 1 and size != out.shape[out.ndim - k]:
            raise ValueError("operands could not be broadcast together (an in-place update)")
    # (an empty array's extent may look overlapping: its copy is empty too.) One expression,
    # no branch: a bool assigned on two paths kept Numba from optimising the caller's loop
    # (14x slower `a += b` on 8 elements, measured)
    low, high = _byte_extent(out)
    b_low, b_high = _byte_extent(b)
    return (low < b_high) & (b_low < high)


def _masked_count(a, mask):
    """How many elements boolean ``mask`` selects of array ``a``.

    Raises:
        IndexError: the mask's shape is not the array's (NumPy raises IndexError)."""
    if mask.shape != a.shape:
        raise IndexError("boolean index did not match indexed array")
    return np.count_nonzero(mask)


def masked_items(a, mask):
    """``a[mask]`` of an N-d array ``a`` (N >= 2) and a boolean ``mask`` of its shape: the
    selected elements in C order, a new 1-D array of ``a``'s dtype (Numba indexes with 1-D
    masks only).

    Raises:
        IndexError: the mask's shape is not the array's (NumPy raises IndexError)."""
    out = np.empty(_masked_count(a, mask), a.dtype)
    k = 0
    for idx in np.ndindex(a.shape):
        if mask[idx]:
            out[k] = a[idx]
            k = k + 1
    return out


def _mask_apart(a, mask):
    """``mask``, or its copy where its memory may overlap ``a``'s (``z[z[:, ::-1]] = v`` of a
    boolean ``z``): NumPy finds the selected positions before it writes; a loop reading the
    mask while it writes ``a`` would read elements it already changed."""
    if a.size == 0 or mask.size == 0:
        return mask.copy()
    low, high = _byte_extent(a)
    m_low, m_high = _byte_extent(mask)
    if low < m_high and m_low < high:
        return mask.copy()
    return mask


def masked_store_scalar(a, mask, value):
    """``a[mask] = value`` of an N-d array ``a`` (N >= 2), a boolean ``mask`` of its shape and
    a scalar ``value`` already converted as NumPy converts it (the caller's store check).

    Raises:
        IndexError: the mask's shape is not the array's."""
    if mask.shape != a.shape:
        raise IndexError("boolean index did not match indexed array")
    apart = _mask_apart(a, mask)
    for idx in np.ndindex(a.shape):
        if apart[idx]:
            a[idx] = value


def masked_store_items(a, mask, values):
    """``a[mask] = values`` of an N-d array ``a`` (N >= 2), a boolean ``mask`` of its shape and
    a 1-D array ``values`` of ``a``'s dtype: its items in C order (one item: broadcast), read
    from a copy (NumPy buffers an operand that overlaps ``a``).

    Raises:
        IndexError: the mask's shape is not the array's.
        ValueError: ``values`` has neither one item nor as many as the mask selects."""
    count = _masked_count(a, mask)
    if values.size != count and values.size != 1:
        raise ValueError("NumPy boolean array indexing assignment cannot assign these input "
                         "values to the output values where the mask is true")
    source = values.copy()
    apart = _mask_apart(a, mask)
    step = 1 if values.size != 1 else 0
    k = 0
    for idx in np.ndindex(a.shape):
        if apart[idx]:
            a[idx] = source[k]
            k = k + step
