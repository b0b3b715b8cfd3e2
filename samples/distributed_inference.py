"""The seed network's batch inference on a Dask cluster, beside one process.

The network (samples/static_graph.py's: Flatten, Dense(784, 512), ReLU, Dense(512, 512), ReLU,
Dense(512, 10), float32) is scattered to the workers once; each batch is one task, a GRAPH_MODE
call of the network, compiled in the worker (once per worker). Printed: images per second in
this process and on 1 and 2 local worker processes, the largest difference from this process's
results, and what each worker compiled (asked of the workers).

Run: ``python samples/distributed_inference.py`` (needs ``pip install -e '.[distributed]'``).
On a real cluster: ``--scheduler tcp://host:8786`` (every worker needs graphjit and the
distributed extra installed; the network travels by value, this file need not be there).
"""
import argparse
import os
import time

# One BLAS thread per process: workers are the parallelism here (they inherit this setting).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - after the BLAS setting

import transpiler as tp  # noqa: E402
from transpiler import nn  # noqa: E402


class Network(nn.Cell):
    """The seed network (samples/static_graph.py); defined here so that it travels by value."""

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


def infer(net, batch):
    """One task: the logits of ``batch`` (GRAPH_MODE is set on every worker beforehand)."""
    return net(batch)


def compiled_here():
    """Run in a worker: how many specializations the GRAPH_MODE function of Network holds."""
    from transpiler.nn.cell import _graph_function
    rows = _graph_function(Network.construct).explain().rows
    return sum(row.status == "compiled" for row in rows)


def single_process(net, batches):
    tp.set_context(mode=tp.GRAPH_MODE)
    net(batches[0])                          # transpile and compile
    start = time.perf_counter()
    outs = [net(b) for b in batches]
    return time.perf_counter() - start, outs


def on_cluster(client, net, batches):
    client.run(tp.set_context, mode=tp.GRAPH_MODE)   # the context is per process
    [remote] = client.scatter([net], broadcast=True)
    workers = list(client.scheduler_info()["workers"])
    # Warm up: one call per worker compiles there (not timed, as in one process).
    client.gather([client.submit(infer, remote, batches[0], workers=[w], pure=False)
                   for w in workers])
    data = client.scatter(batches)                    # the inputs are there before timing
    start = time.perf_counter()
    outs = client.gather([client.submit(infer, remote, b, pure=False) for b in data])
    seconds = time.perf_counter() - start
    return seconds, outs, client.run(compiled_here)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scheduler", help="address of a running scheduler (default: local "
                        "clusters of 1 and 2 worker processes)")
    parser.add_argument("--batches", type=int, default=48)
    parser.add_argument("--batch-size", type=int, default=256)
    args = parser.parse_args()

    import distributed

    nn.set_seed(0)
    net = Network()
    rng = np.random.default_rng(0)
    batches = [rng.standard_normal((args.batch_size, 1, 28, 28), dtype=np.float32)
               for _ in range(args.batches)]
    images = args.batches * args.batch_size

    seconds, reference = single_process(net, batches)
    rows = [("this process", "-", seconds, 0.0, "")]
    setups = [("scheduler", None)] if args.scheduler else [("LocalCluster", 1),
                                                           ("LocalCluster", 2)]
    for name, n in setups:
        if n is None:
            cluster = None
            client = distributed.Client(args.scheduler)
        else:
            cluster = distributed.LocalCluster(n_workers=n, threads_per_worker=1,
                                               processes=True, dashboard_address=":0")
            client = distributed.Client(cluster)
        with client:
            try:
                import bokeh  # noqa: F401 - the dashboard needs it
                print(f"{name} ({n or 'its'} workers): dashboard at {client.dashboard_link}")
            except ImportError:
                print(f"{name} ({n or 'its'} workers): no dashboard (pip install bokeh)")
            seconds, outs, compiled = on_cluster(client, net, batches)
            workers = len(compiled)
        if cluster is not None:
            cluster.close()
        diff = max(float(np.max(np.abs(o - r))) for o, r in zip(outs, reference))
        rows.append((name, workers, seconds, diff,
                     " ".join(f"{c}" for c in compiled.values())))

    print(f"\nSeed network, {args.batches} batches of {args.batch_size} float32 images, "
          f"GRAPH_MODE, BLAS threads {os.environ['OPENBLAS_NUM_THREADS']}, "
          f"{os.cpu_count()} CPUs")
    header = (f"{'where':<14}{'workers':>8}{'seconds':>9}{'images/s':>10}{'vs one':>8}"
              f"{'max|diff|':>11}  compiled per worker")
    print(header)
    print("-" * len(header))
    base = rows[0][2]
    for name, workers, seconds, diff, compiled in rows:
        print(f"{name:<14}{workers:>8}{seconds:>9.3f}{images / seconds:>10.0f}"
              f"{base / seconds:>8.2f}{diff:>11.1e}  {compiled}")


if __name__ == "__main__":
    main()
