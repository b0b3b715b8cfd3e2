"""The last table of ``make bench``: issue #18's performance goals, each with the figure measured
in this run, the goal beside it, PASS/MISS, and the other ways measured in the same run.

``goals(data)`` reads the sections' results (run.py's ``data``; a section that did not run
gives a "not run" row) and returns the list written to build/bench.json as ``goals``: one dict
per goal with ``id``, ``goal``, ``measured`` (a number, None when not run), ``unit``, ``target``,
``op`` ("<=" or ">="), ``result`` ("PASS", "MISS" or "not run"), ``detail`` and ``beside`` (the
other ways' figures). Where a goal holds for every kernel, the worst kernel is the figure that
passes or misses, and the median is in ``detail``.
"""
import statistics

from common import print_table


def _goal(gid, text, measured, unit, op, target, detail="", beside=""):
    if measured is None or measured != measured:
        result, measured = "not run", None
    else:
        met = {"<=": measured <= target, "<": measured < target, ">=": measured >= target}[op]
        result = "PASS" if met else "MISS"
    return {"id": gid, "goal": text, "measured": measured, "unit": unit, "op": op,
            "target": target, "result": result, "detail": detail, "beside": beside}


def _worst(rows, key, name, largest=True):
    """(worst value, its kernel, median) of ``key`` over ``rows`` (NaN left out)."""
    rows = [r for r in rows if r.get(key) is not None and r[key] == r[key]]
    if not rows:
        return None, "", None
    pick = max if largest else min
    worst = pick(rows, key=lambda r: r[key])
    return worst[key], worst[name], statistics.median(r[key] for r in rows)


def _seed_fresh(data):
    fresh = data.get("fresh_process", {}).get("summary", {})

    def script_s(kind):
        return fresh[kind]["script_ms"] / 1e3 if kind in fresh else None

    def beside(kinds):
        return ", ".join(f"{label} {script_s(k):.2f} s" if k in fresh else
                         f"{label}: {'not installed' if k.startswith('jax') else 'not run'}"
                         for label, k in kinds)
    out = []
    for gid, kind, target, njit, jax in (("1a", "cold", 0.3, "njit cold", "jax cold"),
                                         ("1b", "warm", 0.25, "njit warm", "jax warm")):
        first = fresh.get(kind, {}).get("first_call_ms")
        out.append(_goal(
            gid, f"seed network, fresh process, script start to first result, {kind}",
            script_s(kind), "s", "<=", target,
            f"first call alone {first / 1e3:.2f} s" if first else "",
            beside([("njit(cache=True)", njit), ("NumPy", "numpy"), ("jax.jit", jax)])))
    return out


def _seed_calls(data):
    rows = data.get("seed_network", {}).get("rows", [])
    out = []
    for gid, batch, target in (("2a", 64, 0.9), ("2b", 1, 1.0)):
        median = {r["way"]: r["median_ms"] for r in rows if r["batch"] == batch}
        numpy = median.get("NumPy by hand")
        measured = median["GRAPH_MODE"] / numpy if numpy and "GRAPH_MODE" in median else None
        beside = ", ".join(f"{label} {median[way] / numpy:.2f}x" for label, way in
                           (("njit by hand", "numba.njit by hand"), ("jax.jit", "jax.jit"))
                           if way in median) if numpy else ""
        if numpy and "jax.jit" not in median:
            beside += ", jax: not installed"
        out.append(_goal(
            gid, f"seed network, later calls, batch {batch}: GRAPH_MODE / NumPy",
            measured, "x", "<=", target,
            f"GRAPH_MODE {median['GRAPH_MODE']:.3f} ms, NumPy {numpy:.3f} ms" if measured
            else "", beside))
    return out


def _kernels(data):
    rows = [dict(r, first_ratio=r["graphjit_first_ms"] / r["njit_first_ms"])
            for r in data.get("kernels", [])]
    out = []
    for gid, text, key, target, besides in (
            ("3a", "loop kernels, first call in a fresh process / njit's (worst)",
             "first_ratio", 1.0, ()),
            ("3b", "loop kernels, later calls, graphjit / njit (worst)",
             "graphjit_over_njit", 1.05,
             (("graphjit / njit(boundscheck=True)", "graphjit_over_njit_checked"),
              ("tp.jit(boundscheck=False) / njit", "unchecked_over_njit")))):
        worst, kernel, median = _worst(rows, key, "kernel")
        beside = []
        for label, other in besides:
            w, k, m = _worst(rows, other, "kernel")
            if w is not None:
                beside.append(f"{label}: worst {w:.2f}x ({k}), median {m:.2f}x")
        out.append(_goal(gid, text, worst, "x", "<=", target,
                         f"worst {kernel}, median {median:.2f}x" if worst else "",
                         "; ".join(beside)))
    return out


def _arrays(data):
    rows = data.get("arrays", {}).get("rows", [])
    worst, kernel, median = _worst(rows, "plain_over_graphjit", "kernel", largest=False)
    beside = []
    for label, key in (("njit", "plain_over_njit"), ("jax.jit", "plain_over_jax"))[:2 * bool(rows)]:
        w, k, m = _worst(rows, key, "kernel", largest=False)
        beside.append(f"{label}: worst {w:.2f}x ({k}), median {m:.2f}x" if w is not None else
                      f"{label}: {'not installed' if key.endswith('jax') else 'n/a'}")
    detail = ""
    if worst is not None:
        met = sum(r["goal_met"] for r in rows)
        differ = sum(r["graphjit_result"] != "equal" for r in rows)
        detail = (f"worst {kernel}, median {median:.2f}x; {met} of {len(rows)} met; "
                  f"{differ} differ from plain")
    return [_goal("4", "whole-array kernels, plain NumPy / graphjit (worst)",
                  worst, "x", ">=", 1.0, detail, "; ".join(beside))]


def _dispatch(data):
    d = data.get("dispatch", {})
    return [
        _goal("5a", "dispatch per call, scalar function: tp.jit - njit",
              d.get("jit_over_njit_us"), "us", "<=", 1.0,
              f"tp.jit {d['jit_scalar_us']:.2f} us, njit {d['njit_scalar_us']:.2f} us"
              if "jit_scalar_us" in d else ""),
        _goal("5c", "dispatch per call, 8 float arguments: tp.jit - njit",
              d.get("jit_over_njit_8_us"), "us", "<=", 2.0,
              f"tp.jit {d['jit_scalar_8_us']:.2f} us, njit {d['njit_scalar_8_us']:.2f} us"
              if "jit_scalar_8_us" in d else ""),
        _goal("5b", "dispatch per call, fallen-back: tp.jit - plain",
              d.get("fallback_over_plain_us"), "us", "<=", 1.0,
              f"fallback {d['fallback_us']:.2f} us, plain {d['plain_us']:.2f} us"
              if "fallback_us" in d else "")]


def _transpile(data):
    rows = data.get("transpile", [])
    worst, kernel, median = _worst(rows, "transpile_ms", "kernel")
    again = [r["transpile_again_ms"] for r in rows]
    return [_goal("6", "transpile per function, no Numba (worst)",
                  worst, "ms", "<=", 20.0,
                  f"worst {kernel}, median {median:.1f} ms" if worst is not None else "",
                  f"again (module already written): median {statistics.median(again):.1f} ms"
                  if again else "")]


def _parallel(data):
    """Issue #19: parallel=True's speedup over serial graphjit on the independent loops."""
    rows = [r for r in data.get("parallel", {}).get("rows", []) if r["goal"]]
    worst, kernel, median = _worst(rows, "speedup", "kernel", largest=False)
    detail = beside = ""
    if worst is not None:
        differ = sum(not r["parallel_equal"] for r in data["parallel"]["rows"])
        cost = [r["compile_cost_ms"] / 1e3 for r in data["parallel"]["rows"]]
        detail = (f"worst {kernel}, median {median:.2f}x; {differ} differ; parallel=True "
                  f"adds {statistics.median(cost):.2f} s (median) to a first call")
        w, k, m = _worst(rows, "njit_speedup", "kernel", largest=False)
        beside = f"njit(parallel=True) prange: worst {w:.2f}x ({k}), median {m:.2f}x"
    return [_goal("7", "parallel loops, serial / parallel=True (worst independent loop)",
                  worst, "x", ">=", 1.8, detail, beside)]


def _islands(data):
    """Issue #48: functions that do not compile whole, their loops compiled (section 9)."""
    found = []
    for row in data.get("islands", {}).get("rows", []):
        if row["goal"] is None:
            continue
        detail = (f"{row['loops']} compiled loop(s), {row['islands']} island(s); "
                  f"{'equal' if row['equal'] else 'DIFFERS from plain'}")
        label = "9" + "abcdefgh"[len(found)]
        found.append(_goal(label, f"{row['name']}: plain / graphjit", row["speedup"], "x",
                           ">=", row["goal"], detail, ""))
    return found


def _training(data):
    """Issue #51: a training step of the seed network (section 11)."""
    train = data.get("train", {})
    rows = train.get("rows", [])
    found = []
    for label, batch in (("11a", 64), ("11b", 1)):
        median = {r["way"]: r["median_ms"] for r in rows if r["batch"] == batch}
        ratio = (median["GRAPH_MODE"] / median["NumPy by hand"]
                 if "GRAPH_MODE" in median else None)
        beside = (f"jax.jit / hand {median['jax.jit'] / median['NumPy by hand']:.2f}"
                  if "jax.jit" in median else "jax: not installed")
        found.append(_goal(label, f"training step, batch {batch}: GRAPH_MODE / NumPy by hand",
                           ratio, "x", "<=", 0.95, "", beside))
    first = [r["first_ms"] / 1e3 for r in rows if r["way"] == "GRAPH_MODE"]
    found.append(_goal("11c", "training step, first call (GRAPH_MODE)",
                       max(first) if first else None, "s", "<=", 0.5))
    return found


def _everyday(data):
    """Issue #50: twenty everyday NumPy functions at three sizes (section 12)."""
    every = data.get("everyday", {})
    summary, rows = every.get("summary", {}), every.get("rows", [])
    found = []
    for label, size, target in (("12a", "small", 2.0), ("12b", "medium", 1.5),
                                ("12c", "large", 1.5)):
        s = summary.get(size)
        detail = (f"worst {s['worst']:.2f}x, {s['at_least_095']} of {s['count']} at least "
                  f"0.95x" if s else "")
        beside = (f"jax.jit {s['jax_geomean']:.2f}x" if s and s["jax_geomean"] ==
                  s["jax_geomean"] else "jax: not installed")
        found.append(_goal(label, f"everyday NumPy functions, {size}: plain / graphjit "
                           "(geometric mean)", s["geomean"] if s else None, "x", ">=", target,
                           detail, beside))
    first = max((r["first_ms"] for r in rows), default=None)
    found.append(_goal("12d", "everyday NumPy functions: slowest first call",
                       first / 1e3 if first is not None else None, "s", "<=", 0.5))
    differ = sum(not r["equal"] for r in rows) if rows else None
    found.append(_goal("12e", "everyday NumPy functions: results differing from plain",
                       differ, "results", "<=", 0))
    return found


def _closures(data):
    """Issue #50: 200 closures with distinct captured floats (section 13)."""
    c = data.get("closures", {})
    g, n = c.get("graphjit"), c.get("njit")
    beside = f"njit {n['compiles']} compiles, {n['mb']:.1f} MB" if n else ""
    return [_goal("13a", f"{c.get('n', 200)} closures with distinct floats: Numba compiles",
                  g["compiles"] if g else None, "compiles", "<=", 2, "", beside),
            _goal("13b", f"{c.get('n', 200)} closures with distinct floats: memory kept",
                  g["mb"] if g else None, "MB", "<", 40,
                  f"{g['s']:.2f} s for all" if g else "", beside)]


def goals(data):
    """Every goal of issues #18, #19, #48, #50 and #51 from this run's ``data``, in the
    issues' order."""
    return (_seed_fresh(data) + _seed_calls(data) + _kernels(data) + _arrays(data)
            + _dispatch(data) + _transpile(data) + _parallel(data) + _islands(data)
            + _training(data) + _everyday(data) + _closures(data))


def _figure(value, unit):
    if value is None:
        return "not run"
    if unit in ("results", "compiles"):
        return f"{value:.0f}"
    if unit == "MB":
        return f"{value:.1f} MB"
    return f"{value:.2f} {unit}" if unit in ("s", "ms", "us") else f"{value:.2f}x"


def show_goals(rows):
    print_table(
        "Summary: issue #18 performance goals (and #19's parallel loops), measured in this run",
        "   measured = this run's figure (worst = the worst kernel, which passes or misses; its "
        "median is in the notes); beside = the other ways in the same run",
        ["#", "goal", "measured", "goal", "result", "beside"],
        [[g["id"], g["goal"], _figure(g["measured"], g["unit"]),
          f"{g['op']} {_figure(g['target'], g['unit'])}", g["result"], g["beside"]]
         for g in rows], "llrrll")
    for g in rows:
        if g["detail"]:
            print(f"   {g['id']}: {g['detail']}")
    passed = sum(g["result"] == "PASS" for g in rows)
    print(f"   {passed} of {len(rows)} goals met")


def markdown(rows):
    """The summary as a Markdown table (build/bench_summary.md; README "Measured")."""
    lines = ["| # | goal | measured | goal | result | detail; beside (same run) |",
             "|---|---|---|---|---|---|"]
    for g in rows:
        notes = "; ".join(t for t in (g["detail"], g["beside"]) if t)
        lines.append(f"| {g['id']} | {g['goal']} | {_figure(g['measured'], g['unit'])} | "
                     f"{g['op']} {_figure(g['target'], g['unit'])} | {g['result']} | {notes} |")
    return "\n".join(lines) + "\n"
