"""What the island and nested-region tests share: where explain() says a loop compiled and a
statement ran as an island, and a strict comparison with the plain call's results."""
import inspect
import warnings

import numpy as np

import transpiler as tp


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def compiled_lines(jitted):
    """The first lines of the loops explain() reports compiled."""
    return sorted(r.origin.lineno for r in jitted.explain().rows
                  if r.region.strip().startswith("loop") and r.status == "compiled")


def island_lines(jitted):
    """The lines explain() reports as Python islands inside compiled loops."""
    return sorted(r.origin.lineno for r in jitted.explain().rows
                  if r.region.strip().startswith("island"))


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        return fn(*args)


def same(expected, actual):
    """Equal values of equal types (arrays: dtype, shape and bits)."""
    assert type(actual) is type(expected), (type(actual), type(expected))
    if isinstance(expected, tuple):
        assert len(actual) == len(expected)
        for e, a in zip(expected, actual):
            same(e, a)
    elif isinstance(expected, np.ndarray):
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        assert actual.tobytes() == expected.tobytes()
    else:
        assert actual == expected or (actual != actual and expected != expected)
