"""Parallel loops whose iterations may raise, the raise deferred
(backends/parallel_deferred.py): each iteration sets a flag where graphjit's helper would
raise; after the loop, a set flag copies the stored arrays back and runs the serial loop, so
the exception and every store before it are Python's. Each case is compared with the plain
call (values, dtypes, argument mutation, exception type) by ``check``."""
import numpy as np
import pytest

import parallel_functions as P
from test_parallel import check, loop_rows, low_threshold  # noqa: F401 - a fixture


def _rows(compiled):
    return [status for status, _ in loop_rows(compiled)]


def test_the_issues_loop_runs_in_parallel(low_threshold):  # noqa: F811
    x = np.random.default_rng(0).standard_normal(5000)
    compiled = check(P.sqrt_sin, x, np.zeros_like(x))
    (status, why), = loop_rows(compiled)
    assert status == "parallel" and "serial loop run again" in why


@pytest.mark.parametrize("where", [0, 1, 2500, 4998, 4999])
@pytest.mark.parametrize("bad", [float("inf"), -float("inf")])
def test_a_raise_anywhere_is_pythons(low_threshold, where, bad):  # noqa: F811
    """sin(inf) raises ValueError at ``where``; the elements before it are stored, the others
    keep the sentinel the caller put there (not the parallel loop's values)."""
    x = np.random.default_rng(1).standard_normal(5000)
    x[where] = bad
    compiled = check(P.sqrt_sin, x, np.full_like(x, 7.0))
    assert _rows(compiled) == ["parallel"]


def test_several_raising_iterations(low_threshold):  # noqa: F811
    x = np.abs(np.random.default_rng(2).standard_normal(4000)) + 0.5
    x[[10, 900, 3999]] = -1.0
    check(P.log_rows, x.reshape(40, 100), np.full((40, 100), -3.0))
    x[[10, 900, 3999]] = 0.0      # log(0): ValueError in Python, -inf in NumPy
    check(P.log_rows, x.reshape(40, 100), np.full((40, 100), -3.0))
    x[[10, 900, 3999]] = 2.0
    compiled = check(P.log_rows, x.reshape(40, 100), np.full((40, 100), -3.0))
    assert _rows(compiled)[0] == "parallel"


def test_reductions_and_user_raises_stay_serial(low_threshold):  # noqa: F811
    a = np.abs(np.random.default_rng(3).standard_normal(100))
    (status, why), = loop_rows(check(P.sqrt_sum, a))
    assert status == "serial"
    a[50] = -1.0
    (status, why), = loop_rows(check(P.user_raise, a, np.zeros_like(a)))
    assert status == "serial" and "may raise" in why


def test_float32_and_views(low_threshold):  # noqa: F811
    x = np.random.default_rng(4).standard_normal(6000).astype(np.float32)
    check(P.sqrt_sin, x, np.zeros_like(x))
    base = np.random.default_rng(5).standard_normal(12000)
    out = np.zeros(12000)
    check(P.sqrt_sin, base[::2], out[1::2])
    base[4000] = np.inf
    check(P.sqrt_sin, base[::2], out[1::2])


def test_an_array_made_here_and_read_is_restored(low_threshold):  # noqa: F811
    x = np.linspace(0.5, 3.0, 300)
    x[150] = -1.0
    compiled = check(P.made_and_read, x, np.full(300, 7.0))
    assert _rows(compiled) == ["parallel"]
    x[150] = 1.0
    check(P.made_and_read, x, np.full(300, 7.0))


def test_a_loop_whose_end_a_value_decides_is_not_deferred(low_threshold):  # noqa: F811
    x = np.full(300, 0.5)
    x[7] = 5.0      # 5 -> 1.73 -> sqrt(-0.27): ValueError (deferred, the while would spin)
    (status, why), = loop_rows(check(P.sqrt_until, x, np.zeros(300)))
    assert status == "serial" and "may raise" in why
