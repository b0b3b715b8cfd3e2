"""graphjit fuzzer regression: type np.float64 / float.

Found by `python -m tests.fuzzing.run --seed 2027` (program 5045), shrunk from 22 lines.
plain:    returned np.float64(100.0)
compiled: returned 100.0
"""
import math
import numpy as np

def f(i0, a):
    n = 0
    v0 = 0
    v1 = 10
    y0 = 0.0
    t0 = True
    if 1.5:
        t0 |= divmod(i0, 3)[1] > 0
        return np.float64(100.0)


INPUTS = [(np.int64(0), np.array([], dtype=np.bool_))]
KIND = 'type np.float64 / float'
SIGNATURE = 'type np.float64 / float | divmod'
