"""graphjit fuzzer regression: raise IndexError / return.

Found by `python -m tests.fuzzing.run --seed 1` (program 712), shrunk from 17 lines.
plain:    raised IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices
compiled: returned None
"""
import math
import numpy as np

def f(i0, a):
    y0 = a[i0 ** (-2)]


INPUTS = [(1, np.array([-3.0, -2.0], dtype=np.float32))]
KIND = 'raise IndexError / return'
SIGNATURE = 'raise IndexError / return | **'
