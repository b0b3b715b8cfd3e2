"""Loop kernels of the parallel section of ``make bench`` (benchmarks/parallel_bench.py).

Each kernel is plain Python with ``range`` loops (what ``tp.jit(fn, parallel=True)`` gets); its
``*_prange`` twin is the same code written for ``numba.njit(parallel=True)`` by hand, the user
marking the parallel loop with ``prange`` (which Numba trusts).
"""
import math

import numpy as np
from numba import prange


def trig_map(a, out):
    """Independent loop, compute-bound: NumPy scalar functions per element."""
    for i in range(a.shape[0]):
        out[i] = np.sqrt(a[i]) * np.sin(a[i]) + np.cos(a[i])
    return out


def trig_map_prange(a, out):
    for i in prange(a.shape[0]):
        out[i] = np.sqrt(a[i]) * np.sin(a[i]) + np.cos(a[i])
    return out


def math_map(a, out):
    """Independent loop whose iterations may raise (math.sqrt, math.sin: ValueError for a
    domain error, as Python): parallel with the raise deferred (backends/parallel_deferred.py)."""
    for i in range(a.shape[0]):
        out[i] = math.sqrt(a[i] * a[i] + 1.0) * math.sin(a[i])
    return out


def math_map_prange(a, out):
    for i in prange(a.shape[0]):
        out[i] = math.sqrt(a[i] * a[i] + 1.0) * math.sin(a[i])
    return out


def mandelbrot(xs, ys, maxiter, out):
    """Independent loop nest: escape-time iterations per pixel (a while loop inside)."""
    for i in range(ys.shape[0]):
        for j in range(xs.shape[0]):
            cr, ci = xs[j], ys[i]
            zr, zi = 0.0, 0.0
            k = 0
            while k < maxiter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[i, j] = k
    return out


def mandelbrot_prange(xs, ys, maxiter, out):
    for i in prange(ys.shape[0]):
        for j in range(xs.shape[0]):
            cr, ci = xs[j], ys[i]
            zr, zi = 0.0, 0.0
            k = 0
            while k < maxiter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[i, j] = k
    return out


def multiples(x):
    """Integer reduction: the sum of the elements divisible by 3."""
    c = 0
    for i in range(x.shape[0]):
        if x[i] % 3 == 0:
            c += x[i]
    return c


def multiples_prange(x):
    c = 0
    for i in prange(x.shape[0]):
        if x[i] % 3 == 0:
            c += x[i]
    return c


def pairwise(X):
    """Pairwise Euclidean distances into a fresh array (outer loop parallel)."""
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


def pairwise_prange(X):
    n, m = X.shape
    D = np.empty((n, n))
    for i in prange(n):
        for j in range(n):
            d = 0.0
            for k in range(m):
                t = X[i, k] - X[j, k]
                d += t * t
            D[i, j] = np.sqrt(d)
    return D


def axpy_exp(a, b, out):
    """An element-wise expression written as a loop: out = a * exp(-b) + b."""
    for i in range(a.shape[0]):
        out[i] = a[i] * np.exp(-b[i]) + b[i]
    return out


def axpy_exp_prange(a, b, out):
    for i in prange(a.shape[0]):
        out[i] = a[i] * np.exp(-b[i]) + b[i]
    return out


def blur(a, out):
    """A 2-D stencil (memory-bound: reported, not a goal)."""
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) * 0.25
    return out


def blur_prange(a, out):
    for i in prange(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) * 0.25
    return out


def scale(a, out):
    """The break-even sweep's loop: one multiply-add per element."""
    for i in range(a.shape[0]):
        out[i] = a[i] * 2.0 + 1.0
    return out


def scale_prange(a, out):
    for i in prange(a.shape[0]):
        out[i] = a[i] * 2.0 + 1.0
    return out
