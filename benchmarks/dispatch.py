"""Per-call dispatch cost for ``make bench``: ``measure() -> dict`` of microseconds per call.

A scalar function called through ``tp.jit`` and through ``numba.njit`` (their difference is
graphjit's dispatch: argument-type key, guards, re-boxing), and a function that cannot compile
(a dict) called through ``tp.jit``, a fallen-back specialization, beside the plain call.
Keys: jit_scalar_us, njit_scalar_us, jit_over_njit_us, fallback_us, plain_us,
fallback_over_plain_us. Each is the best of several repeats of a timed loop of calls.
"""
import time
import warnings

CALLS = 20_000
REPEATS = 7


def scalar(x, y):
    return x * y + 1.0


def falls_back(x, y):
    table = {"x": x, "y": y}  # a dict: runs as plain Python
    return table["x"] * table["y"] + 1.0


def per_call_us(fn, calls=CALLS, repeats=REPEATS):
    """Best of ``repeats`` timed loops of ``calls`` calls, in microseconds per call."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn(2.0, 3.0)
        best = min(best, (time.perf_counter() - start) / calls * 1e6)
    return best


def measure(calls=CALLS, repeats=REPEATS):
    import numba

    import transpiler as tp
    jitted = tp.jit(scalar)
    njitted = numba.njit(scalar)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)  # the fallback is the point here
        fallback = tp.jit(falls_back)
        fallback(2.0, 3.0)
    jitted(2.0, 3.0)
    njitted(2.0, 3.0)
    times = {name: per_call_us(fn, calls, repeats)
             for name, fn in (("jit_scalar_us", jitted), ("njit_scalar_us", njitted),
                              ("fallback_us", fallback), ("plain_us", falls_back))}
    times["jit_over_njit_us"] = times["jit_scalar_us"] - times["njit_scalar_us"]
    times["fallback_over_plain_us"] = times["fallback_us"] - times["plain_us"]
    return times


if __name__ == "__main__":
    for key, value in measure().items():
        print(f"{key}: {value:.3f}")
