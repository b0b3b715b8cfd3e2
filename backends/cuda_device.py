"""Device functions that generated kernels call (numba-cuda ``cuda.jit(device=True)``).

Kernels cannot raise (numba-cuda ignores ``raise`` in device code unless compiled with
``debug=True``), so where Python would raise -- an index out of range, a zero divisor, the
``raise`` of a helper -- device code sets ``err[0] = 1`` and goes on with a harmless value. The
host sees the flag after the launch, drops the device copies (the host arrays are untouched) and
runs the same loop on the CPU, which raises exactly as Python does (``cuda_runtime``).
"""
from numba import cuda


@cuda.jit(device=True)
def gj_index(i, n, err):
    """Python's index rule for one dimension of length ``n``: negative counts from the end;
    out of range sets the error flag and gives 0 (a valid address)."""
    if i < 0:
        i += n
    if i < 0 or i >= n:
        err[0] = 1
        return i - i
    return i


@cuda.jit(device=True)
def gj_nonzero(d, err):
    """``d`` unchanged; a zero divisor sets the error flag (Python raises ZeroDivisionError
    for Python numbers; NumPy scalars give inf/nan: the CPU rerun decides which)."""
    if d == 0:
        err[0] = 1
    return d


@cuda.jit(device=True)
def gj_maximum(a, b):
    """``np.maximum`` of two scalars: a NaN in either gives NaN (unlike Python's max)."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


@cuda.jit(device=True)
def gj_minimum(a, b):
    """``np.minimum`` of two scalars: a NaN in either gives NaN (unlike Python's min)."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a <= b else b
