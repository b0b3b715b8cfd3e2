"""The seed network for ``make bench`` and the two hand-written baselines it is measured against.

The network is MindSpore's quick-start model (Flatten, Dense(784, 512), ReLU, Dense(512, 512),
ReLU, Dense(512, 10), float32). ``numpy_by_hand`` and ``njit_by_hand`` compute the same thing
directly on the same weight arrays: NumPy written by hand, and a ``numba.njit`` function using
``np.dot`` with the weights passed as arguments (``njit_by_hand()`` compiles it).
"""
import numpy as np

from transpiler import nn


class Network(nn.Cell):
    """The seed network; ``construct`` runs eagerly in PYNATIVE_MODE, compiled in GRAPH_MODE."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(),
            nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def make_network(seed=0):
    """The seed network with weights drawn from ``seed``."""
    nn.set_seed(seed)
    return Network()


def weights(net):
    """(w1, b1, w2, b2, w3, b3): the network's own weight and bias arrays (not copies)."""
    d1, d2, d3 = net.dense_relu_sequential.cell_list[0::2]
    return d1.weight, d1.bias, d2.weight, d2.bias, d3.weight, d3.bias


def numpy_by_hand(x, w1, b1, w2, b2, w3, b3):
    """The network written directly in NumPy."""
    x = x.reshape((x.shape[0], -1))
    x = np.maximum(np.dot(x, w1.T) + b1, 0)
    x = np.maximum(np.dot(x, w2.T) + b2, 0)
    return np.dot(x, w3.T) + b3


def for_njit(x, w1, b1, w2, b2, w3, b3):
    """The network written for ``numba.njit`` (a float32 zero keeps ReLU in float32)."""
    zero = np.float32(0)
    x = x.reshape((x.shape[0], -1))
    x = np.maximum(np.dot(x, w1.T) + b1, zero)
    x = np.maximum(np.dot(x, w2.T) + b2, zero)
    return np.dot(x, w3.T) + b3


def njit_by_hand(cache=False):
    """``numba.njit(for_njit)``; Numba is imported here so that importing this module (as the
    fresh-process child does) does not import Numba ahead of graphjit."""
    import numba
    return numba.njit(cache=cache)(for_njit)
