"""The dispatcher's fast path (transpiler/fast_path.py) keeps the general path's semantics: a
decision kept for some argument types is reused only for arguments of exactly those types,
guards on globals and attributes are still checked at every call, fallbacks still warn
through Python's filters, threads agree. Not timed (benchmarks/dispatch.py times it)."""
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp


def mul_add(a, b):
    return a * b + 1


def total(a):
    return a.sum()


def fill_first(a):
    a[0] = 7.0
    return a


def uses_try(a, b):
    try:
        return a * b + 1
    except TypeError:
        return 0


def takes_anything(a, b):
    return len(a) + b


SCALE = 2.0


def scaled(x):
    return x * SCALE


class _Config:
    def __init__(self):
        self.k = 2.0
        self.w = np.ones(3)


CONFIG = _Config()


def uses_config(x):
    return x * CONFIG.k + CONFIG.w


def _same(expected, got):
    assert type(got) is type(expected), (type(got), type(expected))
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected, (got, expected)


_ARGUMENTS = [
    (1.5, 2.0),
    (np.float32(1.5), np.float32(2.0)),
    (np.int8(3), np.int8(5)),
    (3, 4),
    (np.arange(4.0), 2.0),
    (np.arange(4, dtype=np.int32), np.int32(3)),
    (True, False),
    (np.arange(6.0).reshape(2, 3), 0.5),
    (np.float64(2.5), 2),
    (-7, 3),
]


def test_alternating_argument_types_each_give_plains_value_and_type():
    jitted = tp.jit(mul_add)
    for _ in range(4):        # the first round decides, the later ones take the fast path
        for args in _ARGUMENTS:
            _same(mul_add(*args), jitted(*args))
    assert jitted._fast, "the fast path kept no decision"


def test_an_int_beyond_int64_after_small_ints_runs_as_python():
    jitted = tp.jit(mul_add)
    for _ in range(3):
        _same(mul_add(3, 4), jitted(3, 4))
    with pytest.warns(tp.FallbackWarning, match="int beyond int64"):
        _same(mul_add(2 ** 70, 3), jitted(2 ** 70, 3))
    _same(mul_add(5, 6), jitted(5, 6))


def test_layouts_and_writeability_of_one_dtype():
    jitted = tp.jit(total)
    a = np.arange(8, dtype=np.float32)
    readonly = a.copy()
    readonly.flags.writeable = False
    arrays = [a, a[::2], readonly, np.asfortranarray(np.ones((2, 3), np.float32)), a]
    for _ in range(3):
        for x in arrays:
            _same(total(x), jitted(x))    # an np.float32 from every overload


def test_a_compile_failure_for_one_layout_keeps_the_others_compiled():
    jitted = tp.jit(fill_first)
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(3):
            out = jitted(np.zeros(3))
            assert out[0] == 7.0
            with pytest.raises(ValueError):      # plain Python raises: read-only
                jitted(readonly)


def test_a_global_rebinding_is_seen_by_the_next_call():
    global SCALE
    jitted = tp.jit(scaled)
    try:
        for value in (2.0, 3.0, 2.0, -0.0, 5.0):
            SCALE = value
            for _ in range(3):
                _same(scaled(1.5), jitted(1.5))
                _same(scaled(np.float32(1.5)), jitted(np.float32(1.5)))
    finally:
        SCALE = 2.0


def test_an_attribute_reassignment_is_seen_by_the_next_call():
    jitted = tp.jit(uses_config)
    try:
        for _ in range(3):
            _same(uses_config(1.5), jitted(1.5))
        CONFIG.k = 4.0                       # a static value: guarded
        _same(uses_config(1.5), jitted(1.5))
        CONFIG.w = np.arange(3.0)            # a runtime input: read at every call
        _same(uses_config(1.5), jitted(1.5))
        CONFIG.w = np.arange(3, dtype=np.float32)
        _same(uses_config(1.5), jitted(1.5))
    finally:
        CONFIG.k, CONFIG.w = 2.0, np.ones(3)


@pytest.mark.parametrize("function, args", [(uses_try, (1.5, 2.0)),
                                            (takes_anything, ({1: 2, 3: 4}, 2))])
def test_a_fallback_warns_through_the_filters_and_gives_plains_result(function, args):
    jitted = tp.jit(function)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")          # once per call site
        for _ in range(5):
            _same(function(*args), jitted(*args))
    assert len([w for w in caught if w.category is tp.FallbackWarning]) == 1
    assert caught[0].filename == __file__
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")           # every call
        for _ in range(3):
            _same(function(*args), jitted(*args))
    assert len([w for w in caught if w.category is tp.FallbackWarning]) == 3
    assert all(w.filename == __file__ for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        with pytest.raises(tp.FallbackWarning):
            jitted(*args)
    with pytest.warns(tp.FallbackWarning):
        jitted(*args)


def _call_here(jitted, args):
    return jitted(*args), _line()


def _call_there(jitted, args):
    return jitted(*args), _line()


def _line():
    import sys
    return sys._getframe(1).f_lineno


@pytest.mark.parametrize("function, args", [(uses_try, (1.5, 2.0)),
                                            (takes_anything, ({1: 2, 3: 4}, 2))])
def test_a_kept_fallback_warns_at_each_callers_line_in_turn(function, args):
    # The fast path remembers the last caller outside graphjit; another caller, or the same
    # again after it, must still be named, each at its own line.
    jitted = tp.jit(function)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lines = []
        for call in (_call_here, _call_here, _call_there, _call_here, _call_there):
            result, line = call(jitted, args)
            _same(function(*args), result)
            lines.append(line)
    shown = [(w.filename, w.lineno) for w in caught if w.category is tp.FallbackWarning]
    assert shown == [(__file__, line) for line in lines]


def test_disable_and_do_not_convert_are_seen_after_decisions(monkeypatch):
    jitted = tp.jit(uses_try)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(3):
            jitted(1.5, 2.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        monkeypatch.setenv("GRAPHJIT_DISABLE", "1")
        assert jitted(1.5, 2.0) == 4.0            # plain Python, silently
        monkeypatch.setenv("GRAPHJIT_DISABLE", "0")
        assert jitted(1.5, 2.0) == 4.0
        assert len(caught) == 1                   # "0": not disabled, the fallback warns
        monkeypatch.delenv("GRAPHJIT_DISABLE")

    def plain_copy(a, b):
        return a * b + 1
    marked = tp.jit(plain_copy)
    assert marked(1.5, 2.0) == 4.0
    tp.do_not_convert(plain_copy)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert marked(1.5, 2.0) == 4.0
    assert not caught


def test_fullgraph_from_the_environment_raises_for_a_refused_type(monkeypatch):
    jitted = tp.jit(takes_anything)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(3):
            assert jitted({1: 2, 3: 4}, 2) == 4
    monkeypatch.setenv("GRAPHJIT_FULLGRAPH", "1")
    with pytest.raises(tp.UnsupportedConstruct):
        jitted({1: 2, 3: 4}, 2)


def test_sixteen_threads_alternating_types_agree_with_plain():
    jitted = tp.jit(mul_add)
    errors = []
    barrier = threading.Barrier(16)

    def work(offset):
        try:
            barrier.wait()
            for i in range(60):
                args = _ARGUMENTS[(i + offset) % len(_ARGUMENTS)]
                _same(mul_add(*args), jitted(*args))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]


def test_sixteen_threads_with_a_global_rebound_meanwhile():
    global SCALE
    jitted = tp.jit(scaled)
    seen = []
    barrier = threading.Barrier(17)

    def work():
        barrier.wait()
        for _ in range(200):
            seen.append(jitted(1.0))
    threads = [threading.Thread(target=work) for _ in range(16)]
    try:
        for t in threads:
            t.start()
        barrier.wait()
        SCALE = 3.0
        for t in threads:
            t.join()
        assert set(seen) <= {2.0, 3.0}
        assert jitted(1.0) == 3.0                 # after the rebinding: the new value
    finally:
        SCALE = 2.0


def sum_list(xs, k):
    s = 0.0
    for v in xs:
        s += v * k
    return s


def test_a_list_refused_for_its_first_element_is_decided_once_and_each_call_still_checked():
    """A list whose element 0 is not an int/float/bool is refused from that element alone
    (arguments.value_problem reads no further), and the fast path keeps that refusal for
    lists starting with an element of that type; a list of another kind at the next call
    (floats: compiled; floats then a tuple: refused as mixed) is decided again."""
    jitted = tp.jit(sum_list)
    calls = [([(1, 2)] * 5, 2), ([(1, 2)] * 5, 3), ([1.5, 2.5], 2), ([1.5, (1, 2)], 2),
             ([np.ones(2)] * 3, 2), ([1.5, 2.5, 3.5], 2), ([], 2), (["a"] * 3, 2),
             ([(1, 2)] * 5, 2), ([2, 3], 2)]
    reasons = []
    for xs, k in calls:
        try:
            expected = ("value", sum_list(xs, k))
        except Exception as exc:  # noqa: BLE001 - the plain call's exception, compared
            expected = ("raised", type(exc))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                got = ("value", jitted(xs, k))
            except Exception as exc:  # noqa: BLE001
                got = ("raised", type(exc))
        if expected[0] == "value" and isinstance(expected[1], np.ndarray):
            _same(expected[1], got[1])
        else:
            assert got[0] == expected[0]
            if got[0] == "value":
                _same(expected[1], got[1])
            else:
                assert got[1] is expected[1]
        reasons.append([str(w.message) for w in caught if w.category is tp.FallbackWarning])
    assert "element 0 is a tuple" in reasons[0][0] and reasons[1] == reasons[0]
    assert reasons[2] == [] and reasons[5] == [] and reasons[6] == [] and reasons[9] == []
    assert "a list of float and tuple values" in reasons[3][0]
    assert "element 0 is a ndarray" in reasons[4][0]
    assert "element 0 is a str" in reasons[7][0]
    assert reasons[8] == reasons[0]
