"""Jitted functions that are gone free what graphjit made for them: specializations,
generated modules (out of sys.modules) and their Numba dispatchers. Counted in objects, not
bytes (benchmarks/memory.py measures the bytes; Numba's machine code is never freed)."""
import gc
import sys
import weakref

import numpy as np

import transpiler as tp


def make(k):
    def scaled_sum(x):
        total = 0.0
        for i in range(x.shape[0]):
            total += x[i] * k
        return total
    return scaled_sum


def _generated_modules():
    return {name for name in sys.modules if name.startswith("_graphjit_make__locals__scaled")}


def _dispatchers():
    return sum(type(o).__name__ == "CPUDispatcher" for o in gc.get_objects())


def test_dropped_closures_free_their_modules_and_dispatchers(monkeypatch):
    from transpiler import loader
    monkeypatch.setattr(loader, "IDLE_MODULES", 4)   # unused modules kept for reuse
    x = np.arange(6.0)
    tp.jit(make(-1))(x)
    gc.collect()
    modules, dispatchers = _generated_modules(), _dispatchers()
    refs = []
    for k in range(40):
        closure = make(k)
        jitted = tp.jit(closure, fullgraph=True)
        assert jitted(x) == closure(x)
        refs.append((weakref.ref(jitted), weakref.ref(jitted._plain[0].function)))
        del jitted
    gc.collect()
    assert all(r() is None for r, _ in refs)
    assert sum(d() is not None for _, d in refs) <= 4
    assert len(_generated_modules() - modules) <= 4
    assert _dispatchers() <= dispatchers + 4


def test_a_thousand_closures_with_one_value_share_one_module():
    x = np.arange(6.0)
    kept = tp.jit(make(7), fullgraph=True)
    assert kept(x) == make(7)(x)
    function = kept._plain[0].function
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(1000):
        jitted = tp.jit(make(7), fullgraph=True)
        assert jitted(x) == make(7)(x)
        assert jitted._plain[0].function is function   # same text: same module, no compile
        del jitted
    gc.collect()
    assert len(gc.get_objects()) - before < 2000    # nothing kept per closure
    assert kept(x) == make(7)(x)                     # the module of a live user stays intact
