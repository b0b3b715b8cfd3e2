"""graphjit fuzzer regression: value np.ndarray.

Found by `python -m tests.fuzzing.run --seed 2033` (not saved then: max-saved), written out by
hand from its report: a value that is an np.float64 or a Python float by path (``min``)
stored into a uint32 array. NumPy converts an np.float64 through C's cast (4294967291) and
a Python float through int() (OverflowError); Numba's one unified float64 cast gives
4294967295.
"""
import math
import numpy as np

def f(x0, a):
    a[0] = min(x0, 0.5)
    return a


INPUTS = [(np.float64(-5.0), np.array([0, 0], dtype=np.uint32)),
          (-5.0, np.array([0, 0], dtype=np.uint32)),
          (np.float64(math.nan), np.array([0, 0], dtype=np.int32))]
KIND = 'value np.ndarray'
SIGNATURE = 'value np.ndarray | store'
