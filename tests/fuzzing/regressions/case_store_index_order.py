"""graphjit fuzzer regression: raise ZeroDivisionError / raise OverflowError.

Found by `python -m tests.fuzzing.run --seed 2034`, shrunk from 23 lines (copied from the
round's report).
plain:    raised ZeroDivisionError: integer modulo by zero
compiled: raised OverflowError: Python integer out of bounds for the array's dtype
"""
import math
import numpy as np

def f(a):
    a[1 % 0] = -1.5


INPUTS = [(np.array([], dtype=np.uint64),)]
KIND = 'raise ZeroDivisionError / raise OverflowError'
SIGNATURE = 'raise ZeroDivisionError / raise OverflowError | %'
