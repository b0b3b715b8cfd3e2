"""The layer rules of docs/ARCHITECTURE.md, checked on the source: no import circle, and no
module imports a module of a higher layer.

Every import counts, also one inside a function (a lazy import is still a dependency). The
layers are read from the table between ``<!-- layers -->`` markers in docs/ARCHITECTURE.md, so
the document and the check cannot disagree. A module the table does not place fails the test:
add it to the table (and the paragraph of its package).
"""
import ast
import fnmatch
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("transpiler", "backends")
DOC = os.path.join(ROOT, "docs", "ARCHITECTURE.md")
MAX_LINES = 600


def modules():
    """Dotted module name -> file path, for every module of the two packages."""
    found = {}
    for package in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, package)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for file in files:
                if file.endswith(".py"):
                    path = os.path.join(folder, file)
                    dotted = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                    found[dotted[:-len(".__init__")] if dotted.endswith(".__init__")
                          else dotted] = path
    return found


def imports(found):
    """Module -> {(imported module, line)}: the graph, within the two packages."""
    graph = {}
    for module, path in found.items():
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        edges = set()
        for node in ast.walk(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1])
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                # `from pkg import sub` imports the submodule; `from pkg import name` the package
                targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in found else target
                           for a in node.names]
            for target in targets:
                while target and target not in found:
                    target = target.rpartition(".")[0]     # `import a.b.c`: the deepest known
                if target and target != module:
                    edges.add((target, node.lineno))
        graph[module] = edges
    return graph


def layers():
    """(pattern, layer number) rows of ARCHITECTURE.md's layer table."""
    text = open(DOC, encoding="utf-8").read()
    table = text.split("<!-- layers -->")[1]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            for pattern in re.findall(r"`([^`]+)`", cells[1]):
                rows.append((pattern, int(cells[0])))
    return rows


def layer_of(module, rows):
    """The layer of the most specific pattern matching ``module`` (None if no row does)."""
    matches = [(len(p), layer) for p, layer in rows if fnmatch.fnmatchcase(module, p)]
    return max(matches)[1] if matches else None


FOUND = modules()
GRAPH = imports(FOUND)


def test_every_module_is_placed_in_a_layer():
    rows = layers()
    unplaced = sorted(m for m in FOUND if layer_of(m, rows) is None)
    assert not unplaced, f"modules missing from docs/ARCHITECTURE.md's layer table: {unplaced}"


def test_no_import_goes_up_a_layer():
    rows = layers()
    bad = []
    for module, edges in sorted(GRAPH.items()):
        mine = layer_of(module, rows)
        for target, line in sorted(edges):
            theirs = layer_of(target, rows)
            if mine is not None and theirs is not None and theirs > mine:
                bad.append(f"{FOUND[module]}:{line}: {module} (layer {mine}) imports "
                           f"{target} (layer {theirs})")
    assert not bad, "imports that break the layer rules:\n" + "\n".join(bad)


def test_no_import_circle():
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):       # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w, _ in GRAPH.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    assert not circles, f"import circles: {circles}"


@pytest.mark.parametrize("module", sorted(FOUND))
def test_module_is_small(module):
    with open(FOUND[module], encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    assert lines <= MAX_LINES, f"{FOUND[module]} has {lines} lines (at most {MAX_LINES})"


def test_the_checker_sees_a_circle_and_an_upward_import():
    """The checks can fail: a made-up graph with a circle and a leaf importing the API."""
    rows = [("transpiler.errors", 0), ("transpiler.api", 7)]
    assert layer_of("transpiler.errors", rows) == 0
    assert layer_of("transpiler.api", rows) == 7
    assert layer_of("transpiler.unknown", rows) is None
    global GRAPH
    saved = GRAPH
    try:
        GRAPH = {"a": {("b", 1)}, "b": {("a", 2)}}
        with pytest.raises(AssertionError, match="import circles"):
            test_no_import_circle()
        GRAPH = {"transpiler.errors": {("transpiler.api", 3)}}     # a leaf importing the API
        with pytest.raises(AssertionError, match=r"transpiler.errors \(layer 0\) imports "
                                                 r"transpiler.api \(layer 8\)"):
            test_no_import_goes_up_a_layer()
    finally:
        GRAPH = saved
