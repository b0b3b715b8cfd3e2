"""Fallback: what cannot compile runs as plain Python, warns once, and says where and why."""
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import transpiler as tp


def uses_format(n):
    label = "%d items" % n
    return label


def uses_try(x):
    try:
        return x + 1
    except TypeError:
        return 0


def test_fallback_warns_through_pythons_filters_and_returns_the_right_value():
    compiled = tp.jit(uses_try)
    with pytest.warns(tp.FallbackWarning) as record:
        assert compiled(1) == 2
    message = str(record[0].message)
    assert "uses_try" in message and "try/except" in message
    line = uses_try.__code__.co_firstlineno + 1
    assert f"test_fallback.py:{line}" in message
    assert record[0].filename == __file__       # the warning points at the caller's line
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")        # Python's default: once per call site
        for n in range(3):
            assert compiled(n) == n + 1
        assert compiled(5) == 6                 # another line: shown again
    assert [str(w.message) for w in caught] == [message, message]
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        with pytest.raises(tp.FallbackWarning):  # -W error works, after it was shown
            compiled(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert compiled(7) == 8
    with pytest.warns(tp.FallbackWarning):      # ignored once does not silence it for good
        compiled(7)


_SHARED = tp.jit(uses_try)


@pytest.mark.parametrize("n", [1, 2])
def test_pytest_warns_in_each_of_two_tests_of_one_function(n):
    # pytest resets the filters per test: a warning shown in the first test shows again
    with pytest.warns(tp.FallbackWarning, match="uses_try"):
        assert _SHARED(n) == n + 1


def test_numba_typing_error_falls_back_with_user_line_and_no_internals():
    compiled = tp.jit(uses_format)
    with pytest.warns(tp.FallbackWarning) as record:
        assert compiled(3) == "3 items"
    message = str(record[0].message)
    line = uses_format.__code__.co_firstlineno + 1
    assert "uses_format" in message
    assert f"test_fallback.py:{line}: Numba cannot compile this (TypingError)" in message
    assert '"%d items" % n' in message and "^" in message
    assert "numba/core" not in message and "Traceback" not in message


def test_fullgraph_raises_with_file_line_and_caret():
    compiled = tp.jit(uses_try, fullgraph=True)
    with pytest.raises(tp.UnsupportedConstruct) as info:
        compiled(1)
    text = str(info.value)
    line = uses_try.__code__.co_firstlineno + 1
    assert text.startswith(f"{__file__}:{line}: ")
    assert "try:" in text and "^" in text
    assert info.value.origin.lineno == line


def test_fullgraph_raises_for_numba_typing_error_at_user_line():
    compiled = tp.jit(uses_format, fullgraph=True)
    with pytest.raises(tp.TranspileError) as info:
        compiled(3)
    assert info.value.origin.filename == __file__
    assert info.value.origin.lineno == uses_format.__code__.co_firstlineno + 1
    assert "Numba cannot compile this" in str(info.value)


def test_exec_made_function_falls_back():
    namespace = {}
    exec("def made(x):\n    return x * 3\n", namespace)
    compiled = tp.jit(namespace["made"])
    with pytest.warns(tp.FallbackWarning, match="source"):
        assert compiled(4) == 12


def test_fullgraph_env_variable_makes_it_the_default(monkeypatch):
    monkeypatch.setenv("GRAPHJIT_FULLGRAPH", "1")
    with pytest.raises(tp.UnsupportedConstruct):
        tp.jit(uses_try)(1)


def test_disable_env_variable_runs_python(monkeypatch):
    monkeypatch.setenv("GRAPHJIT_DISABLE", "1")
    compiled = tp.jit(uses_try)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        assert compiled(1) == 2
    assert compiled._plain == []                # nothing was transpiled


def test_unsupported_argument_type_falls_back_per_signature():
    def total(values):
        s = 0
        for v in values:
            s += v
        return s
    compiled = tp.jit(total)
    assert compiled(np.arange(4)) == 6          # compiles for an array
    with pytest.warns(tp.FallbackWarning):
        assert compiled({1: 0, 2: 0}) == 3      # a dict: plain Python for that signature
    assert compiled(np.arange(5)) == 10         # the array signature still compiled
    compiled_specs = [s for s in compiled._plain if s.function is not None]
    assert [len(s.function.overloads) for s in compiled_specs] == [1]   # the array's


def test_user_exception_is_not_a_fallback():
    def check(x):
        if x > 1:
            raise KeyError("big")
        return x
    compiled = tp.jit(check, fullgraph=True)
    with pytest.raises(KeyError):
        compiled(5)
    assert compiled(1) == 1


def test_error_names_user_file_from_a_script(tmp_path):
    script = tmp_path / "user_model.py"
    script.write_text(textwrap.dedent("""
        import transpiler as tp

        @tp.jit(fullgraph=True)
        def f(x):
            with open("x") as h:
                return x
        f(1)
    """))
    env = dict(os.environ, GRAPHJIT_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env)
    assert proc.returncode == 1
    assert f"{script}:6: a with block is not converted" in proc.stderr
    assert "UnsupportedConstruct" in proc.stderr


def _reads_past_the_end(x, out):
    for i in range(x.shape[0] + 1):
        out[i] = x[i] * 2.0
    return out


def test_index_error_of_compiled_code_names_the_function():
    import pytest as _pytest
    with _pytest.raises(IndexError) as info:
        tp.jit(_reads_past_the_end)(np.ones(3), np.zeros(3))
    notes = getattr(info.value, "__notes__", [])
    assert any("_reads_past_the_end" in n and "test_fallback.py" in n for n in notes), notes


def test_fallback_warning_points_at_the_callers_line():
    import warnings as _warnings

    def uses_a_dict(n):
        d = {"n": str(n)}
        return d["n"]
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        tp.jit(uses_a_dict)(3)
    fallback = [w for w in caught if issubclass(w.category, tp.FallbackWarning)]
    assert fallback and fallback[0].filename == __file__, [w.filename for w in fallback]


def test_bound_jitted_methods_look_like_methods_and_copy():
    import copy
    import inspect

    class Model:
        def __init__(self):
            self.k = 2.0

        @tp.jit
        def run(self, x, y=1.0):
            """Scales x."""
            return x * self.k + y

    model = Model()
    bound = model.run
    assert bound.__name__ == "run" and bound.__doc__ == "Scales x."
    assert str(inspect.signature(bound)) == "(x, y=1.0)"
    assert str(inspect.signature(Model.run)) == "(self, x, y=1.0)"
    assert "Model.run" in repr(bound) and "Model.run" in repr(Model.run)
    assert "test_fallback.py" in repr(Model.run)
    assert bound(3.0) == 7.0 and bound == model.run
    clone = copy.deepcopy(model)             # a model with a called jitted method copies
    clone.k = 5.0
    assert clone.run(1.0) == 6.0 and model.run(1.0) == 3.0
    jitted = tp.jit(model.run)               # jit of a bound jitted method
    assert jitted(4.0) == 9.0
    copied = copy.deepcopy(jitted)           # called, then deep-copied: its own self
    assert copied(4.0) == 9.0 and copied._bound_self is not model
    assert copy.copy(Model.run)(model, 1.0) == 3.0


def test_a_long_first_compile_says_so_on_stderr(slow_first_compile, monkeypatch, capsys):
    def add_one(x):
        return x + 1
    compiled = tp.jit(add_one, fullgraph=True)
    assert compiled(1) == 2
    err = capsys.readouterr().err
    assert "graphjit: compiling" in err and "add_one" in err
    assert "graphjit: compiled" in err and " s\n" in err
    assert compiled(2) == 3                  # later calls are quiet
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("GRAPHJIT_PROGRESS_AFTER", "5")
    assert tp.jit(add_one, fullgraph=True)(1.5) == 2.5   # a quick one is quiet
    assert capsys.readouterr().err == ""


def same_object(a, b):
    return a is b


def test_identity_of_two_arrays_is_never_compiled_wrong():
    compiled = tp.jit(same_object)
    a = np.ones(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        assert compiled(a, a) is True and compiled(a, a[:]) is False    # Numba: data pointers
    with pytest.raises(tp.UnsupportedConstruct, match="'is' between two runtime values"):
        tp.jit(same_object, fullgraph=True)(a, a[:])
