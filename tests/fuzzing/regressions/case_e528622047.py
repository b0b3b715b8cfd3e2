"""graphjit fuzzer regression: type int / float.

Found by `python -m tests.fuzzing.run --n 10000 --seed 2026` (issue 14's round), shrunk.
plain:    returned 2
compiled: returned 2.0
"""
import math
import numpy as np

def f(a):
    v0 = 0.5
    for e1 in a:
        v0 = 2
        v0 |= isinstance(0, float)
    return v0


INPUTS = [(np.array([complex(2.0, -2.0)], dtype=np.complex128),)]
KIND = 'type int / float'
SIGNATURE = 'type int / float | isinstance'
