"""graphjit fuzzer regression: return / raise ZeroDivisionError.

Found by the fuzzer's program 7457 of seed 2039 (shrunk by hand from the round's report).
``sum(b)`` of a float32 array is the Python int 0 (empty) or an np.float32, so its result is a
weak merge (analysis/scalar_merges.py ``weak_merges``) converted to np.float32 where assigned.
The read in ``y1 //= sum(b)`` was still typed as the merge, so NumPy's float32 loop was not
chosen and Numba's ``//`` raised ZeroDivisionError where NumPy gives nan. The NumPy scalar rules
(passes/specialize/numpy_scalar_rules.py) now type a weak merge's read by its converted dtype.
plain:    returned (np.uint16(13), np.float32(nan))
compiled: raised ZeroDivisionError
"""
import numpy as np


def f(t0, p0, v0, y1, a, b, n):
    for i in range(min(abs(n), 8)):
        t0 ^= p0
        v0 += a[v0 % n]
        t0 |= isinstance(t0, complex)
        y1 //= sum(b)
    return (v0, y1)


INPUTS = [(False, True, np.uint16(0), np.float32('nan'), np.array([1, 6, 7], dtype=np.uint16),
           np.array([0.0], dtype=np.float32), 3),
          (False, True, np.uint16(0), np.float32(2.5), np.array([1, 6, 7], dtype=np.uint16),
           np.array([0.0], dtype=np.float32), 3)]
KIND = 'return / raise ZeroDivisionError'
SIGNATURE = 'return / raise ZeroDivisionError | -'
