"""Concurrent first calls: one transpile per argument types, no half-built module, all equal
to the plain call (issue: 16 threads raised AttributeError '_prepare' and transpiled 16
times)."""
import threading

import numpy as np
import pytest

import transpiler as tp

THREADS = 16


def running_sum(x, n):
    total = x * 0
    for i in range(n):
        if i % 3 == 0:
            total = total + x * i
    return total


def scaled(a, k):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * k + i
    return out


def _together(calls):
    """Run each zero-argument call in its own thread, all released at once by a barrier;
    returns their results (or the exceptions they raised) in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def work(index):
        barrier.wait()
        try:
            results[index] = ("value", calls[index]())
        except BaseException as exc:  # noqa: BLE001 - reported, then asserted on
            results[index] = ("raised", exc)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize("run", range(50))
def test_sixteen_threads_first_call_compiles_once(run, transpiles):
    compiled = tp.jit(running_sum, fullgraph=True)
    results = _together([lambda i=i: compiled(i, 40) for i in range(THREADS)])
    assert results == [("value", running_sum(i, 40)) for i in range(THREADS)]
    assert len(transpiles) == 1
    assert len(compiled._plain) == 1


def test_different_types_at_once_specialize_independently(transpiles):
    compiled = tp.jit(scaled, fullgraph=True)
    inputs = [(np.arange(5, dtype=dtype), 3) for dtype in (np.float64, np.int64)] * 8
    results = _together([lambda a=a, k=k: compiled(a, k) for a, k in inputs])
    for (a, k), (kind, value) in zip(inputs, results):
        expected = scaled(a, k)
        assert kind == "value" and value.dtype == expected.dtype
        np.testing.assert_array_equal(value, expected)
    assert len(transpiles) == 2 and len(compiled._plain) == 2


def test_many_jit_objects_of_one_function_load_one_module_safely():
    # Each object transpiles, all to the same module text: the loader must not hand out a
    # module that another thread is still executing.
    for _ in range(5):
        objects = [tp.jit(running_sum, fullgraph=True) for _ in range(THREADS)]
        results = _together([lambda c=c: c(2.5, 30) for c in objects])
        assert results == [("value", running_sum(2.5, 30))] * THREADS
        assert len({c._plain[0].function for c in objects}) == 1


class Scale(tp.nn.Cell):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.bias = np.ones(4)

    def construct(self, x):
        return x * self.factor + self.bias


def test_sixteen_threads_first_call_of_a_graph_mode_cell(transpiles):
    tp.set_context(mode=tp.GRAPH_MODE)
    try:
        cell = Scale(3.0)
        x = np.arange(4.0)
        results = _together([lambda: cell(x)] * THREADS)
    finally:
        tp.set_context(mode=tp.PYNATIVE_MODE)
    for kind, value in results:
        assert kind == "value"
        np.testing.assert_array_equal(value, x * 3.0 + 1)
    assert len(transpiles) == 1


def test_fallback_under_threads_warns_and_matches_plain():
    def uses_try(n):
        try:
            return n + 1
        except ValueError:
            return 0
    compiled = tp.jit(uses_try)
    with pytest.warns(tp.FallbackWarning):
        results = _together([lambda i=i: compiled(i) for i in range(THREADS)])
    assert results == [("value", i + 1) for i in range(THREADS)]


def test_one_progress_report_per_compile_not_per_waiting_thread(slow_first_compile, capsys):
    compiled = tp.jit(running_sum, fullgraph=True)
    args = [(i, 10) if i % 2 else (float(i), 10) for i in range(THREADS)]
    results = _together([lambda a=a: compiled(*a) for a in args])
    assert results == [("value", running_sum(*a)) for a in args]
    err = capsys.readouterr().err
    assert err.count("graphjit: compiling") == 2 and err.count("graphjit: compiled") == 2
