"""graphjit fuzzer regression: return / raise NameError.

Found by `python -m tests.fuzzing.run --seed 2027` (program 8020), shrunk from 15 lines.
plain:    returned 0
compiled: raised NameError: name 'int_abs' is not defined
"""
import math
import numpy as np

def f(i0, a):
    y0 = 0.5
    y0 += abs(i0) >= 0 and 2.0 <= 5
    return 0


INPUTS = [(0, np.array([], dtype=np.float32))]
KIND = 'return / raise NameError'
SIGNATURE = 'return / raise NameError | +'
