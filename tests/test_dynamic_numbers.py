"""Automatic dynamic numbers (transpiler/dynamic_numbers.py): a closure factory's captured float,
or a global float, seen with a second value becomes a runtime input, so the factory's closures
share one specialization. Every result is compared with the plain call: value bits, type, dtype,
exception type."""
import math
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler import dynamic_numbers


def _same(plain, compiled):
    (want, want_error), (got, got_error) = plain, compiled
    assert want_error is got_error
    if want_error is None:
        assert type(want) is type(got)
        assert np.asarray(want).dtype == np.asarray(got).dtype
        assert np.asarray(want).tobytes() == np.asarray(got).tobytes()


def _run(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args]), None
        except Exception as exc:  # noqa: BLE001 - compared by type
            return None, type(exc)


def make_sum(k):
    def scaled_sum(x):
        total = 0.0
        for i in range(x.shape[0]):
            total += x[i] * k + math.floor(k)
            if k > 0.5:
                total -= k ** 2
        return total
    return scaled_sum


def make_graph(k):
    def affine(x):
        return x * k + np.exp(-k * x)
    return affine


def make_div(k):
    def divide(x):
        s = 0.0
        for i in range(x.shape[0]):
            s += x[i] / k
        return s
    return divide


VALUES = (1.0, 2.5, -1.0, 0.0, -0.0, 3.3, float("nan"), float("inf"), 1e300)


@pytest.mark.parametrize("factory", [make_sum, make_graph, make_div])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_closures_of_one_factory_equal_plain(factory, dtype):
    x = np.arange(6, dtype=dtype) - 2.5
    for k in VALUES:
        closure = factory(k)
        _same(_run(closure, x), _run(tp.jit(closure), x))


def test_two_hundred_closures_compile_once_more(monkeypatch):
    from numba.core.dispatcher import Dispatcher
    compiles = []
    original = Dispatcher._compile_for_args

    def counting(self, *args, **kwargs):
        compiles.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Dispatcher, "_compile_for_args", counting)

    def factory(k):
        def scaled(x):
            total = 0.0
            for i in range(x.shape[0]):
                total += x[i] * k
            return total
        return scaled

    x = np.arange(50.0)
    for j in range(200):
        closure = factory(0.25 * j - 3.0)
        assert tp.jit(closure, fullgraph=True)(x) == closure(x)
    # the first value a constant, every later one read at run time: two Numba compiles
    assert len(compiles) <= 2


SCALE = 1.5


def scale_by_global(x):
    return x * SCALE


def test_a_global_float_that_changes_is_read_at_each_call():
    global SCALE
    jitted = tp.jit(scale_by_global)
    x = np.arange(4, dtype=np.float32)
    try:
        for value in (1.5, 2.0, 3.0, -0.0, 2.0):
            SCALE = value
            _same(_run(scale_by_global, x), _run(jitted, x))
    finally:
        SCALE = 1.5


def test_ints_stay_constants():
    def code():
        pass
    assert not dynamic_numbers.is_dynamic(code.__code__, (("cell", "n"),), 1.0)
    # the same bits again: still a constant; -0.0 is another value than 0.0
    assert not dynamic_numbers.is_dynamic(code.__code__, (("cell", "n"),), 1.0)
    assert dynamic_numbers.is_dynamic(code.__code__, (("cell", "n"),), 2.0)
    assert dynamic_numbers.is_dynamic(code.__code__, (("cell", "n"),), 1.0)

    def factory(n):
        def ones():
            return np.ones(n)
        return ones
    for n in (3, 4, 5):    # an int sizes an array: never made dynamic (only floats are)
        closure = factory(n)
        _same(_run(closure), _run(tp.jit(closure)))


def test_a_specialization_that_needs_the_constant_pins_it(monkeypatch):
    from transpiler import pipeline
    from transpiler.errors import UnsupportedConstruct
    original = pipeline.compile_function
    refused = []

    def refuse_dynamic(fn, *args, **kwargs):
        made = original(fn, *args, **kwargs)
        if made.program.entry.inputs and not refused:
            refused.append(fn)
            raise UnsupportedConstruct("needs the constant", None)
        return made

    monkeypatch.setattr(pipeline, "compile_function", refuse_dynamic)

    def factory(k):
        def shifted(x):
            total = 0.0
            for i in range(x.shape[0]):
                total += x[i] + k
            return total
        return shifted

    x = np.arange(5.0)
    for k in (0.5, 1.5, 2.5):
        closure = factory(k)
        jitted = tp.jit(closure)
        assert jitted(x) == closure(x)
        # converted again with the number a constant: compiled, not Python
        assert "python" not in str(jitted.explain()).split("\n")[1].split()[0]
    assert refused


SHARED = 1.0


def _sum_plain(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += float(x[i])
    return s


def _sum_scaled(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += float(x[i]) * SHARED
    return s


CALLEE = _sum_plain


def reads_shared_then_calls(x):
    return SHARED + CALLEE(x)      # SHARED is read before the callee is converted


def test_a_float_dynamic_in_the_caller_is_dynamic_in_its_callees():
    """Found by review: the caller's SHARED became a runtime input (type guard only) while a
    callee converted later froze it as a constant; the value guard was dropped (one guard per
    path), so the callee kept a stale value."""
    global SHARED, CALLEE
    jitted, x = tp.jit(reads_shared_then_calls), np.arange(4.0)
    try:
        for value, callee in ((1.0, _sum_plain), (2.0, _sum_plain), (3.0, _sum_scaled),
                              (4.0, _sum_scaled), (5.0, _sum_scaled)):
            SHARED, CALLEE = value, callee
            _same(_run(reads_shared_then_calls, x), _run(jitted, x))
    finally:
        SHARED, CALLEE = 1.0, _sum_plain
