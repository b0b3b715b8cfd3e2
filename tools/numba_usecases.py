"""Run Numba's own test usecases plainly and through ``tp.jit``, the plain call as oracle.

What it measures: every top-level ``def`` of Numba's usecase modules (``numba/tests/`` files
whose name contains "usecase": ``usecases.py``, ``complex_usecases.py``, ...; a function
under a Numba decorator is taken as its ``.py_func``), called with argument tuples drawn from
a fixed pool (ints, floats, bools, a complex, 1-D int64/float64 arrays, a 3x4 float64 array,
a str, a tuple, a list) by arity and parameter names (at most 16 tuples). A tuple is a
*call* when the plain call binds (``inspect.signature.bind``) and returns or raises within
``--call-timeout`` seconds; at most 12 calls are kept: one per argument kind first (those that
return, then those that raise: the jitted call must raise the same exception class), then
other values of a kind. Every tuple runs plainly first,
then each kept call jitted, each call on fresh arguments with NumPy's and ``random``'s seeds
reset; plain and jitted are compared: the result (type, dtype, shape, values, float bits with NaN equal to NaN),
the exception class, the arguments after the call (mutation) and what was printed. The plain
call runs twice: where its two answers differ (an ``np.empty``, a global counter) only types,
dtypes, shapes and lengths are compared; where one returns and the other raises, the tuple is
not a call. Children run with PYTHONHASHSEED=0.

Each usecase is one of:

* ``compiled whole``: every call ran compiled code, no FallbackWarning (the calls whose
  plain call raised count here only where no plain call returned: a usecase is not expected
  to compile for the argument kinds it rejects);
* ``split``: some compiled code ran (loops of a split function, or the whole function for
  some argument types and Python for others: ``mixed`` in the JSON), some Python;
* ``python``: every call ran as plain Python;
* ``wrong``: a call's result, exception class, mutated argument or output differs from the
  plain call's;
* ``crash``: graphjit raised where the plain call did not, a jitted call hung, or the child
  process died in it.

Which way each call ran is read from graphjit's FallbackWarning (issued at every call that
runs Python, whole or split); the reason kept is the first line of that fallback reason, the
text ``jitted.explain()`` gives in its ``python`` row for the specialization (the explain()
rows are kept in the JSON as well). Reasons are aggregated after normalization (file:line,
quoted names, numbers and addresses stripped; first 80 characters).

The graphjit measured is the checkout this file sits in (its root goes first on the
children's PYTHONPATH). One child process per module (``--jobs`` of them at once) imports it
and runs its functions one after another; a hang or a crash costs the function it was in
(the child is restarted after it: ``crash`` if it died in a jitted call, ``plain crashed``,
not counted, if in a plain one), and ``--timeout`` bounds a module's total time.

Getting the source (nothing is downloaded by this tool; the folder is an argument)::

    # a git directory of github.com/numba/numba (a bare clone, or any clone's .git)
    git clone --bare https://github.com/numba/numba /tmp/numba.git
    python tools/numba_usecases.py --extract /tmp/numba.git /tmp/numba_usecases
    # which runs, for every numba/tests/**/*usecase*.py (npyufunc/x.py -> npyufunc_x.py):
    #   git --git-dir=/tmp/numba.git show HEAD:numba/tests/usecases.py > /tmp/numba_usecases/usecases.py
    # --with-test-modules also extracts numba/tests/test_*.py modules that define top-level
    # functions named *usecase*; in a module whose name has no "usecase" only those run.

Running::

    python tools/numba_usecases.py /tmp/numba_usecases --jobs 2 --json /tmp/usecases.jsonl
    python tools/numba_usecases.py /tmp/numba_usecases --only complex_usecases usecases
    python tools/numba_usecases.py --from-json /tmp/usecases.jsonl    # the summary again
    make numba-usecases DIR=/tmp/numba_usecases [NUMBA_USECASES_ARGS="--jobs 2 --json x"]
"""
import argparse
import ast
import collections
import concurrent.futures
import functools
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATEGORIES = ("compiled whole", "split", "python", "wrong", "crash")
MAX_CANDIDATES = 16      # argument tuples tried per function
MAX_CALLS = 12           # calls kept per function


# -- extraction -------------------------------------------------------------------------------

def extract(gitdir, folder, with_test_modules=False, rev="HEAD"):
    """Write ``numba/tests/**/*usecase*.py`` of ``rev`` into ``folder`` (flat: a subfolder's
    name prefixes the file's); with ``with_test_modules``, also ``numba/tests/test_*.py``
    modules defining a top-level ``def *usecase*``."""
    def git(*words):
        return subprocess.run(["git", f"--git-dir={gitdir}", *words], check=True,
                              capture_output=True, text=True).stdout
    os.makedirs(folder, exist_ok=True)
    names = git("ls-tree", "-r", "--name-only", rev, "numba/tests").split()
    chosen = []
    for path in names:
        base = os.path.basename(path)
        if not base.endswith(".py"):
            continue
        if "usecase" in base[:-3]:
            chosen.append(path)
        elif with_test_modules and base.startswith("test_") and path.count("/") == 2:
            if re.search(r"^def \w*usecase\w*\(", git("show", f"{rev}:{path}"), re.M):
                chosen.append(path)
    for path in chosen:
        target = os.path.join(folder, path[len("numba/tests/"):].replace("/", "_"))
        print(f"git --git-dir={gitdir} show {rev}:{path} > {target}")
        with open(target, "w") as handle:
            handle.write(git("show", f"{rev}:{path}"))
    print(f"{len(chosen)} modules in {folder}")


# -- the child: one module ---------------------------------------------------------------------

# Parameter names -> the pool kind tried first (a hint; every kind is tried after it).
HINTS = {
    "int:3": {"n", "m", "i", "j", "k", "s", "e", "start", "stop", "step", "count", "size",
              "num", "idx", "index", "lower", "upper", "length", "base", "nbits", "width",
              "x_int", "N"},
    "float:0.5": {"x", "y", "z", "d", "v", "val", "value", "phi", "r", "threshold", "q"},
    "arr_f": {"a", "b", "c", "arr", "ary", "arr1", "arr2", "array", "A", "B", "X", "Y", "out",
              "res", "data", "values", "vec", "mat"},
    "str": {"s1", "s2", "string", "text", "word", "name", "char", "string1", "string2"},
    "list": {"lst", "l", "lst1", "lst2", "items", "seq"},
    "tuple": {"tup", "t", "tup1", "tup2", "shape"},
    "bool:True": {"flag", "cond", "b1", "b2"},
    "complex": {"cplx", "z1", "z2"},
}
HOMOGENEOUS = ["int:3", "float:0.5", "arr_f", "arr_i", "complex", "bool:True", "arr2", "tuple",
               "list", "str"]
SECOND = ["int:7", "float:-1.25", "int:0", "int:-2", "bool:False", "float:3.0", "int:1"]
MIXED = [("arr_f", "int:3"), ("int:3", "arr_f"), ("float:0.5", "int:3"), ("arr_i", "int:3"),
         ("arr_f", "float:0.5"), ("str", "int:3")]


def make(token):
    """A fresh value of pool ``token``."""
    import numpy as np
    kind, _, text = token.partition(":")
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "bool":
        return text == "True"
    return {"complex": lambda: complex(1, 2),
            "arr_i": lambda: np.arange(5, dtype=np.int64),
            "arr_f": lambda: np.linspace(-1.0, 1.0, 7),
            "arr2": lambda: np.linspace(-1.0, 2.0, 12).reshape(3, 4),
            "str": lambda: "abc",
            "tuple": lambda: (1, 2, 3),
            "list": lambda: [1, 2, 3]}[kind]()


def candidates(names):
    """Argument tuples (of pool tokens) for parameters ``names``, deterministic, at most
    MAX_CANDIDATES: the tuple the names hint at, homogeneous tuples of each kind (mixed ones
    among them from arity 2), then other values."""
    n = len(names)
    if n == 0:
        return [()]
    hint = tuple(next((t for t, group in HINTS.items() if name in group), "int:3")
                 for name in names)
    homogeneous = [(t,) * n for t in HOMOGENEOUS]
    mixed = [tuple((m * n)[:n]) for m in MIXED] if n >= 2 else []
    ordered = [hint] + homogeneous[:7] + mixed[:2] + homogeneous[7:] + mixed[2:] + \
        [(t,) * n for t in SECOND]
    seen = []
    for c in ordered:
        if c not in seen:
            seen.append(c)
    return seen[:MAX_CANDIDATES]


class CallTimeout(BaseException):
    """Raised by the alarm in a call that runs too long (a BaseException: the usecase's own
    ``except Exception`` does not catch it)."""


def _on_alarm(signum, frame):
    raise CallTimeout()


def same(a, b, loose=False, depth=0):
    """"" when ``a`` and ``b`` are the same answer, else what differs: the type, the dtype
    and shape, the values (float bits, NaN equal to NaN, whatever its payload). ``loose``:
    types, dtypes, shapes and lengths only (a call whose plain answer is not reproducible)."""
    try:
        return _same(a, b, loose, depth)
    except Exception:  # noqa: BLE001 - what cannot be compared counts as equal
        return ""


def _same(a, b, loose, depth):
    import numpy as np
    if a is b or depth > 30:
        return ""
    if type(a) is not type(b):
        return f"type {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return f"{a.dtype}{a.shape} != {b.dtype}{b.shape}"
        if loose:
            return ""
        if a.dtype.names or a.dtype.kind == "O":
            for x, y in zip(a.ravel().tolist(), b.ravel().tolist()):
                d = same(x, y, loose, depth + 1)
                if d:
                    return d
            return ""
        if a.dtype.kind in "fc":
            if not np.array_equal(a, b, equal_nan=True):
                return "values"
            parts = (a.real, b.real, a.imag, b.imag) if a.dtype.kind == "c" else (a, b, a, b)
            for x, y in (parts[:2], parts[2:]):
                if not np.array_equal(np.signbit(x) | np.isnan(x), np.signbit(y) | np.isnan(y)):
                    return "values (sign of zero)"
            return ""
        return "" if np.array_equal(a, b) else "values"
    if isinstance(a, (tuple, list)):
        if len(a) != len(b):
            return f"length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = same(x, y, loose, depth + 1)
            if d:
                return f"[{i}] {d}"
        return ""
    if loose:
        return ""
    if isinstance(a, (float, np.floating)):
        return "" if _same_float(a, b) else f"value {a!r} != {b!r}"
    if isinstance(a, (complex, np.complexfloating)):
        return "" if _same_float(a.real, b.real) and _same_float(a.imag, b.imag) else \
            f"value {a!r} != {b!r}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return "keys"
        return next((f"[{k!r}] {d}" for k in a if (d := same(a[k], b[k], loose, depth + 1))),
                    "")
    if callable(a) and hasattr(a, "__qualname__"):     # a function, a class: by name
        return "" if a.__qualname__ == b.__qualname__ else "callable"
    if type(a).__eq__ is object.__eq__:    # an object without equality: its attributes
        return same(vars(a), vars(b), loose, depth + 1) if hasattr(a, "__dict__") and \
            hasattr(b, "__dict__") else ""
    equal = a == b
    if isinstance(equal, np.ndarray):
        equal = equal.all()
    return "" if equal or (a != a and b != b) else f"value {_short(a)} != {_short(b)}"


def _same_float(x, y):
    import math
    x, y = float(x), float(y)
    if x != x or y != y:
        return x != x and y != y
    return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)


def _short(value, limit=200):
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


class Captured:
    """What a call printed: sys.stdout's text and what C code wrote to file descriptor 1."""

    def __enter__(self):
        import io
        import tempfile
        sys.stdout.flush()
        self.file = tempfile.TemporaryFile()
        self.saved_fd = os.dup(1)
        os.dup2(self.file.fileno(), 1)
        self.saved = sys.stdout
        sys.stdout = self.text = io.StringIO()
        return self

    def __exit__(self, *exc):
        import ctypes
        try:
            ctypes.CDLL(None).fflush(None)
        except Exception:  # noqa: BLE001
            pass
        sys.stdout = self.saved
        os.dup2(self.saved_fd, 1)
        os.close(self.saved_fd)
        self.file.seek(0)
        self.output = self.text.getvalue() + self.file.read().decode("utf-8", "replace")
        self.file.close()
        return False


def call(fn, tokens, kwargs_names, limit):
    """Call ``fn`` on fresh values of ``tokens`` (the last ``len(kwargs_names)`` by keyword)
    with the seeds reset, within ``limit`` seconds: (outcome, result or exception class,
    arguments after the call, printed text, seconds, warnings)."""
    import random
    import warnings
    import numpy as np
    values = [make(t) for t in tokens]
    npos = len(values) - len(kwargs_names)
    args, kwargs = values[:npos], dict(zip(kwargs_names, values[npos:]))
    np.random.seed(0)
    random.seed(0)
    start = time.perf_counter()
    outcome = result = None
    with warnings.catch_warnings(record=True) as caught, Captured() as printed:
        warnings.simplefilter("always")
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            result = fn(*args, **kwargs)
            if hasattr(result, "__next__") and hasattr(result, "gi_code") or \
                    type(result).__name__ == "generator":
                result = ("generator", [x for _, x in zip(range(100), result)])
            outcome = "return"
        except CallTimeout:
            outcome = "timeout"
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - the usecase's own raise
            outcome, result = "raise", (type(exc), f"{type(exc).__name__}: {exc}"[:300])
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.perf_counter() - start
    return outcome, result, values, printed.output, seconds, caught


def how_ran(caught, qualname):
    """From a jitted call's warnings: ("compiled" | "split" | "python", reason first line).
    The function's own FallbackWarning decides (a loop region of it may warn too, named
    ``qualname (loop at line N)``; the function's comes after it)."""
    from transpiler.errors import FallbackWarning
    messages = [str(w.message) for w in caught if issubclass(w.category, FallbackWarning)]
    if not messages:
        return "compiled", None
    for text in messages:
        for prefix in (f"graphjit: {qualname} runs as ",
                       f"graphjit: a call of {qualname} ran as "):
            if text.startswith(prefix):
                match = re.match(r"(Python with \d+ compiled loop\(s\) \(.*?see explain\(\)\)|"
                                 r"plain Python, its loops too \(see explain\(\)\)|"
                                 r"plain Python): (.*)", text[len(prefix):], re.S)
                if match is None:
                    return "python", text.splitlines()[0]
                way = "split" if "compiled loop" in match.group(1) else "python"
                return way, match.group(2).splitlines()[0]
    return "split", messages[0].splitlines()[0]   # only a region's: not seen so far


def functions_of(path):
    """Top-level ``def`` names of the module at ``path``, in order, each once; in a module
    whose name has no "usecase", only the ones whose name has."""
    tree = ast.parse(open(path).read())
    every = "usecase" in os.path.basename(path)
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name not in names and (
                every or "usecase" in node.name):
            names.append(node.name)
    return names


def python_function_of(obj):
    """(the plain function, how it was found) or (None, why not)."""
    import types
    if isinstance(obj, types.FunctionType):
        return obj, "def"
    for attr, said in (("py_func", "numba-decorated: .py_func"),
                       ("_pyfunc", "numba cfunc: ._pyfunc")):
        inner = getattr(obj, attr, None)
        if isinstance(inner, types.FunctionType):
            return inner, said
    inner = getattr(getattr(obj, "_dispatcher", None), "py_func", None)
    if isinstance(inner, types.FunctionType):
        return inner, "numba ufunc: ._dispatcher.py_func"
    return None, f"not a Python function: {type(obj).__module__}.{type(obj).__name__}"


def step(**event):
    """Where the child is (a call about to run), for the parent to say which call a dying
    child was in; set by ``child``."""


def run_function(module, name, args):
    """The row of one usecase function: its calls, each plain then jitted, compared."""
    import inspect
    import transpiler as tp
    row = {"module": module.__name__.rpartition(".")[2], "function": name}
    fn, found = python_function_of(getattr(module, name, None))
    row["found"] = found
    if fn is None:
        row["category"] = "skipped"
        return row
    signature = inspect.signature(fn)
    positional, keyword = [], []
    for p in signature.parameters.values():
        if p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        (keyword if p.kind == p.KEYWORD_ONLY else positional).append(p.name)
    plains = []      # (tokens, plain call, whether its answer varies), in candidate order
    for tokens in candidates(positional + keyword):
        values = [None] * len(tokens)
        try:
            signature.bind(*values[:len(positional)],
                           **dict(zip(keyword, values[len(positional):])))
        except TypeError:
            continue
        step(phase="plain", args=list(tokens))
        plain = call(fn, tokens, keyword, args.call_timeout)
        if plain[0] == "timeout":   # a first call of a Numba dispatcher it calls compiles
            plain = call(fn, tokens, keyword, args.call_timeout)
        if plain[0] == "timeout":
            continue
        step(phase="plain", args=list(tokens))
        again = call(fn, tokens, keyword, args.call_timeout)
        if again[0] != plain[0] or (plain[0] == "raise" and again[1][0] is not plain[1][0]):
            continue    # returns or raises by chance: not a call
        unstable = compare(plain, again).get("differs")   # (a fresh array, a global counter)
        plains.append((tokens, plain, unstable))
    # The calls, at most MAX_CALLS: one per argument kind first (those that return, what the
    # usecase is for, then raising ones), then other values of a kind (SECOND); run jitted in
    # candidate order.
    seconds = {(t,) * len(positional + keyword) for t in SECOND}
    ranked = sorted(plains, key=lambda p: (p[0] in seconds, p[1][0] != "return"))
    kept = {id(p) for p in ranked[:MAX_CALLS]}
    jitted = tp.jit(fn)
    calls = []
    for tokens, plain, unstable in (p for p in plains if id(p) in kept):
        step(phase="jit", args=list(tokens))
        got = call(jitted, tokens, keyword, args.jit_call_timeout)
        way, reason = how_ran(got[5], fn.__qualname__)
        entry = {"args": list(tokens), "plain": _outcome(plain), "jit": _outcome(got),
                 "how": way, "plain_s": round(plain[4], 4), "jit_s": round(got[4], 4)}
        if reason:
            entry["reason"] = reason
        if unstable:
            entry["plain_unstable"] = unstable
        entry.update(compare(plain, got, loose=bool(unstable)))
        calls.append(entry)
    row["calls"] = calls
    try:
        rows = jitted.explain().rows
        row["explain"] = [[r.region, r.status, r.reason.splitlines()[0][:300] if r.reason
                           else ""] for r in rows]
    except Exception as exc:  # noqa: BLE001
        row["explain_error"] = f"{type(exc).__name__}: {exc}"
    classify(row)
    return row


def _outcome(result):
    outcome, value = result[0], result[1]
    if outcome == "return":
        return "return " + type(value).__name__
    if outcome == "raise":
        return "raise " + value[0].__name__
    return outcome


def compare(plain, got, loose=False):
    """{"differs": what, "crash": what} for a plain and a jitted call (empty: the same);
    ``loose``: types and shapes only (the plain call's own answer varies)."""
    p_out, p_val, p_args, p_print = plain[:4]
    g_out, g_val, g_args, g_print = got[:4]
    if g_out == "timeout":
        return {"crash": f"jitted call did not return in its time limit "
                         f"(plain: {p_out} in {plain[4]:.3f} s)"}
    if p_out == "return" and g_out == "raise":
        return {"crash": f"graphjit raised {g_val[1]}", "plain_result": _short(p_val)}
    if p_out == "raise" and g_out == "return":
        return {"differs": f"plain raised {p_val[1]}, jitted returned {_short(g_val)}"}
    if p_out == "raise" and p_val[0] is not g_val[0]:
        return {"differs": f"exception {p_val[1]} != {g_val[1]}"}
    if p_out == "return":
        d = same(p_val, g_val, loose)
        if d:
            return {"differs": f"result: {d}", "plain_result": _short(p_val),
                    "jit_result": _short(g_val)}
    for i, (x, y) in enumerate(zip(p_args, g_args)):
        d = same(x, y, loose)
        if d:
            return {"differs": f"argument {i} after the call: {d}",
                    "plain_result": _short(x), "jit_result": _short(y)}
    if p_print != g_print and not loose:
        return {"differs": "printed output", "plain_result": _short(p_print),
                "jit_result": _short(g_print)}
    return {}


def classify(row):
    """The usecase's category (see the module docstring), its reason and call counts."""
    calls = row["calls"]
    row["n_calls"] = len(calls)
    row["how_calls"] = dict(collections.Counter(c["how"] for c in calls))
    if not calls:
        row["category"] = "no calls"
        return
    if any("differs" in c for c in calls):
        row["category"] = "wrong"
    elif any("crash" in c for c in calls):
        row["category"] = "crash"
    else:
        basis = [c for c in calls if c["plain"].startswith("return")] or calls
        ways = {c["how"] for c in basis}
        if ways == {"compiled"}:
            row["category"] = "compiled whole"
        elif ways == {"python"}:
            row["category"] = "python"
        else:
            row["category"] = "split"
            row["mixed"] = "split" not in ways     # whole for some types, Python for others
        fell = [c for c in basis if c["how"] != "compiled"]
        if fell:
            row["reason"] = fell[0].get("reason") or next(
                (r[2] for r in row.get("explain", []) if r[1] == "python"), "")


def import_in_numba_tests(name, path):
    """The module at ``path`` imported as ``numba.tests.<name>``: its relative imports
    (``from .support import ...``) find the installed Numba's test package; its code is the
    file's (not the installed copy's)."""
    import importlib.util
    import numba.tests  # noqa: F401 - the package the module joins
    spec = importlib.util.spec_from_file_location(f"numba.tests.{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    setattr(numba.tests, name, module)     # as an import does: numba.tests.<name> resolves
    spec.loader.exec_module(module)
    return module


def child(path, skip, args):
    """Import the module at ``path``, run its functions after the first ``skip`` ones; one
    JSON line per event on the protocol stream (the real stdout, kept from the usecases)."""
    import importlib
    import warnings
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.stdout = open(os.devnull, "w")

    def say(**event):
        protocol.write(json.dumps(event, default=str) + "\n")
        protocol.flush()

    global step
    step = functools.partial(say, event="step")

    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _on_alarm)
    folder = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)[:-3]
    sys.path.insert(0, folder)
    try:
        names = functions_of(path)
        with Captured():
            try:
                module = importlib.import_module(name)
            except ImportError as exc:
                if "relative import" not in str(exc):
                    raise
                module = import_in_numba_tests(name, path)
    except BaseException as exc:  # noqa: BLE001
        say(event="import_error", error=f"{type(exc).__name__}: {exc}"[:400])
        return
    say(event="functions", names=names)
    for index, fname in enumerate(names):
        if index < skip:
            continue
        say(event="start", index=index, function=fname)
        start = time.perf_counter()
        try:
            row = run_function(module, fname, args)
        except BaseException as exc:  # noqa: BLE001 - the harness's own failure: reported
            row = {"module": name, "function": fname, "category": "crash",
                   "harness_error": f"{type(exc).__name__}: {exc}"[:400]}
        row["module"] = name
        row["seconds"] = round(time.perf_counter() - start, 3)
        say(event="row", index=index, row=row)
    say(event="done")


# -- the parent ----------------------------------------------------------------------------------

def run_module(path, args):
    """Rows of the module at ``path``: a child runs its functions; where one dies or hangs,
    that function is a crash and a new child goes on after it."""
    name = os.path.basename(path)[:-3]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]),
               PYTHONHASHSEED="0")
    deadline = time.monotonic() + args.timeout
    rows, names, skip = [], None, 0
    while True:
        command = [sys.executable, os.path.abspath(__file__), "--child", path, str(skip),
                   "--call-timeout", str(args.call_timeout),
                   "--jit-call-timeout", str(args.jit_call_timeout)]
        with tempfile.TemporaryFile() as errors:
            process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=env,
                                       text=True, start_new_session=True)
            lines = queue.Queue()
            reader = threading.Thread(target=lambda: [lines.put(x) for x in process.stdout] +
                                      [lines.put(None)], daemon=True)
            reader.start()
            current, finished, why, last_step = None, False, None, None
            limit = time.monotonic() + args.function_timeout
            while True:
                now = time.monotonic()
                try:
                    line = lines.get(timeout=max(0.01, min(limit, deadline) - now))
                except queue.Empty:
                    why = "module time limit" if time.monotonic() >= deadline else \
                        f"no answer in {args.function_timeout} s (hung)"
                    os.killpg(process.pid, signal.SIGKILL)
                    break
                if line is None:
                    break
                event = json.loads(line)
                if event["event"] == "import_error":
                    rows.append({"module": name, "category": "import error",
                                 "error": event["error"]})
                    finished = True
                elif event["event"] == "functions":
                    names = event["names"]
                elif event["event"] == "start":
                    current, last_step = event["index"], None
                    limit = time.monotonic() + args.function_timeout
                elif event["event"] == "step":
                    last_step = event
                elif event["event"] == "row":
                    rows.append(event["row"])
                    report(event["row"])
                    current = None
                elif event["event"] == "done":
                    finished = True
            process.wait()
            errors.seek(0)
            tail = errors.read().decode("utf-8", "replace").strip().splitlines()[-4:]
        if finished:
            return rows
        if names is None or current is None:
            rows.append({"module": name, "category": "import error",
                         "error": why or f"child died (exit {process.returncode}): "
                                         + " | ".join(tail)[:400]})
            return rows
        where = "" if last_step is None else \
            f" in the {last_step['phase']} call of {last_step['args']}"
        died = (why or f"child died (exit {process.returncode})") + where + (
            "" if why else ": " + " | ".join(tail)[:400])
        row = {"module": name, "function": names[current], "category": "crash",
               "child_died": died}
        if last_step is not None and last_step["phase"] == "plain":
            row["category"] = "plain crashed"     # not graphjit's: the usecase itself
        if why == "module time limit":
            row["category"] = "not run"
        rows.append(row)
        report(row)
        skip = current + 1
        if time.monotonic() >= deadline:
            for later in names[skip:]:
                rows.append({"module": name, "function": later, "category": "not run",
                             "error": "module time limit"})
            return rows


_print_lock = threading.Lock()


def report(row):
    with _print_lock:
        extra = row.get("reason") or row.get("child_died") or row.get("harness_error") or ""
        bad = next((c for c in row.get("calls", []) if "differs" in c or "crash" in c), None)
        if bad is not None:
            extra = f"{bad['args']}: {bad.get('differs') or bad.get('crash')}"
        print(f"{row['module'] + ':' + row.get('function', '-'):<58} "
              f"{row['category']:<15} calls {row.get('n_calls', 0):>2} "
              f"{row.get('seconds', 0):6.2f} s  {extra[:110]}", flush=True)


def normalize(reason):
    """A reason without its specifics (file:line, quoted names, numbers, addresses), for
    counting; the first 80 characters."""
    text = re.sub(r"^\S+\.py:\d+:\s*", "", reason or "")
    text = text.replace("Numba cannot compile this (TypingError): ", "Numba TypingError: ")
    text = re.sub(r"\S+\.py:\d+", "FILE:N", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x?", text)
    text = re.sub(r"by (\w+)\[i\], for v in \1\b", "by x[i], for v in x", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "'?'", text)
    text = re.sub(r"\b\d+\b", "N", text)
    return text.strip()[:80]


def summary(rows):
    usecases = [r for r in rows if r["category"] in CATEGORIES]
    counts = collections.Counter(r["category"] for r in usecases)
    total = len(usecases)
    ncalls = sum(r.get("n_calls", 0) for r in usecases)
    modules = sorted({r["module"] for r in rows})
    print(f"\n{total} usecases with calls ({ncalls} calls) in {len(modules)} modules")
    print(f"{'category':<16}{'usecases':>9}{'share':>8}")
    for category in CATEGORIES:
        print(f"{category:<16}{counts[category]:>9}{100 * counts[category] / max(total, 1):>7.1f}%")
    mixed = sum(bool(r.get("mixed")) for r in usecases)
    print(f"  (split: {mixed} of them compiled whole for some argument types and plain "
          f"Python for others, no loop split)")
    calls = collections.Counter(c["how"] for r in usecases for c in r.get("calls", []))
    print(f"calls: {dict(calls)}; differing calls: "
          f"{sum('differs' in c for r in usecases for c in r.get('calls', []))}; crashing "
          f"calls: {sum('crash' in c for r in usecases for c in r.get('calls', []))}")
    others = collections.Counter(r["category"] for r in rows if r["category"] not in CATEGORIES)
    print(f"not counted: {dict(others)}")
    for r in rows:
        if r["category"] == "import error":
            print(f"  import error {r['module']}: {r['error'][:150]}")
    first = [next((c for c in r["calls"] if c["plain"].startswith("return")), r["calls"][0])
             for r in usecases if r.get("calls")]
    print(f"first call (the first whose plain call returns) compiled whole: "
          f"{sum(c['how'] == 'compiled' for c in first)} of {len(first)}")
    reasons = collections.Counter(normalize(r["reason"]) for r in usecases if r.get("reason"))
    examples = collections.defaultdict(list)
    for r in usecases:
        if r.get("reason"):
            examples[normalize(r["reason"])].append(f"{r['module']}:{r['function']}")
    print("\ntop reasons (usecases not compiled whole; the first fallen-back call's reason):")
    for reason, count in reasons.most_common(25):
        print(f"{count:>5}  {reason}\n         e.g. {', '.join(examples[reason][:2])}")
    bad = [r for r in usecases if r["category"] in ("wrong", "crash")]
    if bad:
        print("\nwrong / crash:")
        for r in bad:
            print(f"  {r['category']:<6} {r['module']}:{r['function']}")
            for c in r.get("calls", []):
                if "differs" in c or "crash" in c:
                    print(f"         {c['args']} (ran {c['how']}): "
                          f"{c.get('differs') or c.get('crash')}; plain "
                          f"{c.get('plain_result', c['plain'])}, jitted "
                          f"{c.get('jit_result', c['jit'])}"[:400])
            for key in ("child_died", "harness_error"):
                if key in r:
                    print(f"         {r[key][:300]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", help="the extracted usecase modules")
    parser.add_argument("--extract", nargs=2, metavar=("GITDIR", "DIR"),
                        help="write numba/tests/**/*usecase*.py of GITDIR's HEAD into DIR")
    parser.add_argument("--with-test-modules", action="store_true",
                        help="--extract: also test_*.py modules defining def *usecase*")
    parser.add_argument("--only", nargs="*", help="module names (file names without .py)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=900, help="seconds per module")
    parser.add_argument("--function-timeout", type=float, default=180,
                        help="seconds per function before its child is killed")
    parser.add_argument("--call-timeout", type=float, default=1.0,
                        help="a plain call taking longer is not a call")
    parser.add_argument("--jit-call-timeout", type=float, default=60.0)
    parser.add_argument("--json", help="write one JSON line per usecase here")
    parser.add_argument("--from-json", metavar="PATH",
                        help="print the summary of an earlier run's --json file, run nothing")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child[0], int(args.child[1]), args)
    if args.extract:
        return extract(*args.extract, with_test_modules=args.with_test_modules)
    if args.from_json:
        with open(args.from_json) as handle:
            return summary([json.loads(line) for line in handle])
    if not args.folder:
        parser.error("a folder of usecase modules (or --extract GITDIR DIR)")
    paths = sorted(os.path.join(args.folder, f) for f in os.listdir(args.folder)
                   if f.endswith(".py") and (not args.only or f[:-3] in args.only))
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda p: run_module(p, args), paths))
    rows = [row for module_rows in results for row in module_rows]
    if args.json:
        with open(args.json, "w") as handle:
            for row in rows:
                handle.write(json.dumps(row, default=str) + "\n")
    summary(rows)
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"],
                            capture_output=True, text=True).stdout.strip() or "?"
    print(f"\n{time.perf_counter() - start:.0f} s wall, --jobs {args.jobs}; graphjit {commit} "
          f"({ROOT})")


if __name__ == "__main__":
    main()
