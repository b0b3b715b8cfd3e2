"""Memory kept by jitted closures that are dropped (issue 16): ``make memory N=1000``.

Each variant runs in a fresh process and prints the growth of the resident set (RSS) after N
closures were jitted, called once and dropped, beside plain ``numba.njit`` doing the same:

- graphjit, N closures with distinct constants (each is new code: Numba compiles N times);
- graphjit, N closures with one constant (one module shared by all);
- numba.njit, N closures with distinct constants (Numba's own share: its machine code is
  never freed in a process, numba#5976 / numba#7831);
- ``bench_closures()`` (``make bench`` section 13, issue 50): N = 200 closures with distinct
  captured *floats*, jitted, called once and kept, graphjit beside numba.njit: the RSS growth
  and the number of Numba compiles (transpiler/dynamic_numbers.py makes the float a runtime
  input from its second value on).
"""
import argparse
import os
import subprocess
import sys

CHILD = r'''
import gc, os, sys, time
import numpy as np
variant, n = sys.argv[1], int(sys.argv[2])

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20

def body(k):
    def scaled_sum(x):
        total = 0.0
        for i in range(x.shape[0]):
            total += x[i] * k
        return total
    return scaled_sum

import numba
from numba.core.dispatcher import Dispatcher
compiles = [0]
_compile = Dispatcher._compile_for_args
def counting(self, *args, **kwargs):
    compiles[0] += 1
    return _compile(self, *args, **kwargs)
Dispatcher._compile_for_args = counting
if variant.startswith("njit"):
    wrap = numba.njit
else:
    import transpiler as tp
    wrap = lambda f: tp.jit(f, fullgraph=True)
x = np.arange(10.0)
wrap(body(0.5))(x)
gc.collect()
start, began, compiles[0] = rss(), time.perf_counter(), 0
kept = []
for k in range(1, n + 1):
    value = 7 if variant == "same" else 0.37 * k + 0.1 if variant.endswith("floats") else k
    f = wrap(body(value))
    assert f(x) == body(value)(x)
    if variant.endswith("floats"):
        kept.append(f)
    del f
gc.collect()
print(f"{rss() - start:.1f} {time.perf_counter() - began:.1f} {compiles[0]}")
'''


def _child(variant, n):
    """Run the child for ``variant`` in a fresh process: (MB grown, seconds, compiles)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("GRAPHJIT_CACHE", None)
    script = os.path.join(root, "build", "memory_child.py")
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as handle:   # a real file: graphjit reads the closures' source
        handle.write(CHILD)
    out = subprocess.run([sys.executable, script, variant, str(n)], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def bench_closures(n=200):
    """``n`` closures of one function with distinct captured floats, jitted, called and kept,
    each way in a fresh process after one warm closure.

    Returns:
        dict: ``n``; per way (``graphjit``, ``njit``) a dict of ``mb`` (RSS growth), ``s``
        (seconds for the n closures), ``compiles`` (Numba dispatcher compiles).
    """
    out = {"n": n}
    for way, variant in (("graphjit", "floats"), ("njit", "njit_floats")):
        mb, seconds, compiles = _child(variant, n)
        out[way] = {"mb": mb, "s": seconds, "compiles": compiles}
    return out


def show_closures(data):
    """Print section 13."""
    print(f"\n13. {data['n']} closures of one function with distinct captured floats, jitted, "
          "called once and kept (benchmarks/memory.py, one fresh process each)")
    for way in ("graphjit", "njit"):
        row = data[way]
        print(f"   {way:<9} {row['compiles']:4d} Numba compiles  {row['mb']:7.1f} MB kept  "
              f"{row['s']:6.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    args = parser.parse_args()
    print(f"{args.n} closures jitted, called once and dropped (RSS growth, one process each)")
    for variant, label in (("distinct", "graphjit, distinct constants"),
                           ("same", "graphjit, one constant"),
                           ("njit", "numba.njit, distinct constants")):
        grown, seconds, _ = _child(variant, args.n)
        print(f"  {label:<32} {grown:8.1f} MB  {1024 * grown / args.n:7.1f} kB each"
              f"  {seconds:6.1f} s")


if __name__ == "__main__":
    main()
