"""``make bench``: graphjit measured side by side with plain Python, NumPy, Numba and JAX (where
installed: the ``bench`` extra) in one run.

Every time is in milliseconds. Within a section the ways are called round-robin (one call of
each per round, in a shuffled order) and reported as medians, so that noise on a busy machine
hits every way alike. First calls include transpiling and compiling.

1. Seed network (benchmarks/seed.py) at batch 1 and 64: NumPy by hand, PYNATIVE_MODE,
   GRAPH_MODE, a hand-written ``numba.njit`` function and ``jax.jit`` of the NumPy code run with
   ``jax.numpy``; first call, median, ratio to NumPy.
2. Loop kernels (benchmarks/kernels.py), each run as plain Python, ``tp.jit(fn)`` and
   ``numba.njit(fn)``; results compared, fallbacks reported.
3. Transpile time per kernel: first call of ``tp.jit(fn, backend="eager")`` minus a plain call.
4. The seed network's first result in a fresh process (benchmarks/fresh_process.py): GRAPH_MODE
   with an empty compile cache (cold) and again with the same cache folder (warm), beside
   ``numba.njit(cache=True)``, NumPy and ``jax.jit`` (cold and warm too); script start (the
   parent's clock when it starts the interpreter) to first result, and the call alone.
5. ``import transpiler`` in a fresh process, and whether it imports Numba.
6. A function that cannot compile whole: its loop compiled as a region.
7. float32 kernels whose variables are a Python float or an np.float32 by path.
8. Whole-array NumPy kernels (benchmarks/array_kernels.py, benchmarks/array_bench.py): plain,
   ``tp.jit``, ``numba.njit``, ``jax.jit``; results compared with plain NumPy's bits and dtype.
9. Dispatch cost per call (benchmarks/dispatch.py ``measure()``).
10. Parallel loops (benchmarks/parallel_bench.py): serial, ``parallel=True`` and hand-written
    ``numba.njit(parallel=True)`` with ``prange``; compile cost; the break-even trip count.
11. A training step of the seed network (benchmarks/train_bench.py): NumPy by hand,
    ``nn.TrainOneStepCell`` in PYNATIVE_MODE and GRAPH_MODE, ``jax.jit`` where installed.
12. Twenty everyday NumPy functions at three sizes (benchmarks/everyday_bench.py): plain,
    ``tp.jit`` after its tiers settled (transpiler/tiers.py), ``jax.jit``.
13. 200 closures with distinct captured floats (benchmarks/memory.py ``bench_closures``):
    Numba compiles and memory kept, graphjit beside ``numba.njit``.

Last, the summary (benchmarks/summary.py): issue #18's goals, each with this run's figure, the
goal, PASS/MISS and the other ways beside it; written to build/bench.json as ``goals``.

``GRAPHJIT_BENCH_QUICK=1`` runs a tenth of the rounds (noisy; for development);
``GRAPHJIT_BENCH_ONLY=seed,arrays,...`` runs only the named sections (seed, transpile, kernels,
fresh, import, mixed, float32, arrays, dispatch, parallel, islands, train, everyday,
closures); the summary says "not run" for the others.

BLAS runs single-threaded (``OPENBLAS_NUM_THREADS=1`` unless the shell sets it): NumPy and Numba
(through SciPy) each load their own OpenBLAS, and on a small busy machine their two thread pools
spin against each other and any other busy process stalls a multi-threaded call, so
multi-threaded times there are mostly noise (up to ~50x on 2 cores). JAX's XLA runs
single-threaded for the same reason (``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false`` unless set).

Every warning (a graphjit FallbackWarning above all) and whatever a child process writes to
stderr is printed under its table. The same data is written to build/bench.json.
"""
import gc
import json
import os
import platform
import shutil
import statistics
import tempfile
import time

# Before NumPy and Numba load their BLAS (see above); the child processes inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")  # JAX's, the same

import numba  # noqa: E402 - after the BLAS setting, on purpose
import numpy as np  # noqa: E402

import array_bench  # noqa: E402
import everyday_bench  # noqa: E402
import memory  # noqa: E402
import island_bench  # noqa: E402
import train_bench  # noqa: E402
import kernels  # noqa: E402
import parallel_bench  # noqa: E402
import seed  # noqa: E402
import summary  # noqa: E402
import transpiler as tp  # noqa: E402
from array_kernels import with_numpy_module  # noqa: E402
from common import (NAN, WARM, QUICK, ROOT, first_call, interleaved_medians, jax_or_none,  # noqa: E402
                    jax_version, json_safe, print_table, print_warnings, ratio, recorded_warnings,
                    rounds, run_child, same)

JSON_PATH = os.path.join(ROOT, "build", "bench.json")
MARKDOWN_PATH = os.path.join(ROOT, "build", "bench_summary.md")

SEED_ROUNDS = rounds(300)    # per batch size; each round calls each way once
KERNEL_ROUNDS = rounds(61)   # compiled ways run every round, plain Python every PLAIN_EVERY-th
PLAIN_EVERY = 3
FIRST_CALLS = rounds(5, 1)   # fresh processes per way for a loop kernel's first call
TRANSPILE_AGAIN = rounds(9)  # fresh eager JitFunctions per kernel after the first
FRESH_PAIRS = rounds(5, 1)   # cold + warm child processes, each pair with its own empty folder
IMPORT_RUNS = rounds(7)      # child processes per imported module


# -- 1. seed network ------------------------------------------------------------------------

def bench_seed():
    net = seed.make_network()
    w = seed.weights(net)
    by_njit = seed.njit_by_hand()
    found = jax_or_none()
    by_jax = (found[0].jit(with_numpy_module(seed.numpy_by_hand, found[1])) if found
              else None)
    rows, caught = [], []
    for batch in (1, 64):
        x = np.ones((batch, 1, 28, 28), np.float32)
        ways = {
            "NumPy by hand": (None, lambda: seed.numpy_by_hand(x, *w)),
            "PYNATIVE_MODE": (lambda: tp.set_context(mode=tp.PYNATIVE_MODE), lambda: net(x)),
            "GRAPH_MODE": (lambda: tp.set_context(mode=tp.GRAPH_MODE), lambda: net(x)),
            "numba.njit by hand": (None, lambda: by_njit(x, *w)),
        }
        if by_jax is not None:  # waits for the result and brings it back as NumPy's
            ways["jax.jit"] = (None, lambda: np.asarray(by_jax(x, *w)))
        firsts, outs, fell_back = {}, {}, {}
        with recorded_warnings(caught):
            for name, (prepare, call) in ways.items():
                if prepare is not None:
                    prepare()
                with recorded_warnings(mine := []):
                    firsts[name], outs[name] = first_call(call)
                fell_back[name] = any(t.startswith("FallbackWarning") for t in mine)
                caught.extend(t for t in mine if t not in caught)
            medians = interleaved_medians(ways, SEED_ROUNDS, warm=WARM)
        tp.set_context(mode=tp.PYNATIVE_MODE)
        reference = outs["NumPy by hand"]
        for name in ways:
            rows.append({
                "batch": batch, "way": name, "first_ms": firsts[name],
                "median_ms": medians[name],
                "ratio_to_numpy": medians[name] / medians["NumPy by hand"],
                "max_abs_diff": float(np.max(np.abs(outs[name].astype(np.float64)
                                                    - reference))),
                "dtype": str(outs[name].dtype),
                "graphjit": {"GRAPH_MODE": "compiled"}.get(name, "")
                if not fell_back[name] else "FALLBACK"})
    return {"rows": rows, "warnings": caught}


def show_seed(data):
    rows = data["rows"]
    print_table(
        "1. Seed network: Flatten, Dense(784,512), ReLU, Dense(512,512), ReLU, Dense(512,10), "
        "float32, input ones(batch,1,28,28)",
        "   ms per call: first call (batch 1 runs first and pays the compiles; batch 64 has the "
        f"same types and compiles nothing);\n   median of {SEED_ROUNDS} later calls, ways "
        f"interleaved, each timed call after {WARM} untimed ones of the same way; / NumPy = median / NumPy's median; BLAS threads: "
        f"{os.environ['OPENBLAS_NUM_THREADS']};\n   jax.jit = the NumPy code run with jax.numpy, "
        "its result waited for and brought back as a NumPy array"
        + ("" if jax_or_none() else " (jax: not installed)"),
        ["batch", "way", "first ms", "median ms", "/ NumPy", "max|diff|", "dtype", "graphjit"],
        [[r["batch"], r["way"], r["first_ms"], r["median_ms"], f"{r['ratio_to_numpy']:.2f}",
          f"{r['max_abs_diff']:.1e}", r["dtype"], r["graphjit"]] for r in rows], "rlrrrrll")
    for batch in (1, 64):
        median = {r["way"]: r["median_ms"] for r in rows if r["batch"] == batch}
        by_jax = (f", GRAPH_MODE / jax.jit = {ratio(median['GRAPH_MODE'], median['jax.jit'])}"
                  if "jax.jit" in median else ", jax: not installed")
        print(f"   batch {batch}: GRAPH_MODE / NumPy = "
              f"{ratio(median['GRAPH_MODE'], median['NumPy by hand'])}, "
              "GRAPH_MODE / numba.njit by hand = "
              f"{ratio(median['GRAPH_MODE'], median['numba.njit by hand'])}{by_jax}")
    print_warnings(data["warnings"])


# -- 2. loop kernels ------------------------------------------------------------------------

def bench_kernels():
    rows = []
    for fn, args, _ in kernels.KERNELS:
        caught = []
        with recorded_warnings(caught):
            jitted = tp.jit(fn)
            unchecked = tp.jit(fn, boundscheck=False)
            wrapping = tp.jit(fn, check_int_overflow=False)
            njitted = numba.njit(fn)
            njit_checked = numba.njit(fn, boundscheck=True)
            ways = {"plain": (None, lambda: fn(*args)),
                    "graphjit": (None, lambda: jitted(*args)),
                    "unchecked": (None, lambda: unchecked(*args)),
                    "wrapping": (None, lambda: wrapping(*args)),
                    "njit": (None, lambda: njitted(*args)),
                    "njit_checked": (None, lambda: njit_checked(*args))}
            outs = {}
            for name, (_, call) in list(ways.items()):
                try:
                    outs[name] = call()
                except numba.core.errors.NumbaError as exc:  # the baseline itself fails
                    caught.append(f"numba.njit({fn.__name__}): {type(exc).__name__}")
                    del ways[name]
            medians = interleaved_medians(ways, KERNEL_ROUNDS, every={"plain": PLAIN_EVERY})
            explain = jitted.explain()
        # First calls in fresh processes: in one process, whichever way compiled first would
        # pay Numba's first use of each operation for both.
        # One fresh process is one sample of a noisy figure: the median of FIRST_CALLS
        # processes per way, the ways interleaved.
        children = {way: [] for way in ("graphjit", "njit") if way in ways}
        for _ in range(FIRST_CALLS):
            for way, runs in children.items():
                runs.append(run_child(["kernel", fn.__name__, way], {}, caught))
        firsts = {way: statistics.median(child["first_call_ms"] for child in runs)
                  for way, runs in children.items()}
        fell_back = (any(r.status == "python" for r in explain.rows)
                     or any(child["fell_back"] for child in children["graphjit"])
                     or any(t.startswith("FallbackWarning") for t in caught))
        rows.append({
            "kernel": fn.__name__,
            "args": ", ".join(f"{a.dtype}{list(a.shape)}" if isinstance(a, np.ndarray)
                              else repr(a) for a in args),
            "plain_ms": medians["plain"], "graphjit_ms": medians["graphjit"],
            "njit_ms": medians.get("njit", NAN),
            "graphjit_over_njit": medians["graphjit"] / medians.get("njit", NAN),
            "njit_checked_ms": medians.get("njit_checked", NAN),
            "graphjit_over_njit_checked": medians["graphjit"] / medians.get("njit_checked",
                                                                            NAN),
            "unchecked_ms": medians["unchecked"],
            "unchecked_over_njit": medians["unchecked"] / medians.get("njit", NAN),
            "checked_over_unchecked": medians["graphjit"] / medians["unchecked"],
            "wrapping_ms": medians["wrapping"],
            "int_checked_over_wrapping": medians["graphjit"] / medians["wrapping"],
            "plain_over_graphjit": medians["plain"] / medians["graphjit"],
            "graphjit_first_ms": firsts["graphjit"], "njit_first_ms": firsts.get("njit", NAN),
            "graphjit_equal": same(outs["plain"], outs["graphjit"]),
            "njit_equal": same(outs["plain"], outs["njit"]) if "njit" in outs else None,
            "status": "FALLBACK" if fell_back else "compiled", "warnings": caught})
    return rows


def show_kernels(rows):
    print_table(
        "2. Loop kernels (benchmarks/kernels.py), one plain function each: plain Python, "
        "tp.jit(fn), numba.njit(fn)",
        f"   ms per call: median of {KERNEL_ROUNDS} interleaved rounds (plain Python in 1 of "
        f"{PLAIN_EVERY}); first = first call (transpile + compile) in a fresh process (median of "
        f"{FIRST_CALLS}, interleaved) after the same trivial\n   tp.jit and numba.njit "
        "warm-up; equal = graphjit and njit give the same values and dtype as plain Python;"
        "\n   graphjit checks indexing (IndexError as in Python); unchk = tp.jit(fn, "
        "boundscheck=False), like njit; chk cost = graphjit / unchk;"
        "\n   njit chk = numba.njit(fn, boundscheck=True), the like-for-like baseline of graphjit;"
        "\n   int chk = graphjit / tp.jit(fn, check_int_overflow=False): the cost of Python ints "
        "that never wrap",
        ["kernel", "plain ms", "graphjit ms", "unchk ms", "njit ms", "njit chk ms", "gj/njit",
         "gj/njit chk", "unchk/njit", "chk cost", "int chk", "plain/gj", "gj first",
         "njit first", "equal", "graphjit"],
        [[r["kernel"], r["plain_ms"], r["graphjit_ms"], r["unchecked_ms"], r["njit_ms"],
          r["njit_checked_ms"], f"{r['graphjit_over_njit']:.2f}",
          f"{r['graphjit_over_njit_checked']:.2f}", f"{r['unchecked_over_njit']:.2f}",
          f"{r['checked_over_unchecked']:.2f}", f"{r['int_checked_over_wrapping']:.2f}",
          f"{r['plain_over_graphjit']:.0f}x", r["graphjit_first_ms"], r["njit_first_ms"],
          r["graphjit_equal"] and r["njit_equal"] is not False, r["status"]] for r in rows],
        "lrrrrrrrrrrrrrll")
    ratios = sorted(r["graphjit_over_njit_checked"] for r in rows)
    unchecked = sorted(r["unchecked_over_njit"] for r in rows)
    int_cost = sorted(r["int_checked_over_wrapping"] for r in rows)
    print(f"   median over kernels: graphjit / njit(boundscheck=True) "
          f"{statistics.median(ratios):.2f}, tp.jit(boundscheck=False) / njit "
          f"{statistics.median(unchecked):.2f}, checked ints / wrapping ints "
          f"{statistics.median(int_cost):.2f} ({int_cost[0]:.2f}-{int_cost[-1]:.2f})")
    print("   inputs: " + "; ".join(f"{r['kernel']}({r['args']})" for r in rows))
    for r in rows:
        print_warnings(r["warnings"], f" in {r['kernel']}")


# -- 3. transpile time ----------------------------------------------------------------------

def _warm_up(n):
    return n + 1


def bench_transpile():
    tp.jit(_warm_up, backend="eager")(1)  # loads the eager backend once, outside the table
    rows = []
    for fn, _, small in kernels.KERNELS:
        plain = []
        for _ in range(21):
            ms, expected = first_call(lambda: fn(*small))
            plain.append(ms)
        plain = statistics.median(plain)
        caught, times = [], []
        with recorded_warnings(caught):
            for _ in range(1 + TRANSPILE_AGAIN):
                gc.collect()  # no collection of earlier garbage inside the timed call
                ms, out = first_call(lambda: tp.jit(fn, backend="eager")(*small))
                times.append(ms)
        first, again = times[0], statistics.median(times[1:])
        rows.append({"kernel": fn.__name__, "plain_ms": plain, "eager_first_ms": first,
                     "transpile_ms": first - plain, "transpile_again_ms": again - plain,
                     "equal": same(expected, out), "warnings": caught})
    return rows


def show_transpile(rows):
    print_table(
        "3. Transpile time without Numba's compile: tp.jit(fn, backend='eager') on small inputs",
        "   ms: transpile = first eager call - median plain call; again = median of "
        f"{TRANSPILE_AGAIN} new jit objects (module already written and imported) - plain;\n"
        "   gc.collect() before each; equal = same result as plain Python",
        ["kernel", "plain ms", "eager first ms", "transpile ms", "again ms", "equal"],
        [[r["kernel"], r["plain_ms"], r["eager_first_ms"], r["transpile_ms"],
          r["transpile_again_ms"], r["equal"]] for r in rows], "lrrrrl")
    for r in rows:
        print_warnings(r["warnings"], f" in {r['kernel']}")


# -- 4. first call in a fresh process -------------------------------------------------------

FRESH_KINDS = ("cold", "warm", "njit cold", "njit warm", "numpy", "jax cold", "jax warm")


def bench_fresh(work):
    runs = {kind: [] for kind in FRESH_KINDS}
    caught, with_jax = [], jax_or_none() is not None
    for i in range(FRESH_PAIRS):
        env = {"GRAPHJIT_CACHE": "1", "GRAPHJIT_CACHE_DIR": os.path.join(work, f"fresh{i}")}
        runs["cold"].append(run_child(["seed"], env, caught))
        runs["warm"].append(run_child(["seed"], env, caught))
        # The floor: hand-written numba.njit(cache=True) of the same network, same way.
        env = {"NUMBA_CACHE_DIR": os.path.join(work, f"njit{i}")}
        runs["njit cold"].append(run_child(["seed-njit"], env, caught))
        runs["njit warm"].append(run_child(["seed-njit"], env, caught))
        runs["numpy"].append(run_child(["seed-numpy"], {}, caught))
        if with_jax:
            env = {"GRAPHJIT_BENCH_JAX_CACHE": os.path.join(work, f"jax{i}")}
            runs["jax cold"].append(run_child(["seed-jax"], env, caught))
            runs["jax warm"].append(run_child(["seed-jax"], env, caught))
    summary = {}
    for kind, results in runs.items():
        if not results:
            continue
        first = [r["first_call_ms"] for r in results]
        script = [r["script_ms"] for r in results]
        summary[kind] = {
            "first_call_ms": statistics.median(first), "first_call_min_ms": min(first),
            "first_call_max_ms": max(first),
            "script_ms": statistics.median(script), "script_min_ms": min(script),
            "script_max_ms": max(script),
            "in_script_ms": statistics.median(r["in_script_ms"] for r in results),
            "process_ms": statistics.median(r["process_ms"] for r in results),
            "setup_ms": statistics.median(r["setup_ms"] for r in results),
            "numba_cache_files": results[-1]["numba_cache_files"],
            "cache_switch": results[-1]["cache_switch"],
            "max_abs_diff": max(r["max_abs_diff"] for r in results),
            "fell_back": any(r["fell_back"] for r in results)}
    return {"summary": summary, "runs": runs, "warnings": caught,
            "jax": jax_version() or "not installed", "bytecode": bytecode_state()}


def bytecode_state():
    """Whether graphjit's modules have up-to-date .pyc files (``make bytecode``, as a pip
    install of the wheel leaves them): without them every fresh process compiles graphjit's
    source (where PYTHONDONTWRITEBYTECODE is set, at every start)."""
    stale = []
    for package in ("transpiler", "backends"):
        for base, _, files in os.walk(os.path.join(ROOT, package)):
            for name in files:
                if name.endswith(".py") and not _pyc_current(os.path.join(base, name)):
                    stale.append(name)
    return "byte-compiled" if not stale else f"{len(stale)} modules NOT byte-compiled"


def _pyc_current(source):
    """Whether the .pyc of ``source`` is what the import system would use: this
    interpreter's magic number and, for a timestamp .pyc (compileall's default), the
    source's mtime and size as recorded in its header (PEP 552); a hash-based one counts."""
    import importlib.util
    try:
        with open(importlib.util.cache_from_source(source), "rb") as handle:
            header = handle.read(16)
    except OSError:
        return False
    if len(header) < 16 or header[:4] != importlib.util.MAGIC_NUMBER:
        return False
    if int.from_bytes(header[4:8], "little") & 1:      # hash-based
        return True
    status = os.stat(source)
    return (int.from_bytes(header[8:12], "little") == int(status.st_mtime) & 0xFFFFFFFF and
            int.from_bytes(header[12:16], "little") == status.st_size & 0xFFFFFFFF)


def show_fresh(data):
    s = data["summary"]
    labels = {"cold": "graphjit cold", "warm": "graphjit warm", "njit cold": "njit cold",
              "njit warm": "njit warm", "numpy": "NumPy", "jax cold": "jax.jit cold",
              "jax warm": "jax.jit warm"}
    print_table(
        "4. Seed network, first result in a fresh process, batch 64: GRAPH_MODE with "
        "GRAPHJIT_CACHE=1 and a temporary GRAPHJIT_CACHE_DIR, beside the hand-written ways",
        f"   ms, median of {FRESH_PAIRS} cold/warm pairs: script = from the parent's clock just "
        "before it starts the interpreter to the first result (interpreter start-up,\n   every "
        "import, the network, the call); first call = just before to just after the call in the "
        "child (graphjit's includes importing Numba, see 5);\n   process = whole child run seen "
        "by the parent; setup = the child's imports and network before the call; cache files = "
        "Numba's (JAX's for jax.jit); graphjit's modules: "
        f"{data.get('bytecode', 'not recorded')} (make bytecode, as a pip install leaves them)",
        ["way", "script ms", "min..max", "first call ms", "process ms", "setup ms",
         "cache files", "max|diff|", "graphjit"],
        [[labels[kind], s[kind]["script_ms"],
          f"{s[kind]['script_min_ms']:.0f}..{s[kind]['script_max_ms']:.0f}",
          s[kind]["first_call_ms"], s[kind]["process_ms"], s[kind]["setup_ms"],
          s[kind]["numba_cache_files"], f"{s[kind]['max_abs_diff']:.1e}",
          ("FALLBACK" if s[kind]["fell_back"] else "compiled") if kind in ("cold", "warm")
          else ""] for kind in FRESH_KINDS if kind in s], "lrrrrrrrl")
    print(f"   njit rows: hand-written numba.njit(cache=True) of the same network, the floor of "
          f"any Numba-based cached first call; graphjit warm / njit warm: "
          f"{ratio(s['warm']['first_call_ms'], s['njit warm']['first_call_ms'])}x (first call), "
          f"{ratio(s['warm']['script_ms'], s['njit warm']['script_ms'])}x (script)")
    print("   jax.jit rows: the NumPy code run with jax.numpy; warm = JAX's persistent "
          "compilation cache kept from the cold run" if "jax cold" in s else
          "   jax: not installed (pip install -e '.[bench]')")
    print(f"   cold / warm: first call "
          f"{ratio(s['cold']['first_call_ms'], s['warm']['first_call_ms'])}x, process "
          f"{ratio(s['cold']['process_ms'], s['warm']['process_ms'])}x; cache switch: "
          f"{s['warm']['cache_switch']}")
    print_warnings(data["warnings"])


# -- 6. region-level fallback ---------------------------------------------------------------

def bench_mixed():
    """A function that cannot compile whole: its loop compiled, its report run as Python."""
    values = np.linspace(0.0, 1.0, 2000)
    steps = 60
    sink = []
    with recorded_warnings(sink):
        compiled = tp.jit(kernels.mixed_with_report)
        first_ms, out = first_call(lambda: compiled(values, steps))
    plain = kernels.mixed_with_report(values, steps)
    medians = interleaved_medians({
        "plain": (None, lambda: kernels.mixed_with_report(values, steps)),
        "graphjit": (None, lambda: compiled(values, steps))}, rounds=15)
    rows = compiled.explain().rows
    return {"plain_ms": medians["plain"], "graphjit_ms": medians["graphjit"],
            "first_ms": first_ms, "equal": bool(out[1] == plain[1] and out[0] == plain[0]),
            "compiled_regions": sum(r.status == "compiled" and r.region.startswith("loop")
                                    for r in rows),
            "explain": str(compiled.explain()), "warnings": sink}


def show_mixed(data):
    print_table(
        "6. Region-level fallback: kernels.mixed_with_report (a loop, then a dict, an f-string "
        "and json)",
        "   ms per call, median of 15 interleaved rounds; regions = loops compiled inside the "
        "function that runs as Python",
        ["way", "median ms", "first ms", "plain / graphjit", "regions", "equal"],
        [["plain Python", data["plain_ms"], "", "", "", ""],
         ["graphjit", data["graphjit_ms"], data["first_ms"],
          f"{ratio(data['plain_ms'], data['graphjit_ms'])}x", data["compiled_regions"],
          "yes" if data["equal"] else "NO"]], "lrrrrl")
    print("   " + data["explain"].replace("\n", "\n   "))


# -- 7. float32 kernels: types by path ------------------------------------------------------

def bench_float32():
    """float32 kernels whose variables are a Python float or an np.float32 by path: graphjit
    computes them as NumPy 2 does (float32, narrowed reads, a type flag on the result);
    numba.njit computes in float64. The ratio is what that fidelity costs."""
    rows = []
    for fn, args in kernels.FLOAT32_KERNELS:
        caught = []
        with recorded_warnings(caught):
            jitted = tp.jit(fn)
            unchecked = tp.jit(fn, boundscheck=False)
            njitted = numba.njit(fn)

            def fresh(way):
                copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
                return way(*copies)
            outs = {"plain": fresh(fn), "graphjit": fresh(jitted), "njit": fresh(njitted),
                    "unchecked": fresh(unchecked)}
            medians = interleaved_medians({
                "graphjit": (None, lambda: jitted(*args)),
                "unchecked": (None, lambda: unchecked(*args)),
                "njit": (None, lambda: njitted(*args))}, KERNEL_ROUNDS)
            explain = jitted.explain()
        fell_back = (any(r.status == "python" for r in explain.rows)
                     or any(t.startswith("FallbackWarning") for t in caught))
        rows.append({
            "kernel": fn.__name__, "graphjit_ms": medians["graphjit"],
            "njit_ms": medians["njit"],
            "graphjit_over_njit": medians["graphjit"] / medians["njit"],
            "unchecked_ms": medians["unchecked"],
            "unchecked_over_njit": medians["unchecked"] / medians["njit"],
            "graphjit_equal": all(same(outs["plain"], outs[w]) and type(outs["plain"]) is
                                  type(outs[w]) for w in ("graphjit", "unchecked")),
            "njit_equal": same(outs["plain"], outs["njit"]) and
            type(outs["plain"]) is type(outs["njit"]),
            "status": "FALLBACK" if fell_back else "compiled", "warnings": caught})
    return rows


def show_float32(rows):
    print_table(
        "7. float32 kernels (benchmarks/kernels.py FLOAT32_KERNELS, 4,000,000 float32 values): a "
        "variable that is a Python float or an np.float32 by path",
        f"   ms per call, median of {KERNEL_ROUNDS} interleaved rounds; equal = the same value "
        "and type as plain Python (NumPy 2 computes in float32,\n   numba.njit in float64); "
        "unchk = tp.jit(fn, boundscheck=False), like njit;\n   unchk/njit = the cost of "
        "computing as NumPy does (float32, narrowed reads, the result's type flag)",
        ["kernel", "graphjit ms", "unchk ms", "njit ms", "gj/njit", "unchk/njit",
         "graphjit equal", "njit equal", "graphjit"],
        [[r["kernel"], r["graphjit_ms"], r["unchecked_ms"], r["njit_ms"],
          f"{r['graphjit_over_njit']:.2f}", f"{r['unchecked_over_njit']:.2f}",
          r["graphjit_equal"], r["njit_equal"], r["status"]] for r in rows], "lrrrrrlll")
    for r in rows:
        print_warnings(r["warnings"], f" in {r['kernel']}")


# -- 5. import time -------------------------------------------------------------------------

def bench_import():
    modules = ("transpiler", "numpy", "numba")
    results, caught = {m: [] for m in modules}, []
    for _ in range(IMPORT_RUNS):
        for m in modules:
            results[m].append(run_child(["import", m], {}, caught))
    rows = [{"module": m, "import_ms": statistics.median(r["import_ms"] for r in rs),
             "min_ms": min(r["import_ms"] for r in rs),
             "max_ms": max(r["import_ms"] for r in rs),
             "process_ms": statistics.median(r["process_ms"] for r in rs),
             "numba_loaded": any(r["numba_loaded"] for r in rs)}
            for m, rs in results.items()]
    return {"rows": rows, "warnings": caught}


def show_import(data):
    print_table(
        "5. Import time in a fresh process (perf_counter around the import, inside the child)",
        f"   ms, median of {IMPORT_RUNS} processes; numpy and numba alone for comparison; "
        "process = whole child run",
        ["import", "median ms", "min ms", "max ms", "process ms", "numba in sys.modules"],
        [[r["module"], r["import_ms"], r["min_ms"], r["max_ms"], r["process_ms"],
          r["numba_loaded"]] for r in data["rows"]], "lrrrrl")
    print_warnings(data["warnings"])


# -- 9. dispatch ---------------------------------------------------------------------------

def bench_dispatch():
    import dispatch  # benchmarks/dispatch.py: measure() -> microseconds per call
    return dispatch.measure()


def show_dispatch(data):
    print_table(
        "9. Dispatch cost per call (benchmarks/dispatch.py): a scalar function, and a function "
        "that falls back to Python",
        "   microseconds per call, best of several timed loops",
        ["measure", "us"], [[k, v] for k, v in data.items() if isinstance(v, float)], "lr")


# -- driver ---------------------------------------------------------------------------------

def main():
    started = time.perf_counter()
    for name in ("GRAPHJIT_CACHE", "GRAPHJIT_DISABLE", "GRAPHJIT_FULLGRAPH"):
        os.environ.pop(name, None)  # measure the defaults, whatever the shell sets
    work = tempfile.mkdtemp(prefix="graphjit-bench-")
    os.environ["GRAPHJIT_CACHE_DIR"] = os.path.join(work, "main")  # not the user's cache
    meta = {"python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "graphjit": tp.__version__,
            "machine": platform.machine(), "cpus": os.cpu_count(),
            "blas_threads": os.environ["OPENBLAS_NUM_THREADS"],
            "jax": jax_version() or "not installed", "quick": QUICK,
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    print(f"graphjit {meta['graphjit']} benchmarks: Python {meta['python']}, NumPy "
          f"{meta['numpy']}, Numba {meta['numba']}, {meta['cpus']} CPUs, BLAS threads "
          f"{meta['blas_threads']}, jax {meta['jax']}"
          + (" (GRAPHJIT_BENCH_QUICK: reduced rounds, noisy)" if QUICK else ""))
    data = {"meta": meta}
    only = {n for n in os.environ.get("GRAPHJIT_BENCH_ONLY", "").split(",") if n}
    sections = [  # (name for GRAPHJIT_BENCH_ONLY, data key, measure, show)
        ("seed", "seed_network", bench_seed, show_seed),
        ("transpile", "transpile", bench_transpile, None),  # before the kernels: nothing warm
        ("kernels", "kernels", bench_kernels, show_kernels),
        ("transpile", "transpile", None, show_transpile),
        ("fresh", "fresh_process", lambda: bench_fresh(work), show_fresh),
        ("import", "import", bench_import, show_import),
        ("mixed", "mixed", bench_mixed, show_mixed),
        ("float32", "float32", bench_float32, show_float32),
        ("arrays", "arrays", array_bench.bench_arrays, array_bench.show_arrays),
        ("dispatch", "dispatch", bench_dispatch, show_dispatch),
        ("parallel", "parallel", parallel_bench.bench_parallel, parallel_bench.show_parallel),
        ("islands", "islands", island_bench.bench_islands, island_bench.show_islands),
        ("train", "train", train_bench.bench_train, train_bench.show_train),
        ("everyday", "everyday", everyday_bench.bench_everyday, everyday_bench.show_everyday),
        ("closures", "closures", memory.bench_closures, memory.show_closures)]
    try:
        for name, key, measure, show in sections:
            if only and name not in only:
                continue
            if measure is not None:
                data[key] = measure()
            if show is not None:
                show(data[key])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    data["goals"] = summary.goals(data)
    summary.show_goals(data["goals"])
    meta["total_s"] = time.perf_counter() - started
    os.makedirs(os.path.dirname(JSON_PATH), exist_ok=True)
    with open(JSON_PATH, "w") as handle:
        json.dump(json_safe(data), handle, indent=2, allow_nan=False)
    with open(MARKDOWN_PATH, "w") as handle:
        handle.write(summary.markdown(data["goals"]))
    print(f"\nWrote {os.path.relpath(JSON_PATH, ROOT)} and "
          f"{os.path.relpath(MARKDOWN_PATH, ROOT)} (the summary); total {meta['total_s']:.0f} s")


if __name__ == "__main__":
    main()
