"""The adjoint pass: from a normalized :class:`~.normalize.Program`, the source of one Python
function that runs the forward sweep and then the backward sweep (reverse mode).

The forward sweep is the program's operations in order. The backward sweep visits them in
reverse; each active operation whose result has a gradient adds its contributions to its
operands' gradients (``g_<name>``), by its rule (:mod:`.rules`). A gradient is assigned at its
first contribution and summed at the next ones; no gradient array is updated in place, so a
contribution that is a view (``np.broadcast_to``) is never written through. Control flow is
emitted by :mod:`.control` (tapes for loops, recorded branches). Every generated line ends with
the user's ``file:line`` it computes or differentiates.
"""
import os
import re

import numpy as np

from .values import (Dyn, Lazy, Op, Static, Tup, dyns, reads, render, render_index,
                     walk_statements)


class Emitter:
    """Lines of the generated function, with their indentation."""

    def __init__(self, program, facts=None):
        self.program = program
        # SSA name -> (shape, dtype, type) seen by a first run (see api: the probe); None:
        # the generic code, whose adjoints read shapes at run time (_ad.unbroadcast)
        self.facts = facts
        self.lines = []
        self.indent = 1
        self.in_loop = 0         # loops around the code being emitted (values go on tapes)
        self.tapes = set()       # names saved on a tape somewhere
        self.defined = set()     # SSA names whose gradient variable exists at this point
        # Gradient variables (full names: g_x, _gc_x) whose array no other variable refers to
        # and that is no view: only these are updated in place (a scatter, a store's zeroing)
        self.owned = set()
        self.alias = {}          # gradient variable -> the one it is the same array as
        self.copied = set()      # outer gradients a nested block had to copy to own
        self.same = {}           # SSA name -> the first name of its array (stores alias it)
        self.carried = {}        # a loop's carried name -> the value the body ends with
        for stmt in walk_statements(program.body):
            if hasattr(stmt, "targets"):
                self.same[stmt.new.name] = (stmt.new.same_as or stmt.array).name
            elif hasattr(stmt, "phis"):
                self.carried.update((phi.name, last) for phi, last in stmt.phis)
        self.producers = {}      # SSA name -> the Op that made it
        self.uses = {}           # SSA name -> how many operations read it
        for op in walk_ops(program.body):
            self.producers[op.target] = op
            for arg in op.args:
                for d in reads(arg):
                    self.uses[d.name] = self.uses.get(d.name, 0) + 1
        for d in reads(program.result) if program.result is not None else ():
            self.uses[d.name] = self.uses.get(d.name, 0) + 1

    def sub(self, indent=None):
        """An emitter for a nested block (or a draft): the same program and facts, its own
        lines, a copy of what is defined."""
        other = Emitter.__new__(Emitter)
        other.__dict__.update(self.__dict__)
        other.lines = []
        other.indent = self.indent if indent is None else indent
        other.defined = set(self.defined)
        other.owned, other.alias = set(self.owned), dict(self.alias)
        other.copied = set()
        return other

    def take(self, inner):
        """Append a nested block's lines (what it defines is the caller's to merge)."""
        self.lines.extend(inner.lines)
        self.alias.update(inner.alias)

    def tape_dtype(self, name):
        """The dtype of an array tape for ``name`` (a number, by the first run's facts), or
        None for a Python list (arrays, objects; the generic code)."""
        fact = self.fact(Dyn(name, False))
        if fact is None or fact[4] != 0 or fact[2] is np.ndarray or fact[1].kind not in "biuf":
            return None
        if name in self.carried:
            # a carried number stays one only if the first run saw the body make one (it may
            # start as 0.0 and become an array, or the loop may not have run)
            start = self.producers.get(name)
            last = self.fact(self.carried[name])
            first = self.fact(start.args[0]) if start is not None and start.args else None
            if last is None or first is None or last[2] is not fact[2] or \
                    first[4] != 0 or first[2] is np.ndarray:
                return None
        return fact[1]

    def push(self, names):
        """Save values on their tapes (the end of a block inside a loop). Numbers go into
        an array (doubled when full: compiled code takes it), other values into a list."""
        for name in names:
            if name in self.same:
                continue       # the same array as its first name: restored from it
            self.tapes.add(name)
            if self.tape_dtype(name) is None:
                self.line(f"_tape_{name}.append({name})")
                continue
            dtype = self.tape_dtype(name)
            # doubled when full (np.empty of a named dtype: the compilers know its type)
            self.line(f"if _n_{name} == _tape_{name}.shape[0]:")
            self.line(f"    _bigger = np.empty(2 * _n_{name}, np.{dtype.name})")
            self.line(f"    _bigger[:_n_{name}] = _tape_{name}")
            self.line(f"    _tape_{name} = _bigger")
            self.line(f"_tape_{name}[_n_{name}] = {name}")
            self.line(f"_n_{name} = _n_{name} + 1")

    def pop(self, names):
        """Take back saved values (the start of the block's backward), in their own type."""
        for name in [n for n in names if n not in self.same]:
            self.tapes.add(name)
            if self.tape_dtype(name) is None:
                self.line(f"{name} = _tape_{name}.pop()")
                continue
            self.line(f"_n_{name} = _n_{name} - 1")
            self.line(f"{name} = {self.tape_cast(name)}(_tape_{name}[_n_{name}])")
        for name in names:
            if name in self.same:
                self.line(f"{name} = {self.same[name]}")

    def tape_cast(self, name):
        """The type a number taken back from its tape is given: the forward value's."""
        fact = self.fact(Dyn(name, False))
        return {float: "float", int: "int", bool: "bool"}.get(fact[2], f"np.{fact[1].name}")

    def tape_inits(self):
        """The tapes' creation, at the function's start."""
        lines = []
        for name in sorted(self.tapes):
            dtype = self.tape_dtype(name)
            if dtype is None:
                lines.append(f"    _tape_{name} = []")
            else:
                lines.append(f"    _tape_{name} = np.empty(16, np.{dtype.name})")
                lines.append(f"    _n_{name} = 0")
                # one type on every path (the value popped back is of this type too)
                lines.append(f"    {name} = {self.tape_cast(name)}(0)")
        return lines

    def index_kind(self, array, index):
        """"element" (every axis indexed by an integer: a number), "basic" (integers and
        slices: a view) or None (fancy, or not known) for ``array[index]``."""
        if isinstance(index, Tup) and index.kind == "list":
            return None          # x[[1, 1]]: an index array (fancy), not one per axis
        parts = index.items if isinstance(index, Tup) else (
            [Static(v) for v in index.value] if isinstance(index, Static) and
            isinstance(index.value, tuple) else [index])
        ints = 0
        for part in parts:
            if isinstance(part, Static):
                if isinstance(part.value, (int, np.integer)) and \
                        not isinstance(part.value, bool):
                    ints += 1
                elif not isinstance(part.value, (slice, type(None), type(Ellipsis))):
                    return None
            elif self.scalar(part) and self.fact(part)[1].kind in "iu":
                ints += 1
            elif isinstance(part, Lazy):
                ints += 1        # x.shape[0]: an int
            else:
                return None
        return "element" if ints == self.ndim(array) and ints == len(parts) else "basic"

    def zeros_text(self, value):
        fact = self.fact(value)
        if fact is None:
            return f"_ad.zeros_like({value.name})"
        if fact[2] is np.ndarray:
            return f"np.zeros_like({value.name})"
        return _typed("0.0", fact)

    def zero(self, names, origin):
        """Gradients set to zero before a block that may add to them (a branch not taken,
        a loop that runs no iteration leaves them so)."""
        for name in names:
            self.line(f"g_{name} = {self.zeros_text(Dyn(name, True))}", origin, " (adjoint)")
            self.own(f"g_{name}")

    def own(self, var):
        self.owned.add(var)
        self.alias.pop(var, None)

    def make_owned(self, name, origin):
        """Make ``g_name`` an array this code alone holds, to update it in place: zeros
        where it has no contribution yet, a copy where it may be shared."""
        var = f"g_{name}"
        if name not in self.defined:
            self.line(f"{var} = {self.zeros_text(Dyn(name, True))}", origin, " (adjoint)")
            self.defined.add(name)
        elif var not in self.owned and not self.scalar(Dyn(name, True)):
            self.line(f"{var} = {var}.copy()" if self.fact(Dyn(name, True)) is not None
                      else f"{var} = _ad.owned({var})", origin, " (adjoint)")
            self.copied.add(name)
        self.own(var)

    def scatter(self, name, scatter, origin):
        """``g_name[index] += source`` in place (repeated fancy indices add, as np.add.at):
        the adjoint of reading ``name[index]`` costs the size of the read, not of the
        array."""
        self.make_owned(name, origin)
        if self.facts is not None and self.index_kind(Dyn(name, True),
                                                      scatter.value) is not None:
            self.line(f"g_{name}[{render_index(scatter.value, self.program)}] += "
                      f"{scatter.source}", origin, " (adjoint)")
        else:
            self.line(f"_ad.scatter_add(g_{name}, {scatter.index}, {scatter.source})", origin,
                      " (adjoint)")

    def line(self, text, origin=None, note=""):
        where = f"  # {os.path.basename(origin.filename)}:{origin.lineno}{note}" \
            if origin is not None else ""
        self.lines.append("    " * self.indent + text + where)

    def render(self, value):
        return render(value, self.program)

    # -- forward -----------------------------------------------------------------------------

    def forward(self, statements):
        for stmt in statements:
            if isinstance(stmt, Op):
                self.line(f"{stmt.target} = {stmt.src}", stmt.origin)
            else:
                stmt.forward(self)

    # -- backward ----------------------------------------------------------------------------

    def backward(self, statements):
        for stmt in reversed(statements):
            if isinstance(stmt, Op):
                self.adjoint(stmt)
            else:
                stmt.backward(self)

    def adjoint(self, op):
        if op.rule is None or op.target not in self.defined:
            return
        from .rules import RULES, Scatter
        context = RuleContext(self, op)
        contributions = RULES[op.rule](op, context)
        g = f"g_{op.target}"
        texts = [c if isinstance(c, str) else c.source for _, c in contributions]
        # the result's gradient is dead after this op: handed on (not copied) when exactly
        # one contribution is that array itself
        handed = sum(t.strip() == g for t in texts) == 1 and \
            sum(g in _IDENT.findall(t) for t in texts) == 1 and g in self.owned
        for k, source in contributions:
            operand = op.args[k]
            folded = self.fold_transpose(op, k)
            if folded is not None:
                operand, source = folded
            if isinstance(operand, Dyn) and operand.active:
                if isinstance(source, Scatter):
                    self.scatter(operand.name, source, op.origin)
                else:
                    self.accumulate(operand.name, source, op.origin,
                                    transfer=handed and source.strip() == g)
            elif isinstance(operand, Tup) and any(d.active for d in dyns(operand)):
                from ..errors import UnsupportedConstruct
                raise UnsupportedConstruct("a differentiated value inside a tuple or list "
                                           "operand", op.origin)

    def fold_transpose(self, op, k):
        """``a @ w.T`` (a Dense layer): the gradient of ``w`` computed as one product
        (``g.T @ a``, contiguous) instead of the transpose of ``a.T @ g`` (a strided view
        the caller would copy). Only where ``w.T`` has no other use."""
        if op.rule not in ("dot", "matmul"):
            return None
        operand = op.args[k]
        maker = self.producers.get(getattr(operand, "name", None))
        if maker is None or maker.rule != "T" or self.uses.get(operand.name) != 1:
            return None
        a, b = self.render(op.args[0]), self.render(op.args[1])
        g = f"g_{op.target}"
        if self.ndim(op.args[0]) == 2 and self.ndim(op.args[1]) == 2:
            return maker.args[0], (f"{g}.T @ {a}" if k == 1 else f"{b} @ {g}.T")
        return maker.args[0], f"_ad.product_grad_t({g}, {a}, {b}, {k})"

    def fact(self, value):
        """(shape, dtype, type, is_view, ndim) of a value, or None where not known; the
        shape is None inside loops (it may change between iterations; the rest may not)."""
        if isinstance(value, Static):
            v = value.value
            if not isinstance(v, (int, float, complex, np.generic, np.ndarray)):
                return None
            return (np.shape(v), np.result_type(v), type(v), False, np.ndim(v))
        if self.facts is None or not isinstance(value, Dyn):
            return None
        return self.facts.get(value.name)

    def ndim(self, value):
        fact = self.fact(value)
        return None if fact is None else fact[4]

    def scalar(self, value):
        """Whether ``value`` is a number (not an array) by the first run's facts."""
        fact = self.fact(value)
        return fact is not None and fact[4] == 0 and fact[2] is not np.ndarray

    def unbroadcast(self, source, result, operand):
        """``source`` (of ``result``'s shape) summed to ``operand``'s shape: static axes
        where both shapes are known, else ``_ad.unbroadcast`` at run time."""
        have, want = self.fact(result), self.fact(operand)
        if have is not None and want is not None and have[4] == 0 and want[4] == 0:
            return source
        if have is not None and want is not None and want[4] == 0 and \
                want[2] is not np.ndarray and have[4] > 0:
            return f"np.sum({source})"      # a number broadcast to an array: its sum
        if have is None or want is None or have[0] is None or want[0] is None:
            return f"_ad.unbroadcast({source}, {self.render(operand)})"
        gshape, shape = have[0], want[0]
        if gshape == shape:
            return source
        lead = len(gshape) - len(shape)
        axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                          if n == 1 and gshape[lead + i] != 1)
        if not shape:
            return f"np.sum({source})"
        if all(a < lead for a in axes):
            return f"np.sum({source}, axis={axes!r})"
        return f"np.sum({source}, axis={axes!r}, keepdims=True).reshape({shape!r})"

    def accumulate(self, name, source, origin, transfer=False):
        """``g_name += source`` (an assignment at the first contribution). ``transfer``:
        ``source`` is a gradient variable no longer used: its array is handed on."""
        var = f"g_{name}"
        if name in self.defined:
            self.line(f"{var} = {var} + {source}", origin, " (adjoint)")
            self.own(var)
            return
        self.line(f"{var} = {source}", origin, " (adjoint)")
        self.defined.add(name)
        text = source.strip()
        if text.isidentifier():
            if transfer and text in self.owned:
                self.owned.discard(text)
                self.own(var)
            else:
                self.owned.discard(var)
                self.owned.discard(text)      # two names for one array: neither owns it
                self.alias[var] = self.alias.get(text, text)
        elif text.startswith(_VIEWS) or text.endswith((".T", "]")):
            self.owned.discard(var)
            self.alias.pop(var, None)
        else:
            self.own(var)


_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
# calls whose result may be a view of their operand (or the operand itself): never updated in
# place, and a returned gradient made by one is copied
_VIEWS = ("np.broadcast_to(", "np.reshape(", "np.transpose(", "np.expand_dims(", "np.squeeze(",
          "np.ravel(", "_ad.unbroadcast(", "_ad.sum_grad(", "_ad.mean_grad(",
          "_ad.transpose_grad(", "_ad.cast_like(", "_ad.product_grad_t(", "_ad.matmul_grad(",
          "_ad.dot_grad(", "_ad.concatenate_grad(", "_ad.stack_grad(")


def walk_ops(statements):
    """Every Op in ``statements``, also inside control flow (statements with ``children``)."""
    for stmt in statements:
        if isinstance(stmt, Op):
            yield stmt
        else:
            for block in stmt.children():
                yield from walk_ops(block)


class RuleContext:
    """What a rule reads: the result's gradient and name, the rendered operands."""

    def __init__(self, emitter, op):
        self.emitter, self.op = emitter, op
        self.g = f"g_{op.target}"
        self.y = op.target

    def arg(self, k):
        return self.emitter.render(self.op.args[k])

    def u(self, source, k):
        """``source``, a contribution of the result's shape, summed to operand ``k``'s."""
        operand = self.op.args[k]
        if not (isinstance(operand, Dyn) and operand.active):
            return source
        emitter = self.emitter
        others = [a for j, a in enumerate(self.op.args) if j != k]
        if emitter.facts is not None and all(emitter.ndim(a) == 0 for a in others):
            # the other operands are numbers: the result has this operand's shape (an
            # array's), or is a number too; no shape needs to be known
            ndim = emitter.ndim(operand)
            if ndim is not None and ndim == emitter.ndim(Dyn(self.op.target, True)):
                return source
        return emitter.unbroadcast(source, Dyn(self.op.target, True), operand)

    def shape(self, value):
        fact = self.emitter.fact(value)
        return None if fact is None or fact[0] is None else tuple(fact[0])

    def ndims(self, *ks):
        return tuple(self.emitter.ndim(self.op.args[k]) for k in ks)

    def safe_div(self, g, d):
        """``_ad.safe_div(g, d)``; one expression where the result's kind is known."""
        return self._safe(g, d, "/")

    def safe_mul(self, g, d):
        """``_ad.safe_mul(g, d)``; one expression where the result's kind is known."""
        return self._safe(g, d, "*")

    def _safe(self, g, d, op):
        if self.emitter.scalar(Dyn(self.op.target, True)):
            return f"({g} * 0 if {g} == 0 else {g} {op} ({d}))"
        if self.emitter.fact(Dyn(self.op.target, True)) is not None:
            return f"np.where({g} == 0, 0, {g} {op} ({d}))"
        return f"_ad.safe_{'div' if op == '/' else 'mul'}({g}, {d})"

    def kind(self, value):
        """(dtype, type) of a value by the first run's facts, or None."""
        fact = self.emitter.fact(value)
        return None if fact is None else (fact[1], fact[2])

    def constant(self, k):
        value = self.op.args[k]
        return value.value if isinstance(value, Static) else None

    def nonzero_constant(self, k):
        value = self.constant(k)
        return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0

    def active(self, k):
        value = self.op.args[k]
        return isinstance(value, Dyn) and value.active

    def parts(self):
        return "(" + ", ".join(self.arg(k) for k in range(len(self.op.args))) + ",)"

    def render(self, value):
        return self.emitter.render(value)

    def emit_statements(self, statements):
        self.emitter.forward(statements)


def _typed(text, fact):
    """``text`` (a number) as a value of the type ``fact`` describes."""
    shape, dtype, kind = fact[:3]
    if kind is float:
        return text
    if kind is np.ndarray:
        return f"np.full({shape!r}, {text}, np.{dtype.name})"
    return f"np.{dtype.name}({text})"
