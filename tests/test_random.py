"""np.random in compiled code draws what the plain call draws after the same seed, and leaves
NumPy's global state where the plain call would (transpiler/random_state.py); transpiling
never draws."""
import warnings

import numpy as np
import pytest

import transpiler as tp


def draw_sum(n):
    s = 0.0
    for i in range(n):
        s += np.random.random()
    return s


def draw_kinds(n):
    a = np.random.random_sample()
    b = np.random.uniform(-2.0, 3.0)
    c = np.random.rand()
    d = np.random.ranf()
    e = np.random.sample()
    total = 0.0
    for i in range(n):
        total += np.random.uniform(0.0, 1.0) * i
    return a, b, c, d, e, total


def seeded_inside(k):
    np.random.seed(k)
    return np.random.random() + np.random.uniform(1.0, 2.0)


def not_exact(n):
    return np.random.randint(0, 10) + np.random.normal() * n


def _plain_then_compiled(fn, args, seed=1234):
    np.random.seed(seed)
    expected = fn(*args)
    expected_next = np.random.random()
    compiled = tp.jit(fn)
    np.random.seed(seed)
    got = compiled(*args)
    got_next = np.random.random()
    return expected, got, expected_next, got_next


@pytest.mark.parametrize("fn, args", [(draw_sum, (5,)), (draw_kinds, (4,)),
                                      (seeded_inside, (7,)), (draw_sum, (0,))])
def test_same_draws_after_the_same_seed(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)      # these compile
        expected, got, expected_next, got_next = _plain_then_compiled(fn, args)
    assert got == expected and type(got) is type(expected)
    assert got_next == expected_next                             # the state continues alike


def test_later_calls_continue_the_sequence():
    compiled = tp.jit(draw_sum)
    np.random.seed(3)
    expected = [draw_sum(2), draw_sum(3), np.random.random()]
    np.random.seed(3)
    got = [compiled(2), compiled(3), np.random.random()]
    assert got == expected


def test_transpiling_never_draws():
    compiled = tp.jit(draw_kinds)
    np.random.seed(5)
    compiled.source()
    tp.jit(not_exact).source()
    assert np.random.random() == np.random.RandomState(5).random_sample()


def test_functions_numba_draws_otherwise_fall_back():
    with pytest.warns(tp.FallbackWarning, match="np.random.randint draws otherwise"):
        expected, got, expected_next, got_next = _plain_then_compiled(not_exact, (2,))
    assert got == expected and got_next == expected_next


def seed_then_draw(s):
    np.random.seed(s)
    return np.random.random()


def uniform_of(lo, hi):
    return np.random.uniform(lo, hi)


@pytest.mark.parametrize("seed", [-1, 2 ** 32, np.int64(-3), 0, 2 ** 32 - 1])
def test_seeds_numpy_refuses_raise_as_numpy(seed):
    np.random.seed(9)
    plain, _ = _outcome(seed_then_draw, seed)
    plain_next = np.random.random()
    np.random.seed(9)
    compiled, _ = _outcome(tp.jit(seed_then_draw), seed)
    assert compiled == plain and np.random.random() == plain_next


@pytest.mark.parametrize("lo, hi", [(0.0, np.inf), (np.nan, 1.0), (-1.7e308, 1.7e308),
                                    (1.0, 0.0), (2.0, 5.0)])
def test_uniform_of_a_range_numpy_refuses(lo, hi):
    np.random.seed(4)
    plain, _ = _outcome(uniform_of, lo, hi)
    np.random.seed(4)
    compiled, _ = _outcome(tp.jit(uniform_of), lo, hi)
    assert compiled == plain


def test_a_compiled_seed_drops_the_cached_gaussian():
    got = []
    for fn in (seed_then_draw, tp.jit(seed_then_draw)):
        np.random.seed(0)
        np.random.normal()               # NumPy caches the pair's second value
        fn(1)
        got.append(np.random.normal())
    assert got[0] == got[1]


def _outcome(fn, *args):
    try:
        return ("returned", fn(*args)), None
    except Exception as exc:  # noqa: BLE001 - the type and message are the outcome
        return ("raised", type(exc), str(exc)), None
