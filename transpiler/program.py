"""The program the passes build for one specialization, before backend lowering.

A :class:`Program` holds the generated functions (callees first, the entry last), the module-level
symbols they refer to (imports, other generated functions), the roots and guards by which the
runtime re-checks the static values the code was specialized on, and the runtime inputs (arrays
held by objects or globals) that are read on every call.
"""
import builtins
import itertools

import gast

from .analysis.paths import Path
from .helpers import is_helper_file, is_helper_module
from .naming import fresh
from .registry import is_cell


class ModuleSymbol:
    """A module-level name of the generated module.

    Its final spelling is chosen by :meth:`Program.finalize`, once every generated function's
    locals are known, so that it never collides with a user's local name.
    """

    _ids = itertools.count()

    def __init__(self, preferred, kind, payload):
        self.preferred = preferred
        self.kind = kind            # "import" (payload: module), "function" or "ir" (a form)
        self.payload = payload
        self.name = f"__gj{next(self._ids)}__"
        self.nodes = []

    def ref(self):
        """A new gast.Name that will carry this symbol's final name."""
        node = gast.Name(id=self.name, ctx=gast.Load(), annotation=None, type_comment=None)
        self.nodes.append(node)
        return node


class GeneratedFunction:
    """One generated function: the specialization of one Python function on static values.

    Attributes:
        symbol (ModuleSymbol): its module-level name.
        node (gast.FunctionDef): the generated definition.
        dynamic_params (list[str]): the user's parameters that stay runtime arguments.
        inputs (list[tuple[str, Path]]): runtime-input parameters (appended after the dynamic
            ones) and the absolute path each is read from.
        filename (str): the user's file every statement of ``node`` comes from.
        qualname (str): the Python function's qualified name.
        locals (set[str]): every local name, so module symbols can avoid them.
        is_helper (bool): whether it is one of graphjit's own helpers (transpiler.helpers),
            decided once from ``filename``.
    """

    def __init__(self, symbol, node, dynamic_params, inputs, filename, qualname, local_names):
        self.symbol = symbol
        self.node = node
        self.dynamic_params = dynamic_params
        self.inputs = inputs
        self.filename = filename
        self.qualname = qualname
        self.locals = local_names
        self.is_helper = is_helper_file(filename)


class Guard:
    """A check, run before every call, that a static value still is what the code assumed.

    kind: ``"is"`` (identity), ``"eq"`` (same type and equal value), ``"len"`` (identity and
    length: a list of layers that was unrolled), ``"type"`` (an argument's exact type: a
    Python float is weak under NEP 50, an np.float64 is not), ``"type_sign"`` (an int
    argument's exact type and whether it is >= 0: ``expected`` is ``(type, bool)``; ``k`` in
    ``n ** k`` decides whether Python gives an int or a float), ``"array"`` (an array
    argument's ndim and dtype name: ``expected`` is ``(int, str)``; element types, hence NEP 50
    and the scalar-type checks, follow from them).
    """

    __slots__ = ("path", "kind", "expected")

    def __init__(self, path, kind, expected):
        self.path = path
        self.kind = kind
        self.expected = expected


class Forgotten:
    """Stands for an instance's object in a shared specialization's guard (transpiler.specialization
    ``_forget_instance``): its type and length only, so the class's shared code does not keep
    that instance's layers and weights alive."""

    __slots__ = ("type", "length")

    def __init__(self, value):
        self.type = type(value)
        self.length = len(value) if isinstance(value, (list, tuple)) else None


def structural(guard, program):
    """Whether ``guard`` checks structure rather than identity: an identity guard on a Cell,
    list or tuple reached from ``self``, in a program not specific to its instance. Everything
    the code read from such an object went through a path of its own, with its own guard; so
    another instance of the same class passes when the object has the same type (and length),
    and the program is shared (a new instance of the class costs a guard check).
    ``_prepare`` then tests ``type(v)`` (and ``len(v)``) instead of ``v is K``."""
    if program.instance_specific or guard.path[0][0] != "self" or guard.kind not in ("is", "len"):
        return False
    if isinstance(guard.expected, (Forgotten, list, tuple)):
        return True
    return is_cell(guard.expected)


class Program:
    """Everything generated for one specialization of one jitted function."""

    def __init__(self):
        self.roots = []             # extra root objects: globals dicts, closure cells
        self._root_index = {}
        self.guards = {}            # Path -> Guard
        self.dynamic_paths = set()  # floats read at each call (transpiler/dynamic_numbers.py)
        self.functions = []         # callees first
        self.symbols = []
        self._imports = {}          # module name -> ModuleSymbol
        self.memo = {}              # specialization key -> (GeneratedFunction, inputs)
        self.in_progress = {}       # specialization key -> Specializer still running
        self.dedup = {}             # structural key -> GeneratedFunction
        self.entry = None
        # True when the code depends on an object reached from ``self`` beyond its type and its
        # guarded attributes (Specializer._instance_fact): not shared with other instances.
        self.instance_specific = False
        self.int_sites = []         # Origins of Python-int operators checked for overflow
        self.growing_int_sites = []     # those of them not a step by a small constant
        self.check_int = True       # jit(check_int_overflow=): False lets Python ints wrap
        self.random_seeded = False  # calls np.random.seed: NumPy's Gaussian cache is reset
        self.uses_random = False    # calls np.random: NumPy's state goes in and out
        # Where Numba's result would differ from NumPy's (passes.specialize Refusals.gap): with
        # ``defer_gaps`` the plain operation is kept and the refusal noted here; the pipeline
        # raises the first one unless the program runs as a NumPy graph (NumPy's own results).
        self.defer_gaps = False
        self.numba_gaps = []
        # The program runs as Python (the eager backend): NumPy's own calls give NumPy's
        # results there, no helper reproducing them is needed.
        self.runs_python = False
        self.calls_numba = False    # it calls a numba.njit function (analysis.numba_callees)
        # `raise` of user-defined exception classes: (origin, class name); compiled code
        # raises helpers.messages.USER_EXCEPTION there and the call runs again as Python
        self.user_raises = []
        # passes/attribute_stores.py: the instance whose attribute stores are written back
        self.writeback_instance = None
                                    # (transpiler.random_state)

    def checkpoint(self):
        """The program's size now, for :meth:`rollback`: O(1), so a converter can try each of
        thousands of functions in one program (a fresh program per try would specialize every
        callee again: quadratic in a chain of calls)."""
        return (self.entry,) + tuple(len(part) for part in self._parts())

    def rollback(self, state):
        """Forget everything added since :meth:`checkpoint` returned ``state`` (a failed
        specialization must not leave half a function, or its callees, behind). The lists
        and dicts only grow while specializing, in insertion order: trimming them restores
        them."""
        self.entry, sizes = state[0], state[1:]
        for part, size in zip(self._parts(), sizes):
            if isinstance(part, list):
                del part[size:]
            else:
                for key in list(part)[size:]:
                    del part[key]

    def functions_since(self, state):
        """The generated functions added since :meth:`checkpoint` returned ``state``."""
        return self.functions[state[1 + 3]:]   # state: entry, then the sizes of _parts()

    def _parts(self):
        return (self.roots, self._root_index, self.guards, self.functions, self.symbols,
                self._imports, self.memo, self.in_progress, self.dedup, self.numba_gaps)

    def root(self, obj):
        """The Path root for an extra root object (a globals dict or a closure cell)."""
        key = id(obj)
        if key not in self._root_index:
            self._root_index[key] = len(self.roots)
            self.roots.append(obj)
        return Path(((("root", self._root_index[key])),))

    def guard(self, path, kind, expected):
        # Roots are never guarded themselves, except static arguments (they are the values).
        if path is None or (len(path) == 1 and path[0][0] != "arg"):
            return
        old = self.guards.get(path)
        if old is not None and not (old.kind == "typekey" and kind == "eq"):
            return      # (a value guard holds more than a type guard: it replaces it)
        if path[0][0] == "root" and self._helper_root(path[0][1]):
            return      # graphjit's own helpers' globals: never rebound (a guard per call)
        self.guards[path] = Guard(path, kind, expected)

    def _helper_root(self, index):
        """Whether root ``index`` is the globals of one of graphjit's helper modules."""
        root = self.roots[index]
        return type(root) is dict and is_helper_module(root.get("__name__"))

    def guard_sign(self, path, nonneg):
        """Extend the ``"type"`` guard of an int argument with its sign."""
        old = self.guards.get(path)
        kind = old.expected if old is not None and old.kind == "type" else int
        self.guards[path] = Guard(path, "type_sign", (kind, bool(nonneg)))

    def import_symbol(self, module_name):
        """The symbol under which the generated module imports ``module_name``."""
        symbol = self._imports.get(module_name)
        if symbol is None:
            preferred = {"numpy": "np"}.get(module_name, module_name.replace(".", "_"))
            symbol = ModuleSymbol(preferred, "import", module_name)
            self._imports[module_name] = symbol
            self.symbols.append(symbol)
        return symbol

    def ir_symbol(self, form):
        """The symbol of a functional form (``cond``, ``while_loop``...; see transpiler.ir)."""
        symbol = self._imports.get(("ir", form))
        if symbol is None:
            symbol = ModuleSymbol(form, "ir", form)
            self._imports[("ir", form)] = symbol
            self.symbols.append(symbol)
        return symbol

    def ir_name(self, form):
        """The name of functional form ``form``'s symbol in the generated module (final once
        :meth:`finalize` has run: ``weak_1`` when a user's local is called ``weak``), or None
        when the program does not use it."""
        symbol = self._imports.get(("ir", form))
        return None if symbol is None else symbol.name

    def function_symbol(self, preferred):
        symbol = ModuleSymbol(preferred, "function", None)
        self.symbols.append(symbol)
        return symbol

    def imports(self):
        """``(module name, alias)`` for each module the generated code needs."""
        return [(s.payload, s.name) for s in self.symbols if s.kind == "import"]

    def ir_imports(self):
        """``(form, alias)`` for each functional form the program uses."""
        return [(s.payload, s.name) for s in self.symbols if s.kind == "ir"]

    def finalize(self, reserved=()):
        """Give every module symbol its final name, avoiding locals, builtins and ``reserved``."""
        taken = set(reserved)
        for fn in self.functions:
            taken |= fn.locals
        taken |= {name for name in dir(builtins) if not name.startswith("_")}
        for symbol in self.symbols:
            name = fresh(symbol.preferred, taken, separator="_")
            taken.add(name)
            symbol.name = name
            for node in symbol.nodes:
                if isinstance(node, gast.FunctionDef):
                    node.name = name
                else:
                    node.id = name
