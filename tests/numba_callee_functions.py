"""Functions calling ``numba.njit`` functions (issue 20), for tests/test_numba_callees.py."""
import numba
import numpy as np


@numba.njit
def affine(x):
    return x * 2.0 + 1.0


@numba.njit
def same_type(x):
    return x + x


@numba.njit
def to_float32(x):
    return np.float32(x) * np.float32(0.1)


@numba.njit
def to_int8(x):
    return np.int8(x)


@numba.njit
def to_uint64(x):
    return np.uint64(x)


@numba.njit
def is_positive(x):
    return x > 0


@numba.njit
def to_complex64(x):
    return np.complex64(x) * np.complex64(1j)


@numba.njit
def doubled(a):
    return a * 2


@numba.njit
def scale_in_place(a, k):
    for i in range(a.shape[0]):
        a[i] *= k


@numba.njit
def pair(x):
    return x, x + 1


@numba.njit(boundscheck=True)   # unchecked, a[5] reads past the array: nothing to compare
def fails_on_index(a, i):
    return a[i]


def loop_affine(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += affine(a[i])
    return s


def call_same_type(x):
    return same_type(x)


def call_float32(x):
    y = to_float32(x)
    return y, y + np.float32(1.0)


def call_int8(x):
    k = to_int8(x)
    return k + 1, k * 1000


def call_uint64(x):
    return to_uint64(x)


def call_bool(a):
    n = 0
    for i in range(a.shape[0]):
        if is_positive(a[i]):
            n += 1
    return n


def call_complex64(x):
    return to_complex64(x)


def call_array(a):
    b = doubled(a)
    t = b[0]
    for i in range(1, b.shape[0]):
        t = t + b[i] * 2
    return b, t


def call_mutating(a, k):
    scale_in_place(a, k)
    return a.sum()


def call_tuple(x):
    return pair(x)


def call_raises(a, i):
    total = 0.0
    for j in range(i):
        total += fails_on_index(a, j)
    return total


@numba.njit
def ident(x):
    return x


def ident_then_subtract(x):
    y = x * 2
    return ident(y) - 1


def ident_twice(x):
    return ident(x) + ident(x + 1)
