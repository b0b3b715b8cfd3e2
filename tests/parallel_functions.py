"""Loop kernels for the parallel-loop tests (tests/test_parallel.py): graphjit reads their
source, so they live in a real file. Each is plain Python with ``range`` loops; the comment
says what jit(parallel=True) must decide."""
import math

import numpy as np


# -- parallel --------------------------------------------------------------------------------

def affine(a, out):
    """parallel: independent stores out[i]."""
    for i in range(a.shape[0]):
        out[i] = a[i] * 3 + 1
    return out


def ufuncs(a, out):
    """parallel: NumPy scalar functions (NumPy's nan, never an exception)."""
    for i in range(a.shape[0]):
        out[i] = np.sqrt(a[i]) + np.sin(a[i]) * np.cos(a[i])
    return out


def stencil(a, out):
    """parallel: reads a[i - 1], a[i + 1] of an array it does not store to."""
    for i in range(1, a.shape[0] - 1):
        out[i] = a[i - 1] + a[i] + a[i + 1]
    return out


def blur(a, out):
    """parallel (outer loop): a 2-D stencil, the inner loop serial in each iteration."""
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) * 0.25
    return out


def pairwise(X):
    """parallel (outer loop): pairwise distances into a fresh array."""
    n, m = X.shape
    D = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            d = 0.0
            for k in range(m):
                t = X[i, k] - X[j, k]
                d += t * t
            D[i, j] = np.sqrt(d)
    return D


def int_sum(x):
    """parallel: an integer + reduction (wraps as NumPy's integers do, in any order)."""
    s = 0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def count_and_max(x, t):
    """parallel: a conditional count and a max of integers."""
    c = 0
    m = x[0]
    for i in range(x.shape[0]):
        if x[i] > t:
            c += 1
        m = max(m, x[i])
    return c, m


def multiples(x):
    """parallel: a conditional integer sum with a modulo by a constant."""
    c = 0
    for i in range(x.shape[0]):
        if x[i] % 3 == 0:
            c += x[i]
    return c


def strided(a, out, start, step):
    """parallel: range with a start and a step given at run time."""
    for i in range(start, a.shape[0], step):
        out[i] = a[i] * 2
    return out


def product_mod(x):
    """parallel: an integer * reduction."""
    p = 1
    for i in range(x.shape[0]):
        p *= x[i] % 5 + 1
    return p


def typed_sum(x):
    """parallel: a fixed-width integer sum (s = np.int32(s + x[i]) in the generated code),
    accumulated in 64 bits and cast once: the same value modulo 2**32 in any order."""
    s = np.int32(0)
    for i in range(x.shape[0]):
        s += x[i]
    return s


def float_sum(x):
    """serial unless parallel='fast-reductions': a float accumulator."""
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


# -- serial: what the analyses must refuse ----------------------------------------------------

def prefix(a):
    """serial: a carried dependence (a[i] reads a[i - 1] of the previous iteration)."""
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] + a[i]
    return a


def shifted_copy(src, dst):
    """parallel in general, but called as shifted_copy(x[1:], x[:-1]): the stores reach what
    other iterations read (an alias): the run-time check keeps it serial."""
    for i in range(src.shape[0]):
        dst[i] = src[i] * 2
    return dst


def scatter(idx, out):
    """serial: the store's index is a value read from an array."""
    for i in range(idx.shape[0]):
        out[idx[i]] = i
    return out


def divide(a, b, out):
    """serial: an integer division by an array element may raise ZeroDivisionError."""
    for i in range(a.shape[0]):
        out[i] = a[i] // b[i]
    return out


def checked_sqrt(a, out):
    """parallel, its raise deferred: math.sqrt raises ValueError for a negative number."""
    for i in range(a.shape[0]):
        out[i] = math.sqrt(a[i])
    return out


def too_far(a, out, n):
    """parallel in general; with n past the arrays' end the check keeps it serial, which raises
    IndexError at the iteration Python does, with the same elements written before it."""
    for i in range(n):
        out[i] = a[i] + 1
    return out


def wraps_negative(a, out):
    """serial at run time: a[i - 1] at i = 0 reads a[-1] (Python wraps)."""
    for i in range(a.shape[0]):
        out[i] = a[i - 1]
    return out


def last_value(a, out):
    """serial: t, assigned in the loop, is read after it."""
    t = 0.0
    for i in range(a.shape[0]):
        t = a[i] * 2.0
        out[i] = t
    return t


def time_steps(a, steps):
    """outer serial (carried through `a`), inner parallel: each step's loop is independent."""
    b = np.empty_like(a)
    for s in range(steps):
        for i in range(a.shape[0]):
            b[i] = a[i] * 0.5 + 1.0
        a, b = b, a
    return a


def _scaled(a, b):
    return a * b + 1.0


def whole_to_function(out, x):
    """serial: x is used whole (passed to a function): an array operation, unchecked (called
    with x a row of out it would race; with mismatched shapes it raises)."""
    for i in range(out.shape[0]):
        out[i] = _scaled(x, 2.0)
    return out


def row_store(out, x):
    """serial: out[i] is a row (an array), stored from x: a shape error can be raised."""
    for i in range(out.shape[0]):
        out[i] = x
    return out


def whole_read(out, x):
    """serial: x + 1.0 is an array expression."""
    for i in range(out.shape[0]):
        out[i] = x + 1.0
    return out


def sqrt_sin(x, out):
    """parallel, raises deferred: math.sqrt and math.sin are Python's (ValueError for a
    negative square root and for sin(inf)); the issue's loop."""
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i] * x[i] + 1.0) * math.sin(x[i])
    return out


def log_rows(a, out):
    """parallel over rows, raises deferred: math.log of an element <= 0 raises ValueError."""
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = math.log(a[i, j]) + math.sqrt(a[i, j])
    return out


def sqrt_sum(a):
    """serial: a float sum (its order) beside a raising call: not deferred."""
    s = 0.0
    for i in range(a.shape[0]):
        s += math.sqrt(a[i])
    return s


def user_raise(a, out):
    """serial: the user's own raise is not deferred."""
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative")
        out[i] = a[i] * 2.0
    return out


def made_and_read(x, res):
    """parallel, raises deferred: an array made here that the loop reads is saved too (the
    serial rerun reads it; found by review)."""
    tmp = np.zeros_like(x)
    for i in range(x.shape[0]):
        tmp[i] = tmp[i] + x[i]
        res[i] = math.sqrt(tmp[i])
    return tmp


def sqrt_until(x, out):
    """serial: after a deferred raise the iteration would go on with nan, and this while loop
    would never end (found by review): not deferred."""
    for i in range(x.shape[0]):
        y = x[i]
        while not (y <= 1.0):
            y = math.sqrt(y - 2.0)
        out[i] = y
    return out
