"""graphjit fuzzer regression: type np.bool / bool.

Found by `python -m tests.fuzzing.run --seed 2029` (program 8502), shrunk from 17 lines.
plain:    returned np.True_
compiled: returned True
"""
import math
import numpy as np

def f():
    t0 = np.bool_(np.int8(0) <= 1 <= 10)
    return t0


INPUTS = [()]
KIND = 'type np.bool / bool'
SIGNATURE = 'type np.bool / bool | np.bool_'
