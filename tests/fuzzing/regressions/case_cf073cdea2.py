"""graphjit fuzzer regression: type np.int16 / int.

Found by `python -m tests.fuzzing.run --n 10000 --seed 2026` (issue 14's round), shrunk.
plain:    returned np.int16(-5)
compiled: returned -5
"""
import math
import numpy as np

def f(a):
    v0 = 0
    y1 = False
    if 3.25 > y1:
        v0 = a[v0]
    return v0


INPUTS = [(np.array([-5], dtype=np.int16),)]
KIND = 'type np.int16 / int'
SIGNATURE = 'type np.int16 / int | a[]'
