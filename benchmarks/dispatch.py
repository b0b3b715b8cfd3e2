"""Per-call dispatch overhead: a jitted call against ``numba.njit`` and against plain Python.

``measure()`` returns medians in microseconds per call. The ways are measured interleaved: each
round times a batch of ``BATCH`` calls of every way, in a shuffled order, so noise on a busy
machine hits them alike; the median is over rounds. The loop's own cost is in every way alike
and cancels in the differences (``*_over_*_us``).

- scalar: ``f(a, b) = a * b + 1`` compiled by graphjit (``tp.jit``) and by ``numba.njit``,
  called with Python floats, with np.float32 scalars and with a small float64 array;
  ``scalar8``, eight float arguments (the shape of numpy-benchmarks' ``hasting``), suffix ``_8``.
- fallback: a function graphjit does not convert (``try``) called through ``tp.jit``, against
  the plain function; and a convertible one called with an argument type compiled code cannot
  take (a list), against the plain function. Warnings go through Python's filters as usual
  (``"default"``: shown at the first call only); they are collected, not printed.

``python benchmarks/dispatch.py`` prints the numbers (``--rounds N`` for more rounds).
"""
import os
import random
import statistics
import sys
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numba  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.dirname(HERE) not in sys.path:
    sys.path.insert(0, os.path.dirname(HERE))

import transpiler as tp  # noqa: E402

ROUNDS = 200
BATCH = 200


def scalar(a, b):
    return a * b + 1


def scalar8(a, b, c, d, e, f, g, h):
    return a * b + c * d - e * f + g * h


def uses_try(a, b):
    try:
        return a * b + 1
    except TypeError:
        return 0


def takes_anything(a, b):
    return len(a) + b


def _batch(call, args, n):
    start = time.perf_counter()
    for _ in range(n):
        call(*args)
    return (time.perf_counter() - start) / n * 1e6


def _interleaved(ways, rounds, batch):
    """``ways``: name -> (callable, args). Medians of per-call microseconds over rounds."""
    times = {name: [] for name in ways}
    names = list(ways)
    shuffle = random.Random(0).shuffle
    for _ in range(rounds):
        shuffle(names)
        for name in names:
            call, args = ways[name]
            times[name].append(_batch(call, args, batch))
    return {name: statistics.median(values) for name, values in times.items()}


def measure(rounds=ROUNDS, batch=BATCH):
    """Per-call medians in microseconds (see the module docstring).

    Returns:
        dict: ``jit_scalar_us``, ``njit_scalar_us``, ``jit_over_njit_us`` (Python floats), the
        same with ``_f32`` (np.float32 scalars), ``_array`` (a float64 array of 4) and ``_8``
        (``scalar8``, eight Python floats) suffixes,
        ``fallback_us``, ``plain_us``, ``fallback_over_plain_us`` (a function that does not
        convert), ``refused_us``, ``refused_plain_us``, ``refused_over_plain_us`` (an argument
        type compiled code cannot take), ``warnings`` (the FallbackWarning messages shown).
    """
    jitted, njitted = tp.jit(scalar), numba.njit(scalar)
    jitted8, njitted8 = tp.jit(scalar8), numba.njit(scalar8)
    fallback, refused = tp.jit(uses_try), tp.jit(takes_anything)
    cases = {"": (1.5, 2.0), "_f32": (np.float32(1.5), np.float32(2.0)),
             "_array": (np.arange(4.0), 2.0)}
    shown = []
    with warnings.catch_warnings():
        warnings.simplefilter("default")   # Python's default: once per call site
        warnings.showwarning = lambda message, *rest, **kw: shown.append(str(message))
        ways = {}
        for suffix, args in cases.items():
            jitted(*args)
            njitted(*args)
            ways["jit" + suffix] = (jitted, args)
            ways["njit" + suffix] = (njitted, args)
        args8 = (1.5, 2.0, 0.5, 3.0, 1.25, 2.5, 0.75, 4.0)
        jitted8(*args8)
        njitted8(*args8)
        ways["jit_8"], ways["njit_8"] = (jitted8, args8), (njitted8, args8)
        ways["fallback"] = (fallback, (1.5, 2.0))
        ways["plain"] = (uses_try, (1.5, 2.0))
        ways["refused"] = (refused, ([1, 2], 2))
        ways["refused_plain"] = (takes_anything, ([1, 2], 2))
        medians = _interleaved(ways, rounds, batch)
    result = {}
    for suffix in list(cases) + ["_8"]:
        jit, njit = medians["jit" + suffix], medians["njit" + suffix]
        result[f"jit_scalar{suffix}_us"] = jit
        result[f"njit_scalar{suffix}_us"] = njit
        result[f"jit_over_njit{suffix}_us"] = jit - njit
    result["fallback_us"] = medians["fallback"]
    result["plain_us"] = medians["plain"]
    result["fallback_over_plain_us"] = medians["fallback"] - medians["plain"]
    result["refused_us"] = medians["refused"]
    result["refused_plain_us"] = medians["refused_plain"]
    result["refused_over_plain_us"] = medians["refused"] - medians["refused_plain"]
    result["warnings"] = shown
    return result


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--batch", type=int, default=BATCH)
    options = parser.parse_args(argv)
    result = measure(options.rounds, options.batch)
    width = max(len(k) for k in result)
    for key, value in result.items():
        if key == "warnings":
            continue
        print(f"{key:<{width}}  {value:8.3f}")
    for message in result["warnings"]:
        print("warning shown:", message.splitlines()[0][:160])


if __name__ == "__main__":
    main()
