"""The parallel section of ``make bench``: loops run across cores (issue #19).

Each kernel of benchmarks/parallel_kernels.py runs as ``tp.jit(fn)`` (serial),
``tp.jit(fn, parallel=True)`` and the hand-written ``numba.njit(parallel=True)`` of its
``prange`` twin, called round-robin and reported as medians (ms) with the speedup over serial
graphjit. Every result is compared with the plain call's (the serial one where plain Python
would take minutes: same code, same values). First calls are timed too: their difference is
the compile-time cost of ``parallel=True``.

The break-even sweep times the one-multiply-add loop ``scale`` at trip counts around
``backends.parallel_cpu.MIN_TRIP`` with the threshold forced both ways (a private copy of the
function per setting), so the chosen threshold can be checked against the crossing.
"""
import numba
import numpy as np

import parallel_kernels as K
import backends.parallel_cpu as parallel_cpu
import transpiler as tp
from common import (first_call, interleaved_medians, print_table, print_warnings,
                    recorded_warnings, rounds, same)

ROUNDS = rounds(15)
# The kernels with a goal (>= 1.8x on 2 cores): the independent, compute-bound loops.
GOAL_KERNELS = ("trig_map", "math_map", "mandelbrot", "pairwise", "axpy_exp")
GOAL = 1.8


def _inputs():
    """kernel -> (make the arguments (the same values each time), plain is fast enough)."""
    rng = np.random.default_rng(0)
    a, b = rng.random(2_000_000) * 10, rng.random(2_000_000)
    xs, ys = np.linspace(-2.0, 0.6, 400), np.linspace(-1.2, 1.2, 300)
    ints, X, img = rng.integers(0, 1000, 8_000_000), rng.random((1200, 16)), rng.random(
        (2000, 2000))
    return {
        "trig_map": (lambda: (a, np.empty_like(a)), True),
        "math_map": (lambda: (a, np.empty_like(a)), True),
        "mandelbrot": (lambda: (xs, ys, 200, np.zeros((300, 400), dtype=np.int64)), False),
        "multiples": (lambda: (ints,), True),
        "pairwise": (lambda: (X,), False),
        "axpy_exp": (lambda: (a, b, np.empty_like(a)), True),
        "blur": (lambda: (img, np.zeros_like(img)), False),
    }


def bench_parallel():
    rows, caught, explains = [], [], {}
    for name, (make, plain_ok) in _inputs().items():
        fn, hand = getattr(K, name), getattr(K, name + "_prange")
        args = make()
        with recorded_warnings(caught):
            serial, par = tp.jit(fn), tp.jit(fn, parallel=True)
            prange = numba.njit(parallel=True)(hand)
            first = {}
            outs = {}
            for way, call in (("serial", serial), ("parallel", par), ("njit_prange", prange)):
                first[way], outs[way] = first_call(lambda c=call: c(*make()))
            expected = fn(*make()) if plain_ok else outs["serial"]
            ways = {way: (None, lambda c=call: c(*args)) for way, call in (
                ("serial", serial), ("parallel", par), ("njit_prange", prange))}
            med = interleaved_medians(ways, ROUNDS, warm=1)
        explains[name] = [f"{r.status}: {r.reason}" for r in par.explain().rows
                          if r.region == "loop"]
        rows.append({
            "kernel": name, "serial_ms": med["serial"], "parallel_ms": med["parallel"],
            "njit_prange_ms": med["njit_prange"],
            "speedup": med["serial"] / med["parallel"],
            "njit_speedup": med["serial"] / med["njit_prange"],
            "serial_first_ms": first["serial"], "parallel_first_ms": first["parallel"],
            "njit_prange_first_ms": first["njit_prange"],
            "compile_cost_ms": first["parallel"] - first["serial"],
            "parallel_equal": same(outs["parallel"], expected),
            "checked_against": "plain" if plain_ok else "serial graphjit",
            "goal": name in GOAL_KERNELS, "loops": explains[name]})
    return {"rows": rows, "warnings": caught, "break_even": _break_even()}


def _break_even():
    """Median us of ``scale`` and ``trig_map`` per trip count, serial and forced parallel."""
    sizes = [1024, 4096, 16384, 65536, 262144, 1048576]
    saved = parallel_cpu.MIN_TRIP, parallel_cpu.MIN_TRIP_CALLS
    try:
        parallel_cpu.MIN_TRIP = parallel_cpu.MIN_TRIP_CALLS = 1
        ways = {name: (tp.jit(getattr(K, name), parallel=True), tp.jit(getattr(K, name)))
                for name in ("scale", "trig_map")}
        out = []
        for n in sizes:
            a, o = np.random.default_rng(1).random(n), np.empty(n)
            row = {"n": n}
            for name, (forced, serial) in ways.items():
                forced(a, o), serial(a, o)
                med = interleaved_medians({"serial": (None, lambda: serial(a, o)),
                                           "parallel": (None, lambda: forced(a, o))},
                                          rounds(41), warm=2)
                row[f"{name}_serial_us"] = med["serial"] * 1e3
                row[f"{name}_parallel_us"] = med["parallel"] * 1e3
            out.append(row)
    finally:
        parallel_cpu.MIN_TRIP, parallel_cpu.MIN_TRIP_CALLS = saved
    return out


def show_parallel(data):
    rows = data["rows"]
    print_table(
        "Parallel loops (issue #19): tp.jit serial vs tp.jit(parallel=True) vs hand-written "
        f"numba.njit(parallel=True) with prange, {numba.config.NUMBA_NUM_THREADS} threads",
        "median ms of later calls; speedup = serial graphjit / the way; first = first call "
        "(transpile + compile), ms", ["kernel", "serial", "parallel", "njit prange",
                                      "speedup", "njit speedup", "first serial",
                                      "first parallel", "first njit", "equal"],
        [[r["kernel"], r["serial_ms"], r["parallel_ms"], r["njit_prange_ms"],
          f"{r['speedup']:.2f}x", f"{r['njit_speedup']:.2f}x", r["serial_first_ms"],
          r["parallel_first_ms"], r["njit_prange_first_ms"],
          ("yes" if r["parallel_equal"] else "DIFFERS") + f" ({r['checked_against']})"]
         for r in rows], "lrrrrrrrrl")
    for r in rows:
        print(f"  {r['kernel']}: " + "; ".join(r["loops"]))
    print_table("Break-even of a parallel loop, threshold forced off (scale: a multiply-add per "
                "element; trig_map: sqrt, sin, cos per element)",
                f"median us; graphjit's thresholds: {parallel_cpu.MIN_TRIP} iterations, "
                f"{parallel_cpu.MIN_TRIP_CALLS} with a call in the body, "
                f"{parallel_cpu.MIN_TRIP_NESTED} with a loop in it",
                ["n", "scale serial", "scale parallel", "trig_map serial", "trig_map parallel"],
                [[b["n"], b["scale_serial_us"], b["scale_parallel_us"], b["trig_map_serial_us"],
                  b["trig_map_parallel_us"]] for b in data["break_even"]], "rrrrr")
    print_warnings(data["warnings"], "parallel")
