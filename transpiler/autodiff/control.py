"""Control flow on runtime values inside a differentiated function: ``if``, ``for``, ``while``,
``break`` and ``continue``.

Normalization (called by normalize.py): a branch's two blocks are normalized apart and the
names they assign are merged into one new name each (a copy at the end of each block: the
functional form's ``cond`` outputs); a loop's carried names (assigned in the body, defined
before it) get one name each that the body reads and that a copy at the end of the body
updates (``while_loop``'s carried values); ``break``/``continue`` become flags (the rest of
the body guarded by them), so every iteration ends with the loop's bookkeeping.

The adjoint: the backward sweep of an ``if`` takes the branch the forward took (its test is a
forward value); of a loop, it runs the body's backward as many times as the forward ran the
body (a counter), in reverse. A value defined inside a loop that the backward reads is saved on
a tape (one per name) when its block ends in the forward, and taken back when that block's
backward starts: only those names are saved, found by scanning the backward code the block's
adjoint emits (a first emission, see adjoint.generate).
"""
import copy
import re

import gast

from ..errors import UnsupportedConstruct
from .values import Dyn, Op, RuntimeRange, Static, is_active, reads, render, stores_in

_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


class Unbound:
    """A name assigned inside a loop or one branch only: reading it after is refused."""

    def __init__(self, name, origin, why):
        self.name, self.origin, self.why = name, origin, why


# -- break and continue ----------------------------------------------------------------------

def _flag(name, value, like):
    node = gast.Assign(targets=[gast.Name(id=name, ctx=gast.Store(), annotation=None,
                                          type_comment=None)],
                       value=gast.Constant(value=value, kind=None), type_comment=None)
    return gast.copy_location(node, like)


def _guard(names, body, like):
    test = gast.UnaryOp(op=gast.Not(), operand=gast.BoolOp(op=gast.Or(), values=[
        gast.Name(id=n, ctx=gast.Load(), annotation=None, type_comment=None) for n in names])
        if len(names) > 1 else gast.Name(id=names[0], ctx=gast.Load(), annotation=None,
                                         type_comment=None))
    for node in gast.walk(test):
        gast.copy_location(node, like)
    return gast.copy_location(gast.If(test=test, body=body, orelse=[]), like)


def lower_jumps(body, brk, cont):
    """``body`` with ``break``/``continue`` (of this loop, not nested ones) replaced by
    setting the flag ``brk``/``cont`` and the statements after them guarded by
    ``if not (brk or cont)``. Returns ``(statements, jumps)``: jumps is True when a flag
    may have been set."""
    out = []
    for k, stmt in enumerate(body):
        if isinstance(stmt, gast.Break):
            out.append(_flag(brk, True, stmt))
            return out, True
        if isinstance(stmt, gast.Continue):
            out.append(_flag(cont, True, stmt))
            return out, True
        if isinstance(stmt, gast.If):
            then, j1 = lower_jumps(stmt.body, brk, cont)
            orelse, j2 = lower_jumps(stmt.orelse, brk, cont)
            new = copy.copy(stmt)
            new.body, new.orelse = then or [gast.copy_location(gast.Pass(), stmt)], orelse
            out.append(new)
            if j1 or j2:
                rest, _ = lower_jumps(body[k + 1:], brk, cont)
                if rest:
                    out.append(_guard([brk, cont], rest, body[k + 1]))
                return out, True
            continue
        out.append(stmt)
    return out, False


def _same_value(env, carried, defined):
    """Names bound to the same array as a carried name (an alias ``b = a``)."""
    values = {id(env.names[n]) for n in carried if isinstance(env.names[n], Dyn)}
    return {n for n in defined if isinstance(env.names[n], Dyn) and id(env.names[n]) in values}


def has_jump(body):
    for stmt in body:
        if isinstance(stmt, (gast.Break, gast.Continue)):
            return True
        if isinstance(stmt, gast.If) and (has_jump(stmt.body) or has_jump(stmt.orelse)):
            return True
    return False


def _assigned(body):
    """User names a list of statements assigns, stores into included (``a[i] = v`` gives
    ``a`` a new SSA name: the loop carries it)."""
    names = set()
    for stmt in body:
        for node in gast.walk(stmt):
            if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store):
                names.add(node.id)
            elif isinstance(node, gast.Subscript) and isinstance(node.ctx, gast.Store):
                base = node.value
                while isinstance(base, gast.Subscript):
                    base = base.value
                if isinstance(base, gast.Name):
                    names.add(base.id)
    return names


# -- branches ----------------------------------------------------------------------------------

class IfStmt:
    """``if test: then else: orelse`` on a runtime test; ``merges``: (merged name, then
    value, else value) assigned at the end of each block."""

    def __init__(self, test, then, orelse, origin):
        self.test, self.then, self.orelse, self.origin = test, then, orelse, origin
        self.saved = {"then": [], "orelse": []}
        self.merged = []       # the names both blocks assign at their end

    def children(self):
        return [self.then, self.orelse]

    def forward(self, emitter):
        emitter.line(f"if {emitter.render(self.test)}:", self.origin)
        for key, block in (("then", self.then), ("orelse", self.orelse)):
            if key == "orelse":
                emitter.line("else:", self.origin)
            emitter.indent += 1
            emitter.line("pass")
            emitter.forward(block)
            emitter.push(self.saved[key])
            emitter.indent -= 1

    def backward(self, emitter):
        local = defined_names([self.then, self.orelse])
        drafts = {}
        for key, block in (("then", self.then), ("orelse", self.orelse)):
            draft = emitter.sub()
            draft.pop(self.saved[key])
            draft.backward(block)
            drafts[key] = draft
            if emitter.in_loop:
                own = defined_names([block], deep=False) - set(self.merged)
                self.saved[key] = read_names(draft.lines, own)
        grown = (drafts["then"].defined | drafts["orelse"].defined) - emitter.defined - local
        emitter.zero(sorted(grown), self.origin)
        emitter.line(f"if {emitter.render(self.test)}:", self.origin, " (adjoint)")
        for key, block in (("then", self.then), ("orelse", self.orelse)):
            if key == "orelse":
                emitter.line("else:", self.origin, " (adjoint)")
            inner = emitter.sub(indent=emitter.indent + 1)
            inner.line("pass")
            inner.pop(self.saved[key])
            inner.backward(block)
            emitter.take(inner)
        emitter.defined |= grown


def branch(nz, stmt, test, env, origin):
    """Normalize an ``if`` whose test is a runtime value."""
    if is_active(test):
        raise UnsupportedConstruct("a branch on a differentiated value's truth", origin)
    blocks, scopes = [], []
    for body in (stmt.body, stmt.orelse):
        scope = env.copy()
        saved, nz.statements = nz.statements, []
        nz.control += 1
        try:
            if nz.block(body, scope) is not None:
                raise UnsupportedConstruct(
                    "a return inside a branch on a runtime value is not differentiated yet "
                    "(assign the result and return once, at the end)", origin)
            blocks.append(nz.statements)
        finally:
            nz.statements = saved
            nz.control -= 1
        scopes.append(scope)
    node = IfStmt(test, blocks[0], blocks[1], origin)
    pending = []
    for name in sorted(set(scopes[0].names) | set(scopes[1].names)):
        a, b = scopes[0].names.get(name), scopes[1].names.get(name)
        if a is b:
            env.names[name] = a
            continue
        if a is None or b is None or isinstance(a, Unbound) or isinstance(b, Unbound):
            env.names[name] = Unbound(name, origin, "assigned in one branch of an if only")
            continue
        if isinstance(a, Static) and isinstance(b, Static) and type(a.value) is type(b.value) \
                and _same(a.value, b.value):
            env.names[name] = a
            continue
        if isinstance(a, Dyn) and isinstance(b, Dyn) and a.name == b.name:
            env.names[name] = a
            continue
        merged = Dyn(nz.program.new_name(name), is_active(a) or is_active(b))
        merged.sources = _alias_sources([(a, scopes[0]), (b, scopes[1])], name)
        node.merged.append(merged.name)
        before = env.names.get(name)
        if isinstance(before, Dyn):
            pending.append((before, merged))
        for block, value in ((node.then, a), (node.orelse, b)):
            block.append(Op(merged.name, render(value, nz.program),
                            "copy" if is_active(value) else None, [value], {}, origin))
        env.names[name] = merged
    nz.statements.append(node)
    for before, merged in pending:     # a caller's names for an array a branch stored into
        nz.propagate(before, merged, origin)
    return None


def _alias_sources(values, name):
    """The arrays a merged name may be, where one of them is also another name's (``b = a``
    on one path only): stores through any of them are refused (normalize.py)."""
    sources = set()
    for value, scope in values:
        if isinstance(value, Dyn) and any(v is value for n, v in scope.names.items()
                                          if n != name):
            sources.add(value.name)
            sources |= value.sources
    return sources


def _same(a, b):
    try:
        return bool(a == b)
    except Exception:   # noqa: BLE001 - arrays, odd objects: not the same
        return False


# -- loops -------------------------------------------------------------------------------------

class LoopStmt:
    """A ``for`` over a range or a ``while``; see the module docstring.

    Attributes:
        kind: "for" (``index`` over ``bounds``) or "while" (``test_ops`` then ``test``).
        phis (list): (carried Dyn, the body's last value) per carried name.
        body (list): the body's statements. counter (str): the trip count's name.
        brk (str | None): the break flag's SSA name read at the end of each iteration.
    """

    def __init__(self, kind, origin):
        self.kind, self.origin = kind, origin
        self.index = self.bounds = self.test = None
        self.test_ops, self.body, self.phis = [], [], []
        self.counter = self.brk = None
        self.saved_start, self.saved_end = [], []

    def children(self):
        return [self.test_ops, self.body]

    def forward(self, emitter):
        emitter.line(f"{self.counter} = 0", self.origin)
        if self.kind == "for":
            a, b, s = (emitter.render(v) for v in self.bounds)
            emitter.line(f"for {self.index} in range({a}, {b}, {s}):", self.origin)
        else:
            emitter.line("while True:", self.origin)
        emitter.indent += 1
        emitter.in_loop += 1
        if self.kind == "while":
            emitter.forward(self.test_ops)
            emitter.line(f"if not {emitter.render(self.test)}:", self.origin)
            emitter.line("    break", self.origin)
        emitter.push(self.saved_start)
        emitter.forward(self.body)
        moved = [(phi.name, last.name) for phi, last in self.phis if last.name != phi.name]
        if moved:       # at once: a swap (a, b = b, a) reads the old values
            emitter.line(f"{', '.join(p for p, _ in moved)} = "
                         f"{', '.join(v for _, v in moved)}", self.origin)
        emitter.push(self.saved_end)
        emitter.line(f"{self.counter} = {self.counter} + 1", self.origin)
        if self.brk is not None:
            emitter.line(f"if {self.brk}:", self.origin)
            emitter.line("    break", self.origin)
        emitter.in_loop -= 1
        emitter.indent -= 1

    def invariant(self):
        """Carried names that stay one array object (stored into, never rebound): not
        saved per iteration."""
        return {phi.name for phi, last in self.phis if last is phi or last.same_as is phi}

    def backward(self, emitter):
        active = [(phi, last) for phi, last in self.phis if phi.active]
        local = defined_names([self.body, self.test_ops]) | {self.index} - {None}
        local -= {phi.name for phi, _ in self.phis}
        # the carried gradients: defined (zero) and arrays of their own before the loop, so
        # an iteration can update them in place
        emitter.zero(sorted({phi.name for phi, _ in active} - emitter.defined), self.origin)
        emitter.defined |= {phi.name for phi, _ in active}
        for phi, _ in active:
            var = f"g_{phi.name}"
            if var not in emitter.owned and not emitter.scalar(phi):
                emitter.line(f"{var} = _ad.owned({var})" if emitter.facts is None
                             or emitter.fact(phi) is None else f"{var} = {var}.copy()",
                             self.origin, " (adjoint)")
                emitter.own(var)
        emitter.in_loop += 1
        draft = emitter.sub()
        draft.defined |= {phi.name for phi, _ in active}
        self._iteration(draft, active)
        emitter.in_loop -= 1
        own = defined_names([self.body], deep=False) | {self.index} - {None}
        phis = {phi.name for phi, _ in self.phis}
        needed = read_names(draft.lines, own | phis)
        self.saved_start = sorted(n for n in needed if n in phis - self.invariant())
        self.saved_end = sorted(n for n in needed if n not in phis)
        self._rematerialize(local | phis)
        grown = draft.defined - emitter.defined - local
        emitter.zero(sorted(grown), self.origin)
        emitter.defined |= grown
        for name in sorted(draft.copied & emitter.defined - local):
            emitter.make_owned(name, self.origin)       # once, not in every iteration
        for phi, _ in active:           # owned at every iteration's start, or not assumed
            if f"g_{phi.name}" not in draft.owned:
                emitter.owned.discard(f"g_{phi.name}")
        inner = emitter.sub(indent=emitter.indent + 1)
        inner.in_loop += 1
        self._iteration(inner, active)
        if inner.lines:        # nothing to do backward: no loop
            emitter.line(f"for _ in range({self.counter}):", self.origin, " (adjoint)")
            emitter.take(inner)

    def _rematerialize(self, changing):
        """Values the backward reads that cost no more to compute again than to save, computed
        again from what the loop does not change and the saved numbers: an index of an
        array (``row = X[i]``) and element-wise operations (``np.sin(x * i)``). No array then
        goes on a tape (compiled code takes number tapes only)."""
        from .rules import UNARY
        self.remat = []
        if stores_in(self.body):
            # an array stored into in this loop may have changed since the value was made:
            # computed again, it would read the store (the undo log restores it later)
            return
        cheap = {"index", "add", "sub", "mul", "div", "neg", "maximum", "minimum", "where",
                 "clip", "cmp", "binop", "ufunc", "T", "astype"} | set(UNARY)
        ops = [op for op in self.body if isinstance(op, Op)]
        self.remat = []
        again, saved = set(), set(self.saved_end)
        for op in ops:     # in the body's order: one may use another computed again
            if op.kind not in cheap or op.extra is not None:
                continue
            inputs = {d.name for a in op.args for d in reads(a)}
            if all(n not in changing or n in again or n == self.index for n in inputs):
                again.add(op.target)
                if op.target in saved:
                    self.remat.append(op)
        # what the kept ones need, in order (the ones computed again that they read too)
        wanted = {op.target for op in self.remat}
        for op in reversed(ops):
            if op.target in wanted:
                wanted |= {d.name for a in op.args for d in reads(a)} & again
        self.remat = [op for op in ops if op.target in wanted]
        needs = {d.name for op in self.remat for a in op.args for d in reads(a)} & changing
        self.saved_end = sorted((set(self.saved_end) - wanted) | (needs - wanted))

    def _iteration(self, emitter, active):
        """One backward iteration: take back the saved values, hand each carried name's
        gradient to the value the body's end copied into it, the body's adjoint, and zero
        for a carried name the body adds nothing to."""
        emitter.pop(self.saved_end + self.saved_start)
        for op in getattr(self, "remat", ()):
            emitter.line(f"{op.target} = {op.src}", op.origin, " (again)")
        temps = []
        for phi, last in active:
            temp, var = f"_gc_{phi.name}", f"g_{phi.name}"
            emitter.line(f"{temp} = {var}", self.origin, " (adjoint)")
            if var in emitter.owned:
                emitter.owned.add(temp)
            emitter.owned.discard(var)
            emitter.defined.discard(phi.name)
            temps.append(temp)
        for (phi, last), temp in zip(active, temps):
            if last.active:
                emitter.accumulate(last.name, temp, self.origin, transfer=True)
        emitter.backward(self.body)
        for phi, _ in active:
            if phi.name not in emitter.defined:
                emitter.zero([phi.name], self.origin)
                emitter.defined.add(phi.name)


def loop_for(nz, stmt, iterable, env, origin):
    """Normalize ``for target in range(...)`` / ``for row in array`` on runtime values."""
    if stmt.orelse:
        raise UnsupportedConstruct("a for/else is not differentiated yet", origin)
    node = LoopStmt("for", origin)
    rows = None
    if isinstance(iterable, RuntimeRange):
        bounds = list(iterable.bounds)
        if any(is_active(b) for b in bounds):
            raise UnsupportedConstruct("a range() bound computed from a differentiated value",
                                       origin)
        if len(bounds) == 1:
            bounds = [Static(0), bounds[0], Static(1)]
        elif len(bounds) == 2:
            bounds.append(Static(1))
    elif isinstance(iterable, Dyn):
        rows = iterable
        length = nz.op(f"len({iterable.name})", None, [iterable], {}, origin, hint="n")
        bounds = [Static(0), length, Static(1)]
    else:
        raise UnsupportedConstruct("a loop over something other than range() or an array "
                                   "is not differentiated yet", origin)
    node.bounds = bounds
    if not isinstance(stmt.target, gast.Name):
        raise UnsupportedConstruct("a for loop's target must be one name here", origin)
    node.index = nz.program.new_name("i" if rows is not None else stmt.target.id)
    target = stmt.target.id

    def bind(scope):
        if rows is None:
            scope.names[target] = Dyn(node.index, False)
        else:
            row = nz.op(f"{rows.name}[{node.index}]", "index", [rows, Dyn(node.index, False)],
                        {}, origin, hint=target, view_of=rows)
            scope.names[target] = row
    return _loop(nz, stmt, node, env, origin, bind, None)


def loop_while(nz, stmt, env, origin):
    """Normalize ``while test:``."""
    if stmt.orelse:
        raise UnsupportedConstruct("a while/else is not differentiated yet", origin)
    node = LoopStmt("while", origin)

    def test(scope):
        value = nz.expr(stmt.test, scope)
        if is_active(value):
            raise UnsupportedConstruct("a loop test on a differentiated value's truth", origin)
        return value
    return _loop(nz, stmt, node, env, origin, None, test)


def _loop(nz, stmt, node, env, origin, bind, test):
    body = list(stmt.body)
    brk = cont = None
    if has_jump(body):
        brk, cont = nz.program.new_name("_break"), nz.program.new_name("_continue")
        lowered, _ = lower_jumps(body, brk, cont)
        body = [_flag(cont, False, stmt)] + lowered
        env.names[brk] = Static(False)
    assigned = _assigned(body) | ({brk} if brk else set())
    defined = {n for n, v in env.names.items() if not isinstance(v, Unbound)}
    carried = assigned & defined
    active = {n for n in carried if is_active(env.names[n])}
    node.counter = nz.program.new_name("_trips")
    for _ in range(len(defined) + 2):     # carried names and their activity: a fixpoint
        carried |= _same_value(env, carried, defined)
        phis, by_value = {}, {}
        for n in sorted(carried):
            initial = env.names[n]
            key = id(initial) if isinstance(initial, Dyn) else ("name", n)
            if key not in by_value:        # names bound to one array share its phi
                by_value[key] = Dyn(nz.program.new_name(n), n in active)
                by_value[key].borrowed = isinstance(initial, Dyn) and initial.root_borrowed()
            phis[n] = by_value[key]
        scope = env.copy()
        for n, phi in phis.items():
            scope.names[n] = phi
        saved, nz.statements = nz.statements, []
        nz.loop_depth += 1
        nz.control += 1
        try:
            test_ops = []
            if test is not None:
                node.test = test(scope)
                test_ops, nz.statements = nz.statements, []
            if bind is not None:
                bind(scope)
            if nz.block(body, scope) is not None:
                raise UnsupportedConstruct("a return inside a loop is not differentiated yet "
                                           "(assign the result and return after the loop)",
                                           origin)
            statements = nz.statements
        finally:
            nz.statements = saved
            nz.loop_depth -= 1
            nz.control -= 1
        # names the body rebound without assigning them (a store through an alias or in a
        # called function) are carried too
        changed = {n for n in defined - carried if scope.names.get(n) is not env.names[n]}
        grown = {n for n in carried if is_active(scope.names.get(n)) and n not in active}
        if not grown and not changed:
            break
        active |= grown
        carried |= changed
    seen = set()
    ordered = []
    for n in sorted(phis):
        if id(phis[n]) not in seen:
            seen.add(id(phis[n]))
            ordered.append(n)
    env_before = {n: env.names[n] for n in ordered}
    for n in ordered:
        phi, initial = phis[n], env.names[n]
        nz.statements.append(Op(phi.name, render(initial, nz.program),
                                "copy" if is_active(initial) else None, [initial], {}, origin))
    node.test_ops, node.body = test_ops, statements
    node.phis = []
    for n, phi in phis.items():
        env.names[n] = phi
    for n in ordered:
        phi = phis[n]
        last = scope.names[n]
        if not isinstance(last, Dyn) or last.name != phi.name:
            if not isinstance(last, Dyn):      # a constant assigned in the body
                holder = Dyn(nz.program.new_name(n), False)
                node.body.append(Op(holder.name, render(last, nz.program), None, [last], {},
                                    origin))
                last = holder
        node.phis.append((phi, last))
        phi.sources |= _alias_sources([(env_before[n] if n in env_before else None, env),
                                       (last, scope)], n)
    if brk is not None:
        node.brk = phis[brk].name
    for n in ordered:            # a caller's names for an array the loop stored into
        initial = env_before[n]
        if isinstance(initial, Dyn) and initial is not phis[n]:
            nz.propagate(initial, phis[n], origin)
    for n in assigned - set(carried):
        env.names[n] = Unbound(n, origin, "first assigned inside a loop")
    nz.statements.append(node)
    return None


# -- what blocks define and read -------------------------------------------------------------

def defined_names(blocks, deep=True):
    """SSA names assigned in ``blocks`` (and in their nested blocks when ``deep``)."""
    names = set()
    for block in blocks:
        for stmt in block:
            if isinstance(stmt, Op):
                names.add(stmt.target)
            elif hasattr(stmt, "targets"):
                names.update(stmt.targets())
            elif isinstance(stmt, LoopStmt):
                names.add(stmt.counter)
                names |= {phi.name for phi, _ in stmt.phis}
                if deep:
                    names |= defined_names(stmt.children()) | ({stmt.index} - {None})
            elif isinstance(stmt, IfStmt):
                names |= set(stmt.merged)
                if deep:
                    names |= defined_names(stmt.children())
    return names


def read_names(lines, candidates):
    """The ``candidates`` that generated ``lines`` read (identifiers, comments excluded)."""
    found = set()
    for line in lines:
        code = line.split("  # ", 1)[0]
        found |= set(_IDENT.findall(code)) & candidates
    return sorted(found)
