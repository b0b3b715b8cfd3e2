"""graphjit fuzzer regression: raise TypeError / return.

Found by `python -m tests.fuzzing.run --seed 2032` (program 2284), shrunk from 23 lines.
plain:    raised TypeError: type numpy.float32 doesn't define __trunc__ method
compiled: returned None
"""
import math
import numpy as np

def f(a):
    v0 = 0
    for e0 in a:
        v0 = math.trunc(a[v0])


INPUTS = [(np.array([0.0], dtype=np.float32),)]
KIND = 'raise TypeError / return'
SIGNATURE = 'raise TypeError / return | a[]'
