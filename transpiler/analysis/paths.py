"""Paths: how the runtime re-reads a static value from a root (kept free of NumPy so that
``import transpiler`` stays fast)."""
import re

from ..type_keys import list_array


class Path(tuple):
    """How to reach a static value from a root: ``(root, step, step, ...)``.

    ``root`` is ``("self",)``, ``("arg", i)`` (the i-th static argument) or ``("root", k)``
    (the k-th extra root object: a module's globals dict or a closure cell). A step is
    ``(".", name)`` (attribute), ``("[]", index)`` (item), ``("cell", name)`` (the contents
    of the closure cell of variable ``name``) or ``("list", dtype)`` (a list argument read
    as an array of that dtype: passes/list_arguments.py).
    """

    __slots__ = ()

    def child(self, *step):
        return Path(self + (step,))

    def name(self):
        """A readable identifier built from the path, for generated parameter names."""
        root = self[0]
        parts = ["self"] if root[0] == "self" else (
            [f"arg{root[1]}"] if root[0] == "arg" else [])
        for step in self[1:]:
            # Keys and indices may be any value: keep identifier characters only (-1 -> m1).
            part = re.sub(r"\W", "_", str(step[1]).replace("-", "m"))
            parts.append(part)
        ident = "_".join(p.strip("_") or "v" for p in parts) or "value"
        return ident if not ident[0].isdigit() else "v_" + ident

    def read(self, self_value, args, roots):
        """Re-read the value now (Python, for diagnostics; the hot path uses ``_prepare``)."""
        root = self[0]
        value = self_value if root[0] == "self" else args[root[1]] if root[0] == "arg" \
            else roots[root[1]]
        for step in self[1:]:
            if step[0] == ".":
                value = getattr(value, step[1])
            elif step[0] == "[]":
                value = value[step[1]]
            elif step[0] == "list":
                value = list_array(value, step[1])
            else:
                value = value.cell_contents
        return value

    def describe(self, arg_names=()):
        """The path as the user would write it: ``self.layers[2].has_bias``, ``SCALE``."""
        root = self[0]
        text = "self" if root[0] == "self" else (
            arg_names[root[1]] if root[0] == "arg" and root[1] < len(arg_names) else "")
        for step in self[1:]:
            if step[0] == ".":
                text += f".{step[1]}"
            elif step[0] == "[]":
                text = f"{text}[{step[1]!r}]" if text else str(step[1])
            elif step[0] == "list":
                pass    # the list itself, as the user passed it
            else:
                text = text or step[1]
        return text
