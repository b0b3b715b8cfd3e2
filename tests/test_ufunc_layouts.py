"""Every ufunc graphjit computes by NumPy's own inner loop (analysis/numpy_scalars.LOOP_UFUNCS)
over every operand layout (C, F, strided, reversed, broadcast, 0-d), in a function that
stores into its argument (so the call can never run again as Python): the same bits as the
plain call. Where NumPy's iterator would call the loop several times, compiled code calls
NumPy's ufunc itself (backends/runtime/ufunc_loops._gj_numpy_call); before, those raised
ValueError where the plain call returns (``a[1:-1, 1:-1] = np.exp(a[1:-1, 1:-1])``).

``make test`` runs a sample; ``make test-layouts`` (GRAPHJIT_LAYOUTS_FULL=1) every ufunc and
dtype."""
import os
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler.analysis.numpy_scalars import LOOP_UFUNCS

FULL = os.environ.get("GRAPHJIT_LAYOUTS_FULL") == "1"
UNARY = tuple(sorted((u for u in LOOP_UFUNCS if u.nin == 1), key=lambda u: u.__name__))
BINARY = tuple(sorted((u for u in LOOP_UFUNCS if u.nin == 2), key=lambda u: u.__name__))
if not FULL:
    UNARY = (np.exp, np.tanh, np.log1p)
    BINARY = (np.arctan2, np.fmax)


def stores_unary(dst, a):
    i = 0
    for u in UNARY:
        dst[i] = u(a)
        i += 1
    return dst


def stores_binary(dst, a, b):
    i = 0
    for u in BINARY:
        dst[i] = u(a, b)
        i += 1
    return dst


def interior_exp(a):
    a[1:-1, 1:-1] = np.exp(a[1:-1, 1:-1])
    return a


def _base(dtype):
    values = np.linspace(0.05, 0.95, 6 * 8)
    values[3] = -0.0
    values[7] = 0.0
    if np.dtype(dtype).kind == "c":
        values = values + 1j * values[::-1]
    return values.reshape(6, 8).astype(dtype)


def layouts(dtype):
    m = _base(dtype)
    return {"C": m, "F": np.asfortranarray(m), "strided": m[:, ::2],
            "reversed": m[::-1, ::-3], "F-strided": np.asfortranarray(m)[1:, ::2],
            "transposed": m.T}


DTYPES = [np.float64, np.float32]    # (complex: not every unary loop here is NumPy's code)


def _check(fn, dst_shape, dtype, *operands):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = fn(np.zeros(dst_shape, dtype), *operands)
        warnings.simplefilter("error", tp.FallbackWarning)   # compiled, never Python
        got = tp.jit(fn)(np.zeros(dst_shape, dtype), *operands)
    assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["C", "F", "strided", "reversed", "F-strided",
                                    "transposed"])
def test_unary_loops_over_layouts(dtype, layout):
    a = layouts(dtype)[layout]
    _check(stores_unary, (len(UNARY),) + a.shape, dtype, a)


PAIRS = {   # name -> (a, b) from the layouts of one dtype
    "C,C": lambda m: (m["C"], m["C"][::-1].copy()),
    "F,C": lambda m: (m["F"], m["C"]),
    "strided,reversed": lambda m: (m["strided"], m["C"][::-1, ::-2]),
    "C,row": lambda m: (m["C"], m["C"][2]),                    # 2-D with 1-D
    "column,row": lambda m: (m["C"][:, :1], m["C"][:1, :]),    # (6, 1) with (1, 8)
    "C,0-d": lambda m: (m["C"], np.array(m["C"][1, 1])),       # 0-d: NumPy's scalar operand
    "0-d,F-strided": lambda m: (np.array(m["C"][1, 2]), m["F-strided"]),
}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("pair", list(PAIRS))
def test_binary_loops_over_layouts(dtype, pair):
    a, b = PAIRS[pair](layouts(dtype))
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    _check(stores_binary, (len(BINARY),) + tuple(shape), dtype, a, b)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_interior_of_an_argument(dtype):
    """The issue's stencil: a ufunc of a non-contiguous slice stored into the argument."""
    a = _base(dtype)
    expected = interior_exp(a.copy())
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        got = tp.jit(interior_exp)(a)
    assert got is a and a.tobytes() == expected.tobytes()
