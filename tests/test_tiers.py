"""Tiers (transpiler.tiers): which way runs a NumPy graph specialization's calls.

The plain Python call is the truth: every call of the jitted function, in every phase of its
:class:`~transpiler.tiers.TierRace` (the first race between ``plain`` and ``tier 0``, tier 1
compiled by Numba in the background, the second race among the three, settled), gives the
plain call's result bit for bit (values with NaN, dtype, type, shape), or raises the plain
call's exception class.

``native_after=0.0`` makes the race start tier 1's compile at its first timed call;
``join_compiles()`` waits for it. Tier-1 compiles are the slow part (0.3-1.5 s each): about a
dozen in the whole file.
"""
import threading
import time
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler import tiers
from transpiler.settings import CONTEXT

WAYS = ("plain", "tier 0", "tier 1")
RACE = tiers.RACE_TIMED   # timed calls of each way in a race

# overflow in gelu's cube and sigmoid's exp: NumPy's RuntimeWarning, plain and tier 0 alike
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(autouse=True)
def tier_context():
    """Tiers on, tier 1 compiled at once; the context restored after the test."""
    saved = dict(CONTEXT)
    tp.set_context(tiers=True, native_after=0.0, numpy_graph=True)
    try:
        yield
    finally:
        tp.tiers.join_compiles()
        CONTEXT.clear()
        CONTEXT.update(saved)


# -- functions (straight-line array code: a NumPy graph each) --------------------------------

def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.79788 * (x + 0.044715 * x * x * x)))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def poly(x):
    return 1.5 + x * (2.0 - x * (0.25 + 3.0 * x))


def leaky(x):
    return np.where(x > 0, x, 0.01 * x)


def mean_sq(a, b):
    return np.mean((a - b) ** 2)


def moving_average(v, w):
    c = np.cumsum(v)
    return (c[w:] - c[:-w]) / w


def cube(x):
    return x ** 3


def gelu_tail(x):
    y = 0.5 * x * (1.0 + np.tanh(0.79788 * (x + 0.044715 * x * x * x)))
    return y[:, 1:]


def rows_after_first(x):
    return x[1:]


def three_rows(x):
    return x.reshape(3, -1)


def solve(a, b):
    return np.linalg.solve(a, b)


def square_plus_one(x):
    return x * x + 1.0


# -- helpers ---------------------------------------------------------------------------------

def floats(rng, shape, dtype):
    """Random floats of ``dtype`` with a NaN, an inf, a -0.0 and a huge value in them."""
    a = (rng.standard_normal(shape) * 4.0).astype(dtype)
    flat = a.reshape(-1)
    if flat.size >= 8:
        flat[1], flat[3], flat[5], flat[7] = np.nan, -0.0, np.inf, -1e30
    return a


def same(got, want):
    """Bit for bit: the result's type, dtype, shape and values (NaN equal to NaN)."""
    return (type(got) is type(want) and np.shape(got) == np.shape(want)
            and np.asarray(got).dtype == np.asarray(want).dtype
            and np.array_equal(got, want, equal_nan=True))


def describe(value):
    return f"{type(value).__name__} {np.asarray(value).dtype} {np.shape(value)}: {value!r}"[:300]


def count_general(jitted):
    """Count the calls that take the general dispatch path (not a kept fast-path decision):
    the race only sees the others. Returns the list holding the count."""
    count = [0]
    lock = threading.Lock()
    general = jitted._call

    def counting(*args, **kwargs):
        with lock:
            count[0] += 1
        return general(*args, **kwargs)
    jitted._call = counting
    return count


def races_of(jitted):
    return [race for spec in jitted._plain for race in spec.__dict__.get("races", {}).values()]


def the_race(jitted):
    found = races_of(jitted)
    assert len(found) == 1, f"expected one tier race, found {len(found)}"
    return found[0]


def explain_row(jitted):
    rows = [line for line in str(jitted.explain()).splitlines() if "tiers for (" in line]
    assert len(rows) == 1, str(jitted.explain())
    return rows[0]


def slowed(way, seconds=0.002):
    def slow(jit, args):
        time.sleep(seconds)
        return way(jit, args)
    return slow


def force_winner(race, winner):
    """Make every way but ``winner`` slower by 2 ms, so that the race (to come) picks
    ``winner``: a deterministic choice instead of a timing-dependent one."""
    for name, way in list(race._ways.items()):
        if name != winner:
            race._ways[name] = slowed(way)


class Caller:
    """Calls the jitted function and the plain one with the same arguments; checks the
    result (and that the arguments were not changed); keeps every pair for a later check."""

    def __init__(self, fn, make_args):
        self.fn = fn
        self.jitted = tp.jit(fn)
        self.general = count_general(self.jitted)
        self.make_args = make_args
        self.calls = 0
        self.kept = []

    def __call__(self, n):
        for _ in range(n):
            args = self.make_args(self.calls)
            copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            want = self.fn(*args)
            got = self.jitted(*args)
            self.calls += 1
            assert same(got, want), \
                f"call {self.calls}: got {describe(got)}, plain {describe(want)}"
            for a, c in zip(args, copies):
                if isinstance(a, np.ndarray):
                    assert np.array_equal(a, c, equal_nan=True), "an argument was changed"
            self.kept.append((got, want))

    def check_kept(self):
        """Results of earlier calls unchanged by later calls (no buffer handed out twice)."""
        for i, (got, want) in enumerate(self.kept):
            assert same(got, want), f"result of call {i + 1} changed later: {describe(got)}"


def run_phases(caller, expect_ready=True):
    """Call through every phase of the race; returns it. Asserts each phase happened."""
    caller(2 + 2 * RACE)     # the first two calls take the general path, then the race
    race = the_race(caller.jitted)
    with race._lock:    # (a snapshot: the compile thread may make tier 1 ready meanwhile)
        tier1, chosen, timed, calls = race.tier1, race.chosen, dict(race.timed), \
            dict(race.calls)
    assert tier1 is not None, "native_after=0.0: tier 1's compile starts at once"
    if tier1 != "ready":
        # no tier 1 yet: the first race (plain against tier 0) is over
        assert chosen in ("plain", "tier 0"), chosen
        assert timed["plain"] == timed["tier 0"] == RACE, timed
        assert calls["tier 1"] == 0
    tiers.join_compiles()
    if not expect_ready:
        return race
    assert race.tier1 == "ready", race.tier1
    assert race.compile_seconds is not None and race.compile_seconds > 0
    assert race.chosen is None, "tier 1 ready: the race runs again among the three ways"
    assert "runs racing" in explain_row(caller.jitted)
    caller(3 * RACE)         # the second race: RACE timed calls of each way
    assert race.chosen in WAYS, race.chosen
    assert race.timed["tier 1"] == RACE and race.calls["tier 1"] >= RACE
    settled = dict(race.calls)
    caller(10)               # settled: the chosen way runs, untimed
    assert race.calls[race.chosen] == settled[race.chosen] + 10
    assert sum(race.calls.values()) == caller.calls - caller.general[0]
    assert caller.general[0] <= 2, f"{caller.general[0]} calls took the general path"
    caller.check_kept()
    return race


# -- 1. every phase gives plain's results -----------------------------------------------------

def _sizes(i):
    return 40 + 7 * (i % 3)     # another length each call: one specialization for them all


CASES = {
    "gelu-float64": (gelu, lambda rng: lambda i: (floats(rng, _sizes(i), np.float64),)),
    "gelu-float32-2d": (gelu, lambda rng: lambda i: (floats(rng, (4, _sizes(i)), np.float32),)),
    "sigmoid-float32": (sigmoid, lambda rng: lambda i: (floats(rng, _sizes(i), np.float32),)),
    "poly-int64": (poly, lambda rng: lambda i: (rng.integers(-50, 50, _sizes(i)),)),
    "leaky-float64": (leaky, lambda rng: lambda i: (floats(rng, _sizes(i), np.float64),)),
    "mean_sq-float32": (mean_sq, lambda rng: lambda i: (
        (rng.standard_normal(_sizes(i)) * 3).astype(np.float32),
        (rng.standard_normal(_sizes(i)) * 3).astype(np.float32))),
    "moving_average-int64": (moving_average, lambda rng: lambda i: (
        rng.integers(-1000, 1000, 64), (1, 3, 7, 64, 100, -2)[i % 6])),
    "mean_sq-float64": (mean_sq, lambda rng: lambda i: (
        rng.standard_normal(_sizes(i)) * 3, rng.standard_normal(_sizes(i)) * 3)),
    "moving_average-float64": (moving_average, lambda rng: lambda i: (
        rng.standard_normal(64), (1, 3, 7, 64, 100, -2)[i % 6])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_phase_gives_plain_results(case):
    fn, maker = CASES[case]
    caller = Caller(fn, maker(np.random.default_rng(list(CASES).index(case))))
    float64 = case.endswith("float64")
    race = run_phases(caller, expect_ready=float64)
    row = explain_row(caller.jitted)
    if not float64:     # tier 1 takes float64 arrays only (Numba's float32/int rules differ)
        assert "tier 1 takes float64 arrays" in race.tier1, race.tier1
        caller(3 * RACE)
        assert race.calls["tier 1"] == 0
        caller.check_kept()
        return
    assert f"runs {race.chosen};" in row, row
    assert "compiled by Numba in" in row, row


# -- 2. tier 1 refused, with a reason ---------------------------------------------------------

def test_tier1_refused_keeps_the_reason():
    rng = np.random.default_rng(11)
    caller = Caller(cube, lambda i: (floats(rng, _sizes(i), np.float64),))
    race = run_phases(caller, expect_ready=False)
    assert isinstance(race.tier1, str), race.tier1
    assert race.tier1 not in ("ready", "compiling"), race.tier1
    assert "power" in race.tier1, race.tier1
    assert "tier 1" not in race._ways
    caller(3 * RACE)
    assert race.chosen in ("plain", "tier 0")
    assert race.calls["tier 1"] == 0
    assert sum(race.calls.values()) == caller.calls - caller.general[0]
    caller.check_kept()
    row = explain_row(caller.jitted)
    assert "not made" in row and f"runs {race.chosen};" in row, row


# -- 3. arrays of another layout than tier 1's ---------------------------------------------------

def tier1_settled(fn, rng):
    """A Caller of ``fn`` on 6 x 10 float64 arrays whose race has settled on tier 1 (forced:
    the other ways slowed), and the race."""
    caller = Caller(fn, lambda i: (floats(rng, (6, 10), np.float64),))
    caller(2 + 2 * RACE)
    race = the_race(caller.jitted)
    tiers.join_compiles()
    assert race.tier1 == "ready", race.tier1
    force_winner(race, "tier 1")
    caller(3 * RACE)
    assert race.chosen == "tier 1"
    return caller, race


@pytest.mark.parametrize("fn", [gelu_tail, rows_after_first])
def test_other_layouts_than_tier1s(fn):
    rng = np.random.default_rng(3)
    caller, race = tier1_settled(fn, rng)
    base = floats(rng, (6, 10), np.float64)
    readonly = base.copy()
    readonly.setflags(write=False)
    fortran = np.asfortranarray(base)
    raw = np.zeros(base.nbytes + 1, dtype=np.uint8)
    unaligned = raw[1:].view(np.float64).reshape(6, 10)
    unaligned[...] = base
    assert not unaligned.flags.aligned and unaligned.flags.writeable
    layouts = {"C": base, "F": fortran, "strided": base[:, ::2], "read-only": readonly,
               "unaligned": unaligned, "reversed": base[::-1]}
    before = race.calls["tier 1"] + race.calls["tier 0"]
    for _ in range(2):
        for name, x in layouts.items():
            want = fn(x)
            got = caller.jitted(x)
            assert same(got, want), f"{name}: got {describe(got)}, plain {describe(want)}"
            assert np.shares_memory(got, x) == np.shares_memory(want, x), name
            assert got.flags.writeable == want.flags.writeable, name
            if np.shares_memory(want, x):   # a view: the same elements of x
                assert got.__array_interface__["data"][0] == \
                    want.__array_interface__["data"][0], name
                assert got.strides == want.strides, name
    assert race.calls["tier 1"] + race.calls["tier 0"] == before + 2 * len(layouts)
    # the C layout compiled for still runs tier 1 afterwards
    ran = race.calls["tier 1"]
    caller(5)
    assert race.calls["tier 1"] == ran + 5
    caller.check_kept()


def test_calls_of_another_layout_counted_as_tier0():
    rng = np.random.default_rng(4)
    caller, race = tier1_settled(gelu_tail, rng)
    counted = dict(race.calls)
    x = np.asfortranarray(floats(rng, (6, 10), np.float64))
    assert same(caller.jitted(x), gelu_tail(x))
    assert race.calls["tier 0"] == counted["tier 0"] + 1
    assert race.calls["tier 1"] == counted["tier 1"]


# -- 4. exceptions -------------------------------------------------------------------------------

def check_raising(fn, good, bad, error, pattern=(1, 3), period=5, cap=300):
    """Calls with ``bad`` arguments (at positions ``pattern`` of each ``period``: coprime with
    2 and 3 ways, so that the bad calls meet every way of each race) raise ``error`` as
    plain does; the good calls in between give plain's results. Through every phase."""
    jitted = tp.jit(fn)

    def call(i):
        args = bad(i) if i % period in pattern else good(i)
        try:
            want = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the truth's exception
            assert type(exc) is error, exc
            with pytest.raises(error):
                jitted(*args)
            return
        got = jitted(*args)
        assert same(got, want), f"call {i}: got {describe(got)}, plain {describe(want)}"

    i = 0
    for _ in range(40):         # the first race (and tier 1's compile under way)
        call(i)
        i += 1
    race = the_race(jitted)
    tiers.join_compiles()
    while race.chosen is None and i < cap:      # the second race, if tier 1 was made
        call(i)
        i += 1
    assert race.chosen in WAYS, f"not settled after {i} calls"
    for _ in range(20):         # settled
        call(i)
        i += 1
    return race


def test_reshape_raises_value_error_in_every_phase():
    rng = np.random.default_rng(5)
    race = check_raising(three_rows, lambda i: (rng.standard_normal(99),),
                         lambda i: (rng.standard_normal(100),), ValueError)
    assert race.tier1 == "ready", race.tier1
    assert race.timed["tier 1"] == RACE


def test_singular_solve_raises_linalg_error_in_every_phase():
    rng = np.random.default_rng(6)

    def good(i):
        return rng.standard_normal((3, 3)) + 3 * np.eye(3), rng.standard_normal(3)

    def bad(i):
        a = rng.standard_normal((3, 3))
        a[2] = a[0] * 2.0       # singular
        a[:, 2] = 0.0
        return a, rng.standard_normal(3)
    race = check_raising(solve, good, bad, np.linalg.LinAlgError)
    assert race.tier1 is not None
    if race.tier1 == "ready":
        assert race.timed["tier 1"] == RACE


def test_race_settles_when_every_other_call_raises():
    tp.set_context(native_after=-1)     # no tier 1: plain against tier 0
    jitted = tp.jit(three_rows)
    good, bad = np.arange(99.0), np.arange(100.0)
    for i in range(1000):
        if i % 2:
            with pytest.raises(ValueError):
                jitted(bad)
        else:
            assert same(jitted(good), three_rows(good))
    race = the_race(jitted)
    assert race.chosen in ("plain", "tier 0"), (race.chosen, race.timed)


def test_solve_in_tier1_gives_numpys_bits():
    rng = np.random.default_rng(12)

    def args(i):
        return rng.standard_normal((20, 20)), rng.standard_normal(20)
    caller = Caller(solve, args)
    caller(2 + 2 * RACE)
    race = the_race(caller.jitted)
    tiers.join_compiles()
    # Numba's LAPACK (SciPy's) gives other last bits than NumPy's: tier 1 is refused
    assert race.tier1 not in (None, "ready", "compiling"), race.tier1
    assert "LAPACK" in race.tier1 and "linalg.solve" in race.tier1
    caller(3 * RACE + 10)
    assert race.calls["tier 1"] == 0
    assert "not made: " in str(caller.jitted.explain())


def test_errstate_raise_in_tier1():
    x = np.linspace(-2.0, 2.0, 50)
    big = np.full(50, 1e200)
    jitted = tp.jit(square_plus_one)
    for _ in range(2 + 2 * RACE):
        jitted(x)
    race = the_race(jitted)
    tiers.join_compiles()
    assert race.tier1 == "ready", race.tier1
    force_winner(race, "tier 1")
    for _ in range(3 * RACE):
        jitted(x)
    assert race.chosen == "tier 1"
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError):
            square_plus_one(big)
        with pytest.raises(FloatingPointError):
            jitted(big)


# -- 5. threads ---------------------------------------------------------------------------------

def test_threads_race_and_compile():
    """4 threads call one jitted function on their own arrays, 300 calls each: 150 while the
    first race runs and tier 1 compiles, then (tier 1 ready) 150 through the second race and
    after it."""
    jitted = tp.jit(moving_average)
    general = count_general(jitted)
    barrier = threading.Barrier(5)
    failures = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for half in range(2):
                for i in range(150):
                    v = rng.standard_normal(200 + seed)
                    w = (1, 5, 9)[i % 3]
                    want = moving_average(v, w)
                    got = jitted(v, w)
                    if not same(got, want):
                        failures.append((seed, half, i, describe(got), describe(want)))
                barrier.wait(timeout=60)
                if half == 0:
                    barrier.wait(timeout=60)   # the main thread joins the compile
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append((seed, repr(exc)))

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    barrier.wait(timeout=60)
    tiers.join_compiles()
    barrier.wait(timeout=60)
    barrier.wait(timeout=60)
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    assert not failures, failures[:5]
    race = the_race(jitted)
    assert race.tier1 == "ready", race.tier1
    # the ways race again after 64, 128, 256... calls: the 600 calls after the compile may
    # end inside a race (its length depends on how the threads' calls interleave)
    extra, v = 0, np.random.default_rng(9).standard_normal(200)
    while race.chosen is None and extra < 200:
        assert same(jitted(v, 5), moving_average(v, 5))
        extra += 1
    assert race.chosen in WAYS
    assert race.calls["tier 1"] >= RACE
    assert sum(race.calls.values()) == 1200 + extra - general[0]


# -- 6. tiers off -----------------------------------------------------------------------------

def test_tiers_off_keeps_tier0_without_a_race():
    tp.set_context(tiers=False)
    rng = np.random.default_rng(8)
    caller = Caller(gelu, lambda i: (floats(rng, _sizes(i), np.float64),))
    caller(40)
    tiers.join_compiles()
    caller(10)
    spec = caller.jitted._plain[0]
    assert spec.fallback_reason is None and spec.backend.name == "numpy-graph"
    assert "races" not in spec.__dict__
    assert "tiers for (" not in str(caller.jitted.explain())
    caller.check_kept()


# -- 7. explain --------------------------------------------------------------------------------

def test_explain_tells_each_phase():
    rng = np.random.default_rng(9)
    caller = Caller(poly, lambda i: (floats(rng, _sizes(i), np.float64),))
    caller(3)
    race = the_race(caller.jitted)
    row = explain_row(caller.jitted)
    assert row.startswith("  ") and "tiers for (ndarray): runs racing;" in row, row
    caller(2 * RACE)
    tiers.join_compiles()
    caller(3 * RACE + 4)
    assert race.tier1 == "ready", race.tier1
    assert race.chosen in WAYS
    text = str(caller.jitted.explain())
    row = explain_row(caller.jitted)
    assert f"tiers for (ndarray): runs {race.chosen};" in row, text
    assert "compiled by Numba in" in row, row
    for way in WAYS:
        assert f"{way} {race.calls[way]} call(s)" in row, row
    assert [r.status for r in caller.jitted.explain().rows if r.region == "tiers"] == [
        race.chosen], text


def test_explain_before_tier1_says_when():
    tp.set_context(native_after=-1)     # never: tier 1 not made
    caller = Caller(square_plus_one, lambda i: (np.linspace(-2, 2, 30),))
    caller(2 + 2 * RACE + 5)
    race = the_race(caller.jitted)
    assert race.tier1 is None and race.chosen in ("plain", "tier 0")
    row = explain_row(caller.jitted)
    assert "tier 1 not compiled yet (after inf s of calls" in row, row
    assert sum(race.calls.values()) == caller.calls - caller.general[0]


# -- a race settled on plain must not take the calls its guards refuse ---------------------------

def _plain_settled(jitted, x):
    jitted(x)
    race = the_race(jitted)
    force_winner(race, "plain")
    for _ in range(1 + 2 * RACE):
        jitted(x)
    assert race.chosen == "plain"
    return race


def test_plain_settled_race_keeps_refusals():
    tp.set_context(native_after=-1)     # no tier 1: plain against tier 0 only
    x = np.linspace(-2.0, 2.0, 50)
    objects = np.array([1.0, 2.0], dtype=object)
    # the truth: tiers off
    tp.set_context(tiers=False)
    off = tp.jit(square_plus_one, fullgraph=True)
    for _ in range(20):
        off(x)
    with pytest.raises(tp.TranspileError):
        off(objects)
    off_warn = tp.jit(square_plus_one)
    for _ in range(20):
        off_warn(x)
    with pytest.warns(tp.FallbackWarning):
        off_warn(objects)
    # tiers on, the race settled on plain
    tp.set_context(tiers=True)
    warned = tp.jit(square_plus_one)
    _plain_settled(warned, x)
    with pytest.warns(tp.FallbackWarning):
        assert list(warned(objects)) == [2.0, 5.0]
    full = tp.jit(square_plus_one, fullgraph=True)
    _plain_settled(full, x)
    with pytest.raises(tp.TranspileError):
        full(objects)


def test_plain_settled_race_other_dtype_results():
    """Whatever the race does with another dtype's calls, their results are plain's."""
    tp.set_context(native_after=-1)
    jitted = tp.jit(gelu)
    x = np.linspace(-2.0, 2.0, 50)
    _plain_settled(jitted, x)
    for dtype in (np.float32, np.int64, np.float16):
        y = (x * 3).astype(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            for _ in range(3):
                got = jitted(y)
                assert same(got, gelu(y)), dtype
    for _ in range(3):
        assert same(jitted(x.reshape(5, 10)), gelu(x.reshape(5, 10)))


def affine(x, w, b):
    return x @ w + b


def affine_vector(x, v, b):
    return x @ v + b


def forced_tier1(fn, make_args, calls):
    """A Caller of ``fn`` on ``make_args(i)`` whose tier 1 is made, then ``calls`` more
    calls with the other ways slowed (tier 1 chosen); the race."""
    caller = Caller(fn, make_args)
    caller(2 + 2 * RACE)
    race = the_race(caller.jitted)
    tiers.join_compiles()
    assert race.tier1 == "ready", race.tier1
    force_winner(race, "tier 1")
    caller(calls)
    assert race.calls["tier 1"] > 0
    return caller, race


@pytest.mark.parametrize("shape", [(1000, 3, 1000), (8, 4, 3), (1, 300, 5), (5, 300, 1),
                                   (6, 1, 7)])
def test_matrix_products_run_numpys_own_loop_in_tier_1(shape):
    """A 2-D @ 2-D product compiles to NumPy's own matmul loop (its BLAS calls: Numba's @ is
    SciPy's BLAS, and a 1000 x 3 @ 3 x 1000 product differed in the last bits): tier 1 runs it,
    bit-equal to plain at every call, gemm, gemv and dot shapes alike."""
    m, n, p = shape
    rng = np.random.default_rng(13)
    caller, _ = forced_tier1(affine, lambda i: (
        rng.standard_normal((m, n)), rng.standard_normal((n, p)), rng.standard_normal(p)),
        2 * RACE + 2)
    caller.check_kept()


def test_matrix_vector_products_run_numpys_own_loop_in_tier_1():
    """``x @ v`` with a 1-D ``v`` is NumPy's loop too: tier 1 runs it, bit-equal to plain."""
    rng = np.random.default_rng(14)
    forced_tier1(affine_vector, lambda i: (rng.standard_normal((8, 4)), rng.standard_normal(4),
                                           rng.standard_normal(8)), 2 * RACE + 2)


# -- review findings: Numba computes these otherwise than NumPy; tier 1 is not made ----------

def cmul(x):
    return x * x * x + x * x + x


def center_by_shape(x, y):
    return x - y * x.shape[0]


def scale_image(img, scale):
    return np.sqrt(img), img / scale


def buckets(x, w):
    return np.floor_divide(x, w), np.remainder(x, w)


def int_divmod(x, y):
    return np.divmod(x, y)


REFUSED = {
    "complex multiply (NumPy's loop uses FMA)": (cmul, lambda rng: (
        rng.standard_normal(300) + 1j * rng.standard_normal(300),)),
    "float32 times an int from x.shape": (center_by_shape, lambda rng: (
        rng.standard_normal(1000).astype(np.float32),
        rng.standard_normal(1000).astype(np.float32))),
    "uint8 image: float16/float64 results": (scale_image, lambda rng: (
        rng.integers(0, 255, (8, 8)).astype(np.uint8), 255)),
    "np.floor_divide / np.remainder of inf": (buckets, lambda rng: (
        np.array([np.inf, -0.0, 0.0, 5.5]), np.full(4, -7.0))),
    "np.divmod of INT_MIN by -1 (Numba: SIGFPE)": (int_divmod, lambda rng: (
        np.array([-128, 7], np.int8), np.array([-1, 2], np.int8))),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_tier1_not_made_where_numba_differs(case):
    fn, make = REFUSED[case]
    args = make(np.random.default_rng(21))
    caller = Caller(fn, lambda i: args)
    caller(2 + 2 * RACE)
    race = the_race(caller.jitted)
    tiers.join_compiles()
    assert race.tier1 not in (None, "ready", "compiling"), race.tier1
    caller(3 * RACE)
    assert race.calls["tier 1"] == 0
    caller.check_kept()


def test_tiers_false_after_the_race_keeps_the_graph():
    rng = np.random.default_rng(22)
    caller = Caller(gelu, lambda i: (floats(rng, 50, np.float64),))
    race = run_phases(caller)
    tp.set_context(tiers=False)
    before = dict(race.calls)
    caller(20)
    assert race.calls == before, "a race stands aside once tiers are off"


def clipped(x, lo):
    return np.clip(x, lo, 1.0) * 2.0 + 1.0


def test_clip_runs_in_tier_1_nan_bounds_included():
    """graphjit's clip helpers handle the NaN bounds where Numba's np.clip differs: tier 1
    takes them, bit-equal to plain for NaN, +-0.0, +-inf elements and a NaN bound."""
    rng = np.random.default_rng(21)

    def make(i):
        x = rng.standard_normal((6, 10)) * 3
        x[0, :4] = [np.nan, -0.0, np.inf, -np.inf]
        return x, (float("nan") if i % 7 == 3 else -0.5)
    forced_tier1(clipped, make, 3 * RACE)
