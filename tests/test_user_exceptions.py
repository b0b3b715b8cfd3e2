"""``raise`` of exception classes defined in Python code (issue 20): the function compiles; the
raise makes the call run again as Python, so the exception is the plain call's own (class,
``args`` with their NumPy types, a custom ``__init__``'s attributes, ``__cause__``), with no
warning. Where something the caller sees happened before the raise (an array store), or under
``fullgraph=True``, the function does not compile (a fallback, or UnsupportedConstruct)."""
import threading
import warnings

import numpy as np
import pytest

import transpiler as tp


class Negative(Exception):
    pass


class BadCode(ValueError):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class Quiet(Exception):
    def __str__(self):
        return "quiet"


def check(x):
    if x < 0:
        raise Negative("negative", x)
    return x * 2


def check_code(x, limit):
    if x > limit:
        raise BadCode("over the limit", x - limit)
    return limit - x


def raise_class(n):
    total = 0
    for i in range(n):
        total += i
        if total > 10:
            raise Quiet
    return total


def raise_from(x):
    if x == 0:
        raise Negative(x) from None
    return 1.0 / x


def scan(a, bound):
    s = a.dtype.type(0)
    for v in a:
        if v > bound:
            raise Negative(v, s)
        s += v
    return s


def store_then_raise(out, x):
    out[0] = x
    if x < 0:
        raise Negative(x)
    return out


def _outcome(fn, *args):
    try:
        return "returned", fn(*args)
    except Exception as exc:  # noqa: BLE001 - compared below
        return "raised", exc


def _assert_same(fn, *args, compiled=None):
    compiled = compiled or tp.jit(fn)
    kind, plain = _outcome(fn, *args)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        kind_c, got = _outcome(compiled, *args)
    assert kind == kind_c, (plain, got)
    if kind == "raised":
        assert type(got) is type(plain)
        assert got.args == plain.args
        assert [type(a) for a in got.args] == [type(a) for a in plain.args]
        assert str(got) == str(plain)
        assert vars(got) == vars(plain)
        assert (got.__cause__, got.__suppress_context__) == (
            plain.__cause__, plain.__suppress_context__)
    else:
        assert type(got) is type(plain) and got == plain
    return compiled


def _compiled(fn):
    text = str(fn.explain())
    assert "compiled" in text and "python " not in text, text
    return text


ARGS = [3, -3, 2.5, -2.5, np.float64(-1.5), np.int8(-4), np.float32(-0.5), np.uint8(7), True]


@pytest.mark.parametrize("x", ARGS, ids=repr)
def test_raise_with_arguments(x):
    compiled = _assert_same(check, x)
    _compiled(compiled)


def test_one_object_every_argument_type_in_order():
    compiled = tp.jit(check)
    for x in ARGS + ARGS[::-1]:
        _assert_same(check, x, compiled=compiled)
    _compiled(compiled)


@pytest.mark.parametrize("x,limit", [(5, 3), (2, 3), (5.5, 3), (np.int16(9), 2),
                                     (np.float32(4.0), 1.5)])
def test_custom_init_and_builtin_base(x, limit):
    compiled = _assert_same(check_code, x, limit)
    try:
        compiled(x, limit)
    except ValueError as exc:       # caught as its builtin base, as plainly
        assert isinstance(exc, BadCode)


@pytest.mark.parametrize("n", [3, 6, 0])
def test_raise_a_class_and_custom_str(n):
    _compiled(_assert_same(raise_class, n))


@pytest.mark.parametrize("x", [0, 2, 0.0, np.float64(0.0)])
def test_raise_from_none(x):
    _assert_same(raise_from, x)


@pytest.mark.parametrize("a,bound", [(np.array([1, 2, 3], np.int8), 2),
                                     (np.array([1.5, 2.5], np.float32), 2.0),
                                     (np.array([1.0, 2.0]), 5.0)])
def test_raise_in_a_loop_with_numpy_values(a, bound):
    _compiled(_assert_same(scan, a, bound))


def test_effects_before_the_raise_fall_back():
    compiled = tp.jit(store_then_raise)
    for x in (2.0, -1.0):
        plain_out, out = np.zeros(2), np.zeros(2)
        kind, plain = _outcome(store_then_raise, plain_out, x)
        with pytest.warns(tp.FallbackWarning, match="runs the call again as Python"):
            kind_c, got = _outcome(compiled, out, x)
        assert kind == kind_c and type(got) is type(plain)
        np.testing.assert_array_equal(out, plain_out)


def test_fullgraph_refuses():
    with pytest.raises(tp.UnsupportedConstruct, match="fullgraph=True does not allow"):
        tp.jit(check, fullgraph=True)(-1)


def test_eager_backend():
    compiled = tp.jit(check, backend="eager")
    for x in ARGS:
        _assert_same(check, x, compiled=compiled)


def test_threads():
    compiled = tp.jit(check)
    errors = []

    def work(k):
        for x in (k, -k, float(k), -float(k), np.int8(-k)):
            try:
                _assert_same(check, x, compiled=compiled)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]


def test_converted_file_keeps_the_function_as_python(tmp_path, capsys):
    from transpiler import cli
    src = tmp_path / "user_raise.py"
    src.write_text("class Negative(Exception):\n    pass\n\n\n"
                   "def check(x):\n    if x < 0:\n        raise Negative('negative', x)\n"
                   "    return x * 2\n")
    out = tmp_path / "out"
    assert cli.main(["convert", "--all", "--import", str(src), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "check kept as Python: it raises an exception class defined in Python code" in err
    text = (out / "user_raise.py").read_text()
    assert "raise Negative('negative', x)" in text and "runs again as Python" not in text
