"""The NumPy graph path (backends/numpy_graph.py): straight-line array code runs as NumPy calls
with in-place and buffered operations, equal to the plain call in values, dtypes, layout and
aliasing, whatever the order of calls, shapes and threads; everything else goes to Numba."""
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler import nn
from transpiler.settings import CONTEXT

import graph_functions as g


@pytest.fixture(autouse=True)
def _graph_on():
    saved = CONTEXT["numpy_graph"]
    CONTEXT["numpy_graph"] = None
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        yield
    CONTEXT["numpy_graph"] = saved


def _same(got, want):
    """Equal values (NaN where NaN), the same type, dtype, shape; recursively for tuples."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            _same(a, b)
        return
    if isinstance(want, (np.ndarray, np.generic)):
        assert got.dtype == want.dtype and np.shape(got) == np.shape(want)
        np.testing.assert_array_equal(got, want, strict=True)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()   # the same bits
        if isinstance(want, np.ndarray):
            assert got.strides == want.strides
    else:
        assert got == want or (got != got and want != want)


def _paths(jitted, obj=None):
    rows = (jitted._explain_for(obj) if obj is not None else jitted.explain()).rows
    return " | ".join(f"{r[2]} {r[3]}" for r in rows)


def _graph(jitted, obj=None):
    return "NumPy graph" in _paths(jitted, obj)


def test_seed_network_runs_as_a_graph_and_equals_plain():
    nn.set_seed(3)
    net = g.Network()
    rng = np.random.default_rng(0)
    for batch in (64, 1, 3, 64):
        x = rng.standard_normal((batch, 1, 28, 28)).astype(np.float32)
        want = net(x)                       # PYNATIVE: the plain call
        tp.set_context(mode=tp.GRAPH_MODE)
        got = net(x)
        tp.set_context(mode=tp.PYNATIVE_MODE)
        _same(got, want)
        _same(got, g.by_hand(net, x))
    graph = nn.cell._graph_function(g.Network.construct)
    assert _graph(graph, net), _paths(graph, net)
    assert "no Numba compile" in _paths(graph, net)


def test_results_are_never_buffers_reused_by_the_next_call():
    nn.set_seed(4)
    net = g.Network((12, 8, 8, 3))
    tp.set_context(mode=tp.GRAPH_MODE)
    x1 = np.ones((5, 12), np.float32)
    x2 = np.full((5, 12), 2.0, np.float32)
    first = net(x1)
    kept = first.copy()
    second = net(x2)
    third = net(x1)
    assert np.array_equal(first, kept) and first is not third and second is not first
    tp.set_context(mode=tp.PYNATIVE_MODE)
    _same(second, net(x2))


def test_residual_network_equals_plain():
    nn.set_seed(5)
    net = g.Residual(16)
    rng = np.random.default_rng(1)
    for batch in (4, 4, 1, 9):
        x = rng.standard_normal((batch, 16)).astype(np.float32)
        before = x.copy()
        want = net(x)
        tp.set_context(mode=tp.GRAPH_MODE)
        got = net(x)
        tp.set_context(mode=tp.PYNATIVE_MODE)
        _same(got, want)
        assert np.array_equal(x, before)            # the input is never written
    assert _graph(nn.cell._graph_function(g.Residual.construct), net)


def test_weight_update_between_calls_is_seen():
    nn.set_seed(6)
    net = g.Network((6, 5, 4, 3))
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6)
    dense = net.dense_relu_sequential.cell_list[0]
    for step in range(4):
        tp.set_context(mode=tp.GRAPH_MODE)
        got = net(x)
        tp.set_context(mode=tp.PYNATIVE_MODE)
        _same(got, net(x))
        dense.weight = dense.weight - np.float32(0.1) * np.sign(dense.weight)   # new array
        net.dense_relu_sequential.cell_list[2].bias[:] += np.float32(0.5)      # in place
    # a new shape: another key, its own buffers
    dense.weight = np.ones((5, 7), np.float32)
    x7 = np.ones((2, 7), np.float32)
    tp.set_context(mode=tp.GRAPH_MODE)
    got = net(x7)
    tp.set_context(mode=tp.PYNATIVE_MODE)
    _same(got, net(x7))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "uint32", "int64",
                                   "uint64", "float16", "float32", "float64", "complex64",
                                   "complex128"])
def test_elementwise_over_dtypes_and_python_scalars(dtype):
    jitted = tp.jit(g.affine)
    a = (np.arange(12).reshape(3, 4) % 3).astype(dtype)
    others = [a, a[0], np.ones((3, 1), dtype), 2, 2.5, True, np.float32(1.5), np.int8(3),
              1 + 2j]
    for b in others:
        for c in (a, 7, np.int16(-2), 0.25):
            try:
                want = g.affine(a, b, c)
            except Exception as exc:    # noqa: BLE001 - the same exception type compiled
                with pytest.raises(type(exc)):
                    jitted(a, b, c)
                continue
            _same(jitted(a, b, c), want)


def test_shapes_that_change_what_may_be_written_in_place():
    jitted = tp.jit(g.affine)
    cases = [(np.ones((3, 4)), np.ones(4), np.ones((3, 4))),
             (np.ones((3, 4)), np.ones((3, 4)), 1.0),
             (np.ones((1, 4)), np.ones((3, 4)), np.ones((3, 1))),
             (np.ones((3, 4)), 2.0, np.ones((2, 3, 4))),
             (np.ones((3, 4), order="F"), np.ones((3, 4)), np.ones(4)),
             (np.ones((6, 8))[::2, ::2], np.ones(4), 0.5),
             (np.ones((3, 4)), np.ones(4), np.ones((3, 4)))]
    for a, b, c in cases * 2:
        _same(jitted(a, b, c), g.affine(a, b, c))
    assert _graph(jitted)


def test_chains_reductions_views_and_layouts():
    rng = np.random.default_rng(2)
    for fn, arg_sets in [
            (g.chain, [(rng.standard_normal(100),), (rng.standard_normal((7, 3)).T,),
                       (rng.standard_normal(5).astype(np.float32),)]),
            (g.reduce_products, [(rng.standard_normal((50, 3)), rng.standard_normal((50, 3))),
                                 (np.asfortranarray(rng.standard_normal((40, 6))),
                                  rng.standard_normal((40, 6)))]),
            (g.returns_views, [(rng.standard_normal((4, 3)), rng.standard_normal(3))]),
            (g.returns_input_view, [(rng.standard_normal((4, 3)),)]),
            (g.stencil, [(rng.standard_normal((9, 7)),), (rng.standard_normal((5, 5)),)]),
            (g.softmax, [(rng.standard_normal((4, 6)).astype(np.float32),)]),
            (g.matmul_chain, [(rng.standard_normal((3, 4)), rng.standard_normal((4, 5)),
                               rng.standard_normal((5, 2)))])]:
        jitted = tp.jit(fn)
        for args in arg_sets * 2:
            before = [a.copy() for a in args]
            got = jitted(*args)
            _same(got, fn(*args))
            for a, b in zip(args, before):
                assert np.array_equal(a, b)       # arguments are never written
        assert _graph(jitted), (fn.__name__, _paths(jitted))


def test_views_of_a_result_stay_consistent_across_calls():
    jitted = tp.jit(g.returns_views)
    a, b = np.ones((4, 3)), np.arange(3.0)
    t, tail, tt = jitted(a, b)
    jitted(a * 5, b)
    assert np.shares_memory(t, tail) and np.shares_memory(t, tt)
    _same((t, tail, tt), g.returns_views(a, b))


def test_value_dependent_shapes_are_computed_plainly():
    for fn in (g.masked, g.value_shaped):
        jitted = tp.jit(fn)
        for x in (np.array([3.0, -1.0, 2.0, 5.0]), np.array([1.0, 2.0, -3.0, 4.0]),
                  np.array([2.0, 2.0, 2.0, -1.0])):
            _same(jitted(x), fn(x))
        assert "a shape may depend on array values" in _paths(jitted), _paths(jitted)


def test_threads_each_get_their_own_buffers():
    nn.set_seed(7)
    net = g.Network((20, 16, 16, 4))
    rng = np.random.default_rng(3)
    inputs = [rng.standard_normal((8, 20)).astype(np.float32) for _ in range(16)]
    wants = [net(x) for x in inputs]
    tp.set_context(mode=tp.GRAPH_MODE)
    results = [None] * len(inputs)
    barrier = threading.Barrier(len(inputs))

    def work(i):
        barrier.wait()
        for _ in range(20):
            results[i] = net(inputs[i])
            assert np.array_equal(results[i], wants[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, wants):
        _same(got, want)


def test_loops_and_scalar_code_compile_with_numba_and_say_why():
    loop = tp.jit(g.with_loop)
    x = np.arange(6.0).reshape(3, 2)
    _same(loop(x), g.with_loop(x))
    assert "by numba-cpu" in _paths(loop) and "not a NumPy graph: a loop" in _paths(loop), \
        _paths(loop)
    assert len(loop.explain().rows) == 1
    scalar = tp.jit(g.scalar_only)
    assert scalar(2.0, 3.0) == 7.0
    assert "scalar code compiles with Numba" in _paths(scalar), _paths(scalar)


def test_what_does_not_convert_runs_as_python_and_says_so():
    jitted = tp.jit(g.with_try)
    x = np.arange(3.0)
    with pytest.warns(tp.FallbackWarning):
        _same(jitted(x), g.with_try(x))
    rows = jitted.explain().rows
    assert [r.status for r in rows] == ["python"] and "try" in rows[0].reason


def test_scalar_arguments_are_part_of_the_key():
    jitted = tp.jit(g.scaled)
    x = np.arange(5.0)
    for s in (2.0, 3.0, float("nan"), 2.0, -0.0):
        _same(jitted(x, s), g.scaled(x, s))
    for s in (2, 3, True):
        _same(jitted(x, s), g.scaled(x, s))


def test_graph_can_be_turned_off():
    tp.set_context(numpy_graph=False)
    try:
        jitted = tp.jit(g.affine)
        a = np.ones(3)
        _same(jitted(a, a, a), g.affine(a, a, a))
        assert not _graph(jitted)
        assert tp.get_context("numpy_graph") is False
    finally:
        CONTEXT["numpy_graph"] = None


def test_exceptions_are_numpys_own():
    jitted = tp.jit(g.affine)
    with pytest.raises(ValueError):
        jitted(np.ones(3), np.ones(4), 1.0)
    a = np.ones(3)
    _same(jitted(a, a, a), g.affine(a, a, a))      # the failed call left nothing behind


def test_what_numba_computes_otherwise_is_numpys_own_in_a_graph():
    """float16 (Numba has none), a bool array minus True (NumPy raises TypeError), a float32
    array power (NumPy's own loop): the Numba path falls back; the graph gives plain's."""
    double = tp.jit(g.double)
    x16 = np.linspace(0, 1, 5, dtype=np.float16)
    _same(double(x16), g.double(x16))
    minus = tp.jit(g.minus_true)
    with pytest.raises(TypeError):
        g.minus_true(np.array([True, False]))
    with pytest.raises(TypeError):
        minus(np.array([True, False]))
    cube = tp.jit(g.cube)
    x32 = np.linspace(-2, 2, 17, dtype=np.float32)
    _same(cube(x32), g.cube(x32))
    for jitted in (double, minus, cube):
        assert _graph(jitted), _paths(jitted)


class Doubling(nn.Cell):
    def construct(self, x):
        return x * 2


def test_a_remembered_graph_still_checks_every_guard(monkeypatch):
    """After calls that took the fast path (transpiler.graph_dispatch): a layer replaced by
    another kind, a weight replaced, GRAPHJIT_DISABLE set: each next call equals plain."""
    nn.set_seed(8)
    net = g.Network((6, 5, 5, 2))
    x = np.linspace(-1, 1, 12, dtype=np.float32).reshape(2, 6)
    tp.set_context(mode=tp.GRAPH_MODE)
    for _ in range(3):
        net(x)
    graph = nn.cell._graph_function(g.Network.construct)
    assert graph.__dict__.get("_graph_table")      # the fast path holds a decision
    changes = [lambda: net.dense_relu_sequential.cell_list.__setitem__(1, Doubling()),
               lambda: setattr(net.dense_relu_sequential.cell_list[0], "weight",
                               np.ones((5, 6), np.float32)),
               lambda: setattr(net.dense_relu_sequential.cell_list[2], "has_bias", False)]
    for change in changes:
        change()
        got = net(x)
        tp.set_context(mode=tp.PYNATIVE_MODE)
        want = net(x)
        tp.set_context(mode=tp.GRAPH_MODE)
        _same(got, want)
        _same(net(x), want)
    monkeypatch.setenv("GRAPHJIT_DISABLE", "1")
    calls = []
    original = nn.Dense.construct

    def counting(self, x):
        calls.append(1)
        return original(self, x)
    monkeypatch.setattr(nn.Dense, "construct", counting)
    net(x)
    assert calls                    # ran as plain Python: the Dense layers' own construct


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex64", "int64", "int8", "bool",
                                   "uint16"])
def test_powers_take_ndarrays_own_fast_paths(dtype):
    """``x ** 2`` is np.square, ``x ** -1`` np.reciprocal and ``x ** 0.5`` np.sqrt only where
    ndarray.__pow__ takes them (by exponent type and array dtype); fused alike."""
    jitted = tp.jit(g.powers)
    x = (np.arange(1, 13).reshape(3, 4) % 5 + 1).astype(dtype)
    for args in [(x,), (x.T,), (x[::2],), (x,)]:
        try:
            want = g.powers(*args)
        except Exception as exc:   # noqa: BLE001 - the same type compiled
            with pytest.raises(type(exc)):
                jitted(*args)
            continue
        _same(jitted(*args), want)


def test_cells_reached_from_a_fallback_run_compiled():
    """``@jit def run(x): model = Network(); return model(x)``: run falls back (creating a
    Cell has effects), but model(x) runs its compiled construct, equal to plain for the same
    weights; explain() says so (issue 20)."""
    x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 12)
    for make in (lambda: tp.jit(g.run_fresh_network), lambda: tp.jit(g.run_fresh_network)):
        jitted = make()
        nn.set_seed(11)
        want = g.run_fresh_network(x)
        nn.set_seed(11)
        with pytest.warns(tp.FallbackWarning, match="Network"):
            got = jitted(x)
        _same(got, want)
        rows = jitted.explain().rows
        assert rows[0].status == "python"
        reached = [r for r in rows if r.region == "call"]
        assert reached and reached[0].status == "compiled", rows
        assert "Network.construct" in reached[0].reason and "numpy-graph" in reached[0].reason
    graph = nn.cell._graph_function(g.Network.construct)
    before = len(graph._by_class.get(g.Network, ()))
    nn.set_seed(12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted(x)          # a new Network: the class's shared code serves it, no transpile
    assert len(graph._by_class.get(g.Network, ())) == before


def test_plain_python_with_graphjit_disabled_reaches_nothing(monkeypatch):
    jitted = tp.jit(g.run_given_network)
    nn.set_seed(13)
    net = g.Network((12, 8, 8, 3))
    x = np.ones((2, 12), np.float32)
    with pytest.warns(tp.FallbackWarning):
        _same(jitted(net, x), g.run_given_network(net, x))
    assert net.calls == 2
    monkeypatch.setenv("GRAPHJIT_DISABLE", "1")
    graph = nn.cell._graph_function(g.Network.construct)
    table = dict(graph.__dict__.get("_graph_table", {}))
    calls = []
    original = nn.Dense.construct
    monkeypatch.setattr(nn.Dense, "construct", lambda self, v: calls.append(1) or original(
        self, v))
    jitted(net, x)
    assert calls            # plain Python all the way down


def test_review_cases_equal_plain():
    """Found by review: a value choosing between arrays of other shapes (the buffer kept the
    first shape), a float indexing, np.diff(a, 0) (a itself: never written), a positional
    out= of np.clip/np.dot, parameters named like graphjit's own names, an np.matrix
    attribute in a method."""
    x, y = np.ones((4, 3)), np.ones((1, 3))
    cases = [(g.choose_by_value, [(x, y, 1.0), (x, y, -1.0), (x, y, 0.5), (x, y, -2.0)]),
             (g.index_by_float, [(np.arange(3.0), 1.0), (np.arange(3.0), -1.0)]),
             (g.diff_zero, [(np.array([1.0, 4.0, 9.0]), 1)] + [(np.array([1.0, 4.0, 9.0]),
                                                                0)] * 3),
             (g.clip_into, [(np.linspace(-1, 1, 5),)] * 3),
             (g.dot_into, [(np.eye(2) * 3.0, np.eye(2))] * 3),
             (g.reserved_names, [tuple(np.arange(3.0) + i for i in range(7))] * 2)]
    for fn, arg_sets in cases:
        jitted = tp.jit(fn)
        kept = []
        for args in arg_sets:
            plain_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            want = fn(*plain_args)
            jit_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            got = jitted(*jit_args)
            _same(got, want)
            for a, b in zip(jit_args, plain_args):
                _same(a, b)                       # arguments changed alike
            kept.append((got, want))
        for got, want in kept:
            _same(got, want)                      # no result changed by a later call


class Holder:
    def __init__(self, w):
        self.w = w

    def method(self, x):
        t = self.w + x
        u = t * t
        return u.sum(axis=0)


def test_an_attribute_of_another_array_type_gets_its_own_code():
    obj = Holder(np.array([[1.0, 2.0], [3.0, 4.0]]))
    jitted = tp.jit(Holder.method)
    x = np.ones((2, 2))
    for _ in range(2):
        _same(jitted(obj, x), Holder.method(obj, x))
    obj.w = np.matrix(obj.w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(2):
            got, want = jitted(obj, x), Holder.method(obj, x)
            assert type(got) is type(want) and np.array_equal(got, want)


def test_returns_of_a_python_float_and_an_np_float64_keep_each_box():
    """``return a[i]`` (np.float64) / ``return -1.0`` (float): each return says which box
    (passes/specialize/result_tag.per_return_tags), under Numba as plainly."""
    import suite_functions as S
    jitted = tp.jit(S.first_above, fullgraph=True)
    for args in [(np.array([1.0, 5.0, 7.0]), 4.0), (np.array([1.0, 2.0]), 4.0)]:
        got, want = jitted(*args), S.first_above(*args)
        assert type(got) is type(want) and got == want
    counted = tp.jit(g.count_or_flag, fullgraph=True)
    for args in [(np.arange(4), 2), (np.arange(4), 9)]:
        got, want = counted(*args), g.count_or_flag(*args)
        assert type(got) is type(want) and got == want


def test_buffers_share_memory_only_between_temporaries_never_alive_at_once():
    """graph_fusion._share_buffers: the three temporaries of ``norms`` are dead before the
    next one is made (one block serves them); ``view_outlives`` reads ``t`` through a view
    after ``u`` is made (two blocks). Values equal plain over shapes, dtypes and repeats."""
    rng = np.random.default_rng(5)
    for fn in (g.norms, g.view_outlives):
        jitted = tp.jit(fn)
        for shape in ((40, 30), (3, 1), (40, 30), (1200, 3), (7, 7)):
            for dtype in (np.float64, np.float32, np.int32, np.complex128):
                a = (rng.standard_normal(shape) * 10).astype(dtype)
                for _ in range(2):
                    _same(jitted(a), fn(a))
        assert _graph(jitted) and "buffers kept" in _paths(jitted), _paths(jitted)
    a = rng.standard_normal((400, 300))
    jitted = tp.jit(g.view_outlives)
    jitted(a), jitted(a)
    spec = jitted._specs_for(None)[0]
    import sys
    state = sys.modules[spec.function.__module__]._G
    _choices, buffers, _busy = next(iter(state._local.table.values()))
    held = [b for b in buffers if b is not None]
    assert len(held) == 2 and not np.shares_memory(held[0], held[1])   # t and u apart
    for b in held:
        assert b.ctypes.data % 64 == 0              # on a cache line (array_graph._apart)
    jitted = tp.jit(g.norms)
    jitted(a), jitted(a)
    spec = jitted._specs_for(None)[0]
    state = sys.modules[spec.function.__module__]._G
    _choices, buffers, _busy = next(iter(state._local.table.values()))
    held = [b for b in buffers if b is not None and b.size > 1]
    assert len(held) == 3 and all(np.shares_memory(held[0], b) for b in held[1:])


def test_a_scalar_type_call_keeps_the_graph_fusible():
    """``np.float64(v)`` has its argument's shape: it no longer stops fusion (graph_fusion
    ``_scalar_type``); a value-shaped call still does."""
    jitted = tp.jit(g.norms)
    a = np.arange(12.0).reshape(3, 4)
    _same(jitted(a), g.norms(a))
    assert "may depend on array values" not in _paths(jitted), _paths(jitted)


def test_clip_and_roll_helpers_run_as_numpys_own_calls_in_a_graph():
    """np.clip with float bounds (Numba's helper checks for a NaN bound) and np.roll with an
    axis are NumPy's own calls in a graph: a NaN bound gives NumPy's NaNs."""
    rng = np.random.default_rng(6)
    jitted = tp.jit(g.clipped)
    for dtype in (np.float64, np.float32):
        x = rng.standard_normal(50).astype(dtype)
        for low, high in ((0.0, 0.75), (-0.5, float("nan")), (float("nan"), 1.0), (0.0, 0.75)):
            _same(jitted(x, low, high), g.clipped(x, low, high))
    assert _graph(jitted), _paths(jitted)
    jitted = tp.jit(g.rolled)
    for x, k in ((rng.standard_normal((3, 5)), 2), (rng.standard_normal((3, 5)), -7),
                 (rng.standard_normal((2, 4, 3)).astype(np.float32), 1)):
        _same(jitted(x, k), g.rolled(x, k))
    assert _graph(jitted), _paths(jitted)
