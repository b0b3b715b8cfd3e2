"""Section 11 of ``make bench``: one training step of the seed network (forward, backward, SGD)
at batch 64 and 1 (issue 51). Ways, each on its own copy of the same weights, called
round-robin: NumPy by hand (the backward written out), ``nn.TrainOneStepCell`` in
PYNATIVE_MODE and in GRAPH_MODE (``tp.value_and_grad`` made by the adjoint pass, SGD in place),
and ``jax.jit`` of ``value_and_grad`` + SGD where JAX is installed. Goals: GRAPH_MODE <= 0.95x
the hand-written step, first call <= 0.5 s. The first step's loss and gradients are compared
with the hand-written ones."""
import os
import sys
import time

import numpy as np

import seed
import transpiler as tp
from common import (first_call, interleaved_medians, jax_or_none, print_table, print_warnings,
                    ratio, recorded_warnings, rounds)
from transpiler import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "samples"))
from train_seed_network import numpy_step  # noqa: E402 - the sample's folder, first

ROUNDS = rounds(41)
LR = 0.01


def hand_step(x, labels, params):
    """Forward, backward and SGD of the seed network with cross entropy, written by hand
    (samples/train_seed_network.py's step, at this section's learning rate)."""
    return numpy_step(x, labels, params, LR)


def _jax_step(jax, jnp):
    def loss_fn(params, x, labels):
        w1, b1, w2, b2, w3, b3 = params
        a = x.reshape(x.shape[0], -1)
        a = jnp.maximum(a @ w1.T + b1, 0)
        a = jnp.maximum(a @ w2.T + b2, 0)
        z = a @ w3.T + b3
        logp = jax.nn.log_softmax(z, axis=1)
        return -jnp.mean(logp[jnp.arange(x.shape[0]), labels])

    @jax.jit
    def step(params, x, labels):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, labels)
        return loss, tuple(p - LR * g for p, g in zip(params, grads))
    return step


def bench_train():
    rows, caught, checks = [], [], []
    found = jax_or_none()
    for batch in (64, 1):
        rng = np.random.default_rng(batch)
        x = rng.standard_normal((batch, 1, 28, 28)).astype(np.float32)
        labels = rng.integers(0, 10, batch)
        nets = {name: seed.make_network(0) for name in ("hand", "pynative", "graph")}
        hand_params = list(seed.weights(nets["hand"]))
        steps = {}
        with recorded_warnings(caught):
            tp.set_context(mode=tp.PYNATIVE_MODE)
            started = time.perf_counter()
            steps["pynative"] = nn.TrainOneStepCell(
                nn.WithLossCell(nets["pynative"], nn.CrossEntropyLoss()),
                nn.SGD(nets["pynative"].trainable_params(), learning_rate=LR))
            tp.set_context(mode=tp.GRAPH_MODE)
            steps["graph"] = nn.TrainOneStepCell(
                nn.WithLossCell(nets["graph"], nn.CrossEntropyLoss()),
                nn.SGD(nets["graph"].trainable_params(), learning_rate=LR))
            # the gradient check, on fresh weights: graphjit's first step vs the hand's
            check_net = seed.make_network(0)
            vg = tp.value_and_grad(nn.WithLossCell(check_net, nn.CrossEntropyLoss()), None,
                                   check_net.trainable_params())
            want = seed.weights(seed.make_network(0))
            loss_g, grads = vg(x, labels)
            _, grads2 = vg(x, labels)         # the specialized (compiled) code
            want_grads = _hand_grads(x, labels, want)
            checks.append({"batch": batch, "max_rel_diff": max(
                float(np.max(np.abs(g - w)) / (np.max(np.abs(w)) or 1.0))
                for g, w in zip(grads2, want_grads)),
                "dtype": str(grads2[0].dtype),
                "explain": str(vg.explain()).splitlines()[-1].strip()[:90]})
            ways = {
                "NumPy by hand": (None, lambda: hand_step(x, labels, hand_params)),
                "PYNATIVE_MODE": (lambda: tp.set_context(mode=tp.PYNATIVE_MODE),
                                  lambda: steps["pynative"](x, labels)),
                "GRAPH_MODE": (lambda: tp.set_context(mode=tp.GRAPH_MODE),
                               lambda: steps["graph"](x, labels)),
            }
            if found is not None:
                jax, jnp = found
                jstep = _jax_step(jax, jnp)
                state = [tuple(jnp.asarray(p) for p in seed.weights(seed.make_network(0)))]

                def run_jax():
                    loss, state[0] = jstep(state[0], x, labels)
                    return float(loss)
                ways["jax.jit"] = (None, run_jax)
            firsts = {}
            for name, (prepare, call) in ways.items():
                if prepare is not None:
                    prepare()
                firsts[name], _ = first_call(call)
                if name in ("PYNATIVE_MODE", "GRAPH_MODE"):   # the second call: specialized
                    firsts[name + " 2nd"], _ = first_call(call)
            medians = interleaved_medians(ways, ROUNDS, warm=2)
            tp.set_context(mode=tp.PYNATIVE_MODE)
            del started
        for name in ways:
            rows.append({"batch": batch, "way": name, "first_ms": firsts[name],
                         "second_ms": firsts.get(name + " 2nd"),
                         "median_ms": medians[name],
                         "ratio_to_hand": medians[name] / medians["NumPy by hand"]})
    return {"rows": rows, "checks": checks, "warnings": caught}


def _hand_grads(x, labels, params):
    copies = [p.copy() for p in params]
    before = [p.copy() for p in copies]
    hand_step(x, labels, copies)
    return [(b - a) / LR for a, b in zip(copies, before)]


def show_train(data):
    rows = data["rows"]
    print_table(
        "11. Training step of the seed network (forward, backward, SGD in place), float32, "
        "cross entropy",
        f"   ms per step: first call, second call (graphjit specializes its gradient code on "
        f"the first call's shapes), median of {ROUNDS} later steps, ways interleaved; "
        "/ hand = median / NumPy by hand's",
        ["batch", "way", "first ms", "2nd ms", "median ms", "/ hand"],
        [[r["batch"], r["way"], r["first_ms"], r["second_ms"] if r["second_ms"] is not None
          else "", r["median_ms"], f"{r['ratio_to_hand']:.2f}"] for r in rows], "rlrrrr")
    for c in data["checks"]:
        print(f"   batch {c['batch']}: gradients vs the hand-written backward: max relative "
              f"difference {c['max_rel_diff']:.1e} ({c['dtype']}); {c['explain']}")
    for batch in (64, 1):
        median = {r["way"]: r["median_ms"] for r in rows if r["batch"] == batch}
        by_jax = (f", GRAPH_MODE / jax.jit = {ratio(median['GRAPH_MODE'], median['jax.jit'])}"
                  if "jax.jit" in median else ", jax: not installed")
        print(f"   batch {batch}: GRAPH_MODE / hand = "
              f"{ratio(median['GRAPH_MODE'], median['NumPy by hand'])} (goal <= 0.95)"
              f"{by_jax}")
    print_warnings(data["warnings"])
