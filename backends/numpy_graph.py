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

from transpiler.errors import Origin

from .base import Backend, GeneratedModule, _emit_prepare
from .graph_plan import plan

_RESERVED = {"_F", "_B", "_M", "_G", "_k", "_s", "_fused", "_record", "_prepare", "_np",
             "_GraphState", "numba", "_jit"}


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
        numpy_name = dict(program.imports()).get("numpy", "_np")
        reserved = _RESERVED | {s.name for s in program.symbols}
        self.graph = plan(program, self.numpy_args, reserved, numpy_name)
        return self.graph

    def lower(self, program, header="", include_prepare=True, reserved=()):
        graph = self.graph if self.graph is not None else self.plan(program)
        lines = header.rstrip("\n").splitlines() if header else []
        imports = sorted(program.imports())
        for module, alias in imports:
            lines.append(f"import {module}" if module == alias else f"import {module} as {alias}")
        if "numpy" not in dict(imports):
            lines.append("import numpy as _np")
        keyed = graph.fusible and graph.slots and self._keyable(program, graph)
        if keyed:
            lines.append("from backends.runtime.array_graph import GraphState as _GraphState")
        line_map = {}
        entry = program.entry.symbol.name
        params = ", ".join(graph.params)
        if keyed:
            # everything the fusion choices depend on: each array's shape, strides and
            # dtype; each number's type and value (2, 2.0 and True are equal keys otherwise)
            key = ", ".join(f"{p}.shape, {p}.strides, {p}.dtype" if p in graph.arrays
                            else f"type({p}), {p}" for p in graph.params)
            args = params + ("," if len(graph.params) == 1 else "")
            lines += ["", "", f"def {entry}({params}):",
                      f"    _k = ({key},)",
                      "    _s = _G.get(_k)",
                      "    if _s is None or _s[2]:",
                      f"        return _G.record(_k, _record({params}))",
                      "    _s[2] = True",
                      "    try:",
                      f"        return _fused(_s[0], _s[1], {params})",
                      "    finally:",
                      "        _s[2] = False"]
            self._emit(lines, line_map, f"_fused(_F, _B, {params})", graph, "fused")
            self._emit(lines, line_map, f"_record({params})", graph, "record")
            kinds = tuple(("matrix" if op.ufunc in ("dot", "matmul") else "elementwise",
                           len(op.operands), op.buffered, op.inexact) for op in graph.slots)
            lines += ["", "", f"_G = _GraphState({kinds!r})"]
            del args
        else:
            self._emit(lines, line_map, f"{entry}({params})", graph, "plain")
        prepare, constants = _emit_prepare(program)
        if include_prepare:
            lines += ["", ""] + prepare
        return GeneratedModule("\n".join(lines) + "\n", line_map, entry, constants,
                               tuple(program.roots))

    def _keyable(self, program, graph):
        """Whether every non-array parameter's value can be part of the shape key (a number)."""
        inputs = {name for name, _ in program.entry.inputs}
        for p in graph.params:
            if p in graph.arrays or p in inputs:
                continue
            if p not in self.python_args and p not in self.numpy_args:
                return False
        return True

    def _emit(self, lines, line_map, signature, graph, mode):
        lines += ["", "", f"def {signature}:"]
        if mode == "record":
            lines.append(f"    _M = [None] * {len(graph.slots)}")
        dead = _dead_after(graph)
        for i, op in enumerate(graph.ops):
            texts = _statements(op, graph, mode)
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


def _dead_after(graph):
    """Per op, the names assigned by ops that nothing reads after it (in its order)."""
    last, assigned = {}, set()
    for i, op in enumerate(graph.ops):
        for n in gast.walk(op.value):
            if isinstance(n, gast.Name):
                last[n.id] = i
        assigned.update(op.targets)
    dead = [[] for _ in graph.ops]
    for name in sorted(assigned):
        if name in last and last[name] < len(graph.ops) - 1:
            dead[last[name]].append(name)
    return dead


def _unparse(node):
    return gast.unparse(node).strip()


def _statements(op, graph, mode):
    """The source lines of ``op`` in the ``mode`` function ("plain", "fused", "record")."""
    plain = _unparse(op.value)
    if op.target is None and not op.targets:
        if mode == "record":
            return [f"return {plain}, _M"]
        return [f"return {plain}"]
    target = ", ".join(op.targets)
    if op.slot is None or mode == "plain":
        return [f"{target} = {plain}"]
    k = op.slot
    if mode == "record":
        return [f"{target} = {plain}", f"_M[{k}] = ({', '.join([op.target] + op.operands)},)"]
    # _F[k]: 0 computes plainly; i > 0 writes into the i-th of the operands, then the buffer
    outs = op.operands + ([f"_B[{k}]"] if op.buffered else [])
    out = outs[0] if len(outs) == 1 else f"({', '.join(outs)})[_F[{k}] - 1]"
    return [f"{target} = {_with_out(op, graph.numpy, out)} if _F[{k}] else {plain}"]


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
