"""graphjit fuzzer regression: raise TypeError / return.

Found by `python -m tests.fuzzing.run --seed 1` (program 1568), shrunk from 16 lines.
plain:    raised TypeError: float() argument must be a string or a real number, not 'complex'
compiled: returned None
"""
import math
import numpy as np

def f(a):
    a[3] = float(-1.5) ** 0.5


INPUTS = [(np.array([2.0, 4.0, 6.0, -3.0], dtype=np.float32),)]
KIND = 'raise TypeError / return'
SIGNATURE = 'raise TypeError / return | float'
