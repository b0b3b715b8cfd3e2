"""graphjit fuzzer regression: raise TypeError / raise ValueError.

Found by `python -m tests.fuzzing.run --seed 1` (program 307), shrunk from 21 lines.
plain:    raised TypeError: int() argument must be a string, a bytes-like object or a real number, not 'complex'
compiled: raised ValueError: cannot convert float NaN to integer
"""
import math
import numpy as np

def f():
    v0 = int(float(-1.5) ** 0.5)


INPUTS = [()]
KIND = 'raise TypeError / raise ValueError'
SIGNATURE = 'raise TypeError / raise ValueError | int'
