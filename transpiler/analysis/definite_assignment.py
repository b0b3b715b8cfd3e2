"""Definite assignment: is every local variable assigned on all paths before it is read?

Python raises UnboundLocalError only when the path that skips the assignment actually runs;
Numba instead reads whatever the register holds (a loop variable of a loop that never ran reads
0). So a read that *may* see an unassigned variable is reported with its name and line, and the
function runs as plain Python (or ``fullgraph=True`` raises): never a wrong value.

A forward "must" data-flow over the structured statements: the set of variables assigned on
every path. Branches meet by intersection; a loop body may run zero times, so what it assigns is
definitely assigned after the loop only when the loop is ``range`` over constants that runs at
least once; ``break`` carries its set to the loop's exit; ``return``/``raise``/``continue`` end
a path (the universal set, the identity of intersection).
"""
import gast

from .. import anno
from ..errors import Origin, UnsupportedConstruct
from ..nodes import child_nodes, walk

ALL = None  # the universal set: an unreachable point


def _meet(a, b):
    if a is ALL:
        return b
    if b is ALL:
        return a
    return a & b


class _Checker:
    def __init__(self, local_names, filename, qualname, strict=True):
        self.strict = strict
        self.locals = local_names
        self.filename = filename
        self.qualname = qualname
        self.breaks = []
        self.continues = []
        self.found = None       # a list: record the reads instead of raising

    def reads(self, node, defined, force=False):
        if node is None or defined is ALL or not self.strict:
            return
        bound = set()
        for child in walk(node):
            if isinstance(child, gast.comprehension):
                bound |= {n.id for n in walk(child.target) if isinstance(n, gast.Name)}
        for child in walk(node):
            if (isinstance(child, gast.Name) and (force or isinstance(child.ctx, gast.Load))
                    and child.id in self.locals and child.id not in defined
                    and child.id not in bound):
                if self.found is not None:
                    self.found.append(child)
                    continue
                raise UnsupportedConstruct(
                    f"variable {child.id!r} may be undefined here: it is not assigned on every "
                    f"path that reaches this line (in {self.qualname})",
                    Origin(self.filename, getattr(child, "lineno", 0) or 0,
                           getattr(child, "col_offset", 0)))

    @staticmethod
    def targets(node):
        return {n.id for n in walk(node) if isinstance(n, gast.Name)
                and isinstance(n.ctx, gast.Store)}

    def block(self, stmts, defined):
        for stmt in stmts:
            if defined is ALL:
                return ALL
            defined = self.stmt(stmt, defined)
        return defined

    def stmt(self, node, defined):
        if isinstance(node, (gast.If, gast.While, gast.For, gast.With, gast.Try)) and \
                defined is not ALL:
            anno.set_anno(node, anno.DEFINED_IN, frozenset(defined))
        if isinstance(node, gast.Assign):
            self.reads(node.value, defined)
            for target in node.targets:
                self._subscript_reads(target, defined)
            return defined | set().union(*(self.targets(t) for t in node.targets))
        if isinstance(node, gast.AugAssign):
            self.reads(node.value, defined)
            if isinstance(node.target, gast.Name):
                self.reads(node.target, defined, force=True)   # `x += 1` reads x
            self._subscript_reads(node.target, defined)
            return defined | self.targets(node.target)
        if isinstance(node, gast.If):
            self.reads(node.test, defined)
            return _meet(self.block(node.body, defined), self.block(node.orelse, defined))
        if isinstance(node, gast.While):
            self.reads(node.test, defined)
            if _always_true(node.test):  # `while True`: leaves only by break
                return self._loop(node, defined, defined, runs_once=True, exits=False)
            return self._loop(node, defined, defined, runs_once=False)
        if isinstance(node, gast.For):
            self.reads(node.iter, defined)
            inside = defined | self.targets(node.target)
            return self._loop(node, defined, inside, runs_once=_runs_at_least_once(node.iter))
        if isinstance(node, (gast.Import, gast.ImportFrom)):
            return defined | {(a.asname or a.name).split(".")[0] for a in node.names}
        if isinstance(node, (gast.FunctionDef, gast.ClassDef)):
            return defined | {node.name}    # (its decorators and defaults read before)
        if isinstance(node, gast.With):
            for item in node.items:
                self.reads(item.context_expr, defined)
                defined = defined | self.targets(item.optional_vars) if \
                    item.optional_vars is not None else defined
            return self.block(node.body, defined)
        if isinstance(node, gast.Try):
            # A handler may start after any statement of the body: from what was assigned
            # before the try.
            after_body = self.block(node.body, defined)
            ends = [self.block(node.orelse, after_body) if after_body is not ALL else ALL]
            for handler in node.handlers:
                start = defined
                if handler.name is not None:
                    start = defined | self.targets(handler.name)
                ends.append(self.block(handler.body, start))
            end = ALL
            for item in ends:
                end = _meet(end, item)
            return self.block(node.finalbody, end if end is not ALL else defined) \
                if node.finalbody else end
        if isinstance(node, (gast.Return, gast.Raise)):
            for field in ("value", "exc", "cause"):
                self.reads(getattr(node, field, None), defined)
            return ALL
        if isinstance(node, gast.Break):
            self.breaks[-1] = _meet(self.breaks[-1], defined)
            return ALL
        if isinstance(node, gast.Continue):
            self.continues[-1] = _meet(self.continues[-1], defined)
            return ALL
        for child in child_nodes(node):
            if isinstance(child, gast.expr):
                self.reads(child, defined)
        return defined

    def _subscript_reads(self, target, defined):
        # `a[i] = v` and `obj.x = v` read `a`, `i` and `obj`.
        for node in walk(target):
            if isinstance(node, (gast.Subscript, gast.Attribute)):
                self.reads(node.value, defined)
                if isinstance(node, gast.Subscript):
                    self.reads(node.slice, defined)

    def _loop(self, node, before, inside, runs_once, exits=True):
        self.breaks.append(ALL)
        self.continues.append(ALL)
        end = _meet(self.block(node.body, inside), self.continues.pop())
        broke = self.breaks.pop()
        # The loop exits normally (and runs `else`) when its test fails: after at least one
        # iteration if it surely runs, else possibly before the first one.
        normal = ALL if not exits else end if runs_once else before
        if normal is not ALL:
            normal = self.block(node.orelse, normal)
        return _meet(normal, broke)


def _always_true(test):
    return isinstance(test, gast.Constant) and bool(test.value)


def _runs_at_least_once(iterable):
    """``range(...)`` with constant arguments and at least one element."""
    if not (isinstance(iterable, gast.Call) and isinstance(iterable.func, gast.Name)
            and iterable.func.id == "range" and not iterable.keywords):
        return False
    values = []
    for arg in iterable.args:
        if isinstance(arg, gast.UnaryOp) and isinstance(arg.op, gast.USub) and isinstance(
                arg.operand, gast.Constant):
            values.append(-arg.operand.value)
        elif isinstance(arg, gast.Constant):
            values.append(arg.value)
        else:
            return False
    try:
        return len(range(*values)) > 0
    except (TypeError, ValueError):
        return False


def check_definite_assignment(fdef, local_names, filename, qualname):
    """Raise UnsupportedConstruct at the first read of a local that may be unassigned.

    Args:
        fdef (gast.FunctionDef): the function to check (its parameters are assigned).
        local_names (set[str]): the function's local variables.
        filename (str), qualname (str): for the message.

    Raises:
        UnsupportedConstruct: naming the variable, with the read's origin.
    """
    params = {a.id for a in fdef.args.args}
    _Checker(local_names, filename, qualname).block(fdef.body, frozenset(params))


def maybe_undefined_reads(fdef, local_names):
    """The Name nodes of ``fdef`` that read a local variable where it may be unassigned (each
    read that :func:`check_definite_assignment` would report), in order."""
    params = {a.id for a in fdef.args.args}
    checker = _Checker(local_names, "", "")
    checker.found = []
    checker.block(fdef.body, frozenset(params))
    return checker.found


def annotate_defined(fdef, local_names):
    """Set ``defined_in`` (variables surely assigned before it) on every compound statement of
    ``fdef``, without reporting anything (the lowering passes use it for placeholders)."""
    params = {a.id for a in fdef.args.args}
    _Checker(local_names, "", "", strict=False).block(fdef.body, frozenset(params))
    anno.mark_done(fdef, anno.DEFINITE_ASSIGNMENT)
