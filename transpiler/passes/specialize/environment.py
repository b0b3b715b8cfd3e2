"""The environment of static values: names, attributes and subscripts resolved at transpile time,
the guards that re-check them at each call, arrays read as runtime inputs, fresh local names,
materialization of static values into generated code, facts that make a program specific to an
instance, and constant folding.
"""
import inspect
import types

import gast
import numpy as np

from ...analysis.python_numbers import UNKNOWN
from ...analysis.static_values import (constant_node, is_runtime_value, is_scalar,
                                       library_reference, Path, Static)
from ...naming import fresh
from ...helpers.numpy_calls import masked_items
from ...registry import is_bound_jit_function
from ...type_keys import type_key
from ... import dynamic_numbers
from .nodes import _describe
from ...nodes import walk


_SELF = Path(((("self",)),))


def _instance_like(value):
    """An object whose identity or state can differ between instances of one class: not a
    scalar, module, class, function or method (those are the same for every instance)."""
    return not (is_scalar(value) or value is None or isinstance(value, (
        types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
        types.MethodType)) or callable(value) and not hasattr(value, "__dict__"))


# Index types a list read as an array takes as Python takes them (ScalarTypes' names).
_LIST_INDEX_TYPES = frozenset({"int"} | {f"np:{k}{b}" for k in ("int", "uint")
                                         for b in (8, 16, 32, 64)})


class Environment:
    """Static values: names, attributes, subscripts, their guards and inputs."""

    def new_local(self, base):
        """A fresh local variable name for a flag this pass introduces."""
        name = fresh(base, self.locals | set(self.inputs.values()))
        self.locals.add(name)
        return name

    def expr_Constant(self, node):
        return Static(node.value)

    def expr_Name(self, node):
        name = node.id
        if name in self.env:
            return self.env[name]
        if name in self.locals:
            read = gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)
            if id(node) in self.narrow:
                # Kept in float64 (ScalarTypes.float_storage); this read sees only np.float32
                # definitions: narrow it back (exact) so it computes as NumPy does.
                cast = getattr(np, self.narrow[id(node)])
                read = gast.Call(func=self.materialize(Static(cast), node), args=[read],
                                 keywords=[])
            return read
        if name in self.freevars:
            cell = self.freevars[name]
            try:
                value = cell.cell_contents
            except ValueError:
                self.fail(node, f"free variable {name!r} is not bound yet")
            return self.static(value, self.program.root(cell).child("cell", name), node)
        if name in self.fn_globals:
            path = self.program.root(self.fn_globals).child("[]", name)
            return self.static(self.fn_globals[name], path, node)
        builtin_ns = self.fn_globals.get("__builtins__", __builtins__)
        if isinstance(builtin_ns, types.ModuleType):
            builtin_ns = vars(builtin_ns)
        if name in builtin_ns:
            return Static(builtin_ns[name])
        self.fail(node, f"name {name!r} is not defined")

    def static(self, value, path, node):
        """A static value read through ``path``: guarded, or a runtime input if an array."""
        stored = self.program.writeback_instance
        if stored is not None and value is stored and path != _SELF:
            # passes/attribute_stores.py: its stores are written back at the call's end; read
            # another way (a global, `self.me`) the object would show the old values
            self.fail(node, "the object whose attributes this method stores is reached "
                            "another way too (a global, an attribute): its stores stay Python")
        if is_runtime_value(value):
            if path is None:
                self.fail(node, "this array is not reachable from a root graphjit can re-read")
            # The code was typed for this array's dtype and ndim (this scalar's type): NEP 50,
            # accumulators and result boxing follow from them. Another instance, or the same
            # attribute reassigned, must meet the same types or specialize again.
            self.program.guard(path, "typekey", type_key(value))
            return self.runtime_input(path)
        if (type(value) is float and path is not None and path[0][0] == "root"
                and len(path) == 2 and (path in self.program.dynamic_paths or
                                        dynamic_numbers.is_dynamic(
                                            self.fn.__code__, tuple(path[1:]), value))):
            # a closure factory's float (or a global) seen with another value before: read at
            # each call, so every closure shares one specialization (dynamic_numbers.py); by
            # every function of the program that reads it (a callee's constant would be stale)
            self.program.dynamic_paths.add(path)
            self.program.guard(path, "typekey", type_key(value))
            return self.runtime_input(path)
        if path is not None:
            if is_scalar(value):
                self.program.guard(path, "eq", value)
            elif isinstance(value, list):
                self.program.guard(path, "len", value)
            elif isinstance(value, types.MethodType) or is_bound_jit_function(value):
                # A bound method is a new object at every attribute read: guard the function
                # (its object is guarded through the path's parent).
                self.program.guard(path.child(".", "__func__"), "is", value.__func__)
            else:
                self.program.guard(path, "is", value)
        return Static(value, path)

    def runtime_input(self, path):
        name = self.inputs.get(path)
        if name is None:
            base = self._relative_name(path)
            name = fresh(base, set(self.inputs.values()) | self.locals, separator="_")
            self.inputs[path] = name
        return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)

    def _relative_name(self, path):
        """Name an input by its path from this function's own bindings (``self_weight``), so
        that specializations of one function on different objects are the same code."""
        best = None
        for param, static in self.bindings.items():
            prefix = static.path
            if prefix is not None and len(prefix) <= len(path) and path[:len(prefix)] == prefix:
                if best is None or len(prefix) > len(best[1]):
                    best = (param, prefix)
        if best is None:
            return path.name()
        param, prefix = best
        rest = Path(((("arg", 0)),) + path[len(prefix):]).name()
        return param + rest[len("arg0"):]

    def expr_Attribute(self, node):
        base = self.expr(node.value)
        if not isinstance(base, Static):
            if self.fidelity and node.attr.startswith("_") and not node.attr.startswith("__"):
                # Numba's own fields (a string's _data, _length): Python's values have none
                self.fail(node, f"the attribute {node.attr!r} of a value compiled code holds "
                                "(Numba's internal fields are not Python's)")
            return gast.Attribute(value=base, attr=node.attr, ctx=gast.Load())
        obj = base.value
        try:
            value = getattr(obj, node.attr)
        except AttributeError:
            if is_scalar(obj):
                return gast.Attribute(value=self.materialize(base, node.value),
                                      attr=node.attr, ctx=gast.Load())
            self.fail(node, f"{_describe(obj)} has no attribute {node.attr!r}")
        library = isinstance(obj, types.ModuleType) and library_reference(obj) is not None
        path = None if library or base.path is None else base.path.child(".", node.attr)
        if library:
            return Static(value)
        if id(node) in self.attribute_reads and path is not None:
            # an attribute the call stores (passes/attribute_stores.py): read at each call
            self.program.guard(path, "typekey", type_key(value))
            return self.runtime_input(path)
        return self.static(value, path, node)

    def expr_Subscript(self, node):
        if isinstance(node.value, gast.Name) and node.value.id in self.list_params:
            # a list read as an array (passes/list_arguments): Python indexes it by ints
            # (bool and np.integer through __index__); NumPy would read a bool as a mask
            found = self.scalar_types.of(node.slice) if self.scalar_types else set()
            if not found or not found <= _LIST_INDEX_TYPES:
                self.fail(node.slice, "this list index is not known to be an int (a bool, or "
                                      "anything else, indexes an array otherwise)")
        base = self.expr(node.value)
        index = self.expr(node.slice)
        if isinstance(base, Static) and isinstance(index, Static) and isinstance(
                base.value, (list, tuple, dict)) and is_scalar(index.value):
            try:
                value = base.value[index.value]
            except (IndexError, KeyError, TypeError):
                self.fail(node, "this static subscript fails in Python")
            path = base.path.child("[]", index.value) if base.path is not None else None
            return self.static(value, path, node)
        base = self.materialize(base, node.value) if isinstance(base, Static) else base
        index = self.materialize(index, node.slice) if isinstance(index, Static) else index
        if self.nd_mask(node.value, node.slice):
            # Numba indexes with 1-D masks only (an N-d one failed its typing)
            return self._call_helper(node, masked_items, [base, index])
        return gast.Subscript(value=base, slice=index, ctx=gast.Load())

    def straight_line(self):
        """Whether this function is straight-line code whose NumPy calls its NumPy graph
        runs as NumPy's own (backends/numpy_graph.py): no loop or branch."""
        return self.program.defer_gaps and not any(isinstance(n, (
            gast.For, gast.While, gast.If, gast.Try, gast.With, gast.IfExp))
            for n in walk(self.src.node))

    def nd_mask(self, base, index):
        """Whether ``base[index]`` indexes an N-d array (N >= 2) with a boolean array of as
        many dimensions (by their one type each)."""
        if not self.fidelity or self.scalar_types is None or isinstance(index, gast.Tuple):
            return False
        if self.straight_line():
            return False    # straight-line code: NumPy's own indexing in a NumPy graph
        kinds, masks = self.scalar_types.of(base), self.scalar_types.of(index)
        if len(kinds) != 1 or len(masks) != 1:
            return False
        kind, mask = next(iter(kinds)), next(iter(masks))
        if not (kind.startswith("arr:") and mask.startswith("arr:bool:")):
            return False
        return int(kind.split(":")[2]) >= 2 and kind.split(":")[2] == mask.split(":")[2]

    def _resolve_static(self, node):
        """The value of a Name or Attribute chain that is static here (a global, a closure
        cell, a static binding, a module attribute), without guarding it (the conversion of
        the expression guards what it uses); UNKNOWN otherwise."""
        if isinstance(node, gast.Name):
            name = node.id
            if name in self.env:
                return self.env[name].value
            if name in self.locals:
                return UNKNOWN
            if name in self.freevars:
                try:
                    return self.freevars[name].cell_contents
                except ValueError:
                    return UNKNOWN
            if name in self.fn_globals:
                return self.fn_globals[name]
            builtin_ns = self.fn_globals.get("__builtins__", __builtins__)
            if isinstance(builtin_ns, types.ModuleType):
                builtin_ns = vars(builtin_ns)
            return builtin_ns.get(name, UNKNOWN)
        if isinstance(node, gast.Attribute):
            base = self._resolve_static(node.value)
            if isinstance(base, types.ModuleType):
                return getattr(base, node.attr, UNKNOWN)
            if base is not UNKNOWN and not isinstance(base, type):
                # An attribute of a static object (`self.k`, a layer's weight), read without
                # running a property or other descriptor: the analyses only need its type.
                try:
                    value = inspect.getattr_static(base, node.attr)
                except AttributeError:
                    return UNKNOWN
                if isinstance(value, types.FunctionType) and node.attr not in getattr(
                        base, "__dict__", {}):
                    # a method defined in its class: bound here (binding a plain function
                    # runs no user code), so that its result is typed (callee_types)
                    return types.MethodType(value, base)
                return UNKNOWN if hasattr(type(value), "__get__") else value
        return UNKNOWN

    def materialize(self, static, node):
        """A generated expression for a static value used at run time."""
        value = static.value
        if self.fidelity and any(type(v) is int and not -2 ** 63 <= v < 2 ** 63 for v in (
                value if isinstance(value, tuple) else (value,))):
            # Numba would type it uint64 (or float64 where it merges): Python's int grows
            self.fail(node, f"the int {value!r} does not fit in int64 (compiled code would "
                            "hold it as a uint64 or a float)")
        if is_scalar(value):
            return constant_node(value)
        if isinstance(value, np.generic) and value.dtype.kind in "biufc" and \
                value.dtype.name not in ("float16", "longdouble", "clongdouble"):
            # a NumPy scalar (a callee's default np.float64(2.0)): its type's constructor
            # of the exact Python value (.item() of a float32 is the float32 value exactly)
            return gast.Call(func=self.materialize(Static(type(value)), node),
                             args=[constant_node(value.item())], keywords=[])
        if value is Ellipsis:     # a[...] = v: Numba indexes with it
            return gast.Constant(value=Ellipsis, kind=None)
        ref = library_reference(value)
        if ref is not None:
            module, chain = ref
            if module == "builtins":
                return gast.Name(id=chain[0], ctx=gast.Load(), annotation=None,
                                 type_comment=None)
            expr = self.program.import_symbol(module).ref()
            for attr in chain:
                expr = gast.Attribute(value=expr, attr=attr, ctx=gast.Load())
            return expr
        if isinstance(value, tuple) and all(library_reference(v) is not None for v in value):
            return gast.Tuple(elts=[self.materialize(Static(v), node) for v in value],
                              ctx=gast.Load())   # isinstance(x, (np.int32, np.int64))
        self.fail(node, f"{_describe(value) if not callable(value) else repr(value)} cannot be "
                        "used as a value in compiled code (only arrays, numbers, strings, "
                        "tuples of them and library functions can)")

    def _instance_fact(self, *statics):
        """Record that the code depends on these static objects beyond their type and the
        attributes read through guarded paths (their identity, ``len``, ``hasattr``): the
        program is then specific to this instance and never shared with others of its class
        (Program.instance_specific)."""
        if any(_instance_like(s.value) for s in statics):
            self.program.instance_specific = True

    def _compare_fact(self, ops, operands):
        """``self.a is self.b`` compares identities (instance state); ``self.act is None``
        depends only on the type (an object is never None, a scalar or a function)."""
        for op, a, b in zip(ops, operands, operands[1:]):
            if isinstance(op, (gast.Is, gast.IsNot)) and not (
                    _instance_like(a.value) and _instance_like(b.value)):
                continue
            self._instance_fact(a, b)

    def _truth_of(self, static):
        """A static object's truth value decides a branch: instance state when its class
        defines ``__bool__``/``__len__`` (a SequentialCell's length)."""
        kind = type(static.value)
        if _instance_like(static.value) and (hasattr(kind, "__bool__") or
                                             hasattr(kind, "__len__")):
            self.program.instance_specific = True

    def _fold(self, op, *operands):
        if op is None or not all(isinstance(o, Static) and is_scalar(o.value)
                                 for o in operands):
            return None
        try:
            result = op(*(o.value for o in operands))
        except Exception:  # noqa: BLE001 - e.g. 1/0: leave it to run time, as Python would
            return None
        return Static(result) if is_scalar(result) else None
