"""graphjit fuzzer regression: raise ZeroDivisionError / return.

Found by `python -m tests.fuzzing.run --seed 1` (program 230), shrunk from 18 lines.
plain:    raised ZeroDivisionError: 0.0 cannot be raised to a negative power
compiled: returned None
"""
import math
import numpy as np

def f():
    y1 = 0 ** -1.5


INPUTS = [()]
KIND = 'raise ZeroDivisionError / return'
SIGNATURE = 'raise ZeroDivisionError / return | **'
