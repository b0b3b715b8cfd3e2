"""A fuzzing round: generate programs, check them plain vs compiled, shrink and save mismatches.

    python -m tests.fuzzing.run --n 10000 --seed 1        # or: make fuzz N=10000

prints progress every few hundred programs and a summary line::

    programs 2000, compiled 1990, fell back 10 (...), skipped 3, mismatches 412 in 9 kinds, 512.3 s

Programs come from two universes (generate.py): the classic one (ints, floats, a float32 array)
and, for 40% of them, the NumPy one (Python and NumPy scalars of every dtype, arrays of every
dtype, tuples and lists of numbers); each is called with 3 inputs and then a history of 3 re-typed calls, all through one
jitted object (check.compare_function). For 25% of them (``--island-share``) the generator adds a
``log`` parameter (a fresh empty list each call; sometimes a dict ``d0`` too) and statements that
graphjit runs as Python islands inside compiled loops (``log.append(f"{x}")``...); the log is
compared element by element, by type and value, and the summary has a line for them::

    islands: 52 programs with a log (38 with island statements): compiled whole 0, split 40
    (with islands that ran compiled: 25, 61 islands), plain Python 12, skipped 0; mismatches 0

Every mismatch kind (check.py) is shrunk (at most ``--shrink-per-kind`` examples each) and the
shrunk program is saved as tests/fuzzing/regressions/case_<hash>.py when its *signature* (the
kind plus the main operator left in the shrunk program, see MAIN_OPERATORS) is new, up to
``--max-saved`` files in the folder. tests/test_fuzz_short.py runs every saved case.
The exit status is 1 when a mismatch (or a fuzzer error) was found.
"""
import argparse
import ast
import collections
import hashlib
import math
import os
import re
import sys
import time

import numpy as np

from .check import HISTORY, known_gap
from .generate import (ISLAND_SHARE, NUMPY_UNIVERSE, generate, make_history, make_inputs,
                       pick_universe, program_rng)
from .shrink import shrink
from .worker import Pool

REGRESSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")
_OP_SYMBOLS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%",
               "Pow": "**", "USub": "neg", "UAdd": "pos", "Not": "not", "Invert": "~",
               "LShift": "<<", "RShift": ">>", "BitAnd": "&", "BitOr": "|", "BitXor": "^"}


class Tally:
    """Counts of one round."""

    def __init__(self):
        self.programs = 0
        self.compiled = 0
        self.fell_back = 0
        self.history_fell_back = 0      # compiled for the inputs, fell back in the history
        self.skipped = 0
        self.errors = []
        self.reasons = collections.Counter()
        self.kinds = collections.Counter()
        self.known = collections.Counter()  # documented gaps (check.known_gap): not failures
        self.mismatches = []          # dicts: index, kind, detail, plain, compiled, source, args
        self.logs = collections.Counter()     # programs with a log (Python islands), by outcome

    def add(self, index, program, calls, result):
        """Count one checked program; ``calls``: its argument tuples, inputs then history."""
        self.programs += 1
        status = result["status"]
        if any(spec == "log" for _, spec in program.params):
            self._add_log(program, result)
        if status == "skip":
            self.skipped += 1
            return
        if status in ("error", "invalid"):
            self.errors.append((index, result.get("why", "")))
            return
        if result["fallbacks"]:
            self.fell_back += 1
            for reason in result["fallbacks"]:
                self.reasons[reason] += 1
        elif status in ("ok", "mismatch"):
            self.compiled += 1
            if result.get("history_fallbacks"):
                self.history_fell_back += 1
        for reason in result.get("history_fallbacks", ()):
            self.reasons[reason] += 1
        if status == "mismatch":
            gap = known_gap(result.get("kind", status), operators(program.source, program.name),
                            result.get("detail", ""), result.get("plain", ""),
                            result.get("compiled", ""))
            if gap is not None:
                self.known[gap] += 1
                return
        if status in ("mismatch", "crash", "timeout"):
            kind = result.get("kind", status)
            self.kinds[kind] += 1
            # The failing call, and the calls the same jitted object needs before it: none
            # for a mismatch that a fresh object shows; all for a crash (which call is unknown).
            which = result.get("input", len(calls) - 1 if status != "mismatch" else 0)
            before = calls[:which] if status != "mismatch" or kind.startswith(HISTORY) else []
            self.mismatches.append({
                "index": index, "kind": kind, "detail": result.get("detail", result.get("why", "")),
                "plain": result.get("plain", ""), "compiled": result.get("compiled", status),
                "source": program.source, "name": program.name, "universe": program.universe,
                "args": calls[which], "before": list(before),
                "history": bool(result.get("history")),
                "log": any(spec == "log" for _, spec in program.params)})

    def _add_log(self, program, result):
        logs = self.logs
        logs["programs"] += 1
        logs["with statements"] += program.islands > 0
        status = result["status"]
        if status in ("skip", "error", "invalid", "crash", "timeout"):
            logs[status] += 1
        elif not result["fallbacks"]:
            logs["compiled whole"] += 1
        elif result.get("compiled_loops"):
            logs["split"] += 1
            if result.get("islands"):
                logs["with islands"] += 1
                logs["islands"] += result["islands"]
        else:
            logs["plain"] += 1

    def islands_line(self):
        """The summary of the programs with a log (Python islands)."""
        logs = self.logs
        found = sum(1 for m in self.mismatches if m.get("log"))
        return (f"islands: {logs['programs']} programs with a log ({logs['with statements']} with"
                f" island statements): compiled whole {logs['compiled whole']}, split "
                f"{logs['split']} (with islands that ran compiled: {logs['with islands']}, "
                f"{logs['islands']} islands), plain Python {logs['plain']}, skipped "
                f"{logs['skip']}, crashed or timed out {logs['crash'] + logs['timeout']}; "
                f"mismatches {found}")

    def line(self, seconds):
        top = "; ".join(f"{count}x {reason}" for reason, count in self.reasons.most_common(3))
        return (f"programs {self.programs}, compiled {self.compiled} (of which "
                f"{self.history_fell_back} fell back in the history), fell back {self.fell_back}"
                + (f" (top reasons: {top})" if top else "")
                + f", skipped {self.skipped}, mismatches {len(self.mismatches)} in "
                f"{len(self.kinds)} kinds, documented gaps {sum(self.known.values())}"
                + (" (" + "; ".join(f"{n}x {gap}" for gap, n in self.known.most_common()) + ")"
                   if self.known else "")
                + f", errors {len(self.errors)}, {seconds:.1f} s")


HISTORY_CALLS = 1      # re-typed calls per program (then one with the first types again)


def tasks_for(seed, count, start=0, history_calls=HISTORY_CALLS, numpy_share=NUMPY_UNIVERSE,
              island_share=ISLAND_SHARE):
    """(index, task) pairs with the Program kept for reports. Every program gets 3 inputs of
    its parameters' types and a history of ``history_calls`` calls with re-typed parameters
    and one with the first types again (generate.make_history; none for 0), all for one
    jitted object; each from its own random stream. ``numpy_share``: the share of programs
    from the NumPy universe."""
    for index in range(start, start + count):
        universe = pick_universe(program_rng(seed, index, "universe"), numpy_share)
        program = generate(program_rng(seed, index), universe=universe,
                           islands=program_rng(seed, index, "islands"), island_share=island_share)
        inputs = make_inputs(program_rng(seed, index, "inputs"), program.params)
        history = []
        if history_calls:
            history = make_history(program_rng(seed, index, "history"), program.params,
                                   history_calls + 1)
        yield index, {"source": program.source, "name": program.name, "inputs": inputs,
                      "history": history, "program": program}


def run_round(n, seed=1, jobs=None, progress=250, log=print, pool=None,
              history_calls=HISTORY_CALLS, numpy_share=NUMPY_UNIVERSE, island_share=ISLAND_SHARE):
    """Check ``n`` programs; returns (Tally, seconds)."""
    start = time.monotonic()
    tally = Tally()
    kept = {}

    def stream():
        for index, task in tasks_for(seed, n, history_calls=history_calls,
                                     numpy_share=numpy_share, island_share=island_share):
            kept[index] = (task.pop("program"), task["inputs"] + task["history"])
            yield index, task

    own = pool is None
    pool = pool or Pool(jobs)
    try:
        for done, (index, result) in enumerate(pool.imap(stream()), 1):
            program, calls = kept.pop(index)
            found = len(tally.mismatches)
            tally.add(index, program, calls, result)
            if len(tally.mismatches) > found and log:
                # said when found: a long round stopped early still tells what it saw
                m = tally.mismatches[-1]
                log(f"mismatch at program {index}: {m['kind']} | plain {m['plain']} | "
                    f"compiled {m['compiled']} | args {m['args']!r:.300}"
                    + (f" | {m['detail']:.300}" if "mutation" in m["kind"] else ""))
            if progress and done % progress == 0 and log:
                log(f"[{done:>6}/{n}] {time.monotonic() - start:7.1f} s  compiled {tally.compiled}, "
                    f"fell back {tally.fell_back}, skipped {tally.skipped}, mismatches "
                    f"{len(tally.mismatches)} ({len(tally.kinds)} kinds)")
    finally:
        if own:
            pool.close()
    return tally, time.monotonic() - start


# -- signatures and saving --------------------------------------------------------------------

# The 'main operator' of a shrunk program: the first of these that it still contains.
MAIN_OPERATORS = ["math.sqrt", "math.floor", "int", "float", "round", "divmod", "sum",
                  "isinstance", "complex", "bool", "**", "<<", ">>", "~", "&", "|", "^", "//",
                  "%", "/", "*", "-", "+", "neg", "pos", "abs", "min", "max", "a[]=", "a[]",
                  "loop"]


def operators(source, name="f"):
    """Sorted operators and calls left in the function (``a[]`` a read, ``a[]=`` a write)."""
    tree = ast.parse(source)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            for inner in ast.walk(node):
                if isinstance(inner, (ast.BinOp, ast.AugAssign, ast.UnaryOp)):
                    op = type(inner.op).__name__
                    found.add(_OP_SYMBOLS.get(op, op))
                elif isinstance(inner, ast.Call):
                    found.add(ast.unparse(inner.func))
                elif isinstance(inner, ast.Subscript):
                    found.add("a[]=" if isinstance(inner.ctx, ast.Store) else "a[]")
                elif isinstance(inner, (ast.For, ast.While)):
                    found.add("loop")
    return sorted(found)


def main_operator(source, name="f"):
    found = operators(source, name)
    for op in MAIN_OPERATORS:
        if op in found:
            return op
    return found[0] if found else "-"


def signature(kind, source, name="f"):
    """The dedupe key of a shrunk mismatch: its kind and its main operator."""
    return f"{kind} | {main_operator(source, name)}"


def _np_name(dtype):
    """``np.<name>`` of a NumPy scalar type or dtype (``np.bool_`` for bool)."""
    dtype = np.dtype(dtype)
    return "np.bool_" if dtype.kind == "b" else f"np.{dtype.name}"


def literal(value):
    """Python source that evaluates (with math and np imported) to ``value``: Python and NumPy
    scalars of every dtype (``np.uint8(200)``, ``np.float16(1.5)``, ``np.complex64(complex(
    1.0, math.nan))``), arrays of every dtype (``np.array([1, 2], dtype=np.int16)``), tuples
    and lists of them, dicts of them by str keys (``d0``)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {literal(v)}" for key, v in value.items()) + "}"
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, np.ndarray):
        items = ", ".join(literal(v.item()) for v in value.ravel())
        text = f"np.array([{items}], dtype={_np_name(value.dtype)})"
        return text if value.ndim == 1 else f"{text}.reshape({value.shape!r})"
    if isinstance(value, np.generic):     # before float: np.float64 is a float subclass
        return f"{_np_name(value.dtype)}({literal(value.item())})"
    if isinstance(value, complex):
        return f"complex({literal(value.real)}, {literal(value.imag)})"
    if isinstance(value, float):
        if math.isnan(value):
            return "math.nan"
        if math.isinf(value):
            return "math.inf" if value > 0 else "-math.inf"
        return repr(value)
    return repr(value)


def existing_signatures(folder=REGRESSIONS):
    found = {}
    if os.path.isdir(folder):
        for filename in sorted(os.listdir(folder)):
            if filename.startswith("case_") and filename.endswith(".py"):
                with open(os.path.join(folder, filename)) as handle:
                    match = re.search(r'^SIGNATURE = (.+)$', handle.read(), re.M)
                if match:
                    found[ast.literal_eval(match.group(1))] = filename
    return found


def case_text(shrunk, args, item, kind, sig, result, seed, lines_before, before=()):
    """The text of a regression case file: the shrunk program, then INPUTS (the calls before
    the failing one, for a history kind, then the failing one: all for one jitted object),
    KIND and SIGNATURE."""
    plain = (result or {}).get("plain") or item["plain"]
    compiled = (result or {}).get("compiled") or item["compiled"]
    return (f'"""graphjit fuzzer regression: {_doc(kind)}.\n\n'
            f"Found by `python -m tests.fuzzing.run --seed {seed}` (program {item['index']}), "
            f"shrunk from {lines_before} lines.\n"
            f"plain:    {_doc(plain)}\n"
            f"compiled: {_doc(compiled)}\n"
            + ("INPUTS go through one jitted object (its history); the last call differs.\n"
               if before else "")
            + f'"""\n'
            f"{shrunk.strip()}\n\n\n"
            f"INPUTS = {literal([tuple(call) for call in before] + [tuple(args)])}\n"
            f"KIND = {kind!r}\n"
            f"SIGNATURE = {sig!r}\n")


def _doc(text):
    return text.replace("\\", "/").replace('"""', "'''")


def save_case(shrunk, args, item, kind, sig, result, seed, folder=REGRESSIONS, before=()):
    os.makedirs(folder, exist_ok=True)
    lines_before = len(item["source"].strip().splitlines())
    text = case_text(shrunk, args, item, kind, sig, result, seed, lines_before, before)
    digest = hashlib.sha1(sig.encode()).hexdigest()[:10]
    path = os.path.join(folder, f"case_{digest}.py")
    with open(path, "w") as handle:
        handle.write(text)
    return path


def shrink_and_save(tally, pool, seed, per_kind=1, max_saved=30, shrink_seconds=120.0,
                    save=True, folder=REGRESSIONS, log=print):
    """Shrink up to ``per_kind`` mismatches of every kind; save new signatures.

    Kinds that have no saved case yet come first, and every kind gets its first shrink before
    any kind gets a second one, so that the cap of ``max_saved`` files (counting those already
    in ``folder``) goes to distinct kinds first.
    Returns a list of dicts: kind, signature, source (shrunk), args, before (the calls the same
    jitted object needs first: history kinds), plain, compiled, count, path (None when not
    saved).
    """
    known = existing_signatures(folder) if save else {}
    by_kind = collections.defaultdict(list)
    for item in tally.mismatches:
        by_kind[item["kind"]].append(item)
    saved_kinds = {sig.split(" | ")[0] for sig in known}
    # Kinds with no saved case first, then the most frequent.
    order = sorted(by_kind, key=lambda kind: (kind in saved_kinds, -len(by_kind[kind])))
    # Shorter programs shrink faster: take the shortest of the first few examples.
    picks = {kind: sorted(by_kind[kind][:20], key=lambda it: len(it["source"]))[:per_kind]
             for kind in order}
    found = []
    for round_ in range(per_kind):
        for kind in order:
            if round_ >= len(picks[kind]):
                continue
            item = picks[kind][round_]
            started = time.monotonic()
            small, args, before, checks, result = shrink(
                pool, item["source"], item["name"], item["args"], kind,
                before=item.get("before", ()), max_seconds=shrink_seconds)
            sig = signature(kind, small, item["name"])
            entry = {"kind": kind, "signature": sig, "source": small, "args": args,
                     "before": before,
                     "plain": (result or {}).get("plain", item["plain"]),
                     "detail": (result or {}).get("detail", item["detail"]),
                     "compiled": (result or {}).get("compiled", item["compiled"]),
                     "count": len(by_kind[kind]), "path": None}
            if log:
                log(f"shrunk [{kind}] in {checks} checks, {time.monotonic() - started:.0f} s: "
                    f"{len(item['source'].splitlines())} -> {len(small.splitlines())} lines")
            if save and sig not in known and len(known) < max_saved:
                entry["path"] = save_case(small, args, item, kind, sig, result, seed, folder,
                                          before)
                known[sig] = os.path.basename(entry["path"])
            found.append(entry)
    return found


def report(found, log=print):
    for entry in found:
        log(f"\n=== {entry['kind']}  ({entry['count']} programs)  signature: {entry['signature']}")
        log(entry["source"][entry["source"].find("def "):].rstrip())
        if entry.get("before"):
            log(f"after:    {literal([tuple(call) for call in entry['before']])} "
                "(through the same jitted object)")
        log(f"args:     {literal(tuple(entry['args']))}")
        log(f"plain:    {entry['plain']}")
        log(f"compiled: {entry['compiled']}")
        if entry["kind"].split(": ")[-1].startswith("mutation") and entry.get("detail"):
            log(f"detail:   {entry['detail']}")     # what differs in the argument (a log...)
        if entry["path"]:
            log(f"saved:    {os.path.relpath(entry['path'])}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.fuzzing.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="programs to generate (1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (CPU count)")
    parser.add_argument("--progress", type=int, default=250, help="print every N programs")
    parser.add_argument("--shrink-per-kind", type=int, default=1)
    parser.add_argument("--shrink-seconds", type=float, default=120.0)
    parser.add_argument("--max-saved", type=int, default=30,
                        help="at most this many case files in regressions/ (15)")
    parser.add_argument("--history", type=int, default=HISTORY_CALLS,
                        help=f"re-typed calls per program on its jitted object ({HISTORY_CALLS})")
    parser.add_argument("--numpy-share", type=float, default=NUMPY_UNIVERSE,
                        help=f"share of programs from the NumPy universe ({NUMPY_UNIVERSE})")
    parser.add_argument("--island-share", type=float, default=ISLAND_SHARE,
                        help=f"share of programs with a log and Python islands ({ISLAND_SHARE})")
    parser.add_argument("--no-save", action="store_true", help="shrink and print, save nothing")
    parser.add_argument("--no-shrink", action="store_true", help="count mismatches only")
    options = parser.parse_args(argv)

    def log(text):
        print(text, flush=True)

    start = time.monotonic()
    with Pool(options.jobs) as pool:
        log(f"graphjit fuzz: {options.n} programs, seed {options.seed}, {pool.jobs} workers")
        tally, _ = run_round(options.n, options.seed, progress=options.progress, log=log,
                             pool=pool, history_calls=options.history,
                             numpy_share=options.numpy_share,
                             island_share=options.island_share)
        for index, why in tally.errors[:5]:
            log(f"fuzzer error in program {index}: {why.strip().splitlines()[-1]}")
        if tally.kinds:
            log("mismatch kinds: " + "; ".join(f"{count}x {kind}"
                                              for kind, count in tally.kinds.most_common()))
        found = []
        if tally.mismatches and not options.no_shrink:
            found = shrink_and_save(tally, pool, options.seed, per_kind=options.shrink_per_kind,
                                    max_saved=options.max_saved,
                                    shrink_seconds=options.shrink_seconds,
                                    save=not options.no_save, log=log)
            report(found, log)
    if tally.reasons:
        log("fallback reasons: " + "; ".join(f"{count}x {reason}"
                                            for reason, count in tally.reasons.most_common(8)))
    if tally.logs:
        log(tally.islands_line())
    log(tally.line(time.monotonic() - start))
    return 1 if tally.mismatches or tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
