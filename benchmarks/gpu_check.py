"""``make gpu-check``: the numba-cuda backend on a real GPU against the CPU backend.

Runs the seed network (batch 64, float32) and three kernels -- an element-wise function, an
independent loop, pairwise distances (an independent outer loop) -- compiled for the GPU and for
the CPU, checks that they agree (float32 tolerance: the GPU sums matmuls in another order),
and times both (medians of repeated calls, side by side in one run). With no usable GPU it says
so plainly, times the CPU side alone, and exits 0. Exits 1 if a GPU result disagrees.
"""
import math
import os
import statistics
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import transpiler as tp  # noqa: E402
from benchmarks.seed import make_network  # noqa: E402
from transpiler.errors import FallbackWarning  # noqa: E402

REPEATS = 20


def scaled_exp(x, y):
    """Element-wise: a device function over the arrays."""
    return x * 2.0 + np.exp(y) - np.maximum(x, y)


def saxpy_sqrt(a, x, y, out):
    """Independent loop: one thread per iteration."""
    for i in range(x.shape[0]):
        out[i] = a * x[i] + y[i] + math.sqrt(abs(x[i]))
    return out


def pairwise(points, d):
    """Independent outer loop, inner loops per thread."""
    for i in range(points.shape[0]):
        for j in range(points.shape[0]):
            acc = 0.0
            for k in range(points.shape[1]):
                diff = points[i, k] - points[j, k]
                acc += diff * diff
            d[i, j] = math.sqrt(acc)
    return d


def median_time(call):
    """(first call in seconds, median of REPEATS later calls in seconds, last result)."""
    start = time.perf_counter()
    result = call()
    first = time.perf_counter() - start
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
    return first, statistics.median(times), result


def gpu_status():
    """(usable, why): whether numba.cuda has a GPU to run on."""
    try:
        from numba import cuda
    except ImportError as exc:
        return False, f"numba-cuda is not installed ({exc})"
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False, "NUMBA_ENABLE_CUDASIM=1 (the simulator is not a GPU)"
    try:
        if cuda.is_available():
            device = cuda.get_current_device()
            return True, f"{device.name.decode() if isinstance(device.name, bytes) else device.name}"
    except Exception as exc:  # noqa: BLE001 - reported as the reason
        return False, f"{type(exc).__name__}: {exc}"
    return False, "numba.cuda.is_available() is False (no CUDA driver or device)"


def cases():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(1 << 20).astype(np.float32)
    y = rng.standard_normal(1 << 20).astype(np.float32)
    points = rng.standard_normal((512, 16))
    yield "element-wise x*2 + exp(y) - max(x, y), 2^20 float32", scaled_exp, lambda: (x, y)
    yield "independent loop a*x + y + sqrt|x|, 2^20 float32", saxpy_sqrt, \
        lambda: (2.0, x, y, np.zeros_like(x))
    yield "pairwise distances 512x16 float64", pairwise, \
        lambda: (points, np.zeros((512, 512)))


def main():
    usable, why = gpu_status()
    print(f"gpu-check: {'GPU: ' + why if usable else 'NO GPU: ' + why}")
    if not usable:
        print("gpu-check: this is the CPU-only run; nothing ran on a GPU. The simulator and "
              "compile-only tiers are in make test (tests/test_cuda.py).")
    backends = ["numba-cpu"] + (["numba-cuda"] if usable else [])
    failures = 0
    rows = []
    net = make_network(0)
    batch = np.ones((64, 1, 28, 28), np.float32)
    results = {}
    for backend in backends:
        tp.set_context(mode=tp.GRAPH_MODE, device_target="GPU" if backend == "numba-cuda"
                       else "CPU")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", FallbackWarning)
            first, later, result = median_time(lambda: net(batch))
        results[backend] = result
        rows.append(("seed network, batch 64", backend, first, later,
                     "; ".join(sorted({str(w.message)[:120] for w in caught}))))
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    if usable and not np.allclose(results["numba-cuda"], results["numba-cpu"], rtol=1e-4,
                                  atol=1e-5):
        failures += 1
        rows.append(("seed network", "MISMATCH", 0, 0, "GPU result differs from the CPU's"))
    for title, fn, make in cases():
        outs = {}
        for backend in backends:
            jitted = tp.jit(fn, backend=backend)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", FallbackWarning)
                first, later, result = median_time(lambda: jitted(*make()))
            outs[backend] = result
            rows.append((title, backend, first, later,
                         "; ".join(sorted({str(w.message)[:120] for w in caught}))))
        if usable and not np.allclose(outs["numba-cuda"], outs["numba-cpu"], rtol=1e-5,
                                      atol=1e-6):
            failures += 1
            rows.append((title, "MISMATCH", 0, 0, "GPU result differs from the CPU's"))
    print(f"{'case':<52} {'backend':<11} {'first call s':>12} {'median ms':>10}  notes")
    for title, backend, first, later, notes in rows:
        print(f"{title:<52} {backend:<11} {first:>12.3f} {later * 1e3:>10.3f}  {notes}")
    if usable:
        print("gpu-check: GPU results agree with the CPU backend" if not failures else
              f"gpu-check: {failures} GPU result(s) DISAGREE with the CPU backend")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
