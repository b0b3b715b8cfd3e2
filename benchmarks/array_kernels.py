"""Whole-array NumPy kernels for ``make bench`` (section 8) and tests/test_array_kernels.py.

Each kernel is one plain function of array expressions only (no Python loop), of the kind public
NumPy benchmarks use (stencils, broadcasting, reductions, element-wise chains). Each is written
once with ``np``; the JAX way runs the very same code with ``jax.numpy`` as its ``np``
(``with_numpy_module``), so no kernel writes to an array in place (JAX arrays are immutable).

``ARRAY_KERNELS`` lists ``(name, fn, make_args)``: ``make_args(size, dtype)`` builds the inputs,
``size`` ``"bench"`` (plain NumPy takes roughly 0.2-5 ms per call on one core) or ``"small"``
(for the tests). A kernel natural in both float64 and float32 appears twice, ``name[float32]``.
"""
import types

import numpy as np


def jacobi_step(u):
    """One Jacobi sweep of the 2-D Laplace equation on slices; the border is kept."""
    inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return np.concatenate((u[:1, 1:-1], inner, u[-1:, 1:-1]), axis=0)


def pairwise_distances(x):
    """Euclidean distances between the rows of x, by broadcasting (n, 1, d) - (1, n, d)."""
    diff = x[:, None, :] - x[None, :, :]
    return np.sqrt((diff * diff).sum(axis=-1))


def vector_norm(x):
    """The 2-norm of a vector, written out."""
    return np.sqrt(np.sum(x * x))


def matrix_norms(a):
    """Frobenius norm, the max absolute column sum (1-norm) and the max absolute row sum."""
    fro = np.sqrt(np.sum(a * a))
    one = np.max(np.sum(np.abs(a), axis=0))
    inf = np.max(np.sum(np.abs(a), axis=1))
    return fro + one + inf


def rosenbrock(x):
    """The Rosenbrock function of a vector (scipy.optimize.rosen)."""
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def softmax_rows(x):
    """Softmax over each row, shifted by the row's max."""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def logsumexp(x):
    """log(sum(exp(x))) of a vector, shifted by its max."""
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def standardize(x):
    """Each column to zero mean and unit standard deviation."""
    return (x - x.mean(axis=0)) / x.std(axis=0)


def gelu(x):
    """GELU, the tanh approximation: an element-wise chain."""
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def arc_distance(theta_1, phi_1, theta_2, phi_2):
    """Great-circle distances between two sets of points (the classic NumPy/Pythran benchmark)."""
    temp = (np.sin((theta_2 - theta_1) / 2) ** 2
            + np.cos(theta_1) * np.cos(theta_2) * np.sin((phi_2 - phi_1) / 2) ** 2)
    return 2 * np.arctan2(np.sqrt(temp), np.sqrt(1 - temp))


def cosine_similarity(a, b):
    """Cosine similarity of every row of a with every row of b: a matmul and two row norms."""
    na = np.sqrt(np.sum(a * a, axis=1))
    nb = np.sqrt(np.sum(b * b, axis=1))
    return (a @ b.T) / (na[:, None] * nb[None, :])


def diffusion_step(u, nu):
    """One explicit step of 1-D diffusion with periodic boundaries (np.roll)."""
    return u + nu * (np.roll(u, 1) - 2 * u + np.roll(u, -1))


def polynomial(x):
    """A degree-5 polynomial by Horner's rule, element-wise."""
    return 1.0 + x * (-0.5 + x * (0.25 + x * (-0.125 + x * (0.0625 + x * -0.03125))))


def clip_where(x):
    """Negative values halved, large ones clipped: np.where around np.clip."""
    return np.where(x < 0, 0.5 * x, np.clip(x, 0.0, 0.75))


# -- inputs ---------------------------------------------------------------------------------

def _sizes(size, bench, small):
    return bench if size == "bench" else small


def _rng(dtype, *shape, low=-1.0, high=1.0, seed=0):
    return np.random.default_rng(seed).uniform(low, high, shape).astype(dtype)


def _square(size, dtype):
    n = _sizes(size, 400, 9)
    return (_rng(dtype, n, n),)


def _vector(size, dtype, bench=200_000):
    return (_rng(dtype, _sizes(size, bench, 17)),)


def _points(size, dtype):
    return (_rng(dtype, _sizes(size, 150, 6), 3),)


def _rows(size, dtype):
    return (_rng(dtype, _sizes(size, 300, 5), _sizes(size, 200, 7), low=-4.0, high=4.0),)


def _arcs(size, dtype):
    n = _sizes(size, 60_000, 11)
    return tuple(_rng(dtype, n, low=-np.pi, high=np.pi, seed=s) for s in range(4))


def _cosine(size, dtype):
    return (_rng(dtype, _sizes(size, 200, 5), _sizes(size, 64, 4), seed=1),
            _rng(dtype, _sizes(size, 150, 3), _sizes(size, 64, 4), seed=2))


def _diffusion(size, dtype):
    return _rng(dtype, _sizes(size, 300_000, 13)), 0.2


def _standardize(size, dtype):
    return (_rng(dtype, _sizes(size, 500, 6), _sizes(size, 100, 4), low=0.0, high=3.0),)


_KERNELS = [
    (jacobi_step, _square, True),
    (pairwise_distances, _points, True),
    (vector_norm, lambda size, dtype: _vector(size, dtype, 400_000), True),
    (matrix_norms, _square, True),
    (rosenbrock, _vector, True),
    (softmax_rows, _rows, True),
    (logsumexp, _vector, True),
    (standardize, _standardize, True),
    (gelu, _vector, True),
    (arc_distance, _arcs, True),
    (cosine_similarity, _cosine, True),
    (diffusion_step, _diffusion, True),
    (polynomial, _vector, True),
    (clip_where, _vector, True),
]


def _variants():
    out = []
    for fn, make, both in _KERNELS:
        out.append((fn.__name__, fn, lambda size, make=make: make(size, np.float64)))
        if both:
            out.append((f"{fn.__name__}[float32]", fn,
                        lambda size, make=make: make(size, np.float32)))
    return out


ARRAY_KERNELS = _variants()


def with_numpy_module(fn, module):
    """``fn`` with another module as its ``np`` (jax.numpy for the JAX way): the same code."""
    namespace = dict(fn.__globals__)
    namespace["np"] = module
    return types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__,
                              fn.__closure__)
