"""The whole-array kernels of ``make bench`` (benchmarks/array_kernels.py): ``tp.jit(fn)`` gives
plain NumPy's result (same type, dtype and bits) on small inputs: each is straight-line array
code, which runs as a NumPy graph (backends/numpy_graph.py), so NumPy computes every value.
``explain()`` reports on each.

With the graph turned off (``set_context(numpy_graph=False)``) Numba compiles them; where a
kernel is known to differ in the last bits then, ``DIFFERS`` says why; its values are compared
to a few ulps (its type and dtype still exactly), and a bit-exact check is an expected failure.
"""
import functools
import os
import sys
import warnings

import numpy as np
import pytest

import transpiler as tp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "benchmarks"))
import array_kernels  # noqa: E402 - from benchmarks/, above

# (np.sum/mean of float arrays are NumPy's pairwise sums on the Numba path too:
# transpiler/helpers/numpy_reductions.py; vector_norm and rosenbrock are bit-equal since.
# np.exp/tanh/sin/cos/arctan2 call NumPy's own loops (transpiler.ir.ufunc_loop): logsumexp,
# gelu and arc_distance, which differed by libm's last bit, are bit-equal since.)
DIFFERS = {}  # the kernels whose small-input results differ today when Numba compiles them
# A few ulps of the result's dtype, relative: what the reasons above can change.
RTOL = {np.dtype(np.float64): 1e-13, np.dtype(np.float32): 1e-5}

# Found by this test, not a documented difference: the result's type is wrong (to fix).
WRONG_TYPE = {}   # matrix_norms returned a Python float: its sums are NumPy scalars since


NAMES = [name for name, _, _ in array_kernels.ARRAY_KERNELS]
KERNELS = {name: (fn, make) for name, fn, make in array_kernels.ARRAY_KERNELS}


@functools.lru_cache(maxsize=None)
def jitted(fn, graph=True):
    """One ``tp.jit`` per kernel function and path, shared by its float64 and float32
    variants (``set_context(numpy_graph=)`` applies to specializations made after it)."""
    return tp.jit(fn)


def results(name, graph=True):
    fn, make = KERNELS[name]
    expected = fn(*make("small"))
    tp.set_context(numpy_graph=graph)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)  # a fallback must still be equal
        got = jitted(fn, graph)(*make("small"))
    return expected, got


@pytest.mark.parametrize("name", NAMES)
def test_same_bits_as_plain_as_a_numpy_graph(name):
    expected, got = results(name)
    assert type(got) is type(expected), f"{type(got).__name__} != {type(expected).__name__}"
    got_a, expected_a = np.asarray(got), np.asarray(expected)
    assert got_a.dtype == expected_a.dtype and got_a.shape == expected_a.shape
    np.testing.assert_array_equal(got_a, expected_a, strict=True)
    assert got_a.tobytes() == expected_a.tobytes()
    assert "NumPy graph" in str(jitted(KERNELS[name][0], True).explain())


def _param(name):
    if name in WRONG_TYPE:
        return pytest.param(name, marks=pytest.mark.xfail(reason=WRONG_TYPE[name],
                                                          strict=False))
    return name


@pytest.mark.parametrize("name", [_param(n) for n in NAMES])
def test_numba_path_same_as_plain(name):
    expected, got = results(name, graph=False)
    assert type(got) is type(expected), f"{type(got).__name__} != {type(expected).__name__}"
    got_a, expected_a = np.asarray(got), np.asarray(expected)
    assert got_a.dtype == expected_a.dtype
    assert got_a.shape == expected_a.shape
    if name in DIFFERS:
        np.testing.assert_allclose(got_a, expected_a, rtol=RTOL[expected_a.dtype], atol=0)
    else:
        np.testing.assert_array_equal(got_a, expected_a, strict=True)


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(reason=DIFFERS[n], strict=False))
    for n in NAMES if n in DIFFERS])
def test_numba_path_bit_equal_where_documented_to_differ(name):
    expected, got = results(name, graph=False)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected), strict=True)


@pytest.mark.parametrize("fn", list(dict.fromkeys(fn for fn, _ in KERNELS.values())),
                         ids=lambda fn: fn.__name__)
def test_explain(fn):
    name = fn.__name__
    results(name)  # explain() reports on the calls made
    report = jitted(fn, True).explain()
    assert report.rows
    assert all(row.status in ("compiled", "python", "gpu") or (
        row.region == "tiers" and row.status in ("plain", "tier 0", "tier 1", "racing"))
        for row in report.rows)
    assert all(row.reason or row.status == "compiled" for row in report.rows)
    assert name in str(report)


def test_inputs_are_small_and_cover_both_dtypes():
    assert len({fn for fn, _ in KERNELS.values()}) >= 12
    for name, (fn, make) in KERNELS.items():
        args = make("small")
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        assert arrays and all(a.size <= 100 for a in arrays), name
        want = np.float32 if name.endswith("[float32]") else np.float64
        assert all(a.dtype == want for a in arrays), name
