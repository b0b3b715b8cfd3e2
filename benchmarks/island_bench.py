"""Section 9 of ``make bench``: functions that do not compile whole (issue #48). The loops
compile as regions, a statement that needs Python runs as an island inside them
(transpiler/islands.py); plain Python and graphjit are called round-robin and reported as
medians; every result is compared with the plain call's. Goal: >= 20x plain for the dict
argument and the k-means."""
import numpy as np

import island_kernels as K
import transpiler as tp
from common import (first_call, interleaved_medians, print_table, print_warnings, ratio,
                    recorded_warnings, rounds)

ROUNDS = rounds(9)


def _cases():
    rng = np.random.default_rng(0)
    X = rng.random((4000, 8))
    C0 = X[:8].copy()
    labels = rng.integers(0, 8, X.shape[0])
    values = rng.random(200_000)
    grid = rng.random((200, 200))
    return [
        ("dict argument (row norms)", K.row_norms_with_settings,
         lambda: (X, {"tag": "bench", "verbose": False}), 20.0),
        ("k-means, mean(axis=0) island", K.kmeans, lambda: (X, C0.copy(), 3), 20.0),
        ("group z-scores, mean/std value islands", K.standardize_groups,
         lambda: (X, labels, 8), None),
        ("scan logging to a list", K.logged_scan, lambda: (values, []), None),
        ("exp of an argument's interior", K.stencil_exp, lambda: (grid.copy(), 5), None),
    ]


def same(a, b):
    """Equal types, dtypes and bits, item by item for tuples."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    return a == b


def bench_islands():
    rows, sink = [], []
    for name, fn, make, goal in _cases():
        with recorded_warnings(sink):
            jitted = tp.jit(fn)
            first_ms, got = first_call(lambda: jitted(*make()))
            expected = fn(*make())
            medians = interleaved_medians({
                "plain": (None, lambda: fn(*make())),
                "graphjit": (None, lambda: jitted(*make()))}, rounds=ROUNDS)
        explain = jitted.explain().rows
        rows.append({
            "name": name, "plain_ms": medians["plain"], "graphjit_ms": medians["graphjit"],
            "first_ms": first_ms, "speedup": medians["plain"] / medians["graphjit"],
            "goal": goal, "equal": bool(same(expected, got)),
            "loops": sum(r.status == "compiled" and r.region.strip().startswith("loop")
                         for r in explain),
            "islands": sum(r.region.strip().startswith("island") for r in explain)})
    return {"rows": rows, "warnings": sink}


def show_islands(data):
    print_table(
        "9. Functions that do not compile whole: compiled loops, Python islands inside them",
        f"   ms per call, median of {ROUNDS} interleaved rounds; loops = compiled regions, "
        "islands = statements run as Python inside them; goal >= 20x where given",
        ["function", "plain ms", "graphjit ms", "first ms", "plain / graphjit", "goal",
         "loops", "islands", "equal"],
        [[r["name"], r["plain_ms"], r["graphjit_ms"], r["first_ms"],
          f"{ratio(r['plain_ms'], r['graphjit_ms'])}x",
          "" if r["goal"] is None else (f">= {r['goal']:.0f}x " + (
              "PASS" if r["speedup"] >= r["goal"] else "MISS")),
          r["loops"], r["islands"], "yes" if r["equal"] else "NO"]
         for r in data["rows"]], "lrrrrlrrl")
    print_warnings([w for w in data["warnings"] if "FallbackWarning" not in w])
