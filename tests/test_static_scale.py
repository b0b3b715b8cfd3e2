"""Static evaluation at scale: a 1,000-element static list unrolls without hitting a recursion
or depth limit, and the result equals the plain call."""
import re
import sys
import warnings

import numpy as np

import transpiler as tp
from reference import assert_compiles_same


class Scale:
    def __init__(self, factor):
        self.factor = factor

    def apply(self, x):
        return x * self.factor + 1.0


LAYERS = [Scale(1.0 + (i % 3) * 0.5) for i in range(1000)]


def run_all(x):
    for layer in LAYERS:
        x = layer.apply(x) * 0.5
    return x


def run_with_break(x, limit):
    for i, layer in enumerate(LAYERS):
        if x > limit:
            break
        x = layer.apply(x)
    return x


def test_thousand_element_static_list(monkeypatch):
    monkeypatch.setattr(sys, "getrecursionlimit", sys.getrecursionlimit)
    # a Python float: an np.float64 beside the method results, which are typed only where
    # converted, falls back (Numba would box it as a Python float)
    compiled = assert_compiles_same(run_all, 0.25, backend="eager")
    # one call per layer (inside the NEP 50 helper of ``* 0.5``: the product's left side is a call)
    assert len(re.findall(r"(?<!def )Scale_apply(_\d)?\(x\)", compiled.source())) == 1000


def test_thousand_element_static_list_with_break():
    # Eager backend: Numba takes minutes to compile 1,000 guarded copies (README, "Known
    # gaps"); a shorter list checks the Numba path below.
    assert_compiles_same(run_with_break, 1.0, 1e6, backend="eager")
    assert_compiles_same(run_with_break, 1.0, 1e300, backend="eager")


SHORT = LAYERS[:40]


def run_short_with_break(x, limit):
    for layer in SHORT:
        if x > limit:
            break
        x = layer.apply(x)
    return x


def run_short_arrays_with_break(x, limit):
    for layer in SHORT:
        if x[0] > limit:
            break
        x = layer.apply(x)
    return x


def test_static_list_with_break_compiles_with_numba():
    # (arrays: a float result of the layers' methods is a call's result the analyses do not
    # type, checked against the overload's return type: it runs as Python, below)
    assert_compiles_same(run_short_arrays_with_break, np.array([1.0, 2.0]), 1e6)
    assert_compiles_same(run_short_arrays_with_break, np.array([1.0, 2.0]), 1e300)


def test_static_list_of_float_methods_gives_the_plain_calls_type():
    compiled = tp.jit(run_short_with_break)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for x in (1.0, np.float64(1.0), np.float32(1.0)):
            for limit in (1e6, 1e300):
                got, expected = compiled(x, limit), run_short_with_break(x, limit)
                assert type(got) is type(expected) and got == expected
