"""graphjit fuzzer regression: type np.float64 / float.

Found by `python -m tests.fuzzing.run --seed 2030` (program 82), not shrunk: a dead branch
returns `sum(a)` (typed only where converted) and the live return an np.float64; Numba boxed
the result as a Python float.
plain:    returned np.float64(0.0)
compiled: returned 0.0
"""
import math
import numpy as np


def f(i0, i1, c0, a):
    n = len(a)
    v0 = np.uint16(3)
    y0 = 0.0
    z0 = np.complex128(1 + 1j)
    z1 = np.complex128(np.uint16(1) + (1 + 1j))
    t0 = np.bool_(np.bool_(True))
    v0 = np.uint16(i0)
    for i in range(min(abs(7), 8)):
        t0 = np.bool_(t0)
        if 1j == 100.0:
            for e1 in a:
                a[i * n % n] += round(y0, 2)
                y0 = float(math.pow(a[i % n], y0))
                if z0 + i0 != e1 * 4:
                    return sum(a)
    return a[5 % n] * y0


INPUTS = [(np.uint16(65532), np.uint16(6), np.complex128(-3.25+1e+300j), np.array([2.05, 3.44, 5.04, 2.17]))]
KIND = 'type np.float64 / float'
SIGNATURE = 'type np.float64 / float | sum'
