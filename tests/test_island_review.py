"""A review tried to break Python islands (transpiler/islands.py): each case here gave a
wrong answer, another exception or a statement run twice before its fix. Every case runs
plainly and through tp.jit, comparing results, types and what the arguments became."""
import warnings

import numpy as np
import pytest

import transpiler as tp


def both(fn, make):
    """(plain result, plain args, jitted result, jitted args) of ``fn(*make())``."""
    plain_args, jit_args = make(), make()
    expected = fn(*plain_args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        got = tp.jit(fn)(*jit_args)
    return expected, plain_args, got, jit_args


def assert_same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    else:
        assert a == b or (a != a and b != b)


def growing(log, n):
    x = 1
    for i in range(n):
        log.append(str(i))      # an island, then a Python int past int64
        x = x * 1000
    return x


def test_no_island_runs_twice_when_an_int_outgrows_int64():
    expected, (plain_log, _), got, (log, _) = both(growing, lambda: (["start"], 10))
    assert got == expected and log == plain_log


def inner_g(d, a):
    for i in range(len(a)):
        msg = d["k"]            # island-owned, assigned by the island only
        a[i] += 1.0
    return 1


JITTED_G = tp.jit(inner_g)


def outer_f(d, a):
    msg = "outer"
    for i in range(len(a)):
        a[i] += 1.0
        msg = str(JITTED_G(d, a)) + msg      # an island calling another jitted function
    return msg


def test_island_names_of_two_functions_stay_apart():
    expected, plain_args, got, jit_args = both(outer_f, lambda: ({"k": "IN"}, np.zeros(2)))
    assert got == expected == "11outer"
    assert_same(plain_args[1], jit_args[1])


def closure_reads(log, a):
    tot = 0.0

    def get():
        return tot
    for i in range(len(a)):
        tot += a[i]
        log.append(f"{get()}")      # a closure over what the loop stores
    return log


def test_a_closure_read_from_an_island_sees_the_loop_values():
    expected, _, got, _ = both(closure_reads, lambda: ([], np.arange(1.0, 4.0)))
    assert got == expected == ["1.0", "3.0", "6.0"]


SCALE = 1.0


def set_scale(v):
    global SCALE
    SCALE = v


def global_rebound(d, a):
    for i in range(len(a)):
        a[i] = SCALE
        set_scale(d[i])             # an island rebinding a global the loop reads
    return a


def test_a_global_rebound_by_an_island_is_seen():
    global SCALE
    SCALE = 1.0
    expected = global_rebound({0: 5.0, 1: 6.0, 2: 7.0}, np.zeros(3))
    SCALE = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        got = tp.jit(global_rebound)({0: 5.0, 1: 6.0, 2: 7.0}, np.zeros(3))
    assert_same(expected, got)


def maybe_defined(d, a, flag):
    if flag:
        s = "x"
    for i in range(len(a)):
        a[i] += 1
        if flag:
            d[i] = s                # 's' may be unassigned where the loop starts
    return d


@pytest.mark.parametrize("flag", [True, False])
def test_a_maybe_unassigned_name_read_by_an_island(flag):
    expected, _, got, _ = both(maybe_defined, lambda: ({}, np.zeros(2), flag))
    assert_same(expected, got)


def tuple_of_numpy(log, a):
    for i in range(len(a)):
        t = divmod(a[i], 2.0)
        log.append(t[0] / 0.0 if False else t)      # a tuple of np.float64
    return log


def test_a_tuple_of_numpy_scalars_reaches_an_island_as_python_holds_it():
    expected, _, got, _ = both(tuple_of_numpy, lambda: ([], np.arange(3.0)))
    assert_same(expected, got)


def partial_sum(a, d):
    s = 0.0
    try:
        for i in range(len(a)):
            s += a[i]
            a[i] = d[i]             # KeyError at i == 2, caught below
    except KeyError:
        pass
    return s


def test_a_loop_that_raises_inside_try_keeps_its_partial_outputs():
    expected, plain_args, got, jit_args = both(partial_sum,
                                              lambda: (np.arange(5.0), {0: 1.0, 1: 2.0}))
    assert got == expected == 3.0
    assert_same(plain_args[0], jit_args[0])


def two_reads(d, a):
    s = ""
    t = 0.0
    for i in range(len(a)):
        t += a[i] * 2.0
        if i == 0:
            s = s + d["m"]
            a[i] += d["k"]
    return s, t


def test_two_islands_reading_one_dict_keep_the_loop_compiled():
    expected, plain_args, got, jit_args = both(two_reads,
                                              lambda: ({"m": "x", "k": 1.0}, np.ones(50)))
    assert_same(expected, got)
    assert_same(plain_args[1], jit_args[1])
    jitted = tp.jit(two_reads)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted({"m": "x", "k": 1.0}, np.ones(50))
    rows = jitted.explain().rows
    assert any(r.status == "compiled" and r.region.startswith("loop") for r in rows)
    assert not any(r.region.startswith("  loop") for r in rows)      # not split again


def accumulate_then_store(d, a):
    s = 0
    for i in range(len(a)):
        s += a[i]               # a Python int or an np.float64 by path
        d[i] = s
    return s


def test_a_region_that_runs_as_python_runs_its_loop_as_written():
    """The island cannot take 's' (an int or an np.float64 by path, which compiled code
    holds otherwise; a float or an np.float64 it takes as the one reaching the read): the
    region runs as Python, the loop as written (no island calls, plain speed), with the same
    answer."""
    expected, (plain_d, _), got, (d, _) = both(accumulate_then_store,
                                               lambda: ({}, np.arange(4.0)))
    assert_same(expected, got)
    assert_same(plain_d, d)
    jitted = tp.jit(accumulate_then_store)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted({}, np.arange(4.0))
    spec = next(s for s in jitted._specs_for(None) if s.split is not None)
    islands = [i for r in spec.split.regions for i in r.islands.values()]
    assert islands and all(i.calls == 0 for i in islands)


def dict_bound(a, n):
    names = {"n": n}                # a local dict: the region takes what the loop reads
    acc = 0.0
    for i in range(names["n"]):
        acc += a[i % a.shape[0]] * 0.5
    print(names)                    # (the function cannot compile whole)
    return acc


def test_range_arguments_reading_a_dict_are_evaluated_before_the_loop(capsys):
    """range(names["n"]): Python evaluates the argument once, before the loop; the driver
    does, and the loop compiles (it ran as Python, while explain() said 'compiled')."""
    expected, _, got, _ = both(dict_bound, lambda: (np.arange(3.0), 7))
    assert_same(expected, got)
    jitted = tp.jit(dict_bound)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted(np.arange(3.0), 7)
    assert capsys.readouterr().out == "{'n': 7}\n" * 3
    rows = jitted.explain().rows
    assert [r.status for r in rows if r.region.strip().startswith("loop")][-1] == "compiled"


# -- found by a new user's trial ------------------------------------------------------------------

class Printer:
    def run(self, x):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = 2.0 * x[i]
            if i % 500 == 0:
                print("at", i)
        return out


def test_a_method_splits_into_a_compiled_loop_and_an_island(capsys):
    """Methods never split: the source's end columns were not shifted with the start ones
    (a class body is indented), so a region's code did not compile (transpiler/source.py)."""
    x = np.arange(1000.0)
    expected = Printer().run(x)
    plain_out = capsys.readouterr().out
    jitted = tp.jit(Printer().run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        got = jitted(x)
    assert capsys.readouterr().out == plain_out == "at 0\nat 500\n"
    assert_same(expected, got)
    assert [r.status for r in jitted.explain().rows if r.region.strip().startswith("loop")] \
        == ["compiled"]


def local_log(x):
    log = []                        # a list made here, of str
    for i in range(x.shape[0]):
        x[i] += 1.0
        if i % 500 == 0:
            log.append(f"at {i}")
    return log


def diffuse(x, n_steps, dt, every, log):
    for step in range(n_steps):
        for i in range(x.shape[0]):
            x[i] += (-4.0 * x[i]) * dt      # float arithmetic (NEP 50 helpers inside)
        if step % every == 0:
            log.append(f"step {step}")
    return x


def test_local_lists_and_float_steps_keep_their_islands():
    expected, (plain_x,), got, (x,) = both(local_log, lambda: (np.zeros(1000),))
    assert_same(expected, got)
    assert_same(plain_x, x)
    jitted = tp.jit(local_log)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted(np.zeros(1000))
    assert any(r.region.strip().startswith("island") for r in jitted.explain().rows)
    expected, plain_args, got, args = both(diffuse, lambda: (np.ones(8), 6, 2, 0.1, []))
    assert_same(expected, got)
    assert_same(plain_args[4], args[4])
    jitted = tp.jit(diffuse)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted(np.ones(8), 6, 0.1, 2, [])
    rows = jitted.explain().rows
    assert not any("outgrow int64" in r.reason for r in rows), rows
    assert any(r.region.strip().startswith("island") for r in rows)


def stop_words(vocab, stop, idx):
    n = 0
    for k in range(idx.shape[0]):
        if vocab[idx[k]] in stop:       # the loop's whole work is the island
            n += 1
    return n


def test_a_loop_slower_with_its_islands_runs_as_written_from_its_3rd_call():
    """An island costs ~2 us: a loop that does little else runs slower compiled than as
    Python. Its 2nd call is timed compiled, its 3rd as written; later calls take the faster
    and explain() says so (never a silent slowdown)."""
    vocab = [f"w{i}" for i in range(50)]
    stop = {f"w{i}" for i in range(0, 50, 3)}
    idx = np.arange(20000) % 50
    jitted = tp.jit(stop_words)
    expected = stop_words(vocab, stop, idx)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        for _ in range(5):
            assert jitted(vocab, stop, idx) == expected
    spec = next(s for s in jitted._specs_for(None) if s.split is not None)
    region = spec.split.regions[0]
    assert region.islands and region.compiled_seconds is not None
    assert region.python_seconds is not None
    loop = next(r for r in jitted.explain().rows if r.region.strip().startswith("loop"))
    if region.python_seconds < region.compiled_seconds:
        assert loop.status == "python" and "runs as written in Python" in loop.reason
    else:
        assert loop.status == "compiled"
