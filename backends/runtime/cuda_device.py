"""Device functions that generated kernels call (numba-cuda ``cuda.jit(device=True)``).

Kernels cannot raise (numba-cuda ignores ``raise`` in device code unless compiled with
``debug=True``), so where Python would raise -- an index out of range, a zero divisor, the
``raise`` of a helper -- device code sets ``err[0] = 1`` and goes on with a harmless value. The
host sees the flag after the launch, drops the device copies (the host arrays are untouched) and
runs the same loop on the CPU, which raises exactly as Python does (``cuda``).
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


# Python-int arithmetic (transpiler.ir.CHECKED_INT) in device code: an int64 overflow sets the
# flag (the CPU rerun then raises or runs the call as Python). The test comes before the
# operation and uses comparisons only, so it types for floats too (a value no analysis typed
# may be one): a float beyond the int64 range is flagged as well, and the CPU rerun computes it
# as usual. No signed overflow is ever executed (LLVM's `nsw` would make it undefined).
_MAX = 9223372036854775807
_MIN = -9223372036854775807 - 1


@cuda.jit(device=True)
def gj_int_add(a, b, err):
    if (b > 0 and a > _MAX - b) or (b < 0 and a < _MIN - b):
        err[0] = 1
        return a - a
    return a + b


@cuda.jit(device=True)
def gj_int_sub(a, b, err):
    if (b < 0 and a > _MAX + b) or (b > 0 and a < _MIN + b):
        err[0] = 1
        return a - a
    return a - b


@cuda.jit(device=True)
def gj_int_mul(a, b, err):
    if a == 0 or b == 0:
        return a * b
    if a == _MIN or b == _MIN:
        if a != 1 and b != 1:
            err[0] = 1
            return a - a
        return a * b
    x = a if a > 0 else -a
    y = b if b > 0 else -b
    if x > _MAX // y:
        err[0] = 1
        return a - a
    return a * b


@cuda.jit(device=True)
def gj_int_neg(a, err):
    if a == _MIN:
        err[0] = 1
        return a - a
    return -a


@cuda.jit(device=True)
def gj_int_abs(a, err):
    if a == _MIN:
        err[0] = 1
        return a - a
    return abs(a)


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
