"""Cold start of loop kernels and graphjit's own transpile time, each in fresh interpreters.

``measure(runs=3) -> dict``:

- ``first_call``: per kernel of ``kernels.KERNELS``, the medians (and all runs) of
  ``fresh_process.py kernel NAME graphjit`` and ``... njit`` (a fresh interpreter each, both
  ways after the same warm-up, so one-time start-up is excluded), and their ratio;
- ``transpile``: per kernel, and for the seed network's ``construct``, the first call of
  ``tp.jit(fn, backend="eager")`` on the kernel's small input minus a plain call, in a fresh
  interpreter after a trivial eager ``tp.jit`` warm-up (graphjit's analysis, before Numba);
- ``script``: from interpreter start (before ``import transpiler``) to the first result of
  ``tp.jit(collatz_steps)(10)``, the whole script as a user sees it.

``python benchmarks/cold_start.py [--runs N] [--only first_call,transpile,script]`` prints a
table and the JSON. The child modes (``transpile NAME``, ``script``) are this file's own.
"""
import time

_START = time.perf_counter()  # the script mode's start: before anything but `time`

import gc  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _warm_up(n):
    return n + 1


# -- child modes -----------------------------------------------------------------------------

def _child_transpile(name):
    import numpy as np

    import kernels
    import transpiler as tp

    tp.jit(_warm_up, backend="eager")(1)
    if name == "seed":
        import seed
        net = seed.make_network()
        x = np.ones((64, 1, 28, 28), np.float32)
        fn, small = (lambda v: net.construct(v)), (x,)
        jitted = tp.jit(type(net).construct, backend="eager")
        call = (lambda: jitted(net, x))
    else:
        fn, _, small = next(k for k in kernels.KERNELS if k[0].__name__ == name)
        call = (lambda: tp.jit(fn, backend="eager")(*small))
    plain = []
    for _ in range(11):
        start = time.perf_counter()
        fn(*small)
        plain.append((time.perf_counter() - start) * 1e3)
    gc.collect()
    start = time.perf_counter()
    call()
    first = (time.perf_counter() - start) * 1e3
    plain_ms = statistics.median(plain)
    return {"kernel": name, "eager_first_ms": first, "plain_ms": plain_ms,
            "transpile_ms": first - plain_ms}


def _child_script(start):
    import transpiler as tp
    import kernels
    out = tp.jit(kernels.collatz_steps)(10)
    return {"script_ms": (time.perf_counter() - start) * 1e3, "result": out}


# -- parent ----------------------------------------------------------------------------------

def _run(args, script=__file__):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"child {' '.join(args)} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _kernel_names():
    sys.path.insert(0, HERE)
    import kernels
    return [fn.__name__ for fn, _, _ in kernels.KERNELS]


def measure(runs=3, only=("first_call", "transpile", "script")):
    names = _kernel_names()
    result = {}
    if "first_call" in only:
        fresh = os.path.join(HERE, "fresh_process.py")
        rows = {}
        for name in names:
            times = {"graphjit": [], "njit": []}
            for _ in range(runs):  # interleaved, so drift in the machine's load hits both
                for way in times:
                    child = _run(["kernel", name, way], script=fresh)
                    times[way].append(child["first_call_ms"])
            med = {way: statistics.median(t) for way, t in times.items()}
            rows[name] = {"graphjit_ms": med["graphjit"], "njit_ms": med["njit"],
                          "ratio": med["graphjit"] / med["njit"], "runs": times}
        result["first_call"] = rows
    if "transpile" in only:
        rows = {}
        for name in names + ["seed"]:
            times = [_run(["transpile", name])["transpile_ms"] for _ in range(runs)]
            rows[name] = {"transpile_ms": statistics.median(times), "runs": times}
        result["transpile"] = rows
    if "script" in only:
        times = [_run(["script"])["script_ms"] for _ in range(runs)]
        result["script"] = {"script_ms": statistics.median(times), "runs": times}
    return result


def show(result):
    if "first_call" in result:
        print("first call in a fresh process (medians, ms)")
        print(f"  {'kernel':28} {'graphjit':>9} {'njit':>9} {'gj/njit':>8}")
        for name, r in result["first_call"].items():
            print(f"  {name:28} {r['graphjit_ms']:9.1f} {r['njit_ms']:9.1f} {r['ratio']:8.2f}")
    if "transpile" in result:
        print("transpile (eager first call - plain call, fresh process, medians, ms)")
        for name, r in result["transpile"].items():
            print(f"  {name:28} {r['transpile_ms']:9.1f}")
    if "script" in result:
        print(f"script start to first result: {result['script']['script_ms']:.1f} ms")


def _main(argv):
    if argv[:1] == ["transpile"]:
        sys.path.insert(0, HERE)
        print(json.dumps(_child_transpile(argv[1])))
        return
    if argv[:1] == ["script"]:
        sys.path.insert(0, HERE)
        print(json.dumps(_child_script(_START)))
        return
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 3
    only = (argv[argv.index("--only") + 1].split(",") if "--only" in argv
            else ("first_call", "transpile", "script"))
    result = measure(runs, only)
    show(result)
    print(json.dumps(result))


if __name__ == "__main__":
    _main(sys.argv[1:])
