"""Silent wrong answers and crashes that Numba's own test usecases found
(tools/numba_usecases.py), each fixed: the plain call and the jitted one compared by value,
type (element types included) and exception class; and the membership-only set still
compiles."""
import warnings

import numpy as np
import pytest

import transpiler as tp


def outcome(fn, *args):
    try:
        value = fn(*args)
    except Exception as exc:  # noqa: BLE001 - compared below
        return ("raise", type(exc))
    return ("value", _typed(value))


def _typed(value):
    if isinstance(value, (list, tuple)):
        return type(value), [_typed(v) for v in value]
    if isinstance(value, np.ndarray):
        return np.ndarray, value.dtype, value.tobytes()
    return type(value), repr(value)


def both(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted = tp.jit(fn)
        assert outcome(jitted, *args) == outcome(fn, *args)
        return jitted


def set_to_list(a, b):
    s = set()
    s.update(a)
    s.update(b)
    return list(s)          # CPython's order, np.float64 elements


def set_sorted(a):
    return sorted({a[0], a[1], a[2]})


def set_loop(a):
    s = set(a)
    t = 0.0
    for v in s:             # the order reaches the result
        t = t * 2 + v
    return t


def seen_count(n):
    seen = set()
    c = 0
    for i in range(n):
        v = (i * 7) % 5
        if v not in seen:
            seen.add(v)
            c += 1
    return c, len(seen)


@pytest.mark.parametrize("fn, args", [
    (set_to_list, (np.linspace(-1, 1, 7), np.linspace(-1, 1, 7)[:3] * 2)),
    (set_to_list, (np.arange(5), np.arange(3))),
    (set_sorted, (np.array([3.0, 1.0, 2.0]),)),
    (set_loop, (np.linspace(-1, 1, 9),))])
def test_sets_iterated_or_returned_as_python_gives_them(fn, args):
    both(fn, *args)


def test_a_set_used_only_by_in_len_and_add_compiles():
    jitted = both(seen_count, 12)
    assert all(r.status == "compiled" for r in jitted.explain().rows), str(jitted.explain())


def to_float(x):
    return float(x)


def to_complex(x):
    return complex(x)


def to_int(x):
    return int(x)


@pytest.mark.parametrize("fn", [to_float, to_complex, to_int])
@pytest.mark.parametrize("value", [(1, 2, 3), (1.5,), [2.0]])
def test_a_number_of_a_tuple_or_list_raises_as_python_does(fn, value):
    both(fn, value)


def private_field(x):
    return x._data


def module_result():
    return np


@pytest.mark.parametrize("fn, args", [(private_field, ("abc",)), (module_result, ())])
def test_numba_fields_and_modules_are_python_values(fn, args):
    both(fn, *args)


def non_boxable():
    return np


try:
    from numba.extending import overload

    @overload(non_boxable)
    def _non_boxable_overload():
        def implementation():
            return np
        return implementation
except ImportError:     # (numba is a dependency: never)
    pass


def returns_non_boxable():
    return non_boxable()


def test_a_result_numba_cannot_box_runs_again_as_python():
    """A Numba overload returning a module compiles, but Numba cannot box its result: the
    effect-free call runs again as Python (it raised TypeError)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        jitted = tp.jit(returns_non_boxable)
        assert jitted() is np and jitted() is np
