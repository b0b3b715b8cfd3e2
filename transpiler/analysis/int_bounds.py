"""Which Python-int additions cannot leave int64, so need no overflow check.

Checked Python-int arithmetic (backends/runtime/checked_ints.py) costs an overflow test per operation,
and the test keeps LLVM from vectorizing a counting loop (``count += 1`` under an ``if``: 2x on
a sieve). Two kinds of names are safe for ``name + c`` / ``name - c`` with a small constant c:

- *counters*: every definition of the name in the function is a small int constant
  (``|v| <= 2**32``) or the name plus or minus a small constant (``|c| <= 16``), and it is not
  a parameter. Its value then moves by at most 16 per executed statement from within ±2**32:
  reaching 2**63 takes over 5 * 10**17 statements (more than 15 years at 10**9 a second).
  This is a bound on running time, not on the program: stated in docs/reference/semantics.md.
- *range indices*: the name is only ever the target of ``for name in range(stop)`` or
  ``range(start, stop)`` with a constant ``start >= 0``: then ``0 <= name < stop <= 2**63 - 1``,
  so ``name + 1`` and ``name - c`` (``c <= 2**62``) fit int64. A proof, no time bound.

Everything else stays checked. Names are those of the function after web splitting (each
definition web its own name), so one name is one variable.
"""
import gast
from ..nodes import walk

SMALL_STEP = 16
SMALL_START = 2 ** 32


def _small_int(node, bound):
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)):
        node = node.operand
    return isinstance(node, gast.Constant) and type(node.value) is int and \
        abs(node.value) <= bound


def _step_of(name, value):
    """Whether ``value`` is ``name ± small constant`` (or ``small + name``)."""
    if not isinstance(value, gast.BinOp) or not isinstance(value.op, (gast.Add, gast.Sub)):
        return False
    left, right = value.left, value.right
    if isinstance(left, gast.Name) and left.id == name and _small_int(right, SMALL_STEP):
        return True
    return isinstance(value.op, gast.Add) and isinstance(right, gast.Name) and \
        right.id == name and _small_int(left, SMALL_STEP)


def _safe_range(call):
    if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Name) and
            call.func.id == "range" and not call.keywords and 1 <= len(call.args) <= 2):
        return False
    return len(call.args) == 1 or (isinstance(call.args[0], gast.Constant) and
                                   type(call.args[0].value) is int and call.args[0].value >= 0)


def safe_names(fn_node, builtin_range=True):
    """``(counters, range_indices)``: the names of ``fn_node`` (a gast FunctionDef) whose
    ``+``/``-`` of a small constant cannot overflow int64 (see the module docstring).
    ``builtin_range``: whether the name ``range`` is the builtin there (a user's own
    ``range`` proves nothing)."""
    params = {a.id for a in fn_node.args.args + fn_node.args.kwonlyargs
              if isinstance(a, gast.Name)}
    for extra in (fn_node.args.vararg, fn_node.args.kwarg):
        if extra is not None:
            params.add(extra.id)
    kinds = {}      # name -> set of definition kinds: "small", "step", "range", "other"
    covered = set()  # id() of the Name nodes stored by the definitions analysed below

    def define(name, kind, node=None):
        kinds.setdefault(name, set()).add(kind)
        if node is not None:
            covered.add(id(node))

    for node in walk(fn_node):
        if isinstance(node, (gast.Global, gast.Nonlocal)):
            for name in node.names:
                define(name, "other")
        elif isinstance(node, gast.Assign):
            for target in node.targets:
                if isinstance(target, gast.Name):
                    value = node.value
                    define(target.id, "small" if _small_int(value, SMALL_START) else
                           "step" if _step_of(target.id, value) else "other", target)
                else:
                    for sub in walk(target):
                        if isinstance(sub, gast.Name) and isinstance(sub.ctx, gast.Store):
                            define(sub.id, "other")
        elif isinstance(node, gast.AugAssign):
            if isinstance(node.target, gast.Name):
                step = isinstance(node.op, (gast.Add, gast.Sub)) and _small_int(
                    node.value, SMALL_STEP)
                define(node.target.id, "step" if step else "other", node.target)
        elif isinstance(node, gast.For):
            if isinstance(node.target, gast.Name) and builtin_range and _safe_range(node.iter):
                define(node.target.id, "range", node.target)
            else:
                for sub in walk(node.target):
                    if isinstance(sub, gast.Name):
                        define(sub.id, "other")
        elif isinstance(node, (gast.FunctionDef, gast.Lambda)) and node is not fn_node:
            for sub in walk(node):
                if isinstance(sub, gast.Name) and isinstance(sub.ctx, gast.Store):
                    define(sub.id, "other")
    for node in walk(fn_node):
        # walrus, with-as, except-as, comprehension targets, del: not analysed here
        if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)) and \
                id(node) not in covered:
            define(node.id, "other")
    counters, ranges = set(), set()
    for name, found in kinds.items():
        if name in params or "other" in found:
            continue
        if found <= {"small", "step"} and "small" in found:
            counters.add(name)
        elif found == {"range"}:
            ranges.add(name)
    return counters, ranges
