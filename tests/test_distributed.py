"""Pickling jitted functions, methods and Cells (pickle and cloudpickle, before and after a
call), process pools (fork, spawn, forkserver, ProcessPoolExecutor) and Dask (a LocalCluster of
2 worker processes): every result equals the plain call, and the workers' own state says they
ran compiled code. The functions live in tests/distributed_functions.py."""
import collections
import concurrent.futures
import importlib
import multiprocessing
import os
import pickle
import sys
import textwrap
import warnings

import numpy as np
import pytest

import distributed_functions as d
import transpiler as tp

cloudpickle = pytest.importorskip("cloudpickle")
PICKLERS = [pytest.param(pickle, id="pickle"), pytest.param(cloudpickle, id="cloudpickle")]


def assert_same(got, want):
    """Equal value, type and (for arrays and NumPy scalars) dtype and shape."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype and np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


X = np.linspace(-2.0, 3.0, 12).reshape(3, 4)
NET_X = np.linspace(-1.0, 1.0, 2 * 16, dtype=np.float32).reshape(2, 1, 4, 4)


def plain_of(kind):
    """(the callable of ``kind``, its plain call's result, a call of it)."""
    if kind == "function":
        return d.steps, d.steps.python_function(300), lambda f: f(300)
    if kind == "jit_object":
        return d.scale_add, d.scale_add_plain(X, 1.5), lambda f: f(X, 1.5)
    if kind == "bound_method":
        s = d.Scaler(3)
        return s.apply, d.Scaler.apply.python_function(s, np.arange(4)), \
            lambda f: f(np.arange(4))
    if kind == "jit_of_bound":
        s = d.Scaler(2.5)
        return tp.jit(s.apply), d.Scaler.apply.python_function(s, X), lambda f: f(X)
    raise AssertionError(kind)


KINDS = ["function", "jit_object", "bound_method", "jit_of_bound"]


@pytest.mark.parametrize("module", PICKLERS)
@pytest.mark.parametrize("after_call", [False, True], ids=["before", "after"])
@pytest.mark.parametrize("kind", KINDS)
def test_round_trip(kind, after_call, module):
    jitted, want, call = plain_of(kind)
    if after_call:
        assert_same(call(jitted), want)
    again = module.loads(module.dumps(jitted))
    assert type(again) is type(jitted)
    assert_same(call(again), want)
    assert d.compiled_rows(again) >= 1   # ran compiled, not as Python
    if kind in ("function", "jit_object", "jit_of_bound"):
        assert again is jitted   # in the process that made it: the same object, its code kept


@pytest.mark.parametrize("module", PICKLERS)
@pytest.mark.parametrize("after_call", [False, True], ids=["before", "after"])
@pytest.mark.parametrize("cls", [d.SmallNet, d.JitNet], ids=["graph_mode", "jit_construct"])
def test_cell_round_trip(cls, after_call, module):
    net = cls()
    want = cls.construct.python_function(net, NET_X) if cls is d.JitNet else net(NET_X)
    if after_call:
        assert_same(d.cell_call_and_report(net, NET_X)[0], want)
    again = module.loads(module.dumps(net))
    result, compiled, _pid, fallbacks = d.cell_call_and_report(again, NET_X)
    assert_same(result, want)
    assert compiled >= 1 and not fallbacks


def test_specializations_are_not_pickled():
    jf = tp.jit(d.scale_add_plain)
    before = pickle.dumps(jf)
    jf(X, 1.0)
    assert d.compiled_rows(jf) == 1
    assert pickle.dumps(jf) == before   # no loaded module, lock or weak reference in it
    state = jf.__reduce_ex__(5)[2]
    assert set(state) == {"function", "bound_self", "split", "region_source", "source",
                          "backend", "fullgraph", "static_argnames", "cache", "boundscheck",
                          "check_int_overflow", "parallel"}


def test_options_travel():
    jf = tp.jit(d.scale_add_plain, fullgraph=True, boundscheck=False, check_int_overflow=False,
                cache=True, backend="numba-cpu")
    state = jf.__reduce_ex__(5)[2]
    fresh = tp.JitFunction.__new__(tp.JitFunction)
    fresh.__dict__["_graphjit_unpickled"] = True
    fresh.__dict__["_graphjit_id"] = "x"
    fresh.__setstate__(state)
    for name in ("fullgraph", "boundscheck", "check_int_overflow", "cache", "backend"):
        assert getattr(fresh, name) == getattr(jf, name)
    assert fresh.python_function is d.scale_add_plain
    assert_same(fresh(X, 1.0), d.scale_add_plain(X, 1.0))


# -- process pools ---------------------------------------------------------------------------

def check_reports(reports, wants):
    """Every task's result equals the plain call, ran compiled in another process, without a
    fallback, and each worker process compiled once (one object, one specialization)."""
    by_pid = collections.defaultdict(set)
    for (result, compiled, pid, fallbacks, identity), want in zip(reports, wants):
        assert_same(result, want)
        assert compiled == 1 and not fallbacks
        assert pid != os.getpid()
        by_pid[pid].add(identity)
    assert all(len(ids) == 1 for ids in by_pid.values()), by_pid


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_pool_map(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    limits = [50, 100, 150, 200, 250, 300]
    arrays = [X + i for i in range(6)]
    with multiprocessing.get_context(method).Pool(2) as pool:
        got = pool.map(d.steps, limits, chunksize=1)
        reports = pool.starmap(d.call_and_identify, [(d.scale_add, a, 0.5) for a in arrays],
                               chunksize=1)
    for g, n in zip(got, limits):
        assert_same(g, d.steps.python_function(n))
    check_reports(reports, [d.scale_add_plain(a, 0.5) for a in arrays])


def test_process_pool_executor():
    s = d.Scaler(4)
    arrays = [X * i for i in range(4)]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        got = list(pool.map(d.steps, [60, 120]))
        reports = list(pool.map(d.call_and_identify, [s.apply] * 4, arrays))
    assert got == [d.steps.python_function(60), d.steps.python_function(120)]
    check_reports(reports, [d.Scaler.apply.python_function(s, a) for a in arrays])


# -- by value: the file is not there, or the source is nowhere --------------------------------

MODULE_TEXT = '''
import numpy as np
import transpiler as tp


FACTOR = 1.0


def helper(v):
    return v * v * FACTOR


@tp.jit
def by_value(x, n):
    out = np.empty(n)
    for i in range(n):
        out[i] = helper(x[i]) + 1.0
    return out


exec(compile("def no_source(x):\\n    return x * 3 + 1\\n", "<graphjit-nowhere>", "exec"))
no_source_jit = tp.jit(no_source)
'''


@pytest.fixture
def vanished_module(tmp_path, monkeypatch):
    """A module pickled by value by cloudpickle, whose file is then deleted and whose module is
    forgotten: a receiving process can only use the source the pickle carries."""
    name = f"graphjit_vanishing_{os.getpid()}_{id(tmp_path)}"
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(MODULE_TEXT))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(name)
    cloudpickle.register_pickle_by_value(module)
    try:
        payloads = {"by_value": cloudpickle.dumps(module.by_value),
                    "no_source": cloudpickle.dumps(module.no_source_jit)}
        wants = {"by_value": module.by_value.python_function(X[0], 4),
                 "no_source": module.no_source(7)}
        module.FACTOR = 3.0   # the same function, a global changed: it must be seen there
        payloads["changed"] = cloudpickle.dumps(module.by_value)
        wants["changed"] = module.by_value.python_function(X[0], 4)
    finally:
        cloudpickle.unregister_pickle_by_value(module)
    path.unlink()
    del sys.modules[name]
    return payloads, wants


def test_by_value_compiles_without_the_file(vanished_module):
    payloads, wants = vanished_module
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        reports = [pool.apply(d.load_and_report, (payloads[name], X[0], 4))
                   for name in ("by_value", "by_value", "changed")]
        nowhere = pool.apply(d.load_and_report, (payloads["no_source"], 7))
    for (result, compiled, pid, fallbacks), name in zip(reports, ["by_value"] * 2 + ["changed"]):
        assert_same(result, wants[name])
        assert compiled == 1 and not fallbacks and pid != os.getpid()
    # No source anywhere: it runs as Python there, and says so.
    result, compiled, _pid, fallbacks = nowhere
    assert_same(result, wants["no_source"])
    assert compiled == 0
    assert fallbacks and "source of 'no_source' is not available" in fallbacks[0]


@pytest.mark.parametrize("module", PICKLERS)
def test_changed_self_is_seen(module):
    """An unpickled jit(obj.method) is reused in a process only while what it was made from
    is the same: the object changed in between, the next task sees the change."""
    s = d.Scaler(2.0)
    jf = tp.jit(s.apply)
    first = module.dumps(jf)
    s.k = 7.0
    second = module.dumps(jf)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        reports = [pool.apply(d.load_and_report, (payload, X), {"loads": module.__name__})
                   for payload in (first, first, second)]
    for (result, compiled, _pid, fallbacks), k in zip(reports, (2.0, 2.0, 7.0)):
        assert_same(result, X * k + 1)
        assert compiled == 1 and not fallbacks


def test_no_source_warns_in_process():
    jf = tp.jit(d.scale_add_plain)
    exec_ns = {}
    exec(compile("def nowhere(x):\n    return x + 1\n", "<graphjit-nowhere-2>", "exec"), exec_ns)
    jf = tp.jit(exec_ns["nowhere"])
    again = cloudpickle.loads(cloudpickle.dumps(jf))
    with pytest.warns(tp.FallbackWarning, match="not available"):
        assert again(2) == 3


# -- Dask ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                           dashboard_address=None)
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_dask_map_and_submit(client):
    limits = [40, 80, 120, 160, 200, 240]
    got = client.gather(client.map(d.steps, limits, pure=False))
    for g, n in zip(got, limits):
        assert_same(g, d.steps.python_function(n))
    d.scale_add(X, 1.0)    # called here first: it must still travel
    arrays = [X + i for i in range(6)]
    reports = client.gather(client.map(d.call_and_identify, [d.scale_add] * 6, arrays, [2.0] * 6,
                                       pure=False))
    check_reports(reports, [d.scale_add_plain(a, 2.0) for a in arrays])
    s = d.Scaler(5)
    future = client.submit(d.call_and_identify, s.apply, X, pure=False)
    result, compiled, pid, fallbacks, _ = future.result()
    assert_same(result, d.Scaler.apply.python_function(s, X))
    assert compiled == 1 and not fallbacks and pid != os.getpid()
    assert_same(client.submit(d.steps, 99).result(), d.steps.python_function(99))
    # Each worker compiled each function once: asked of the workers themselves.
    for state in client.run(d.worker_state).values():
        assert state["steps"] <= 1 and state["scale_add"] <= 1
        names = [name for name, _ in state["unpickled"]]
        assert len(names) == len(set(names)), state   # one object per pickled function
        assert all(n <= 1 for _, n in state["unpickled"])
    assert sum(s["steps"] for s in client.run(d.worker_state).values()) >= 1


def test_dask_cell_graph_mode(client):
    net = d.SmallNet()
    want = net(NET_X)
    [remote] = client.scatter([net], broadcast=True)
    batches = [NET_X + i for i in range(4)]
    reports = client.gather([client.submit(d.cell_call_and_report, remote, b, pure=False)
                             for b in batches])
    for (result, compiled, pid, fallbacks), b in zip(reports, batches):
        assert_same(result, net(b))
        assert compiled == 1 and not fallbacks and pid != os.getpid()
    assert_same(reports[0][0], want)
    jnet = d.JitNet()
    result, compiled, _pid, fallbacks = client.submit(d.cell_call_and_report, jnet,
                                                      NET_X).result()
    assert_same(result, d.JitNet.construct.python_function(jnet, NET_X))
    assert compiled == 1 and not fallbacks


def test_dask_map_blocks(client):
    da = pytest.importorskip("dask.array")
    data = np.linspace(-5, 5, 64 * 48).reshape(64, 48)
    arr = da.from_array(data, chunks=(16, 24))
    for fn in (d.elementwise, d.block_sum_rows):
        got = arr.map_blocks(fn, dtype=data.dtype).compute()
        want = np.block([[fn.python_function(data[i:i + 16, j:j + 24])
                          for j in range(0, 48, 24)] for i in range(0, 64, 16)])
        assert_same(got, want)
    states = client.run(d.worker_state).values()
    assert sum(s["elementwise"] for s in states) >= 1
    assert sum(s["block_sum_rows"] for s in states) >= 1
    assert all(s["elementwise"] <= 1 and s["block_sum_rows"] <= 1 for s in states)


def test_dask_by_value(client, vanished_module):
    payloads, wants = vanished_module
    result, compiled, pid, fallbacks = client.submit(
        d.load_and_report, payloads["by_value"], X[0], 4, pure=False).result()
    assert_same(result, wants["by_value"])
    assert compiled == 1 and not fallbacks and pid != os.getpid()
    result, compiled, _pid, fallbacks = client.submit(
        d.load_and_report, payloads["no_source"], 7, pure=False).result()
    assert_same(result, wants["no_source"])
    assert compiled == 0 and fallbacks
