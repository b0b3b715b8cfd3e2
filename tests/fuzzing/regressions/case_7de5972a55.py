"""graphjit fuzzer regression: return / raise ZeroDivisionError.

Found by `python -m tests.fuzzing.run --n 10000 --seed 2026` (issue 14's round), shrunk.
plain:    returned None
compiled: raised ZeroDivisionError: division by zero
"""
import math
import numpy as np

def f(c0, a):
    z0 = 0
    for e0 in a:
        z0 /= abs(a[(e0 / c0 == 0) % 0])


INPUTS = [(complex(math.nan, 0.0), np.array([complex(7.0, 4.0)], dtype=np.complex64))]
KIND = 'return / raise ZeroDivisionError'
SIGNATURE = 'return / raise ZeroDivisionError | %'
