"""Region inputs and outputs: which variables a region (a branch pair, a loop body) reads
from before it and which it hands on after it, in a deterministic order.

The functional forms (``cond``, ``while_loop``, ``for_range``) take exactly these as
parameters and return values; liveness (``live_out``) and activity analysis decide them.
"""
import gast

from .. import anno
from .activity import reads, writes
from .liveness import live_in, loop_head
from ..nodes import walk


def ordered(names, *blocks):
    """``names`` in order of first appearance in ``blocks`` (deterministic generated code)."""
    seen, found, wanted = [], set(), set(names)
    for block in blocks:
        for node in block if isinstance(block, list) else [block]:
            if len(found) == len(wanted):  # all found: the rest of the walk adds nothing
                return seen
            for child in walk(node):
                if isinstance(child, gast.Name) and child.id in wanted and \
                        child.id not in found:
                    seen.append(child.id)
                    found.add(child.id)
                elif isinstance(child, gast.FunctionDef):
                    for arg in child.args.args:
                        if arg.id in wanted and arg.id not in found:
                            seen.append(arg.id)
                            found.add(arg.id)
    seen += sorted(wanted - found)
    return seen


def branch_region(node, local_vars):
    """An ``if``'s region: ``(inputs, outputs)``, ordered lists of names.

    Outputs are the variables either branch writes that are live after the ``if``; inputs are
    the local variables the branches read before writing, given that each returns the outputs.
    Needs ``live_out`` (transpiler.analysis.liveness).
    """
    modified = set().union(*(writes(s) for s in node.body + node.orelse))
    outputs = ordered(modified & anno.get(node, anno.LIVE_OUT) & local_vars,
                      node.body + node.orelse)
    used = live_in(node.body, set(outputs)) | live_in(node.orelse, set(outputs))
    inputs = ordered(used & local_vars, node.body + node.orelse)
    return inputs, outputs


def while_region(node, local_vars):
    """A ``while`` loop's region: ``(state, args)``, ordered lists of names.

    The state is what the body modifies that is live at the loop head (carried from one
    iteration to the next, or out of the loop); the args are the loop-invariant inputs the test
    and the body read. Needs ``live_out``.
    """
    modified = set().union(*(writes(s) for s in node.body)) & local_vars
    head = loop_head(node, anno.get(node, anno.LIVE_OUT))
    state = ordered(modified & head, [node.test] + node.body)
    used = reads(node.test) | live_in(node.body, set(state))
    args = ordered((used - set(state)) & local_vars, [node.test] + node.body)
    return state, args


def for_region(node, local_vars):
    """A ``for`` loop's region: ``(state, args, carried_targets)``.

    As :func:`while_region`; the loop target is written by the loop itself, so it is state only
    when its value is read after the loop (``carried_targets``). A lowered ``break``'s
    ``extra_test`` is read before every iteration. Needs ``live_out``.
    """
    targets = writes(node.target)
    extra = anno.get(node, anno.EXTRA_TEST, None)
    live_out = anno.get(node, anno.LIVE_OUT)
    modified = (set().union(*(writes(s) for s in node.body)) | targets) & local_vars
    head = loop_head(node, live_out)
    carried_targets = targets & set(live_out)
    state = ordered((modified & head) | carried_targets, [node.target] + node.body)
    used = live_in(node.body, set(state)) | reads(extra)
    args = ordered((used - set(state) - (targets - carried_targets)) & local_vars, node.body)
    return state, args, carried_targets
