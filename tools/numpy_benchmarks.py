"""Run serge-sans-paille/numpy-benchmarks (32 kernels written by NumPy users, each with a
``#setup:`` and a ``#run:`` line) plainly and through ``tp.jit``, the plain call as oracle.

Each kernel runs in a child process of its own (a crash or a hang costs that kernel only):
the setup, the plain call, a fresh setup, the jitted call, a comparison of the results (type,
dtype, shape, bits; NaN equal to NaN) and of every argument after the call (mutation), then
a few more jitted calls timed against plain ones, interleaved. The row says how the function
ran: compiled whole, or split with its loops compiled (and how many Python islands), or
Python; whether every loop of the kernel compiled; the ratio plain / graphjit.

Usage (the benchmarks' folder, fetched from the repository, is an argument: nothing is
downloaded)::

    python tools/numpy_benchmarks.py DIR [--only NAME ...] [--timeout 300]
"""
import argparse
import json
import os
import subprocess
import sys
import time

CHILD = r'''
import json, os, re, statistics, sys, time, warnings
import numpy as np
sys.path.insert(0, os.path.dirname(path := sys.argv[1]))
name = os.path.splitext(os.path.basename(path))[0]
text = open(path).read()
setup = re.search(r"^#setup:(.*)$", text, re.M).group(1).strip()
run = re.search(r"^#run:(.*)$", text, re.M).group(1).strip()
module = __import__(name)
import transpiler as tp
entry = run.split("(")[0].strip()

def env():
    scope = dict(vars(module))
    exec(setup, scope)
    return scope

def same(a, b):
    if type(a) is not type(b):
        return f"type {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return "length"
        for x, y in zip(a, b):
            d = same(x, y)
            if d:
                return d
        return ""
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{a.dtype}{a.shape} != {b.dtype}{b.shape}"
        return "" if np.array_equal(a, b, equal_nan=a.dtype.kind in "fc") else "values"
    if isinstance(a, np.generic) and a.dtype.kind in "fc":
        return "" if (a == b or (a != a and b != b)) else "value"
    try:
        return "" if a == b or (a != a and b != b) else "value"
    except Exception:
        return ""

def arguments(scope):
    return [v for k, v in sorted(scope.items()) if isinstance(v, (np.ndarray, list, dict))
            and not k.startswith("__")]

out = {"name": name}
plain_scope = env()
start = time.perf_counter()
expected_exc = None
try:
    expected = eval(run, plain_scope)
except Exception as exc:
    expected_exc = type(exc).__name__
out["plain_s"] = time.perf_counter() - start
jitted = tp.jit(getattr(module, entry))
jit_scope = env()
jit_scope[entry] = jitted
warnings.simplefilter("ignore")
start = time.perf_counter()
got_exc = None
try:
    got = eval(run, jit_scope)
except Exception as exc:
    got_exc = type(exc).__name__
out["first_s"] = time.perf_counter() - start
if expected_exc or got_exc:
    out["differs"] = "" if expected_exc == got_exc else f"exception {expected_exc} != {got_exc}"
else:
    out["differs"] = same(expected, got) or next(
        (f"argument: {d}" for d in (same(a, b) for a, b in zip(
            arguments(plain_scope), arguments(jit_scope))) if d), "")
rows = jitted.explain().rows
out["whole"] = any(r.region == "function" and r.status == "compiled" for r in rows) and not \
    any(r.region == "function" and r.status == "python" for r in rows)
# a loop whose region fell back and was split again compiles one level down (same line)
by_line = {}
for r in rows:
    if r.region.strip().startswith("loop") and r.origin is not None:
        by_line[r.origin.lineno] = by_line.get(r.origin.lineno, False) or r.status == "compiled"
out["loops_compiled"] = sum(by_line.values())
out["loops_python"] = sum(not v for v in by_line.values())
out["islands"] = sum(r.region.strip().startswith("island") for r in rows)
import ast
source_loops = sum(isinstance(n, (ast.For, ast.While)) for n in ast.walk(ast.parse(text)))
out["source_loops"] = source_loops
out["reasons"] = sorted({r.reason.splitlines()[0][:160] for r in rows if r.status == "python"})
if not expected_exc and out["plain_s"] < 20:
    times = {"plain": [], "graphjit": []}
    for _ in range(5 if out["plain_s"] < 1 else 2):
        for way, fn in (("plain", getattr(module, entry)), ("graphjit", jitted)):
            scope = env()
            scope[entry] = fn
            start = time.perf_counter()
            eval(run, scope)
            times[way].append(time.perf_counter() - start)
    out["ratio"] = statistics.median(times["plain"]) / statistics.median(times["graphjit"])
print("RESULT " + json.dumps(out))
'''


def run_one(path, timeout):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
         os.environ.get("PYTHONPATH", "")]))
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True,
                              text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"name": os.path.basename(path)[:-3], "error": f"timeout {timeout} s"}
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
            result["wall_s"] = time.perf_counter() - start
            return result
    tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
    return {"name": os.path.basename(path)[:-3], "error": " | ".join(tail)[:300]}


def how(row):
    if "error" in row:
        return "CRASH"
    if row["whole"]:
        return "compiled"
    if row["loops_compiled"]:
        return "split"
    return "python"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--json")
    args = parser.parse_args()
    names = sorted(f for f in os.listdir(args.folder) if f.endswith(".py"))
    if args.only:
        names = [n for n in names if n[:-3] in args.only]
    rows = []
    for name in names:
        row = run_one(os.path.join(args.folder, name), args.timeout)
        rows.append(row)
        every = "error" not in row and (row["loops_python"] == 0 and (
            row["whole"] or row["loops_compiled"] or not row["source_loops"]))
        row["every_loop"] = every
        print(f"{row['name']:<26} {how(row):<9} loops {row.get('source_loops', '?')!s:>2} "
              f"compiled {row.get('loops_compiled', '-')!s:>2} islands "
              f"{row.get('islands', '-')!s:>2} every-loop {'yes' if every else 'no ':<3} "
              f"{'DIFFERS ' + row['differs'] if row.get('differs') else 'equal' if 'error' not in row else row['error']:<10} "
              f"ratio {row.get('ratio', float('nan')):6.2f}x first {row.get('first_s', 0):6.2f} s"
              + ("" if how(row) == "compiled" else f"  ({'; '.join(row.get('reasons', []))[:200]})"),
              flush=True)
    counts = {k: sum(how(r) == k for r in rows) for k in ("compiled", "split", "python", "CRASH")}
    print(f"\n{len(rows)} kernels: {counts}; every loop compiled: "
          f"{sum(r.get('every_loop', False) for r in rows)}; differ: "
          f"{sum(bool(r.get('differs')) for r in rows)}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)


if __name__ == "__main__":
    main()
