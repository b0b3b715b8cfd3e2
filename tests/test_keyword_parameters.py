"""Keyword-only and positional-only parameters (the most frequent reason Numba's own usecases
did not compile): the dispatcher binds every argument in the signature's order, defaults
applied, and the generated function takes them positionally. Plain and jitted calls compared
by value, type and exception class; explain() shows compiled code; **kwargs still runs as
Python and says so."""
import warnings

import numpy as np
import pytest

import transpiler as tp


def scaled_sum(x, *, scale=2.0, shift=0.0):
    t = np.float64(0.0)
    for i in range(x.shape[0]):
        t += x[i] * scale
    return t + shift


def positional(a, /, b, *rest, c=3):
    return a + b + len(rest) * c


def needs_k(x, *, k):
    return x * k


def with_kwargs(x, **options):
    return x + len(options)


def outcome(fn, *args, **kwargs):
    try:
        value = fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - compared below
        return ("raise", type(exc), str(exc))
    return ("value", type(value), value)


CALLS = [
    (scaled_sum, (np.arange(5.0),), {}), (scaled_sum, (np.arange(5.0),), {"scale": 3}),
    (scaled_sum, (np.arange(4, dtype=np.float32),), {"shift": 1.5, "scale": 0.5}),
    (positional, (1, 2, 3, 4), {"c": 5}), (positional, (1,), {"b": 2}),
    (positional, (), {"a": 1, "b": 2}), (needs_k, (2,), {"k": 3}), (needs_k, (2.5,), {"k": 2}),
    (needs_k, (2,), {}), (needs_k, (2, 3), {})]


@pytest.mark.parametrize("fn, args, kwargs", CALLS)
def test_keyword_only_and_positional_only_parameters(fn, args, kwargs):
    jitted = tp.jit(fn)
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            assert outcome(jitted, *args, **kwargs) == outcome(fn, *args, **kwargs)


def test_they_compile():
    for fn, args, kwargs in [(scaled_sum, (np.arange(5.0),), {"scale": 3}),
                             (positional, (1, 2, 3), {"c": 4}), (needs_k, (2,), {"k": 3})]:
        jitted = tp.jit(fn)
        with warnings.catch_warnings():
            warnings.simplefilter("error", tp.FallbackWarning)
            jitted(*args, **kwargs)
        assert [r.status for r in jitted.explain().rows] == ["compiled"], str(
            jitted.explain())


def test_a_kwargs_parameter_runs_as_python_and_explain_says_why():
    jitted = tp.jit(with_kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert jitted(1, a=2, b=3) == 3
    rows = jitted.explain().rows
    assert [r.status for r in rows] == ["python"] and "**kwargs" in rows[0].reason
