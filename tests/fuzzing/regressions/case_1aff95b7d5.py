"""graphjit fuzzer regression: raise ValueError / return.

Found by `python -m tests.fuzzing.run --seed 2033` (program 6981), shrunk from 17 lines.
plain:    raised ValueError: cannot convert float NaN to integer
compiled: returned None
"""
import math
import numpy as np

def f(x0, a):
    n = len(a)
    y0 = 1
    for i in range(n):
        a[0] = y0
        y0 -= x0


INPUTS = [(np.float64(math.nan), np.array([1, -5], dtype=np.int32))]
KIND = 'raise ValueError / return'
SIGNATURE = 'raise ValueError / return | -'
