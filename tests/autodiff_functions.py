"""Functions differentiated by tests/test_autodiff.py (in a file: graphjit reads their source).

Each CASES entry: (function, arguments builder, positions to differentiate). Arguments are
float64 unless the name says otherwise.
"""
import numpy as np

rng = np.random.default_rng(7)


def _m(*shape):
    return rng.standard_normal(shape)


def _pos(*shape):
    return rng.uniform(0.5, 2.0, shape)


# -- element-wise and arithmetic -------------------------------------------------------------

def ufuncs(x):
    return np.sum(np.exp(x) + np.log(x) + np.sqrt(x) + np.tanh(x) + np.sin(x) * np.cos(x)
                  + np.log1p(x) + np.expm1(x) + np.square(x) + np.abs(x) + np.arctan(x)
                  + np.log2(x) + np.log10(x) + np.cbrt(x) + np.reciprocal(x))


def arithmetic(x, y):
    return np.sum((x * y - x / y + 2.0 ** x) ** 2 - (-x) + x ** 3 + y ** 0.5)


def broadcasting(x, b, s):
    return np.sum(x * b + s * x - b / (1.0 + s * s) + x[:, :1] * b)


def power_of_array(x, y):
    return np.sum(x ** y)


def python_float(x):
    return x * x * 3.0 + np.sin(x)


def float32_chain(x, w):
    return np.mean(np.maximum(x @ w, np.float32(0)) ** 2)


# -- reductions, shapes, products ------------------------------------------------------------

def reductions(x):
    return (x.sum(axis=0).sum() + np.mean(x, axis=1).sum() + x.max() + np.min(x, axis=0).sum()
            + x.var() + np.std(x, axis=1).sum() + x.mean(axis=1, keepdims=True).sum()
            + np.sum(x, axis=(0, 1)))


def ties(x):
    return np.max(x) + np.maximum(x, 1.0).sum() + np.minimum(x, 1.0).sum()


def shapes(x):
    y = x.reshape(3, 4).T
    z = np.transpose(y.reshape(2, 2, 3), (2, 0, 1))
    return np.sum(z * np.arange(12.0).reshape(3, 2, 2)) + np.sum(x.ravel() ** 2) \
        + np.sum(np.expand_dims(x, 0).squeeze() * 2.0) + np.sum(x.flatten()[::2])


def products(a, b, v):
    return np.sum(a @ b) + np.dot(v, a @ v[:3]) + np.sum(np.dot(a, b) ** 2) \
        + np.sum(np.matmul(v[:3], b)) + np.sum(np.outer(v, v) * 0.5) + a.dot(b).sum()


def batched(a, b):
    return np.sum(np.tanh(a @ b))


def indexing(x):
    return x[0, 1] + x[1:, ::2].sum() * 2.0 + x[np.array([0, 0, 2]), np.array([1, 1, 3])].sum() \
        + x[-1].sum() + x[..., 0].sum() + x[:, None, 1].sum()


def stores(x):
    a = np.zeros(5)
    a[0] = x[0] * 2.0
    a[1:3] = x[1:3] ** 2
    a[3] += x[3]
    a[4] = a[0] * a[1]
    return np.sum(a * a)


def where_and_clip(x):
    safe = np.where(x > 0, np.log(np.where(x > 0, x, 1.0)), x * 0.5)
    return np.sum(safe) + np.clip(x, -0.5, 0.5).sum() + np.sum(np.where(x > 0.2, x, 0.0))


def where_no_nan(x):
    # the branch np.where does not take is infinite at 0 and NaN below: no NaN in the gradient
    return np.sum(np.where(x > 0, np.sqrt(x), 0.0)) + np.sum(np.where(x > 0, np.log(x), 0.0))


def joins(x, y):
    c = np.concatenate([x, y, x * 2.0], axis=0)
    s = np.stack([x, y], axis=2)
    return np.sum(c ** 2) + np.sum(s * np.arange(2.0))


def casts(x):
    return float(np.sum(x.astype(np.float64) * 2.0)) + np.sum(x.copy()) + np.float64(x[0])


# -- calls -------------------------------------------------------------------------------------

def _helper(a, scale=2.0):
    return np.tanh(a) * scale


def calls(x):
    y = _helper(x)
    z = _helper(y, scale=0.5)
    return np.sum(z * z) + x.sum() ** 2


def tuples(x, y):
    a, b = x * 2.0, y + 1.0
    pair = (a, b)
    c, d = pair
    return np.sum(c * d)


def aug_assign(x):
    y = x * 1.0
    y += x ** 2
    y *= 3.0
    y -= x
    y /= 2.0
    return np.sum(y)


# -- control flow ------------------------------------------------------------------------------

def loop_range(x, n):
    s = 0.0
    for i in range(n):
        s = s + np.sum(np.sin(x * i))
    return s


def loop_carried_array(x):
    h = x
    for t in range(3):
        h = np.tanh(h * 1.5 + 0.1)
    return h.sum()


def while_data(x):
    s = 0.0
    i = 0
    while s < 10.0:
        s = s + x[i % 3] ** 2
        i += 1
    return s


def branch_break(x):
    total = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0:
            total = total + x[i] * x[i]
        else:
            total = total - 2 * x[i]
        if total > 5:
            break
    return total


def loop_rows(w, X):
    loss = 0.0
    for row in X:
        p = np.dot(row, w)
        loss += (p - 1.0) ** 2
    return loss / X.shape[0]


def loop_stores(x):
    a = np.zeros(4)
    for i in range(4):
        a[i] = x[i] * x[(i + 1) % 4]
    return np.sum(a * a)


def nested_continue(A):
    s = 0.0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            if j > i:
                continue
            s = s + A[i, j] * A[j, i]
    return s


def top_branch(x, flag):
    if flag > 0:
        y = np.exp(x)
    else:
        y = x * x
    return np.sum(y)


def rnn(W, U, xs):
    h = np.zeros(W.shape[0])
    for t in range(xs.shape[0]):
        h = np.tanh(W @ h + U @ xs[t])
    return np.sum(h ** 2)


def early_exit_while(x):
    k = 0
    acc = 1.0
    while True:
        acc = acc * x[k]
        k += 1
        if k >= x.shape[0] or acc > 3.0:
            break
    return acc


def store_argument(x):
    x[0] = x[1] * 2.0
    x[2] += x[0]
    return np.sum(x ** 2)


def running_stores(x, n):
    a = np.zeros(n)
    a[0] = x[0]
    for i in range(1, n):
        a[i] = a[i - 1] * 0.9 + x[i] * a[i - 1] + x[i]
    return np.sum(a ** 2)


def store_argument_in_loop(x):
    for i in range(x.shape[0] - 1):
        x[i + 1] = x[i + 1] * x[i]
    return np.sum(x)


def row_stores(W, v):
    out = np.zeros((3, 2))
    for k in range(3):
        out[k] = W[k] * v
        out[k, 0] += np.sum(out[k]) * 0.5
    return np.sum(np.tanh(out))


def alias_store(x):
    a = np.zeros(3)
    b = a
    a[0] = x[0] * 3.0
    b[1] = x[1]
    return np.sum(b * x) + np.sum(a)


def _fill(a, x):
    a[0] = x[0] * 2.0
    a[1:] = x[1:] ** 2


def helper_stores(x):
    a = np.zeros(3)
    _fill(a, x)
    return np.sum(a * a)


def loop_alias_store(x):
    a = np.zeros(3)
    b = a
    for i in range(3):
        b[i] = x[i] * (i + 1.0)
        _fill_one(a, i, x)
    return np.sum(a ** 2)


def _fill_one(a, i, x):
    a[i] = a[i] + x[i] * x[i]


def conditional_loss(w, X, y):
    total = 0.0
    for i in range(X.shape[0]):
        err = np.dot(X[i], w) - y[i]
        total += err * err if err > 0 else 0.5 * err * err
    return total / X.shape[0]


def nested_functions(x, w):
    scale = 0.5

    def layer(v, k=2.0):
        return np.tanh(v * w * scale) * k

    square = lambda v: v * v  # noqa: E731 - a lambda on purpose
    return np.sum(square(layer(x)) + layer(x, 1.0))


def _branchy_fill(a, x):
    if x[0] > 0:
        a[0] = x[0] * 3.0


def _loop_fill(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0


def caller_arrays(x):
    a = x + 0.0
    _branchy_fill(a, x)
    _loop_fill(a)
    b = x
    b[1] = 5.0 * x[2]
    return np.sum(a ** 2) + np.sum(x * x)


def breaks_in_constant_range(x):
    s = 0.0
    for i in range(5):
        if s > 2.0:
            break
        s = s + x[i] ** 2
    return s


def scalar_into_slices(x):
    a = np.zeros((3, 2))
    a[0] = x[0] * 2.0
    for i in range(1, 3):
        a[i] = x[i] * a[i - 1, 0]
    return np.sum(a * a)


def masked_mean(x, n):
    return np.mean(x[:n]) + np.mean(x[x > 0]) + np.sum((np.zeros(n) + x[0]) ** 2)


def loop_swap(x, y, n):
    a = x
    b = y
    for i in range(n):
        a, b = b, a
    return np.sum(a * b * b)


def list_indices(x):
    return np.sum(x[[1, 1]] * x[[0, 2]]) + np.sum(x[[0, 0, 2]] ** 2)


def product_loop(x):
    t = 1.0
    for i in range(x.shape[0]):
        t = t * x[i]
    return t


def nothing_backward_in_loop(x):
    k = 1
    while k < 3:
        k += 1
    for i in range(x.shape[0]):
        k += 0
    return np.sum(x[:k] ** 2)


def _returns_its_argument(a, x):
    a[0] = x[0] * 2.0
    return a


def dropped_result(x):
    a = np.zeros(2)
    for i in range(2):
        _returns_its_argument(a, x)
    return np.sum(a * x)


def rows_of_a_stored_array(w, x):
    x = x.copy()
    acc = 0.0
    for v in x:
        acc = acc + np.sin(v * w)
        x[:] = x * 0.5
    return acc


def kind_by_path(p, w, x, flag):
    if flag > 0.0:
        s = np.sum(x) * p
    else:
        s = x * p
    return np.sum(w * s)


def number_then_array(W, x):
    h = 0.0
    for i in range(x.shape[0]):
        h = np.tanh(W * h + x[i])
    return np.sum(h)


def accumulate_n(x, n):
    s = 0.0
    for i in range(n):
        s = s + x[i] * x[i]
    return s


CASES = [
    (ufuncs, lambda: (_pos(3, 2),), 0),
    (arithmetic, lambda: (_pos(4), _pos(4)), (0, 1)),
    (broadcasting, lambda: (_m(3, 4), _m(4), 0.7), (0, 1, 2)),
    (power_of_array, lambda: (_pos(5), _m(5)), (0, 1)),
    (python_float, lambda: (0.3,), 0),
    (reductions, lambda: (_m(3, 4),), 0),
    (ties, lambda: (np.array([[1.0, 3.0, 3.0], [0.5, 1.0, 2.0]]),), 0),
    (shapes, lambda: (_m(12),), 0),
    (products, lambda: (_m(3, 3), _m(3, 2), _m(3)), (0, 1, 2)),
    (batched, lambda: (_m(2, 3, 4), _m(4, 2)), (0, 1)),
    (indexing, lambda: (_m(3, 4),), 0),
    (stores, lambda: (_m(4),), 0),
    (where_and_clip, lambda: (_m(6),), 0),
    (joins, lambda: (_m(2, 3), _m(2, 3)), (0, 1)),
    (casts, lambda: (_m(4),), 0),
    (calls, lambda: (_m(5),), 0),
    (tuples, lambda: (_m(3), _m(3)), (0, 1)),
    (aug_assign, lambda: (_m(4),), 0),
    (loop_range, lambda: (_m(4), 3), 0),
    (loop_carried_array, lambda: (_m(4),), 0),
    (while_data, lambda: (_m(4) + 1.0,), 0),
    (branch_break, lambda: (np.array([0.5, -1.0, 2.0, 3.0, 1.0]),), 0),
    (loop_rows, lambda: (_m(2), _m(3, 2)), (0, 1)),
    (loop_stores, lambda: (_m(4),), 0),
    (nested_continue, lambda: (_m(3, 3),), 0),
    (top_branch, lambda: (_m(3), 1), 0),
    (top_branch, lambda: (_m(3), -1), 0),
    (rnn, lambda: (_m(3, 3) * 0.5, _m(3, 2), _m(4, 2)), (0, 1, 2)),
    (early_exit_while, lambda: (_pos(6),), 0),
    (store_argument, lambda: (_m(4),), 0),
    (running_stores, lambda: (_m(6) * 0.5, 6), 0),
    (store_argument_in_loop, lambda: (_pos(5),), 0),
    (row_stores, lambda: (_m(3, 2), _m(2)), (0, 1)),
    (alias_store, lambda: (_m(3),), 0),
    (helper_stores, lambda: (_m(3),), 0),
    (loop_alias_store, lambda: (_m(3),), 0),
    (conditional_loss, lambda: (_m(3), _m(8, 3), _m(8)), (0, 1, 2)),
    (nested_functions, lambda: (_m(4), _m(4)), (0, 1)),
    (caller_arrays, lambda: (np.array([0.5, -1.0, 2.0]),), 0),
    (caller_arrays, lambda: (np.array([-0.5, -1.0, 2.0]),), 0),
    (breaks_in_constant_range, lambda: (_m(5),), 0),
    (scalar_into_slices, lambda: (_m(3),), 0),
    (loop_swap, lambda: (_m(2), _m(2), 1), (0, 1)),
    (loop_swap, lambda: (_m(2), _m(2), 2), (0, 1)),
    (list_indices, lambda: (_m(3),), 0),
    (product_loop, lambda: (_m(4),), 0),
    (nothing_backward_in_loop, lambda: (_m(4),), 0),
    (dropped_result, lambda: (_m(2),), 0),
    (rows_of_a_stored_array, lambda: (0.7, np.array([1.0, 2.0, 3.0])), 0),
    (number_then_array, lambda: (_m(3) * 0.5, _m(3)), (0, 1)),
]
