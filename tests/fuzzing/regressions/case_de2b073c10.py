"""graphjit fuzzer regression: type np.float32 / float.

Found by `python -m tests.fuzzing.run --n 10000 --seed 2026` (issue 14's round), shrunk.
plain:    returned np.float32(2.0)
compiled: returned 2.0
"""
import math
import numpy as np

def f(a):
    y0 = 1
    for i in range(9, 0, -1):
        y0 = a[math.floor(y0) % 1]
    return y0


INPUTS = [(np.array([2.0], dtype=np.float32),)]
KIND = 'type np.float32 / float'
SIGNATURE = 'type np.float32 / float | math.floor'
