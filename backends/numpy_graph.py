"""The NumPy graph backend: straight-line array programs run as one flat function of NumPy and
BLAS calls, with no Numba compile (issue 18; the plan: backends/graph_plan.py).

``transpiler.pipeline`` chooses it for a program that ``graph_plan.plan`` accepts when the
numba-cpu backend was asked for; the generated module imports NumPy only. It defines:

- the entry (the program entry's name and parameters): builds the key of the arguments'
  shapes and strides (and the non-array arguments' values), finds this thread's fusion choices
  for it (backends/runtime/array_graph.py), and calls ``_fused``; the first call with a key
  runs ``_record`` instead;
- ``_fused(_F, _B, ...)``: the flat function; each fusible operation is written
  ``np.add(t, b, out=t) if _F[k] else t + b`` (in place) or ``np.dot(a, w, out=_B[k]) if _F[k]
  else np.dot(a, w)`` (a buffer kept across calls); with several places it may write into,
  ``out=(t, u, _B[k])[_F[k] - 1]`` (the first that fits: the operands in order, then the
  buffer);
- ``_record(...)``: the same operations plainly, keeping each fusible one's values for the
  check; returns ``(result, values)``;
- ``_prepare``: the guards, as for every backend.

Each line carries the ``# file:line`` of the user's statement it comes from.
"""
import os

import gast
import numpy as np

from transpiler.errors import Origin
from transpiler.naming import fresh

from .base import Backend, GeneratedModule, _emit_prepare
from .graph_fusion import last_uses
from .graph_plan import plan

# The module's own names are chosen fresh against everything else (lower); only the one the
# dispatcher looks up is fixed.
_RESERVED = {"_prepare"}


class NumpyGraphBackend(Backend):
    """Lowers a program to a NumPy graph module (see the module docstring).

    Args:
        numpy_args (dict): the specialization's NumPy arguments (transpiler.arguments).
        python_args (dict): its Python-number arguments.
    """

    name = "numpy-graph"
    decorator_lines = None
    keeps_forms = False

    def __init__(self, numpy_args, python_args):
        self.numpy_args = numpy_args
        self.python_args = python_args
        self.graph = None

    def plan(self, program):
        """Finalize ``program`` and plan its graph; raises graph_plan.NotAGraph."""
        program.finalize(reserved=_RESERVED)
        reserved = _RESERVED | {s.name for s in program.symbols}
        numpy_name = dict(program.imports()).get("numpy") or fresh(
            "_np", reserved | {name for fn in program.functions for name in fn.locals})
        self.graph = plan(program, self.numpy_args, reserved, numpy_name, self.python_args)
        return self.graph

    def lower(self, program, header="", include_prepare=True, reserved=()):
        graph = self.graph if self.graph is not None else self.plan(program)
        lines = header.rstrip("\n").splitlines() if header else []
        # The types this code serves are part of its text, so of its file's content hash:
        # the fusion choices (module-level _G) are never shared by specializations for other
        # types (an np.matrix attribute: `*` is a matrix product there).
        lines.append("# for: " + self._signature(program, graph))
        imports = sorted(program.imports())
        for module, alias in imports:
            lines.append(f"import {module}" if module == alias else f"import {module} as {alias}")
        if "numpy" not in dict(imports):
            lines.append(f"import numpy as {graph.numpy}")
        keyed = graph.fusible and graph.slots and self._keyable(program, graph)
        # internal names: none may be a parameter's or a flat name's (a user's `_k`)
        taken = set(graph.params) | {t for op in graph.ops for t in op.targets} | {
            s.name for s in program.symbols} | {"_prepare"}
        n = {}
        for base in ("_k", "_s", "_G", "_F", "_B", "_M", "_fused", "_record", "_GraphState"):
            n[base] = fresh(base, taken)
            taken.add(n[base])
        if keyed:
            lines.append("from backends.runtime.array_graph import GraphState as "
                         + n["_GraphState"])
        line_map = {}
        entry = program.entry.symbol.name
        params = ", ".join(graph.params)
        if keyed:
            # what the fusion choices depend on beyond the types this module is for (the
            # header): each array's shape and strides, each integer's value (a shape)
            parts = [f"{p}.shape, {p}.strides" if p in graph.arrays else p
                     for p in graph.params if p in graph.arrays or p in graph.integers]
            key = ", ".join(parts)
            k, st, G = n["_k"], n["_s"], n["_G"]
            lines += ["", "", f"def {entry}({params}):",
                      f"    {k} = ({key},)",
                      f"    {st} = {G}.get({k})",
                      f"    if {st} is None or {st}[2]:",
                      f"        return {G}.record({k}, {n['_record']}({params}), "
                      f"({params}{',' if len(graph.params) == 1 else ''}))",
                      f"    {st}[2] = True",
                      "    try:",
                      f"        return {n['_fused']}({st}[0], {st}[1], {params})",
                      "    finally:",
                      f"        {st}[2] = False"]
            self._emit(lines, line_map, f"{n['_fused']}({n['_F']}, {n['_B']}, {params})", graph,
                       "fused", n)
            self._emit(lines, line_map, f"{n['_record']}({params})", graph, "record", n)
            kinds = tuple(("matrix" if op.ufunc in ("dot", "matmul") else "elementwise",
                           len(op.operands), op.buffered, op.inexact, op.live)
                          for op in graph.slots)
            lines += ["", "", f"{G} = {n['_GraphState']}({kinds!r})"]
        else:
            self._emit(lines, line_map, f"{entry}({params})", graph, "plain", n)
        prepare, constants = _emit_prepare(program)
        if include_prepare:
            lines += ["", ""] + prepare
        return GeneratedModule("\n".join(lines) + "\n", line_map, entry, constants,
                               tuple(program.roots))

    def _signature(self, program, graph):
        """The types of the entry's parameters, as one line of text."""
        inputs = dict(program.entry.inputs)
        parts = []
        for p in graph.params:
            if p in inputs:
                guard = program.guards.get(inputs[p])
                parts.append(f"{p}={'?' if guard is None else _describe(guard.expected)}")
            elif p in self.numpy_args:
                _, kind, ndim, dtype = self.numpy_args[p]
                parts.append(f"{p}={kind.__module__}.{kind.__qualname__}:{ndim}:{dtype}")
            elif p in self.python_args:
                parts.append(f"{p}={self.python_args[p][1].__name__}")
            else:
                parts.append(f"{p}=?")
        return ", ".join(parts)

    def _keyable(self, program, graph):
        """Whether every non-array parameter's value can be part of the shape key (a number)."""
        inputs = {name for name, _ in program.entry.inputs}
        for p in graph.params:
            if p in graph.arrays or p in inputs:
                continue
            if p not in self.python_args and p not in self.numpy_args:
                return False
        return True

    def _emit(self, lines, line_map, signature, graph, mode, n):
        lines += ["", "", f"def {signature}:"]
        if mode == "record":
            lines.append(f"    {n['_M']} = [None] * {len(graph.slots)}")
        dead = _dead_after(graph)
        for i, op in enumerate(graph.ops):
            texts = _statements(op, graph, mode, n)
            if dead[i] and mode != "record":
                # a temporary held to the end would keep its memory: NumPy's allocations of
                # the next ones could not reuse it (fresh pages, each faulted in)
                texts.append("del " + ", ".join(dead[i]))
            for text in texts:
                if op.line is not None:
                    line_map[len(lines) + 1] = Origin(op.filename, op.line)
                    text += f"  # {os.path.basename(op.filename)}:{op.line}"
                lines.append("    " + text)

    def result_boxer(self, function):
        """NumPy made the result: nothing to re-box."""
        return (), None

    def summary(self):
        """One sentence for explain(): the graph's size and what may fuse."""
        graph = self.graph
        inplace = sum(op.fusion == "inplace" for op in graph.slots)
        how = (f"{inplace} in place, {len(graph.slots) - inplace} into buffers kept across "
               "calls, where the shapes allow") if graph.slots else "no operation fused"
        if not graph.fusible:
            how = "no operation fused: a shape may depend on array values"
        return (f"NumPy graph of {len(graph.ops) - 1} NumPy operations, run as NumPy and "
                f"BLAS with no Numba compile ({how})")


def _describe(expected):
    """A guard's expected value as text that is the same in every process (types by name)."""
    if isinstance(expected, tuple):
        return "(" + ",".join(_describe(e) for e in expected) + ")"
    if isinstance(expected, type):
        return f"{expected.__module__}.{expected.__qualname__}"
    if isinstance(expected, np.dtype):
        return expected.str          # '<f4': byte order too
    return str(expected) if isinstance(expected, (int, float, str, bool)) else \
        type(expected).__qualname__


def _dead_after(graph):
    """Per op, the names assigned by ops that nothing reads after it (in its order)."""
    last = last_uses(graph.ops)
    dead = [[] for _ in graph.ops]
    for name in sorted({t for op in graph.ops for t in op.targets}):
        if name in last and last[name] < len(graph.ops) - 1:
            dead[last[name]].append(name)
    return dead


def _unparse(node):
    return gast.unparse(node).strip()


def _statements(op, graph, mode, n):
    """The source lines of ``op`` in the ``mode`` function ("plain", "fused", "record");
    ``n``: the internal names."""
    plain = _unparse(op.value)
    if op.target is None and not op.targets:
        if mode == "record":
            return [f"return {plain}, {n['_M']}"]
        return [f"return {plain}"]
    target = ", ".join(op.targets)
    if op.slot is None or mode == "plain":
        return [f"{target} = {plain}"]
    k = op.slot
    if mode == "record":
        return [f"{target} = {plain}",
                f"{n['_M']}[{k}] = ({', '.join([op.target] + op.operands)},)"]
    # F[k]: 0 computes plainly; i > 0 writes into the i-th of the operands, then the buffer
    F, B = n["_F"], n["_B"]
    outs = op.operands + ([f"{B}[{k}]"] if op.buffered else [])
    out = outs[0] if len(outs) == 1 else f"({', '.join(outs)})[{F}[{k}] - 1]"
    return [f"{target} = {_with_out(op, graph.numpy, out)} if {F}[{k}] else {plain}"]


def _with_out(op, numpy_name, out):
    value = op.value
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Pow) and op.ufunc != "power":
        args = [value.left]         # x ** 2 as np.square(x): the fast path ndarray takes
    elif isinstance(value, gast.BinOp):
        args = [value.left, value.right]
    elif isinstance(value, gast.UnaryOp):
        args = [value.operand]
    else:
        args = value.args
    return f"{numpy_name}.{op.ufunc}({', '.join(_unparse(a) for a in args)}, out={out})"
