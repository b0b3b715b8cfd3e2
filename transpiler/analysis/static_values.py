"""Static values: what the converter knows at transpile time, and how to re-read it per call.

A *static* value (a module, a function, a Cell or other object, a Python scalar held in an
attribute or a global) is resolved once, at transpile time. Each static value keeps the *path*
by which it was reached from a root (``self``, a module's globals, a closure cell, a static
argument), so the runtime can re-read it on every call and compare (a *guard*): a changed
attribute or a rebound global makes graphjit transpile again instead of running stale code.

Arrays and NumPy scalars reached the same way are never static: they become *runtime inputs*
of the generated code, read through their path on every call (docs/ARCHITECTURE.md, "Pipeline").
"""
import builtins
import importlib
import math
import operator
import types

import gast
import numpy as np

from .paths import Path  # noqa: F401 - re-exported: passes import it from here

# Python scalars that are frozen into generated code as constants (guarded by type and value).
SCALAR_TYPES = (bool, int, float, complex, str, type(None))

# Modules whose functions Numba implements itself: calls into them are kept as calls.
LIBRARY_ROOTS = frozenset({"numpy", "math", "cmath", "builtins", "numba", "operator"})

# Builtins that fold at transpile time when all their arguments are static.
FOLDABLE_BUILTINS = {len, isinstance, hasattr, getattr, type, callable, issubclass}


class Static:
    """A value known at transpile time, with the path that re-reads it (``None``: no guard)."""

    __slots__ = ("value", "path")

    def __init__(self, value, path=None):
        self.value = value
        self.path = path

    def __repr__(self):
        return f"Static({self.value!r})"


def is_runtime_value(value):
    """Arrays and NumPy scalars flow at run time: never frozen into generated code."""
    return isinstance(value, (np.ndarray, np.generic))


def is_scalar(value):
    """A Python scalar that becomes a constant in generated code."""
    return type(value) in SCALAR_TYPES or (
        isinstance(value, tuple) and all(type(v) in SCALAR_TYPES for v in value))


def library_reference(value):
    """Where Numba can find a library callable or module, or None.

    Returns:
        tuple[str, tuple[str, ...]] | None: the root module to import and the attribute chain
        from it, e.g. ``("numpy", ("linalg", "norm"))``; ``("builtins", ("len",))`` for a
        builtin.
    """
    if isinstance(value, types.ModuleType):
        parts = value.__name__.split(".")
        if parts[0] in LIBRARY_ROOTS:
            return parts[0], tuple(parts[1:])
        return None
    name = getattr(value, "__name__", None)
    if not isinstance(name, str):
        return None
    if getattr(builtins, name, None) is value:
        return "builtins", (name,)
    if isinstance(value, np.ufunc):
        return ("numpy", (name,)) if getattr(np, name, None) is value else None
    module_name = getattr(value, "__module__", None)
    if not isinstance(module_name, str):
        return None
    parts = module_name.split(".")
    if parts[0] not in LIBRARY_ROOTS:
        return None
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    if getattr(module, name, None) is not value:
        # numpy functions often live in private submodules; look for them on the root.
        root = importlib.import_module(parts[0])
        if getattr(root, name, None) is value:
            return parts[0], (name,)
        return None
    return parts[0], tuple(parts[1:]) + (name,)


def is_user_function(value):
    """A plain Python function outside the library modules: converted transitively."""
    return isinstance(value, types.FunctionType) and library_reference(value) is None


BINOPS = {
    gast.Add: operator.add, gast.Sub: operator.sub, gast.Mult: operator.mul,
    gast.Div: operator.truediv, gast.FloorDiv: operator.floordiv, gast.Mod: operator.mod,
    gast.Pow: operator.pow, gast.LShift: operator.lshift, gast.RShift: operator.rshift,
    gast.BitOr: operator.or_, gast.BitXor: operator.xor, gast.BitAnd: operator.and_,
    gast.MatMult: operator.matmul,
}
UNARYOPS = {gast.Not: operator.not_, gast.USub: operator.neg, gast.UAdd: operator.pos,
            gast.Invert: operator.invert}
CMPOPS = {
    gast.Eq: operator.eq, gast.NotEq: operator.ne, gast.Lt: operator.lt, gast.LtE: operator.le,
    gast.Gt: operator.gt, gast.GtE: operator.ge, gast.Is: operator.is_,
    gast.IsNot: operator.is_not, gast.In: lambda a, b: a in b,
    gast.NotIn: lambda a, b: a not in b,
}


def constant_node(value):
    """A gast expression for a Python scalar (or tuple of scalars) constant."""
    if isinstance(value, tuple):
        return gast.Tuple(elts=[constant_node(v) for v in value], ctx=gast.Load())
    if isinstance(value, float) and not math.isfinite(value):
        # repr() of inf/nan is not valid source: spell them as float('inf') / float('nan').
        call = gast.Call(func=gast.Name(id="float", ctx=gast.Load(), annotation=None,
                                        type_comment=None),
                         args=[gast.Constant(value=repr(abs(value)) if value == value
                                             else "nan", kind=None)], keywords=[])
        return gast.UnaryOp(op=gast.USub(), operand=call) if value < 0 else call
    if isinstance(value, (int, float, complex)) and not isinstance(value, bool) and (
            value.real < 0 or (isinstance(value, complex) and value.imag < 0)):
        return gast.UnaryOp(op=gast.USub(), operand=gast.Constant(value=-value, kind=None))
    return gast.Constant(value=value, kind=None)
