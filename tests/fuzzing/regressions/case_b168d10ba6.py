"""graphjit fuzzer regression: return / raise ZeroDivisionError.

Found by `python -m tests.fuzzing.run --seed 5` (program 38), shrunk from 22 lines.
plain:    returned None
compiled: raised ZeroDivisionError: division by zero
"""
import math
import numpy as np

def f(a):
    y0 = 0.1 // abs(a[0])
    y0 *= 100.0 / y0


INPUTS = [(np.array([-5.0], dtype=np.float32),)]
KIND = 'return / raise ZeroDivisionError'
SIGNATURE = 'return / raise ZeroDivisionError | //'
