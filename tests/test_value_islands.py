"""Value islands (transpiler/islands.py): a statement ``x = e`` or ``x op= e`` that compiled
code cannot compute exactly, whose ``x`` the compiled loop reads, runs as Python inside the
loop and gives compiled code its value, typed by the scalar analysis of ``e`` and checked when
it runs. Each case runs plainly and through one jitted object (first and second call),
comparing values, types, dtypes, argument mutation and exceptions; explain() must show the
loop compiled and the statement as an island."""
import threading

import numpy as np
import pytest

import transpiler as tp
from transpiler.island_frames import _is_kind


from island_checks import compiled_lines, island_lines, line_of, quiet, same


def check(fn, make, loop_text, island_text, calls=2):
    """Plain vs jitted (``calls`` times through one object): results and arguments equal;
    the loop at ``loop_text`` compiled with an island at ``island_text``."""
    jitted = tp.jit(fn)
    for _ in range(calls):
        plain_args, jit_args = make(), make()
        expected = fn(*plain_args)
        actual = quiet(jitted, *jit_args)
        same(expected, actual)
        for p, j in zip(plain_args, jit_args):
            if isinstance(p, np.ndarray):
                same(p, j)
    assert line_of(fn, loop_text) in compiled_lines(jitted), str(jitted.explain())
    assert line_of(fn, island_text) in island_lines(jitted), str(jitted.explain())
    return jitted


def centers(X, labels, k):
    C = np.zeros((k, X.shape[1]), dtype=X.dtype)
    total = 0.0
    for j in range(k):
        mu = np.median(X[labels == j], axis=0)  # NumPy's own median: an island
        for d in range(X.shape[1]):
            C[j, d] = mu[d] * 2
            total += mu[d]
    return C, total


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_an_array_value_island_in_an_outer_loop(dtype):
    rng = np.random.default_rng(0)
    X = rng.random((50, 3)).astype(dtype)
    labels = rng.integers(0, 4, 50)
    check(centers, lambda: (X, labels, 4), "for j in range(k)", "np.median(X[labels == j]")


def median_total(X):
    total = np.float64(0.0)
    count = 0
    for j in range(X.shape[0]):
        t = np.median(X[j])                     # np.float64: kept an np.float64
        total = total + t
        c = np.count_nonzero(X[j] > 0.5)        # a Python int
        count += c
    return total, count


def test_number_value_islands_keep_python_and_numpy_types():
    X = np.random.default_rng(1).random((9, 6))
    check(median_total, lambda: (X,), "for j in range(X.shape[0])", "np.median")


def sums_into(s, X, k):
    for j in range(k):
        s += np.median(X[j::k], axis=0)         # s updated in place by Python
        s[0] = s[0] + 1.0
    return s


def test_an_in_place_update_island_of_an_argument():
    X = np.random.default_rng(2).random((40, 3))
    check(sums_into, lambda: (np.zeros(3), X, 4), "for j in range(k)", "s += np.median(X[j::k]")


def percentile_rows(X, q, out):
    for j in range(X.shape[0]):
        p = np.percentile(X[j], q[j], axis=0)   # q[3] is out of range: ValueError
        out[j] = p[0] + p[1]
    return out


def test_a_value_island_that_raises_after_effects():
    X = np.random.default_rng(6).random((5, 4, 2))
    q = np.array([10.0, 50.0, 90.0, 150.0, 20.0])
    jitted = tp.jit(percentile_rows)
    for _ in range(2):
        plain_out, jit_out = np.zeros(5), np.zeros(5)
        with pytest.raises(ValueError) as plain_error:
            percentile_rows(X, q, plain_out)
        with pytest.raises(ValueError) as jit_error:
            quiet(jitted, X, q, jit_out)
        assert str(jit_error.value) == str(plain_error.value)
        same(plain_out, jit_out)                # the stores before the raise, as Python's
    assert line_of(percentile_rows, "np.percentile") in island_lines(jitted), \
        str(jitted.explain())


def shrink(X, tol):
    steps = 0
    v = X.copy()
    while v.std() > tol:
        w = np.sort(v, axis=0)                 # an island in a while loop
        for i in range(v.shape[0]):
            v[i] = (v[i] + w[i]) * 0.5
        v = v * 0.5
        steps += 1
    return steps, v


def test_a_value_island_in_a_while_loop():
    X = np.random.default_rng(3).random(8)
    check(shrink, lambda: (X, 1e-3), "while v.std() > tol", "np.sort(v, axis=0)")


def threaded(X, labels, k):
    return centers(X, labels, k)


def test_value_islands_under_threads():
    rng = np.random.default_rng(4)
    X = rng.random((60, 3))
    labels = rng.integers(0, 3, 60)
    expected = centers(X, labels, 3)
    jitted = tp.jit(centers)
    results, errors = [None] * 4, []

    def work(k):
        try:
            for _ in range(3):
                results[k] = quiet(jitted, X, labels, 3)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for r in results:
        same(expected, r)


def helper(row):
    return row.sum(axis=0) if row.ndim > 1 else row.max()


def untyped_value(X):
    total = 0.0
    for j in range(X.shape[0]):
        v = helper(X[j])        # a user function: compiled code may convert it
        total += v
    return total


def test_a_value_of_no_one_known_type_is_correct():
    X = np.random.default_rng(5).random((6, 4))
    jitted = tp.jit(untyped_value)
    for _ in range(2):
        same(untyped_value(X), quiet(jitted, X))


@pytest.mark.parametrize("value, kind, expected", [
    (1.5, "float", True), (np.float64(1.5), "float", False), (np.float64(1.5), "np:float64", True),
    (1, "int", True), (True, "int", False), (True, "bool", True), (np.int64(1), "int", False),
    (np.zeros((2, 2), np.float32), "arr:float32:2", True),
    (np.zeros((2, 2), np.float32), "arr:float64:2", False),
    (np.zeros(2, np.float32), "arr:float32:2", False),
    (np.ma.zeros(2), "arr:float64:1", False), (1 + 2j, "complex", True)])
def test_a_value_is_checked_against_its_type_exactly(value, kind, expected):
    """A value island's value is checked against the type compiled code was specialized on
    (a graphjit bug would be loud, never a silent conversion)."""
    assert _is_kind(value, kind) is expected


# -- island reads of a name that is a Python number or a NumPy scalar by path -------------------

def running_log(x, log):
    e = 0.0
    for i in range(x.shape[0]):
        e += x[i]                   # from here on an np.float64, 0.0 before the loop
        log.append(e)               # the island reads it as the np.float64 it is
    return e


def log_before_update(x, log):
    e = 0.0
    for i in range(x.shape[0]):
        log.append(e)               # a float at i == 0, an np.float64 after
        e += x[i]
    return e


def log_after_branch(x, log):
    e = 0
    for i in range(x.shape[0]):
        if x[i] > 0.5:
            e = x[i]                # an np.float64 on one path, an int on the other
        log.append(e)
    return e


@pytest.mark.parametrize("fn", [running_log, log_before_update, log_after_branch])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_an_island_reads_a_merged_number_as_python_holds_it(fn, dtype):
    x = (np.random.default_rng(7).random(12) * 4).astype(dtype)
    jitted = tp.jit(fn)
    for _ in range(2):
        plain_log, jit_log = ["start"], ["start"]
        expected = fn(x, plain_log)
        actual = quiet(jitted, x, jit_log)
        same(expected, actual)
        assert len(jit_log) == len(plain_log)
        for p, j in zip(plain_log, jit_log):
            same(p, j)                  # each element's type, as Python held it there
    if fn is running_log and dtype is np.float64:
        assert line_of(fn, "for i in range") in compiled_lines(jitted), str(jitted.explain())
