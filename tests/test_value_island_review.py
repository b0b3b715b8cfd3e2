"""A review tried to break value islands, island reads of merged numbers, keyword typing and
cmath (each case below gave a wrong answer or a crash before its fix). Each runs plainly and
through one jitted object three times (the 2nd and 3rd calls of a region with islands run
compiled and as Python), comparing values, types, dtypes, bytes, mutated arguments and
exception classes."""
import cmath
import math
import warnings

import numpy as np
import pytest

import transpiler as tp


def strict(a, b, where="result"):
    assert type(a) is type(b), (where, a, b)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            strict(x, y, f"{where}[{k}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            strict(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), where
    elif isinstance(a, float) and a != a:
        assert b != b, where
    else:
        assert a == b or (a != a and b != b), (where, a, b)


def run(fn, make, calls=3):
    jitted = tp.jit(fn)
    for _ in range(calls):
        plain_args, jit_args = make(), make()
        try:
            expected = ("value", fn(*plain_args))
        except Exception as exc:  # noqa: BLE001 - compared below
            expected = ("raise", type(exc))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                actual = ("value", jitted(*jit_args))
            except Exception as exc:  # noqa: BLE001 - compared below
                actual = ("raise", type(exc))
        assert expected[0] == actual[0], (expected, actual)
        if expected[0] == "value":
            strict(expected[1], actual[1])
        else:
            assert expected[1] is actual[1]
        for p, j in zip(plain_args, jit_args):
            strict(p, j, "argument")
    jitted.explain()        # (it crashed after a region raised at its 2nd call)
    return jitted


X = np.random.default_rng(0).random((3, 5))


def squeezed(X):
    total = 0.0
    for j in range(X.shape[0]):
        v = np.squeeze(X[j:j + 1])      # its ndim depends on the shape
        total += v.sum()
    return total


def emath_sqrt(x):
    s = 0.0
    for j in range(x.shape[0]):
        r = np.emath.sqrt(x[j])         # complex for a negative value
        s = s + r
    return s


def big_endian(X):
    s = 0.0
    for j in range(X.shape[0]):
        w = X[j].astype(">f8")
        s = s + w[0]
    return s


def read_only(X):
    for j in range(X.shape[0]):
        w = np.lib.stride_tricks.as_strided(X[j], shape=(2,), strides=(0,), writeable=False)
        w[1] = 3.0
    return X


def big_int(n):
    total = 0
    for j in range(n):
        t = math.comb(70, j)            # beyond int64
        total = total + (t > 5)
    return total


def rounded(x):
    r = x[0]
    for j in range(x.shape[0]):
        r = np.round(x[j], decimals=1)
    return r


def window(X):
    for j in range(X.shape[0]):
        w = np.lib.stride_tricks.sliding_window_view(X[j], window_shape=2)
        w[0, 1] = 7.0
    return X


def covariances(X):
    s = 0.0
    for j in range(X.shape[0]):
        s = s + np.cov(X[j], ddof=1)
    return s


def argsorted(x):
    return np.argsort(x), x.argsort()


def stepped(a, b, c):
    return np.arange(a, b, c), np.arange(a, b, c, dtype=np.float32)


def recursive(X, depth, d, f):
    for j in range(X.shape[0]):
        if depth > 0 and j == 0:
            d["sub"] = f(X, depth - 1, {}, f)
        d[j] = X[j, 0] * 2
    return d


@pytest.mark.parametrize("fn, make", [
    (squeezed, lambda: (X.copy(),)), (emath_sqrt, lambda: (np.array([0.25, -0.25]),)),
    (big_endian, lambda: (X.copy(),)), (read_only, lambda: (X.copy(),)),
    (big_int, lambda: (40,)), (rounded, lambda: (np.array([8.72, 1.25], np.float32),)),
    (rounded, lambda: (np.array([15, 27], np.int8),)), (window, lambda: (X.copy(),)),
    (covariances, lambda: (np.random.default_rng(24).random((4, 37)) * 10,)),
    (argsorted, lambda: (np.array([1.0, 0.0] * 20 + [0.5] * 5),)),
    (stepped, lambda: (1, 2.2, 0.3)), (stepped, lambda: (-3.7, 9.1, 0.7))])
def test_review_cases(fn, make):
    run(fn, make)


def test_a_recursive_call_from_an_island_keeps_its_own_frames():
    jitted = tp.jit(recursive)
    for _ in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            strict(recursive(X, 1, {}, recursive), jitted(X, 1, {}, jitted))


@pytest.mark.parametrize("fn, z", [(cmath.sqrt, complex(-9.8e-322, 3.1735084e-316)),
                                   (cmath.phase, complex(1e10, 1e-320)),
                                   (cmath.polar, complex(1e10, -1e-320))])
def test_cmath_subnormal_and_underflow(fn, z):
    run(_CMATH[fn], lambda: (z,))


def c_sqrt(z):
    return cmath.sqrt(z)


def c_phase(z):
    return cmath.phase(z)


def c_polar(z):
    return cmath.polar(z)


_CMATH = {cmath.sqrt: c_sqrt, cmath.phase: c_phase, cmath.polar: c_polar}
