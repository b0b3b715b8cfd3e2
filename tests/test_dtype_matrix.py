"""Operator x type matrix (tests/dtype_universe.py): compiled code must do what Python does.

- a fixed sample of the matrix (GRAPHJIT_MATRIX_SAMPLE cases, default 250; seed
  GRAPHJIT_MATRIX_SEED, default 0): every operator on argument pairs of the type universe, one
  jitted object per operator for all its cases; no difference allowed (value, type, dtype,
  exception type, arguments after the call). `make matrix` runs all of it, with a report;
- call histories: one jitted object called with None, str, tuple, complex, NumPy scalars and
  arrays of several dtypes, in several orders; every call must match plain Python, whatever
  was called before (a specialization is never reused for other argument types);
- the harness itself: its comparison rules, no difference for an identity "jit", and
  deliberately wrong "jits" detected.
"""
import os
import random

import numpy as np
import pytest

import transpiler as tp
from dtype_universe import (OPERATORS, report, run, run_matrix, same, show, show_outcome,
                            value_difference)

SAMPLE = int(os.environ.get("GRAPHJIT_MATRIX_SAMPLE", "250"))
SEED = int(os.environ.get("GRAPHJIT_MATRIX_SEED", "0"))


def test_matrix_sample():
    results = run_matrix(sample=SAMPLE, seed=SEED)
    differences = [d for r in results for d in r["differences"]]
    if differences:
        pytest.fail(f"{len(differences)} differences in a sample of {SAMPLE} cases (seed {SEED};"
                    f" the whole matrix: make matrix)\n" + report(results, limit=len(differences)),
                    pytrace=False)


# -- call histories ---------------------------------------------------------------------------

def acc(x, n):
    s = x
    for i in range(n):
        s = s + x
    return s


def twice(x):
    return x * 2


def total(a):
    s = 0.0
    for v in a:
        s += v
    return s


SCALARS = [None, "ab", (1, 2), 1 + 2j, 2.5, 7, True, np.int8(100), np.uint8(200),
           np.int16(-300), np.int64(2 ** 62), np.uint64(2 ** 63), np.float16(0.5),
           np.float32(0.1), np.float64(-0.0), np.complex64(1 + 1j), np.bool_(True)]
ARRAYS = [np.array(values, dtype=dtype) for values, dtype in [
    ([1, 100, -128], np.int8), ([200, 100], np.uint8), ([0.1, 0.2, 0.3], np.float32),
    ([0.5, -1.5], np.float64), ([1 + 1j, 2], np.complex64), ([True, False], np.bool_),
    ([2 ** 62, 3], np.int64), ([65504, 1], np.float16)]]

HISTORIES = {
    "acc": (acc, [(x, n) for x in SCALARS + ARRAYS for n in (0, 3)]),
    "twice": (twice, [(x,) for x in SCALARS + ARRAYS]),
    "total": (total, [(a,) for a in ARRAYS + [None, "abc", (1, 2.5), [1, 2], 1 + 2j,
                                             np.ones((2, 2), np.float32)]]),
}


def _orders(calls):
    """The calls as listed, reversed, and shuffled with three fixed seeds."""
    yield "as listed", calls
    yield "reversed", calls[::-1]
    for seed in range(3):
        shuffled = list(calls)
        random.Random(seed).shuffle(shuffled)
        yield f"shuffled (seed {seed})", shuffled


@pytest.mark.parametrize("name", sorted(HISTORIES))
def test_call_history(name):
    fn, calls = HISTORIES[name]
    problems = []
    for order, sequence in _orders(calls):
        compiled = tp.jit(fn)        # one object for the whole sequence
        for position, args in enumerate(sequence):
            plain, plain_after, _, plain_message = run(fn, args)
            comp, comp_after, _, comp_message = run(compiled, args)
            why = same(plain, comp) or next(
                (f"argument {i} after the call: {d}" for i, (p, c) in
                 enumerate(zip(plain_after, comp_after)) if (d := value_difference(p, c))),
                None)
            if why:
                problems.append(
                    f"{order}, call {position}: {name}({', '.join(map(show, args))}): {why}\n"
                    f"    plain:    {show_outcome(plain, plain_message)}\n"
                    f"    compiled: {show_outcome(comp, comp_message)}")
    if problems:
        pytest.fail(f"{len(problems)} calls differ:\n" + "\n".join(problems), pytrace=False)


# -- the harness itself -------------------------------------------------------------------------

@pytest.mark.parametrize("plain, compiled, agree", [
    (("return", 1.5), ("return", 1.5), True),
    (("return", float("nan")), ("return", float("nan")), True),
    (("return", np.float32("nan")), ("return", -np.float32("nan")), True),
    (("return", (np.int8(1), 2.0)), ("return", (np.int8(1), 2.0)), True),
    (("raise", ZeroDivisionError), ("raise", ZeroDivisionError), True),
    (("return", np.array([1.0, np.nan])), ("return", np.array([1.0, np.nan])), True),
    (("return", 0.0), ("return", -0.0), False),
    (("return", complex(1, 0.0)), ("return", complex(1, -0.0)), False),
    (("return", np.float64(2.0)), ("return", 2.0), False),
    (("return", 2), ("return", True), False),
    (("return", np.int8(1)), ("return", np.int16(1)), False),
    (("return", (np.int8(1), 2.0)), ("return", (np.int8(1), np.float64(2.0))), False),
    (("return", np.array([1, 2], np.int8)), ("return", np.array([1, 2], np.int16)), False),
    (("return", np.array([1, 2])), ("return", np.array([[1, 2]])), False),
    (("return", np.array([1.0, 2.0])), ("return", np.array([1.0, 2.5])), False),
    (("return", 2 ** 64), ("return", 0), False),
    (("raise", ZeroDivisionError), ("raise", ArithmeticError), False),
    (("raise", TypeError), ("return", None), False),
])
def test_same_rules(plain, compiled, agree):
    assert (same(plain, compiled) is None) == agree, same(plain, compiled)


def test_identity_jit_has_no_differences():
    results = run_matrix(sample=3000, seed=1, jit=lambda fn: fn)
    assert sum(r["cases"] for r in results) == 3000
    assert not [d for r in results for d in r["differences"]], report(results)
    # every case ran the plain function: all of them count as having fallen back
    assert sum(r["fallbacks"] for r in results) == 3000


def _as_python_scalars(fn):
    """A wrong "jit": NumPy scalar arguments become Python numbers."""
    return lambda *args: fn(*(x.item() if isinstance(x, np.generic) else x for x in args))


def _zero_to_value_error(fn):
    """A wrong "jit": ZeroDivisionError becomes ValueError."""
    def call(*args):
        try:
            return fn(*args)
        except ZeroDivisionError:
            raise ValueError("wrong") from None
    return call


def _mutates(fn):
    """A wrong "jit": right result, but an array argument is changed afterwards."""
    def call(*args):
        result = fn(*args)
        if isinstance(args[0], np.ndarray) and args[0] is not result:
            args[0][0] = 1
        return result
    return call


@pytest.mark.parametrize("wrong, op, args, why", [
    (_as_python_scalars, "a + b", (np.int8(127), np.int8(127)), "type np.int8 vs int"),
    (_zero_to_value_error, "a // b", (300, 0), "raise ZeroDivisionError vs ValueError"),
    (_mutates, "a - b", (np.array([0.5, -1.5, 3e38], np.float32), 300),
     "argument a after the call: value"),
])
def test_wrong_jit_is_detected(wrong, op, args, why):
    results = run_matrix([o for o in OPERATORS if o.name == op], jit=wrong)
    found = [d for d in results[0]["differences"] if d["args"].startswith(f"a={show(args[0])},")
             and d["args"].endswith(f"b={show(args[1])}")]
    assert [d["why"] for d in found] == [why], report(results, limit=5)
