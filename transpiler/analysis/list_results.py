"""Lists made in compiled code and returned: where Numba's boxing differs from Python's.

Numba boxes a reflected list's int64/float64/bool elements as Python numbers and reads its
int8/float32/... elements back as its own types, so a list result whose elements are NumPy
scalars (or cannot be typed) differs from the plain call's; used by analysis.scalar_merges to
refuse it (the function runs as Python).
"""
import gast


def built_lists(fdef):
    """Names bound to a list made in the function (``[]``, ``[..]``, ``list(..)``, a
    comprehension), with the expressions of the elements stored into them (None: an element
    not seen, from ``extend``, ``+=``, ``list(iterable)`` or a comprehension)."""
    lists = {}
    for node in gast.walk(fdef):
        if isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                node.targets[0], gast.Name):
            value = node.value
            if isinstance(value, gast.List):
                lists.setdefault(node.targets[0].id, []).extend(value.elts)
            elif isinstance(value, gast.ListComp) or (
                    isinstance(value, gast.Call) and isinstance(value.func, gast.Name) and
                    value.func.id == "list"):
                lists.setdefault(node.targets[0].id, []).append(None)
    for node in gast.walk(fdef):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) and \
                isinstance(node.func.value, gast.Name) and node.func.value.id in lists:
            method = node.func.attr
            items = lists[node.func.value.id]
            if method == "append" and len(node.args) == 1:
                items.append(node.args[0])
            elif method == "insert" and len(node.args) == 2:
                items.append(node.args[1])
            elif method not in ("pop", "clear", "reverse", "sort", "index", "count", "remove",
                                "copy"):
                items.append(None)
        elif isinstance(node, gast.Assign) and any(
                isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name) and
                t.value.id in lists for t in node.targets):
            for t in node.targets:
                if isinstance(t, gast.Subscript) and isinstance(t.value, gast.Name) and \
                        t.value.id in lists:
                    lists[t.value.id].append(node.value)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) and \
                node.target.id in lists:
            lists[node.target.id].append(None)
    return lists


def list_result_problem(analysis):
    """``(node, message)`` where a list made in the function (``analysis``: its
    ScalarTypes), or an element read from one, is (part of) a result and its elements may be
    NumPy scalars or untyped (`out.append(a[i]); return out` gives Python floats where plain
    gives np.float64; np.int8 elements come back as Python ints); else None."""
    lists = built_lists(analysis.fdef)
    python = {"int", "float", "bool", "complex"}
    for ret in analysis.returns:
        value = ret.value
        parts = value.elts if isinstance(value, (gast.Tuple, gast.List)) else [value]
        for part in parts:
            base = part.value if isinstance(part, gast.Subscript) else part
            if isinstance(part, gast.List) or isinstance(part, gast.ListComp):
                items = list(part.elts) if isinstance(part, gast.List) else [None]
            elif isinstance(base, gast.Name) and base.id in lists:
                items = lists[base.id]
            else:
                continue
            if any(item is None or not analysis.of(item) or
                   not set(analysis.of(item)) <= python for item in items):
                return (ret, "a list made in compiled code, or an element of it, is "
                             "returned, and its elements may be NumPy scalars (Numba "
                             "gives them back as Python numbers)")
    return None
