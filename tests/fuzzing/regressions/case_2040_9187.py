"""graphjit fuzzer regression: type int / float.

Found by the fuzzer's program 9187 of seed 2040 (shrunk by hand from the round's report).
``n ** i0`` of two int arguments is an int where ``i0 >= 0``: the converter specializes on
the sign of ``i0`` and computes an int power, and the scalar-type analysis knew it, but the
Python-number analysis (analysis/python_numbers.py) did not know ``i0``'s sign and typed
``v1`` an int or a float by path; ``v1 ** 3`` then took the float64 helper and ``v0`` came
back a float. An int argument read in an exponent is now specialized on its sign before the
analyses run (python_numbers.exponent_params), so every analysis agrees.
plain:    returned -63
compiled: returned -63.0
"""
import numpy as np


def f(n, i0):
    v1 = min(4, n ** i0)
    v0 = 1
    v0 -= v1 ** 3
    return v0


INPUTS = [(5, 2), (3, 0), (2, 3), (2, -1)]
KIND = 'type int / float'
SIGNATURE = 'type int / float | -'
