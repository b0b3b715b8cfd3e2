"""Namedtuples made in a function and read by field (issue 20, passes/namedtuple_locals.py):
one local per field; anything else (returned whole, a wrong call, a read before the
assignment) stays Python, with plain's outcome."""
import sys
import warnings

import numpy as np
import pytest

import transpiler as tp
import suite_functions as S
from reference import assert_compiles_same, assert_same_outcome, outcome

Point = S.Point


def nt_returned_whole(x, y):
    p = Point(x, y)
    return p


def nt_wrong_arity(x):
    p = Point(x)
    return p.x


def nt_read_before(flag, x):
    if flag:
        return p.x
    p = Point(x, x)
    return p.y


def nt_rebound_class(x, y):
    q = Point(x, y)
    return q.x - q.y


@pytest.mark.parametrize("fn,args", [
    (nt_returned_whole, (1.0, 2.0)),      # a tuple in its place would not be a Point
    (nt_wrong_arity, (1.0,)),              # TypeError, as Python
    (nt_read_before, (True, 2.0)),         # UnboundLocalError naming p
    (nt_read_before, (False, 2.0)),
])
def test_other_forms_keep_plain_outcome(fn, args):
    jitted = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(2):
            want, got = outcome(fn, args), outcome(jitted, args)
            assert_same_outcome(*want, *got)
            if want[0][0] == "returned":
                assert type(got[0][1]) is type(want[0][1])
    assert "python" in str(jitted.explain())


def test_items_keep_their_types():
    jitted = assert_compiles_same(S.nt_fields, np.float32(1.5), np.float32(2.0))
    assert type(jitted(np.float32(1.5), np.float32(2.0))) is np.float32


def test_the_class_is_guarded(monkeypatch):
    jitted = tp.jit(nt_rebound_class)
    assert jitted(3.0, 1.0) == 2.0
    Swapped = S._namedtuple("Swapped", "y x")           # fields in the other order
    monkeypatch.setattr(sys.modules[__name__], "Point", Swapped)
    assert jitted(3.0, 1.0) == nt_rebound_class(3.0, 1.0) == -2.0
