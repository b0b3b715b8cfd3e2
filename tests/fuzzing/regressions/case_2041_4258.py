"""graphjit fuzzer regression: type complex / float.

Found by the fuzzer's program 4258 of seed 2041 (shrunk by hand from the round's report).
``y0 = y0 - (not t0)`` made the Python-number analysis (analysis/python_numbers.py) give up on
``y0`` while the scalar-type analysis still typed it a Python float, so
``y0 ** (y0 + 0.001)`` reached neither Python's rules (``checked_pow``) nor NumPy's: Numba's
``**`` gave nan for a negative base where Python gives a complex number. A ``**`` of
operands only the scalar-type analysis types as Python numbers now takes Python's rules
(python_number_rules ``_typed_pow``): the complex result says so and this effect-free
function runs again as Python.
plain:    returned (0.14411102189391722+0.0094670218197347j)
compiled: returned 0.9687100826216103
"""
import numpy as np


def f(y0, t0, m, b, q0):
    for i in range(3):
        y0 = y0 - (not t0)
        for j in range(m % 6):
            y0 = y0 ** (y0 + 0.001)
            if y0 / (abs(100.0) + 1.0) <= b[m % m] * q0[0]:
                break
            y0 = 5 * 0.001
    return y0


INPUTS = [(1.5, False, 4, np.array([6, 5, 9, 6], dtype=np.uint64), (0.3, (-1.41 - 2.41j))),
          (0.5, True, 4, np.array([6, 5, 9, 6], dtype=np.uint64), (0.3, 1j))]
KIND = 'type complex / float'
SIGNATURE = 'type complex / float | -'
