"""Calls of local functions (lambdas, nested defs; made at the top level or in a loop's
body) give the plain call's values and types: a keyword call is typed as Python binds it, a
capture shadowed by a comprehension's own variable is not passed by that name, and an
element of a 1-D array iterated by ``for`` stays a NumPy scalar in the callee (found by
review, stop 31)."""
import warnings

import numpy as np
import pytest

import transpiler as tp
from reference import assert_same_outcome, outcome


def keyword_in_loop(n):
    c = 0
    for i in range(n):
        g = lambda y: y * 0.5
        c = c + g(y=i)
    return c


def keyword_top_level(n):
    c = 0
    g = lambda y: y * 0.5
    for i in range(n):
        c = c + g(y=i)
    return c


def helper(x, scale=2, shift=0.5):
    return x * scale + shift


def keyword_user_function(n):
    c = 0
    for i in range(n):
        c = c + helper(i, shift=1)
    return c


def shadowed_by_comprehension(n):
    s = 0
    for i in range(n):
        g = lambda: i
        s += sum([g() for i in range(3)])
    return s


def element_into_lambda(a):
    r = a[0]
    g = lambda t, v: t * v
    for i, v in enumerate(a):
        r = g(i, v)
    return r


def element_with_constant(a):
    r = a[0]
    g = lambda t, v: t * v
    for v in a:
        r = g(3, v)
    return r


def in_tuple(n, x):
    return x in (n, 1), n in (x, 1.5)


def bool_against_float(n):
    return (n > 0) < 2.0 ** 53


CALLS = [
    (keyword_in_loop, (0,)), (keyword_in_loop, (3,)), (keyword_top_level, (0,)),
    (keyword_top_level, (2,)), (keyword_user_function, (0,)), (keyword_user_function, (3,)),
    (shadowed_by_comprehension, (2,)), (shadowed_by_comprehension, (0,)),
    (element_into_lambda, (np.array([100, 50, 3], np.int8),)),
    (element_into_lambda, (np.array([7, 9], np.uint8),)),
    (element_into_lambda, (np.array([1.5, 2.5], np.float32),)),
    (element_into_lambda, (np.array([2, 3]),)),
    (element_with_constant, (np.array([100, 50, 3], np.int8),)),
    (element_with_constant, (np.array([0.5], np.float32),)),
    (in_tuple, (2 ** 53 + 1, 2.0 ** 53)), (in_tuple, (3, 3.0)), (in_tuple, (1, 0.5)),
    (bool_against_float, (3,)), (bool_against_float, (-1,)),
]


@pytest.mark.parametrize("fn,args", CALLS, ids=lambda v: getattr(v, "__name__", None))
def test_equals_plain(fn, args):
    compiled = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain, got = outcome(fn, args), outcome(compiled, args)
    assert_same_outcome(plain[0], plain[1], got[0], got[1])


def test_still_compiled():
    for fn, args in [(element_into_lambda, (np.array([100, 50, 3], np.int8),)),
                     (element_with_constant, (np.array([1, 2], np.int8),)),
                     (bool_against_float, (3,))]:
        compiled = tp.jit(fn, fullgraph=True)
        assert_same_outcome(*outcome(fn, args), *outcome(compiled, args))
