"""The reference check: a function run plainly and compiled must agree.

Values (exactly), dtypes and Python types, argument mutation and exception types are compared.
"""
import copy
import threading
import warnings

import numpy as np

import transpiler as tp


def outcome(fn, args):
    """(result or exception type, arguments after the call)."""
    args = copy.deepcopy(args)
    try:
        result = fn(*args)
    except Exception as exc:  # noqa: BLE001 - the exception type is the outcome
        return ("raised", type(exc)), args
    return ("returned", result), args


# A former known gap: where a result is computed from what the scalar-type analysis cannot
# type, Numba boxes float64/int64/bool scalar results as Python float/int/bool where the plain
# call may give np.float64/np.int64/np.bool_. Such results are now checked against the compiled
# overload's return type and run as Python (transpiler/result_box_check.py): the functions named
# in LAX_BOXING may only differ in this way (none are left); every other result's box must be
# plain's.
_NUMBA_BOXING = {np.float64: float, np.int64: int, np.bool_: bool, np.complex128: complex}
LAX_BOXING = set()     # none left: such a result is checked (transpiler/result_box_check.py)
_lax = [False]


def assert_same_value(expected, actual):
    if type(actual) is not type(expected):
        assert _lax[0], (type(expected), type(actual))
        assert _NUMBA_BOXING.get(type(expected)) is type(actual), (type(expected), type(actual))
        assert np.asarray(actual).dtype == np.asarray(expected).dtype
    if isinstance(expected, np.ndarray):
        assert actual.dtype == expected.dtype, (expected.dtype, actual.dtype)
        assert actual.shape == expected.shape
        np.testing.assert_array_equal(actual, expected)
    elif isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected)
        for e, a in zip(expected, actual):
            assert_same_value(e, a)
    elif isinstance(expected, (float, np.floating)) and expected != expected:
        assert actual != actual
    elif isinstance(expected, (complex, np.complexfloating)) and expected != expected:
        assert_same_value(expected.real, actual.real)    # nan parts equal nan parts
        assert_same_value(expected.imag, actual.imag)
    else:
        assert actual == expected, (expected, actual)


def assert_compiles_same(fn, *args, backend="numba-cpu"):
    """Run ``fn`` plainly and through ``jit(fn, fullgraph=True)``; compare everything.

    ``fullgraph=True`` makes a fallback an error, so the compiled path is really taken.
    Returns the compiled JitFunction.
    """
    compiled = tp.jit(fn, backend=backend, fullgraph=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        (kind, expected), args_plain = outcome(fn, args)
        (kind_c, actual), args_comp = outcome(compiled, args)
    _lax[0] = getattr(fn, "__name__", "") in LAX_BOXING
    try:
        assert_same_outcome((kind, expected), args_plain, (kind_c, actual), args_comp)
    finally:
        _lax[0] = False
    return compiled


def assert_same_outcome(plain, args_plain, compiled, args_compiled):
    """Two ``outcome()`` results agree: value (or exception type) and arguments after."""
    (kind, expected), (kind_c, actual) = plain, compiled
    assert kind == kind_c, (kind, expected, kind_c, actual)
    if kind == "raised":
        assert actual is expected
    else:
        assert_same_value(expected, actual)
    for before, after in zip(args_plain, args_compiled):
        assert_same_value(before, after)


def errors_in_threads(work, count):
    """Run ``work(k)`` for ``k`` in ``range(count)``, each in a thread of its own, all at once.
    Returns the exceptions they raised (an assertion's among them), for the caller to assert
    there are none."""
    errors = []

    def run(k):
        try:
            work(k)
        except Exception as exc:  # noqa: BLE001 - handed back to the test
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors
