"""graphjit fuzzer regression: return complex / raise ZeroDivisionError.

Found by `python -m tests.fuzzing.run --n 10000 --seed 2026` (issue 14's round), shrunk.
plain:    returned 0j
compiled: raised ZeroDivisionError: division by zero
"""
import math
import numpy as np

def f(c0):
    z0 = 0j
    if 0 / c0:
        pass
    else:
        pass
    return z0


INPUTS = [(np.complex128(complex(math.nan, 0.0)),)]
KIND = 'return complex / raise ZeroDivisionError'
SIGNATURE = 'return complex / raise ZeroDivisionError | /'
