"""graphjit fuzzer regression: raise ZeroDivisionError / return.

Found by the fuzzer's program 946 of seed 2036 (written by hand from the round's report):
isinstance() of an array element has a result known at transpile time, and the fold dropped
the element's evaluation, which raises here (7 % len(a) of an empty array).
plain:    raised ZeroDivisionError: integer modulo by zero
compiled: returned 0.0
"""
import math
import numpy as np

def f(x0, x1, a, l0):
    n = len(a)
    t0 = True
    w0 = 0
    while isinstance(t0, np.floating) != isinstance(a[7 % n], bool) and w0 < 1:
        w0 += 1
    return 1.5 % 0.5


INPUTS = [(1.0, 2.0, np.zeros(0), [1]), (1.0, 2.0, np.zeros(3), [1])]
KIND = 'raise ZeroDivisionError / return'
SIGNATURE = 'raise ZeroDivisionError / return | isinstance'
