"""Device functions that generated kernels call (numba-cuda ``cuda.jit(device=True)``).

Kernels cannot raise (numba-cuda ignores ``raise`` in device code unless compiled with
``debug=True``), so where Python would raise -- an index out of range, a zero divisor, the
``raise`` of a helper -- device code sets ``err[0] = 1`` and goes on with a harmless value. The
host sees the flag after the launch, drops the device copies (the host arrays are untouched) and
runs the same loop on the CPU, which raises exactly as Python does (``cuda_runtime``).
"""
from numba import cuda, int64, uint64


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


# Python-int arithmetic (transpiler.ir.CHECKED_INT) in device code: computed in uint64 (no
# signed-overflow undefined behaviour for LLVM to exploit), an int64 overflow sets the flag
# (the CPU rerun then raises or runs the call as Python). Hacker's Delight 2-13: a sum
# overflows when both operands' signs differ from the result's.
_MIN = -9223372036854775807 - 1


@cuda.jit(device=True)
def gj_int_add(a, b, err):
    r = int64(uint64(a) + uint64(b))
    if ((a ^ r) & (b ^ r)) < 0:
        err[0] = 1
    return r


@cuda.jit(device=True)
def gj_int_sub(a, b, err):
    r = int64(uint64(a) - uint64(b))
    if ((a ^ b) & (a ^ r)) < 0:
        err[0] = 1
    return r


@cuda.jit(device=True)
def gj_int_mul(a, b, err):
    r = int64(uint64(a) * uint64(b))
    x = int64(a)
    y = int64(b)
    if x == -1:
        if y == _MIN:
            err[0] = 1
    elif x != 0 and r // x != y:
        err[0] = 1
    return r


@cuda.jit(device=True)
def gj_int_neg(a, err):
    if a == _MIN:
        err[0] = 1
        return int64(a)
    return -int64(a)


@cuda.jit(device=True)
def gj_int_abs(a, err):
    if a == _MIN:
        err[0] = 1
        return int64(a)
    return abs(int64(a))


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


def gj_weak(value, like, err):
    """NEP 50 in device code: ``transpiler.ir.weak`` with the error flag. A Python number
    meeting a NumPy dtype takes that dtype; an int out of the dtype's range sets the flag
    (NumPy raises OverflowError; the CPU rerun does). Plain Python: the identity."""
    return value


def _register_weak():
    import numpy as np
    from numba import types
    from numba.extending import overload

    @overload(gj_weak)
    def _gj_weak_typed(value, like, err):
        dtype = getattr(like, "dtype", like)
        numeric = (types.Integer, types.Float, types.Complex)
        if not isinstance(dtype, numeric) or isinstance(value, types.Boolean) or \
                not isinstance(value, numeric):
            return lambda value, like, err: value
        cast = np.dtype(str(dtype)).type
        if isinstance(value, types.Integer) and isinstance(dtype, types.Integer):
            info = np.iinfo(cast)
            low, high = int(info.min), int(info.max)

            def checked(value, like, err):
                if value < low or value > high:
                    err[0] = 1
                return cast(value)
            return checked
        if isinstance(value, types.Float) and isinstance(dtype, types.Integer):
            return lambda value, like, err: value
        if isinstance(value, types.Complex) and not isinstance(dtype, types.Complex):
            return lambda value, like, err: value
        return lambda value, like, err: cast(value)


_register_weak()
