"""graphjit fuzzer regression: type float / np.float32.

Found by `python -m tests.fuzzing.run --seed 1` (program 301), shrunk from 16 lines.
plain:    returned -4.0
compiled: returned np.float32(-4.0)
"""
import math
import numpy as np

def f(a):
    y0 = float(a[0])
    return y0


INPUTS = [(np.array([-4.0], dtype=np.float32),)]
KIND = 'type float / np.float32'
SIGNATURE = 'type float / np.float32 | float'
