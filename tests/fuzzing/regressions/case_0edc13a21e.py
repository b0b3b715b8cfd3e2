"""graphjit fuzzer regression: raise OverflowError / return.

Found by `python -m tests.fuzzing.run --seed 1` (program 1538), shrunk from 15 lines.
plain:    raised OverflowError: (34, 'Numerical result out of range')
compiled: returned None
"""
import math
import numpy as np

def f(x0):
    y0 = 1.0
    y0 -= -1.5 ** x0


INPUTS = [(1000000.0,)]
KIND = 'raise OverflowError / return'
SIGNATURE = 'raise OverflowError / return | **'
