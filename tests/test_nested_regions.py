"""Fallback where the time is not: a loop that needs Python keeps the loops inside it compiled,
and an argument compiled code cannot take (a dict, an object) costs only the statements that
read it. Each case runs plainly and through one jitted object, comparing values, types,
dtypes, argument mutation, output and exceptions; explain() says which loops compiled."""
import threading

import numpy as np
import pytest

import transpiler as tp


from island_checks import compiled_lines, island_lines, line_of, quiet, same


# -- a dict argument --------------------------------------------------------------------------

def row_norms(X, settings):
    n = X.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j] * X[i, j]
        out[i] = s
    settings["calls"] = settings.get("calls", 0) + 1
    if settings.get("verbose"):
        print(f"{settings['tag']}: {float(out.sum()):.3f}")
    return out


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16, np.uint8])
def test_a_dict_argument_leaves_the_loop_compiled(dtype, capsys):
    X = (np.arange(24).reshape(6, 4) % 7).astype(dtype)
    plain_settings = {"tag": "t", "verbose": True}
    expected = row_norms(X.copy(), plain_settings)
    plain_out = capsys.readouterr().out
    jitted = tp.jit(row_norms)
    settings = {"tag": "t", "verbose": True}
    with pytest.warns(tp.FallbackWarning, match=r"argument 'settings' is a dict"):
        first = jitted(X, settings)
    second = jitted(X, settings)       # the kept decision (fast path): the same split
    assert capsys.readouterr().out == plain_out * 2
    same(expected, first)
    same(expected, second)
    assert settings == {"tag": "t", "verbose": True, "calls": 2}
    assert compiled_lines(jitted) == [line_of(row_norms, "for i in range(n)")]
    # arrays alone still compile whole for another call with other types
    assert "argument 'settings'" in str(jitted.explain())


def test_an_int_beyond_int64_is_not_kept_for_the_types():
    """An int beyond int64 refuses the call by its value: the next call of the same types
    with a small int compiles whole."""
    def scaled(a, k):
        s = 0
        for i in range(a.shape[0]):
            s += a[i]
        return int(s) * k
    jitted = tp.jit(scaled)
    big = 2 ** 70
    assert quiet(jitted, np.arange(4), big) == scaled(np.arange(4), big)
    assert jitted(np.arange(4), 3) == 18          # no warning: compiled whole
    assert any(r.region == "function" and r.status == "compiled"
               for r in jitted.explain().rows)


# -- one statement that needs Python in an outer loop --------------------------------------------

def kmeans(X, C, iters):
    n, d = X.shape
    k = C.shape[0]
    labels = np.zeros(n, dtype=np.int64)
    for it in range(iters):
        for i in range(n):
            best = 0
            bd = np.inf
            for j in range(k):
                dist = 0.0
                for t in range(d):
                    diff = X[i, t] - C[j, t]
                    dist += diff * diff
                if dist < bd:
                    bd = dist
                    best = j
            labels[i] = best
        for j in range(k):
            m = labels == j
            if m.any():
                C[j] = X[m].mean(axis=0)
    return labels, C


@pytest.mark.parametrize("dtype", [np.float64])
def test_kmeans_inner_loops_compile_around_a_mean(dtype):
    """(float32: ``dist = 0.0; dist += diff * diff`` is a Python float or an np.float32 by
    path, a typing gap of its own: every loop then runs as Python, exactly.)"""
    rng = np.random.default_rng(1)
    X = rng.random((60, 3)).astype(dtype)
    C0 = X[:4].copy()
    C_plain = C0.copy()
    expected = kmeans(X, C_plain, 3)
    jitted = tp.jit(kmeans)
    C = C0.copy()
    actual = quiet(jitted, X, C, 3)
    same(expected, actual)
    same(C_plain, C)                       # the argument mutated as Python does
    # the iteration loop compiled with the mean inside it: NumPy's mean along an axis in
    # compiled code (transpiler.helpers.numpy_axis_reductions; it was a Python island before)
    assert line_of(kmeans, "for it in range(iters)") in compiled_lines(jitted) or [
        r.status for r in jitted.explain().rows] == ["compiled"], str(jitted.explain())
    assert island_lines(jitted) == [], str(jitted.explain())
    again = C0.copy()
    same(expected, quiet(jitted, X, again, 3))


def std_rows(X, groups):
    out = np.zeros((groups, X.shape[1]))
    counts = np.zeros(groups, dtype=np.int64)
    for g in range(groups):
        m = np.zeros(X.shape[0], dtype=np.bool_)
        for i in range(X.shape[0]):
            if i % groups == g:
                m[i] = True
                counts[g] += 1
        out[g] = X[m].std(axis=0)
    return out, counts


def test_a_reduction_along_an_axis_keeps_the_inner_loop_compiled():
    X = np.random.default_rng(2).random((30, 4))
    expected = std_rows(X, 3)
    jitted = tp.jit(std_rows)
    same(expected, quiet(jitted, X, 3))
    assert [r.status for r in jitted.explain().rows] == ["compiled"], str(jitted.explain())


def median_rows(X, groups):
    out = np.zeros((groups, X.shape[1]))
    for g in range(groups):
        m = np.zeros(X.shape[0], dtype=np.bool_)
        for i in range(X.shape[0]):
            if i % groups == g:
                m[i] = True
        out[g] = np.median(X[m], axis=0)
    return out


def test_a_median_along_an_axis_is_an_island_in_a_compiled_loop():
    X = np.random.default_rng(2).random((30, 4))
    expected = median_rows(X, 3)
    jitted = tp.jit(median_rows)
    same(expected, quiet(jitted, X, 3))
    assert compiled_lines(jitted) == [line_of(median_rows, "for g in range(groups)")]
    assert island_lines(jitted) == [line_of(median_rows, "np.median(X[m], axis=0)")]
    row = next(r for r in jitted.explain().rows if r.region.strip().startswith("island"))
    assert "ran 3 time(s)" in row.reason, row.reason


# -- islands: effects, exceptions, while loops, nested functions, threads -----------------------

def island_effects(a, log):
    total = 0.0
    k = 0
    while k < 3:
        for i in range(a.shape[0]):
            total += a[i] * (k + 1)
            if i % 2 == 0:
                log.append(f"round {k}, element {i}")      # a list of str: Python
        k += 1
    return total, log


def test_an_island_with_effects_in_a_while_loop():
    a = np.arange(5.0)
    plain_log, log = [], []
    expected = island_effects(a, plain_log)
    jitted = tp.jit(island_effects)
    actual = quiet(jitted, a, log)
    assert actual[0] == expected[0] and type(actual[0]) is type(expected[0])
    assert log == plain_log and actual[1] is log
    assert compiled_lines(jitted) == [line_of(island_effects, "while k < 3")]
    assert island_lines(jitted) == [line_of(island_effects, "log.append")]
    again = []
    assert quiet(jitted, a, again)[0] == expected[0] and again == plain_log


def island_raises(a, table, seen):
    s = 0.0
    for r in range(a.shape[0]):
        for c in range(a.shape[1]):
            s += a[r, c]
        a[r, 0] = -1.0
        seen.append(table[r])           # KeyError for a missing row: Python's, at this line
    return s


def test_an_island_that_raises_after_effects():
    a = np.arange(12.0).reshape(3, 4)
    table = {0: 1.0, 1: 2.0}            # no key 2
    plain_a, plain_seen, seen = a.copy(), [], []
    with pytest.raises(KeyError) as plain:
        island_raises(plain_a, table, plain_seen)
    jitted = tp.jit(island_raises)
    with pytest.raises(KeyError) as compiled:
        quiet(jitted, a, table, seen)
    assert compiled.value.args == plain.value.args
    np.testing.assert_array_equal(a, plain_a)      # each store made exactly once
    assert seen == plain_seen == [1.0, 2.0]
    assert compiled_lines(jitted) == [line_of(island_raises, "for r in range")]
    assert island_lines(jitted) == [line_of(island_raises, "seen.append(table[r])")]
    tb = compiled.traceback
    assert any(entry.lineno + 1 == line_of(island_raises, "seen.append(table[r])")
               for entry in tb)


def with_nested_function(a, names):
    def scale(v):
        return v * 2.0
    total = 0.0
    for r in range(a.shape[0]):
        row = 0.0
        for c in range(a.shape[1]):
            row += a[r, c]
        total += row
        names[r] = scale(row)
    return total


def test_an_island_calls_a_nested_function():
    a = np.arange(6.0).reshape(2, 3)
    plain_names, names = {}, {}
    expected = with_nested_function(a, plain_names)
    jitted = tp.jit(with_nested_function)
    actual = quiet(jitted, a, names)
    assert actual == expected and type(actual) is type(expected)
    assert names == plain_names
    assert all(type(names[k]) is type(plain_names[k]) for k in names)
    assert line_of(with_nested_function, "for c in range") in compiled_lines(jitted)


def test_islands_under_threads():
    rng = np.random.default_rng(3)
    X = rng.random((40, 3))
    C0 = X[:3].copy()
    expected = kmeans(X, C0.copy(), 2)
    jitted = tp.jit(kmeans)
    results, errors = [None] * 4, []

    def work(k):
        try:
            results[k] = quiet(jitted, X, C0.copy(), 2)
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


# -- expression islands: a value whose type Python fixes -----------------------------------------

def parse_and_weigh(strs, a):
    t = 0.0
    for j in range(a.shape[0]):
        k = int(strs[j % len(strs)])        # a list of str: int() of an item, an island
        t += k * a[j]
    return t


def test_an_int_of_a_python_value_is_an_expression_island():
    a = np.arange(6.0)
    strs = ["1", "22", "-3"]
    expected = parse_and_weigh(strs, a)
    jitted = tp.jit(parse_and_weigh)
    got = quiet(jitted, strs, a)
    assert got == expected and type(got) is type(expected)
    assert compiled_lines(jitted) == [line_of(parse_and_weigh, "for j in range")]
    assert island_lines(jitted) == [line_of(parse_and_weigh, "int(strs[j % len(strs)])")]
    with pytest.raises(ValueError) as plain:     # int("x"): Python's error, at the island
        parse_and_weigh(["1", "x"], a)
    with pytest.raises(ValueError) as compiled:
        quiet(jitted, ["1", "x"], a)
    assert str(compiled.value) == str(plain.value)


def big_ints(strs, out):
    for j in range(out.shape[0]):
        out[j] = 1.0
        k = int(strs[j])
        out[j] = k % 7
    return out


def test_an_int_island_beyond_int64_raises_loudly_after_effects():
    """int("2**70") cannot be held by compiled code: OverflowError with graphjit's note (the
    function stored into an array first, so it cannot run again as Python); never a wrapped
    int."""
    strs = ["5", str(2 ** 70)]
    jitted = tp.jit(big_ints)
    out = np.zeros(2)
    with pytest.raises(OverflowError, match="int beyond int64"):
        quiet(jitted, strs, out)
    assert out[0] == 5.0 and out[1] == 1.0      # the stores before, each made once


def keyed(keys, seen, a):
    total = 0.0
    for i in range(a.shape[0]):
        if keys[i % len(keys)] in seen:     # a test on Python values: an island, a bool
            total += a[i]
        elif i % 3 == 0:
            total -= a[i]
    return total


def drain(d, a):
    s = 0.0
    i = 0
    while d:                                # the loop's own test reads a dict
        d.popitem()
        s += a[i]
        i += 1
    return s, i


def test_if_and_while_tests_on_python_values_are_islands():
    a = np.arange(10.0)
    expected = keyed(["a", "b", "c"], {"a", "c"}, a)
    jitted = tp.jit(keyed)
    got = quiet(jitted, ["a", "b", "c"], {"a", "c"}, a)
    assert got == expected and type(got) is type(expected)
    assert compiled_lines(jitted) == [line_of(keyed, "for i in range")]
    assert island_lines(jitted) == [line_of(keyed, "if keys[i % len(keys)] in seen")]
    plain_d, d = {1: 2, 3: 4, 5: 6}, {1: 2, 3: 4, 5: 6}
    expected = drain(plain_d, a)
    jitted = tp.jit(drain)
    got = quiet(jitted, d, a)
    same(expected, got)
    assert d == plain_d == {}
    assert compiled_lines(jitted) == [line_of(drain, "while d:")]
    assert island_lines(jitted) == [line_of(drain, "while d:"), line_of(drain, "d.popitem()")]
