"""Parallel loops whose iterations may raise, with the raise deferred (issue 50).

Numba's worker threads lose exceptions (transpiler/analysis/loop_safety.py), so a loop that may
raise was always serial: any ``math.sqrt``, ``math.sin``, ``math.log`` of an element (graphjit's
checked helpers raise Python's ValueError where Numba gives nan) kept the most common loop
bodies on one core. Here such a loop runs in parallel all the same (backends/parallel_cpu.py):

- the body calls *deferring copies* of the program functions it reaches: each ``raise`` of
  graphjit's helpers becomes ``err[k] = 1`` (the iteration's flag; the helper then goes on
  and returns its nan, which only reaches elements about to be thrown away);
- before the loop, the flags ``err = np.zeros(n, np.uint8)`` and for each array the loop
  stores into a buffer ``saved`` of its shape; each iteration first saves the row it stores
  (``saved[i] = out[i]``: the dependence analysis proved it stores ``out[i, ...]`` only), in
  parallel with the rest; after the loop, if a flag is set, the rows are copied back and the
  serial loop runs again from the start, so the exception and every store before it are
  Python's.

Where no iteration raises (the common case) the cost is the flags and the copies, one pass
over the stored arrays; where one does, the loop ran twice. An array the function made itself
and never lets out but by returning it (``out = np.empty_like(x)``, then only ``out[i]``,
``out.shape``, ``return out``) is not copied: when the loop raises, nothing can see it. Only loops with no reductions and
no flags carried out (their values would need undoing too) are deferred; a ``raise`` is
deferred only in graphjit's own helpers, under a branch, outside their loops, in a function
that ends with ``return`` (LoopSafety ``deferred``), so the fall-through is always defined.
After a deferred raise the iteration goes on with the helper's nan, so nothing it reaches
may have a ``while`` loop, a loop whose trip count it computes, or a recursion (a review made
one spin forever); an array made here is left unsaved only when the loop never reads it.
"""
import gast

from transpiler import naming
from transpiler.nodes import copy_tree


def _n(name, store=False):
    return gast.Name(id=name, ctx=gast.Store() if store else gast.Load(), annotation=None,
                     type_comment=None)


class _Defer(gast.NodeTransformer):
    """Calls of the functions in ``names`` -> their deferring copies, passed ``err, k``;
    with ``raises``, each ``raise`` -> ``err[k] = 1``."""

    def __init__(self, names, err, index, raises=False):
        self.names, self.err, self.index, self.raises = names, err, index, raises

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, gast.Name) and node.func.id in self.names:
            node.func = gast.copy_location(_n(self.names[node.func.id]), node.func)
            node.args = node.args + [_n(self.err), _n(self.index)]
        return node

    def visit_Raise(self, node):
        if not self.raises:
            return node
        flag = gast.Subscript(value=_n(self.err), slice=_n(self.index), ctx=gast.Store())
        return gast.copy_location(gast.Assign(targets=[flag], value=gast.Constant(
            value=1, kind=None), type_comment=None), node)


def _copies(parallelizer, visited):
    """Program function name -> the name of its deferring copy, for every function in
    ``visited`` (each made once per module; a new one joins ``parallelizer.outlined``)."""
    made = parallelizer.__dict__.setdefault("_deferred", {})
    fresh = [name for name in visited if name not in made]
    for name in fresh:
        made[name] = naming.fresh(f"{name}__deferred", parallelizer._module_names)
        parallelizer._module_names.add(made[name])
    for name in fresh:      # (after naming them all: copies call each other's copies)
        fn = parallelizer.functions[name]
        node = copy_tree(parallelizer._structured(fn))
        node.filename = fn.filename         # (its lines are the helper's)
        taken = {n.id for n in gast.walk(node) if isinstance(n, gast.Name)}
        err, index = naming.fresh("_gj_err", taken), naming.fresh("_gj_k", taken)
        node.name = made[name]
        node.args.args = node.args.args + [
            gast.Name(id=p, ctx=gast.Param(), annotation=None, type_comment=None)
            for p in (err, index)]
        node.decorator_list = []
        node.decorator = "@_jit_inline"     # (backends/numba_cpu.py lower_more)
        parallelizer.outlined.append(_Defer(made, err, index, raises=True).visit(node))
    return {name: made[name] for name in visited}


def deferred_body(parallelizer, body, visited, err, index, saved, variable):
    """The parallel loop's ``body`` calling the deferring copies of the functions it reaches
    (``visited``: LoopSafety's), each passed the flags ``err`` and the iteration ``index``;
    first, ``saved[variable] = array[variable]`` for each array -> buffer of ``saved``."""
    names = _copies(parallelizer, visited)
    saves = [_row_copy(buffer, array, variable) for array, buffer in sorted(saved.items())]
    return saves + [_Defer(names, err, index).visit(stmt) for stmt in body]


def _row_copy(target, source, variable):
    """``target[variable] = source[variable]``."""
    return gast.Assign(targets=[gast.Subscript(value=_n(target), slice=_n(variable),
                                               ctx=gast.Store())],
                       value=gast.Subscript(value=_n(source), slice=_n(variable),
                                            ctx=gast.Load()), type_comment=None)


def private_arrays(fdef, made):
    """The arrays of ``made`` (name -> ndim: every assignment makes a new array) that
    ``fdef`` uses only as ``a[...]``, ``a.shape``/``size``/``ndim``/``dtype``, ``len(a)`` or
    ``return a``: no one outside the call can see them before it returns."""
    private = set(made)
    allowed = set()
    for node in gast.walk(fdef):
        if isinstance(node, gast.Subscript) and isinstance(node.value, gast.Name):
            allowed.add(id(node.value))
        elif isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name) and \
                node.attr in ("shape", "size", "ndim", "dtype"):
            allowed.add(id(node.value))
        elif isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id == "len" and len(node.args) == 1:
            allowed.add(id(node.args[0]))
        elif isinstance(node, gast.Return) and isinstance(node.value, gast.Name):
            allowed.add(id(node.value))
        elif isinstance(node, gast.Assign):
            allowed.update(id(t) for t in node.targets if isinstance(t, gast.Name))
    for node in gast.walk(fdef):
        if isinstance(node, gast.Name) and node.id in private and id(node) not in allowed:
            private.discard(node.id)
    return private


def deferred_call(parallelizer, parallel, saved, fresh, serial):
    """The caller's statements around ``parallel`` (the outlined loop's call): the flags and
    the buffers of ``saved`` (array -> buffer name) before it; after it, where a flag is set,
    the loop's rows copied back and ``serial`` (the serial loop) run again."""
    numpy = parallelizer._numpy()
    err = fresh["err"]
    before = [gast.Assign(targets=[_n(err, True)], value=gast.Call(
        func=_n(parallelizer.runtime["flags"]), args=[_n(fresh["n"])], keywords=[]), type_comment=None)]
    before += [gast.Assign(targets=[_n(buffer, True)], value=gast.Call(
        func=gast.Attribute(value=_n(numpy), attr="empty_like", ctx=gast.Load()),
        args=[_n(array)], keywords=[]), type_comment=None)
        for array, buffer in sorted(saved.items())]
    undo = []
    if saved:
        row = serial.target.id
        undo = [gast.For(target=_n(row, True), iter=copy_tree(serial.iter), body=[
            _row_copy(array, buffer, row) for array, buffer in sorted(saved.items())],
            orelse=[], type_comment=None)]
    again = gast.If(test=gast.Call(func=_n(parallelizer.runtime["any_set"]), args=[_n(err)], keywords=[]),
                    body=undo + [copy_tree(serial)], orelse=[])
    return before + parallel + [again]
