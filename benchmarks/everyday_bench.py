"""Section 12 of ``make bench``: twenty everyday NumPy functions (benchmarks/everyday.py) at three
sizes, plain NumPy beside ``tp.jit`` (tiers: transpiler/tiers.py) and ``jax.jit`` of the same
code with ``jax.numpy`` (where installed; ``numexpr`` where installed is not used: none of
these is a single expression it takes whole).

Per function and size: the first call of each way (graphjit's: transpile, the NumPy graph);
then graphjit is called until its tiers have settled: the ways raced, tier 1 (Numba, in a
background thread once the calls took as long as a compile: the ski-rental rule, with this
process's estimate) made or refused, raced again; the warm-up's seconds, calls and slowest
call are reported (the slowest call shows what a background compile costs the caller). Then
plain, graphjit and JAX are timed round-robin, medians. graphjit's results are compared with
plain's at every call of the warm-up and after: values bit for bit, dtype, type.
"""
import time

import numpy as np

import everyday
import transpiler as tp
from common import NAN, first_call, interleaved_medians, jax_or_none, print_table, rounds
from transpiler import tiers

ROUNDS = {"small": rounds(201), "medium": rounds(61), "large": rounds(15)}
WARM_LIMIT_S = 20.0     # a function whose tiers have not settled by then is measured as it is


def _same(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and np.asarray(a).dtype == np.asarray(b).dtype and \
        np.array_equal(a, b, equal_nan=True)


def _races(jitted):
    return [race for spec in jitted._plain for race in spec.__dict__.get("races", {}).values()]


def _warm(jitted, fn, args, expected):
    """Call ``jitted`` until its tiers settle; ``(seconds, calls, slowest call s, equal)``."""
    start = time.perf_counter()
    calls, slowest, equal = 0, 0.0, True
    while True:
        t = time.perf_counter()
        got = jitted(*args)
        slowest = max(slowest, time.perf_counter() - t)
        calls += 1
        if calls % 64 == 0:
            equal = equal and _same(got, expected)
        races = _races(jitted)
        settled = races and all(r.chosen is not None and r.tier1 not in (None, "compiling")
                                for r in races)
        if settled or not races or time.perf_counter() - start > WARM_LIMIT_S:
            break
    return time.perf_counter() - start, calls, slowest, equal and _same(got, expected)


def bench_one(name, fn, make, size, found):
    n, d = everyday.SIZES[size]
    args = make(n, d)
    expected = fn(*args)
    jitted = tp.jit(fn)
    first_ms, got = first_call(lambda: jitted(*args))
    equal = _same(got, expected)
    warm_s, warm_calls, slowest, warm_equal = _warm(jitted, fn, args, expected)
    ways = {"plain": (None, lambda: fn(*args)), "graphjit": (None, lambda: jitted(*args))}
    jax_note = "not installed"
    if found is not None:
        jax, jnp = found
        import array_kernels
        by_jax = jax.jit(array_kernels.with_numpy_module(fn, jnp))

        def run_jax():
            out = by_jax(*args)
            return tuple(np.asarray(o) for o in out) if isinstance(out, tuple) else \
                np.asarray(out)
        try:
            run_jax()
            ways["jax"] = (None, run_jax)
            jax_note = "ran"
        except Exception as exc:  # noqa: BLE001 - a way that cannot run it: n/a
            jax_note = f"n/a ({type(exc).__name__})"
    medians = interleaved_medians(ways, ROUNDS[size], warm=2)
    after = jitted(*args)
    races = _races(jitted)
    race = races[0] if races else None
    return {"function": name, "size": size, "plain_ms": medians["plain"],
            "graphjit_ms": medians["graphjit"], "jax_ms": medians.get("jax", NAN),
            "speedup": medians["plain"] / medians["graphjit"],
            "jax_speedup": medians["plain"] / medians["jax"] if "jax" in medians else NAN,
            "first_ms": first_ms, "warm_s": warm_s, "warm_calls": warm_calls,
            "slowest_ms": slowest * 1e3,
            "equal": equal and warm_equal and _same(after, expected),
            "runs": race.chosen if race else "no race",
            "tier1": (race.tier1 if race else "-") or "not tried",
            "compile_s": race.compile_seconds if race else None, "jax": jax_note}


def bench_everyday():
    found = jax_or_none()
    rows = []
    for size in everyday.SIZES:
        for name, fn, make in everyday.EVERYDAY:
            rows.append(bench_one(name, fn, make, size, found))
    summary = {}
    for size in everyday.SIZES:
        ratios = [r["speedup"] for r in rows if r["size"] == size]
        jax = [r["jax_speedup"] for r in rows if r["size"] == size and r["jax_speedup"] == r[
            "jax_speedup"]]
        summary[size] = {"geomean": float(np.exp(np.mean(np.log(ratios)))),
                         "worst": min(ratios), "at_least_095": sum(x >= 0.95 for x in ratios),
                         "count": len(ratios),
                         "jax_geomean": float(np.exp(np.mean(np.log(jax)))) if jax else NAN}
    return {"rows": rows, "summary": summary, "estimate_s": tiers._estimate[0]}


def _tier1(text):
    return text if len(text) < 48 else text[:45] + "..."


def show_everyday(data):
    rows = data["rows"]
    print_table(
        "12. Twenty everyday NumPy functions (benchmarks/everyday.py) at 16x8, 512x64, 8192x64: "
        "plain NumPy, tp.jit (tiers), jax.jit",
        "   ms per call, medians of interleaved rounds after graphjit's tiers settled; x = plain "
        "ms / way ms; first = graphjit's first call; warm = seconds and calls until the tiers "
        "settled,\n   slowest = the slowest call meanwhile (a background compile holds the "
        "GIL); runs = the way graphjit runs now; equal = graphjit's results bit-equal to "
        "plain at every checked call",
        ["function", "size", "plain ms", "gj ms", "jax ms", "gj x", "jax x", "first ms",
         "warm s", "calls", "slowest ms", "runs", "equal", "tier 1"],
        [[r["function"], r["size"], r["plain_ms"], r["graphjit_ms"], r["jax_ms"],
          f"{r['speedup']:.2f}x", "n/a" if r["jax_speedup"] != r["jax_speedup"] else
          f"{r['jax_speedup']:.2f}x", r["first_ms"], f"{r['warm_s']:.1f}", r["warm_calls"],
          r["slowest_ms"], r["runs"], r["equal"], _tier1(r["tier1"])] for r in rows],
        "llrrrrrrrrrlll")
    for size, s in data["summary"].items():
        print(f"   {size}: plain / graphjit geometric mean {s['geomean']:.2f}x, worst "
              f"{s['worst']:.2f}x, {s['at_least_095']} of {s['count']} at least 0.95x; "
              f"jax.jit {s['jax_geomean']:.2f}x")
    for r in rows:
        if not r["equal"]:
            print(f"   !! MISMATCH: graphjit's {r['function']} ({r['size']}) differs from plain")
