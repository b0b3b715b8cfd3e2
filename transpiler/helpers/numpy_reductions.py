"""``a.sum()`` / ``np.sum(a)`` / ``a.mean()`` of float and complex arrays as NumPy computes
them, bit for bit, for compiled code (Numba adds in order: the last bits differ).

NumPy's add-reduce of float32/float64 is ``io = 0 + pairwise_sum(all n elements)``
(numpy/_core/src/umath/loops_utils.h.src ``@TYPE@_pairwise_sum``, called by the ``add``
loop's reduce case with the identity as the initial value): fewer than 8 elements in order from
-0.0; up to ``PW_BLOCKSIZE`` (128) with 8 accumulators combined as
``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))`` and the rest in order; beyond, split at
``n / 2`` rounded down to a multiple of 8 and the halves added. Every addition is in the
array's dtype (float32 stays float32). Complex arrays: the same on the interleaved floats
(real and imaginary parts are separate sums; blocks of 4 complex accumulators combined as
``(c0 + c1) + (c2 + c3)``; split at ``(m - m % 8) / 2`` complex elements).

NumPy runs that over the whole array in one inner loop when its iterator coalesces the array
into one dimension: a 1-D array (any stride, in its own order) or a C- or F-contiguous one (in
memory order). Otherwise it goes through buffers of 8,192 elements whose order compiled code
does not reproduce: said so (an effect-free call then runs again as Python, transpiler.api).

``mean``, ``var`` and ``std`` are NumPy's ``numpy/_core/_methods.py`` (``_mean``, ``_var``) on
those sums; integer and bool arrays are summed in float64 through NumPy's buffers of 8,192.

Measured against ``np.sum`` (tests/test_numpy_reductions.py): bit-equal for every size 0-300
and sizes to 70,001, float32 and float64, C/F/transposed/strided/reversed layouts.
"""
import numpy as np

_BLOCK = 128            # NumPy's PW_BLOCKSIZE (numpy/_core/src/umath/loops_utils.h.src)


def _real_block(v, lo, n):
    """NumPy's pairwise sum of ``v[lo:lo + n]`` for ``n <= 128`` (1 <= n)."""
    if n < 8:
        res = v[lo]
        for i in range(lo + 1, lo + n):
            res = res + v[i]
        return res
    r0 = v[lo]
    r1 = v[lo + 1]
    r2 = v[lo + 2]
    r3 = v[lo + 3]
    r4 = v[lo + 4]
    r5 = v[lo + 5]
    r6 = v[lo + 6]
    r7 = v[lo + 7]
    i = 8
    while i < n - n % 8:
        r0 = r0 + v[lo + i]
        r1 = r1 + v[lo + i + 1]
        r2 = r2 + v[lo + i + 2]
        r3 = r3 + v[lo + i + 3]
        r4 = r4 + v[lo + i + 4]
        r5 = r5 + v[lo + i + 5]
        r6 = r6 + v[lo + i + 6]
        r7 = r7 + v[lo + i + 7]
        i = i + 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res = res + v[lo + i]
        i = i + 1
    return res


def _complex_block(v, lo, m):
    """NumPy's complex pairwise sum of ``v[lo:lo + m]`` for ``m <= 64`` (1 <= m)."""
    if m < 4:
        res = v[lo]
        for i in range(lo + 1, lo + m):
            res = res + v[i]
        return res
    c0 = v[lo]
    c1 = v[lo + 1]
    c2 = v[lo + 2]
    c3 = v[lo + 3]
    i = 4
    while i < m - m % 4:
        c0 = c0 + v[lo + i]
        c1 = c1 + v[lo + i + 1]
        c2 = c2 + v[lo + i + 2]
        c3 = c3 + v[lo + i + 3]
        i = i + 4
    res = (c0 + c1) + (c2 + c3)
    while i < m:
        res = res + v[lo + i]
        i = i + 1
    return res


def _pairwise(v, is_complex):
    """NumPy's pairwise sum of the 1-D array ``v`` (len >= 1), its recursion as a stack:
    tasks ``(lo, n, phase)``; phase 1 adds the two sums on top of the value stack. The depth
    is at most log2(2**63 / 64): 256 tasks and 128 values suffice."""
    block = 64 if is_complex else _BLOCK
    los = np.empty(256, np.int64)
    ns = np.empty(256, np.int64)
    phases = np.empty(256, np.int64)
    values = np.empty(128, v.dtype)
    tasks = 1
    los[0] = 0
    ns[0] = v.shape[0]
    phases[0] = 0
    top = 0
    while tasks > 0:
        tasks = tasks - 1
        lo = los[tasks]
        n = ns[tasks]
        if phases[tasks] == 1:
            values[top - 2] = values[top - 2] + values[top - 1]
            top = top - 1
        elif n <= block:
            if is_complex:
                values[top] = _complex_block(v, lo, n)
            else:
                values[top] = _real_block(v, lo, n)
            top = top + 1
        else:
            half = (n - n % 8) // 2 if is_complex else n // 2 - (n // 2) % 8
            los[tasks] = lo
            ns[tasks] = n
            phases[tasks] = 1
            los[tasks + 1] = lo + half
            ns[tasks + 1] = n - half
            phases[tasks + 1] = 0
            los[tasks + 2] = lo
            ns[tasks + 2] = half
            phases[tasks + 2] = 0
            tasks = tasks + 3
    return values[0]


def _flat(a):
    """The elements of ``a`` in the order NumPy's one inner loop visits them."""
    if a.ndim == 1:
        return a.ravel()
    if a.flags.c_contiguous:
        return a.ravel()
    if a.flags.f_contiguous:
        return a.T.ravel()
    raise OverflowError("a sum of an array that is neither 1-D nor contiguous: NumPy adds in "
                        "the order of its iterator's buffers, which compiled code does not "
                        "reproduce (graphjit)")


def numpy_sum(a):
    """``np.sum(a)`` / ``a.sum()`` of a float32/float64 array of ndim >= 1: NumPy's value bit
    for bit (module docstring), of the array's scalar type. Raises OverflowError (not
    representable) for an array NumPy sums through buffers."""
    total = np.zeros(1, a.dtype)
    if a.size > 0:
        total[0] = total[0] + _pairwise(_flat(a), False)
    return total[0]


def numpy_complex_sum(a):
    """``numpy_sum`` of a complex64/complex128 array (NumPy's complex pairwise sum)."""
    total = np.zeros(1, a.dtype)
    if a.size > 0:
        total[0] = total[0] + _pairwise(_flat(a), True)
    return total[0]


def _as_dtype_of(a, value):
    """``value`` converted to ``a``'s dtype (a store: round to nearest), as NumPy's
    ``ret.dtype.type(...)``."""
    out = np.zeros(1, a.dtype)
    out[0] = value
    return out[0]


def _float64_sum(v):
    """NumPy's ``np.add.reduce(v, dtype=float64)`` of an integer or bool 1-D array: cast
    through its iterator's buffers of 8,192 elements (NPY_BUFSIZE), each a pairwise sum added
    in order to the identity 0.0 (measured: bit-equal to NumPy for 1-D, contiguous and strided
    arrays of every integer dtype)."""
    total = 0.0
    n = v.shape[0]
    buffer = np.empty(min(n, 8192), np.float64)
    for start in range(0, n, 8192):
        size = min(8192, n - start)
        for k in range(size):
            buffer[k] = v[start + k]
        total = total + _pairwise(buffer[:size], False)
    return total


def _check_nonempty(a):
    if a.size == 0:
        raise OverflowError("the mean of an empty array: NumPy warns and gives nan "
                            "(graphjit)")


def _check_ddof(n, ddof):
    if ddof >= n:
        raise OverflowError("a variance with ddof >= the number of elements: NumPy warns and "
                            "gives inf or nan (graphjit)")


def numpy_mean(a):
    """``a.mean()`` / ``np.mean(a)`` of a float32/float64 array of ndim >= 1: NumPy's sum,
    then ``ret.dtype.type(ret / rcount)`` with ``rcount`` an np.intp (``numpy/_core/
    _methods.py`` ``_mean``): the division in float64, rounded to the array's dtype. An empty
    array, where NumPy warns and gives nan, is said not to fit (an effect-free call runs again
    as Python)."""
    _check_nonempty(a)
    return _as_dtype_of(a, np.float64(numpy_sum(a)) / np.float64(a.size))


def numpy_integer_mean(a):
    """``a.mean()`` of an integer or bool array: float64, NumPy's buffered sum (``_float64_sum``)
    divided by the count (``_mean``: ``dtype='f8'``)."""
    _check_nonempty(a)
    return _float64_sum(_flat(a)) / np.float64(a.size)


def _var_of(flat, mean, n, ddof):
    """The pairwise sum of the squared deviations of ``flat`` from ``mean``, over ``n - ddof``
    in float64 (``_methods._var`` after its mean)."""
    d = flat - mean
    return _pairwise(d * d, False) / np.float64(n - ddof)


def numpy_var(a, ddof):
    """``a.var(ddof=)`` / ``np.var`` of a float32/float64 array of ndim >= 1 (``_methods._var``):
    the mean as ``numpy_mean``, the squares of the deviations in the array's dtype, their
    pairwise sum divided (in float64) by ``n - ddof``, rounded to the dtype. Where NumPy warns
    (``ddof >= n``, an empty array) it is said not to fit (the call runs again as Python)."""
    _check_ddof(a.size, ddof)
    return _as_dtype_of(a, np.float64(_var_of(_flat(a), numpy_mean(a), a.size, ddof)))


def numpy_std(a, ddof):
    """``a.std(ddof=)`` / ``np.std``: ``np.sqrt`` of ``numpy_var`` in the array's dtype."""
    return np.sqrt(numpy_var(a, ddof))


def numpy_integer_var(a, ddof):
    """``numpy_var`` of an integer or bool array: in float64 throughout (``dtype='f8'``), the
    mean from NumPy's buffered sum."""
    _check_ddof(a.size, ddof)
    return _var_of(_flat(a), numpy_integer_mean(a), a.size, ddof)


def numpy_integer_std(a, ddof):
    """``numpy_std`` of an integer or bool array (float64)."""
    return np.sqrt(numpy_integer_var(a, ddof))


def python_max_1d(a):
    """Python's ``max(a)`` of a 1-D array: the first element no later one is greater than
    (CPython ``Python/bltinmodule.c`` ``min_max``: an item replaces the best so far only where
    ``item > best``, so a NaN first stays, a NaN later is skipped), of the array's scalar type;
    an empty array raises ValueError with Python's message (Numba raised StopIteration)."""
    if a.shape[0] == 0:
        raise ValueError("max() iterable argument is empty")
    best = a[0]
    for i in range(1, a.shape[0]):
        if a[i] > best:
            best = a[i]
    return best


def python_min_1d(a):
    """Python's ``min(a)`` of a 1-D array (``python_max_1d`` with ``<``)."""
    if a.shape[0] == 0:
        raise ValueError("min() iterable argument is empty")
    best = a[0]
    for i in range(1, a.shape[0]):
        if a[i] < best:
            best = a[i]
    return best
