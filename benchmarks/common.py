"""Helpers shared by the sections of ``make bench`` (benchmarks/run.py, array_bench.py,
summary.py): timing ways round-robin, recording warnings, comparing results, running the
fresh-process child, printing aligned tables, and the optional JAX way.

``GRAPHJIT_BENCH_QUICK=1`` divides every section's rounds and repeats (``rounds``), for a
short run while developing; the figures are then noisier, never the ones to publish.
"""
import contextlib
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NAN = float("nan")
# Untimed calls of a way just before each timed one in the steady-state sections (seed
# network, whole-array kernels): see interleaved_medians.
WARM = 2
QUICK = os.environ.get("GRAPHJIT_BENCH_QUICK", "") not in ("", "0")


def rounds(n, least=3):
    """``n`` rounds, or a tenth of them (at least ``least``) with GRAPHJIT_BENCH_QUICK=1."""
    return max(least, n // 10) if QUICK else n


_JAX = []


def jax_or_none():
    """``(jax, jax.numpy)`` with 64-bit types enabled (float64 stays float64, as in NumPy), or
    None where JAX is not installed (then every JAX way is left out and says so)."""
    if not _JAX:
        if importlib.util.find_spec("jax") is None:
            _JAX.append(None)
        else:
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
            _JAX.append((jax, jnp))
    return _JAX[0]


def jax_version():
    found = jax_or_none()
    return found[0].__version__ if found else None


# -- measuring ------------------------------------------------------------------------------

def since(start):
    return (time.perf_counter() - start) * 1e3


def first_call(call):
    """(ms, result) of one call."""
    start = time.perf_counter()
    out = call()
    return since(start), out


def interleaved_medians(ways, rounds, every=None, warm=0):
    """Median ms per way. ``ways``: name -> (prepare or None, call); ``prepare`` runs untimed
    before each call. Each round calls every way once, in a shuffled order; ``every[name] = k``
    calls that way only every k-th round (for slow ways). ``warm``: calls of the same way
    just before each timed one, untimed: "later calls" of a function called in a loop, its
    memory in the caches again after the other ways ran (every way alike)."""
    every = every or {}
    order = list(ways)
    shuffle = random.Random(0).shuffle  # the same orders in every run
    times = {name: [] for name in order}
    for r in range(rounds):
        shuffle(order)
        for name in order:
            if r % every.get(name, 1):
                continue
            prepare, call = ways[name]
            for _ in range(warm):
                if prepare is not None:
                    prepare()
                call()
            if prepare is not None:
                prepare()
            start = time.perf_counter()
            call()
            times[name].append(since(start))
    return {name: statistics.median(t) for name, t in times.items()}


@contextlib.contextmanager
def recorded_warnings(sink):
    """Record every warning raised inside into ``sink`` (printed later, never hidden)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for w in caught:
        text = f"{w.category.__name__}: {w.message}"
        if text not in sink:
            sink.append(text)


def same(a, b):
    """Equal values of the same dtype (arrays) or equal scalars."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
                and a.dtype == b.dtype and np.array_equal(a, b))
    return bool(a == b)


def run_child(args, env_extra, sink):
    """Run fresh_process.py in a new interpreter: its JSON result plus ``process_ms``."""
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)  # Numba's cache stays beside the generated modules
    env.update(env_extra)
    command = [sys.executable, os.path.join(HERE, "fresh_process.py"), *args]
    env["GRAPHJIT_BENCH_LAUNCHED"] = repr(time.time())  # the child's "script start"
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=300)
    wall = since(start)
    if proc.returncode != 0:
        raise RuntimeError(f"child 'fresh_process.py {' '.join(args)}' failed:\n{proc.stderr}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    reports = [f"in a fresh process: {w}" for w in result["warnings"]]
    if proc.stderr.strip():
        reports.append(f"child 'fresh_process.py {' '.join(args)}' wrote to stderr:\n"
                       f"{proc.stderr.rstrip()}")
    sink.extend(r for r in reports if r not in sink)
    result["process_ms"] = wall
    return result


def json_safe(value):
    """``value`` with NaN (a way that did not run) as None, so that the file is strict JSON."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return None if isinstance(value, float) and value != value else value


# -- printing -------------------------------------------------------------------------------

def cell(value):
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        if value != value:  # NaN: a way that did not run
            return "n/a"
        if abs(value) >= 100:
            return f"{value:.1f}"
        return f"{value:.2f}" if abs(value) >= 1 else f"{value:.3g}"
    return str(value)


def print_table(title, note, header, rows, align):
    """Print an aligned table; ``align`` has one 'l' or 'r' per column."""
    text = [list(header)] + [[cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(header))]

    def line(r):
        return "  ".join(c.ljust(w) if a == "l" else c.rjust(w)
                         for c, w, a in zip(r, widths, align)).rstrip()
    print()
    print(title)
    print(note)
    print(line(text[0]))
    print("-" * len(line(text[0])))
    for r in text[1:]:
        print(line(r))


def print_warnings(sink, where=""):
    """Print recorded warnings (and child stderr), indented under the table."""
    for text in sink:
        text = text.replace("\n", "\n      ")
        print(f"  warning{where}: {text}")
    sys.stdout.flush()


def ratio(a, b):
    return f"{a / b:.2f}"
