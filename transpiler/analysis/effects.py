"""Whether generated code is free of effects: it may then run again, as Python, after it stopped.

Compiled code cannot hold every value Python can: an int beyond int64 (``math.floor(1e300)``,
``3 ** 50``) or a complex power (``(-8.0) ** (1/3)``). It raises
one of transpiler.helpers.messages.NOT_REPRESENTABLE there instead. If the compiled function changed
nothing outside itself before that point, running the plain function from the start gives
exactly Python's result; the call then does so (transpiler.api). That is safe when the code
cannot change anything the caller can see: no store into an array or attribute it did not
create, no call that may mutate or draw random numbers.

The check reads the generated module's source (names as emitted), conservatively:

- stores ``x[...] = v`` / ``x[...] op= v`` / ``x op= v`` only into arrays the same function
  created (``np.zeros``/``empty``/``ones``/``full``, their ``_like`` forms, ``arange``,
  ``.copy()``, an operator's result: ``x * 2.0``; ``x[...] op= v`` not into an operator's
  result, which may hold the caller's objects) or lists, dicts and sets it created (a
  display, a comprehension, ``list(..)``, ``dict(..)``, ``set(..)``), whose methods
  (``append``, ``add``, ``update`` and the others of ``_LIST_METHODS``) change only that
  container; no attribute stores;
- calls only to functions of the generated module, ``math``, NumPy functions outside
  ``np.random`` without keywords (``out=`` writes), the builtins below, and array methods
  that return new values.
"""
import ast
from ..nodes import walk

_PURE_BUILTINS = frozenset({"range", "len", "abs", "min", "max", "float", "int", "bool",
                            "enumerate", "zip", "reversed", "sum", "any", "all",
                            "round", "complex", "divmod", "pow", "isinstance", "tuple",
                            "list", "dict", "set",
                            "ValueError", "OverflowError", "ZeroDivisionError", "IndexError",
                            "TypeError", "AssertionError", "RuntimeError", "KeyError",
                            "UnboundLocalError", "NameError"})
_NUMPY_MUTATING = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "random",
                             "put_along_axis", "seterr"})
_FRESH = frozenset({"zeros", "empty", "ones", "full", "zeros_like", "empty_like", "ones_like",
                    "full_like", "arange", "array", "copy", "linspace", "eye", "identity"})
# Array methods that return new values, with how many positional arguments they take before
# `out` (NumPy docs): `a.clip(lo, hi, out)` writes into out.
# Methods of a list that change only that list (a list the function created: ``_fresh``).
_LIST_METHODS = frozenset({"append", "insert", "extend", "pop", "clear", "reverse", "sort",
                           "remove", "index", "count", "copy",
                           # and of a dict or set it created
                           "add", "discard", "update", "setdefault", "get", "keys", "values",
                           "items", "popitem"})
_PURE_METHODS = {"sum": 2, "mean": 2, "min": 1, "max": 1, "copy": 1, "reshape": 99,
                 "astype": 99, "transpose": 99, "dot": 1, "item": 99, "ravel": 1, "flatten": 1,
                 "prod": 2, "std": 2, "var": 2, "all": 1, "any": 1, "argmax": 1, "argmin": 1,
                 "cumsum": 2, "cumprod": 2, "round": 1, "conjugate": 0, "nonzero": 0,
                 "clip": 2, "squeeze": 1}


def effect_free(source, islands=False):
    """Whether the jitted functions of generated module text ``source`` (str) are free of
    effects (module docstring). Anything not recognised counts as an effect; so does a call
    of a Python island (``python_island``: any Python runs there), unless ``islands``: the
    caller knows that none ran (transpiler.island_frames.Frame.ran)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    modules = {}
    defined = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "python_island" or islands:
                    defined.add(alias.asname or alias.name)
        elif isinstance(node, ast.FunctionDef):
            defined.add(node.name)
    jitted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and any(
        isinstance(d, ast.Name) and d.id == "_jit" for d in n.decorator_list)] or [
        # the eager backend: no decorator, every generated function but the guards
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name != "_prepare"]
    return bool(jitted) and all(_function_free(fn, modules, defined) for fn in jitted)


def _function_free(fn, modules, defined):
    fresh = _fresh(fn, modules)
    lists = _fresh(fn, modules, lists_only=True)
    # names whose elements are numbers the call made (a NumPy constructor's array): an
    # operator's result may be a list or tuple holding the caller's objects
    made = _fresh(fn, modules, operators=False)
    for node in walk(fn):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                node.target.id not in fresh:
            # The converter spells `x op= v` on numbers as `x = x op v`: what is left updates
            # an array in place (maybe an argument, or a view of one).
            return False
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript) and \
                isinstance(node.target.value, ast.Name) and (
                    node.target.value.id in lists or node.target.value.id not in made):
            return False    # `out[0] += v` updates in place the element, maybe an argument
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in walk(target):
                    if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store):
                        return False
                    if isinstance(part, ast.Subscript) and isinstance(part.ctx, ast.Store):
                        if not (isinstance(part.value, ast.Name) and part.value.id in fresh):
                            return False
        elif isinstance(node, ast.Call) and not _pure_call(node, modules, defined) and not (
                isinstance(node.func, ast.Attribute) and node.func.attr in _LIST_METHODS and
                isinstance(node.func.value, ast.Name) and node.func.value.id in fresh and
                not node.keywords):
            return False
        elif isinstance(node, (ast.Global, ast.Nonlocal, ast.Delete, ast.Yield)):
            return False
    return True


def _pure_call(node, modules, defined):
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in defined or (func.id in _PURE_BUILTINS and func.id not in modules)
    if isinstance(func, ast.Attribute):
        root = _root_module(func.value, modules)
        if root == "math":
            return True
        if root == "numpy":
            chain = _chain(func)
            if any(k.arg not in ("dtype", "axis", "ddof", "keepdims", "order")
                   for k in node.keywords) or set(chain) & _NUMPY_MUTATING:
                return False
            return len(node.args) <= _numpy_inputs(chain)
        if root is None and func.attr in _PURE_METHODS and not node.keywords:
            return len(node.args) <= _PURE_METHODS[func.attr]
        if root is None and func.attr == "type" and isinstance(func.value, ast.Attribute) \
                and func.value.attr == "dtype" and not node.keywords:
            return True     # a.dtype.type(v): a new NumPy scalar
    return False


def _numpy_inputs(chain):
    """How many positional arguments a NumPy function takes before any output argument:
    a ufunc's ``nin``; else the parameters before ``out`` in its signature; 2 when it has no
    readable signature (``np.dot(a, b, out)``)."""
    import inspect
    import numpy as np
    fn = np
    for name in reversed(chain):
        fn = getattr(fn, name, None)
    if isinstance(fn, np.ufunc):
        return fn.nin
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return 2
    return params.index("out") if "out" in params else len(params)


def _fresh(fn, modules, lists_only=False, operators=True):
    """Names every assignment of which creates a new array or list (``lists_only``: list;
    ``operators=False``: an operator's result does not count)."""
    verdict = {}
    for node in walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    ok = _creates_list(node.value, modules) if lists_only else \
                        _creates_array(node.value, modules, operators) or \
                        _creates_list(node.value, modules)
                    verdict[target.id] = verdict.get(target.id, True) and ok
                else:
                    for part in walk(target):
                        if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Store):
                            verdict[part.id] = False
        elif isinstance(node, ast.For):
            # (``x op= v`` on a name keeps its object: an array updated in place stays the
            # one the function made; on a number the converter spells ``x = x op v``)
            for part in walk(node.target):
                if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Store):
                    verdict[part.id] = False
    for arg in fn.args.args:
        verdict[arg.arg] = False
    return {name for name, ok in verdict.items() if ok}


def _creates_list(value, modules):
    """A list, dict or set display, comprehension or ``list(..)``/``dict(..)``/``set(..)``
    call: a new container (its elements may be the caller's objects)."""
    return isinstance(value, (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set,
                              ast.SetComp)) or (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and
        value.func.id in _CONTAINERS and value.func.id not in modules)


_CONTAINERS = ("list", "dict", "set")


def _creates_array(value, modules, operators=True):
    if operators and isinstance(value, (ast.BinOp, ast.UnaryOp)):
        return True     # an operator's result is a new object (never an operand's view)
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Attribute) and func.attr in _FRESH:
        return func.attr == "copy" or _root_module(func.value, modules) == "numpy"
    return False


def _chain(func):
    names = []
    while isinstance(func, ast.Attribute):
        names.append(func.attr)
        func = func.value
    return names


def _root_module(node, modules):
    while isinstance(node, ast.Attribute):
        node = node.value
    if isinstance(node, ast.Name) and node.id in modules:
        return modules[node.id].split(".")[0]
    return None
