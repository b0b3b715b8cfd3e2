"""graphjit fuzzer regression: raise OverflowError / return.

Found by the fuzzer's program 4691 of seed 2038 (history call 1; written by hand from the round's
report). ``v0`` is the Python int -1 until the ``else`` branch runs ``v0 += -1 + i0 - --3`` with
``i0`` an np.int64 (then an np.int64). Plainly ``i1 - v0`` with ``i1 = np.uint16(6)`` and ``v0``
still the Python int -1 raises OverflowError (NEP 50: -1 out of bounds for uint16); compiled code
computed ``i1 - v0`` in int64. An operation whose result type differs by path is now a problem
of the scalar-type analysis (analysis/merge_problems.py ``_operation_by_path``): the loop runs
as Python.
plain:    raised OverflowError
compiled: returned (0.57, 0.57)
"""
import math

import numpy as np


def f(i0, i1, x0, a):
    n = len(a)
    v0 = -1
    v1 = i1
    y0 = 0.0
    for e0 in a:
        w0 = 0
        while w0 < 10:
            w0 += 1
            y0 = math.sqrt(abs(y0)) - min(0.5, 0.001)
            if abs(v1) >= i1 - v0:
                y0 = float(a[-3 % n])
                if not v0 - v1 >= -n:
                    continue
                if not x0 + 0.0 > float(e0) * x0:
                    break
            else:
                v0 += -1 + i0 - --3
        y0 = 3 / 3.0
    v0 = n
    y0 = x0 + float(a[i1 % n])
    return (y0, y0)


INPUTS = [(np.int64(6), np.uint16(6), np.float64(0.121),
        np.array([0.45, -7.61, 0.47], dtype=np.float32))]
KIND = 'raise OverflowError / return'
SIGNATURE = 'raise OverflowError / return | -'
