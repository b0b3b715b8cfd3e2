"""Differential fuzzing (tests/fuzzing): the saved regression cases, and a short seeded round.

(a) every tests/fuzzing/regressions/case_*.py (a shrunk mismatch the fuzzer found: a function
    ``f`` and its ``INPUTS``) is run plainly and through ``transpiler.jit``; the outcomes must
    agree (value, type, dtype, argument mutation, exception type; see tests/fuzzing/check.py);
(b) a short round of random programs (GRAPHJIT_FUZZ_N, default 150; seed GRAPHJIT_FUZZ_SEED,
    default 0) must find no mismatch; a failure prints the shrunk programs.

Programs are checked in worker processes (tests/fuzzing/worker.py) so that a crash or a hang in
compiled code fails one case instead of the run. `make fuzz N=10000` runs a long round.
"""
import glob
import os
import time

import pytest

from fuzzing.check import known_gap
from fuzzing.run import REGRESSIONS, literal, operators, run_round, shrink_and_save
from fuzzing.worker import Pool

CASES = sorted(glob.glob(os.path.join(REGRESSIONS, "case_*.py")))
SHORT_N = int(os.environ.get("GRAPHJIT_FUZZ_N", "150"))
SHORT_SEED = int(os.environ.get("GRAPHJIT_FUZZ_SEED", "0"))
SHRINK_KINDS = 3          # shrink at most this many kinds in a failing short round
SHRINK_SECONDS = 15.0     # per kind, at most
TOTAL_SECONDS = 80.0      # the round and the shrinking together, about


@pytest.fixture(scope="module")
def pool():
    with Pool(jobs=min(2, os.cpu_count() or 1)) as workers:
        yield workers


def _explain(result):
    lines = [f"status: {result['status']}"]
    for key in ("kind", "detail", "plain", "compiled", "why"):
        if result.get(key):
            lines.append(f"{key}: {result[key]}")
    return "\n".join(lines)


@pytest.mark.parametrize("path", CASES, ids=[os.path.basename(p)[:-3] for p in CASES])
def test_saved_regression_case(pool, path):
    with open(path) as handle:
        source = handle.read()
    (result,) = pool.run([{"source": source, "name": "f", "inputs": None, "plain_limit": 1.0}])
    if result["status"] == "mismatch":
        # A documented gap (README "Known gaps") may remain; any other mismatch fails.
        gap = known_gap(result["kind"], operators(source, "f"), result.get("detail", ""),
                        result.get("plain", ""), result.get("compiled", ""))
        assert gap is not None, f"{os.path.relpath(path)}\n{_explain(result)}"
        return
    assert result["status"] == "ok", f"{os.path.relpath(path)}\n{_explain(result)}"


def test_short_round(pool):
    started = time.monotonic()
    tally, seconds = run_round(SHORT_N, seed=SHORT_SEED, pool=pool, progress=0, log=None)
    print(tally.line(seconds))
    assert not tally.errors, "fuzzer errors:\n" + "\n".join(
        f"program {index}: {why}" for index, why in tally.errors[:3])
    if not tally.mismatches:
        return
    # Shrink the most frequent kinds (bounded time) and show them; list the rest unshrunk.
    kinds = [kind for kind, _ in tally.kinds.most_common()]
    shrinkable = type(tally)()
    shrinkable.mismatches = [m for m in tally.mismatches if m["kind"] in kinds[:SHRINK_KINDS]]
    left = TOTAL_SECONDS - (time.monotonic() - started)
    budget = min(SHRINK_SECONDS, max(3.0, left / min(SHRINK_KINDS, len(kinds))))
    found = shrink_and_save(shrinkable, pool, SHORT_SEED, per_kind=1, save=False,
                            shrink_seconds=budget, log=None)
    parts = [f"{len(tally.mismatches)} mismatches in {len(kinds)} kinds "
             f"(seed {SHORT_SEED}, {SHORT_N} programs): "
             + "; ".join(f"{count}x {kind}" for kind, count in tally.kinds.most_common())]
    for entry in found:
        parts.append(f"--- {entry['kind']} ({entry['count']} programs), shrunk:\n"
                     + entry["source"][entry["source"].find("def "):].rstrip()
                     + f"\nargs:     {literal(tuple(entry['args']))}"
                     + f"\nplain:    {entry['plain']}\ncompiled: {entry['compiled']}")
    for kind in kinds[SHRINK_KINDS:]:
        item = next(m for m in tally.mismatches if m["kind"] == kind)
        parts.append(f"--- {kind} (program {item['index']}, not shrunk): "
                     f"plain {item['plain']}; compiled {item['compiled']}")
    parts.append(f"({time.monotonic() - started:.0f} s; reproduce: python -m tests.fuzzing.run "
                 f"--n {SHORT_N} --seed {SHORT_SEED} --no-save)")
    pytest.fail("\n".join(parts), pytrace=False)
