"""Region-level fallback: compiled loops with Python between them, compared with plain calls
(results, stdout, argument mutation), and explain() naming each region."""
import json
import warnings

import numpy as np
import pytest

import transpiler as tp

COUNTER = 0


def loop_then_print_dict(a, n):
    total = 0.0
    for i in range(n):
        # float(): plain Python would accumulate an np.float64 here, which Numba returns as a
        # Python float (README, "Known gaps"), and print shows the difference.
        total += float(a[i % a.shape[0]]) * 0.5
    print({"total": total, "n": n})
    return total


def try_around_loop(a):
    try:
        s = 0.0
        for i in range(a.shape[0]):
            a[i] = a[i] * 2.0
            s += a[i]
        ratio = s / a[0]
    except ZeroDivisionError:
        ratio = -1.0
    return ratio


def generator_inside(a):
    squares = sum(v * v for v in a.tolist())
    acc = 0.0
    i = 0
    while i < a.shape[0]:
        acc += a[i] * squares
        i += 1
    return acc


def with_block(a, path):
    with open(path, "w") as handle:
        s = 0
        for i in range(a.shape[0]):
            if a[i] > 0:
                s += a[i]
        handle.write(str(s))
    return s


def global_mutation(a):
    global COUNTER
    COUNTER += 1
    m = a[0]
    for v in a:
        if v > m:
            m = v
    return m, COUNTER


def calls_json(values, scale):
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        out[i] = values[i] * scale
    return json.dumps({"sum": float(out.sum())}), out


def run_both(fn, *args, capsys=None):
    plain_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    expected = fn(*plain_args)
    plain_out = capsys.readouterr().out if capsys else None
    compiled = tp.jit(fn)
    with pytest.warns(tp.FallbackWarning, match="compiled loop"):
        actual = compiled(*args)
    if capsys:
        assert capsys.readouterr().out == plain_out
    for before, after in zip(plain_args, args):
        if isinstance(before, np.ndarray):
            np.testing.assert_array_equal(after, before)
    return compiled, expected, actual


def assert_loop_compiled(compiled, line):
    rows = compiled.explain().rows
    loops = [r for r in rows if r.region.startswith("loop") and r.origin.lineno == line]
    assert loops and loops[0].status == "compiled", str(compiled.explain())
    assert any(r.region == "function" and r.status == "python" for r in rows)


def line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_loop_then_print_of_a_dict(capsys):
    compiled, expected, actual = run_both(loop_then_print_dict, np.arange(5.0), 100,
                                          capsys=capsys)
    assert actual == expected
    assert_loop_compiled(compiled, line_of(loop_then_print_dict, "for i in range(n)"))


@pytest.mark.parametrize("first", [1.0, 0.0])
def test_try_except_around_a_loop(first):
    a = np.array([first, 2.0, 3.0])
    compiled, expected, actual = run_both(try_around_loop, a)
    assert actual == expected
    assert_loop_compiled(compiled, line_of(try_around_loop, "for i in range"))


def test_generator_used_inside():
    compiled, expected, actual = run_both(generator_inside, np.array([1.0, 2.0, 3.0]))
    assert actual == expected
    assert_loop_compiled(compiled, line_of(generator_inside, "while i <"))


def test_with_block(tmp_path):
    a = np.array([3, -1, 4])
    compiled, expected, actual = run_both(with_block, a, str(tmp_path / "out.txt"))
    assert actual == expected
    assert (tmp_path / "out.txt").read_text() == str(expected)
    assert_loop_compiled(compiled, line_of(with_block, "for i in range"))


def test_global_mutation_runs_once_per_call():
    global COUNTER
    COUNTER = 0
    a = np.array([1.0, 7.0, 3.0])
    compiled, expected, actual = run_both(global_mutation, a)
    assert expected == (7.0, 1) and actual == (7.0, 2)   # each call increments once
    assert compiled(a) == (7.0, 3)
    assert_loop_compiled(compiled, line_of(global_mutation, "for v in a"))


def test_call_into_json():
    values = np.arange(4.0)
    compiled, expected, actual = run_both(calls_json, values, 1.5)
    assert actual[0] == expected[0]
    np.testing.assert_array_equal(actual[1], expected[1])
    assert_loop_compiled(compiled, line_of(calls_json, "for i in range"))


def uncompilable_loop(items):
    out = []
    for v in items:
        out.append({"v": v})
    return len(out)


def test_a_loop_that_cannot_compile_stays_python_with_its_reason():
    compiled = tp.jit(uncompilable_loop)
    with pytest.warns(tp.FallbackWarning):      # (a list of str stays Python)
        assert compiled(["a", "b"]) == 2


def test_fullgraph_still_raises():
    with pytest.raises(tp.UnsupportedConstruct):
        tp.jit(calls_json, fullgraph=True)(np.arange(3.0), 2.0)


def test_region_numba_failure_runs_that_region_as_python_once():
    def mixed(a, tag):
        print(tag)
        s = 0
        for i in range(len(a)):
            s += a[i]
        return s
    compiled = tp.jit(mixed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert compiled(np.arange(4), {"x": 1}) == 6          # dict arg: not compilable
        assert compiled(np.arange(4), {"x": 1}) == 6


@tp.do_not_convert
def python_only(x):
    return x + 1


def uses_python_only(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return python_only(s)


def test_do_not_convert():
    assert tp.jit(python_only)(1) == 2          # runs as Python, no warning needed
    compiled, expected, actual = run_both(uses_python_only, np.arange(4.0))
    assert actual == expected == 7.0
    assert "do_not_convert" in str(compiled.explain())
    assert_loop_compiled(compiled, line_of(uses_python_only, "for i in range"))


def raises_inside(a):
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative value")
    return a.sum()


def test_exception_from_compiled_code_names_the_user_line():
    compiled = tp.jit(raises_inside, fullgraph=True)
    with pytest.raises(ValueError, match="negative value") as info:
        compiled(np.array([1.0, -1.0]))
    line = line_of(raises_inside, "raise ValueError")
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert f"{__file__}:{line}" in notes
    frames = [f for f in info.traceback if "_graphjit_" in str(f.path)]
    assert frames, "the generated file is a real file with a frame in the traceback"


def report_total(n):
    t = 0
    for i in range(n):
        t += i
    print("total", t)
    return t


def test_source_before_the_first_call_keeps_the_split(capsys):
    compiled = tp.jit(report_total)
    assert compiled.source().startswith("# graphjit:")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert compiled(5) == 10
    assert capsys.readouterr().out == "total 10\n"
    assert [r.status for r in compiled.explain().rows].count("compiled") == 1


def float32_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        if s > 3:
            s = s * 0.5
    return s


def test_the_fallback_warning_counts_only_loops_that_compiled():
    """The function does not compile (s is a Python float or an np.float32 by path, compared
    with 3); its loop region fails for the same reason on its first call. The function's warning comes after
    the call, so it does not promise a compiled loop that then runs as Python."""
    a = np.ones(5, np.float32)
    expected = float32_total(a)
    compiled = tp.jit(float32_total)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        actual = compiled(a)
    assert type(actual) is type(expected) and actual == expected
    texts = [str(w.message) for w in caught if issubclass(w.category, tp.FallbackWarning)]
    assert not any("compiled loop" in t for t in texts), texts
    assert any("float32_total runs as plain Python, its loops too" in t for t in texts), texts
    rows = compiled.explain().rows
    assert [r.status for r in rows if r.region.startswith("loop")] == ["python"]


_DEFAULT_CALLS = []


def _counted_default():
    _DEFAULT_CALLS.append(1)
    return 5


def with_defaults(a, acc=[], k=_counted_default(), scale=2.0):  # noqa: B006 - the point
    names = {"n": 0}                  # a dict: the function is split, its loop compiled
    total = 0.0
    for i in range(len(a)):
        total += a[i] * scale
    acc.append(total)
    return len(acc) + k + names["n"], total


def test_a_split_function_keeps_its_defaults():
    """The driver of a split function is its code made again at each call: its default
    values are the function's own (one list across calls, a default expression not run
    again), as in Python (found by review: a default list was a new one at each call)."""
    jitted = tp.jit(with_defaults)
    expected = [with_defaults(np.arange(3.0)) for _ in range(3)]
    with_defaults.__defaults__[0].clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        got = [jitted(np.arange(3.0)) for _ in range(3)]
    assert got == expected == [(6, 6.0), (7, 6.0), (8, 6.0)]
    assert _DEFAULT_CALLS == [1]
    assert any(row[2] == "compiled" for row in jitted.explain().rows)


def int_of_elements(a, out):
    t = 0
    for j in range(a.shape[0]):
        out[j] = 1.0
        t += int(a[j])
    return t


def test_a_helper_raise_names_the_user_line():
    """int(inf) raises inside graphjit's helper (helpers/math_checks.py): the note names the
    user's int(a[j]), where Python raises, not graphjit's file."""
    a = np.array([1.5, np.inf])
    with pytest.raises(OverflowError) as plain:
        int_of_elements(a, np.zeros(2))
    out = np.zeros(2)
    with pytest.raises(OverflowError) as info:
        tp.jit(int_of_elements)(a, out)     # stores first: cannot run again as Python
    assert str(info.value) == str(plain.value)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert f"{__file__}:{line_of(int_of_elements, 't += int(a[j])')}" in notes, notes
    assert "math_checks" not in notes
