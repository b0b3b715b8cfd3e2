"""tp.grad / value_and_grad against finite differences (float64), result types, structures,
refusals, and training the seed network (issue 51). The truth for a gradient is the central
difference of the plain function; for the seed network, a NumPy backward written by hand."""
import threading

import numpy as np
import pytest

import transpiler as tp
from transpiler import nn

import autodiff_functions as af


def finite_differences(f, args, k, eps=1e-6):
    """d f / d args[k], element by element (float64)."""
    args = list(args)
    x = args[k]
    if not isinstance(x, np.ndarray):
        plus, minus = list(args), list(args)
        plus[k], minus[k] = x + eps, x - eps
        return (f(*plus) - f(*minus)) / (2 * eps)
    out = np.zeros_like(x, dtype=np.float64)
    for i in np.ndindex(x.shape):
        a, b = x.copy(), x.copy()
        a[i] += eps
        b[i] -= eps
        plus, minus = list(args), list(args)
        plus[k], minus[k] = a, b
        out[i] = (f(*plus) - f(*minus)) / (2 * eps)
    return out


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("case", af.CASES, ids=lambda c: c[0].__name__)
def test_gradient_matches_finite_differences(case):
    function, make, positions = case
    args = make()
    before = _copies(args)
    g = tp.grad(function, positions)
    for call in range(2):          # the generic first call, then the specialized code
        grads = g(*args)
        grads = grads if isinstance(positions, tuple) else (grads,)
        for k, got in zip(positions if isinstance(positions, tuple) else (positions,), grads):
            want = finite_differences(function, args, k)
            assert type(got) is type(args[k]), (call, k)
            if isinstance(got, np.ndarray):
                assert got.shape == args[k].shape and got.dtype == args[k].dtype
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6,
                                       err_msg=f"call {call}, argument {k}")
    for a, b in zip(args, before):      # arguments never mutated
        np.testing.assert_array_equal(a, b)


def test_value_and_grad_value_is_the_plain_value():
    x = np.linspace(0.1, 2.0, 7)
    value, grad = tp.value_and_grad(af.ufuncs)(x)
    assert value == af.ufuncs(x) and type(value) is type(af.ufuncs(x))
    np.testing.assert_allclose(grad, finite_differences(af.ufuncs, (x,), 0), rtol=1e-5)


def test_where_leaks_no_nan():
    x = np.array([-1.0, 0.0, 0.5, 2.0])
    g = tp.grad(af.where_no_nan)
    for _ in range(2):
        got = g(x)
        assert np.all(np.isfinite(got)), got
        np.testing.assert_allclose(got[2:], 0.5 / np.sqrt(x[2:]) + 1 / x[2:])
        assert got[0] == 0.0 and got[1] == 0.0


def test_tie_rules():
    x = np.array([[1.0, 3.0, 3.0], [0.5, 1.0, 2.0]])
    got = tp.grad(af.ties)(x)
    # ties share evenly: the two 3.0 share max's 1; at x == 1 maximum(x, 1) and minimum(x, 1)
    # give half each (their sum is x + 1: derivative 1, as finite differences say)
    want = np.array([[1.0, 1.5, 1.5], [1.0, 1.0, 1.0]])
    np.testing.assert_array_equal(got, want)


def test_float32_gradients_stay_float32():
    x = af._m(4, 3).astype(np.float32)
    w = af._m(3, 2).astype(np.float32)
    for _ in range(2):
        gx, gw = tp.grad(af.float32_chain, (0, 1))(x, w)
        assert gx.dtype == np.float32 and gw.dtype == np.float32
    want = finite_differences(af.float32_chain, (x.astype(np.float64), w.astype(np.float64)), 1)
    np.testing.assert_allclose(gw, want, rtol=2e-3, atol=1e-4)


def test_numpy_scalar_and_python_float_results():
    g = tp.grad(af.python_float)
    assert type(g(0.5)) is float
    assert type(g(np.float32(0.5))) is np.float32
    assert type(g(np.float64(0.5))) is np.float64


def test_structures_and_spellings():
    x, y = af._m(3), af._m(3)
    g0 = tp.grad(af.tuples)(x, y)
    assert isinstance(g0, np.ndarray)
    gx, gy = tp.grad(af.tuples, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(g0, gx)
    np.testing.assert_allclose(gy, x * 2.0)
    value, (gx2,) = tp.value_and_grad(af.tuples, (0,))(x, y)
    assert value == af.tuples(x, y)

    def with_aux(a):
        return np.sum(a * a), a.shape
    _ = with_aux
    grads, aux = tp.grad(_aux_function, has_aux=True)(x)
    assert aux == 3 and np.allclose(grads, 2 * x)
    (value, aux), grads = tp.value_and_grad(_aux_function, has_aux=True)(x)
    assert value == np.sum(x * x) and aux == 3


def _aux_function(a):
    return np.sum(a * a), a.shape[0]


def test_aux_keeps_stored_values():
    x = af._m(4)
    grads, aux = tp.grad(_stores_with_aux, has_aux=True)(x)
    want = _stores_with_aux(x.copy())[1]
    np.testing.assert_array_equal(aux, want)
    np.testing.assert_allclose(grads, finite_differences(
        lambda v: _stores_with_aux(v)[0], (x,), 0), rtol=1e-5)


def _stores_with_aux(x):
    a = x * 1.0
    for i in range(3):
        a[i + 1] = a[i] * 2.0 + a[i + 1]
    return np.sum(a * a), a


def test_loop_of_element_stores_is_linear():
    """A loop of element stores and reads costs the elements it touches, not a copy of the
    array per iteration: inside the backward loop of the specialized code, no array is
    copied or allocated (the adjoint of a read scatters in place, a store keeps only the
    number it overwrites, the gradient arrays are handed on, not copied)."""
    g = tp.grad(af.running_stores)
    x = np.full(50, 0.01)
    g(x, 50)
    g(x, 50)
    lines = str(g.source()).splitlines()
    start = next(k for k, line in enumerate(lines) if "for _ in range(" in line)
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1:]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
    assert body and not [line for line in body if ".copy()" in line or "np.zeros" in line
                         or "np.array(" in line or "_ad." in line], "\n".join(body)


CONTROL_FLOW = [c for c in af.CASES if c[0].__name__ in (
    "loop_range", "loop_carried_array", "while_data", "branch_break", "loop_rows",
    "nested_continue", "top_branch", "rnn", "early_exit_while", "running_stores",
    "store_argument_in_loop", "row_stores", "loop_alias_store", "conditional_loss")]


@pytest.mark.parametrize("case", CONTROL_FLOW, ids=lambda c: c[0].__name__)
def test_graph_mode_gradient_of_loops(case, graph_mode):
    """GRAPH_MODE: the specialized gradient code goes through graphjit's compilers (Numba
    for its loops where it takes them); the gradients are the same as eager's."""
    import warnings
    function, make, positions = case
    args = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)   # none for graphjit's own code
        g = tp.grad(function, positions)
        first, second = g(*args), g(*args)
    tp.set_context(mode=tp.PYNATIVE_MODE)
    eager = tp.grad(function, positions)(*args)
    for a, b in zip(np.atleast_1d(second) if not isinstance(second, tuple) else second,
                    np.atleast_1d(eager) if not isinstance(eager, tuple) else eager):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    del first


def test_refusals_name_the_line():
    with pytest.raises(TypeError, match=r"test_autodiff.py:\d+: grad needs .*real floating scalar"):
        tp.grad(_vector_result)(af._m(3))
    with pytest.raises(TypeError, match="real floating inputs"):
        tp.grad(af.loop_range)(np.arange(3), 2)
    with pytest.raises(TypeError, match="grad_position 1"):
        tp.grad(af.loop_range, 1)(af._m(3), 2)
    with pytest.raises(tp.UnsupportedConstruct, match=r"test_autodiff.py:\d+.*inv"):
        tp.grad(_no_rule)(np.eye(2) * 2.0)
    with pytest.raises(tp.UnsupportedConstruct, match="a return inside a"):
        tp.grad(_return_in_loop)(af._m(3))
    with pytest.raises(tp.UnsupportedConstruct, match="also refers to"):
        tp.grad(_aliased_update)(af._m(3))
    with pytest.raises(TypeError, match="real floating scalar"):
        tp.grad(_int_result)(af._m(3))
    with pytest.raises(tp.UnsupportedConstruct, match="through a view"):
        tp.grad(_store_through_view)(af._m(3))
    with pytest.raises(tp.UnsupportedConstruct, match="names an element twice"):
        tp.grad(_repeated_store, 1)(af._m(3), af._m(3))


def test_review_findings():
    """Defects a review found, each now right: a weight swapped out and back in, a 0-d array
    input, weights the function never reads, a tuple result without has_aux, stores
    through a loop's row or np.ravel's view (refused), shapes sized by an int argument or a
    mask (not frozen at the first call)."""
    net = _TwoArrays()
    x = np.ones((4, 3))
    g = tp.grad(net, grad_position=None, weights=net.trainable_params())
    first = g(x)[0]
    original = net.w
    net.w = np.full((3, 2), 2.0)
    assert not g(x)[0].any()          # w is not a weight now
    net.w = original
    np.testing.assert_array_equal(g(x)[0], first)
    for _ in range(3):
        got = tp.grad(_sine)(np.array(0.3))
        assert type(got) is np.ndarray and got.shape == () and got == 2 * np.cos(0.3)
    unused = _Unused()
    assert not tp.grad(unused, None, unused.trainable_params())(np.ones(3))[0].any()
    with pytest.raises(TypeError, match="returns a tuple of 2"):
        tp.grad(_pair)(np.ones(3))
    with pytest.raises(tp.UnsupportedConstruct, match="through a view"):
        tp.grad(_row_store)(np.ones((2, 2)))
    with pytest.raises(tp.UnsupportedConstruct, match="through a view"):
        tp.grad(_ravel_store)(np.ones((2, 2)))
    g = tp.grad(af.masked_mean)
    for n, x in ((1, np.array([1.0, -2, -3, -1])), (3, np.array([1.0, 2, 3, -1])),
                 (4, np.array([-1.0, 2, 0.5, 3]))):
        for _ in range(2):
            np.testing.assert_allclose(g(x, n), finite_differences(af.masked_mean, (x, n), 0),
                                       rtol=1e-6, atol=1e-8)


class _TwoArrays(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = np.ones((3, 2))
        self.b = np.zeros(2)

    def construct(self, x):
        return np.sum(x @ self.w + self.b)


class _Unused(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = np.ones(3)

    def construct(self, x):
        return np.sum(x * 2.0)


def _sine(x):
    return np.sin(x) * 2.0


def _pair(x):
    return np.sum(x), np.sum(x * x)


def _row_store(X):
    A = X * 1.0
    for row in A:
        row[0] = row[1] * 2
    return np.sum(A ** 2)


def _ravel_store(x):
    a = x * 2
    v = np.ravel(a)
    v[1] = 7.0
    return np.sum(a * x)


def test_second_review_findings():
    """Value and aux of a loop's taped variable, tied weights (one array, two attributes),
    an alias made in one branch then stored through (refused)."""
    x = np.array([2.0, 3.0, 4.0])
    value, grad = tp.value_and_grad(af.product_loop)(x)
    assert value == 24.0
    (value, aux), grad = tp.value_and_grad(_product_with_aux, has_aux=True)(x)
    assert value == 24.0 and aux == 24.0
    net = _Tied()
    got = tp.grad(net, None, net.trainable_params())(np.array([[1.0, -1.0]]))[0]
    np.testing.assert_array_equal(got, [[3.0, -5.0], [5.0, -7.0]])
    with pytest.raises(tp.UnsupportedConstruct, match="depending on the path taken"):
        tp.grad(_alias_in_branch)(np.array([1.0, 2.0, 3.0]))


def test_third_review_findings():
    """A value that is a number on one path and an array on another (the first call saw one
    path): its gradient is right on the other; in-place library calls are refused."""
    w, x = np.array([0.5, 1.0, 2.0]), np.array([1.0, 2.0, 3.0])
    g = tp.grad(af.kind_by_path)
    for flag in (1.0, -1.0, 1.0, -1.0):
        want = finite_differences(af.kind_by_path, (1.5, w, x, flag), 0)
        assert abs(g(1.5, w, x, flag) - want) < 1e-6
    for mode in (tp.PYNATIVE_MODE, tp.GRAPH_MODE):      # the first call ran no iteration
        tp.set_context(mode=mode)
        g = tp.grad(af.accumulate_n)
        try:
            for n in (0, 2, 3, 0, 1):
                np.testing.assert_allclose(
                    g(x, n), finite_differences(af.accumulate_n, (x, n), 0), atol=1e-8)
        finally:
            tp.set_context(mode=tp.PYNATIVE_MODE)
    for function in (_copyto_in_loop, _fill_in_loop, _out_in_loop):
        with pytest.raises(tp.UnsupportedConstruct, match="in place"):
            tp.grad(function)(0.7, np.array([1.0, 2.0, 3.0]))


def _copyto_in_loop(w, x):
    x = x.copy()
    acc = 0.0
    for i in range(x.shape[0]):
        acc = acc + np.sin(x[i] * w)
        np.copyto(x, x * 0.5)
    return acc


def _fill_in_loop(w, x):
    x = x.copy()
    acc = 0.0
    for i in range(x.shape[0]):
        acc = acc + np.sin(x[i] * w)
        x.fill(2.0)
    return acc


def _out_in_loop(w, x):
    x = x.copy()
    acc = 0.0
    for i in range(x.shape[0]):
        acc = acc + np.sin(x[i] * w)
        np.multiply(x, 0.5, out=x)
    return acc


def _product_with_aux(x):
    t = 1.0
    for i in range(x.shape[0]):
        t = t * x[i]
    return t * 1.0, t


class _Tied(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d1 = nn.Dense(2, 2, has_bias=False, dtype=np.float64)
        self.d2 = nn.Dense(2, 2, has_bias=False, dtype=np.float64)
        self.d2.weight = self.d1.weight
        self.d1.weight[...] = [[1.0, 2.0], [3.0, 4.0]]

    def construct(self, x):
        return np.sum(self.d2(self.d1(x)))


def _alias_in_branch(x):
    a = x * 2.0
    if x[0] > 0:
        b = a
    else:
        b = a * 1.0
    b[1] = x[2] * x[2]
    return np.sum(a * x)


def _store_through_view(x):
    a = np.zeros(4)
    v = a[1:]
    v[0] = x[0]
    return np.sum(a * 2.0) + np.sum(v)


def _repeated_store(x, v):
    a = x * 1.0
    a[np.array([0, 0, 2])] = v
    return np.sum(a ** 2)


def _vector_result(x):
    return af._helper(x)


def _no_rule(x):
    return np.sum(np.linalg.inv(x))


def _return_in_loop(x):
    for i in range(3):
        if x[i] > 0:
            return x[i] * 2.0
    return x[0]


def _aliased_update(x):
    y = x * 1.0
    z = y
    y += 1.0
    return np.sum(z)


def _int_result(x):
    return int(np.argmax(x))


def test_check_grads_passes_and_catches_a_wrong_gradient():
    tp.check_grads(af.rnn, (af._m(3, 3) * 0.5, af._m(3, 2), af._m(4, 2)))
    tp.check_grads(af.float32_chain, (af._m(4, 3).astype(np.float32),
                                      af._m(3, 2).astype(np.float32)))
    with pytest.raises(AssertionError, match="finite differences"):
        tp.check_grads(_WrongBprop(), (af._m(4),))


class _WrongBprop(nn.Cell):
    def construct(self, x):
        return np.sum(x * x)

    def bprop(self, x, out, dout):
        return (x * dout,)      # wrong: the derivative is 2x


def test_threads_share_one_gradient():
    g = tp.grad(af.loop_carried_array)
    xs = [af._m(4) for _ in range(8)]
    want = [finite_differences(af.loop_carried_array, (x,), 0) for x in xs]
    got = [None] * 8

    def run(k):
        for _ in range(3):
            got[k] = g(xs[k])
    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5)


# -- the seed network ----------------------------------------------------------------------------

class SeedNetwork(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        return self.dense_relu_sequential(self.flatten(x))


def hand_written_step(x, labels, params):
    """Forward and backward of the seed network with cross entropy, in NumPy by hand."""
    w1, b1, w2, b2, w3, b3 = params
    n = x.shape[0]
    a0 = x.reshape(n, -1)
    z1 = a0 @ w1.T + b1
    a1 = np.maximum(z1, 0)
    z2 = a1 @ w2.T + b2
    a2 = np.maximum(z2, 0)
    z3 = a2 @ w3.T + b3
    s = z3 - z3.max(axis=1, keepdims=True)
    e = np.exp(s)
    p = e / e.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(n), labels]).mean()
    d3 = (p - (labels[:, None] == np.arange(10))) / n
    da2 = d3 @ w3
    dz2 = da2 * (z2 > 0)
    dz1 = (dz2 @ w2) * (z1 > 0)
    return loss, (dz1.T @ a0, dz1.sum(0), dz2.T @ a1, dz2.sum(0), d3.T @ a2, d3.sum(0))


@pytest.fixture
def graph_mode():
    tp.set_context(mode=tp.GRAPH_MODE)
    yield
    tp.set_context(mode=tp.PYNATIVE_MODE)


def _data(batch, seed=1):
    r = np.random.default_rng(seed)
    return (r.standard_normal((batch, 1, 28, 28)).astype(np.float32),
            r.integers(0, 10, batch))


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_seed_network_gradients_equal_hand_written(mode, request):
    if mode == "graph":
        request.getfixturevalue("graph_mode")
    nn.set_seed(3)
    net = SeedNetwork()
    params = net.trainable_params()
    assert [p.shape for p in params] == [(512, 784), (512,), (512, 512), (512,), (10, 512),
                                         (10,)]
    vg = tp.value_and_grad(nn.WithLossCell(net, nn.CrossEntropyLoss()), None, params)
    x, labels = _data(64)
    want_loss, want = hand_written_step(x, labels, params)
    for _ in range(3):
        loss, grads = vg(x, labels)
        assert type(loss) is np.float32
        np.testing.assert_allclose(loss, want_loss, rtol=1e-6)
        for g, w, p in zip(grads, want, params):
            assert g.dtype == np.float32 and g.shape == p.shape
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6)
    if mode == "graph":
        assert "numpy-graph" in str(vg.explain())


@pytest.mark.parametrize("optimizer", ["sgd", "momentum", "adam"])
def test_training_lowers_the_loss(optimizer, graph_mode):
    nn.set_seed(5)
    net = SeedNetwork()
    params = net.trainable_params()
    make = {"sgd": lambda: nn.SGD(params, learning_rate=0.1),
            "momentum": lambda: nn.Momentum(params, 0.05, 0.9),
            "adam": lambda: nn.Adam(params, learning_rate=1e-3)}[optimizer]
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), make())
    x, labels = _data(32, seed=2)
    before = [p.copy() for p in params]
    losses = [float(step(x, labels)) for _ in range(15)]
    assert losses[-1] < 0.5 * losses[0], losses
    assert all(b < a for a, b in zip(losses, losses[1:6])), losses
    assert all(not np.array_equal(a, b) for a, b in zip(before, params))
    # the Cells read the updated arrays: the network's own loss agrees with the last step
    eager = float(nn.CrossEntropyLoss()(net(x), labels))
    assert eager < losses[0]


@pytest.mark.parametrize("batch", [1, 16])
def test_fused_sgd_step_equals_the_hand_written_step(batch, graph_mode):
    """TrainOneStepCell with a plain SGD: the update is fused into the gradient code (a gemm
    into each Dense weight); after several steps the weights are the hand-written step's."""
    nn.set_seed(9)
    net = SeedNetwork()
    hand = [p.copy() for p in net.trainable_params()]
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.SGD(net.trainable_params(), learning_rate=0.05))
    for k in range(6):
        x, labels = _data(batch, seed=10 + k)
        loss = step(x, labels)
        want_loss, grads = hand_written_step(x, labels, hand)
        for p, g in zip(hand, grads):
            p -= 0.05 * g
        np.testing.assert_allclose(loss, want_loss, rtol=1e-5)
    assert "sgd_gemm" in step.grad_fn._last.sgd_source
    for p, q in zip(net.trainable_params(), hand):
        np.testing.assert_allclose(p, q, rtol=1e-4, atol=1e-6)


def test_grad_of_a_network_input_and_weights():
    nn.set_seed(4)
    net = nn.SequentialCell(nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 2))
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)

    def loss(inputs):
        return np.sum(net(inputs) ** 2)
    g_x, g_w = tp.grad(_net_loss, 0, net.trainable_params())(x, net)
    assert g_x.shape == x.shape and len(g_w) == 4
    x64 = x.astype(np.float64)
    for p in net.trainable_params():
        assert p.dtype == np.float32
    _ = loss
    want = finite_differences(lambda v: float(_net_loss(v.astype(np.float32), net)), (x64,), 0,
                              eps=1e-2)
    np.testing.assert_allclose(g_x, want, rtol=2e-2, atol=2e-2)


def _net_loss(inputs, net):
    return np.sum(net(inputs) ** 2)


def test_source_tags_lines():
    g = tp.grad(af.calls)
    with pytest.raises(RuntimeError):
        g.source()
    g(af._m(3))
    text = str(g.source())
    assert "autodiff_functions.py:" in text and "(adjoint)" in text
    ir = str(g.ir())
    assert "np.tanh(" in ir and "(adjoint)" not in ir


def test_jax_agrees_where_installed():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy
    W, U, xs = af._m(3, 3) * 0.5, af._m(3, 2), af._m(4, 2)

    def rnn_jax(W, U, xs):
        h = jnp.zeros(W.shape[0])
        for t in range(xs.shape[0]):
            h = jnp.tanh(W @ h + U @ xs[t])
        return jnp.sum(h ** 2)
    want = jax.grad(rnn_jax, (0, 1, 2))(W, U, xs)
    got = tp.grad(af.rnn, (0, 1, 2))(W, U, xs)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, np.asarray(b), rtol=1e-10)
