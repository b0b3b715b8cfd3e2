"""Plain NumPy loop kernels, for ``graphjit convert samples/loop_kernels.py -o build/``.

Functions marked ``@jit`` are converted; ``report`` stays Python (it formats a string).
"""
import math

import numpy as np

from transpiler import jit

TOLERANCE = 1e-12
MAX_STEPS = 50


def square(v):
    return v * v


@jit
def newton_sqrt(values):
    """Square roots by Newton's iteration, to TOLERANCE."""
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        x = values[i] if values[i] > 1.0 else 1.0
        for _ in range(MAX_STEPS):
            nxt = 0.5 * (x + values[i] / x)
            if abs(nxt - x) < TOLERANCE:
                break
            x = nxt
        out[i] = x
    return out


@jit
def norm(values):
    total = 0.0
    for v in values:
        total += square(v)
    return math.sqrt(total)


@jit
def first_above(values, limit=0.5):
    for i in range(values.shape[0]):
        if values[i] > limit:
            return i
    return -1


def report(values):
    return f"norm={norm(values):.3f}"
