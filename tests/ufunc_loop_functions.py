"""Functions calling the ufuncs whose float and complex loops are NumPy's own code
(analysis.numpy_scalars.LOOP_UFUNCS, COMPLEX_LOOP_UFUNCS), for tests/test_ufunc_loops.py."""
import numpy as np

UNARY = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
         "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
         "arctanh", "cbrt", "deg2rad", "rad2deg", "degrees", "radians")
BINARY = ("arctan2", "hypot", "logaddexp", "logaddexp2", "power", "fmax", "fmin")
COMPLEX_UNARY = ("exp", "log", "sin", "cos", "tanh", "arcsinh", "sqrt", "sign", "absolute",
                 "square", "reciprocal")


def unary_elements(a, out):
    """Every unary loop ufunc of each element of 1-D ``a`` into row k of ``out``."""
    for i in range(a.shape[0]):
        x = a[i]
        out[0, i] = np.exp(x)
        out[1, i] = np.exp2(x)
        out[2, i] = np.expm1(x)
        out[3, i] = np.log(x)
        out[4, i] = np.log2(x)
        out[5, i] = np.log10(x)
        out[6, i] = np.log1p(x)
        out[7, i] = np.sin(x)
        out[8, i] = np.cos(x)
        out[9, i] = np.tan(x)
        out[10, i] = np.arcsin(x)
        out[11, i] = np.arccos(x)
        out[12, i] = np.arctan(x)
        out[13, i] = np.sinh(x)
        out[14, i] = np.cosh(x)
        out[15, i] = np.tanh(x)
        out[16, i] = np.arcsinh(x)
        out[17, i] = np.arccosh(x)
        out[18, i] = np.arctanh(x)
        out[19, i] = np.cbrt(x)
        out[20, i] = np.deg2rad(x)
        out[21, i] = np.rad2deg(x)
        out[22, i] = np.degrees(x)
        out[23, i] = np.radians(x)
    return out


def binary_elements(a, b, out):
    """Every binary loop ufunc of the elements of 1-D ``a`` and ``b`` into rows of ``out``."""
    for i in range(a.shape[0]):
        x = a[i]
        y = b[i]
        out[0, i] = np.arctan2(x, y)
        out[1, i] = np.hypot(x, y)
        out[2, i] = np.logaddexp(x, y)
        out[3, i] = np.logaddexp2(x, y)
        out[4, i] = np.power(x, y)
        out[5, i] = np.fmax(x, y)
        out[6, i] = np.fmin(x, y)
    return out


def complex_elements(a, out):
    """Complex loops (NumPy's npy_math complex code) of each element of 1-D ``a``."""
    for i in range(a.shape[0]):
        z = a[i]
        out[0, i] = np.exp(z)
        out[1, i] = np.log(z)
        out[2, i] = np.sin(z)
        out[3, i] = np.cos(z)
        out[4, i] = np.tanh(z)
        out[5, i] = np.arcsinh(z)
        out[6, i] = np.sqrt(z)
        out[7, i] = np.sign(z)
        out[8, i] = np.absolute(z)
        out[9, i] = np.square(z)
        out[10, i] = np.reciprocal(z)
    return out


def scalar_exp(x):
    return np.exp(x)


def scalar_tanh_sum(x, y):
    return np.tanh(x) + np.arctan2(x, y)


def scalar_power(x, y):
    return x ** y


def scalar_fmax(x, y):
    return np.fmax(x, y)


def whole_arrays(a, b):
    """Whole-array calls: an array of any dtype, the other operand an array or a scalar."""
    return np.tanh(a) * np.exp(a), np.arctan2(a, b), np.hypot(b, a)


def whole_array_in_loop(a, n):
    """A whole-array call inside a loop (the Numba path, never a NumPy graph)."""
    s = a
    for _ in range(n):
        s = np.sin(s) + np.log1p(np.abs(s))
    return s
