"""Instances of one Cell class with the same static structure share one compiled program:
guards on the structure (types, lengths, scalar attributes) decide, not object identity."""
import gc
import weakref

import numpy as np
import pytest

import transpiler as tp
from transpiler import api, nn


class Small(nn.Cell):
    def __init__(self, n_in=6, n_out=3, act="relu", scale=1.0):
        super().__init__()
        self.body = nn.SequentialCell(nn.Dense(n_in, 4, activation=act), nn.Dense(4, n_out))
        self.scale = scale

    def construct(self, x):
        return self.body(x) * self.scale


class Twice(nn.Cell):
    """Uses the identity of its layers: not shareable."""

    def __init__(self, same):
        super().__init__()
        self.a = nn.ReLU()
        self.b = self.a if same else nn.ReLU()

    def construct(self, x):
        if self.a is self.b:
            return x + 1.0
        return x - 1.0


@pytest.fixture
def transpiles(monkeypatch):
    count = []
    original = api.JitFunction._specialize

    def counting(self, obj, values):
        count.append(obj)
        return original(self, obj, values)
    monkeypatch.setattr(api.JitFunction, "_specialize", counting)
    return count


@pytest.fixture
def Fresh():
    """A new subclass of Small: specializations are shared per class, so each test starts
    with none (the construct function, and its JitFunction, are Small's)."""
    return type("Fresh", (Small,), {})


@pytest.fixture
def graph_mode():
    tp.set_context(mode=tp.GRAPH_MODE)
    yield
    tp.set_context(mode=tp.PYNATIVE_MODE)


def _plain(cell, x):
    tp.set_context(mode=tp.PYNATIVE_MODE)
    try:
        return cell(x)
    finally:
        tp.set_context(mode=tp.GRAPH_MODE)


def test_a_thousand_instances_transpile_once(transpiles, graph_mode, Fresh):
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6)
    nn.set_seed(3)
    for i in range(1000):
        cell = Fresh()
        out = cell(x)
        if i % 97 == 0:   # each instance computes with its own weights
            expected = _plain(cell, x)
            assert out.dtype == expected.dtype
            np.testing.assert_array_equal(out, expected)
    assert len(transpiles) == 1


def test_other_structure_or_values_specialize_again(transpiles, graph_mode, Fresh):
    x = np.ones((2, 6), np.float32)
    cells = [Fresh(), Fresh(), Fresh(scale=2.0), Fresh(n_out=5), Fresh(act=None), Fresh(),
             Fresh(scale=2)]
    for cell in cells:
        out = cell(x)
        expected = _plain(cell, x)
        assert out.shape == expected.shape and out.dtype == expected.dtype
        np.testing.assert_array_equal(out, expected)
    # widths are array shapes, not static: n_out=5 shares; a new scale value, scale type or
    # activation does not
    assert len(transpiles) == 4


def test_a_replaced_sub_cell_of_another_type_specializes_again(transpiles, graph_mode, Fresh):
    x = np.ones((2, 6), np.float32)
    cell = Fresh()
    cell(x)
    cell.body.cell_list[0] = nn.Dense(6, 4)          # no activation now
    np.testing.assert_array_equal(cell(x), _plain(cell, x))
    cell.body.append(nn.ReLU())
    np.testing.assert_array_equal(cell(x), _plain(cell, x))
    assert len(transpiles) == 3


@pytest.mark.parametrize("first", [True, False])
def test_code_that_uses_identity_is_not_shared(first, graph_mode):
    x = np.arange(3.0)
    one, other = Twice(same=first), Twice(same=not first)
    assert np.array_equal(one(x), _plain(one, x))
    assert np.array_equal(other(x), _plain(other, x))


def test_shared_code_does_not_keep_instances_alive(graph_mode, Fresh):
    x = np.ones((2, 6), np.float32)
    cell = Fresh()
    cell(x)
    ref = weakref.ref(cell)
    weight = weakref.ref(cell.body.cell_list[0].weight)
    del cell
    gc.collect()
    assert ref() is None and weight() is None
