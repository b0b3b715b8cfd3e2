"""graphjit fuzzer regression: type bool / np.bool.

Found by `python -m tests.fuzzing.run --seed 2027` (program 2660), shrunk from 18 lines.
plain:    returned False
compiled: returned np.False_
"""
import math
import numpy as np

def f(x0):
    t0 = min(0.0, x0) == 5
    return t0


INPUTS = [(np.float64(1.0),)]
KIND = 'type bool / np.bool'
SIGNATURE = 'type bool / np.bool | min'
