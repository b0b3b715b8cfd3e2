"""Delta-debugging shrinker on the AST: a smaller program with a mismatch of the same kind.

The state is (module AST, one input tuple). Passes, repeated until a round changes nothing:

1. delete statements (last to first; an emptied body gets ``pass``);
2. replace a compound statement by its body (``if``: also by its ``else``; ``for``: with the loop
   variable set to 0 first);
3. replace an expression by one of its sub-expressions, or by a constant (0, 1, 0.5, -1.5);
4. drop parameters no longer read (and their argument); simplify the arguments (0, 1, shorter
   arrays, rounded values; a NumPy scalar or array keeps its type);
5. for a history kind (``"history: ..."``: the failing call needs earlier calls of the same
   jitted object), drop earlier calls.

A candidate is kept when checking it gives a mismatch of the same kind. Before paying for a
compile, the plain run is tried here: it must raise the same exception type as before (for
kinds ``raise X / ...``) or return (for the others). Candidates are checked in batches, one per
worker; while-loop counters (``w0 += 1`` and ``w0 < K``) are never touched, so a candidate
cannot lose its termination guard.
"""
import ast
import copy
import re
import shutil
import sys
import tempfile
import time
import warnings

import numpy as np

from . import check

_COUNTER = re.compile(r"^w\d+$")
_CONSTANTS = (0, 1, 0.5, -1.5)


def _function(tree, name):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise ValueError(f"no function {name!r}")


def _is_guard(stmt):
    return (isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name)
            and _COUNTER.match(stmt.target.id))


def _statement_slots(fn):
    """Pre-order list of (body_list, index) for every statement inside ``fn``."""
    slots = []

    def visit(body):
        for index, stmt in enumerate(body):
            slots.append((body, index))
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    visit(inner)

    visit(fn.body)
    return slots


def _guard_compare(node):
    return (isinstance(node, ast.Compare) and isinstance(node.left, ast.Name)
            and _COUNTER.match(node.left.id))


def _expr_slots(fn):
    """Pre-order list of (parent, field, index_or_None) for replaceable expressions in ``fn``."""
    slots = []

    def visit(node):
        for field, value in ast.iter_fields(node):
            if isinstance(node, ast.Call) and field == "func":
                continue
            items = value if isinstance(value, list) else [value]
            for index, child in enumerate(items):
                if not isinstance(child, ast.AST):
                    continue
                if isinstance(node, ast.Subscript) and field == "value":
                    continue          # keep the array being indexed
                if isinstance(child, ast.expr):
                    if _guard_compare(child):
                        continue
                    if any(_guard_compare(inner) for inner in ast.walk(child)):
                        visit(child)      # `w0 < K and c`: shrink c, never drop the guard
                        continue
                    if isinstance(getattr(child, "ctx", None), (ast.Store, ast.Del)):
                        if isinstance(child, ast.Subscript):   # a[i] = ...: the index may shrink
                            visit(child)
                        continue
                    slots.append((node, field, index if isinstance(value, list) else None))
                if isinstance(child, (ast.expr, ast.stmt, ast.comprehension, ast.keyword,
                                      ast.arguments)) and not isinstance(child, ast.arguments):
                    visit(child)

    for stmt in fn.body:
        visit(stmt)
    return slots


def _get(parent, field, index):
    value = getattr(parent, field)
    return value[index] if index is not None else value


def _set(parent, field, index, new):
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _subexpressions(node):
    if isinstance(node, ast.Call):
        return list(node.args)
    if isinstance(node, ast.Subscript):
        return []
    return [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)
            and not isinstance(getattr(child, "ctx", None), ast.Store)]


class Shrinker:
    """Shrink one mismatching program. ``pool``: a worker.Pool; ``kind``: the mismatch kind.

    Args:
        source (str): module text. name (str): the function. args (tuple): the failing input.
        before (list of tuples): the calls that the same jitted object gets first (a history
            kind, a crash); shrunk too (dropped calls, dropped parameters).
        max_checks (int) / max_seconds (float): budget of compiled checks / wall time.

    A candidate is (tree, args) or (tree, args, before); without ``before`` it keeps the
    current one.
    """

    def __init__(self, pool, source, name, args, kind, before=(), max_checks=400,
                 max_seconds=120.0, log=None):
        self.pool = pool
        self.name = name
        self.kind = kind
        self.tree = ast.parse(source)
        self.args = tuple(args)
        self.before = tuple(tuple(call) for call in before)
        self.max_checks = max_checks
        self.deadline = time.monotonic() + max_seconds
        self.checks = 0
        self.seen = set()
        self.log = log
        self.last_result = None
        self.folder = tempfile.mkdtemp(prefix="graphjit-shrink-")
        plain_side = kind.split(" / ")[0]
        self.plain_raises = plain_side[len("raise "):] if plain_side.startswith("raise ") else None

    # -- checking ----------------------------------------------------------------------------
    def _out_of_budget(self):
        return self.checks >= self.max_checks or time.monotonic() >= self.deadline

    def _plain_ok(self, source, args):
        """Cheap filter: the plain run still raises the same type / still returns."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fn, module = check.load(source, self.name, self.folder)
        except Exception:  # noqa: BLE001
            return False
        try:
            outcome, _, seconds = check.call(fn, args, limit=check.PLAIN_LIMIT_S)
        except check.PlainTimeout:
            return False
        finally:
            sys.modules.pop(module.__name__, None)
        if seconds > check.PLAIN_LIMIT_S:
            return False
        if self.plain_raises is not None:
            return outcome[0] == "raised" and check.type_name(outcome[1]) == self.plain_raises
        return outcome[0] == "returned"

    def _prepare(self, tree, args, before=None):
        """(source, args, before) for a candidate worth compiling, or None (broken, seen, plain
        differs)."""
        before = self.before if before is None else before
        try:
            source = ast.unparse(tree) + "\n"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(source, "<candidate>", "exec")
        except Exception:  # noqa: BLE001 - a broken candidate
            return None
        key = (source, repr(args), repr(before))
        if key in self.seen:
            return None
        self.seen.add(key)
        if not self._plain_ok(source, args):
            return None
        return source, args, before

    def _check(self, batch):
        """Index of the first prepared candidate in ``batch`` that keeps the kind, or None."""
        if not batch or self._out_of_budget():
            return None
        for start in range(0, len(batch), self.pool.jobs):
            if self._out_of_budget():
                break
            chunk = batch[start:start + self.pool.jobs]
            tasks = [{"source": s, "name": self.name, "inputs": list(b) + [a], "timeout": 30.0}
                     for s, a, b in chunk]
            self.checks += len(tasks)
            for index, result in enumerate(self.pool.run(tasks)):
                if self._interesting(result, len(chunk[index][2])):
                    self.last_result = result
                    for source, args, before in batch[start + len(chunk):]:   # may retry
                        self.seen.discard((source, repr(args), repr(before)))
                    return start + index
        return None

    def _interesting(self, result, last):
        """Whether a check ``result`` keeps the kind; a mismatch must stay at call ``last``
        (the one after the ``before`` calls)."""
        if result["status"] in ("crash", "timeout"):
            return self.kind == result["status"]
        return (result["status"] == "mismatch" and result["kind"] == self.kind
                and result.get("input", 0) == last)

    def _accept(self, tree, args, before=None):
        self.tree, self.args = tree, args
        if before is not None:
            self.before = before
        if self.log:
            lines = len(ast.unparse(_function(self.tree, self.name)).splitlines())
            self.log(f"  shrink: {lines} lines after {self.checks} checks")

    def _pass(self, count, variants, backward=False):
        """Try ``variants(tree, k)`` (candidate (tree, args) pairs for position k) at every
        position; candidates of several positions are checked at once, one per worker, and the
        first one (in position order) that keeps the kind wins. Backward passes (deletions)
        go on below the winner, forward passes retry the winner's position."""
        changed = False
        k = count(self.tree) - 1 if backward else 0
        while not self._out_of_budget():
            total = count(self.tree)
            k = min(k, total - 1)
            if k < 0 or k >= total:
                break
            batch, positions, p = [], [], k
            while len(batch) < self.pool.jobs and 0 <= p < total:
                for candidate in variants(self.tree, p):
                    prepared = self._prepare(*candidate)
                    if prepared is not None:
                        batch.append((prepared, candidate))
                        positions.append(p)
                p = p - 1 if backward else p + 1
            if not batch:
                if not 0 <= p < total:
                    break
                k = p
                continue
            win = self._check([prepared for prepared, _ in batch])
            if win is None:
                if not 0 <= p < total:
                    break
                k = p
                continue
            changed = True
            self._accept(*batch[win][1])
            k = positions[win] - 1 if backward else positions[win]
        return changed

    # -- passes ------------------------------------------------------------------------------
    def _returns(self):
        def returns(tree):
            return [n for n in ast.walk(_function(tree, self.name))
                    if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)]

        def variants(tree, k):
            out = []
            for element in range(len(returns(tree)[k].value.elts)):
                new = copy.deepcopy(tree)
                node = returns(new)[k]
                node.value = node.value.elts[element]
                out.append((new, self.args))
            return out

        return self._pass(lambda tree: len(returns(tree)), variants)

    def _delete_chunks(self):
        def chunks(tree):
            body = _function(tree, self.name).body
            out = []
            size = len(body) // 2
            while size >= 2:
                out += [(start, size) for start in range(0, len(body) - size, size)]
                size //= 2
            return out

        def variants(tree, k):
            start, size = chunks(tree)[k]
            new = copy.deepcopy(tree)
            del _function(new, self.name).body[start:start + size]
            return [(new, self.args)]

        return self._pass(lambda tree: len(chunks(tree)), variants)

    def _delete_statements(self):
        def variants(tree, k):
            new = copy.deepcopy(tree)
            body, index = _statement_slots(_function(new, self.name))[k]
            if _is_guard(body[index]):
                return []
            del body[index]
            if not body:
                body.append(ast.Pass())
            return [(new, self.args)]

        return self._pass(lambda tree: len(_statement_slots(_function(tree, self.name))),
                          variants, backward=True)

    def _unwrap(self):
        def variants(tree, k):
            body, index = _statement_slots(_function(tree, self.name))[k]
            stmt = body[index]
            if not isinstance(stmt, (ast.If, ast.For, ast.While)):
                return []
            replacements = []
            fields = ["body"] + (["orelse"] if isinstance(stmt, ast.If) and stmt.orelse else [])
            for field in fields:
                inner = [s for s in getattr(stmt, field)
                         if not (isinstance(stmt, ast.While) and _is_guard(s))]
                prefixes = [[]]
                if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
                    prefixes = [[ast.parse(f"{stmt.target.id} = 0").body[0]], []]
                replacements += [prefix + inner for prefix in prefixes]
            out = []
            for replacement in replacements:
                new = copy.deepcopy(tree)
                tbody, tindex = _statement_slots(_function(new, self.name))[k]
                tbody[tindex:tindex + 1] = copy.deepcopy(replacement) or [ast.Pass()]
                out.append((new, self.args))
            return out

        return self._pass(lambda tree: len(_statement_slots(_function(tree, self.name))),
                          variants)

    def _expressions(self):
        def variants(tree, k):
            node = _get(*_expr_slots(_function(tree, self.name))[k])
            replacements = [copy.deepcopy(child) for child in _subexpressions(node)]
            if not isinstance(node, ast.Constant):
                replacements += [ast.Constant(value) for value in _CONSTANTS]
            out = []
            for replacement in replacements:
                new = copy.deepcopy(tree)
                parent, field, index = _expr_slots(_function(new, self.name))[k]
                _set(parent, field, index, replacement)
                out.append((new, self.args))
            return out

        return self._pass(lambda tree: len(_expr_slots(_function(tree, self.name))), variants)

    def _try(self, candidates):
        batch = []
        for candidate in candidates:
            prepared = self._prepare(*candidate)
            if prepared is not None:
                batch.append((prepared, candidate))
        win = self._check([prepared for prepared, _ in batch])
        if win is None:
            return False
        self._accept(*batch[win][1])
        return True

    def _parameters(self):
        changed = False
        fn = _function(self.tree, self.name)
        used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        for position in reversed(range(len(fn.args.args))):
            if self._out_of_budget():
                break
            fn = _function(self.tree, self.name)
            if fn.args.args[position].arg in used:
                continue
            tree = copy.deepcopy(self.tree)
            del _function(tree, self.name).args.args[position]
            args = self.args[:position] + self.args[position + 1:]
            before = tuple(call[:position] + call[position + 1:] for call in self.before)
            changed |= self._try([(tree, args, before)])
        return changed

    def _arguments(self):
        changed = False
        for position in range(len(self.args)):
            if self._out_of_budget():
                break
            options = _simpler(self.args[position])
            candidates = []
            for option in options:
                args = self.args[:position] + (option,) + self.args[position + 1:]
                candidates.append((copy.deepcopy(self.tree), args))
            changed |= self._try(candidates)
        return changed

    def _history(self):
        """Drop calls before the failing one (history kinds), one at a time."""
        changed = False
        while self.before and not self._out_of_budget():
            candidates = [(copy.deepcopy(self.tree), self.args,
                           self.before[:k] + self.before[k + 1:])
                          for k in range(len(self.before))]
            if not self._try(candidates):
                break
            changed = True
        return changed

    def run(self):
        """Shrink; returns (source, args, before)."""
        try:
            while not self._out_of_budget():
                changed = self._returns()
                changed |= self._delete_chunks()
                changed |= self._delete_statements()
                changed |= self._unwrap()
                changed |= self._expressions()
                changed |= self._parameters()
                changed |= self._arguments()
                changed |= self._history()
                if not changed:
                    break
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
        return ast.unparse(self.tree) + "\n", self.args, list(self.before)


def _simpler(value):
    """Simpler values to try in place of argument ``value``, of the same type: shorter arrays
    and rounded elements; a tuple with one item simplified; 0, 1, -1 (ints) or 0.0, 1.0, -1.0, the rounded value (floats and
    complex); a NumPy scalar stays of its dtype."""
    if isinstance(value, np.ndarray):
        options = [value[:size] for size in range(len(value))]
        if value.size and value.dtype.kind in "fc" and not np.array_equal(
                value, np.round(value), equal_nan=True):
            options.append(np.round(value))
        return options
    if isinstance(value, list):       # shorter (one element at least), or one simpler
        return [value[:size] for size in range(1, len(value))] + [
            value[:i] + [item] + value[i + 1:]
            for i, old in enumerate(value) for item in _simpler(old)[:1]]
    if isinstance(value, tuple):      # one item simplified at a time, the length kept
        return [value[:i] + (item,) + value[i + 1:]
                for i, old in enumerate(value) for item in _simpler(old)[:1]]
    if isinstance(value, np.generic):
        kind = value.dtype.kind
    else:       # a Python scalar (an int may be beyond int64)
        kind = {bool: "b", int: "i", float: "f", complex: "c"}.get(type(value), "")
    if kind in ("", "b"):       # "" in "iu" would hold: a str or None has no simpler value
        return []
    tp = type(value)
    with np.errstate(all="ignore"):
        if kind in "iu":
            small = [v for v in (0, 1, -1) if v != value and abs(v) < abs(int(value)) + 1
                     and (v >= 0 or kind == "i")]
            return [tp(v) for v in small]
        if kind == "f":
            try:
                rounded = float(round(float(value)))
            except (OverflowError, ValueError):       # inf, nan
                rounded = 0.0
            return [tp(v) for v in (0.0, 1.0, -1.0, rounded) if v != value]
        if kind == "c":
            options = dict.fromkeys([0j, 1 + 0j, complex(value.real, 0.0)])
            return [tp(v) for v in options if v != value]
    return []


def shrink(pool, source, name, args, kind, before=(), **options):
    """Shrink a mismatch: returns (source, args, before, checks, last result); ``before``: the
    calls the jitted object needs first (history kinds)."""
    shrinker = Shrinker(pool, source, name, args, kind, before=before, **options)
    small, small_args, small_before = shrinker.run()
    return small, small_args, small_before, shrinker.checks, shrinker.last_result
