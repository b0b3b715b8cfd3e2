"""Loop kernels for ``make bench``, each written once as plain Python (loops, scalars, NumPy).

The driver runs every kernel three ways on the same inputs: as plain Python, as ``tp.jit(fn)``
and as ``numba.njit(fn)`` (the same function object compiled by Numba directly, the hand-written
baseline). The kernels keep to what graphjit converts today (no try/with/lambda/nested def,
*args, recursion or ``global``) and contain no Numba. ``KERNELS`` lists each kernel with a
benchmark input (plain Python takes roughly 20-200 ms on it) and a small input for timing the
transpiler.
"""
import math

import numpy as np


def collatz_steps(limit):
    """Total Collatz steps of 1..limit-1: nested while loops, a data-dependent branch."""
    total = 0
    n = 1
    while n < limit:
        k = n
        while k != 1:
            if k % 2 == 0:
                k = k // 2
            else:
                k = 3 * k + 1
            total += 1
        n += 1
    return total


def mandelbrot(width, height, max_iter):
    """Escape counts of a height x width grid over [-2, 1] x [-1.5, 1.5]: an int64 array."""
    counts = np.zeros((height, width), np.int64)
    for row in range(height):
        ci = -1.5 + 3.0 * row / (height - 1)
        for col in range(width):
            cr = -2.0 + 3.0 * col / (width - 1)
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            counts[row, col] = n
    return counts


def prefix_sums_with_resets(values):
    """Running sums of ``values`` that restart from 0 whenever the sum drops below 0."""
    out = np.empty(values.shape[0], np.float64)
    running = 0.0
    for i in range(values.shape[0]):
        running += values[i]
        if running < 0.0:
            running = 0.0
        out[i] = running
    return out


def newton_sqrt(values, tol):
    """Square roots by Newton's iteration, stopping at relative change <= tol (<= 100 steps)."""
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        v = values[i]
        x = v if v > 1.0 else 1.0
        for _ in range(100):
            nxt = 0.5 * (x + v / x)
            if abs(nxt - x) <= tol * nxt:
                x = nxt
                break
            x = nxt
        out[i] = x
    return out


def insertion_sort(values):
    """A sorted copy of ``values`` by insertion sort (``values`` is left unchanged)."""
    a = values.copy()
    for i in range(1, a.shape[0]):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


def pairwise_distances(points):
    """The (n, n) matrix of Euclidean distances between the rows of ``points`` (n, d)."""
    n = points.shape[0]
    d = points.shape[1]
    out = np.zeros((n, n), np.float64)
    for i in range(n):
        for j in range(i + 1, n):
            s = 0.0
            for k in range(d):
                diff = points[i, k] - points[j, k]
                s += diff * diff
            dist = math.sqrt(s)
            out[i, j] = dist
            out[j, i] = dist
    return out


def count_primes(limit):
    """How many primes are below ``limit`` (sieve of Eratosthenes on a bool array)."""
    if limit < 3:
        return 0
    sieve = np.ones(limit, np.bool_)
    sieve[0] = False
    sieve[1] = False
    p = 2
    while p * p < limit:
        if sieve[p]:
            for m in range(p * p, limit, p):
                sieve[m] = False
        p += 1
    count = 0
    for i in range(limit):
        if sieve[i]:
            count += 1
    return count


def _inputs():
    rng = np.random.default_rng(0)
    return [
        # (function, benchmark arguments, small arguments for the transpile-time section)
        (collatz_steps, (20000,), (10,)),
        (mandelbrot, (160, 120, 100), (4, 3, 5)),
        (prefix_sums_with_resets, (rng.standard_normal(400_000),), (np.ones(4),)),
        (newton_sqrt, (rng.uniform(1.0, 1e6, 20_000), 1e-12), (np.ones(4), 1e-12)),
        (insertion_sort, (rng.standard_normal(1500),), (np.ones(4),)),
        (pairwise_distances, (rng.standard_normal((300, 3)),), (np.ones((3, 2)),)),
        (count_primes, (300_000,), (10,)),
    ]


KERNELS = _inputs()


# float32 kernels whose variables hold a Python float on one path and an np.float32 on
# another (README, "Types by path"): NumPy 2 computes them in float32, numba.njit in float64.

def relu_into(values, out):
    for i in range(values.shape[0]):
        out[i] = max(0.0, values[i])
    return out


def clip_into(values, out, lo, hi):
    for i in range(values.shape[0]):
        v = values[i]
        if v < lo:
            v = lo
        elif v > hi:
            v = hi
        out[i] = v
    return out


def float32_total(values):
    s = 0.0
    for i in range(values.shape[0]):
        s += values[i]
    return s


def float32_norm(values):
    s = 0.0
    for i in range(values.shape[0]):
        s += values[i] * values[i]
    return math.sqrt(s)


def _float32_inputs():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(4_000_000).astype(np.float32)
    out = np.empty_like(x)
    return [(relu_into, (x, out)), (clip_into, (x, out, -0.5, 0.5)),
            (float32_total, (x,)), (float32_norm, (x,))]


FLOAT32_KERNELS = _float32_inputs()


def mixed_with_report(values, steps):
    """Region-level fallback: a hot loop, then a report graphjit cannot compile (a dict, a
    format spec, json). graphjit compiles the loop and runs the report as Python."""
    import json
    acc = 0.0
    for step in range(steps):
        for i in range(values.shape[0]):
            acc += values[i] * (step % 7) * 0.001
    report = {"acc": f"{acc:.3f}", "steps": steps}
    return acc, json.dumps(report)
