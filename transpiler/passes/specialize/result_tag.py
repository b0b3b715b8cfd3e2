"""The result tag: where the entry's result is a Python number on some paths and a NumPy scalar on
others (analysis.scalar_types ``tagged``), a flag variable ``<name>_is_python`` travels beside
it and ``return s`` returns ``(s, s_is_python)``, so that the caller boxes the result as Python
would. ``Specializer.run`` sets the tag up, ``stmt`` appends ``_tag_update`` after each
statement, ``stmt_Return`` returns the pair.
"""
import gast

from ...analysis.scalar_types import assigns
from .nodes import _store


def _calls_itself(fdef, name):
    """Whether ``fdef`` calls a function or method named ``name`` (maybe itself)."""
    for node in gast.walk(fdef):
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
        it now holds the Python number (a literal, converted to the dtype where assigned)."""
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
