"""Generator expressions consumed at once by ``sum``, ``any`` or ``all`` become loops (issue 20:
``any(v > t for v in a)``), before the number analyses run, so every rule that applies to a
loop applies to them (``sum``'s result is 0 when empty and an np.float64 otherwise over a
float64 array: the result flag follows that, analysis.scalar_merges ``alike_tag``, or the
function falls back).

``sum(elt for t in it if c)`` becomes ``acc = 0; for t' in it: if c: acc = acc + elt`` (the
Python int 0 is sum's own start, ``sum(g, start)`` starts from ``start``; CPython 3.11's
``sum`` adds left to right, as the loop does: from 3.12 it sums floats compensated, so there
nothing is rewritten); ``any`` sets ``True`` and breaks at the first true element, ``all``
``False`` at the first false one, as their short-circuit does. ``sum(x)`` of another
iterable (a list, an array, a range) is ``sum(item for item in x)``: CPython 3.11's
``builtin_sum_impl`` adds ``start + item`` left to right (its int and float fast paths give
the same values), and Numba's own ``sum`` adds ints in int64. A list comprehension
``[elt for t in it if c]`` becomes ``out = []; for t' in it: if c: out.append(elt)``,
the loop it is (Python reference, "Displays for lists, sets and dictionaries"), so its
element follows the rules for loops. The comprehension's variables
get fresh names (they are its own, never the function's). The loop replaces the call before
the statement that holds it, so only where nothing of that statement would run before the
call or be skipped by it: the call is the statement's value or an operand of operators (no
other call, no ``if``-expression, ``and``/``or`` or comprehension around it or beside it), and
``sum``/``any``/``all`` are the builtins (not a local, global or closure variable).
"""
import builtins
import functools
import sys

import gast

from ..naming import fresh
from ..nodes import assign, child_nodes, const, copy_tree, located, name, rewrite_blocks, walk

# From Python 3.12 ``sum`` adds floats compensated (module docstring): not rewritten there.
_CONSUMERS = ("sum", "any", "all", "min", "max") if sys.version_info < (3, 12) else (
    "any", "all", "min", "max")


def _empty_message(fn):
    try:
        fn(())
    except ValueError as exc:
        return str(exc)


# CPython's own words for min()/max() of nothing ("max() arg is an empty sequence" in 3.11,
# "max() iterable argument is empty" from 3.12): whichever this interpreter raises
_EMPTY = {"min": _empty_message(min), "max": _empty_message(max)}
_PATH_NODES = (gast.BinOp, gast.UnaryOp, gast.Tuple, gast.List)
_OUTER = (gast.Call, gast.IfExp, gast.BoolOp, gast.Lambda, gast.ListComp, gast.SetComp,
          gast.DictComp, gast.GeneratorExp, gast.NamedExpr, gast.Await, gast.Yield,
          gast.YieldFrom)


def desugar(fdef, shadowed, resolve=None, guarded=None):
    """A copy of ``fdef`` (gast.FunctionDef) with the consumed generator expressions (and
    ``functools.reduce`` calls) as loops, or ``fdef`` itself when there is none.

    Args:
        fdef: the parsed function (read-only: shared by every specialization).
        shadowed (callable): ``shadowed(name)`` is True when ``name`` does not resolve to the
            builtin here (a global, closure or local variable of that name).
        resolve (callable): the static value of a Name or Attribute node here (or anything
            else when not static); None: no ``reduce`` is rewritten.
        guarded (list): receives the function expression of each rewritten ``reduce`` call,
            for the caller to guard the name it was read through.
    """
    def is_consumer(node):
        return _consumer(node, shadowed) or _list_comp(node) or _reduce_call(node, resolve)

    if not any(is_consumer(n) or _list_of_generator(n, shadowed) for n in walk(fdef)):
        return fdef
    fdef = copy_tree(fdef)
    _as_list_comps(fdef, shadowed)
    taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)} | {fdef.name}
    fdef.body = rewrite_blocks(fdef.body, lambda stmt: _hoist(
        stmt, is_consumer, taken, guarded, shadowed) + [stmt])
    return fdef


def _reduce_call(node, resolve):
    """``functools.reduce(f, iterable[, initial])`` with ``f`` an operator function or a
    quiet builtin (``_quiet``: ``operator.add``, ``max``). Not a user function: the number
    analyses do not type its result, so a result that is a Python number or a NumPy scalar
    by path could not be boxed as the plain call's (docs/reference/semantics.md)."""
    return resolve is not None and isinstance(node, gast.Call) and isinstance(
        node.func, (gast.Name, gast.Attribute)) and not node.keywords and 2 <= len(
            node.args) <= 3 and not any(isinstance(a, gast.Starred) for a in node.args) and \
        _quiet(node.args[0]) and _is_reduce(resolve(node.func))


def _is_reduce(value):
    return value is functools.reduce


def _consumer(node, shadowed):
    """``sum(<genexp>[, start])``, ``any(<genexp>)`` or ``all(<genexp>)`` of the builtins."""
    if not (isinstance(node, gast.Call) and isinstance(node.func, gast.Name)
            and node.func.id in _CONSUMERS and not shadowed(node.func.id)
            and not node.keywords and node.args
            and (isinstance(node.args[0], gast.GeneratorExp) or _summed(node))):
        return False
    most = 2 if node.func.id == "sum" else 1
    if node.func.id in ("min", "max") and (not isinstance(
            node.args[0], gast.GeneratorExp) or isinstance(node.args[0].elt, (
                gast.Tuple, gast.List, gast.Set, gast.Dict))):
        # min(a, b), max(a): builtins of their own; the max of tuples compares them item by
        # item and gives one (its items' types are not followed through the loop)
        return False
    return len(node.args) <= most and not any(isinstance(a, gast.Starred) for a in node.args)


def _list_comp(node):
    """A list comprehension: ``out = []; for t' in it: if c: out.append(elt)``, the
    loop Python runs, so that its element is converted by the rules for loops (its
    variables typed by what they iterate: ``[1 << i for i in range(n)]`` shifts Python ints,
    checked beyond int64)."""
    return isinstance(node, gast.ListComp) and not any(g.is_async for g in node.generators)


def _list_of_generator(node, shadowed):
    """``list(<genexp>)`` of the builtin ``list``: the list comprehension it equals (Python
    reference, "Displays for lists": both build the list of the generator's items in
    order)."""
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "list" and not shadowed("list") and not node.keywords and len(
            node.args) == 1 and isinstance(node.args[0], gast.GeneratorExp) and not any(
                g.is_async for g in node.args[0].generators)


def _as_list_comps(fdef, shadowed):
    """``fdef`` with each ``list(<genexp>)`` as its list comprehension (in place)."""
    class Rewrite(gast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if not _list_of_generator(node, shadowed):
                return node
            gen = node.args[0]
            return gast.copy_location(gast.ListComp(elt=gen.elt, generators=gen.generators),
                                      node)
    Rewrite().visit(fdef)


def _summed(node):
    """``sum(items[, start])`` of an iterable that is not a generator: summed by the same
    loop (CPython 3.11's ``builtin_sum_impl`` is ``start + item`` left to right, its int and
    float fast paths giving the same values), so each ``+`` follows the number rules (a
    Python int checked for int64 overflow; Numba's own ``sum`` of a list of ints wraps). A
    tuple display is not: its items may differ in type (passes/specialize unrolls it)."""
    return node.func.id == "sum" and not isinstance(node.args[0], (gast.Tuple, gast.Starred))


def _hoist(stmt, is_consumer, taken, guarded, shadowed):
    """The loops computing ``stmt``'s consumed generators (each call replaced by its result's
    name), or [] where the statement does not allow it (module docstring)."""
    if isinstance(stmt, (gast.Assign, gast.Return, gast.Expr)) or (
            isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name)):
        root = stmt.value
    else:
        return []
    calls = _hoistable(root, is_consumer, shadowed) if root is not None else []
    loops = []
    if calls and isinstance(stmt, gast.AugAssign):
        # `y += c * max(..)` reads y first: a read before the loop (UnboundLocalError first)
        loops.append(located(gast.Expr(value=name(stmt.target.id)), stmt))
    for call in calls:
        # What Python evaluates before the call in this statement (`c[0] + sum(10 // v for v
        # in b)`: c[0], which may raise IndexError first) is evaluated first, into a name
        for before in _evaluated_before(root, call):
            if not isinstance(before, gast.Constant):   # a name too: it may be unassigned
                held = fresh("operand", taken)
                taken.add(held)
                loops.append(located(assign(held, before), stmt))
                _replace(root, before, name(held))
        if _consumer(call, shadowed) or _list_comp(call):
            result, statements = _loop(call, taken, stmt)
        else:
            result, statements = _reduce_loop(call, taken, stmt)
            if guarded is not None:
                guarded.append(call.func)
        loops.extend(statements)
        if call is root:
            stmt.value = name(result)
        else:
            _replace(root, call, name(result))
    return loops


def _hoistable(root, is_consumer, shadowed):
    """The consumer calls of ``root`` in evaluation order, when moving them before the
    statement changes nothing else: every other call of the statement is one they are
    arguments of (a pure function reference, every other argument pure) or ``len`` of a name
    (``sum(v * v for v in a) / len(a)``: it runs no code and, where compiled code types it,
    cannot raise, so which runs first cannot be seen), and no lazy or scoped expression holds
    one. Else []."""
    consumers, parents, stack = [], {}, [root]
    while stack:
        node = stack.pop()
        if is_consumer(node):
            consumers.append(node)
            continue            # its generator is its own business
        for child in child_nodes(node):
            parents[id(child)] = node
            stack.append(child)
    if not consumers:
        return []
    ancestors = set()
    for call in consumers:
        node = parents.get(id(call))
        while node is not None:
            ancestors.add(id(node))
            node = parents.get(id(node))
        items, others = _parts(call, shadowed)
        if not all(_pure(a) for a in others):
            return []
        if not _calls_nothing(items):
            # its items may run code that changes what the statement read before it
            # (`(a[0], sum(bump(a) for _ in r))`): only where nothing else is read
            if not _names_only(root, consumers):
                return []
    stack = [root]
    while stack:
        node = stack.pop()
        if any(node is c for c in consumers):
            continue
        inside = id(node) in ancestors
        if not inside and _len_of_name(node, shadowed):
            continue
        if isinstance(node, gast.Call):
            if not inside or not _pure(node.func) or not all(
                    id(a) in ancestors or any(a is c for c in consumers) or _pure(a)
                    for a in list(node.args) + [k.value for k in node.keywords]):
                return []
        elif isinstance(node, _OUTER) or (isinstance(node, gast.Compare) and
                                          len(node.ops) != 1):
            if inside:
                return []       # it may skip the consumer, or run something before it
            if any(isinstance(n, gast.Call) for n in walk(node)):
                return []
        stack.extend(child_nodes(node))
    # evaluation order: left to right in the source
    return sorted(consumers, key=lambda c: (c.lineno, c.col_offset))


def _evaluated_before(root, target):
    """The expressions of ``root`` Python evaluates whole before it starts ``target`` (the
    operands to its left on the way down: a BinOp's left operand, a call's function and
    earlier arguments, a tuple's earlier items...), in the order gast lists a node's fields,
    which is Python's evaluation order for the nodes _hoistable lets through."""
    path = []

    def find(node):
        if node is target:
            return True
        for child in child_nodes(node):
            if find(child):
                path.append((node, child))
                return True
        return False

    if not find(root):
        return []
    before = []
    for parent, child in reversed(path):    # from the root down: evaluation order
        siblings = list(child_nodes(parent))
        if isinstance(parent, gast.Dict):   # key, value, key, value... (gast: keys first)
            siblings = [n for pair in zip(parent.keys, parent.values) for n in pair
                        if n is not None]
        for sibling in siblings:
            if sibling is child:
                break
            if isinstance(sibling, gast.expr):
                before.append(sibling)
    return before


def _len_of_name(node, shadowed):
    """Whether ``node`` is ``len(name)`` of the builtin ``len``."""
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "len" and not shadowed("len") and len(node.args) == 1 and \
        isinstance(node.args[0], gast.Name) and not node.keywords


def _parts(call, shadowed):
    """``(what is iterated, the other arguments)`` of a consumer call."""
    if _list_comp(call):
        return call, []
    if _consumer(call, shadowed):
        return call.args[0], call.args[1:]
    return call.args[1], [call.args[0]] + call.args[2:]      # reduce(f, items[, initial])


def _quiet(func):
    """Whether ``func`` (a reduce's function expression) is an operator function or a
    _QUIET_CALLS builtin: calling it runs no user code."""
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
        return func.value.id in ("operator", "np", "numpy", "math")
    return isinstance(func, gast.Name) and func.id in _QUIET_CALLS


_SCALAR_TYPES = {"bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "intp", "float16", "float32", "float64", "complex64", "complex128"}

# Calls a generator may make that run no user code and change nothing.
_QUIET_CALLS = {"range", "len", "abs", "enumerate", "zip", "min", "max", "float", "int",
                "bool", "round", "divmod", "pow", "complex"}


def _calls_nothing(gen):
    """Whether the generator ``gen`` makes only calls of _QUIET_CALLS builtins or of module
    functions (``np.sqrt``, ``math.exp``)."""
    for node in walk(gen):
        if isinstance(node, gast.Call):
            func = node.func
            if isinstance(func, gast.Name) and func.id in _QUIET_CALLS:
                continue
            if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and \
                    func.value.id in ("np", "numpy", "math"):
                continue
            return False
    return True


def _names_only(root, consumers):
    """Whether ``root`` outside ``consumers`` reads names and constants only (no subscript or
    attribute whose value a call could change)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if any(node is c for c in consumers):
            continue
        if isinstance(node, (gast.Subscript, gast.Attribute, gast.Call)):
            return False
        stack.extend(child_nodes(node))
    return True


def _pure(node):
    """Names, constants and attribute reads only (no call, nothing that could run code but
    attribute lookups)."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, (gast.USub, gast.UAdd)) and \
            isinstance(node.operand, gast.Constant):
        return True         # a negative literal
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and isinstance(
            node.func.value, gast.Name) and node.func.value.id in ("np", "numpy") and \
            node.func.attr in _SCALAR_TYPES and not node.keywords and all(_pure(a) and not isinstance(a, gast.Call)
                                      for a in node.args):
        return True         # `np.float32(0.0)`: NumPy runs no user code for it
    return all(isinstance(n, (gast.Name, gast.Constant, gast.Attribute, gast.expr_context))
               for n in walk(node))


def _replace(root, old, new):
    for parent in walk(root):
        for field, value in gast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(v is old for v in value):
                setattr(parent, field, [new if v is old else v for v in value])
                return


def _loop(call, taken, like):
    """``(result name, statements)`` computing ``call`` (a consumer of a generator)."""
    kind = "list" if _list_comp(call) else call.func.id
    gen = call if kind == "list" else call.args[0]
    result = fresh(f"{kind}_result", taken)
    taken.add(result)
    if isinstance(gen, gast.ListComp) and kind == "sum":
        # sum([elt for ..]) adds the same numbers in the same order as sum(elt for ..)
        gen = gast.GeneratorExp(elt=gen.elt, generators=gen.generators)
    elif not isinstance(gen, (gast.GeneratorExp, gast.ListComp)):   # sum(items)
        item = fresh("sum_item", taken)
        taken.add(item)
        gen = gast.GeneratorExp(elt=name(item), generators=[gast.comprehension(
            target=name(item, store=True), iter=gen, ifs=[], is_async=0)])
    renames = {}
    for comp in gen.generators:
        for target in walk(comp.target):
            if isinstance(target, gast.Name) and target.id not in renames:
                renames[target.id] = fresh(f"{target.id}_item", taken)
                taken.add(renames[target.id])
    gen = _rename(gen, renames)     # its first iterable is the enclosing scope's: kept
    if kind == "sum":
        start = call.args[1] if len(call.args) == 2 else const(0)
        init = assign(result, start)
        innermost = [assign(result, gast.BinOp(left=name(result), op=gast.Add(),
                                               right=gen.elt))]
    elif kind == "list":
        init = assign(result, gast.List(elts=[], ctx=gast.Load()))
        innermost = [gast.Expr(value=gast.Call(
            func=gast.Attribute(value=name(result), attr="append", ctx=gast.Load()),
            args=[gen.elt], keywords=[]))]
    elif kind in ("min", "max"):
        return result, [located(s, like) for s in _min_max_loop(kind, gen, result, taken)]
    elif kind == "any":
        init = assign(result, const(False))
        innermost = [gast.If(test=gen.elt, body=[assign(result, const(True)), gast.Break()],
                             orelse=[])]
    else:
        init = assign(result, const(True))
        innermost = [gast.If(test=gast.UnaryOp(op=gast.Not(), operand=gen.elt),
                             body=[assign(result, const(False)), gast.Break()], orelse=[])]
    if kind in ("any", "all") and len(gen.generators) > 1:
        # a break leaves only the innermost loop: any/all over nested fors need a flag
        return _nested_short_circuit(kind, gen, result, init, taken, like)
    return result, [located(s, like) for s in [init] + _nested_loops(gen, innermost)]


def _nested_loops(gen, innermost):
    """The generator ``gen``'s ``for``s and ``if``s around the statements ``innermost``."""
    body = innermost
    for comp in reversed(gen.generators):
        for cond in reversed(comp.ifs):
            body = [gast.If(test=cond, body=body, orelse=[])]
        body = [gast.For(target=comp.target, iter=comp.iter, body=body, orelse=[],
                         type_comment=None)]
    return body


def _min_max_loop(kind, gen, result, taken):
    """``max(elt for ..)``: CPython's ``min_max`` (Python/bltinmodule.c): the first item, then
    each item that compares ``item > best`` (``<`` for min) replaces it, so the first of equal
    items stays and a NaN compared stays out; ValueError when there is none."""
    first, item = fresh(f"{kind}_first", taken), fresh(f"{kind}_item", taken)
    taken.update((first, item))
    better = gast.Compare(left=name(item), ops=[gast.Gt() if kind == "max" else gast.Lt()],
                          comparators=[name(result)])
    body = _nested_loops(gen, [assign(item, gen.elt), gast.If(
        test=name(first), body=[assign(result, name(item)), assign(first, const(False))],
        orelse=[gast.If(test=better, body=[assign(result, name(item))], orelse=[])])])
    empty = gast.If(test=name(first), body=[gast.Raise(exc=gast.Call(
        func=name("ValueError"), args=[const(_EMPTY[kind])], keywords=[]), cause=None)],
        orelse=[])
    return [assign(first, const(True))] + body + [empty]


def _reduce_loop(call, taken, like):
    """``(result name, statements)`` computing ``functools.reduce(f, items[, initial])``
    as CPython's ``functools_reduce`` (Modules/_functoolsmodule.c) does: ``acc = initial``
    (else the first item), then ``acc = f(acc, item)`` for each item in order; no initial
    and no item raises its TypeError."""
    func, items = call.args[0], call.args[1]
    result = fresh("reduce_result", taken)
    item = fresh("reduce_item", taken | {result})
    taken.update((result, item))
    step = assign(result, gast.Call(func=copy_tree(func), args=[name(result), name(item)],
                                    keywords=[]))
    if len(call.args) == 3:
        statements = [assign(result, call.args[2]),
                      gast.For(target=name(item, store=True), iter=items, body=[step], orelse=[],
                               type_comment=None)]
        return result, [located(s, like) for s in statements]
    first = fresh("reduce_first", taken)
    taken.add(first)
    statements = [
        assign(first, const(True)),
        gast.For(target=name(item, store=True), iter=items, body=[gast.If(
            test=name(first), body=[assign(result, name(item)), assign(first, const(False))],
            orelse=[step])], orelse=[], type_comment=None),
        gast.If(test=name(first), body=[gast.Raise(exc=gast.Call(
            func=name("TypeError"), args=[const(
                "reduce() of empty iterable with no initial value")], keywords=[]),
            cause=None)], orelse=[])]
    return result, [located(s, like) for s in statements]


def _nested_short_circuit(kind, gen, result, init, taken, like):
    done = fresh(f"{kind}_done", taken)
    taken.add(done)
    found = const(kind == "any")
    test = gen.elt if kind == "any" else gast.UnaryOp(op=gast.Not(), operand=gen.elt)
    body = [gast.If(test=test, body=[assign(result, found), assign(done, const(True)),
                                     gast.Break()], orelse=[])]
    for i, comp in enumerate(reversed(gen.generators)):
        for cond in reversed(comp.ifs):
            body = [gast.If(test=cond, body=body, orelse=[])]
        loop = gast.For(target=comp.target, iter=comp.iter, body=body, orelse=[],
                        type_comment=None)
        outer = i < len(gen.generators) - 1
        body = [loop, gast.If(test=name(done), body=[gast.Break()], orelse=[])] if outer \
            else [loop]
    return result, [located(s, like) for s in [init, assign(done, const(False))] + body]


def _rename(node, renames):
    first_iter = node.generators[0].iter

    class Rename(gast.NodeTransformer):
        def visit(self, n):
            if n is first_iter:
                return n
            return super().visit(n)

        def visit_Name(self, n):
            if n.id in renames:
                n.id = renames[n.id]
            return n
    return Rename().visit(node)


def builtin_shadowed(fn, local_names):
    """The ``shadowed`` of :func:`desugar` for Python function ``fn``."""
    closure = set(getattr(getattr(fn, "__code__", None), "co_freevars", ()))
    globals_ = getattr(fn, "__globals__", {})

    def shadowed(identifier):
        return identifier in local_names or identifier in closure or (
            identifier in globals_ and globals_[identifier] is not getattr(
                builtins, identifier, None))
    return shadowed
