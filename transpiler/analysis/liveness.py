"""Liveness: which variables are read later, before being overwritten.

A backward "may" data-flow over structured statements (no break/continue/return inside loops:
the lowering passes have removed them). ``annotate`` stores on every ``If``/``While``/``For``
node the set live after it (``live_out``); ``live_in`` computes the set live at the start of a
block, given what is live after it. Loops iterate to a fixpoint.
"""
import gast

from .. import anno
from .activity import reads, writes


def live_in(stmts, live_after, annotate=False):
    """Variables live at the start of ``stmts`` when ``live_after`` is live at their end."""
    live = set(live_after)
    for stmt in reversed(stmts):
        live = _stmt(stmt, live, annotate)
    return live


def annotate(fdef):
    """Set ``live_out`` (transpiler.anno.LIVE_OUT) on every compound statement of ``fdef``'s
    body (not nested defs), and mark ``fdef`` as analysed (anno.LIVENESS)."""
    live_in(fdef.body, set(), annotate=True)
    anno.mark_done(fdef, anno.LIVENESS)


def loop_head(loop, exit_live):
    """Variables live at the head of ``loop`` (a While or For) when ``exit_live`` is live where
    it exits: the least fixpoint of ``head = exit_live | test | live_in(body, head)``.

    A ``while`` reads its test before every iteration; a ``for`` with a lowered ``break`` reads
    its ``extra_test`` (anno.EXTRA_TEST) the same way, and its target is written, not read, at
    the head. The one loop-head fixpoint of the code base: liveness and the loop forms'
    region inputs and outputs (transpiler.analysis.region_io) both use it.
    """
    if isinstance(loop, gast.While):
        head, killed = set(exit_live) | reads(loop.test), set()
    else:
        head = set(exit_live) | reads(anno.get(loop, anno.EXTRA_TEST, None))
        killed = writes(loop.target)
    while True:
        new = head | (live_in(loop.body, head, False) - killed)
        if new == head:
            return head
        head = new


def _stmt(node, out, annotate):
    if annotate and isinstance(node, (gast.If, gast.While, gast.For, gast.With, gast.Try)):
        anno.set_anno(node, anno.LIVE_OUT, frozenset(out))
    if isinstance(node, gast.If):
        return (reads(node.test) | live_in(node.body, out, annotate)
                | live_in(node.orelse, out, annotate))
    if isinstance(node, gast.While):
        head = loop_head(node, out | live_in(node.orelse, out, annotate))
        live_in(node.body, head, annotate)
        return head
    if isinstance(node, gast.For):
        head = loop_head(node, out | live_in(node.orelse, out, annotate))
        live_in(node.body, head, annotate)
        return head | reads(node.iter)
    if isinstance(node, gast.With):
        return out | live_in(node.body, out, annotate) | set().union(
            *(reads(item.context_expr) for item in node.items))
    if isinstance(node, gast.Try):
        # Any statement of the body may raise into a handler: what the handlers need is live
        # throughout the body.
        after = live_in(node.finalbody, out, annotate)
        handlers = set().union(*(live_in(h.body, after, annotate) for h in node.handlers))
        return live_in(node.body, live_in(node.orelse, after, annotate) | handlers,
                       annotate) | handlers
    if isinstance(node, (gast.Return, gast.Raise)):
        return reads(node)
    if isinstance(node, gast.AugAssign):
        return out | reads(node.value) | reads(node.target) | writes(node.target)
    if isinstance(node, gast.FunctionDef):
        return out - {node.name}
    if isinstance(node, (gast.Assign, gast.AnnAssign)):
        targets = node.targets if isinstance(node, gast.Assign) else [node.target]
        killed = set().union(*(writes(t) for t in targets if isinstance(t, gast.Name)))
        killed |= set().union(*(writes(t) for t in targets
                                if isinstance(t, (gast.Tuple, gast.List))))
        used = reads(node.value) | set().union(*(reads(t) for t in targets))
        return (out - killed) | used
    return out | reads(node)
