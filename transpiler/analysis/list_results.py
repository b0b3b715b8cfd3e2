"""Lists made in compiled code: where Numba's boxing differs from Python's.

Numba boxes a reflected list's int64/float64/bool elements as Python numbers and reads its
int8/float32/... elements back as its own types, and graphjit's number analyses do not type a
list's elements. So a list made in the function whose elements may be NumPy scalars (or cannot
be typed) changes a result wherever an element, or the list, reaches it: returned (`return
out`, `sorted(out)`, `out.copy()`, an alias, inside a tuple), read (`out[0] + 1`, `sum(out)`,
`max(out)`, `for v in out`). Such a list is refused (the function runs as Python) unless it is
only filled (`append`, `insert`, item stores), measured (`len`) or handed to a NumPy function
(`np.array(out)`: NumPy's conversion, which compiled code reproduces). Lists of Python
numbers compile. Used by analysis.scalar_merges.
"""
import gast
from ..nodes import child_nodes, walk

_PYTHON = frozenset({"int", "float", "bool", "complex"})
_FILLING = ("append", "insert")
_KEEPING = ("clear", "reverse")


def built_lists(fdef):
    """Names bound to a list made in the function (``[]``, ``[..]``, ``[..] * n``,
    ``list(..)``, a comprehension) -> the expressions stored into them as elements (None: an
    element not seen; the string ``"int"``: a Python int, from ``list(range(..))``)."""
    lists = {}
    for node in walk(fdef):
        targets = node.targets if isinstance(node, gast.Assign) else [node.target] if \
            isinstance(node, gast.AnnAssign) and node.value is not None else []
        pairs = [(t, node.value) for t in targets]
        for target, value in list(pairs):     # `out, n = [], 0`
            if isinstance(target, gast.Tuple) and isinstance(value, gast.Tuple) and \
                    len(target.elts) == len(value.elts):
                pairs.extend(zip(target.elts, value.elts))
        for target, value in pairs:
            items = _made_list(value) if isinstance(target, gast.Name) else None
            if items is not None:
                lists.setdefault(target.id, []).extend(items)
    for node in walk(fdef):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                isinstance(node.func.value, gast.Name) and node.func.value.id in lists:
            if node.func.attr == "append" and len(node.args) == 1:
                lists[node.func.value.id].append(node.args[0])
            elif node.func.attr == "insert" and len(node.args) == 2:
                lists[node.func.value.id].append(node.args[1])
            elif node.func.attr not in _KEEPING:
                lists[node.func.value.id].append(None)
        elif isinstance(node, gast.Assign):
            for target in node.targets:
                if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name) \
                        and target.value.id in lists:
                    lists[target.value.id].append(
                        None if isinstance(target.slice, gast.Slice) else node.value)
        elif isinstance(node, gast.AugAssign):
            name = node.target.value if isinstance(node.target, gast.Subscript) else node.target
            if isinstance(name, gast.Name) and name.id in lists:
                lists[name.id].append(None)
    return lists


def _made_list(value):
    """The element expressions of a list ``value`` makes, or None where it makes none."""
    if isinstance(value, gast.List):
        return list(value.elts)
    if isinstance(value, gast.BinOp) and isinstance(value.op, gast.Mult):
        for side in (value.left, value.right):
            if isinstance(side, gast.List):
                return list(side.elts)
    if isinstance(value, gast.ListComp):
        return [value.elt]      # typed where the analyses know the comprehension's variables
    if isinstance(value, gast.Call) and isinstance(value.func, gast.Name) and \
            value.func.id in ("list", "sorted"):
        arg = value.args[0] if value.args else None
        if isinstance(arg, gast.Call) and isinstance(arg.func, gast.Name) and \
                arg.func.id == "range":
            return ["int"]
        return [None]
    return None


def list_result_problem(analysis):
    """``(node, message)`` for a list made in the function (``analysis``: its ScalarTypes)
    whose elements may be NumPy scalars or untyped, used other than being filled, measured
    or handed to a NumPy function (module docstring); else None."""
    lists = built_lists(analysis.fdef)
    parents = {}
    for node in walk(analysis.fdef):
        for child in child_nodes(node):
            parents[id(child)] = node
    for name, items in sorted(lists.items()):
        if all(_python_item(analysis, item) for item in items):
            continue
        for node in walk(analysis.fdef):
            if isinstance(node, gast.Name) and node.id == name and isinstance(
                    node.ctx, gast.Load) and not _harmless_use(analysis, node, parents):
                return node, _message(f"'{name}'")
    for node in walk(analysis.fdef):
        items = list(node.elts) if isinstance(node, gast.List) and isinstance(
            node.ctx, gast.Load) else [node.elt] if isinstance(node, gast.ListComp) else None
        if items is None or all(_python_item(analysis, item) for item in items):
            continue
        parent = parents.get(id(node))
        bound = isinstance(parent, (gast.Assign, gast.AnnAssign)) and parent.value is node
        scaled = isinstance(parent, gast.BinOp) and isinstance(parent.op, gast.Mult)
        if bound or scaled or _numpy_call(analysis, parent):
            continue        # a named list (above), or NumPy's conversion of it
        return node, _message("this list")
    return None


def _message(what):
    return (f"{what} is a list made in compiled code whose elements may be NumPy scalars, "
            "and it (or an element) reaches a result: Numba gives its elements back as Python "
            "numbers of its own types")


def _python_item(analysis, item):
    if item == "int":
        return True
    if item is None:
        return False
    kinds = analysis.of(item)
    return bool(kinds) and set(kinds) <= _PYTHON


def _harmless_use(analysis, node, parents):
    """A use of a list name that reads no element: ``len(name)``, ``name.append(..)`` and the
    other fillers, ``name[i] = v``, or ``np.array(name)``."""
    parent = parents.get(id(node))
    if isinstance(parent, gast.Subscript) and parent.value is node and isinstance(
            parent.ctx, gast.Store):
        return True
    if isinstance(parent, gast.Attribute) and parent.value is node:
        return parent.attr in _FILLING + _KEEPING
    if isinstance(parent, gast.Call) and node in parent.args:
        if isinstance(parent.func, gast.Name) and parent.func.id == "len" and \
                analysis.resolve(parent.func) is len:
            return True
        return _numpy_call(analysis, parent)
    return False


def _numpy_call(analysis, node):
    """Whether ``node`` is a call of a NumPy function (it converts a list as NumPy does)."""
    if not isinstance(node, gast.Call) or not isinstance(node.func, (gast.Name, gast.Attribute)):
        return False
    try:
        fn = analysis.resolve(node.func)
    except Exception:  # noqa: BLE001 - not a static value
        return False
    module = getattr(fn, "__module__", None) or ""
    return isinstance(module, str) and module.split(".")[0] == "numpy" and callable(fn)


def iterated_elements(analysis, name):
    """The types (strings) of the elements ``for v in name`` reads, ``name`` a list the
    function makes (``built_lists``) and only fills, measures, reads by index or iterates:
    the union of every element stored into it (``analysis``: the function's ScalarTypes; an
    empty set while the fixpoint has not reached them). None where the list may hold
    anything else: a parameter, another binding, an alias or a call it is passed to (that
    may append to it), a read in a nested scope, an element not seen."""
    if name in analysis.params or name in analysis.closure_reads:
        return None
    cache = analysis.__dict__.setdefault("_iterated_lists", {})
    if name not in cache:
        cache[name] = _only_filled(analysis, name)
    items = cache[name]
    if not items:
        return None
    out = set()
    for item in items:
        out |= {"int"} if isinstance(item, str) else set(analysis.of(item))
    return out


def _only_filled(analysis, name):
    """``built_lists``' elements of ``name`` where every binding of it makes a list and every
    read is harmless (``_harmless_use``), a ``for`` over it or an index read; else None."""
    cache = analysis.__dict__.setdefault("_iterated_lists", {})
    if "" not in cache:         # one walk per analysis, whatever lists are iterated
        cache[""] = built_lists(analysis.fdef)
    items = cache[""].get(name)
    if items is None or any(i is None or isinstance(i, gast.Starred) for i in items):
        return None
    parents = analysis._parents()
    for node in analysis.nodes:
        if not (isinstance(node, gast.Name) and node.id == name):
            continue
        parent = parents.get(id(node))
        if isinstance(node.ctx, gast.Store):
            if not (isinstance(parent, (gast.Assign, gast.AnnAssign)) and
                    _made_list(parent.value) is not None and (
                        isinstance(parent, gast.AnnAssign) or parent.targets == [node])):
                return None
        elif not (_harmless_use(analysis, node, parents) or (
                isinstance(parent, gast.For) and parent.iter is node) or (
                isinstance(parent, gast.Subscript) and parent.value is node and
                not isinstance(parent.slice, gast.Slice))):
            return None
    return items
