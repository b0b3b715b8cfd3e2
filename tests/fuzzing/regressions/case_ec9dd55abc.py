"""graphjit fuzzer regression: value float.

Found by `python -m tests.fuzzing.run --seed 1` (program 312), shrunk from 17 lines.
plain:    returned 3.960100037956238
compiled: returned 3.960099935531616
"""
import math
import numpy as np

def f(a):
    y0 = 1 * float(a[3]) ** 2
    return y0


INPUTS = [(np.array([-0.47999998927116394, -2.140000104904175, math.nan, 1.9900000095367432], dtype=np.float32),)]
KIND = 'value float'
SIGNATURE = 'value float | float'
