"""Child script of ``make bench``: measures one thing in a fresh interpreter, prints one JSON line.

``fresh_process.py import MODULE``: milliseconds of ``import MODULE`` (perf_counter around the
import, the first thing the process does) and whether Numba is in ``sys.modules`` afterwards.

``fresh_process.py kernel NAME WAY``: the first call of kernels.NAME on its benchmark input, WAY
``graphjit`` (``tp.jit``) or ``njit`` (``numba.njit``), in milliseconds. Before it, both ways get
the same warm-up (one trivial ``tp.jit`` and one trivial ``numba.njit`` compile), so the time is
this kernel's transpile + compile only, not Numba's or graphjit's one-time start-up, and neither
way profits from the other having compiled the same operations first.

``fresh_process.py seed``: the seed network's first call in GRAPH_MODE on ones(64, 1, 28, 28)
float32, in milliseconds from just before ``net(x)`` to just after it, plus the time of the
imports and set-up before it. The parent sets ``GRAPHJIT_CACHE_DIR`` (an empty folder for a cold
run, the same folder again for a warm one) and ``GRAPHJIT_CACHE=1``; the child reports whether
graphjit honoured the switch and how many Numba cache files the folder holds after the call.
If this graphjit has no global cache switch yet, the child puts ``tp.jit(cache=True)`` on
``Network.construct`` instead and says so in ``cache_switch``.

``seed-njit``, ``seed-numpy`` and ``seed-jax`` make the same first call with the hand-written
baselines: ``numba.njit(cache=True)`` (``NUMBA_CACHE_DIR`` set by the parent), NumPy, and
``jax.jit`` of the NumPy code run with ``jax.numpy`` (its persistent compilation cache in
``GRAPHJIT_BENCH_JAX_CACHE`` when the parent sets it: cold and warm runs like graphjit's).
Every seed mode also reports ``script_ms``, script start to first result: from the parent's
wall clock just before it started this interpreter (``GRAPHJIT_BENCH_LAUNCHED``, ``time.time()``)
to just after the first result, so interpreter start-up and every import count, as they do for
``python seed.py``; and ``in_script_ms``, the same from the first line of this file.

Every mode also reports the warnings raised in the child (``warnings``) and whether graphjit fell
back to plain Python anywhere (``fell_back``).
"""
import time

SCRIPT_START = time.perf_counter()  # the first thing this file does

import glob  # noqa: E402 - after the clock
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402


def script_times():
    """``script_ms`` (from the parent's launch, see the docstring) and ``in_script_ms`` now."""
    now_wall, now = time.time(), time.perf_counter()
    launched = os.environ.get("GRAPHJIT_BENCH_LAUNCHED")
    return {"script_ms": (now_wall - float(launched)) * 1e3 if launched else float("nan"),
            "in_script_ms": (now - SCRIPT_START) * 1e3}


def import_time(name):
    start = time.perf_counter()
    __import__(name)
    elapsed = (time.perf_counter() - start) * 1e3
    return {"module": name, "import_ms": elapsed, "numba_loaded": "numba" in sys.modules}


def _warm_up(n):
    return n + 1


def kernel_first_call(name, way):
    import numba

    import kernels
    import transpiler as tp

    tp.jit(_warm_up)(1)
    numba.njit(_warm_up)(1)
    fn, args, _ = next(k for k in kernels.KERNELS if k[0].__name__ == name)
    compiled = tp.jit(fn) if way == "graphjit" else numba.njit(fn)
    start = time.perf_counter()
    compiled(*args)
    return {"kernel": name, "way": way, "first_call_ms": (time.perf_counter() - start) * 1e3}


def seed_first_call():
    start = time.perf_counter()

    import numpy as np

    import transpiler as tp
    import seed

    try:
        enabled = tp.get_context("enable_compile_cache")
        cache_switch = f"GRAPHJIT_CACHE=1 -> enable_compile_cache={enabled}"
    except ValueError:  # no global switch in this graphjit: cache this one function instead
        seed.Network.construct = tp.jit(seed.Network.construct, cache=True)
        cache_switch = "no global switch: jit(Network.construct, cache=True)"
    net = seed.make_network()
    x = np.ones((64, 1, 28, 28), np.float32)
    tp.set_context(mode=tp.GRAPH_MODE)
    setup_ms = (time.perf_counter() - start) * 1e3

    start = time.perf_counter()
    out = net(x)
    first_call_ms = (time.perf_counter() - start) * 1e3
    script = script_times()

    expected = seed.numpy_by_hand(x, *seed.weights(net))
    folder = os.environ.get("GRAPHJIT_CACHE_DIR", "")
    cache_files = len(glob.glob(os.path.join(folder, "**", "*.nb[ic]"), recursive=True))
    return {"setup_ms": setup_ms, "first_call_ms": first_call_ms, **script,
            "cache_switch": cache_switch,
            "numba_cache_files": cache_files,
            "max_abs_diff": float(np.max(np.abs(out - expected)))}


def seed_njit_first_call():
    """The same first call by hand-written ``numba.njit(cache=True)`` (NUMBA_CACHE_DIR set by
    the parent): the floor that Numba itself sets for any cached first call."""
    start = time.perf_counter()
    import numpy as np

    import seed
    net = seed.make_network()
    args = seed.weights(net)
    x = np.ones((64, 1, 28, 28), np.float32).reshape(64, -1)
    setup_ms = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    out = seed.njit_by_hand(cache=True)(x, *args)
    first_call_ms = (time.perf_counter() - start) * 1e3
    script = script_times()
    expected = seed.numpy_by_hand(x, *args)
    folder = os.environ.get("NUMBA_CACHE_DIR", "")
    cache_files = len(glob.glob(os.path.join(folder, "**", "*.nb[ic]"), recursive=True))
    return {"setup_ms": setup_ms, "first_call_ms": first_call_ms, **script,
            "cache_switch": "njit",
            "numba_cache_files": cache_files,
            "max_abs_diff": float(np.max(np.abs(out - expected)))}


def seed_numpy_first_call():
    """The same first call by the NumPy written by hand (no compile, nothing to cache)."""
    start = time.perf_counter()
    import numpy as np

    import seed
    net = seed.make_network()
    args = seed.weights(net)
    x = np.ones((64, 1, 28, 28), np.float32)
    setup_ms = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    seed.numpy_by_hand(x, *args)
    first_call_ms = (time.perf_counter() - start) * 1e3
    script = script_times()
    return {"setup_ms": setup_ms, "first_call_ms": first_call_ms, **script,
            "cache_switch": "numpy", "numba_cache_files": 0, "max_abs_diff": 0.0}


def seed_jax_first_call():
    """The same first call by ``jax.jit`` of the NumPy code run with ``jax.numpy``; with
    ``GRAPHJIT_BENCH_JAX_CACHE`` set, JAX's persistent compilation cache is kept there (every
    entry, however quick its compile)."""
    start = time.perf_counter()
    import numpy as np

    import jax
    import jax.numpy as jnp

    import array_kernels
    import seed
    folder = os.environ.get("GRAPHJIT_BENCH_JAX_CACHE")
    if folder:
        jax.config.update("jax_compilation_cache_dir", folder)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    net = seed.make_network()
    args = seed.weights(net)
    x = np.ones((64, 1, 28, 28), np.float32)
    by_jax = jax.jit(array_kernels.with_numpy_module(seed.numpy_by_hand, jnp))
    setup_ms = (time.perf_counter() - start) * 1e3
    start = time.perf_counter()
    out = np.asarray(by_jax(x, *args))  # waits for the result and brings it back
    first_call_ms = (time.perf_counter() - start) * 1e3
    script = script_times()
    expected = seed.numpy_by_hand(x, *args)
    cache_files = len(os.listdir(folder)) if folder and os.path.isdir(folder) else 0
    return {"setup_ms": setup_ms, "first_call_ms": first_call_ms, **script,
            "cache_switch": "jax", "numba_cache_files": cache_files,
            "max_abs_diff": float(np.max(np.abs(out - expected)))}


def main(argv):
    if argv[:1] == ["import"]:
        return import_time(argv[1])
    if argv[:1] == ["kernel"]:
        return kernel_first_call(argv[1], argv[2])
    if argv == ["seed"]:
        return seed_first_call()
    if argv == ["seed-njit"]:
        return seed_njit_first_call()
    if argv == ["seed-numpy"]:
        return seed_numpy_first_call()
    if argv == ["seed-jax"]:
        return seed_jax_first_call()
    sys.exit("usage: fresh_process.py import MODULE | kernel NAME WAY | "
             "seed | seed-njit | seed-numpy | seed-jax")


if __name__ == "__main__":
    with warnings.catch_warnings(record=True) as caught:  # reported in the result, not lost
        warnings.simplefilter("always")
        result = main(sys.argv[1:])
    result["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
    result["fell_back"] = any(w.category.__name__ == "FallbackWarning" for w in caught)
    print(json.dumps(result))
