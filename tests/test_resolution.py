"""Static resolution: globals, closures, static arguments, defaults, helpers, generated lines."""
import re
import warnings

import numpy as np

import transpiler as tp
from reference import assert_compiles_same

SCALE = 2
TABLE = np.arange(4.0)


def helper(x, k=3):
    return x * k + TABLE[1]


def uses_globals(x, n=1):
    return helper(x, k=n) * SCALE + TABLE.sum()


def test_globals_are_guarded_and_arrays_are_runtime_inputs():
    global SCALE
    compiled = tp.jit(uses_globals, fullgraph=True)
    assert compiled(1.0) == uses_globals(1.0)
    TABLE[1] = 10.0                          # array global: read at every call
    try:
        assert compiled(1.0, 2) == uses_globals(1.0, 2)
        assert len(compiled._plain) == 1
        SCALE = 5                            # scalar global: guarded, transpiles again
        assert compiled(1.0) == uses_globals(1.0) == (1.0 * 1 + 10.0) * 5 + 15.0
        assert len(compiled._plain) == 2
    finally:
        SCALE = 2
        TABLE[1] = 1.0


def test_keyword_arguments_and_defaults():
    compiled = tp.jit(uses_globals, fullgraph=True)
    assert compiled(2.0, n=4) == uses_globals(2.0, n=4)
    assert compiled(x=2.0) == uses_globals(x=2.0)


def test_closure_values():
    def make(k, weights):
        def inner(x):
            return x * k + weights[0]
        return inner
    fn = make(3, np.array([0.5]))
    assert_compiles_same(fn, 2.0)


def test_static_argnames_specialize_per_value():
    def pick(x, mode):
        if mode == "double":
            return x * 2
        return x - 1
    compiled = tp.jit(pick, static_argnames=("mode",), fullgraph=True)
    assert compiled(3, "double") == 6 and compiled(3, "other") == 2
    assert compiled(4, "double") == 8
    assert len(compiled._plain) == 2
    assert "mode" not in compiled.source().split("def pick(")[1].split(")")[0]


def test_bound_method_passed_to_jit():
    class Acc:
        def __init__(self):
            self.bias = 1.5

        def add(self, a):
            out = np.empty_like(a)
            for i in range(a.shape[0]):
                out[i] = a[i] + self.bias
            return out
    acc = Acc()
    compiled = tp.jit(acc.add, fullgraph=True)
    np.testing.assert_array_equal(compiled(np.arange(3.0)), acc.add(np.arange(3.0)))


def helper_a(x):
    return helper_b(x) + 1


def helper_b(x):
    return x * 2


def transitive(x):
    total = 0
    for i in range(x):
        total += helper_a(i)
    return total


def test_transitive_user_functions():
    compiled = assert_compiles_same(transitive, 5)
    source = compiled.source()
    assert "def helper_a(" in source and "def helper_b(" in source


def test_line_comments_match_line_map():
    compiled = assert_compiles_same(transitive, 3)
    spec = compiled._plain[0]
    lines = spec.source.splitlines()
    assert spec.line_map
    for number, origin in spec.line_map.items():
        match = re.search(r"# (\S+):(\d+)$", lines[number - 1])
        assert match, lines[number - 1]
        assert int(match.group(2)) == origin.lineno
        assert origin.filename.endswith(match.group(1))


def test_source_before_first_call():
    compiled = tp.jit(transitive)
    assert "def transitive(" in compiled.source()


def test_eager_backend_runs_generated_python():
    compiled = tp.jit(transitive, backend="eager", fullgraph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled(6) == transitive(6)
    assert "_jit" not in compiled.source()
