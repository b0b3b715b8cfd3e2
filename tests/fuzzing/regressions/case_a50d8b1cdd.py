"""graphjit fuzzer regression: type np.float32 / float.

Found by `python -m tests.fuzzing.run --seed 1` (program 118), shrunk from 15 lines.
plain:    returned np.float32(0.25)
compiled: returned 0.25
"""
import math
import numpy as np

def f(a):
    y0 = 1
    y0 /= a[1]
    return y0


INPUTS = [(np.array([-1.0, 4.0], dtype=np.float32),)]
KIND = 'type np.float32 / float'
SIGNATURE = 'type np.float32 / float | /'
