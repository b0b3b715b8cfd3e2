"""Wall time of ``graphjit convert --all`` on generated files of N simple functions.

Each function has a loop and a branch. Conversion should be linear in N: the time per
function printed last should stay about the same from the smallest N to the largest.

    PYTHONPATH=. python benchmarks/cli_scale.py            # 250 1000 4000
    PYTHONPATH=. python benchmarks/cli_scale.py 250 2000
    PYTHONPATH=. python benchmarks/cli_scale.py --calls        # each calls the previous one
    PYTHONPATH=. python benchmarks/cli_scale.py --profile 1000   # cProfile, top 25
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def generated_source(count, calls=False):
    """A module of ``count`` functions, each with a ``for`` loop and an ``if``; with
    ``calls``, each also calls the one before it (chains of 10: a callee is converted once,
    not once per caller)."""
    parts = ["import numpy as np\n"]
    for i in range(count):
        start = f"f{i - 1}(a, n)" if calls and i % 10 else "0.0"
        parts.append(f"""
def f{i}(a, n):
    total = {start}
    for j in range(n):
        if a[j] > {i % 7}:
            total += a[j] * {i}
        else:
            total -= 1.0
    return total
""")
    return "".join(parts)


def measure(count, folder, calls=False):
    """Wall and CPU seconds of one ``python -m transpiler convert --all -q`` of ``count``
    functions (CPU time too: on a shared machine the wall time varies with the load)."""
    src = os.path.join(folder, f"gen{count}.py")
    with open(src, "w") as handle:
        handle.write(generated_source(count, calls))
    env = dict(os.environ, PYTHONPATH=ROOT)
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "transpiler", "convert", "--all", "-q", src,
                           "-o", os.path.join(folder, "out")], env=env, capture_output=True,
                          text=True)
    elapsed = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"convert failed ({proc.returncode}): {proc.stderr[-2000:]}")
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    return elapsed, cpu


def profile(count, folder):
    """cProfile of one in-process conversion; prints the 25 most expensive by cumulative time."""
    import cProfile
    import pstats
    sys.path.insert(0, ROOT)
    from transpiler.convert_file import convert
    src = os.path.join(folder, f"gen{count}.py")
    with open(src, "w") as handle:
        handle.write(generated_source(count))
    profiler = cProfile.Profile()
    profiler.runcall(convert, src, convert_all=True)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main(argv):
    with tempfile.TemporaryDirectory() as folder:
        if argv[:1] == ["--profile"]:
            profile(int(argv[1]) if len(argv) > 1 else 1000, folder)
            return
        calls = "--calls" in argv
        counts = [int(a) for a in argv if a != "--calls"] or [250, 1000, 4000]
        print(f"{'functions':>9} {'wall s':>8} {'cpu s':>8} {'wall ms/fn':>11} {'cpu ms/fn':>10}")
        for count in counts:
            wall, cpu = measure(count, folder, calls)
            print(f"{count:>9} {wall:>8.2f} {cpu:>8.2f} {1000 * wall / count:>11.2f} "
                  f"{1000 * cpu / count:>10.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
