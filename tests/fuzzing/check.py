"""Run one program plainly and through ``transpiler.jit``; compare what the two did.

Compared, per input (the arguments are deep-copied for every run):

- the outcome: both returned, or both raised the same exception *type*;
- returned values: equal (NaN equals NaN), the same Python/NumPy type, except the documented
  boxing gap (Numba returns Python float/int/bool/complex where the plain call gives
  np.float64/np.int64/np.bool_/np.complex128 with the same value and dtype); arrays: the same
  dtype, shape and elements; tuples element by element;
- the arguments after the call (mutation of ``a``), with the same rules; a list (``log``) or
  dict (``d0``) argument element by element, each by type and value (an np.float32 element is
  not a float; a str by value): what Python islands appended or stored. This holds after an
  exception too (both raised the same type): the log then shows that each statement ran once, in
  Python's order, up to the one that raised.

All the calls of a program go through one jitted object: first its inputs (of the same types),
then its *history* (the same parameters re-typed: an int as np.int8 or np.uint64, a float32
array as int16, ...), so the object holds several specializations and must pick the right one
for each call. A mismatch after the first call is rerun on a fresh object; one that only the
object with a past gives has a kind prefixed ``"history: "``.

A ``transpiler.FallbackWarning`` (graphjit ran the function as Python, whole or split) is not a
mismatch; its reasons are returned for the tally.

A mismatch has a *kind*: a short string that names what differs without the values, e.g.
``"raise ValueError / return"``, ``"type np.float32 / float"``, ``"value float"``,
``"mutation value float32"``; a list or dict argument's kind names it: ``"mutation log length
list"``, ``"mutation log type np.float32 / float"``. The shrinker keeps the kind; the saver
dedupes by it.

The result also says how the jitted object ran (``explain()`` after all the calls):
``islands``, the Python islands inside its compiled loops, and ``compiled_loops``, its loop
regions that compiled (a function that does not compile whole is split).
"""
import copy
import hashlib
import importlib.util
import os
import re
import signal
import sys
import time
import warnings

import numpy as np

# Known gap (tests/reference.py, README "Known gaps"): Numba boxes these NumPy scalars as the
# Python scalar of the same dtype.
NUMBA_BOXING = {} if not os.environ.get("GRAPHJIT_FUZZ_LAX_BOXING") else {
    np.float64: float, np.int64: int, np.bool_: bool, np.complex128: complex}
INT64 = (-2 ** 63, 2 ** 63 - 1)
PLAIN_LIMIT_S = 0.05


class PlainTimeout(BaseException):
    """The plain run went past its time limit (raised from a SIGALRM handler)."""


def type_name(tp):
    if tp.__module__ == "numpy":
        return f"np.{tp.__name__}"
    if tp.__module__ == "builtins":
        return tp.__name__
    return f"{tp.__module__}.{tp.__qualname__}"


def safe_repr(value, limit=200):
    try:
        text = repr(value)
    except Exception as exc:  # noqa: BLE001 - e.g. an int too long to print
        text = f"<unprintable {type_name(type(value))}: {type(exc).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


def describe(outcome):
    """'returned <repr> (<type>)' or 'raised <Type>: <message>' for reports."""
    kind, value, message = outcome
    if kind == "raised":
        return f"raised {type_name(value)}: {message}"
    return f"returned {safe_repr(value)}"


def _summary(value):
    """A type word for kinds: 'float', 'np.float32', 'tuple', 'ndarray float32'."""
    if isinstance(value, np.ndarray):
        return f"ndarray {value.dtype}"
    return type_name(type(value))


def value_diff(expected, actual):
    """None when ``actual`` matches ``expected`` (the rules above), else (kind, detail)."""
    te, ta = type(expected), type(actual)
    if te is not ta:
        boxed = NUMBA_BOXING.get(te) is ta
        if not boxed or np.asarray(actual).dtype != np.asarray(expected).dtype:
            if te is int and not INT64[0] <= expected <= INT64[1]:
                return "int64 overflow", f"plain int {safe_repr(expected, 60)} is outside int64"
            return (f"type {type_name(te)} / {type_name(ta)}",
                    f"{safe_repr(expected)} vs {safe_repr(actual)}")
    if isinstance(expected, np.ndarray):
        if actual.dtype != expected.dtype:
            return f"dtype {expected.dtype} / {actual.dtype}", f"{expected!r} vs {actual!r}"
        if actual.shape != expected.shape:
            return "shape", f"{expected.shape} vs {actual.shape}"
        if not np.array_equal(actual, expected, equal_nan=expected.dtype.kind in "fc"):
            return f"value ndarray {expected.dtype}", f"{expected!r} vs {actual!r}"
        return None
    if isinstance(expected, (tuple, list)):
        if len(actual) != len(expected):
            return (f"length {type_name(te)}", f"{len(expected)} vs {len(actual)}: "
                    f"{safe_repr(expected, 300)} vs {safe_repr(actual, 300)}")
        for k, (e, a) in enumerate(zip(expected, actual)):
            diff = value_diff(e, a)
            if diff is not None:
                return diff[0], f"item {k}: {diff[1]}"
        return None
    if isinstance(expected, dict):
        if list(actual) != list(expected):
            return "keys dict", f"{list(expected)} vs {list(actual)}"
        for key in expected:
            diff = value_diff(expected[key], actual[key])
            if diff is not None:
                return diff[0], f"key {key!r}: {diff[1]}"
        return None
    try:
        if expected != expected:             # NaN (float, np.floating, complex)
            same = actual != actual
        else:
            same = bool(actual == expected)
    except Exception:  # noqa: BLE001 - incomparable values differ
        same = False
    if same:
        return None
    if te is int and not INT64[0] <= expected <= INT64[1]:
        return "int64 overflow", f"plain int {safe_repr(expected, 60)} is outside int64"
    return f"value {_summary(expected)}", f"{safe_repr(expected)} vs {safe_repr(actual)}"


def outcome_diff(plain, compiled):
    """None, or (kind, detail) for two outcomes ``(kind, value_or_type, message)``."""
    pk, pv, _ = plain
    ck, cv, message = compiled
    right = f"raise {type_name(cv)}" if ck == "raised" else "return"
    if ck == "raised" and cv is ValueError and "complex in Python" in message:
        right += " (complex power)"   # transpiler.helpers.python_arith.checked_pow: a documented gap
    if pk == "raised" and ck == "raised":
        if pv is cv:
            return None
        return f"raise {type_name(pv)} / {right}", f"{describe(plain)} vs {describe(compiled)}"
    if pk == "raised" or ck == "raised":
        # What was returned is left out of the kind: the exception is the difference (but a
        # complex number, which compiled code cannot give where Python does, is named).
        left = f"raise {type_name(pv)}" if pk == "raised" else (
            "return complex" if _has_complex(pv) else "return")
        return f"{left} / {right}", f"{describe(plain)} vs {describe(compiled)}"
    return value_diff(pv, cv)


def _has_complex(value):
    if isinstance(value, (tuple, list)):
        return any(_has_complex(v) for v in value)
    return isinstance(value, complex)


def args_diff(plain_args, compiled_args, names=()):
    """None, or (kind, detail) for the first argument that differs after the two calls; a
    list or dict argument's kind names it (``names``: the parameters)."""
    for name_index, (before, after) in enumerate(zip(plain_args, compiled_args)):
        diff = value_diff(before, after)
        if diff is not None:
            name = names[name_index] if name_index < len(names) else str(name_index)
            if isinstance(before, (list, dict)):
                return f"mutation {name} {diff[0]}", f"argument {name}: {diff[1]}"
            return f"mutation {diff[0]}", f"argument {name_index}: {diff[1]}"
    return None


def _on_alarm(signum, frame):
    raise PlainTimeout()


def call(fn, args, limit=None):
    """Run ``fn(*deepcopy(args))``: ((kind, value_or_type, message), args_after, seconds).

    ``limit`` (seconds) interrupts a plain Python run with PlainTimeout (main thread only).
    """
    args = copy.deepcopy(args)
    use_alarm = limit is not None and hasattr(signal, "setitimer")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, limit)
    start = time.perf_counter()
    try:
        with np.errstate(all="ignore"):
            result = fn(*args)
        outcome = ("returned", result, "")
    except PlainTimeout:
        raise
    except Exception as exc:  # noqa: BLE001 - the exception type is the outcome
        message = str(exc).splitlines()[0][:200] if str(exc) else ""
        outcome = ("raised", type(exc), message)
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    return outcome, args, time.perf_counter() - start


_loaded = 0


def load(source, name, folder):
    """Write ``source`` to a fresh .py file in ``folder``, import it, return (function, module)."""
    global _loaded
    _loaded += 1
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    modname = f"fz_{digest}_{os.getpid()}_{_loaded}"
    path = os.path.join(folder, modname + ".py")
    with open(path, "w") as handle:
        handle.write(source)
    spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(modname, None)
        raise
    return getattr(module, name), module


_FALLBACK_PREFIX = re.compile(r"^graphjit: \S+( \(loop[^)]*\))? (runs as [^:]*?): ")
_LOCATION = re.compile(r"(/\S+?\.py|\S+\.py):\d+(:\d+)?:?\s*")


def fallback_reason(message):
    """The first line of a FallbackWarning, without the function name and file:line."""
    line = str(message).splitlines()[0] if str(message) else ""
    how = _FALLBACK_PREFIX.match(line)
    if how:
        prefix = ("loop: " if how.group(1) else
                  "split: " if "compiled loop" in how.group(2) else "")
        line = prefix + line[how.end():]
    line = _LOCATION.sub("", line)
    return re.sub(r"\b(v|y|i|x|w|e|p|c|t|z)\d+\b", r"\1N", line).strip()[:160]


HISTORY = "history: "     # the prefix of a kind that only a jitted object with a past shows


def _diff(expected, expected_args, outcome, after, names=()):
    diff = outcome_diff(expected, outcome)
    return diff if diff is not None else args_diff(expected_args, after, names)


def how_it_ran(compiled_fn):
    """(islands, compiled loops) in ``compiled_fn.explain()``: the Python islands inside its
    compiled loops and its loop regions that compiled (0, 0 for a function that compiled whole
    or ran as plain Python)."""
    try:
        rows = compiled_fn.explain().rows
    except Exception:  # noqa: BLE001 - a report only
        return 0, 0
    islands = sum(1 for row in rows if str(row.region).strip().startswith("island"))
    loops = sum(1 for row in rows if str(row.region).strip().startswith("loop")
                and row.status == "compiled")
    return islands, loops


def _compiled_call(tp, compiled_fn, args, fallbacks):
    """call(compiled_fn, args), with the FallbackWarning reasons added to ``fallbacks``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        outcome, after, _ = call(compiled_fn, args)
    for warning in caught:
        if issubclass(warning.category, tp.FallbackWarning):
            reason = fallback_reason(warning.message)
            if reason not in fallbacks:
                fallbacks.append(reason)
    return outcome, after


def compare_function(fn, inputs, plain_limit=PLAIN_LIMIT_S, jit_kwargs=None, history=()):
    """Run ``fn`` plainly, then through ONE ``transpiler.jit(fn)`` object, on every input tuple
    of ``inputs`` and then of ``history`` (calls whose argument types differ from the first
    ones: the object then holds several specializations); compare each call.

    The first mismatch at a call after the first is checked again on a fresh jitted object: if
    the fresh one agrees with Python, the kind gets the prefix ``HISTORY`` ("history: value
    float"): only the object's past calls make it wrong. Otherwise the fresh object's mismatch
    is reported (it reproduces with that one input).

    Returns a dict: status ("ok", "mismatch" or "skip"), fallbacks (list of reasons, in the
    calls of ``inputs``), history_fallbacks (those new in the history calls), islands and
    compiled_loops (how_it_ran: the jitted object after all the calls), and for a
    mismatch: kind, detail, input (its index in ``inputs + history``), history (whether it is
    a history call), plain, compiled (descriptions).
    """
    import transpiler as tp

    calls = list(inputs) + list(history)
    plain = []
    for args in calls:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # e.g. NumPy's ComplexWarning
                outcome, after, seconds = call(fn, args, limit=plain_limit)
        except PlainTimeout:
            return {"status": "skip", "why": "plain run over the time limit", "fallbacks": []}
        if plain_limit is not None and seconds > plain_limit:
            return {"status": "skip", "why": "plain run over the time limit", "fallbacks": []}
        plain.append((outcome, after))
    compiled_fn = tp.jit(fn, **(jit_kwargs or {}))
    code = getattr(fn, "__code__", None)
    names = code.co_varnames[:code.co_argcount] if code is not None else ()
    fallbacks, history_fallbacks = [], []
    result = {"status": "ok", "fallbacks": fallbacks, "history_fallbacks": history_fallbacks}
    for index, args in enumerate(calls):
        reasons = fallbacks if index < len(inputs) else history_fallbacks
        outcome, after = _compiled_call(tp, compiled_fn, args, reasons)
        if result["status"] == "mismatch":
            continue
        expected, expected_args = plain[index]
        diff = _diff(expected, expected_args, outcome, after, names)
        if diff is not None and index > 0:
            fresh, fresh_after = _compiled_call(tp, tp.jit(fn, **(jit_kwargs or {})), args,
                                                reasons)
            fresh_diff = _diff(expected, expected_args, fresh, fresh_after, names)
            if fresh_diff is None:
                diff = (HISTORY + diff[0], diff[1])
            else:
                diff, outcome = fresh_diff, fresh
        if diff is not None:
            result.update(status="mismatch", kind=diff[0], detail=diff[1], input=index,
                          history=index >= len(inputs),
                          plain=describe(expected), compiled=describe(outcome))
    history_fallbacks[:] = [reason for reason in history_fallbacks if reason not in fallbacks]
    result["islands"], result["compiled_loops"] = how_it_ran(compiled_fn)
    return result


def check_source(source, name, inputs, folder, plain_limit=PLAIN_LIMIT_S, history=()):
    """Load ``source`` (module text) and compare its function ``name`` on ``inputs`` then
    ``history`` (inputs None: the module's own ``INPUTS``, as in a saved regression case,
    all through one jitted object)."""
    try:
        fn, module = load(source, name, folder)
    except Exception as exc:  # noqa: BLE001 - an invalid program (from the shrinker)
        return {"status": "invalid", "why": f"{type(exc).__name__}: {exc}", "fallbacks": []}
    try:
        if inputs is None:
            inputs = module.INPUTS
        return compare_function(fn, inputs, plain_limit=plain_limit, history=history or ())
    finally:
        sys.modules.pop(module.__name__, None)


# Mismatches that are documented gaps (README, "Known gaps"), by kind and by the operators the
# program uses. A mismatch outside these fails the fuzz tests; these are counted apart, so the
# number of known-gap programs stays visible in every round.
def known_gap(kind, ops, detail="", plain="", compiled=""):
    """The README gap a mismatch belongs to, or None for a real (unexplained) mismatch.

    Args:
        kind (str): the mismatch kind (see the module docstring).
        ops (Iterable[str]): operators and calls the program contains (run.operators).
        detail (str): the mismatch detail (``"<plain> vs <compiled>"`` for values).
        plain, compiled (str): what each run did (``describe``), when the kind is a mutation.
    """
    ops = set(ops)
    if kind.startswith(HISTORY):
        return None        # a fresh object got it right: never a documented gap
    from transpiler.helpers.messages import NOT_REPRESENTABLE
    if "a[]=" in ops and any(compiled == f"raised OverflowError: {m}" for m in NOT_REPRESENTABLE):
        # Compiled code said it cannot hold Python's int (beyond int64, or from 2**53 in a
        # value that is an int or a float by path) in a function that stored into an array,
        # so it cannot run again as Python. Python may reach a big int later, after a store
        # (`a[0] = math.floor(1e300)` stores inf, then raises), or never (a float path).
        return "an int beyond int64 in a function that stores into an array: OverflowError"
    # A function without effects runs again as Python on these two (transpiler.api); one that
    # stored into an argument first cannot, and raises.
    if "**" in ops and "a[]=" in ops and (
            kind.endswith("/ raise ValueError (complex power)") or
            "complex in Python" in compiled and compiled.startswith("raised ValueError")):
        # (a mutation kind too: plain went on past the power, stored, and raised later)
        return "a complex power in a function that stores into an array: ValueError compiled"
    if "OverflowError" in kind and ops & {"int", "math.floor", "math.ceil", "math.trunc",
                                          "**"} and "a[]=" in ops:
        return "an int beyond int64 in a function that stores into an array: OverflowError"
    return None
