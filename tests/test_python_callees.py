"""Plain functions called from a jitted function's Python run compiled (issue 20,
transpiler/python_callees.py): a jitted function that falls back still calls compiled code for
the plain user functions with loops that it calls by a global name, quietly, with Python's
semantics: every call equals the plain call (values, types, dtypes, argument mutation,
exception types) over the argument universe, in any order, from several threads; rebinding the
global calls the new function; a name used as a value, a library function or a function
without a loop is not redirected."""
import heapq
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler.python_callees import callees
from reference import assert_same_outcome, outcome


def total(a):
    s = 0.0
    for v in a:
        s += v
    return s


def bump_all(a):
    for i in range(len(a)):
        a[i] += 1
    return a


def first_over(a, t):
    for i in range(len(a)):
        if a[i] > t:
            return i
    raise ValueError("none over")


def keyed(a):
    seen = {}
    for v in a:
        seen[str(v)] = v        # str() of numbers: runs as Python
    return len(seen)


def double(x):
    return x * 2                # no loop: not worth compiling, not redirected


def driver(a):
    """Falls back (a dict of str keys), then calls three plain functions."""
    names = {"x": 1}
    return total(a) + double(names["x"]), keyed(a)


def mutating_driver(a, t):
    names = {"t": t}
    bump_all(a)
    return first_over(a, names["t"])


def passes_as_value(a):
    names = {}
    return list(map(total, [a])), names


def calls_library(a):
    names = {}
    return heapq.nlargest(2, list(a)), names


def rebinding_target(a):
    names = {}
    return total(a), names


ARGUMENTS = [np.arange(5).astype(d) for d in (
    np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
    np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_)] + [
    np.array([[1.5, 2.5], [3.5, 4.5]]), np.array([], dtype=np.float32),
    np.array([100, 100, 100], dtype=np.int8), (1, 2.5), (np.int8(100), np.int8(100)),
    [1, 2, 3], [0.5, 1.5], "abc", (True, False), np.int64(3), None, 2.5j, 7, 1.5, True,
    2 ** 70, (1j, 2)] + [d(1) for d in (
    np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.uint64, np.float16,
    np.float32, np.float64, np.complex64, np.complex128, np.bool_)]


def _compiled_callees(jit):
    return {name: redirect.jit for name, redirect in callees(jit)}


def _redirect(jit, name):
    return dict(callees(jit))[name]


BIG = np.arange(20000.0)        # a plain call of total() on it takes about a millisecond


def _warm(jitted, args):
    """Calls enough for a callee's kind of call to be decided: 3 timed plain calls (long
    ones), the compiling call and 3 timed compiled calls (faster: it stays compiled)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(7):
            jitted(*args)


def test_callees_of_a_fallback_run_compiled_and_equal_plain():
    jitted = tp.jit(driver)
    _warm(jitted, (BIG,))
    found = _compiled_callees(jitted)
    assert set(found) == {"total"}   # keyed() does not convert (str), double() has no loop
    assert "compiled" in _redirect(jitted, "total").kinds.values()
    for arg in ARGUMENTS + [BIG]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            assert_same_outcome(*outcome(driver, (arg,)), *outcome(jitted, (arg,)))
    # total() compiled (whole, or its loop as a region: s is an int or an np.float64 by path)
    assert any(row[2] == "compiled" for row in found["total"].explain().rows)
    rows = [row for row in jitted.explain().rows if row[0] == "call"]
    assert any(status == "compiled" and "total()" in why for _, _, status, why in rows)


def small_total(a):
    s = 0
    for v in a:
        s += v
    return s


def small_driver(a):
    names = {}
    return small_total(a), names


def test_a_callee_that_does_little_per_call_stays_plain():
    jitted = tp.jit(small_driver)
    _warm(jitted, (np.arange(3.0),))
    redirect = _redirect(jitted, "small_total")
    assert redirect.choice is small_total and list(redirect.kinds.values()) == ["plain"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for arg in ARGUMENTS + [BIG]:
            assert_same_outcome(*outcome(small_driver, (arg,)), *outcome(jitted, (arg,)))
    assert not _compiled_callees(jitted)["small_total"]._specs_for(None)   # never compiled
    # the variant was made again without it: the function itself runs
    assert jitted.__dict__["_variant"][1] is small_driver
    assert any("stays Python" in row[3] for row in jitted.explain().rows)


def test_a_callee_that_does_not_compile_is_quiet():
    jitted = tp.jit(driver)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        jitted(np.arange(3.0))
        jitted(np.arange(3.0))
    messages = [str(w.message) for w in caught if issubclass(w.category, tp.FallbackWarning)]
    # the driver's own warnings only (its reason may name a callee it converted inline)
    assert messages and all(m.startswith("graphjit: driver ") for m in messages)


@pytest.mark.parametrize("order", [0, 1, 2])
def test_argument_mutation_and_exceptions_in_any_order(order):
    jitted = tp.jit(mutating_driver)
    _warm(jitted, (np.zeros(20000), 0.5))
    calls = [(np.arange(4, dtype=np.int8), 2), (np.array([127, 0], dtype=np.int8), 0),
             (np.arange(3.0), 10.0), (np.arange(3, dtype=np.uint16), np.uint16(1)),
             (np.zeros(0), 0), (np.array([1.5, 2.5], np.float32), 2)]
    calls = calls[order:] + calls[:order]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for args in calls:
            assert_same_outcome(*outcome(mutating_driver, args), *outcome(jitted, args))
    assert set(_compiled_callees(jitted)) == {"bump_all", "first_over"}


def test_a_name_used_as_a_value_or_a_library_function_is_not_redirected():
    for fn in (passes_as_value, calls_library):
        jitted = tp.jit(fn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            assert_same_outcome(*outcome(fn, (np.arange(4.0),)),
                                *outcome(jitted, (np.arange(4.0),)))
        assert _compiled_callees(jitted) == {}


def test_rebinding_the_global_calls_the_new_function(monkeypatch):
    jitted = tp.jit(rebinding_target)
    _warm(jitted, (BIG,))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert jitted(np.arange(4.0))[0] == 6.0
        monkeypatch.setitem(globals(), "total", lambda a: -1.0)
        assert jitted(np.arange(4.0))[0] == -1.0
        monkeypatch.delitem(globals(), "total")
        with pytest.raises(NameError):
            jitted(np.arange(4.0))


def test_closure_cells_are_shared_with_the_variant():
    count = 0

    @tp.jit
    def step(a):
        nonlocal count
        names = {"n": count}
        count = names["n"] + 1
        return total(a)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(7):
            step(np.arange(20000))
        assert step(np.arange(3)) == 3
        assert step(np.arange(4)) == 6
    assert count == 9
    assert set(_compiled_callees(step)) == {"total"}


def test_a_function_without_source_runs_as_python():
    namespace = {"total": total}
    exec("def no_source(a):\n    d = {}\n    return total(a), d\n", namespace)
    jitted = tp.jit(namespace["no_source"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert jitted(np.arange(3))[0] == 3
    assert _compiled_callees(jitted) == {}


def test_threads_calling_one_driver():
    jitted = tp.jit(driver)
    _warm(jitted, (BIG,))
    inputs = [np.arange(6, dtype=d) for d in (np.int8, np.float32, np.uint64, np.float64)]
    expected = [outcome(driver, (a,)) for a in inputs]
    failures = []

    def work(k):
        try:
            for j in range(6):
                i = (k + j) % len(inputs)
                assert_same_outcome(*expected[i], *outcome(jitted, (inputs[i],)))
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not failures, failures[:3]


class Stats:
    def __init__(self):
        self.seen = []

    @tp.jit
    def record(self, a):
        self.seen.append(len(a))        # a list attribute: runs as Python
        return total(a)


def test_a_method_that_falls_back_calls_compiled_functions():
    s = Stats()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(7):
            s.record(np.arange(20000))
        assert s.record(np.arange(4)) == 6
        assert s.record(np.arange(5, dtype=np.int8)) == np.int8(10)
    assert s.seen == [20000] * 7 + [4, 5]
    assert set(_compiled_callees(Stats.record)) == {"total"}


def split_driver(a, n):
    """Splits: the loop compiles as a region, the dict and the call of total() run as
    Python between."""
    names = {"n": n}
    acc = 0.0
    for i in range(names["n"]):
        acc += i * 0.5
    return acc + total(a)


def test_a_split_driver_calls_compiled_functions():
    jitted = tp.jit(split_driver)
    _warm(jitted, (BIG, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for args in [(np.arange(4.0), 3), (np.arange(3, dtype=np.int8), 2),
                     (np.arange(2, dtype=np.float32), 5), ((1, 2), 1)]:
            assert_same_outcome(*outcome(split_driver, args), *outcome(jitted, args))
    rows = jitted.explain().rows
    assert any(r[0].strip().startswith("loop") and r[2] == "compiled" for r in rows), rows
    assert any(r[0] == "call" and r[2] == "compiled" and "total()" in r[3] for r in rows), rows


# -- found by review: each compared with the plain call --------------------------------------

def swappable(a, k):
    s = 0
    for v in a:
        s += v
    return s + k


def _swap():
    global swappable
    swappable = lambda a, k: -1       # noqa: E731 - rebinding while arguments are evaluated
    return 0


def rebinds_in_arguments(a):
    names = {}
    return swappable(a, _swap()), names


def test_the_callee_is_looked_up_before_its_arguments_run(monkeypatch):
    original = swappable
    jitted = tp.jit(rebinds_in_arguments)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(4):
            plain = rebinds_in_arguments([1, 2])
            monkeypatch.setitem(globals(), "swappable", original)
            compiled = jitted([1, 2])
            monkeypatch.setitem(globals(), "swappable", original)
            assert plain == compiled == (3, {})


def scaled(a, k=1):
    s = 0
    for v in a:
        s += v * k
    return s


def uses_defaults(a, m=1):
    names = {}
    return scaled(a) * m, names


def test_changed_defaults_and_code_are_seen(monkeypatch):
    jitted = tp.jit(uses_defaults)
    big = list(range(3000))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(7):
            jitted(big)
        assert jitted([1, 2]) == uses_defaults([1, 2])
        monkeypatch.setattr(scaled, "__defaults__", (10,))
        assert jitted([1, 2]) == uses_defaults([1, 2]) == (30, {})
        monkeypatch.setattr(uses_defaults, "__defaults__", (100,))
        assert jitted([1, 2]) == uses_defaults([1, 2]) == (3000, {})
        monkeypatch.setattr(scaled, "__code__", small_total.__code__)
        monkeypatch.setattr(scaled, "__defaults__", None)
        assert jitted([1, 2]) == uses_defaults([1, 2]) == (300, {})


def makes_closures(a):
    names = {}

    def helper(x):
        return total(a) + x
    return helper, names


def test_closures_made_by_the_variant_keep_their_names_and_pickle():
    cloudpickle = pytest.importorskip("cloudpickle")
    jitted = tp.jit(makes_closures)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        helper, _ = jitted(np.arange(4.0))
    assert callees(jitted)                       # the variant ran
    assert helper.__qualname__ == "makes_closures.<locals>.helper"
    assert cloudpickle.loads(cloudpickle.dumps(helper))(1.0) == 7.0
    with pytest.raises(TypeError, match=r"^makes_closures\.<locals>\.helper\(\) missing"):
        helper()


def calls_through_a_module(a):
    names = {}
    return total(np.sqrt(a)), names


def test_a_function_reading_module_attributes_has_a_variant():
    # CPython 3.11+ reads attributes of imported modules with LOAD_ATTR, not LOAD_METHOD: the
    # variant's compile must see the import to give the function's own code again
    jitted = tp.jit(calls_through_a_module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert jitted(np.arange(4.0)) == calls_through_a_module(np.arange(4.0))
    assert "total" in dict(callees(jitted))


def test_an_edited_file_never_runs(tmp_path, monkeypatch):
    import importlib
    import linecache
    source = ("def total(a):\n    s = 0.0\n    for v in a:\n        s += v\n    return s\n\n"
              "def outer(a):\n    names = {}\n    return total(a), names\n")
    (tmp_path / "edited_callee_mod.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("edited_callee_mod")
    (tmp_path / "edited_callee_mod.py").write_text(source.replace("s += v", "s -= v"))
    linecache.checkcache()
    jitted = tp.jit(module.outer)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(4):
            assert jitted(np.arange(3000.0)) == module.outer(np.arange(3000.0))
    assert not callees(jitted)


def ping(a, n):
    s = 0
    for v in a:
        s += v
    return s if n == 0 else pong(a, n - 1)


def pong(a, n):
    t = 0
    for v in a:
        t += v
    return t if n == 0 else ping(a, n - 1)


def mutual(a, n):
    names = {}
    return ping(a, n), names


def test_mutual_recursion_between_callees_keeps_python_depth():
    import gc
    jitted = tp.jit(mutual)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(4):
            assert jitted([1, 2], 150) == mutual([1, 2], 150)
    gc.collect()
    # type(), not isinstance(): gc also lists dead weak proxies, which isinstance() reads
    made = [o for o in gc.get_objects() if type(o) is tp.JitFunction
            and o.python_function in (ping, pong)]
    assert len(made) <= 2


def test_each_kind_of_call_is_measured():
    """A callee compiled for long calls stays plain for short ones of another kind (a
    compiled call costs a dispatch the short plain call does not)."""
    jitted = tp.jit(kinds_driver)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(7):
            jitted(np.arange(20000.0))
        for _ in range(10):
            assert_same_outcome(*outcome(kinds_driver, (np.arange(4, dtype=np.int8),)),
                                *outcome(jitted, (np.arange(4, dtype=np.int8),)))
    kinds = _redirect(jitted, "kinds_total").kinds
    assert len(kinds) == 2 and "compiled" in kinds.values(), kinds
    # (the int8 kind is measured on its own: plain, unless this machine stalled its calls)


def kinds_total(a):
    s = 0.0             # (0 would be an int or an np.float64 by path: that falls back)
    for v in a:
        s += v
    return s


def kinds_driver(a):
    names = {}
    return kinds_total(a), names
