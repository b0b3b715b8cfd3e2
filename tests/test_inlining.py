"""backends/inlining.py: which of graphjit's helpers the Numba backend inlines (small ones, and
those compiled into one place only) and which it compiles once and calls; results stay
plain Python's either way (the reductions' tests compare them over every dtype)."""
import re
import warnings

import numpy as np
import pytest

import transpiler as tp

from test_numpy_reductions import var_std_in_loop


def _decorators(source):
    """helper name (its generated spelling, numbered suffix dropped) -> set of decorators."""
    found = {}
    for decorator, name in re.findall(r"@(_jit\w*)\ndef (\w+)\(", source):
        found.setdefault(re.sub(r"_\d+$", "", name), set()).add(decorator)
    return found


def one_sum_in_loop(a):
    s = a.sum()
    for i in range(2):
        s = s + 0
    return s


@pytest.fixture(autouse=True)
def numba_path():
    before = tp.get_context("numpy_graph")
    tp.set_context(numpy_graph=False)
    yield
    tp.set_context(numpy_graph=before)


def test_large_helpers_called_from_several_places_are_compiled_once():
    # var and std of one array: NumPy's pairwise sum is reached from nine places; inlined
    # everywhere it took 18-26 s to compile here (3 s now)
    a = np.arange(10.0)
    jitted = tp.jit(var_std_in_loop)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert jitted(a) == var_std_in_loop(a)
    found = _decorators(jitted.source())
    assert found["pairwise"] == {"_jit"} and found["flat"] == {"_jit"}, found
    # the small ones stay inlined, and the block sum, called by the pairwise sum alone
    for name in ("check_ddof", "numpy_mean", "numpy_var", "numpy_std", "real_block"):
        assert found[name] == {"_jit_inline"}, (name, found)
    assert found["var_std_in_loop"] == {"_jit"}


def test_a_large_helper_compiled_into_one_place_is_inlined():
    a = np.arange(10.0)
    jitted = tp.jit(one_sum_in_loop)
    assert jitted(a) == one_sum_in_loop(a)
    found = _decorators(jitted.source())
    helpers = {name: d for name, d in found.items() if name != "one_sum_in_loop"}
    assert "pairwise" in helpers and "flat" in helpers, found
    assert all(d == {"_jit_inline"} for d in helpers.values()), found


def rolls(a, n):
    r1 = np.roll(a, 1, 0)
    r2 = np.roll(a, -2, axis=1)
    r3 = np.roll(a, 3, -1)
    for i in range(n):
        r1 = r1 + np.roll(a, i + 1, 0)
    return r1, r2, r3


def test_a_helper_compiled_once_is_compiled_once_for_all_its_constant_arguments():
    # Numba compiles a called function per combination of literal arguments: the calls of a
    # helper that is not inlined pass theirs through nonliteral (backends/runtime/nonliteral.py)
    import sys
    a = np.arange(12, dtype=np.int8).reshape(3, 4)
    jitted = tp.jit(rolls)
    got, want = jitted(a, 2), rolls(a, 2)
    assert all(np.array_equal(g, w) and g.dtype == w.dtype for g, w in zip(got, want))
    source = jitted.source()
    (name,) = re.findall(r"@_jit\ndef (numpy_roll_axis\w*)\(", source)
    assert "_gj_nonliteral(" in source
    module = sys.modules[jitted._latest(None).function.__module__]
    assert len(getattr(module, name).signatures) == 1, getattr(module, name).signatures


def test_standalone_modules_carry_nonliteral_itself():
    import numba
    from backends.numba_cpu import NumbaCPUBackend
    backend = NumbaCPUBackend()
    backend.standalone = True
    namespace = {}
    exec("\n".join(backend._runtime_import("nonliteral", "_nl", "NONLITERAL_SOURCE")),
         namespace)  # noqa: S102
    nonliteral = namespace["_nl"]

    @numba.njit
    def twice(x, k):
        return x * k

    @numba.njit
    def calls(x):
        return twice(x, nonliteral(2)) + twice(x, nonliteral(3))

    assert calls(np.arange(3.0)).tolist() == [0.0, 5.0, 10.0]
    assert [str(s) for s in twice.signatures] == ["(Array(float64, 1, 'C', False, aligned=True), int64)"]
