"""The result tag: where the entry's result is a Python number on some paths and a NumPy scalar on
others (analysis.scalar_types ``tagged``), a flag variable ``<name>_is_python`` travels beside
it and ``return s`` returns ``(s, s_is_python)``, so that the caller boxes the result as Python
would. ``Specializer.run`` sets the tag up, ``stmt`` appends ``_tag_update`` after each
statement, ``stmt_Return`` returns the pair.
"""
import gast

from ...analysis.scalar_kinds import _SAME
from ...analysis.scalar_types import assigns
from .nodes import _load, _store
from ...nodes import child_nodes, walk


def per_return_tags(types, fdef):
    """``({id(Return): is_python}, ("", dtype, python kind))`` where every return of ``fdef``
    returns one known type, they are a Python number on some returns and the NumPy scalar
    Numba boxes alike on others (a float and an np.float64: ``return a[i]`` / ``return
    -1.0``), and the function cannot fall off its end; else None. Each return then returns
    ``(value, is_python)`` and the caller boxes by it (transpiler.boxing.tag_reboxer)."""
    own = []
    stack = list(fdef.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            continue
        if isinstance(node, gast.Return):
            own.append(node)
        stack.extend(child_nodes(node))
    if not own or not fdef.body or not isinstance(fdef.body[-1], gast.Return) or \
            {id(r) for r in own} != {id(r) for r in types.returns}:
        return None
    kinds = {}
    for ret in own:
        if ret.value is None or isinstance(ret.value, gast.Tuple):
            return None
        found = types.of(ret.value)
        if len(found) != 1:
            return None
        kinds[id(ret)] = next(iter(found))
    python = {k for k in kinds.values() if k in _SAME}
    numpy = set(kinds.values()) - python
    if len(python) != 1 or len(numpy) != 1 or _SAME[next(iter(python))] != next(iter(numpy)):
        return None
    python = python.pop()
    return ({key: kind == python for key, kind in kinds.items()},
            ("", numpy.pop()[3:], python))


def _calls_itself(fdef, name):
    """Whether ``fdef`` calls a function or method named ``name`` (maybe itself)."""
    for node in walk(fdef):
        if isinstance(node, gast.Call):
            func = node.func
            if (isinstance(func, gast.Name) and func.id == name) or (
                    isinstance(func, gast.Attribute) and func.attr == name):
                return True
    return False


class ResultTag:
    """The ``<name>_is_python`` flag updates of a tagged result."""

    def _tag_update(self, node):
        """``<name>_is_python = True/False`` after an assignment of the tagged name: whether
        it now holds the Python number (a literal, converted to the dtype where assigned);
        ``mean_is_python = s_is_python`` after ``mean = s / n`` (ScalarTypes.tag_updates)."""
        if self.tag_flags:
            out = []
            for name, update in self.scalar_types.tag_updates.get(id(node), ()):
                if update is None:
                    continue        # `s += 1`: s keeps what it held
                value = _load(self.tag_flags[update]) if isinstance(update, str) else \
                    gast.Constant(value=update, kind=None)
                out.append(gast.copy_location(gast.Assign(
                    targets=[_store(self.tag_flags[name])], value=value, type_comment=None),
                    node))
            return out
        if not assigns(node, self.tagged[0]):
            return []
        python = self.scalar_types.tag_after(node, self.tagged)
        if python is None:
            return []       # `s += 1`: s keeps what it held
        if python == "?":
            self.fail(node, "cannot tell which type this assignment leaves in the result")
        return [gast.copy_location(gast.Assign(targets=[_store(self.tag)],
                                               value=gast.Constant(value=python, kind=None),
                                               type_comment=None), node)]
