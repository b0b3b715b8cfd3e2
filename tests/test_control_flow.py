"""Each control-flow form, compiled vs plain: equal values, dtypes, mutation, exceptions."""
import numpy as np
import pytest

from reference import assert_compiles_same


def if_elif_else(x):
    if x > 10:
        y = x * 2
    elif x > 0:
        y = x + 1
    else:
        y = -x
    return y


def while_loop(n):
    total = 0
    i = 0
    while i < n:
        total += i * i
        i += 1
    return total


def for_range_break_continue(a):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            continue
        if a[i] > 100:
            break
        s += a[i]
    return s


def early_return_in_loop(a, target):
    for i in range(len(a)):
        if a[i] == target:
            return i
    return -1


def nested_loops_break(n):
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            count += 1
    return count


def for_else(n, stop):
    found = -1
    for i in range(n):
        if i == stop:
            found = i
            break
    else:
        found = 1000
    return found


def while_with_data_dependent_branch(a):
    i = 0
    acc = np.float32(0)
    while i < a.shape[0]:
        if a[i] > acc:
            acc = a[i]
        else:
            acc = acc * np.float32(0.5)
        i += 1
    return acc


def mutate_argument(a):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2 + i
    return a.sum()


def raises_value_error(x):
    if x < 0:
        raise ValueError("negative")
    return x


def range_with_step(n):
    out = 0
    for i in range(n, 0, -2):
        out = out * 3 + i
    return out


def array_result(a, b):
    c = np.empty_like(a)
    for i in range(a.shape[0]):
        c[i] = a[i] if a[i] > b[i] else b[i]
    return c


def early_return_then_loop_with_branch(n):
    if n < 0:
        return 0
    s = 0
    for i in range(n):
        if i > 2:
            s += i
    return s


CASES = [
    (early_return_then_loop_with_branch, (10,)), (early_return_then_loop_with_branch, (-1,)),
    (if_elif_else, (20,)), (if_elif_else, (5,)), (if_elif_else, (-3,)),
    (if_elif_else, (2.5,)),
    (while_loop, (10,)), (while_loop, (0,)),
    (for_range_break_continue, (np.array([1.0, -2.0, 3.0, 200.0, 4.0]),)),
    (for_range_break_continue, (np.array([], dtype=np.float64),)),
    (early_return_in_loop, (np.array([3, 5, 7]), 5)),
    (early_return_in_loop, (np.array([3, 5, 7]), 4)),
    (nested_loops_break, (6,)),
    (for_else, (5, 3)), (for_else, (5, 9)),
    (while_with_data_dependent_branch, (np.array([1, 3, 2, 5, 0], np.float32),)),
    (mutate_argument, (np.arange(5.0),)),
    (raises_value_error, (3,)), (raises_value_error, (-3,)),
    (range_with_step, (9,)),
    (array_result, (np.array([1.0, 5.0, 2.0]), np.array([2.0, 4.0, 3.0]))),
]


@pytest.mark.parametrize("fn,args", CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_compiled_matches_plain(fn, args):
    assert_compiles_same(fn, *args)


@pytest.mark.parametrize("fn,args", CASES[:8], ids=lambda v: getattr(v, "__name__", ""))
def test_eager_backend_matches_plain(fn, args):
    assert_compiles_same(fn, *args, backend="eager")


def test_generated_source_keeps_structured_loops_and_origins():
    compiled = assert_compiles_same(nested_loops_break, 4)
    source = compiled.source()
    assert "for j in range(n):" in source
    assert "break" in source
    line = nested_loops_break.__code__.co_firstlineno + 5
    assert f"test_control_flow.py:{line}" in source   # `if j > i:` carries its origin
