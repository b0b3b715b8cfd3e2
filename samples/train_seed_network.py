"""Train the seed network with graphjit's gradients, beside the same step written in NumPy.

Run with ``make demo`` (after the inference demo) or ``.venv/bin/python
samples/train_seed_network.py [--epochs N] [--mode graph|pynative]``.

The data is a small synthetic image set made here (no download): ten classes, each a fixed
random 28x28 pattern, every image its class's pattern plus noise. The model is the seed network
(Flatten, Dense(784, 512), ReLU, Dense(512, 512), ReLU, Dense(512, 10)); the step is
MindSpore's ``TrainOneStepCell(WithLossCell(net, CrossEntropyLoss()), SGD(...))``, whose
gradient ``tp.value_and_grad`` makes source to source from the Cells' ``construct`` methods.
Each epoch prints the mean loss, the accuracy on held-out images, and the median time of a
step beside a NumPy step written by hand on a copy of the same weights.
"""
import argparse
import os
import statistics
import time

# One BLAS thread (see samples/static_graph.py)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import transpiler as tp  # noqa: E402
from transpiler import nn  # noqa: E402

LEARNING_RATE = 0.05
BATCH = 64


class Network(nn.Cell):
    """The seed network."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512), nn.ReLU(),
            nn.Dense(512, 512), nn.ReLU(),
            nn.Dense(512, 10))

    def construct(self, x):
        x = self.flatten(x)
        return self.dense_relu_sequential(x)


def synthetic_images(count, seed):
    """``count`` images (count, 1, 28, 28) float32 and their labels (count,) int64."""
    patterns = np.random.default_rng(1234).standard_normal((10, 1, 28, 28))
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, count)
    images = patterns[labels] * 0.25 + rng.standard_normal((count, 1, 28, 28))
    return images.astype(np.float32), labels


def numpy_step(x, labels, params, learning_rate=LEARNING_RATE):
    """The same training step written by hand: forward, backward, SGD in place; returns the
    loss (before the update). ``make bench`` section 11 measures against it too."""
    w1, b1, w2, b2, w3, b3 = params
    n = x.shape[0]
    a0 = x.reshape(n, -1)
    z1 = a0 @ w1.T + b1
    a1 = np.maximum(z1, 0)
    z2 = a1 @ w2.T + b2
    a2 = np.maximum(z2, 0)
    z3 = a2 @ w3.T + b3
    s = z3 - z3.max(axis=1, keepdims=True)
    e = np.exp(s)
    p = e / e.sum(axis=1, keepdims=True)
    loss = -np.log(p[np.arange(n), labels]).mean()
    d3 = (p - (labels[:, None] == np.arange(10))) / n
    dz2 = (d3 @ w3) * (z2 > 0)
    dz1 = (dz2 @ w2) * (z1 > 0)
    for param, grad in zip(params, (dz1.T @ a0, dz1.sum(0), dz2.T @ a1, dz2.sum(0),
                                    d3.T @ a2, d3.sum(0))):
        param -= learning_rate * grad
    return loss


def accuracy(net, images, labels):
    return float(np.mean(np.argmax(net(images), axis=1) == labels))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--mode", choices=("graph", "pynative"), default="graph")
    args = parser.parse_args()
    tp.set_context(mode=tp.GRAPH_MODE if args.mode == "graph" else tp.PYNATIVE_MODE)
    train_x, train_y = synthetic_images(1024, seed=0)
    test_x, test_y = synthetic_images(512, seed=1)

    nn.set_seed(0)
    net = Network()
    by_hand = [p.copy() for p in net.trainable_params()]
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                               nn.SGD(net.trainable_params(), learning_rate=LEARNING_RATE))
    started = time.perf_counter()
    step(train_x[:BATCH], train_y[:BATCH])
    first = time.perf_counter() - started
    numpy_step(train_x[:BATCH], train_y[:BATCH], by_hand)     # the same first step
    print(f"seed network, {args.mode.upper()}_MODE, SGD(learning_rate={LEARNING_RATE}), batch "
          f"{BATCH}, {len(train_x)} synthetic training images; first step {first * 1e3:.0f} ms "
          "(transpile, differentiate, run)")
    print(f"{'epoch':>5}  {'loss':>7}  {'accuracy':>8}  {'graphjit ms':>11}  "
          f"{'NumPy by hand ms':>16}  {'same loss':>9}")
    for epoch in range(1, args.epochs + 1):
        order = np.random.default_rng(epoch).permutation(len(train_x))
        losses, ours, hands, diffs = [], [], [], []
        for start in range(0, len(order) - BATCH + 1, BATCH):
            batch = order[start:start + BATCH]
            x, y = train_x[batch], train_y[batch]
            t0 = time.perf_counter()
            loss = step(x, y)
            t1 = time.perf_counter()
            hand_loss = numpy_step(x, y, by_hand)
            t2 = time.perf_counter()
            losses.append(float(loss))
            ours.append(t1 - t0)
            hands.append(t2 - t1)
            diffs.append(abs(float(loss) - float(hand_loss)))
        print(f"{epoch:>5}  {statistics.mean(losses):7.4f}  "
              f"{accuracy(net, test_x, test_y):8.3f}  {statistics.median(ours) * 1e3:11.2f}  "
              f"{statistics.median(hands) * 1e3:16.2f}  {max(diffs):9.1e}")


if __name__ == "__main__":
    main()
