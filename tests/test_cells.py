"""The seed network and Cells: PYNATIVE vs GRAPH_MODE vs @jit, weights as runtime inputs."""
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler import nn


class Network(nn.Cell):
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


class JitNetwork(Network):
    @tp.jit(fullgraph=True)
    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


@pytest.fixture(scope="module")
def seed():
    nn.set_seed(1)
    net = Network()
    x = np.ones((64, 1, 28, 28), np.float32)
    return net, x, net(x)


def _no_fallback():
    warnings.simplefilter("error", tp.FallbackWarning)


def test_seed_network_eager_output(seed):
    _, _, expected = seed
    assert expected.shape == (64, 10) and expected.dtype == np.float32


def test_graph_mode_equals_pynative_exactly(seed):
    net, x, expected = seed
    with warnings.catch_warnings():
        _no_fallback()
        tp.set_context(mode=tp.GRAPH_MODE)
        out = net(x)
    assert out.dtype == np.float32 and out.shape == (64, 10)
    assert np.array_equal(out, expected)
    compiled = tp.nn.cell._graph_function(Network.construct)
    assert compiled._serving(net)[0].fallback_reason is None


def test_jit_on_construct_equals_pynative_exactly(seed, numba_path):
    net, x, expected = seed
    jnet = JitNetwork()
    jnet.flatten, jnet.dense_relu_sequential = net.flatten, net.dense_relu_sequential
    with warnings.catch_warnings():
        _no_fallback()
        out = jnet(x)                       # PYNATIVE mode: @jit still compiles
    assert out.dtype == np.float32
    assert np.array_equal(out, expected)
    assert "Dense_construct" in jnet.construct.source()


def test_jit_of_function_calling_the_model(seed):
    net, x, expected = seed

    def run(x):
        return net(x)
    compiled = tp.jit(run, fullgraph=True)
    assert np.array_equal(compiled(x), expected)
    assert compiled(x).dtype == np.float32


class NumbaNetwork(Network):
    """Its own construct (its own specializations), for a test of the Numba lowering."""

    def construct(self, x):
        x = self.flatten(x)
        return self.dense_relu_sequential(x)


def test_weight_update_changes_result_without_recompile(numba_path):
    nn.set_seed(2)
    net = NumbaNetwork((16, 8, 8, 3))
    tp.set_context(mode=tp.GRAPH_MODE)
    x = np.ones((4, 1, 4, 4), np.float32)
    first = net(x)
    specs = tp.nn.cell._graph_function(NumbaNetwork.construct)._serving(net)
    spec = specs[0]
    dispatcher = spec.function
    dense = net.dense_relu_sequential[4]
    dense.weight = dense.weight * np.float32(2)       # a new array object
    dense.bias[:] = 0                                 # in-place change
    second = net(x)
    tp.set_context(mode=tp.PYNATIVE_MODE)
    assert np.array_equal(second, net(x))
    assert not np.array_equal(first, second)
    assert len(specs) == 1 and specs[0] is spec       # no new specialization
    assert len(dispatcher.overloads) == 1             # and no new Numba compilation


def test_static_flag_change_transpiles_again():
    nn.set_seed(3)
    dense = nn.Dense(3, 2)
    x = np.ones((2, 3), np.float32)
    tp.set_context(mode=tp.GRAPH_MODE)
    with_bias = dense(x)
    dense.has_bias = False
    without = dense(x)
    tp.set_context(mode=tp.PYNATIVE_MODE)
    assert np.array_equal(without, dense(x))
    np.testing.assert_allclose(with_bias - without, np.broadcast_to(dense.bias, (2, 2)),
                               rtol=1e-6, atol=1e-6)
    specs = tp.nn.cell._graph_function(nn.Dense.construct)._serving(dense)
    assert len(specs) == 2


def test_sequential_append_is_seen():
    seq = nn.SequentialCell(nn.Dense(3, 3, weight_init="ones", bias_init="zeros"))
    x = np.ones((1, 3), np.float32)
    tp.set_context(mode=tp.GRAPH_MODE)
    one = seq(x)
    seq.append(nn.Dense(3, 3, weight_init="ones", bias_init="zeros"))
    two = seq(x)
    tp.set_context(mode=tp.PYNATIVE_MODE)
    assert np.array_equal(one, np.full((1, 3), 3, np.float32))
    assert np.array_equal(two, np.full((1, 3), 9, np.float32))


def test_dense_activation_and_identical_layers_share_code(numba_path):
    nn.set_seed(4)
    seq = nn.SequentialCell([nn.Dense(4, 4, activation="relu"), nn.Dense(4, 4, activation="relu"),
                             nn.Dense(4, 2)])
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
    expected = seq(x)
    tp.set_context(mode=tp.GRAPH_MODE)
    out = seq(x)
    assert np.array_equal(out, expected) and out.dtype == np.float32
    source = tp.nn.cell._graph_function(nn.SequentialCell.construct)._source_for(seq)
    # Two Dense+relu layers share one generated function; the last Dense differs (no relu).
    assert source.count("def Dense_construct") == 2


class Scaled:
    """A plain object (not a Cell) whose method reads attributes of self."""

    def __init__(self, weights, offset, enabled=True):
        self.weights = weights
        self.offset = offset
        self.enabled = enabled

    @tp.jit(fullgraph=True)
    def apply(self, x):
        total = 0.0
        for i in range(x.shape[0]):
            total += x[i] * self.weights[i]
        if self.enabled:
            total += self.offset
        return total

    def plain(self, x):
        return Scaled.apply.python_function(self, x)


def test_method_reading_self_attributes():
    obj = Scaled(np.array([1.0, 2.0, 3.0]), 0.5)
    x = np.array([1.0, 1.0, 2.0])
    assert obj.apply(x) == obj.plain(x) == 9.5
    obj.enabled = False
    assert obj.apply(x) == obj.plain(x) == 9.0
    other = Scaled(np.array([0.0, 0.0, 1.0]), 2.0)
    assert other.apply(x) == other.plain(x) == 4.0


def test_pynative_mode_is_default():
    assert tp.get_context("mode") == tp.PYNATIVE_MODE
    with pytest.raises(ValueError):
        tp.set_context(mode=5)
    with pytest.raises(ValueError):
        tp.get_context("nope")


def test_dense_layout_matches_mindspore():
    dense = nn.Dense(5, 3)
    assert dense.weight.shape == (3, 5) and dense.bias.shape == (3,)
    assert dense.weight.dtype == np.float32 and dense.bias.dtype == np.float32
    assert nn.Dense(5, 3, has_bias=False).bias is None
