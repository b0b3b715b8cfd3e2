"""A name that is a Python number on some paths and the NumPy scalar that computes alike on
others (an int and an np.int64: ``s = 3; for x in a: s += x``) meeting another operand.

- Beside a NumPy scalar of another dtype the result type differs by path (NEP 50: the Python
  int is weak, the np.int64 strong; ``np.uint16(6) - s`` is an np.uint16, OverflowError for
  ``s = -1``, or an np.int64): the analysis says so (analysis/merge_problems.py
  ``_operation_by_path``) and the code runs as Python. Found by the fuzzer (seed 2038, program
  4691: tests/fuzzing/regressions/case_2038_4691.py).
- Beside Python ints, ``+ - *`` may leave int64 on the Python path (Python's int grows, NumPy's
  wraps) and ``<< >>`` differ for counts out of 0..63: checked, an effect-free call runs again
  as Python there (helpers.numpy_arith ``alike_lshift``...). ``s * 2**62`` with an empty ``a``
  returned -2**63 (plain 2**63) before.

Every call is compared with the plain call (value, type, exception type) through one jitted
object per function, over the operand universe below. `make test` runs 7 of the 25
functions; `make test-path-types` all.
"""
import itertools
import os
import warnings

import numpy as np
import pytest

import transpiler as tp

FULL = os.environ.get("GRAPHJIT_PATH_TYPES_FULL") == "1"
OPS = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%", "pow": "**",
       "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^", "truediv": "/"}

SOURCE = "import numpy as np\n"
for _name, _op in OPS.items():
    SOURCE += f'''
def left_{_name}(a, m):
    s = 3
    for x in a:
        s += x
    return s {_op} m


def right_{_name}(a, m):
    s = 3
    for x in a:
        s += x
    return m {_op} s
'''
SOURCE += '''

def unary(a, m):
    s = m
    for x in a:
        s += x
    return -s, abs(s)


def by_path(i1, n):
    v0 = -1
    w0 = 0
    while w0 < n:
        w0 += 1
        if 7 >= i1 - v0:
            if w0 > 2:
                continue
            if w0 > 5:
                break
        else:
            v0 += np.int64(2)
    return v0
'''

ARRAYS = [np.array([], np.int64), np.array([4], np.int64), np.array([2 ** 62], np.int64)]
OTHERS = [0, 1, -1, 2, 70, -3, 2 ** 53 + 1, 2 ** 62, -2 ** 63, 2 ** 63 - 1, np.int64(2),
          np.int64(-1), np.int64(70), True, 2.5, np.uint8(3), np.float32(2), np.int32(5),
          np.uint64(5)]


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    import importlib.util
    path = tmp_path_factory.mktemp("path_types") / "path_types_cases.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("path_types_cases", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def outcome(fn, *args):
    """("value", type, value) or ("raised", exception type)."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            result = fn(*args)
    except Exception as exc:  # noqa: BLE001 (the type is compared)
        return ("raised", type(exc))
    items = result if isinstance(result, tuple) else (result,)
    return ("value", tuple((type(v), v) for v in items))


def equal(plain, compiled):
    if plain[0] != compiled[0] or plain[0] == "raised":
        return plain == compiled
    return len(plain[1]) == len(compiled[1]) and all(
        tp_ is tc and (vp == vc or (vp != vp and vc != vc))
        for (tp_, vp), (tc, vc) in zip(plain[1], compiled[1]))


def names(short):
    return [n for n in (f"left_{k}" for k in OPS)] + [f"right_{k}" for k in OPS] + ["unary"] \
        if not short else ["left_mul", "right_add", "left_sub", "left_lshift", "right_rshift",
                           "left_floordiv", "unary"]


@pytest.mark.parametrize("name", names(short=True))
def test_alike_merge_operations_equal_plain(module, name):
    plain = getattr(module, name)
    compiled = tp.jit(plain)
    differ = []
    for a, m in itertools.product(ARRAYS, OTHERS):
        if "pow" in name and abs(m) > 200:
            continue    # 3 ** 2**62 as Python ints: no end
        expected, got = outcome(plain, a, m), outcome(compiled, a, m)
        if not equal(expected, got):
            differ.append((name, a.tolist(), m, expected, got))
    assert not differ


@pytest.mark.skipif(not FULL, reason="the full operator set: make test-path-types")
@pytest.mark.parametrize("name", sorted(set(names(short=False)) - set(names(short=True))))
def test_alike_merge_operations_equal_plain_all(module, name):
    test_alike_merge_operations_equal_plain(module, name)


@pytest.mark.parametrize("dtype", [np.uint16, np.uint8, np.int8, np.int32, np.float32,
                                   np.int64, np.float64])
def test_an_operation_whose_type_differs_by_path_runs_as_python(module, dtype):
    plain = module.by_path
    compiled = tp.jit(plain)
    for n in (0, 1, 3, 8):
        expected, got = outcome(plain, dtype(6), n), outcome(compiled, dtype(6), n)
        assert equal(expected, got), (dtype, n, expected, got)
