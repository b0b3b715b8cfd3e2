"""graphjit fuzzer regression: value float.

Found by `python -m tests.fuzzing.run --seed 1` (program 298), shrunk from 15 lines.
plain:    returned 2.0
compiled: returned 1.0
"""
import math
import numpy as np

def f(i0):
    y0 = 1.0
    if i0 ** i0:
        y0 = 2.0
    return y0


INPUTS = [(100,)]
KIND = 'value float'
SIGNATURE = 'value float | **'
