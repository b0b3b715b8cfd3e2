"""Twenty everyday NumPy functions, at three sizes, for issue 50's benchmark (``make bench``
section 13, benchmarks/everyday_bench.py) and tests/test_tiers.py.

Each is a plain function of whole-array NumPy code, as users write it (no Python loop): layers
and losses of small models, statistics, a least-squares fit. ``EVERYDAY`` lists
``(name, fn, make_args)``; ``make_args(n, d)`` builds float64 inputs from a fixed seed for
``n`` rows of ``d`` features. ``SIZES``: small (16 x 8), medium (512 x 64), large (8192 x 64),
the sizes of the issue's measurement.
"""
import numpy as np

SIZES = {"small": (16, 8), "medium": (512, 64), "large": (8192, 64)}


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def log_softmax(x):
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def layernorm(x, gamma, beta):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * gamma + beta


def rmsnorm(x, gamma):
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * gamma


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def silu(x):
    return x / (1.0 + np.exp(-x))


def leaky_relu(x):
    return np.where(x > 0, x, 0.01 * x)


def mse(pred, target):
    return np.mean((pred - target) ** 2)


def binary_cross_entropy(logits, y):
    p = np.clip(1.0 / (1.0 + np.exp(-logits)), 1e-7, 1 - 1e-7)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def huber(pred, target):
    d = np.abs(pred - target)
    return np.mean(np.where(d < 1.0, 0.5 * d * d, d - 0.5))


def standardize(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def minmax_scale(x):
    lo = x.min(axis=0)
    return (x - lo) / (x.max(axis=0) - lo)


def covariance(x):
    xc = x - x.mean(axis=0)
    return xc.T @ xc / (x.shape[0] - 1)


def cosine_similarity(a, b):
    na = np.sqrt((a * a).sum(axis=1))
    nb = np.sqrt((b * b).sum(axis=1))
    return (a @ b.T) / (na[:, None] * nb[None, :])


def squared_distances(a, b):
    return (a * a).sum(axis=1)[:, None] + (b * b).sum(axis=1)[None, :] - 2.0 * (a @ b.T)


def least_squares(X, y):
    return np.linalg.solve(X.T @ X, X.T @ y)


def moving_average(v, w):
    c = np.cumsum(v)
    return (c[w:] - c[:-w]) / w


def mlp_forward(x, w1, b1, w2, b2):
    h = np.maximum(x @ w1 + b1, 0.0)
    return h @ w2 + b2


def adam_step(w, g, m, v):
    m = 0.9 * m + 0.1 * g
    v = 0.999 * v + 0.001 * g * g
    return w - 0.001 * (m / 0.1) / (np.sqrt(v / 0.001) + 1e-8), m, v


def _rng(seed=0):
    return np.random.default_rng(seed)


def _x(n, d):
    return (_rng().standard_normal((n, d)),)


def _two(n, d):
    return _rng(1).standard_normal((n, d)), _rng(2).standard_normal((n, d))


def _gamma_beta(n, d):
    r = _rng(3)
    return _rng().standard_normal((n, d)), r.standard_normal(d), r.standard_normal(d)


def _gamma(n, d):
    return _rng().standard_normal((n, d)), _rng(3).standard_normal(d)


def _labels(n, d):
    return _rng(1).standard_normal((n, d)), (_rng(2).random((n, d)) < 0.5).astype(np.float64)


def _positive(n, d):
    return (_rng().random((n, d)) + 0.5,)


def _rows_pair(n, d):
    return _rng(1).standard_normal((n, d)), _rng(2).standard_normal((max(n // 4, 2), d))


def _fit(n, d):
    r = _rng(4)
    X = r.standard_normal((n, d))
    return X, X @ r.standard_normal(d) + 0.1 * r.standard_normal(n)


def _series(n, d):
    return _rng(5).standard_normal(n * d), 5


def _mlp(n, d):
    r = _rng(6)
    hidden = 2 * d
    return (r.standard_normal((n, d)), r.standard_normal((d, hidden)) / d,
            r.standard_normal(hidden), r.standard_normal((hidden, 10)) / hidden,
            r.standard_normal(10))


def _adam(n, d):
    r = _rng(7)
    return (r.standard_normal((n, d)), r.standard_normal((n, d)), r.standard_normal((n, d)),
            r.random((n, d)))


EVERYDAY = [
    ("softmax", softmax, _x),
    ("log_softmax", log_softmax, _x),
    ("layernorm", layernorm, _gamma_beta),
    ("rmsnorm", rmsnorm, _gamma),
    ("gelu", gelu, _x),
    ("sigmoid", sigmoid, _x),
    ("silu", silu, _x),
    ("leaky_relu", leaky_relu, _x),
    ("mse", mse, _two),
    ("binary_cross_entropy", binary_cross_entropy, _labels),
    ("huber", huber, _two),
    ("standardize", standardize, _positive),
    ("minmax_scale", minmax_scale, _x),
    ("covariance", covariance, _x),
    ("cosine_similarity", cosine_similarity, _rows_pair),
    ("squared_distances", squared_distances, _rows_pair),
    ("least_squares", least_squares, _fit),
    ("moving_average", moving_average, _series),
    ("mlp_forward", mlp_forward, _mlp),
    ("adam_step", adam_step, _adam),
]
