"""Lists made in compiled code and returned (issue 14): Numba boxes a list's int64/float64
elements as Python numbers and its int8/float32... elements too (it reads them back as its own
types), where the plain call returns the NumPy scalars it appended. A list result (or an element
read from one) whose elements may be NumPy scalars or are untyped runs as Python; one of Python
numbers compiles. Every call equals plain: values, element types and dtypes."""
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_compiles_same, assert_same_outcome, outcome

DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_]


def appended(a):
    out = []
    for v in a:
        out.append(v)
    return out


def doubled_first(a):
    out = []
    for i in range(len(a)):
        out.append(a[i] * 2)
    return len(out), out[0]


def stored(a):
    out = [0.0] * 3
    out[1] = a[0]
    return out


def comprehension(a):
    return [v for v in a]


def inserted(a, x):
    out = [1, 2]
    out.insert(0, x)
    return out


def python_ints(n):
    out = []
    for i in range(n):
        out.append(i * 2)
    return out


def python_floats(x, y):
    return [x + 1.0, y * 0.5]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fn", [appended, doubled_first, stored, comprehension])
def test_a_list_of_numpy_elements_equals_plain(fn, dtype):
    a = np.arange(1, 4).astype(dtype)
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(fn, (a,)), *outcome(jitted, (a,)))


@pytest.mark.parametrize("x", [np.int8(3), np.float32(0.5), np.float64(2.0), 3, 2.5, True])
def test_an_inserted_element_keeps_its_type(x):
    jitted = tp.jit(inserted)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(inserted, (x,)), *outcome(jitted, (x,)))


def test_lists_of_python_numbers_compile():
    assert_compiles_same(python_ints, 5)
    assert_compiles_same(python_floats, 1.0, 3.0)


def sorted_result(a):
    out = []
    for v in a:
        out.append(v)
    return sorted(out)


def aliased(a):
    out = []
    for v in a:
        out.append(v)
    res = out
    return res


def annotated(a):
    out: list = []
    for v in a:
        out.append(v)
    return out


def unpacked(a):
    out, n = [], 0
    for v in a:
        out.append(v)
        n += 1
    return out, n


def nested(a):
    out = []
    for v in a:
        out.append(v)
    return 1, (out, 2)


def arithmetic(a):
    out = []
    for v in a:
        out.append(v)
    return out[0] + 1, sum(out), max(out)


def handed_to_numpy(a):
    out = []
    for v in a:
        out.append(v * 2)
    return np.array(out), len(out)


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.int64, np.uint16],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("fn", [sorted_result, aliased, annotated, unpacked, nested,
                                arithmetic, handed_to_numpy])
def test_every_way_a_list_reaches_a_result(fn, dtype):
    a = np.arange(1, 4).astype(dtype)
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_same_outcome(*outcome(fn, (a,)), *outcome(jitted, (a,)))
