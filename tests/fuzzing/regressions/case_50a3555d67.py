"""graphjit fuzzer regression: return / raise OverflowError.

Found by `python -m tests.fuzzing.run --seed 2033` (program 4491), shrunk from 23 lines.
plain:    returned None
compiled: raised OverflowError: int beyond int64 in compiled code (graphjit)
"""
import math
import numpy as np

def f(i0, a):
    v0 = int(i0)
    t0 = False
    if t0:
        for e0 in a:
            v0 &= 1j


INPUTS = [(np.uint64(18446744073709551613), np.array([], dtype=np.int32))]
KIND = 'return / raise OverflowError'
SIGNATURE = 'return / raise OverflowError | int'
