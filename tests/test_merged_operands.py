"""Names whose type differs by path beyond int/np.int64 (tests/test_path_types.py): a Python
bool or an np.bool_ (``s = True; for x in flags: s = x``), a Python float or an np.float64,
meeting every operator, compared with the plain call (value, type, exception type) through
one jitted object per expression; and the builtin ``pow(x, y)``, which is ``x ** y``.

What each used to give (found by a fresh-eyes review, stop 36):
- ``s - np.True_``: an int (plain TypeError on both paths); ``-s`` -1 for np.True_ (plain
  TypeError): now NumPy's plan for every combination of the operands' types (one plan for
  all, or a fallback where one path raises: passes/specialize/numpy_scalar_rules.py
  ``_merged_plan``).
- ``2 // s`` with ``s`` np.False_: ZeroDivisionError (plain np.int64(0)): ``alike_floordiv``.
- ``s == 2**53 + 1`` with ``s`` the Python float 2.0**53: True (plain False, exact):
  ``alike_exact_int``.
- ``s ** (1/3)`` with ``s`` the Python float -8.0: nan (plain a complex); ``0.0 ** -3``
  inf (plain ZeroDivisionError): ``alike_pow``.
- ``s = 3; for x in a: s += x`` over an int32 or uint8 array ran as Python (a merge of a
  Python int and an np.int32): an int literal the dtype holds is now converted where
  assigned, as NEP 50 converts it where it meets the array's elements
  (analysis/scalar_merges.py ``weak_merges``); 300 beside int8 still runs as Python
  (NumPy raises OverflowError where it meets an element).
- ``pow(-8.0, 0.5)`` nan, ``pow(3, 50)`` wrapped, ``pow(np.float64(2), 2)`` a Python float:
  ``pow(x, y)`` is now ``x ** y`` (passes/operator_calls.py).

`make test` runs a sample of the expressions; `make test-path-types` all of them.
"""
import importlib.util
import itertools
import os
import warnings

import numpy as np
import pytest

import transpiler as tp

FULL = os.environ.get("GRAPHJIT_PATH_TYPES_FULL") == "1"

EXPRS = ["-s", "~s", "+s", "abs(s)", "s + s", "s * k", "s - k", "s // k", "s ** k", "k ** s",
         "s << k", "k >> s", "s & k", "s ^ k", "s + k", "k - s", "s / k", "k % s", "s < k",
         "s == k", "k // s", "s % k", "k * s", "k / s", "k >= s", "pow(s, k)", "pow(k, s)",
         "divmod(k, s)", "int(s)", "float(s)", "s != k"]
SHORT = ["-s", "s - k", "s ** k", "k // s", "s == k", "k / s", "pow(s, k)", "k >= s"]

# name -> (its values by path: a parameter's Python value, then an array's elements)
KINDS = {
    "bool": ([True, False], [np.array([], bool), np.array([True]), np.array([False])]),
    "float": ([1.0, -8.0, 0.0, 2.0 ** 53, 1e308],
              [np.array([], float), np.array([0.0]), np.array([-8.0]), np.array([2.0 ** 53])]),
}
OTHERS = [True, False, np.True_, np.False_, 0, 2, -1, 3, 2.5, 0.0, -0.0, 1 / 3, np.int64(3),
          np.uint8(2), np.float32(1.5), np.float64(-2.0), 2 ** 53 + 1, 2 ** 63, 1e308]


ACCUMULATORS = """
def acc_add(a):
    s = 3
    for x in a:
        s += x
    return s


def acc_scaled(a, m):
    s = 0
    for x in a:
        s = s + x * m
    return s


def acc_big(a):
    s = 300
    for x in a:
        s += x
    return s
"""


def _source():
    lines = ["import numpy as np\n"]
    for kind in KINDS:
        for i, expr in enumerate(EXPRS):
            if kind == "float" and "~" in expr:
                continue
            lines.append(f"\ndef {kind}_{i}(a, k, s0):\n    s = s0\n    for x in a:\n"
                         f"        s = x\n    return {expr}\n")
    lines.append("\ndef builtin_pow(x, y):\n    return pow(x, y)\n")
    lines.append(ACCUMULATORS)
    lines.append("\ndef builtin_pow3(x, y, m):\n    return pow(x, y, m)\n")
    return "".join(lines)


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    path = tmp_path_factory.mktemp("merged_operands") / "merged_operand_cases.py"
    path.write_text(_source())
    spec = importlib.util.spec_from_file_location("merged_operand_cases", path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def outcome(fn, *args):
    """("value", ((type, value), ...)) or ("raised", exception type)."""
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


def cases(short):
    chosen = SHORT if short else EXPRS
    return [(kind, EXPRS.index(e)) for kind in KINDS for e in chosen
            if not (kind == "float" and "~" in e)]


def _check(module, kind, index):
    plain = getattr(module, f"{kind}_{index}")
    compiled = tp.jit(plain)
    starts, arrays = KINDS[kind]
    differ = []
    for a, k, s0 in itertools.product(arrays, OTHERS, starts):
        expr = EXPRS[index]
        if "**" in expr or "pow" in expr:
            if isinstance(k, int) and abs(k) > 1000:
                continue    # 3 ** 2**63 as Python ints: no end
        expected, got = outcome(plain, a, k, s0), outcome(compiled, a, k, s0)
        if not equal(expected, got):
            differ.append((EXPRS[index], a.tolist(), k, s0, expected, got))
    assert not differ, differ[:5]


@pytest.mark.parametrize("kind,index", cases(short=True))
def test_merged_operand_equals_plain(module, kind, index):
    _check(module, kind, index)


@pytest.mark.skipif(not FULL, reason="every expression: make test-path-types")
@pytest.mark.parametrize("kind,index", sorted(set(cases(short=False)) - set(cases(short=True))))
def test_merged_operand_equals_plain_all(module, kind, index):
    _check(module, kind, index)


POW_ARGS = [(np.float64(2.0), 2), (-8.0, 0.5), (2.0, 2000), (3, 50), (0.0, -3), (2, -1),
            (np.int64(2), -1), (np.float32(1.5), 2), (np.uint8(3), 7), (True, 3), (1j, 2),
            (np.int8(-3), 5), (2.5, np.float32(2)), (-2, 0.5)]


def test_builtin_pow_is_the_power_operator(module):
    """``pow(x, y)`` takes ``**``'s rules: Python's for Python numbers (big ints, complex
    results, OverflowError, ZeroDivisionError), NumPy's for NumPy scalars."""
    compiled = tp.jit(module.builtin_pow)
    for x, y in POW_ARGS:
        expected, got = outcome(module.builtin_pow, x, y), outcome(compiled, x, y)
        assert equal(expected, got), (x, y, expected, got)


def test_three_argument_pow_stays_a_call(module):
    compiled = tp.jit(module.builtin_pow3)
    for args in [(3, 50, 7), (2, -1, 5), (2, 10, 0)]:
        expected, got = outcome(module.builtin_pow3, *args), outcome(compiled, *args)
        assert equal(expected, got), (args, expected, got)


INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.bool_, np.float32]


@pytest.mark.parametrize("name", ["acc_add", "acc_scaled", "acc_big"])
def test_python_int_accumulator_over_every_int_dtype(module, name):
    """A Python int accumulating NumPy integers of every dtype: NEP 50 (the int takes the
    elements' dtype, wrapping as it does; OverflowError where the literal does not fit),
    and the Python int itself when the loop does not run."""
    plain = getattr(module, name)
    compiled = tp.jit(plain)
    for dtype, values in itertools.product(INT_DTYPES, [[], [1], [100, 100], [127, 1]]):
        a = np.array(values, dtype=dtype)
        args = (a, 3) if name == "acc_scaled" else (a,)
        expected, got = outcome(plain, *args), outcome(compiled, *args)
        assert equal(expected, got), (name, dtype, values, expected, got)


def test_int32_accumulator_compiles(module):
    compiled = tp.jit(module.acc_add)
    for dtype in (np.int32, np.uint8):
        with warnings.catch_warnings():
            warnings.simplefilter("error", tp.FallbackWarning)
            assert compiled(np.array([100, 100], dtype)) == module.acc_add(
                np.array([100, 100], dtype))
    assert "python" not in str(compiled.explain()).split("\n", 2)[1]
