"""cmath in compiled code (transpiler/helpers/cmath_checks.py): every function, called plainly
and through one jitted object on arguments from 1e-300 to 1e300, special values (0, inf,
nan, poles) and every argument kind CPython converts (bool, int, float, np.float32, np.int8,
complex, np.complex64): the same value bit for bit (signs of zeros included), the same type,
the same exception class and message."""
import cmath
import math
import warnings

import numpy as np
import pytest

import transpiler as tp

NAMES = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "log",
         "log10", "phase", "polar", "sin", "sinh", "sqrt", "tan", "tanh"]


def _arguments():
    rng = np.random.default_rng(48)
    values = [complex(x, y) for x, y in [(0.0, 0.0), (-0.0, 0.0), (1.0, 0.0), (-1.0, 0.0),
                                         (0.0, 1.0), (1.01, 0.2), (0.99, 0.01), (0.7, 0.7),
                                         (709.0, 1.0), (1e300, 1e300), (math.inf, 0.0),
                                         (0.0, math.nan), (-math.inf, math.inf)]]
    for scale in (1e-300, 1e-20, 1e-8, 0.5, 1.0, 3.0, 700.0, 1e10, 1e19, 1e38, 1e40, 1e300):
        values += [complex(*(rng.normal(size=2) * scale)) for _ in range(25)]
    # the limits where CPython's and Numba's branches change (cmath_checks' constants)
    for limit in (708.3964185322641, 9.223371761976865e+18, 8.5070586659632215e+37,
                  4.4942328371557893e+307, 0.71, 1.73):
        for edge in (np.nextafter(limit, 0), limit, np.nextafter(limit, np.inf)):
            values += [complex(edge, 0.5), complex(-0.5, edge), complex(edge, edge)]
    values += [complex(1.0, 1e-30), complex(-1.0, -1e-25), complex(1e-30, 1.0)]
    return values


ARGUMENTS = _arguments()
# every kind of argument CPython converts to a complex (each its own specialization)
KINDS = [True, False, 2, -3, 0.25, np.float32(1.5), np.int8(-2), np.float64(-0.5),
         np.complex64(1 + 2j)]


def outcome(fn, *args):
    try:
        value = fn(*args)
    except Exception as exc:  # noqa: BLE001 - compared below
        return ("raise", type(exc), str(exc))
    return ("value", type(value), _bits(value))


def _bits(value):
    if isinstance(value, tuple):
        return tuple(_bits(v) for v in value)
    value = complex(value)
    return tuple(np.float64(p).tobytes() if p == p else "nan" for p in (value.real, value.imag))


def c_acos(z):
    return cmath.acos(z)

def c_acosh(z):
    return cmath.acosh(z)

def c_asin(z):
    return cmath.asin(z)

def c_asinh(z):
    return cmath.asinh(z)

def c_atan(z):
    return cmath.atan(z)

def c_atanh(z):
    return cmath.atanh(z)

def c_cos(z):
    return cmath.cos(z)

def c_cosh(z):
    return cmath.cosh(z)

def c_exp(z):
    return cmath.exp(z)

def c_log(z):
    return cmath.log(z)

def c_log10(z):
    return cmath.log10(z)

def c_phase(z):
    return cmath.phase(z)

def c_polar(z):
    return cmath.polar(z)

def c_sin(z):
    return cmath.sin(z)

def c_sinh(z):
    return cmath.sinh(z)

def c_sqrt(z):
    return cmath.sqrt(z)

def c_tan(z):
    return cmath.tan(z)

def c_tanh(z):
    return cmath.tanh(z)


def make(name):
    return globals()["c_" + name]


@pytest.mark.parametrize("name", NAMES)
def test_cmath_functions_as_cpython_computes_them(name):
    plain = make(name)
    jitted = tp.jit(plain)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for z in ARGUMENTS + (KINDS if name in ("cos", "log", "sqrt", "atanh") else []):
            assert outcome(jitted, z) == outcome(plain, z), (name, z)
    # a finite argument, a finite result: compiled (not run as Python)
    rows = jitted.explain().rows
    assert any(r.status == "compiled" for r in rows), str(jitted.explain())


def log_base(z, base):
    return cmath.log(z, base)


def rect(r, phi):
    return cmath.rect(r, phi)


@pytest.mark.parametrize("fn, pairs", [
    (log_base, [(2.0, 10.0), (1 + 1j, 2j), (True, True), (1.0, 1.0), (0.0, 2.0), (3.0, 0.0),
                (np.float32(2.5), 3), (1e300 + 1e300j, 7.0)]),
    (rect, [(1.0, 0.5), (2, 3), (True, -0.0), (math.inf, 0.0), (1.0, math.inf),
            (np.float32(1.5), np.float32(0.25)), (1e308, 1e308)])])
def test_two_argument_cmath_functions(fn, pairs):
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for a, b in pairs:
            assert outcome(jitted, a, b) == outcome(fn, a, b), (fn.__name__, a, b)


def exp_sum(z):
    total = 0j
    for i in range(z.shape[0]):
        total += cmath.exp(z[i]) * cmath.log(z[i] + 2.0)
    return total


def test_cmath_in_a_loop_compiles_and_an_overflow_raises_as_python():
    z = np.linspace(-2, 2, 50) + 0.5j
    jitted = tp.jit(exp_sum)
    assert outcome(jitted, z) == outcome(exp_sum, z)
    assert all(r.status == "compiled" for r in jitted.explain().rows), str(jitted.explain())
    big = z.copy()
    big[7] = 1000.0          # cmath.exp overflows: OverflowError, as CPython raises it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert outcome(jitted, big) == outcome(exp_sum, big)


def test_the_limits_are_cpythons_and_numbas():
    """cmath_checks' constants are CPython's (cmathmodule.c: DBL_MAX / 4, its log) and
    Numba's (cmathimpl.py: FLT_MAX / 4, sqrt(FLT_MAX / 4), sqrt(FLT_MIN)) exactly."""
    from numba.cpython import mathimpl

    from transpiler.helpers import cmath_checks as c
    assert c._LARGE == np.finfo(np.float64).max / 4
    assert c._LOG_LARGE == math.log(np.finfo(np.float64).max / 4)
    assert c._DBL_MIN == np.finfo(np.float64).tiny and c._MANT_DIG == 53
    assert c._LN2 == math.log(2) and c._LN10 == math.log(10)
    assert c._FLT_LARGE == float(mathimpl.FLT_MAX / 4)
    assert c._FLT_SQRT_LARGE == math.sqrt(mathimpl.FLT_MAX / 4)
    assert c._FLT_SMALL == math.sqrt(mathimpl.FLT_MIN)
