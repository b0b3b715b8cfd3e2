"""graphjit fuzzer regression: history: value float (one ulp in a float32 element).

Found by the fuzzer's program 8086 of seed 2036 (written by hand from the round's report): a
float32 element updated in place by ``y1``, a Python float or an np.float64 by path (NumPy
converts the first to float32 before adding and computes the second in float64). A fresh jitted
object fell back (statements._mixed_update_check, 5245b47); the round reported that after three
calls with a Python float ``x0`` the np.float64 call compiled and gave a[3] = 23.802668 where
plain gives 23.802666. Not reproduced in a fresh process at 5245b47 or later (10 runs: hash
seeds 0-7, empty cache folders); kept with the round's exact call history, through one jitted
object, so that it is checked on every run.
plain:    a[3] == 23.802666
compiled: a[3] == 23.802668
"""
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


INPUTS = [(-1, 5.757, 4.2, np.array([-0.37, 4.0, -1.14, -4.49, -3.75, 1.37], np.float32)),
          (11, -1.7, -0.0, np.array([6.73, -0.39, -1.88], np.float32)),
          (-3, -3.8, -4.4, np.array([-1.11, -3.32, -1.37], np.float32)),
          (6, np.float64(0.0), 5.12, np.array([-2.12, -0.68, 4.3, 1.17], np.float32)),
          (9, float("inf"), -4.9, np.array([-1.38], np.float32))]
KIND = 'history: value float'
SIGNATURE = 'history: value float | +='
