"""Functions and a network that the CUDA tiers run plainly, on the CPU backend and on numba-cuda.

Plain source only (no graphjit imports but the nn layers): the truth is the plain call.
"""
import math

import numpy as np

from transpiler import nn


def scaled_exp(x, y):
    """Element-wise: a device function mapped over the arrays."""
    t = x * 2.0
    return t + np.exp(y) - np.maximum(x, y)


def saxpy_sqrt(a, x, y, out):
    """Independent loop: each iteration writes out[i] only."""
    n = x.shape[0]
    for i in range(n):
        out[i] = a * x[i] + y[i] * 2.0 + math.sqrt(abs(x[i]))
    return out


def pairwise(points, d):
    """Independent outer loop with an inner loop: one thread per row."""
    for i in range(points.shape[0]):
        for j in range(points.shape[0]):
            acc = 0.0
            for k in range(points.shape[1]):
                diff = points[i, k] - points[j, k]
                acc += diff * diff
            d[i, j] = math.sqrt(acc)
    return d


def prefix_sum(x):
    """Dependent loop: iteration i reads s as iteration i - 1 left it."""
    s = 0.0
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s
    return out


def total(x):
    """A reduction: recognised, and kept on the CPU (the order of float additions)."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def shifted(x, out):
    """Reads past the end on the last iteration: IndexError, as in Python."""
    for i in range(out.shape[0]):
        out[i] = x[i + 1] * 2
    return out


def mixed(x, out):
    """A dependent loop (CPU region) then an independent one (kernel), Python between."""
    running = 0.0
    for i in range(x.shape[0]):
        running = running * 0.5 + x[i]
    scale = running + 1.0
    for i in range(x.shape[0]):
        out[i] = x[i] * scale
    return out, scale


def early_exit(x, out):
    """A break: not independent."""
    for i in range(x.shape[0]):
        if x[i] < 0:
            break
        out[i] = x[i]
    return out


def add_one(x, out):
    """Independent unless out and x are the same array."""
    for i in range(x.shape[0]):
        out[i] = x[i] + 1
    return out


class SmallNet(nn.Cell):
    """The seed network at small sizes: Flatten, Dense 64->16, ReLU, Dense 16->16, ReLU,
    Dense 16->10."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layers = nn.SequentialCell(nn.Dense(64, 16), nn.ReLU(), nn.Dense(16, 16),
                                        nn.ReLU(), nn.Dense(16, 10))

    def construct(self, x):
        return self.layers(self.flatten(x))


# -- regressions found by review ------------------------------------------------------------

def negative_start(a):
    """i = -7 and i = 5 are the same element of a 12-array: not parallel."""
    for i in range(-12, 12):
        a[i] = a[i] * 2.0 + i
    return a


def alias_local(a):
    """Reads the stored array through another name."""
    for i in range(1, a.shape[0]):
        b = a
        a[i] = b[i - 1] * 2.0
    return a


def alias_transpose(m):
    """Reads the stored matrix through .T."""
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = m.T[i, j] + 1.0
    return m


def kernel_then_bad_dot(out, a, b):
    """A kernel, then a CPU region whose np.dot raises ValueError at run time: the kernel's
    effect must happen once (a runtime error is not a compile failure)."""
    for i in range(out.shape[0]):
        out[i] += 1.0
    s = 0.0
    for j in range(2):
        s += np.dot(a, b)[0, 0]
    return s


def add_big_int(x, k):
    """A Python int argument meets float32 only after Python-int arithmetic (NEP 50)."""
    return x + (k - 16777216)


def early_return(x, out):
    """The early return puts the loop inside an if in the lowered code."""
    if x.shape[0] == 0:
        return out
    for i in range(x.shape[0]):
        out[i] = x[i] * 2.0
    return out


def identity(x):
    """Returns its argument itself: no element-wise copy."""
    return x


class Residual(nn.Cell):
    """x @ W.T + b, then + x: an element-wise add of two matrices on the device."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(8, 8)

    def construct(self, x):
        return self.dense(x) + x


def ratios(x, y, out):
    """NumPy scalars divided: NumPy's rules (transpiler.helpers.numpy_arith) on the CPU, the plain
    operators with a flagged zero divisor on the GPU."""
    for i in range(x.shape[0]):
        out[i] = x[i] / y[i] + x[i] // y[i] + x[i] % y[i]
    return out


def local_named_weak(x):
    """A local variable named like the IR form ``weak``: the namer renames the form's symbol
    (``weak_1``), which the CUDA backend must still recognise (NEP 50: float32 stays)."""
    weak = 2
    return x * 3 + weak


def squares(a, x, out):
    """A loop kernel with a power of a Python float (graphjit's checked_pow: libm's pow,
    hidden from LLVM by transpiler.ir.opaque on the CPU, dropped on the device)."""
    for i in range(x.shape[0]):
        out[i] = x[i] * (a + i) ** 2.0
    return out
