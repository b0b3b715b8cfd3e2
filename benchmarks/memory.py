"""Memory kept by jitted closures that are dropped (issue 16): ``make memory N=1000``.

Each variant runs in a fresh process and prints the growth of the resident set (RSS) after N
closures were jitted, called once and dropped, beside plain ``numba.njit`` doing the same:

- graphjit, N closures with distinct constants (each is new code: Numba compiles N times);
- graphjit, N closures with one constant (one module shared by all);
- numba.njit, N closures with distinct constants (Numba's own share: its machine code is
  never freed in a process, numba#5976 / numba#7831).
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

if variant == "njit":
    import numba
    wrap = numba.njit
else:
    import transpiler as tp
    wrap = lambda f: tp.jit(f, fullgraph=True)
x = np.arange(10.0)
wrap(body(0.5))(x)
gc.collect()
start, began = rss(), time.perf_counter()
for k in range(1, n + 1):
    value = 7 if variant == "same" else k
    f = wrap(body(value))
    assert f(x) == body(value)(x)
    del f
gc.collect()
print(f"{rss() - start:.1f} {time.perf_counter() - began:.1f}")
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    script = os.path.join(root, "build", "memory_child.py")
    os.makedirs(os.path.dirname(script), exist_ok=True)
    with open(script, "w") as handle:   # a real file: graphjit reads the closures' source
        handle.write(CHILD)
    print(f"{args.n} closures jitted, called once and dropped (RSS growth, one process each)")
    for variant, label in (("distinct", "graphjit, distinct constants"),
                           ("same", "graphjit, one constant"),
                           ("njit", "numba.njit, distinct constants")):
        out = subprocess.run([sys.executable, script, variant, str(args.n)], env=env,
                             capture_output=True, text=True, check=True).stdout.split()
        grown, seconds = float(out[0]), float(out[1])
        print(f"  {label:<32} {grown:8.1f} MB  {1024 * grown / args.n:7.1f} kB each"
              f"  {seconds:6.1f} s")


if __name__ == "__main__":
    main()
