"""Operator x type matrix: every operator on every pair of input types, compiled vs plain Python.

The universe (``TYPES``) is the 14 NumPy scalar types (bool_, int8 ... uint64, float16 ...
complex128) and the Python bool, int, float and complex, each with a few values chosen for
their edges (wraparound, overflow, division by zero, NaN, -0.0). A case is one operator (an
expression such as ``a + b``, ``s = a; s += b``, ``round(a, 1)``) on one tuple of arguments:
two scalars, or one small 1-D array of a NumPy dtype (``ARRAYS``) and a scalar of any type.

Every operator is one generated function (``source()``, written to a real module file so that
graphjit can read its source); **one** jitted object per operator is called with all of that
operator's cases in sequence, so that it also checks dispatch by type (a specialization must
never serve other argument types). Plain and compiled runs get deep copies of the arguments;
their outcomes, ``('return', value)`` or ``('raise', exception type)``, must be the same by
``same()``: the same types (NumPy dtypes included), the same values bit for bit (any NaN equals
any NaN; -0.0 is not 0.0), the same exception type; also the arguments after the call.

    python -m tests.dtype_universe                 # the full matrix, a report (make matrix)
    python -m tests.dtype_universe --sample 300 --ops "a + b" "a ** b"

tests/test_dtype_matrix.py runs a fixed sample of it in ``make test``.
"""
import argparse
import copy
import os
import random
import shutil
import sys
import tempfile
import time
import warnings
from collections import Counter

import numpy as np

if __package__:
    from .fuzzing.check import load, safe_repr, type_name
else:  # imported by pytest, with tests/ on sys.path
    from fuzzing.check import load, safe_repr, type_name

# -- the universe ---------------------------------------------------------------------------

#: type -> the values a scalar argument of that type takes.
TYPES = {
    np.bool_: [True, False],
    np.int8: [127, -128, 0],
    np.int16: [-32768, 7, 0],
    np.int32: [2 ** 31 - 1, -5, 0],
    np.int64: [2 ** 63 - 1, -2 ** 63, 3, 0],
    np.uint8: [200, 255, 0],
    np.uint16: [65535, 3, 0],
    np.uint32: [2 ** 32 - 1, 7, 0],
    np.uint64: [2 ** 64 - 1, 2 ** 63, 2, 0],
    np.float16: [0.5, -1.5, 65504.0],
    np.float32: [0.5, -1.5, 3e38, -0.0],
    np.float64: [0.5, -1.5, 1e308, float("nan")],
    np.complex64: [1 + 2j, -0.5j, 0j],
    np.complex128: [1.5 - 2j, 1e308 + 1j, 0j],
    bool: [True, False],
    int: [0, -7, 300, 2 ** 40, 2 ** 63 - 1],
    float: [0.5, -1.5, 1e308, float("nan"), -0.0],
    complex: [1 + 2j, 0j, -1.5 + 0.5j],
}

NUMPY_TYPES = [tp for tp in TYPES if tp.__module__ == "numpy"]


def scalars(tp):
    """The scalar arguments of type ``tp`` (``TYPES[tp]`` converted to ``tp``)."""
    return [tp(value) for value in TYPES[tp]]


def array_of(tp):
    """The one array argument of dtype ``tp``: 3 elements with its edge values."""
    values = (TYPES[tp] * 3)[:3]
    return np.array(values, dtype=tp)


ARRAYS = [array_of(tp) for tp in NUMPY_TYPES]

# -- operators ------------------------------------------------------------------------------

BINARY = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"]
COMPARISONS = ["<", "<=", ">", ">=", "==", "!="]


class Operator:
    """One operator: its display ``name``, ``arity`` (1 or 2) and function ``body`` (source).

    The generated function's parameters are ``a`` (and ``b``).
    """

    def __init__(self, name, arity, body=None):
        self.name, self.arity = name, arity
        self.body = body or f"return {name}"

    def __repr__(self):
        return f"Operator({self.name!r})"


OPERATORS = (
    [Operator(f"a {op} b", 2) for op in BINARY + COMPARISONS]
    + [Operator("divmod(a, b)", 2), Operator("min(a, b)", 2), Operator("max(a, b)", 2),
       Operator("sum((a, b))", 2)]
    + [Operator(f"s = a; s {op}= b", 2, f"s = a\n    s {op}= b\n    return s") for op in BINARY]
    + [Operator(expr, 1) for expr in (
        "-a", "+a", "~a", "abs(a)", "int(a)", "float(a)", "bool(a)", "round(a)", "round(a, 1)",
        "len(range(a))", "isinstance(a, int)", "isinstance(a, float)", "math.floor(a)",
        "math.ceil(a)", "math.sqrt(a)", "math.exp(a)", "math.isnan(a)")]
    # ufuncs called on scalars take NumPy's loops (analysis/numpy_scalars.ufunc_plan); the
    # transcendental ones (np.exp...) NumPy's own inner loops (transpiler.ir.ufunc_loop)
    + [Operator(f"np.{name}(a, b)", 2) for name in (
        "add", "floor_divide", "remainder", "divmod", "fmod", "maximum", "minimum", "fmax",
        "power", "copysign", "arctan2", "hypot", "logaddexp", "fmin")]
    + [Operator("np.where(True, a, b)", 2), Operator("np.where(False, a, b)", 2)]
    + [Operator(f"np.{name}(a)", 1) for name in (
        "negative", "absolute", "sign", "sqrt", "reciprocal", "spacing", "isnan", "floor",
        "invert", "square", "round", "exp", "expm1", "log", "log10", "sin", "cos", "tan",
        "arcsin", "arccosh", "tanh", "cbrt", "rad2deg")]
)


def source(operators=OPERATORS):
    """Module text with one function ``op_<i>`` per operator (i: its index in OPERATORS)."""
    parts = ["import math\nimport numpy as np\n"]
    for op in operators:
        params = "a, b" if op.arity == 2 else "a"
        parts.append(f"\ndef op_{OPERATORS.index(op)}({params}):\n    {op.body}\n")
    return "".join(parts)


def _huge(op, args):
    """True where plain Python would build an enormous int (``300 ** 2**40``, ``1 << 2**40``)."""
    if op.arity != 2 or not any(f" {sym}" in op.name for sym in ("**", "<<")):
        return False
    a, b = args
    return (type(a) is int and abs(a) > 1 and type(b) in (int, bool) and b > 4096)


def cases(op):
    """The argument tuples of ``op``, grouped by argument types (one type pair after another)."""
    singles = [x for tp in TYPES for x in scalars(tp)]
    if op.arity == 1:
        return [(x,) for x in singles] + [(arr,) for arr in ARRAYS]
    out = [(a, b) for ta in TYPES for tb in TYPES for a in scalars(ta) for b in scalars(tb)]
    for arr in ARRAYS:
        for tp in TYPES:
            out += [(arr, x) for x in scalars(tp)]
            out += [(x, arr) for x in scalars(tp)]
    return [args for args in out if not _huge(op, args)]


# -- outcomes and their comparison ----------------------------------------------------------

def run(fn, args, watch=None):
    """``fn(*deepcopy(args))``: (outcome, args after the call, ran_as_python, message).

    The outcome is ``('return', value)`` or ``('raise', exception type)``; ``message`` is the
    exception's first line ("" on return). NumPy floating-point errors and warnings are
    ignored. ``ran_as_python``: the code object ``watch`` (the plain function's) was called
    during the call, i.e. graphjit fell back to Python for it (whatever it warned: graphjit
    warns once per reason and function).
    """
    args = copy.deepcopy(args)
    message = ""
    ran = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is watch:
            ran.append(True)

    old_profile = sys.getprofile()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if watch is not None:
            sys.setprofile(profile)
        try:
            outcome = ("return", fn(*args))
        except Exception as exc:  # noqa: BLE001 - the exception type is the outcome
            outcome = ("raise", type(exc))
            message = str(exc).splitlines()[0][:160] if str(exc) else ""
        finally:
            if watch is not None:
                sys.setprofile(old_profile)
    return outcome, args, bool(ran), message


def _floats_same(p, c):
    """Float arrays (or scalars) equal bit for bit, except that every NaN equals every NaN."""
    p, c = np.asarray(p), np.asarray(c)
    nan = np.isnan(p) & np.isnan(c)
    return bool(np.all(nan | ((p == c) & (np.signbit(p) == np.signbit(c)))))


def value_difference(p, c):
    """None when ``c`` is ``p`` by the module's rules (type, dtype, shape, bits), else a phrase."""
    if type(p) is not type(c):
        return f"type {type_name(type(p))} vs {type_name(type(c))}"
    if isinstance(p, (tuple, list)):
        if len(p) != len(c):
            return f"length {len(p)} vs {len(c)}"
        for index, (pi, ci) in enumerate(zip(p, c)):
            diff = value_difference(pi, ci)
            if diff:
                return f"[{index}]: {diff}"
        return None
    if isinstance(p, (np.ndarray, np.generic)):
        if p.dtype != c.dtype:
            return f"dtype {p.dtype} vs {c.dtype}"
        if np.shape(p) != np.shape(c):
            return f"shape {np.shape(p)} vs {np.shape(c)}"
    if isinstance(p, (float, complex, np.inexact, np.ndarray)) and (
            np.asarray(p).dtype.kind in "fc"):
        same = (_floats_same(np.real(p), np.real(c)) and _floats_same(np.imag(p), np.imag(c)))
    else:
        try:
            same = bool(np.all(p == c))
        except Exception:  # noqa: BLE001 - incomparable values differ
            same = False
    return None if same else "value"


def same(plain, compiled):
    """None when two outcomes agree, else a short description of the difference.

    An outcome is ``('return', value)`` or ``('raise', exception type)``. Returned values must
    have the same type (``type(p) is type(c)``, recursively in tuples), NumPy dtype and shape,
    and the same value: floats bit for bit (-0.0 is not 0.0), any NaN equal to any NaN.
    Exceptions must be of the same type (not a subclass).
    """
    (pk, pv), (ck, cv) = plain, compiled
    if pk != ck:
        return f"plain {pk}s, compiled {ck}s"
    if pk == "raise":
        return None if pv is cv else f"raise {type_name(pv)} vs {type_name(cv)}"
    return value_difference(pv, cv)


def show(value):
    """A value for reports: its repr, with the type of a Python number (``0.5 (float)``) and
    the dtype of an array where the repr leaves it out."""
    text = " ".join(safe_repr(value, 160).split())
    if type(value) in (bool, int, float, complex):
        return f"{text} ({type(value).__name__})"
    if isinstance(value, np.ndarray) and "dtype=" not in text:
        return f"{text} ({value.dtype})"
    return text


def show_outcome(outcome, message=""):
    """'returns <value>' or 'raises <Type>: <message>'."""
    kind, value = outcome
    if kind == "raise":
        return f"raises {type_name(value)}" + (f": {message}" if message else "")
    return f"returns {show(value)}"


# -- running ----------------------------------------------------------------------------------

def _types(args):
    return tuple((type(x), getattr(x, "dtype", None)) for x in args)


def check_operator(op, fn, jit, arg_tuples, fresh=False):
    """Run ``fn`` and ``jit(fn)`` on every argument tuple, in order: one jitted object for all
    of them, or with ``fresh`` a new one for each tuple of argument types (what a
    specialization computes, apart from dispatch and what earlier calls left behind).

    Returns a dict: ``op`` (its name), ``cases``, ``fallbacks`` (cases that ran as plain
    Python inside ``compiled``: correct, but not compiled) and ``differences``, a list of
    dicts (expr, args, plain, compiled, why). The arguments after the call are compared too,
    except after an exception in a call that ran the plain function itself (there both hold
    whatever NumPy left midway: not reproducible from run to run).
    """
    result = {"op": op.name, "cases": 0, "fallbacks": 0, "differences": []}
    compiled, types = jit(fn), None
    for args in arg_tuples:
        if fresh and _types(args) != types:
            compiled, types = jit(fn), _types(args)
        plain, plain_after, _, plain_message = run(fn, args)
        comp, comp_after, fell_back, comp_message = run(compiled, args, watch=fn.__code__)
        result["cases"] += 1
        result["fallbacks"] += fell_back
        why = same(plain, comp)
        if why is None and not (plain[0] == "raise" and fell_back):
            # (after a raise in a call that ran the plain function itself, the arguments hold
            # what NumPy left: `s **= np.int16(-32768)` on an int8 array raises ValueError
            # midway and leaves uninitialised buffer contents in `s`, other bits each run)
            for name, before, after in zip("ab", plain_after, comp_after):
                diff = value_difference(before, after)
                if diff:
                    why = f"argument {name} after the call: {diff}"
                    break
        if why is not None:
            result["differences"].append({
                "expr": op.name, "why": why,
                "args": ", ".join(f"{name}={show(x)}" for name, x in zip("ab", args)),
                "plain": show_outcome(plain, plain_message),
                "compiled": show_outcome(comp, comp_message)})
    return result


def select(operators=OPERATORS, sample=None, seed=0):
    """{operator: [argument tuples]}: all cases, or a fixed random ``sample`` of them (in the
    cases' order, so that every operator still sees its type pairs one after another)."""
    per_op = {op: cases(op) for op in operators}
    if sample is None:
        return per_op
    keys = [(op, index) for op, arg_list in per_op.items() for index in range(len(arg_list))]
    chosen = sorted(random.Random(seed).sample(range(len(keys)), min(sample, len(keys))))
    picked = {}
    for key in chosen:
        op, index = keys[key]
        picked.setdefault(op, []).append(per_op[op][index])
    return picked


def run_matrix(operators=OPERATORS, sample=None, seed=0, jit=None, folder=None, fresh=False):
    """Check ``operators`` (all cases, or a ``sample`` with ``seed``) in this process; ``fresh``:
    see check_operator.

    ``jit`` compiles a function (default ``transpiler.jit``; the harness's own tests pass an
    identity or a deliberately wrong one). Returns check_operator's dicts, one per operator.
    """
    if jit is None:
        import transpiler as tp
        jit = tp.jit
    own_folder = folder is None
    folder = folder or tempfile.mkdtemp(prefix="graphjit-matrix-")
    try:
        _, module = load(source(operators), f"op_{OPERATORS.index(operators[0])}", folder)
        results = []
        for op, arg_tuples in select(operators, sample, seed).items():
            fn = getattr(module, f"op_{OPERATORS.index(op)}")
            results.append(check_operator(op, fn, jit, arg_tuples, fresh))
        sys.modules.pop(module.__name__, None)
        return results
    finally:
        if own_folder:
            shutil.rmtree(folder, ignore_errors=True)


def _run_one(index, sample, seed, fresh):
    """Worker process: run_matrix for OPERATORS[index], with its own cache folder."""
    os.environ["GRAPHJIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="graphjit-matrix-cache-")
    for name in ("GRAPHJIT_FULLGRAPH", "GRAPHJIT_DISABLE", "GRAPHJIT_CACHE"):
        os.environ.pop(name, None)
    return run_matrix([OPERATORS[index]], sample=sample, seed=seed, fresh=fresh)


def run_in_workers(operators, jobs=1, sample=None, seed=0, progress=None, fresh=False):
    """run_matrix in worker processes, a fresh one per operator (``jobs`` at a time), so that
    a crash costs one operator only; a ``sample`` is drawn per operator. An operator whose
    worker dies runs again alone; dying again, its result is one difference "worker crashed".
    ``progress(result)`` is called as each operator finishes.
    """
    import concurrent.futures as cf
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")

    def pool_run(ops, workers):
        done, broken = {}, []
        with cf.ProcessPoolExecutor(workers, mp_context=ctx, max_tasks_per_child=1) as pool:
            futures = {pool.submit(_run_one, OPERATORS.index(op), sample, seed, fresh): op
                       for op in ops}
            for future in cf.as_completed(futures):
                op = futures[future]
                try:
                    done[op] = future.result()[0]
                except cf.process.BrokenProcessPool:
                    broken.append(op)
                    continue
                if progress:
                    progress(done[op])
        return done, broken

    results, broken = pool_run(operators, jobs)
    for op in broken:
        done, again = pool_run([op], 1)
        results.update(done)
        if again:
            results[op] = {"op": op.name, "cases": 0, "fallbacks": 0, "differences": [{
                "expr": op.name, "why": "worker crashed", "args": "", "plain": "",
                "compiled": ""}]}
    return [results[op] for op in operators]


def report(results, seconds=None, limit=40):
    """The summary table (per operator: cases, differences, fallbacks), the most common kinds
    of difference, and up to ``limit`` differences in full: the first of each operator and
    kind, in order, then the next ones."""
    lines = ["fallbacks: cases in which the jitted object ran the plain function (correct, but "
             "not compiled)", f"{'operator':<22}{'cases':>8}{'diffs':>8}{'fallbacks':>10}"]
    for r in results:
        lines.append(f"{r['op']:<22}{r['cases']:>8}{len(r['differences']):>8}"
                     f"{r['fallbacks']:>10}")
    total = sum(r["cases"] for r in results)
    diffs = [d for r in results for d in r["differences"]]
    lines.append(f"{'total':<22}{total:>8}{len(diffs):>8}"
                 f"{sum(r['fallbacks'] for r in results):>10}")
    if seconds is not None:
        lines.append(f"({seconds:.0f} s)")
    if diffs:
        kinds = Counter(d["why"] for d in diffs)
        lines.append("\nmost common differences:")
        lines += [f"{count:>7}  {why}" for why, count in kinds.most_common(25)]
        seen = set()
        firsts = [d for d in diffs if (d["expr"], d["why"]) not in seen
                  and not seen.add((d["expr"], d["why"]))]
        first_ids = {id(d) for d in firsts}
        shown = (firsts + [d for d in diffs if id(d) not in first_ids])[:limit]
        lines.append(f"\n{len(shown)} of {len(diffs)} differences (the first of each operator "
                     f"and kind: {len(firsts)}):")
        for d in shown:
            lines.append(f"- {d['expr']}  with {d['args']}: {d['why']}\n"
                         f"    plain:    {d['plain']}\n    compiled: {d['compiled']}")
    return "\n".join(lines)


def main(argv=None):
    """Command line: run the matrix, print the report; exit status 1 if anything differs."""
    parser = argparse.ArgumentParser(prog="python -m tests.dtype_universe",
                                     description="Operator x type matrix, compiled vs plain.")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--sample", type=int, default=None,
                        help="this many random cases per operator (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ops", nargs="*", default=None,
                        help="operator names, e.g. 'a + b' 'round(a, 1)' (default: all)")
    parser.add_argument("--fresh", action="store_true",
                        help="a new jitted object per operator and argument types (default: "
                             "one per operator, for all its cases)")
    parser.add_argument("--limit", type=int, default=40, help="differences listed in full")
    parser.add_argument("--out", default=None, help="also write the report to this file")
    args = parser.parse_args(argv)
    operators = OPERATORS
    if args.ops:
        by_name = {op.name: op for op in OPERATORS}
        unknown = [name for name in args.ops if name not in by_name]
        if unknown:
            parser.error(f"unknown operators {unknown}; known: {list(by_name)}")
        operators = [by_name[name] for name in args.ops]
    started = time.monotonic()

    def progress(result):
        print(f"{result['op']:<22} {result['cases']:>6} cases {len(result['differences']):>6}"
              f" differences  ({time.monotonic() - started:.0f} s)", flush=True)

    results = run_in_workers(operators, jobs=args.jobs, sample=args.sample, seed=args.seed,
                             progress=progress, fresh=args.fresh)
    text = report(results, time.monotonic() - started, limit=args.limit)
    print(text)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write(text + "\n")
    return 1 if any(r["differences"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
