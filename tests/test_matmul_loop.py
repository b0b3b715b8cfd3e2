"""``a @ b`` of 2-D arrays in Numba code runs NumPy's own matmul gufunc loop
(backends/runtime/ufunc_loops.py ``_gj_matmul_impl``): NumPy's gemm/syrk/gemv/dot choice and
its OpenBLAS, so the bits of the plain call. Numba's ``@`` (SciPy's BLAS) differed for a
1000 x 3 @ 3 x 1000 product and a 1 x 300 matrix times a 300 x 5 one."""
import warnings

import numpy as np
import pytest

import transpiler as tp

SHAPES = [((1000, 3), (3, 1000)), ((1, 300), (300, 5)), ((5, 300), (300, 1)), ((1, 7), (7, 1)),
          ((8, 1), (1, 9)), ((0, 3), (3, 4)), ((3, 0), (0, 4)), ((64, 78), (78, 51))]


def accumulate(a, b, k):
    out = a @ b
    for _ in range(k):
        out = out + a @ b
    return out


def gram_in_loop(x, k):
    total = np.zeros((x.shape[1], x.shape[1]), x.dtype)
    for _ in range(k):
        xc = x - x[0]
        total = total + xc.T @ xc
    return total


def _layouts(a):
    return {"C": a, "F": np.asfortranarray(a), "strided": np.repeat(a, 2, axis=1)[:, ::2]}


def _same(want, got):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_products_bit_equal_plain(dtype, shapes):
    rng = np.random.default_rng(0)
    (sa, sb) = shapes
    a = rng.standard_normal(sa).astype(dtype)
    b = rng.standard_normal(sb).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(sa).astype(dtype)
        b = b + 1j * rng.standard_normal(sb).astype(dtype)
    jitted = tp.jit(accumulate)
    for la, fa in _layouts(a).items():
        for lb, fb in _layouts(b).items():
            with warnings.catch_warnings():
                warnings.simplefilter("error", tp.FallbackWarning)   # compiled, not Python
                got = jitted(fa, fb, 2)
            _same(accumulate(fa, fb, 2), got)
    assert "ufunc_loop(np.matmul" in jitted.source()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_gram_matrix_is_numpys_syrk(dtype):
    x = np.random.default_rng(1).standard_normal((300, 40)).astype(dtype)
    jitted = tp.jit(gram_in_loop)
    _same(gram_in_loop(x, 3), jitted(x, 3))


def test_mismatched_shapes_raise_as_plain():
    a, b = np.ones((3, 4)), np.ones((5, 2))
    with pytest.raises(ValueError):
        accumulate(a, b, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        with pytest.raises(ValueError):
            tp.jit(accumulate)(a, b, 1)


def matvec(a, v, k):
    out = a @ v
    for _ in range(k):
        out = out + a @ v
    return out


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
@pytest.mark.parametrize("m,n", [(5, 1), (1, 5), (1, 1), (3, 300), (300, 3), (64, 78), (0, 3),
                                 (3, 0)])
def test_products_with_vectors_bit_equal_plain(dtype, m, n):
    """A 1-D operand is NumPy's loop too (its absent dimension 1, stride 0): matrix times
    vector, vector times matrix, vector times vector (a NumPy scalar). Numba's @ differed for
    a complex (5, 1) matrix times a vector (found by review)."""
    rng = np.random.default_rng(2)

    def draw(*shape):
        x = rng.standard_normal(shape).astype(dtype)
        return x + 1j * rng.standard_normal(shape).astype(dtype) if x.dtype.kind == "c" else x
    a, v, w = draw(m, n), draw(n), draw(m)
    jitted = tp.jit(matvec)
    for args in ((a, v), (w, a), (v, v), (np.asfortranarray(a), np.repeat(v, 2)[::2])):
        with warnings.catch_warnings():
            warnings.simplefilter("error", tp.FallbackWarning)
            got = jitted(*args, 2)
        want = matvec(*args, 2)
        assert type(got) is type(want)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    assert "ufunc_loop(np.matmul" in jitted.source()
