"""Open fuzz case (seed 2038, program 8793, history call 1): NOT fixed, not run by the tests.

With ``a`` an empty int32 array (``n = 0``) and ``i1 = np.int8(12)``, ``i1 * n % n`` is
np.int8(0) % 0: NumPy gives 0 (with a RuntimeWarning), so plainly ``a[0]`` raises IndexError;
compiled code raises ZeroDivisionError ("integer modulo by zero") at the ``%``. Reproduced at
17889ed too (before stop 35's changes).

    PYTHONPATH=. python tests/fuzzing/open/case_2038_8793.py     # status, plain and compiled outcomes
"""
import math

import numpy as np


def f(i0, i1, x0, a):
    n = len(a)
    v0 = min(i1, i1)
    y0 = 0.0
    if x0 * float(a[i1 * n % n]) == int(float(a[(n if int(float(a[10 % n])) > i1 else 5) % n])) \
            and 100.0 / (abs(3.25) + 1.0) < y0 - v0 < i1:
        for i in range(7):
            for j in range(min(abs(3), 8)):
                a[math.floor(3.25) % n] = abs(a[math.floor(float(a[-3 % (abs(i) + 1) % n])) % n])
                y0 = float(j) - i / -3
    return y0


ARGS = (12, np.int8(12), -0.001, np.array([], dtype=np.int32))

if __name__ == "__main__":
    from tests.fuzzing.check import compare_function
    print(compare_function(f, [ARGS]))
