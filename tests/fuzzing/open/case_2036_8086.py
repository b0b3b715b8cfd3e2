import math
import numpy as np


def f(i0, x0, x1, a):
    n = len(a)
    v0 = 0
    v1 = 4
    y0 = 1.5 / (abs(float(a[(i0 if x1 + v0 >= 3.25 + v1 else -1) % n])) + 1.0)
    y1 = 0.001
    y1 /= abs(0.5) + 1.0
    y0 = float(a[abs(n) % n])
    for e0 in a:
        a[i0 * 3 % n] += y1
        y1 = (y1 if int(x0) != n + 5 else x0) + (v0 + 3.25)
        v1 = math.floor(0 / (abs(-3) + 1))
        w0 = 0
        while w0 < 5 and n ** 2 > v0 // 7:
            w0 += 1
            if y1 >= y1:
                a[min(i0, v0) % n] += -3 + 0.5
            elif i0 * v0 <= max(i0, i0):
                y0 = math.sqrt(abs(y1 / (abs(0.0) + 1.0)))
    return v1


# Open (not run by tests): fuzz seed 2036, program 8086. One jitted object called with
# (i0, x0, x1, a) = (int, float, float, float32 array) three times, then with x0 an
# np.float64: (6, np.float64(0.0), 5.12, np.array([-2.12, -0.68, 4.3, 1.17], np.float32)).
# a[3] ends 23.802666 plainly, 23.802668 compiled: `a[k] += y1` with y1 a Python float or an
# np.float64 by path (NumPy converts the first to float32 before adding, computes the second
# in float64). A fresh jitted object falls back for that call (statements._mixed_update_check);
# after the first three calls the np.float64 specialization compiles: something of the
# first specialization (web split, callee analysis cache?) leaks into the second.
