"""graphjit fuzzer regression: value np.complex128.

Found by `python -m tests.fuzzing.run --seed 2033` (program 9568), shrunk from 23 lines.
plain:    returned np.complex128(54+297j)
compiled: returned np.complex128(54.00000000000004+297.00000000000006j)
"""
import math
import numpy as np

def f(a):
    z0 = 2j
    for e0 in a:
        z0 = e0
    z0 = z0 ** 3
    return z0


INPUTS = [(np.array([complex(6.0, 3.0)], dtype=np.complex128),)]
KIND = 'value np.complex128'
SIGNATURE = 'value np.complex128 | **'
