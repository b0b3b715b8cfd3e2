"""Section 8 of ``make bench``: whole-array NumPy kernels (benchmarks/array_kernels.py).

Each kernel runs as plain NumPy, ``tp.jit(fn)``, ``numba.njit(fn)`` (n/a where Numba does not
compile it) and ``jax.jit`` of the same code with ``jax.numpy`` as its ``np`` (where JAX is
installed), called round-robin and reported as medians. Every result is compared with plain
NumPy's, value and dtype (and type: a NumPy scalar stays one); a graphjit result that differs
breaks graphjit's contract (compiled equals plain) and is printed loudly under the table. The
issue's goal is graphjit >= 1.0x plain on every kernel (plain ms / graphjit ms).
"""
import numba
import numpy as np

import array_kernels
import transpiler as tp
from common import (NAN, WARM, first_call, interleaved_medians, jax_or_none, print_table,
                    print_warnings, recorded_warnings, rounds)

ARRAY_ROUNDS = rounds(41)
WAYS = ("plain", "graphjit", "njit", "jax")


def describe(args):
    return ", ".join(f"{a.dtype}{list(a.shape)}" if isinstance(a, np.ndarray) else repr(a)
                     for a in args)


def compare(expected, got, way):
    """'equal', or what differs: the type, the dtype, the shape, or the largest relative
    difference. JAX's results are NumPy arrays (0-d for a scalar): their type is not compared."""
    if way != "jax" and type(got) is not type(expected):
        return f"type {type(got).__name__} != {type(expected).__name__}"
    e, g = np.asarray(expected), np.asarray(got)
    if g.dtype != e.dtype:
        return f"dtype {g.dtype} != {e.dtype}"
    if g.shape != e.shape:
        return f"shape {g.shape} != {e.shape}"
    if np.array_equal(g, e, equal_nan=True):
        return "equal"
    with np.errstate(all="ignore"):
        e = e.astype(np.float64)
        rel = np.max(np.abs(g.astype(np.float64) - e) / np.maximum(np.abs(e), 1e-300))
    return f"rel diff {rel:.1e}"


def _status(jitted, caught):
    rows = jitted.explain().rows
    if any(t.startswith("FallbackWarning") for t in caught) or any(
            r.status == "python" for r in rows):
        return "FALLBACK"
    return "compiled"


def bench_one(name, fn, make, found):
    args = make("bench")
    expected = fn(*args)
    caught, firsts, outs, ways, notes = [], {}, {}, {}, {}
    with recorded_warnings(caught):
        jitted = tp.jit(fn)
        candidates = {"plain": lambda: fn(*args), "graphjit": lambda: jitted(*args)}
        try:
            njitted = numba.njit(fn)
            candidates["njit"] = lambda: njitted(*args)
        except Exception as exc:  # noqa: BLE001 - Numba's refusal is the data here
            notes["njit"] = f"n/a ({type(exc).__name__})"
        if found is not None:
            jax, jnp = found
            by_jax = jax.jit(array_kernels.with_numpy_module(fn, jnp))
            candidates["jax"] = lambda: np.asarray(by_jax(*args))  # waits, brings it back
        for way, call in candidates.items():
            try:
                firsts[way], outs[way] = first_call(call)
            except Exception as exc:  # noqa: BLE001 - a baseline that cannot run it: n/a
                notes[way] = f"n/a ({type(exc).__name__})"
                continue
            ways[way] = (None, call)
        medians = interleaved_medians(ways, ARRAY_ROUNDS, warm=WARM)
        status = _status(jitted, caught)
    row = {"kernel": name, "args": describe(args), "graphjit": status, "warnings": caught}
    for way in WAYS:
        row[f"{way}_ms"] = medians.get(way, NAN)
        row[f"{way}_first_ms"] = firsts.get(way, NAN)
        row[f"{way}_result"] = (compare(expected, outs[way], way) if way in outs
                                else notes.get(way, "not installed" if way == "jax"
                                               else "n/a"))
        row[f"plain_over_{way}"] = medians["plain"] / medians.get(way, NAN)
    row["goal_met"] = row["plain_over_graphjit"] >= 1.0
    return row


def bench_arrays():
    found = jax_or_none()
    rows = [bench_one(name, fn, make, found) for name, fn, make in array_kernels.ARRAY_KERNELS]
    return {"rows": rows, "rounds": ARRAY_ROUNDS,
            "jax": found[0].__version__ if found else "not installed"}


def _speed(value):
    return "n/a" if value != value else f"{value:.2f}x"


def show_arrays(data):
    rows = data["rows"]
    print_table(
        "8. Whole-array NumPy kernels (benchmarks/array_kernels.py): plain NumPy, tp.jit(fn), "
        "numba.njit(fn), jax.jit (the same code with jax.numpy)",
        f"   ms per call, median of {data['rounds']} interleaved rounds (each timed call after "
        f"{WARM} untimed ones of the same way); x = plain ms / way ms "
        "(above 1: faster than NumPy; the goal is graphjit >= 1.00x on every kernel);\n"
        "   result = compared with plain NumPy (value, dtype, type): 'equal' is bit-equal; "
        "first = first call (transpile + compile) in this process; "
        f"jax: {data['jax']}",
        ["kernel", "plain ms", "gj ms", "njit ms", "jax ms", "gj x", "njit x", "jax x",
         "gj first", "njit first", "jax first", "graphjit result", "njit result", "jax result",
         "graphjit"],
        [[r["kernel"], r["plain_ms"], r["graphjit_ms"], r["njit_ms"], r["jax_ms"],
          _speed(r["plain_over_graphjit"]), _speed(r["plain_over_njit"]),
          _speed(r["plain_over_jax"]), r["graphjit_first_ms"], r["njit_first_ms"],
          r["jax_first_ms"], r["graphjit_result"], r["njit_result"], r["jax_result"],
          r["graphjit"]] for r in rows], "lrrrrrrrrrrllll")
    met = sum(r["goal_met"] for r in rows)
    print(f"   graphjit >= 1.00x plain on {met} of {len(rows)} kernels; fell back on "
          f"{sum(r['graphjit'] == 'FALLBACK' for r in rows)}; Numba rejects "
          f"{sum(r['njit_result'].startswith('n/a') for r in rows)}")
    print("   inputs: " + "; ".join(f"{r['kernel']}({r['args']})" for r in rows))
    for r in rows:
        if r["graphjit_result"] != "equal":
            print(f"   !! MISMATCH: graphjit's {r['kernel']} differs from plain NumPy: "
                  f"{r['graphjit_result']} (compiled must equal plain)")
    for way in ("njit", "jax"):
        differ = [f"{r['kernel']} ({r[f'{way}_result']})" for r in rows
                  if r[f"{way}_result"] not in ("equal", "not installed")
                  and not r[f"{way}_result"].startswith("n/a")]
        if differ:
            print(f"   !! {way} differs from plain NumPy on: " + "; ".join(differ))
    shown = set()
    for r in rows:
        fresh = [w for w in r["warnings"] if w not in shown]
        shown.update(fresh)
        print_warnings(fresh, f" in {r['kernel']}")
