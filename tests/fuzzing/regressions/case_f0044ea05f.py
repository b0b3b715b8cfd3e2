"""graphjit fuzzer regression: type float / int.

Found by `python -m tests.fuzzing.run --seed 1` (program 1920), shrunk from 18 lines.
plain:    returned -1.0
compiled: returned -1
"""
import math
import numpy as np

def f(i1):
    v0 = i1 ** (-1)
    return v0


INPUTS = [(-1,)]
KIND = 'type float / int'
SIGNATURE = 'type float / int | **'
