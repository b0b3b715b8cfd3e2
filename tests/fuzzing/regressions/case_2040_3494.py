"""graphjit fuzzer regression: raise IndexError / return.

Found by the fuzzer's program 3494 of seed 2040 (shrunk by hand from the round's report).
``v0`` is the Python int 10 before the second loop and an np.int64 after it; the analysis
types it by name, as either. ``v0 ** -2`` then went to Numba's integer power (0) where
Python gives 0.01 (an IndexError as an index) and NumPy raises ValueError. A ``**`` of an int
that is a Python int or an np.int64 by path is now ``helpers.numpy_arith.alike_int_pow``: a
negative exponent says so (this effect-free function runs again as Python). The fuzzer's
program stored into ``a`` there; it now raises that OverflowError (README, "Known gaps").
plain:    raised IndexError
compiled: returned np.int64(0)
"""
import numpy as np


def f(i0, a):
    n = len(a)
    v0 = 10
    c = 0
    for i in range(2):
        if a[v0 ** (-2) % n] > 0.0:
            c += 1
    for j in range(n):
        v0 = -(0 * i0) % 1009
    return v0, c


INPUTS = [(np.False_, np.array([0.05, -6.81])), (True, np.ones(3))]
KIND = 'raise IndexError / return'
SIGNATURE = 'raise IndexError / return | -'
