"""``sum``, ``mean``, ``var``, ``std``, ``max`` and ``min`` along one axis of a 2-D array, as
NumPy computes them, bit for bit, for compiled code (Numba has no ``axis=`` for most of them,
and adds in another order where it has).

NumPy's reduction runs its iterator over the array and the result (numpy/_core/src/umath/
reduction.c, nditer): the axes are ordered by the array's strides, the smallest innermost (the
result's stride along the reduced axis is 0 and does not vote). So for a 2-D array:

- the reduced axis has the smaller stride (a row sum of a C-contiguous array): the inner loop
  is the ufunc's reduce loop over one slice, ``out[k] = 0 + pairwise_sum(slice)`` for ``add``
  (numpy/_core/src/umath/loops_utils.h.src, ported in numpy_reductions._pairwise);
- the reduced axis has the larger stride (a column sum of a C-contiguous array): the inner
  loop is the binary loop over the result, ``out[:] = out[:] + a[i, :]`` for each ``i`` in
  order: each element a sum in order, from the identity 0.0;
- an axis of length 1 is dropped by the iterator (the other axis alone decides).

No casting is needed (float32/float64 in and out), so NumPy does not buffer and the order
above holds at every size. Equal strides, negative or zero strides (reversed or broadcast
views) are not decided here: the call runs again as Python (``AXIS_ORDER``, an effect-free
function only: transpiler.fallback).

``mean``/``var``/``std`` are numpy/_core/_methods.py ``_mean``/``_var`` on those sums: the
count an np.intp, so a float32 sum is divided in float64 and stored back as float32; the
deviations ``arr - arrmean`` in the array's dtype, in the array's memory order (C or F;
another layout: ``AXIS_ORDER``). ``max``/``min`` compare in any order; only NaN (which NaN
NumPy's SIMD loops return) and zeros of both signs (which one wins a tie) are not decided:
the call runs again as Python (``MINMAX_TIE``), as for an empty slice, where NumPy raises.

Measured against NumPy (tests/test_axis_reductions.py): float32 and float64, C, F, strided,
transposed layouts, shapes with 0 and 1, up to 8192 x 64.
"""
import numpy as np

from .numpy_reductions import _BLOCK, _pairwise, _real_block


def _inner(a, axis):
    """Whether NumPy reduces ``axis`` (0 or 1) of the 2-D ``a`` in its inner loop (a pairwise
    sum per slice) rather than its outer loop (a sum in order per result element)."""
    other = 1 - axis
    if a.shape[other] == 1:
        return True
    if a.shape[axis] == 1:
        return False
    reduced = a.strides[axis]
    kept = a.strides[other]
    if reduced <= 0 or kept <= 0 or reduced == kept:
        raise OverflowError("a reduction along an axis of an array whose strides do not fix "
                            "NumPy's order of operations (reversed, broadcast or overlapping) "
                            "(graphjit)")
    return reduced < kept


def numpy_sum_axis(a, axis):
    """``a.sum(axis=axis)`` of a 2-D float32/float64 array (``axis`` 0 or 1): a 1-D array of
    the array's dtype, NumPy's bits (module docstring). Raises OverflowError (AXIS_ORDER)."""
    m = a.shape[1 - axis]
    n = a.shape[axis]
    out = np.zeros(m, a.dtype)
    if n == 0 or m == 0:
        return out
    if _inner(a, axis):
        for k in range(m):
            v = a[k, :] if axis == 1 else a[:, k]
            if n <= _BLOCK:     # one block: no recursion (and no stack to allocate)
                out[k] = out[k] + _real_block(v, 0, n)
            else:
                out[k] = out[k] + _pairwise(v, False)
    elif axis == 0:
        for i in range(n):
            for k in range(m):
                out[k] = out[k] + a[i, k]
    else:
        for i in range(n):
            for k in range(m):
                out[k] = out[k] + a[k, i]
    return out


def numpy_mean_axis(a, axis):
    """``a.mean(axis=axis)`` of a 2-D float32/float64 array: ``numpy_sum_axis`` divided by
    the count in float64, stored in the array's dtype (``_methods._mean``). An empty slice,
    where NumPy warns and gives nan, raises OverflowError (EMPTY_MEAN)."""
    n = a.shape[axis]
    if n == 0:
        raise OverflowError("the mean of an empty array: NumPy warns and gives nan (graphjit)")
    total = numpy_sum_axis(a, axis)
    out = np.empty(total.shape[0], a.dtype)
    count = np.float64(n)
    for k in range(total.shape[0]):
        out[k] = np.float64(total[k]) / count
    return out


def _deviations(a, axis, mean):
    """``arr - arrmean`` squared, in ``a``'s dtype and memory order (C or F), as
    ``_methods._var`` makes it."""
    if a.flags.c_contiguous:
        x = np.empty((a.shape[0], a.shape[1]), a.dtype)
    elif a.flags.f_contiguous:
        x = np.empty((a.shape[1], a.shape[0]), a.dtype).T
    else:
        raise OverflowError("a reduction along an axis of an array whose strides do not fix "
                            "NumPy's order of operations (reversed, broadcast or overlapping) "
                            "(graphjit)")
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if axis == 0:
                d = a[i, j] - mean[j]
            else:
                d = a[i, j] - mean[i]
            x[i, j] = d * d
    return x


def numpy_var_axis(a, axis, ddof):
    """``a.var(axis=axis, ddof=ddof)`` of a 2-D float32/float64 C- or F-contiguous array
    (``_methods._var``): the mean as ``numpy_mean_axis``, the squared deviations in the
    array's dtype and order, their sum as ``numpy_sum_axis``, divided in float64 by
    ``n - ddof``. Where NumPy warns (``ddof >= n``) OverflowError (VAR_DDOF)."""
    n = a.shape[axis]
    if ddof >= n:
        raise OverflowError("a variance with ddof >= the number of elements: NumPy warns and "
                            "gives inf or nan (graphjit)")
    mean = numpy_mean_axis(a, axis)
    total = numpy_sum_axis(_deviations(a, axis, mean), axis)
    out = np.empty(total.shape[0], a.dtype)
    count = np.float64(n - ddof)
    for k in range(total.shape[0]):
        out[k] = np.float64(total[k]) / count
    return out


def numpy_std_axis(a, axis, ddof):
    """``a.std(axis=axis, ddof=ddof)``: ``np.sqrt`` of ``numpy_var_axis`` in the dtype."""
    return np.sqrt(numpy_var_axis(a, axis, ddof))


def _pick_axis(a, axis, largest):
    """``a.max(axis=axis)`` (``largest``) or ``a.min(axis=axis)`` of a 2-D real array. NaN,
    a tie of zeros of both signs and an empty slice raise OverflowError (MINMAX_TIE)."""
    m = a.shape[1 - axis]
    n = a.shape[axis]
    if n == 0 and m > 0:
        raise OverflowError("a max or min along an axis over a NaN, over zeros of both signs "
                            "or over an empty slice: NumPy's result or error is its own "
                            "(graphjit)")
    out = np.empty(m, a.dtype)
    for k in range(m):
        best = a[k, 0] if axis == 1 else a[0, k]
        nan = best != best
        for i in range(1, n):
            v = a[k, i] if axis == 1 else a[i, k]
            if v != v:
                nan = True
            elif (v > best) if largest else (v < best):
                best = v
        if nan:
            raise OverflowError("a max or min along an axis over a NaN, over zeros of both "
                                "signs or over an empty slice: NumPy's result or error is its "
                                "own (graphjit)")
        if best == 0:
            for i in range(n):
                v = a[k, i] if axis == 1 else a[i, k]
                if v == 0 and np.signbit(v) != np.signbit(best):
                    raise OverflowError("a max or min along an axis over a NaN, over zeros "
                                        "of both signs or over an empty slice: NumPy's "
                                        "result or error is its own (graphjit)")
        out[k] = best
    return out


def numpy_max_axis(a, axis):
    """``a.max(axis=axis)`` / ``np.max(a, axis=axis)`` of a 2-D real array (``_pick_axis``)."""
    return _pick_axis(a, axis, True)


def numpy_min_axis(a, axis):
    """``a.min(axis=axis)`` / ``np.min(a, axis=axis)`` of a 2-D real array (``_pick_axis``)."""
    return _pick_axis(a, axis, False)


def keep_axis(r, axis):
    """The 1-D result ``r`` of a reduction along ``axis`` of a 2-D array with that axis kept
    as length 1 (``keepdims=True``): a C-contiguous 2-D array, as NumPy's."""
    if axis == 0:
        return r.reshape((1, r.shape[0]))
    return r.reshape((r.shape[0], 1))
