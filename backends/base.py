"""The Backend interface and the lowering shared by the Python-source backends.

``lower(program)`` turns a finalized program into the text of one Python module: imports, the
generated functions (each statement followed by a ``# file:line`` comment naming the user's
line it comes from) and ``_prepare``, the plain-Python function that re-checks the guards and
reads the runtime inputs before each call. ``load(source)`` writes it to a real file and imports
it, so tracebacks, ``inspect``, ``linecache`` and Numba's cache all see a file.
"""
import ast
import math
import os

import gast

from transpiler.errors import Origin
from transpiler.loader import load_source


class GeneratedModule:
    """The lowered program.

    Attributes:
        source (str): the module text.
        line_map (dict[int, Origin]): generated line -> the user's origin.
        entry_name (str): the entry function's name in the module.
        constants (tuple): the ``_K`` argument of ``_prepare`` (guard expectations).
        roots (tuple): the ``_R`` argument of ``_prepare`` (globals dicts, closure cells).
    """

    def __init__(self, source, line_map, entry_name, constants, roots):
        self.source = source
        self.line_map = line_map
        self.entry_name = entry_name
        self.constants = constants
        self.roots = roots


class Backend:
    """A code generator. Subclasses set ``name`` and ``decorator_lines``."""

    name = None
    # Source lines after the imports that define ``_jit``; None for no decorator.
    decorator_lines = None

    # Whether the generated code keeps the functional forms (the eager backend runs them).
    keeps_forms = True

    def function_node(self, fn):
        """The definition to emit for a generated function (its functional form here)."""
        return fn.node

    def lower(self, program, header="", include_prepare=True, reserved=()):
        """Lower a program to a :class:`GeneratedModule`.

        Args:
            program (Program): built by the passes; finalized here.
            header (str): comment lines to put first.
            include_prepare (bool): emit ``_prepare`` (not wanted for ``ir()``).
            reserved (set[str]): module-level names the generated ones must not take.
        """
        program.finalize(reserved={"_jit", "_prepare", "numba"} | set(reserved))
        lines = header.rstrip("\n").splitlines() if header else []
        for module, alias in sorted(program.imports()):
            lines.append(f"import {module}" if module == alias else
                         f"import {module} as {alias}")
        forms = sorted(program.ir_imports())
        if forms and self.keeps_forms:
            lines.append("from transpiler.ir import " + ", ".join(
                form if form == alias else f"{form} as {alias}" for form, alias in forms))
        if not self.keeps_forms:
            for form, alias in forms:
                if form == "weak":
                    if "numpy" not in dict(program.imports()):
                        lines.append("import numpy as np")
                    lines.extend(self.weak_source(alias, dict(program.imports()).get(
                        "numpy", "np")).splitlines())
        if self.decorator_lines:
            lines.extend(self.decorator_lines)
        line_map = {}
        for fn in program.functions:
            emit_def(lines, line_map, self.function_node(fn), fn.filename,
                     "@_jit" if self.decorator_lines else None)
        entry_name = self.lower_more(program, lines, line_map)
        prepare, constants = _emit_prepare(program)
        if include_prepare:
            lines.append("")
            lines.append("")
            lines.extend(prepare)
        source = "\n".join(lines) + "\n"
        return GeneratedModule(source, line_map, entry_name or program.entry.symbol.name,
                               constants, tuple(program.roots))

    def lower_more(self, program, lines, line_map):
        """Hook: append more definitions after the generated functions (numba-cuda's kernels
        and driver); returns the entry's name when it is not the program's entry function."""
        return None

    def versions(self):
        """What the generated code depends on besides its text, as one comment line."""
        import platform
        import transpiler
        return f"graphjit {transpiler.__version__}, Python {platform.python_version()}"

    @staticmethod
    def compile_errors():
        """Exception types that mean "cannot compile this" (never the user's own errors)."""
        return ()

    def weak_source(self, name, numpy_alias):
        """Source defining the NEP 50 ``weak`` helper (plain Python: the identity)."""
        return f"\n\ndef {name}(value, like):\n    return value\n"

    def is_compile_failure(self, exc, function, args):
        """True when ``exc`` (raised calling ``function(*args)``) means "cannot compile this"
        rather than an error of the running code."""
        return isinstance(exc, self.compile_errors())

    def is_cache_error(self, exc):
        """True when ``exc`` comes from loading a corrupt on-disk cache entry."""
        return False

    def clear_cache(self, path, exc):
        """Remove the on-disk cache entries of the generated module at ``path``."""

    def box_result(self, function, result, dynamic, inputs):
        """Give a result the Python type the plain call would give (identity here)."""
        return result

    def memory_source(self, source):
        """The module text to run when it is compiled in memory instead of from a cache file
        (same lines; the numba-cpu backend turns Numba's on-disk cache off, it needs a file)."""
        return source

    def load(self, generated, stem):
        """Import the generated module; returns ``(module, path)``."""
        return load_source(generated.source, stem,
                           memory_source=self.memory_source(generated.source))


def emit_def(lines, line_map, node, filename, decorator=None):
    """Append the definition ``node`` (gast) to ``lines``, each statement followed by a
    ``# file:line`` comment of its origin in ``filename``, recorded in ``line_map``."""
    lines.append("")
    lines.append("")
    if decorator:
        lines.append(decorator)
    text = gast.unparse(node).strip("\n").splitlines()
    offset = len(lines)
    for rel, lineno in _map_lines(node, "\n".join(text)).items():
        line_map[offset + rel] = Origin(filename, lineno)
        text[rel - 1] += f"  # {os.path.basename(filename)}:{lineno}"
    lines.extend(text)


def _map_lines(node, text):
    """Generated line (1-based, within ``text``) -> user's line, statement by statement."""
    parsed = ast.parse(text).body[0]
    mapping = {parsed.lineno: node.lineno}

    def walk(gen_stmts, parsed_stmts):
        for g, a in zip(gen_stmts, parsed_stmts):
            if getattr(g, "lineno", None) is not None:
                mapping.setdefault(a.lineno, g.lineno)
            for field in ("body", "orelse", "finalbody"):
                walk(getattr(g, field, None) or [], getattr(a, field, None) or [])

    walk(node.body, parsed.body)
    return mapping


def _emit_prepare(program):
    """Source of ``_prepare(self, _A, _R, _K)`` and its constants ``_K``."""
    lines = [
        "def _prepare(self, _A, _R, _K):",
        '    """Re-check the static values this code was specialized on and read the runtime',
        '    inputs. Returns the inputs, or None when a guard fails (graphjit then transpiles',
        '    again). Plain Python: it runs before each call."""',
        "    try:",
    ]
    constants = []
    temps = {}
    roots = {"self": lambda r: "self", "arg": lambda r: f"_A[{r[1]}]",
             "root": lambda r: f"_R[{r[1]}]"}

    def ref(path):
        if len(path) == 1:
            return roots[path[0][0]](path[0])
        if path in temps:
            return temps[path]
        parent = ref(type(path)(path[:-1]))
        step = path[-1]
        if step[0] == ".":
            expr = f"{parent}.{step[1]}"
        elif step[0] == "[]":
            expr = f"{parent}[{step[1]!r}]"
        else:
            expr = f"{parent}.cell_contents"
        temp = f"_{len(temps)}"
        temps[path] = temp
        lines.append(f"        {temp} = {expr}")
        return temp

    def const(value):
        constants.append(value)
        return f"_K[{len(constants) - 1}]"

    for guard in program.guards.values():
        v = ref(guard.path)
        expected = guard.expected
        if guard.kind == "is":
            cond = f"{v} is not {const(expected)}"
        elif guard.kind == "type":
            cond = f"type({v}) is not {const(expected)}"
        elif guard.kind == "type_sign":
            cond = (f"type({v}) is not {const(expected[0])} or "
                    f"({v} >= 0) is not {bool(expected[1])}")
        elif guard.kind == "array":
            cond = (f"getattr({v}, 'ndim', None) != {int(expected[0])} or "
                    f"getattr({v}, 'dtype', None) != {const(expected[1])}")
        elif guard.kind == "typekey":
            cond = _typekey_condition(v, expected, const)
        elif guard.kind == "len":
            cond = f"{v} is not {const(expected)} or len({v}) != {len(expected)}"
        elif isinstance(expected, float) and math.isnan(expected):
            cond = f"type({v}) is not float or {v} == {v}"
        else:
            cond = f"type({v}) is not {const(type(expected))} or {v} != {const(expected)}"
        lines.append(f"        if {cond}:")
        lines.append("            return None")
    values = [ref(path) for _, path in program.entry.inputs]
    lines.append(f"        return ({', '.join(values)}{',' if len(values) == 1 else ''})")
    lines.append("    except Exception:  # a guard that cannot be read has failed")
    lines.append("        return None")
    return lines, tuple(constants)


def _typekey_condition(v, key, const):
    """A condition true when value expression ``v`` does not have the complete type ``key``
    (transpiler.api.type_key): its type, an array's dtype and ndim, a tuple's length and the
    keys of its items."""
    if key[0] == "array":
        return (f"type({v}) is not {const(key[1])} or {v}.ndim != {int(key[3])} or "
                f"{v}.dtype != {const(key[2])}")
    if key[0] == "tuple":
        items = [f"type({v}) is not tuple", f"len({v}) != {len(key[1])}"]
        items += [f"({_typekey_condition(f'{v}[{i}]', k, const)})"
                  for i, k in enumerate(key[1])]
        return " or ".join(items)
    return f"type({v}) is not {const(key[1])}"
