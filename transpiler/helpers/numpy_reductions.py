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

``mean`` is NumPy's ``_methods._mean``: that sum, divided by the count converted to the
array's dtype (NEP 50: a Python int meeting an np.float32 becomes float32).

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


def numpy_mean(a):
    """``a.mean()`` / ``np.mean(a)`` of a float32/float64 array of ndim >= 1: NumPy's sum
    divided by the count converted to the array's dtype (``numpy/_core/_methods.py``
    ``_mean``: ``ret.dtype.type(ret / rcount)``, NEP 50). An empty array, where NumPy warns
    and gives nan, is said not to fit (an effect-free call runs again as Python)."""
    if a.size == 0:
        raise OverflowError("the mean of an empty array: NumPy warns and gives nan "
                            "(graphjit)")
    count = np.zeros(1, a.dtype)
    count[0] = a.size
    return numpy_sum(a) / count[0]
