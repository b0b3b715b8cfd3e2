"""Control flow: ``if`` on a static condition pruned, ``for`` over a static sequence (a list of
layers, ``enumerate``/``zip`` of them) unrolled with ``break``/``continue`` as flags; other
``if``/``while``/``for`` kept structured here (``Specializer.run`` lowers them to functional
forms afterwards).
"""

import gast

from ...analysis.static_values import Static
from ..lower_break_continue import guard
from ...nodes import contains, copy_tree
from .nodes import _assign, _describe, _hashable, _load
from ...nodes import walk

# Longest static sequence a `for` unrolls; beyond it the code would be too large to compile.
MAX_UNROLL = 4096


class ControlFlow:
    """``if``/``while``/``for`` and their ``break``/``continue``."""

    def stmt_If(self, node):
        test = self.expr(node.test)
        if isinstance(test, Static):
            self._truth_of(test)
            try:
                taken = bool(test.value)
            except Exception:  # noqa: BLE001 - a __bool__ that raises: let Python raise it
                self.fail(node.test, "the truth value of this static condition raises")
            return self.block(node.body if taken else node.orelse)
        self.nesting += 1
        body, orelse = self.block(node.body) or [gast.Pass()], self.block(node.orelse)
        self.nesting -= 1
        return [gast.If(test=test, body=body, orelse=orelse)]

    def stmt_While(self, node):
        test = self.value(node.test)
        self.nesting += 1
        body = self.block(node.body) or [gast.Pass()]
        self.nesting -= 1
        return [gast.While(test=test, body=body, orelse=self.block(node.orelse))]

    def stmt_Break(self, node):
        return [gast.Break()]       # in an unrolled loop, _unroll lowers it to a flag

    def stmt_Continue(self, node):
        return [gast.Continue()]

    def stmt_For(self, node):
        items = self._static_items(node.iter)
        if items is not None:
            return self._unroll(node, items)
        iterable = self.expr(node.iter)
        if isinstance(iterable, Static):
            seq = iterable.value
            if isinstance(seq, (list, tuple)):
                return self._unroll(node, [self._element(iterable, i, node.iter)
                                           for i in range(len(seq))])
            if not isinstance(seq, range):
                self.fail(node.iter, f"cannot iterate over static {_describe(seq)}")
            iterable = self.materialize(iterable, node.iter)  # a range of constants
        target = self.target(node.target)
        self.nesting += 1
        body = self.block(node.body) or [gast.Pass()]
        self.nesting -= 1
        return [gast.For(target=target, iter=iterable, body=body,
                         orelse=self.block(node.orelse), type_comment=None)]

    def _element(self, seq, index, node):
        path = seq.path.child("[]", index) if seq.path is not None else None
        return self.static(seq.value[index], path, node)

    def _static_items(self, node):
        """The items of ``enumerate``/``zip`` over static sequences, or None."""
        if not (isinstance(node, gast.Call) and not node.keywords and node.args and not any(
                isinstance(a, gast.Starred) for a in node.args)):
            return None
        callee = self.expr(node.func)
        if not isinstance(callee, Static) or not _hashable(callee.value) or \
                callee.value not in (enumerate, zip):
            return None
        args = [self.expr(a) for a in node.args]
        if callee.value is enumerate and 1 <= len(args) <= 2:
            seq, start = args[0], args[1] if len(args) == 2 else Static(0)
            if not (isinstance(seq, Static) and isinstance(seq.value, (list, tuple))
                    and isinstance(start, Static) and type(start.value) is int):
                return None
            return [(Static(start.value + i), self._element(seq, i, node))
                    for i in range(len(seq.value))]
        if callee.value is zip and all(isinstance(a, Static) and isinstance(
                a.value, (list, tuple)) for a in args):
            length = min(len(a.value) for a in args)
            return [tuple(self._element(a, i, node) for a in args) for i in range(length)]
        return None

    def _bind(self, target, item):
        if isinstance(target, gast.Name):
            self.env[target.id] = item
            return
        if isinstance(target, (gast.Tuple, gast.List)) and isinstance(item, tuple) and len(
                target.elts) == len(item):
            for sub_target, sub_item in zip(target.elts, item):
                self._bind(sub_target, sub_item)
            return
        if isinstance(target, (gast.Tuple, gast.List)) and isinstance(item, Static) and \
                isinstance(item.value, tuple) and len(item.value) == len(target.elts):
            for i, sub_target in enumerate(target.elts):
                self._bind(sub_target, self._element(item, i, target))
            return
        self.fail(target, "this loop target does not fit the static sequence's elements")

    def _read_elsewhere(self, loop, names):
        """Whether one of ``names`` is read in the function outside ``loop``."""
        inside = {id(n) for n in walk(loop)}
        return any(isinstance(n, gast.Name) and n.id in names and isinstance(n.ctx, gast.Load)
                   and id(n) not in inside for n in walk(self.src.node))

    def _unroll(self, node, items):
        """Unroll ``for target in <static sequence>``: one copy of the body per element.

        A ``break``/``continue`` of this loop becomes a flag: each later copy runs under
        ``if not break_:`` (flat, so a long sequence nests nothing)."""
        if len(items) > MAX_UNROLL:
            self.fail(node.iter, f"a static sequence of {len(items)} elements is too long to "
                                 f"unroll (limit {MAX_UNROLL})")
        bound = [n.id for n in walk(node.target) if isinstance(n, gast.Name)]
        saved = {name: self.env.get(name) for name in bound}
        has_break = contains(node.body, gast.Break)
        has_continue = contains(node.body, gast.Continue)
        for inner in walk(node):
            # `for ... else: break` inside: that jump is this loop's, which the flags below
            # would not see (contains() stops at nested loops): refused, not run wrong
            if inner is not node and isinstance(inner, (gast.For, gast.While)) and contains(
                    inner.orelse, (gast.Break, gast.Continue)):
                self.fail(inner, "a break or continue in the else clause of a loop inside a "
                                 "loop over a static sequence is not converted")
        if has_break and items and self._read_elsewhere(node, bound):
            # after a break the variable holds the item of the iteration that broke, known
            # only at run time; each copy binds it statically
            self.fail(node.target, f"{', '.join(bound)} is read outside a loop over a static "
                                   "sequence that has a break: its value after the loop is "
                                   "not converted")
        # Inside an `if` or a loop whose trip count is known at run time only, whether the
        # copies run is known at run time only: a variable read after the loop then holds
        # the item of the last copy that ran, or what it held before. It is assigned in each
        # copy and read as the run-time variable after the loop (a static binding there gave
        # the last item even where no copy ran: found by a review).
        unrolling = self.unrolling
        runtime_target = bool(items) and self.nesting > unrolling and self._read_elsewhere(
            node, bound)
        if runtime_target and any(value is not None for value in saved.values()):
            self.fail(node.target, f"{', '.join(bound)} holds a value known at transpile time "
                                   "before a loop over a static sequence that may not run: "
                                   "its value after the loop is not converted")
        out = []
        broke = self.new_local("break_") if has_break else None
        if broke:
            out.append(gast.copy_location(_assign(broke, False), node))
        self.nesting += 1
        self.unrolling = unrolling + 1
        for index, item in enumerate(items):
            self._bind(node.target, item)
            assigned = []
            if runtime_target:
                held = {name: self.env.get(name) for name in bound}
                for name, value in held.items():
                    target = self.target(gast.Name(id=name, ctx=gast.Store(), annotation=None,
                                                   type_comment=None))
                    assigned.append(gast.copy_location(gast.Assign(
                        targets=[target], value=self._m(value, node.target),
                        type_comment=None), node))
                    self.env[name] = value      # the copy's body reads the item itself
            body = assigned + self.block(copy_tree(node.body))
            if has_continue:
                flag = self.new_local("continue_")
                body = [gast.copy_location(_assign(flag, False), node)] + guard(
                    body, gast.Continue, flag)
            if broke:
                body = guard(body, gast.Break, broke)
                if index and body:
                    body = [gast.copy_location(gast.If(
                        test=gast.UnaryOp(op=gast.Not(), operand=_load(broke)), body=body,
                        orelse=[]), node)]
            out.extend(body)
        self.nesting -= 1
        self.unrolling = unrolling
        if runtime_target:  # read after the loop: the run-time variable
            for name in bound:
                self.env.pop(name, None)
        if not items:       # no iteration: the variable keeps what it held (Python)
            for name, value in saved.items():
                if value is None:
                    self.env.pop(name, None)
                else:
                    self.env[name] = value
        # else it stays bound to the last item, as Python leaves it (with a break, reading
        # it after the loop was refused above)
        orelse = self.block(node.orelse)
        if broke and orelse:
            orelse = [gast.copy_location(gast.If(
                test=gast.UnaryOp(op=gast.Not(), operand=_load(broke)), body=orelse,
                orelse=[]), node)]
        return out + orelse
