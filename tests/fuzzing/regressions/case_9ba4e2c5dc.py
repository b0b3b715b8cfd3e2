"""graphjit fuzzer regression: mutation value ndarray float32.

Found by `python -m tests.fuzzing.run --seed 1` (program 839), shrunk from 15 lines.
plain:    returned None
compiled: returned None
"""
import math
import numpy as np

def f(x1, a):
    a[0] += x1


INPUTS = [(3.824, np.array([-0.6299999952316284], dtype=np.float32))]
KIND = 'mutation value ndarray float32'
SIGNATURE = 'mutation value ndarray float32 | +'
