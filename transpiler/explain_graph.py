"""``explain().graph()``: a picture of what compiled, for a reader who would rather look than
read. The function is the root; its regions, nested loops, islands, compiled callees and
Cells are its children (the report's own nesting), each box coloured by how it ran.

Rendered by Graphviz's ``dot`` where it is installed (``graph.dot()`` is the DOT source),
else by a small built-in layout (boxes in a column, nested by indentation) so that a notebook
always shows an SVG; ``str(graph)`` is a text tree.
"""
import html
import os
import re
import shutil
import subprocess

_PATH = re.compile(r"(?:[A-Za-z]:)?[/\\][^\s:]*[/\\]([^/\\\s:]+\.py)")

# fill colours by status: compiled (green), Python (orange), the GPU (blue), parallel loops
COLOURS = {"compiled": "#cfe8cf", "parallel": "#b8e0b8", "gpu": "#c9daf8", "python": "#f9d9b0",
           "serial": "#e6e6e6", "cpu": "#e6e6e6"}
_ROW = 48
_WIDTH = 720


class ExplainGraph:
    """The regions of an :class:`~transpiler.explain.Explanation` as a tree.

    Attributes:
        name (str): the function's name (the root).
        nodes (list[tuple]): ``(depth, status, region, where, reason)`` per row, in order;
            depth 1 for the function's own rows, deeper for nested ones.
    """

    def __init__(self, explanation):
        self.name = explanation.name
        self.nodes = []
        for row in explanation.rows:
            region = row.region
            depth = 1 + (len(region) - len(region.lstrip(" "))) // 2
            where = (f"{os.path.basename(row.origin.filename)}:{row.origin.lineno}"
                     if row.origin else "")
            reason = row.reason.strip().splitlines()[0] if row.reason.strip() else ""
            reason = _PATH.sub(r"\1", reason)        # file names, not their folders
            self.nodes.append((depth, row.status, region.strip(), where, reason))

    def parents(self):
        """The index of each node's parent (-1: the root)."""
        out, stack = [], []
        for k, (depth, *_rest) in enumerate(self.nodes):
            while stack and self.nodes[stack[-1]][0] >= depth:
                stack.pop()
            out.append(stack[-1] if stack else -1)
            stack.append(k)
        return out

    def __str__(self):
        lines = [self.name]
        for depth, status, region, where, reason in self.nodes:
            lines.append(f"{'  ' * depth}[{status}] {region} {where}: {reason}".rstrip())
        return "\n".join(lines)

    __repr__ = __str__

    def dot(self):
        """The tree as Graphviz DOT source."""
        def quote(text):
            return text.replace("\\", "\\\\").replace('"', '\\"')
        lines = ["digraph explain {", '  rankdir=LR; node [shape=box, style="rounded,filled", '
                 'fontname="Helvetica", fontsize=10];',
                 f'  root [label="{quote(self.name)}", fillcolor="#ffffff"];']
        for k, ((depth, status, region, where, reason), parent) in enumerate(
                zip(self.nodes, self.parents())):
            label = quote(f"{status}: {region} {where}\n{_short(reason, 60)}")
            lines.append(f'  n{k} [label="{label}", '
                         f'fillcolor="{COLOURS.get(status, "#ffffff")}"];')
            lines.append(f"  {'root' if parent < 0 else f'n{parent}'} -> n{k};")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def svg(self):
        """An SVG picture: Graphviz's where ``dot`` is installed, else the built-in one."""
        dot = shutil.which("dot")
        if dot:
            try:
                done = subprocess.run([dot, "-Tsvg"], input=self.dot(), capture_output=True,
                                      text=True, timeout=30)
                if done.returncode == 0:
                    return done.stdout
            except (OSError, subprocess.SubprocessError):
                pass
        return self.builtin_svg()

    def builtin_svg(self):
        """The built-in layout: the root, then each row as a box indented by its depth, with
        elbow lines to its parent. Deterministic (the documentation's pictures use it)."""
        height = _ROW * (len(self.nodes) + 1) + 16
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
                 f'viewBox="0 0 {_WIDTH} {height}" font-family="Helvetica, Arial, sans-serif" '
                 'font-size="12">',
                 _box(8, 8, html.escape(self.name), "", "#ffffff", bold=True)]
        for k, ((depth, status, region, where, reason), parent) in enumerate(
                zip(self.nodes, self.parents())):
            x, y = 8 + 28 * depth, 8 + _ROW * (k + 1)
            px = 8 + 28 * (self.nodes[parent][0] if parent >= 0 else 0) + 12
            py = 8 + _ROW * (parent + 1) + 36
            parts.append(f'<path d="M{px},{py} V{y + 18} H{x}" fill="none" stroke="#888"/>')
            title = html.escape(f"{status}  {region}  {where}")
            parts.append(_box(x, y, title, html.escape(_short(reason, 100 - 4 * depth)),
                              COLOURS.get(status, "#ffffff")))
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def _repr_svg_(self):
        return self.svg()

    def save(self, path):
        """Write the SVG picture to ``path``."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.svg())


def _short(text, width):
    return text if len(text) <= width else text[:width - 1] + "…"


def _box(x, y, title, reason, fill, bold=False):
    weight = ' font-weight="bold"' if bold else ""
    width = _WIDTH - x - 8
    return (f'<rect x="{x}" y="{y}" width="{width}" height="36" rx="6" fill="{fill}" '
            f'stroke="#666"/><text x="{x + 8}" y="{y + 15}"{weight}>{title}</text>'
            f'<text x="{x + 8}" y="{y + 30}" fill="#333">{reason}</text>')
