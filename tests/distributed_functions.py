"""Jitted functions, methods and Cells for tests/test_distributed.py, in a real file (worker
processes import it, or receive it by value), and the tasks that run them there and report
from the worker's own state what ran compiled."""
import os
import warnings

import numpy as np

import transpiler as tp
from transpiler import nn


@tp.jit
def steps(limit):
    """Total Collatz steps below ``limit`` (a Python int)."""
    total = 0
    n = 1
    while n < limit:
        k = n
        while k != 1:
            if k % 2 == 0:
                k = k // 2
            else:
                k = 3 * k + 1
            total += 1
        n += 1
    return total


def scale_add_plain(a, b):
    return a * 2.0 + b


scale_add = tp.jit(scale_add_plain)   # a jit(fn) object: not found at its function's name


@tp.jit
def elementwise(x):
    """Element-wise on a block (dask.array.map_blocks)."""
    return np.sqrt(x * x + 1.0) - x


@tp.jit
def block_sum_rows(x):
    """A block function with a loop: each row's running maximum."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        best = x[i, 0]
        for j in range(x.shape[1]):
            if x[i, j] > best:
                best = x[i, j]
            out[i, j] = best
    return out


class Scaler:
    """A plain object with a jitted method (bound: a BoundJitFunction)."""

    def __init__(self, k):
        self.k = k

    @tp.jit
    def apply(self, x):
        return x * self.k + 1


class SmallNet(nn.Cell):
    """Flatten, Dense, ReLU, Dense (float32), as the seed network but small."""

    def __init__(self, seed=0):
        super().__init__()
        np.random.seed(seed)
        self.flatten = nn.Flatten()
        self.body = nn.SequentialCell(nn.Dense(16, 8), nn.ReLU(), nn.Dense(8, 3))

    def construct(self, x):
        return self.body(self.flatten(x))


class JitNet(SmallNet):
    """The same with ``@jit`` on construct: compiled in either mode."""

    @tp.jit
    def construct(self, x):
        return self.body(self.flatten(x))


# -- what a worker reports ------------------------------------------------------------------

def compiled_rows(jitted):
    """How many compiled specializations ``jitted`` (a JitFunction or bound one) has here."""
    return sum(1 for row in jitted.explain().rows if row.status == "compiled")


def graph_function(cell_class):
    """The JitFunction GRAPH_MODE uses for ``cell_class.construct`` in this process."""
    from transpiler.nn.cell import _graph_function
    return _graph_function(cell_class.construct)


def call_and_report(jitted, *args):
    """``(jitted(*args), compiled specializations, this process's id, fallback warnings)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = jitted(*args)
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, tp.FallbackWarning)]
    return result, compiled_rows(jitted), os.getpid(), fallbacks


def call_and_identify(jitted, *args):
    """:func:`call_and_report` and the identity of the specialization the call used in this
    process (one per process: it compiled once there)."""
    report = call_and_report(jitted, *args)
    if isinstance(jitted, tp.BoundJitFunction):
        serving = jitted._jit._serving(jitted.__self__)
    else:
        serving = jitted._serving(jitted._bound_self)
    return (*report, id(serving[0]))


def cell_call_and_report(net, x):
    """A GRAPH_MODE call of ``net`` in this process (the context is per process), and how many
    specializations the GRAPH_MODE function of its class compiled here."""
    tp.set_context(mode=tp.GRAPH_MODE)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = net(x)
    finally:
        tp.set_context(mode=tp.PYNATIVE_MODE)
    jitted = type(net).construct if isinstance(type(net).construct, tp.JitFunction) else \
        graph_function(type(net))
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, tp.FallbackWarning)]
    return result, compiled_rows(jitted), os.getpid(), fallbacks


def load_and_report(payload, *args, loads="cloudpickle"):
    """Unpickle ``payload`` (bytes of a jitted function, from module ``loads``) here and call
    it."""
    import importlib
    return call_and_report(importlib.import_module(loads).loads(payload), *args)


def steps_task(limit):
    """A plain task function that calls a jitted one (a Pool or a Dask task)."""
    return call_and_report(steps, limit)


def worker_state():
    """What this process holds: the compiled specializations of each module-level jitted
    function, and of every unpickled JitFunction (one per pickled identity)."""
    from transpiler import pickling
    state = {name: compiled_rows(globals()[name])
             for name in ("steps", "scale_add", "elementwise", "block_sum_rows")}
    state["unpickled"] = sorted((jf.__qualname__, compiled_rows(jf))
                                for jf in list(pickling._BY_ID.values()))
    state["pid"] = os.getpid()
    return state
