"""Functions and Cells for tests/test_numpy_graph.py (jitted functions must live in a file)."""
import numpy as np

from transpiler import nn


def affine(a, b, c):
    return a * b + c


def chain(x):
    y = x * 2.0
    y = y + 1
    y = np.exp(-y)
    return y / (1.0 + y)


def returns_views(a, b):
    t = a + b
    return t, t[1:], t.T


def returns_input_view(x):
    return x.T


def reduce_products(a, b):
    return np.sum(a * b), (a - b).sum(axis=0)


def masked(x):
    y = x * 3
    return y[y > 0] * 2


def value_shaped(x):
    k = x.argmax()
    y = x * 2
    return y[:k] + 1


def stencil(u):
    return 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def with_loop(x):
    total = x[0] * 0
    for i in range(x.shape[0]):
        total = total + x[i]
    return total


def with_try(x):
    try:
        return x * 2
    except ValueError:
        return x


def scalar_only(a, b):
    return a * b + 1


def scaled(x, s):
    return x * s + s


def matmul_chain(a, b, c):
    return np.maximum(a @ b, 0) @ c


class Residual(nn.Cell):
    """x + Dense(ReLU(Dense(x))): the input is added to the block's output."""

    def __init__(self, width=16):
        super().__init__()
        self.dense1 = nn.Dense(width, width)
        self.relu = nn.ReLU()
        self.dense2 = nn.Dense(width, width)

    def construct(self, x):
        h = self.dense1(x)
        h = self.relu(h)
        return x + self.dense2(h)


class Network(nn.Cell):
    """The seed network (MindSpore's quick start), sizes configurable."""

    def __init__(self, sizes=(784, 512, 512, 10)):
        super().__init__()
        self.flatten = nn.Flatten()
        a, b, c, d = sizes
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(a, b), nn.ReLU(), nn.Dense(b, c), nn.ReLU(), nn.Dense(c, d))

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def by_hand(net, x):
    """The seed network written in NumPy on ``net``'s own weights."""
    d1, d2, d3 = net.dense_relu_sequential.cell_list[0::2]
    x = x.reshape((x.shape[0], -1))
    x = np.maximum(np.dot(x, d1.weight.T) + d1.bias, d1.weight.dtype.type(0))
    x = np.maximum(np.dot(x, d2.weight.T) + d2.bias, d2.weight.dtype.type(0))
    return np.dot(x, d3.weight.T) + d3.bias


def double(x):
    return x * 2


def minus_true(a):
    return a - True


def cube(x):
    return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def powers(x):
    a = x ** 2
    b = (a + 1) ** -1
    c = (b + 1) ** 0.5
    d = (c - 1) ** 3
    e = (d + 2) ** 2.0
    return e * 2 + a, np.sum(x[1:] ** 2), np.sum(e ** 0.5), np.sum(x[1:] ** -1)


def run_fresh_network(x):
    """The seed's own first example: the model made inside the jitted function."""
    model = Network((12, 8, 8, 3))
    return model(x)


def run_given_network(model, x):
    model.calls = getattr(model, "calls", 0) + 1     # an attribute store: runs as Python
    return model(x)


def choose_by_value(x, y, s):
    a = x * 1.0
    b = y * 1.0
    c = a if s > 0 else b
    d = c * 2.0
    return d.sum()


def index_by_float(x, s):
    y = x * 2.0
    return (y[s > 0] + 1.0).sum()


def diff_zero(x, n):
    d = np.diff(x, n)
    return d * 2.0


def clip_into(x):
    t = x * 2
    y = np.clip(t, 0, 1, t)
    z = y + 1
    return z, t


def dot_into(a, b):
    t = a * 1.0
    u = np.dot(a, b, t)
    return u + 1.0, t


def reserved_names(_k, _s, _G, _F, _B, _M, _np):
    t = _k * _s + _G
    return t * _F + _B - _M * _np


def count_or_flag(a, t):
    for i in range(a.shape[0]):
        if a[i] > t:
            return a[i]          # an np.int64
    return -1                    # a Python int


def norms(a):
    """Three temporaries never alive at once (their buffers may share one block), a scalar
    converted by its NumPy type at the end."""
    fro = np.sqrt(np.sum(a * a))
    one = np.max(np.sum(np.abs(a), axis=0))
    inf = np.max(np.sum(np.abs(a), axis=1))
    return np.float64(fro + one + inf)


def view_outlives(a):
    """``t``'s buffer is read through a view after ``u`` is computed: they must not share."""
    t = a * 2.0
    v = t[::2]
    u = a + 1.0
    w = np.sum(u * u)
    return np.sum(v) + w


def clipped(x, low, high):
    return np.where(x < 0, 0.5 * x, np.clip(x, low, high))


def rolled(x, k):
    return np.roll(x * 2.0, k, 1) + 1.0
