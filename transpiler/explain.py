"""The report of ``explain()``: what compiled and what runs as Python, and why, as rows of
(region, origin, status, reason)."""
import os

from .context import env_flag
from .source import origin_of
from .specialization import _holds_for


def explain(jit_function, obj):
    """The :class:`Explanation` of ``jit_function`` (a JitFunction) for instance ``obj`` (None:
    a plain function, or a method asked on its class: every instance's specializations)."""
    fn = jit_function.python_function
    origin = origin_of(fn)
    rows = []
    if env_flag("GRAPHJIT_DISABLE"):
        rows.append(ExplainRow("function", origin, "python", "GRAPHJIT_DISABLE is set"))
    refused = getattr(jit_function, "_signature_refusal", None)
    if refused is not None:     # its parameters: every call runs as Python (api._call)
        rows.append(ExplainRow("function", origin, "python", refused))
    specs = list(jit_function._specs_for(obj))
    if obj is not None:
        specs.extend(s for s in jit_function._shared_for(obj) if _holds_for(s, obj))
    if obj is None:  # a method asked on its class: every instance's specializations
        for _ref, instance_specs in list(jit_function._by_instance.values()):
            specs.extend(instance_specs)
        for class_specs in list(jit_function._by_class.values()):
            specs.extend(class_specs)
    if any(spec.for_calls for spec in specs):   # one made for source() is superseded
        specs = [spec for spec in specs if spec.for_calls]
    for spec in specs:
        if spec.fallback_reason is None:
            how = f"by {spec.backend.name} into {spec.path}"
            summary = getattr(spec.backend, "summary", None)
            if summary is not None:     # numpy-graph: what the graph is
                how += f": {summary()}"
                if any(race.tier1 == "ready" for race in
                       list(spec.__dict__.get("races", {}).values())):
                    how += "; its tier 1 is compiled by Numba (the tiers row says which runs)"
            if spec.graph_refusal is not None:
                how += f" (not a NumPy graph: {spec.graph_refusal})"
            rows.append(ExplainRow("function", origin, "compiled", how))
            for race in list(spec.__dict__.get("races", {}).values()):   # transpiler.tiers
                rows.append(ExplainRow("tiers", origin, *race.describe()))
            gpu_rows = getattr(spec.backend, "explain_rows", None)
            if gpu_rows is not None:   # numba-cuda: which parts run on the GPU, and why not
                rows.extend(ExplainRow(*row) for row in gpu_rows())
        if spec.fallback_reason is not None:
            rows.append(ExplainRow("function", origin, "python", spec.fallback_reason))
        for error in spec.failed_types.values():
            rows.append(ExplainRow("function", origin, "python",
                                   f"for some argument types: {error}"))
        if spec.split is not None:
            rows.extend(split_rows(spec.split))
    rows.extend(reached_rows(jit_function))
    rows.extend(callee_rows(jit_function))
    return Explanation(fn.__qualname__, rows)


def reached_rows(jit_function):
    """A row per Cell that this function's Python (its fallback) called, compiled
    (transpiler.python_scope): its construct and how it ran."""
    rows = []
    for graph, kind in list(jit_function.__dict__.get("_reached", {}).values()):
        specs = list(graph._by_class.get(kind, ())) + [
            s for _ref, instance_specs in list(graph._by_instance.values())
            for s in instance_specs]
        ran = [s for s in specs if s.fallback_reason is None and s.for_calls]
        qualname = graph.python_function.__qualname__
        if ran:
            rows.append(ExplainRow(
                "call", origin_of(graph.python_function), "compiled",
                f"{qualname} of a {kind.__name__}, called from this function's Python, runs "
                f"compiled (by {ran[0].backend.name}; see its explain())"))
        else:
            why = next((s.fallback_reason for s in specs if s.fallback_reason), "not run yet")
            rows.append(ExplainRow("call", origin_of(graph.python_function), "python",
                                   f"{qualname} of a {kind.__name__}, called from this "
                                   f"function's Python: {why}"))
    return rows


def callee_rows(jit_function):
    """A row per plain function that this function's Python calls through a redirect
    (transpiler.python_callees): how it ran."""
    from .python_callees import callees
    return callee_rows_of(callees(jit_function))


def callee_rows_of(pairs):
    """Rows of ``(name, redirect)`` pairs (callee_rows)."""
    rows = []
    for name, redirect in pairs:
        callee = redirect.jit
        where = origin_of(callee.python_function)
        said = f"{name}(), called from this function's Python"
        kinds = list(redirect.kinds.values())
        compiled = sum(1 for k in kinds if k == "compiled")
        plain = sum(1 for k in kinds if k == "plain")
        if redirect.choice is redirect.original:
            rows.append(ExplainRow("call", where, "python",
                                   f"{said}: stays Python (its calls took under 20 us each, or "
                                   "ran faster than compiled ones: a compiled call would cost "
                                   "more in dispatch than it saves)"))
            continue
        if not compiled:
            rows.append(ExplainRow("call", where, "python",
                                   f"{said}: runs as Python ({plain} kind(s) of call measured "
                                   "faster or too short to compile; others still timed)"))
            continue
        specs = callee._specs_for(None)
        why = next((s.fallback_reason for s in specs if s.fallback_reason), None) or next(
            (str(e) for s in specs for e in s.failed_types.values()), None)
        backend = next((s.backend.name for s in specs if s.fallback_reason is None), "numba")
        rows.append(ExplainRow("call", where, "compiled",
                               f"{said}, runs compiled for {compiled} kind(s) of call (by "
                               f"{backend}; see its explain()), as Python for {plain}"
                               + (f"; for some argument types: {why}" if why else "")))
    return rows


def fallback_message(jit_function, spec, error, reason=None):
    """The text of ``jit_function``'s FallbackWarning for ``spec`` (None: no
    specialization), ``error`` or ``reason``: how it runs (plain, or with its compiled loops)
    and why."""
    reason = reason or (str(error) if error is not None else spec.fallback_reason)
    how = "runs as plain Python"
    compiled = [] if spec is None or spec.split is None else compiled_regions(spec.split)
    if compiled:
        loops = ", ".join(f"line {r.origin.lineno}" for r in compiled)
        how = f"runs as Python with {len(compiled)} compiled loop(s) ({loops}; see explain())"
    elif spec is not None and spec.split is not None:
        how = "runs as plain Python, its loops too (see explain())"
    return f"graphjit: {jit_function.python_function.__qualname__} {how}: {reason}"


def compiled_regions(split):
    """The regions of ``split`` that ran compiled, those of its regions' own splits included
    (a region that fell back is split below its loop: transpiler.split)."""
    found = []
    for region in split.regions:
        if region_fell_back(region) is None:
            found.append(region)
        else:
            for inner in _region_splits(region):
                found.extend(compiled_regions(inner))
    return found


def _region_specs(region):
    return region.jit._specs_for(None) + [s for _r, specs in list(
        region.jit._by_instance.values()) for s in specs]


def _region_splits(region):
    """The splits made for ``region`` where it fell back (one per argument types at most)."""
    return [spec.split for spec in _region_specs(region) if spec.split is not None]


def island_rows(region, indent):
    """A row per Python island inside ``region``'s compiled loop (transpiler.island_frames):
    its line, why it is Python, how many times it ran and the time it took."""
    rows = []
    for _slot, island in sorted(region.islands.items()):
        rows.append(ExplainRow(
            f"{indent}island, line {island.origin.lineno}", island.origin, "python",
            f"runs as Python inside the compiled loop: {island.why.splitlines()[0]} "
            f"(ran {island.calls} time(s), {island.seconds * 1e3:.3f} ms in all)"))
    return rows


def region_fell_back(region):
    """Why a loop region ran as Python (its last specialization that did), or None."""
    why = None
    for spec in _region_specs(region):
        if spec.fallback_reason is not None:
            why = spec.fallback_reason
        elif spec.failed_types:
            why = str(next(iter(spec.failed_types.values())))
    return why


def split_rows(split, depth=0):
    """The rows of ``split``: each region (and, where one fell back, the regions of its own
    split, indented below it), the loops kept Python, the rest."""
    rows = []
    indent = "  " * depth
    for region in split.regions:
        first, last = region.lines
        status, detail = "compiled", (f"inputs ({', '.join(region.inputs)}) -> outputs "
                                      f"({', '.join(region.outputs)})")
        why = region_fell_back(region)
        if why is not None:
            status, detail = "python", why
        if why is None and region.islands and region.python_seconds is not None and \
                region.compiled_seconds is not None and \
                region.python_seconds < region.compiled_seconds:
            status, detail = "python", (
                f"runs as written in Python: faster than compiled with its Python islands "
                f"({region.python_seconds * 1e3:.3f} ms against "
                f"{region.compiled_seconds * 1e3:.3f} ms, measured at its 2nd and 3rd calls)")
        inner_rows = [row for inner in (_region_splits(region) if why is not None else ())
                      for row in split_rows(inner, depth + 1)]
        if any(row.status == "compiled" for row in inner_rows):
            detail = f"as a whole: {detail} (split below)"     # (not a contradiction)
        rows.append(ExplainRow(f"{indent}loop, lines {first}-{last}", region.origin, status,
                               detail))
        if status == "compiled":
            rows.extend(island_rows(region, indent + "  "))
        rows.extend(inner_rows)
    for origin, why in split.python_parts:
        rows.append(ExplainRow(f"{indent}loop", origin, "python", why))
    if depth == 0:
        rows.append(ExplainRow("rest of the function", None, "python",
                               "the statements between the compiled loops run as Python"))
    rows.extend(callee_rows_of(sorted(split.callees.items())))
    return rows


class ExplainRow(tuple):
    """One row of :meth:`JitFunction.explain`: ``(region, origin, status, reason)``.

    ``status`` is ``"compiled"`` or ``"python"``; with the numba-cuda backend also ``"gpu"`` (a
    region mapped to kernels) or ``"cpu"`` (a region of a compiled function that stays on the
    CPU); under ``jit(parallel=True)`` a loop's ``"parallel"`` or ``"serial"``; a ``"tiers"`` row
    (a NumPy graph's calls, transpiler.tiers) the way running them: ``"plain"``, ``"tier 0"``,
    ``"tier 1"`` or ``"racing"``; ``origin`` the user's file:line (an
    :class:`~transpiler.errors.Origin`, or None).
    """

    __slots__ = ()

    def __new__(cls, region, origin, status, reason):
        return tuple.__new__(cls, (region, origin, status, reason))

    region = property(lambda self: self[0])
    origin = property(lambda self: self[1])
    status = property(lambda self: self[2])
    reason = property(lambda self: self[3])


class Explanation:
    """The report of :meth:`JitFunction.explain`: ``rows`` (a list of :class:`ExplainRow`);
    ``str()`` is a table; ``_repr_html_`` an HTML table for Jupyter; ``graph()`` a
    picture."""

    def __init__(self, name, rows):
        self.name = name
        self.rows = rows

    def __str__(self):
        lines = [f"{self.name}:"]
        if not self.rows:
            lines.append("  not called yet")
        for row in self.rows:
            where = f"{os.path.basename(row.origin.filename)}:{row.origin.lineno}" \
                if row.origin else "-"
            reason = row.reason.replace("\n", "\n" + " " * 12)
            lines.append(f"  {row.status:<9} {where:<22} {row.region}: {reason}")
        return "\n".join(lines)

    __repr__ = __str__

    def graph(self):
        """The regions as a picture (:class:`~transpiler.explain_graph.ExplainGraph`): an SVG
        in Jupyter (Graphviz's where installed, else a built-in layout), ``.dot()`` its DOT
        source, ``str()`` a text tree, ``.save(path)`` an SVG file."""
        from .explain_graph import ExplainGraph
        return ExplainGraph(self)

    def _repr_html_(self):
        import html
        cells = "".join(
            f"<tr><td>{html.escape(r.region)}</td><td>{html.escape(str(r.origin or '-'))}</td>"
            f"<td>{r.status}</td><td><pre>{html.escape(r.reason)}</pre></td></tr>"
            for r in self.rows) or "<tr><td colspan=4>not called yet</td></tr>"
        return (f"<b>{html.escape(self.name)}</b><table><tr><th>region</th><th>where</th>"
                f"<th>status</th><th>why</th></tr>{cells}</table>")
