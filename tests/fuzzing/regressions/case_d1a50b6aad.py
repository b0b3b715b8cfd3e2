"""graphjit fuzzer regression: type complex / float.

Found by `python -m tests.fuzzing.run --seed 1` (program 538), shrunk from 20 lines.
plain:    returned (0.49999999999999994-0.8660254037844386j)
compiled: returned nan
"""
import math
import numpy as np

def f():
    y0 = 0.5
    y0 -= (-0.75) ** y0
    return y0


INPUTS = [()]
KIND = 'type complex / float'
SIGNATURE = 'type complex / float | **'
