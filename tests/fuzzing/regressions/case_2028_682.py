"""graphjit fuzzer regression: type np.float64 / float.

Found by `python -m tests.fuzzing.run --seed 2028` (program 682), as generated (its
shrunk form did not fail outside the fuzz worker). A tuple
result whose item 0 carries a flag (float or np.float64 by path) and whose item 2 is a float
on one return and an np.float64 on the other: no flag followed item 2 (it came back a float).
plain:    returned (np.float64(1.8446744073709552e+19), 1, np.float64(-1.7088791848617175))
compiled: returned (np.float64(1.8446744073709552e+19), 1, -1.7088791848617175)
"""
import math
import numpy as np

def f(i0, x0, a):
    n = len(a)
    v0 = 1
    y0 = -2.0 / (abs(x0) + 1.0)
    y1 = 0.0
    y1 -= 0.001 - i0 + 0.5 * float(a[(-2 - 0) % n])
    if 0.5 + v0 < float(a[10 * 7 % n]) <= n:
        if v0 >= max(3, n):
            if i0 * n != n * v0:
                v0 -= -n
                if y0 > n - -3:
                    return (y1 - float(a[i0 // (abs(10) + 1) % n]), 4, float(a[math.floor(3.25) % n]))
                y1 = 0.0 / -4.0
    return (y1, v0, y0 * x0)


INPUTS = [(np.uint64(18446744073709551614), np.float64(5.87),
           np.array([-5.41, 3.38, -1.9, -4.62, 1.38, -0.34])),
          (0, 2.2, np.array([-3.96, -1.36, -1.62, -1.07], dtype=np.float32)),
          (1048576, 1.0, np.array([3.54, 3.35], dtype=np.float32))]
KIND = 'type np.float64 / float'
SIGNATURE = 'type np.float64 / float | math.floor'
