"""The seed network, run four ways, beside NumPy by hand and a compiled loop kernel.

Run with ``make demo``. The network is MindSpore's quick-start model: Flatten, Dense(784, 512),
ReLU, Dense(512, 512), ReLU, Dense(512, 10), on ``ones(64, 1, 28, 28)`` float32.

Columns: first call (ms, includes transpiling and compiling), median of 100 later calls (ms),
max |difference| from PYNATIVE, output shape and dtype. Then the seed's first form, the model
made inside the jitted function (``run_fresh``): it runs as Python, its forward compiled.
"""
import os
import statistics
import time
import warnings

# One BLAS thread: NumPy's OpenBLAS and the one Numba calls (SciPy's) otherwise spin against
# each other on a small machine when eager and compiled calls alternate (README, Known gaps).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - after the BLAS setting

import transpiler as tp  # noqa: E402
from transpiler import nn  # noqa: E402

LATER_CALLS = 100


class Network(nn.Cell):
    """The seed network; ``construct`` runs eagerly in PYNATIVE_MODE."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(),
            nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


class JitNetwork(Network):
    """The same network with ``@jit`` on ``construct``: compiled in either mode."""

    @tp.jit
    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def run_fresh(x):
    """The seed's own first form: the model made inside the jitted function. Creating it
    runs as Python (fresh weights each call, as plainly); its forward runs compiled."""
    model = Network()
    return model(x)


def numpy_by_hand(layers, x):
    """The same computation written directly in NumPy, on the same weight arrays."""
    d1, d2, d3 = layers[0], layers[2], layers[4]
    x = x.reshape((x.shape[0], -1))
    x = np.maximum(x @ d1.weight.T + d1.bias, 0)
    x = np.maximum(x @ d2.weight.T + d2.bias, 0)
    return x @ d3.weight.T + d3.bias


def collatz_steps(limit):
    """A loop kernel: a while loop with a data-dependent branch (total Collatz steps)."""
    total = 0
    n = 1
    while n < limit:
        k = n
        while k != 1:
            if k % 2 == 0:
                k = k // 2
            else:
                k = 3 * k + 1
            total += 1
        n += 1
    return total


def measure(call, reference=None, calls=LATER_CALLS):
    """(first call ms, median later call ms, output, max |diff| from reference)."""
    start = time.perf_counter()
    out = call()
    first = (time.perf_counter() - start) * 1e3
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1e3)
    diff = "" if reference is None else float(np.max(np.abs(np.asarray(out, np.float64)
                                                            - np.asarray(reference, np.float64))))
    return first, statistics.median(times), out, diff


def main():
    nn.set_seed(0)
    net = Network()
    jit_net = JitNetwork()
    jit_net.flatten = net.flatten                          # the same layers, the same weights
    jit_net.dense_relu_sequential = net.dense_relu_sequential
    x = np.ones((64, 1, 28, 28), np.float32)

    def run(x):
        return net(x)
    jit_run = tp.jit(run)

    rows = []
    tp.set_context(mode=tp.PYNATIVE_MODE)
    first, median, reference, _ = measure(lambda: net(x))
    rows.append(("PYNATIVE_MODE (eager)", first, median, reference, 0.0))
    tp.set_context(mode=tp.GRAPH_MODE)
    first, median, out, diff = measure(lambda: net(x), reference)
    rows.append(("GRAPH_MODE", first, median, out, diff))
    tp.set_context(mode=tp.PYNATIVE_MODE)
    first, median, out, diff = measure(lambda: jit_net(x), reference)
    rows.append(("@jit on construct", first, median, out, diff))
    first, median, out, diff = measure(lambda: jit_run(x), reference)
    rows.append(("jit(run)", first, median, out, diff))
    first, median, out, diff = measure(
        lambda: numpy_by_hand(net.dense_relu_sequential.cell_list, x), reference)
    rows.append(("NumPy by hand", first, median, out, diff))
    jit_fresh = tp.jit(run_fresh)
    with warnings.catch_warnings():     # run itself falls back (it creates the Network)
        warnings.simplefilter("ignore", tp.FallbackWarning)
        first_plain, median_plain, _, _ = measure(lambda: run_fresh(x), calls=20)
        nn.set_seed(1)
        plain_fresh = run_fresh(x)
        nn.set_seed(1)
        first, median, out, _ = measure(lambda: jit_fresh(x), calls=20)
        nn.set_seed(1)
        diff = float(np.max(np.abs(jit_fresh(x) - plain_fresh)))
    fresh_rows = [("run_fresh, plain", first_plain, median_plain, plain_fresh, 0.0),
                  ("jit(run_fresh)", first, median, out, diff)]
    forward = [r for r in jit_fresh.explain().rows if r.region == "call"]

    print("Seed network: Flatten, Dense(784,512), ReLU, Dense(512,512), ReLU, Dense(512,10);"
          " input ones(64,1,28,28) float32; BLAS threads "
          f"{os.environ['OPENBLAS_NUM_THREADS']}")
    header = f"{'way':<24}{'first (ms)':>12}{'median (ms)':>13}{'max|diff|':>11}  {'shape':<9}dtype"
    print(header)
    print("-" * len(header))
    for name, first, median, out, diff in rows:
        print(f"{name:<24}{first:>12.2f}{median:>13.3f}{diff:>11.1e}  "
              f"{str(out.shape):<9}{out.dtype}")
    graph = rows[1][2]
    by_hand = rows[4][2]
    print(f"GRAPH_MODE median / NumPy-by-hand median: {graph / by_hand:.2f}")
    print()
    print("The seed's first form, `model = Network(); return model(x)` inside the function "
          "(creating the network, with its random weights, is most of each call; max|diff| "
          "against the plain call from the same seed):")
    for name, first, median, out, diff in fresh_rows:
        print(f"{name:<24}{first:>12.2f}{median:>13.3f}{diff:>11.1e}  "
              f"{str(out.shape):<9}{out.dtype}")
    print("  " + (forward[0].reason if forward else "the forward did not run compiled"))

    limit = 20000
    compiled = tp.jit(collatz_steps)
    first_py, median_py, out_py, _ = measure(lambda: collatz_steps(limit), calls=5)
    first_jit, median_jit, out_jit, _ = measure(lambda: compiled(limit), calls=LATER_CALLS)
    print()
    print(f"Loop kernel (while loop with a data-dependent branch), collatz_steps({limit}):")
    print(f"{'way':<24}{'first (ms)':>12}{'median (ms)':>13}  result")
    print(f"{'plain Python':<24}{first_py:>12.2f}{median_py:>13.3f}  {out_py}")
    print(f"{'@jit':<24}{first_jit:>12.2f}{median_jit:>13.3f}  {out_jit}")
    print(f"speed-up of later calls: {median_py / median_jit:.0f}x; results equal: "
          f"{out_py == out_jit}")
    tp.set_context(mode=tp.PYNATIVE_MODE)


if __name__ == "__main__":
    main()
