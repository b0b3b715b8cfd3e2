"""Specialize: resolve static values and rewrite one function into generated code.

This pass walks one Python function with an environment of static values (``self``, static
arguments, globals, closure cells) and produces a :class:`~transpiler.program.GeneratedFunction`:

- names and attribute chains that resolve at transpile time are replaced: Python scalars by
  constants, arrays by runtime-input parameters, library functions by references into the
  imported module;
- ``if`` on a static condition is pruned to the branch taken;
- ``for`` over a static sequence (a list of layers, a tuple) is unrolled;
- calls to Cells, user functions and methods of user objects are specialized recursively, each
  into its own generated function, structurally identical ones shared;
- what it does not convert raises :class:`~transpiler.errors.UnsupportedConstruct` with the
  construct's origin.

Structured control flow (``if``/``while``/``for range``, ``break``, ``continue``, ``return``)
is kept as it is: Numba compiles it natively, and compiles it faster than functional forms passed
as callbacks (DESIGN.md, "Lower").
"""
import copy
import inspect
import keyword
import math
import re
import types
import warnings

import gast
import numpy as np

from ..analysis.definite_assignment import check_definite_assignment
from ..analysis.numpy_scalars import (COMPARISONS, UFUNCS, array_plan, operand_dtype as
                                      _ufunc_operand, plan as numpy_scalar_plan, ufunc_plan)
from ..analysis.python_numbers import UNKNOWN, Numbers
from ..analysis.scalar_types import (CALL as CALL_TYPE, UNKNOWN as UNKNOWN_TYPE, ScalarTypes,
                                     assigns, random_state_kept, sample as sample_of,
                                     type_of_value)
from ..analysis.scopes import local_names, parameter_names
from ..analysis.static_values import (
    BINOPS, CMPOPS, FOLDABLE_BUILTINS, LIBRARY_ROOTS, UNARYOPS, Path, Static, constant_node,
    is_runtime_value, is_scalar, is_user_function, library_reference)
from ..errors import UnsupportedConstruct
from ..fidelity import (DIFFERENT_MATH, FLOAT_MATH, NUM_CHECKED, NUMPY_BINOPS,
                        REPLACEMENT_ARITY, REPLACEMENTS, WEAK_ARRAY_BINOPS, WEAK_BINOPS,
                        checked_pow,
                        checked_pow_num, fit_int, int64_pow_bounds, int_pow, int_pow_bounded,
                        ALIKE_BINOPS, numpy_complex_div, numpy_floordiv_int64, numpy_int_pow,
                        numpy_lshift,
                        python_to_int_dtype, store_float_checked, store_int_checked,
                        store_numpy_float_unsigned, checked_round, numpy_rshift, python_complex_pow,
                        python_divmod_int, python_floordiv_int, python_lshift, python_rshift,
                        python_round_digits, numpy_round_digits, numpy_arange3, numpy_reshape,
                        numpy_random_seed, numpy_random_uniform, numpy_clip,
                        to_complex2, weak_left, weak_right)
from ..ir import int_add as ir_int_add, int_mul as ir_int_mul, int_sub as ir_int_sub
from ..ir import weak as ir_weak
from ..fidelity import __name__ as REPLACEMENTS_MODULE
from ..program import GeneratedFunction
from ..registry import is_bound_jit_function, is_cell, is_jit_function
from ..type_keys import type_key
from . import to_functional_form
from .lower_break_continue import guard
from ..nodes import contains, function_def
from .split_webs import split_webs
from ..source import FunctionSource, capture

_UNSUPPORTED_STMTS = {
    gast.Try: "try/except", gast.With: "a with block", gast.AsyncWith: "async with",
    gast.AsyncFor: "async for", gast.AsyncFunctionDef: "an async def",
    gast.ClassDef: "a class definition",
    gast.Global: "a global declaration", gast.Nonlocal: "a nonlocal declaration",
    gast.Import: "an import statement", gast.ImportFrom: "an import statement",
    gast.Delete: "a del statement",
}
_UNSUPPORTED_EXPRS = {
    gast.GeneratorExp: "a generator expression",
    gast.Yield: "yield", gast.YieldFrom: "yield from", gast.Await: "await",
    gast.NamedExpr: "an assignment expression (:=)", gast.SetComp: "a set comprehension",
    gast.DictComp: "a dict comprehension", gast.JoinedStr: "an f-string",
}
_TERMINATORS = (gast.Return, gast.Raise, gast.Break, gast.Continue)
# Builtins whose Numba versions give other results than Python's (str(1.5) is not '1.5';
# print formats dicts, floats and arrays its own way).
_DIFFERENT_BUILTINS = {str: "str()", repr: "repr()", format: "format()", hash: "hash()",
                       id: "id()", print: "print()"}
# Longest static sequence a `for` unrolls; beyond it the code would be too large to compile.
MAX_UNROLL = 4096


def _describe(value):
    return f"{type(value).__module__}.{type(value).__qualname__} object"


class LocalFunction:
    """A lambda or nested ``def`` of a converted function. It is static: each call is
    specialized into a generated function whose first parameters are the enclosing variables it
    reads (its *captures*), passed at the call with their current values (Python's closures
    read the variable at call time too; assigning them with ``nonlocal`` is not converted).

    Attributes:
        node (gast.FunctionDef): the definition (a lambda becomes ``def lambda(...)``).
        owner (FunctionSource): the enclosing function (its globals and file).
        captures (list[tuple[str, str]]): captured name -> variable holding it at the caller.
        static_captures (dict[str, Static]): captured names bound to static values.
        defaults (dict[str, Static]): default values, evaluated where it was defined.
        name (str): name for the generated function.
    """

    def __init__(self, node, owner, captures, static_captures, defaults, name):
        self.node = node
        self.owner = owner
        self.captures = captures
        self.static_captures = static_captures
        self.defaults = defaults
        self.name = name

    def with_captures(self, captures):
        return LocalFunction(self.node, self.owner, captures, self.static_captures,
                             self.defaults, self.name)

    def source(self):
        """A FunctionSource whose parameters are the captures followed by the function's."""
        node = copy.deepcopy(self.node)
        node.args = copy.deepcopy(node.args)
        node.args.args = [gast.Name(id=c, ctx=gast.Param(), annotation=None, type_comment=None)
                          for c, _ in self.captures] + node.args.args
        node.args.defaults = []
        return FunctionSource(self.owner.function, self.owner.filename, node)


class _Loop:
    """One enclosing loop: whether it was unrolled (then break/continue cannot be kept)."""

    def __init__(self, unrolled):
        self.unrolled = unrolled


class Specializer:
    """Specialize one Python function; see the module docstring.

    Args:
        program (Program): the program being built.
        source (FunctionSource): the parsed function.
        bindings (dict[str, Static]): parameters bound to static values (``self``, static
            arguments, static values passed by a caller).
    """

    def __init__(self, program, source, bindings, extra_params=(), python_params=(),
                 numpy_params=(), array_params=None, param_types=None, entry=False):
        self.program = program
        self.entry = entry          # the program's entry: its result reaches the caller
        self.tagged = None          # ScalarTypes.tagged: (name, dtype, python kind)
        self.tag = None             # the flag variable beside it
        self.extra_params = list(extra_params)
        self.recursive_calls = []   # (call node, calling Specializer, source node)
        self.symbol = None
        self.dynamic_params = []
        self.src = source
        self.fn = source.function
        code = getattr(self.fn, "__code__", None)
        if code is not None and code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE |
                                                 inspect.CO_ASYNC_GENERATOR):
            # A `yield` anywhere, even unreachable (`if 0: yield`), makes a generator function
            raise UnsupportedConstruct(
                f"a generator or coroutine function is not converted (in "
                f"{self.fn.__qualname__})", source.origin(source.node))
        self.env = dict(bindings)
        self.bindings = dict(bindings)
        self.locals = local_names(source.node)
        self.inputs = {}            # Path -> local parameter name
        self.loops = []
        self.nesting = 0            # depth of if/while/for around the current statement
        self.fn_globals = getattr(self.fn, "__globals__", {})
        code = self.fn.__code__
        self.freevars = dict(zip(code.co_freevars, self.fn.__closure__ or ()))
        # Which expressions are Python numbers (no NEP 50 `weak` needed against them; Python's
        # rules for `**`) and which are NumPy scalars (NumPy's rules for `**`, `/`, `//`, `%`).
        self.numbers = Numbers(source.node, self.locals - set(bindings), python_params,
                               self._resolve_static, numpy_params, array_params)
        # One name per web (passes.split_webs): Numba types each name once.
        numbers = self.numbers
        # Names that hold numbers on every path (types by path over the unsplit function):
        # their `x op= v` is a rebinding, an array's is an update in place.
        scalars = set()
        if param_types:
            params = parameter_names(source.node)
            before = ScalarTypes(source.node, {p: param_types.get(p, UNKNOWN_TYPE)
                                               for p in params if p not in bindings},
                                 self._resolve_static, UNKNOWN)
            scalars = {name for name, kinds in before.types.items() if kinds and all(
                k in ("int", "float", "bool", "complex") or k.startswith("np:")
                for k in kinds)}
        node, self.renamed = split_webs(source.node, lambda aug: (
            aug.target.id in numbers.kinds or numbers.is_numpy_scalar(aug.target)
            or numbers._python_here(aug.target) or aug.target.id in scalars))
        if self.renamed:
            self.src = source = FunctionSource(source.function, source.filename, node)
            self.locals = local_names(node)
            self.numbers = Numbers(node, self.locals - set(bindings), python_params,
                                   self._resolve_static, numpy_params, array_params)
        # Which types each name holds by path, where Numba's one type per name would differ.
        self.param_types = dict(param_types or {})
        self.weak_merges = {}       # name -> dtype: Python numbers assigned to it are converted
        self.result_types = None    # ScalarTypes.result_types: the result's NumPy box
        self.scalar_types = None
        self.narrow = {}            # id(read) -> dtype: a float64-stored read narrowed back
        self.python_numbers = set(self.numbers.kinds)
        self.fidelity = self.fn.__module__ != REPLACEMENTS_MODULE
        self._int_safe = None       # analysis.int_bounds.safe_names, when first needed
        self._container_names = None   # names assigned a dict/list/set display (stmt_Raise)
        self.python_values = {}     # entry parameters called with Python numbers: (path, value)

    # -- entry ------------------------------------------------------------------------------

    def run(self, symbol):
        """Build the generated function under module symbol ``symbol``."""
        node = self.src.node
        params = parameter_names(node)
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs:
            self.fail(node, "*args, **kwargs and keyword-only parameters are not converted yet")
        self.symbol = symbol
        self.dynamic_params = dynamic = self.extra_params + [p for p in params
                                                             if p not in self.env]
        if self.fidelity:
            types = ScalarTypes(node, {p: self.param_types.get(p, UNKNOWN_TYPE) for p in params
                                       if p not in self.env}, self._resolve_static, UNKNOWN,
                                int_power=self._int_power, reaching=self.numbers._reaching)
            # Only the entry's result is boxed by the caller (a converted callee's result
            # stays in compiled code), and a recursive call would read the flag too.
            may_tag = self.entry and not _calls_itself(node, self.fn.__name__)
            self.weak_merges = types.weak_merges(tag_result=may_tag)
            self.tagged = types.tagged
            if self.tagged is None and may_tag:
                self.tagged = types.alike_tag()
            if self.tagged:
                self.tag = self.new_local(f"{self.tagged[0]}_is_python")
            self.narrow = types.float_storage(self.weak_merges)
            self.scalar_types = types
            self.result_types = types.result_types()
            for where, reason in types.problems(self.weak_merges, self.renamed):
                self.fail(where, reason)
            if self.fidelity:
                self._check_list_elements(node)
        body = self.block(node.body, top=True)
        if self.tagged and self.scalar_types.tag_param is not None:
            body.insert(0, gast.copy_location(gast.Assign(
                targets=[_store(self.tag)],
                value=gast.Constant(value=self.scalar_types.tag_param, kind=None),
                type_comment=None), node))
        if self.tagged and self.recursive_calls:
            self.fail(node, "a recursive function whose result is a Python number or a NumPy "
                            "scalar by path")
        if not body:
            body = [gast.Return(value=None)]
        taken = set(self.locals)
        names = []
        for path, _ in sorted(self.inputs.items(), key=lambda item: item[1]):
            names.append((self.inputs[path], path))
        for name, _ in names:
            taken.add(name)
        fdef = gast.copy_location(
            function_def(symbol.name, dynamic + [n for n, _ in names], body), node)
        for call, caller, where in self.recursive_calls:
            if caller is self:
                call.args += [_load(name) for name, _ in names]
            elif names:
                caller.fail(where, "mutual recursion through functions that read arrays held "
                                   "by objects is not converted yet")
        local_vars = (self.locals - set(self.env)) | set(dynamic) | {n for n, _ in names}
        check_definite_assignment(fdef, local_vars, self.src.filename, self.fn.__qualname__)
        taken |= to_functional_form(fdef, local_vars,
                                    lambda form: self.program.ir_symbol(form).ref())
        symbol.nodes.append(fdef)
        generated = GeneratedFunction(symbol, fdef, dynamic, names, self.src.filename,
                                      self.fn.__qualname__, taken)
        generated.result_types = self.result_types
        generated.tagged = self.tagged
        return generated

    # -- errors -----------------------------------------------------------------------------

    def fail(self, node, reason):
        raise UnsupportedConstruct(f"{reason} (in {self.fn.__qualname__})",
                                   self.src.origin(node))

    # -- statements -------------------------------------------------------------------------

    def block(self, stmts, top=False):
        out = []
        for i, stmt in enumerate(stmts):
            if top and i == 0 and isinstance(stmt, gast.Expr) and isinstance(
                    stmt.value, gast.Constant) and isinstance(stmt.value.value, str):
                continue  # docstring
            for new in self.stmt(stmt):
                if getattr(new, "lineno", None) is None:
                    gast.copy_location(new, stmt)
                out.append(new)
            if out and isinstance(out[-1], _TERMINATORS):
                break  # the rest is unreachable (e.g. after a pruned `if ...: return`)
        return out

    def stmt(self, node):
        kind = type(node)
        if kind in _UNSUPPORTED_STMTS:
            self.fail(node, f"{_UNSUPPORTED_STMTS[kind]} is not converted")
        method = getattr(self, "stmt_" + kind.__name__, None)
        if method is None:
            self.fail(node, f"the statement {kind.__name__} is not converted")
        out = method(node)
        if self.tagged:
            out = out + self._tag_update(node)
        return out

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

    def stmt_Expr(self, node):
        return [gast.Expr(value=self.value(node.value))]

    def stmt_Pass(self, node):
        return [gast.Pass()]

    def stmt_Assign(self, node):
        if isinstance(node.value, gast.Lambda) and len(node.targets) == 1 and isinstance(
                node.targets[0], gast.Name):
            self._define_local(node.targets[0].id, node.value)
            return []
        value = self.value(node.value)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Subscript):
            value = self._checked_store(node, node.targets[0], node.value, value)
        if len(node.targets) == 1 and isinstance(node.targets[0], gast.Name) and \
                node.targets[0].id in self.weak_merges and not (
                    self.scalar_types.of(node.value) & {"np:" + self.weak_merges[
                        node.targets[0].id]}):
            # Every read converts it to this dtype anyway (ScalarTypes.weak_merges): convert
            # it here, so that Numba gives the variable that one type.
            cast = getattr(np, self.weak_merges[node.targets[0].id])
            value = gast.copy_location(gast.Call(func=self.materialize(Static(cast), node),
                                                 args=[value], keywords=[]), node.value)
        return [gast.Assign(targets=[self.target(t) for t in node.targets], value=value,
                            type_comment=None)]

    def _checked_store(self, node, target, source, value, kinds=None):
        """``value`` (the user's ``source``; its types ``kinds`` when known otherwise) stored
        into an element of an integer array as NumPy 2's setitem stores it (measured per
        target and value type, NumPy 2.4): into a signed array every value is converted as
        ``int()`` converts it, and one that does not fit raises OverflowError (nan:
        ValueError); into an unsigned array a Python int or float is so too, while a NumPy
        integer wraps and a NumPy float is converted through int64 (C's conversion). Numba
        wraps everything (and a float out of range is undefined). Complex values fall back."""
        if not self.fidelity or self.scalar_types is None:
            return value
        base = self.scalar_types.of(target.value)
        if len(base) != 1 or not next(iter(base)).startswith("arr:"):
            return value
        parts = next(iter(base)).split(":")
        ndim = int(parts[2])
        index = target.slice.elts if isinstance(target.slice, gast.Tuple) else [target.slice]
        if len(index) != ndim or any(isinstance(i, gast.Slice) for i in index):
            return value     # a store into a slice: broadcast by NumPy's casting rules
        dtype = np.dtype(parts[1])
        kinds = self.scalar_types.of(source) if kinds is None else kinds
        if dtype.kind not in "iu" or len(kinds) != 1:
            return value
        kind = next(iter(kinds))
        if kind == "np:" + dtype.name:
            return value
        if not (kind in ("int", "bool", "float", "complex") or kind.startswith("np:")):
            return value
        # a Python number as compiled code holds it (int64, float64, complex128)
        source_dtype = np.dtype(_ufunc_operand(kind))
        if source_dtype.kind == "c":
            self.fail(node, f"a complex value stored into an {dtype.name} array (NumPy "
                            "raises or warns by type)")
        python = kind in ("int", "float", "bool")
        info = np.iinfo(dtype)
        if source_dtype.kind in "biu":
            if dtype.kind == "u" and not python:
                return value                      # a NumPy integer wraps, as in Numba
            constant = self.numbers.constant(source)
            if constant is not None and info.min <= constant <= info.max:
                return value
            if source_dtype.kind == "b":
                return value
            own = np.iinfo(source_dtype)
            low, high = max(info.min, own.min), min(info.max, own.max)
            if low == own.min and high == own.max:
                return value                      # every value of its type fits
            return self._call_helper(node, store_int_checked, [
                value, self._np_cast(source_dtype.name, constant_node(int(low)), node),
                self._np_cast(source_dtype.name, constant_node(int(high)), node)])
        # a float
        if dtype.kind == "u" and not python:
            bound = 2.0 ** 31 if dtype.itemsize <= 2 else 2.0 ** 63
            return self._call_helper(node, store_numpy_float_unsigned, [
                value, constant_node(-bound - (1.0 if bound < 2 ** 53 else 2048.0)),
                constant_node(bound)])
        low = float(info.min) - 1.0
        if low == float(info.min):
            low = float(np.nextafter(float(info.min), -np.inf))
        return self._call_helper(node, store_float_checked, [
            value, constant_node(low), constant_node(float(info.max) + 1.0)])

    def stmt_AnnAssign(self, node):
        if node.value is None:
            return []
        return [gast.Assign(targets=[self.target(node.target)], value=self.value(node.value),
                            type_comment=None)]

    def stmt_AugAssign(self, node):
        target = node.target
        if isinstance(target, gast.Subscript) and any(
                isinstance(n, gast.Slice) for n in gast.walk(target.slice)):
            base = {n.id for n in gast.walk(target.value) if isinstance(n, gast.Name)}
            if base & {n.id for n in gast.walk(node.value) if isinstance(n, gast.Name)}:
                # NumPy buffers an in-place ufunc whose input overlaps its output; Numba
                # does not (out[1:] += out[:-1] gives running sums there).
                self.fail(node, "an in-place update of an array slice from the same array "
                                "(NumPy and Numba differ when the views overlap)")
        target = self.target(node.target)
        hoisted = []
        if isinstance(target, gast.Subscript) and _pure(target.value) and not _pure(
                target.slice) and not any(isinstance(n, gast.Slice)
                                          for n in gast.walk(target.slice)):
            # `a[f(i)] op= v` reads and writes one element: evaluate the index once, first
            # (as Python does), so that the element can be named twice below.
            index = self.new_local("index")
            hoisted.append(gast.Assign(targets=[_store(index)], value=target.slice,
                                       type_comment=None))
            target = gast.Subscript(value=target.value, slice=_load(index), ctx=gast.Store())
        value = self.expr(node.value)
        if isinstance(target, gast.Name) or (isinstance(target, gast.Subscript) and
                                             _pure(target)):
            current = _as_load(target)
            target_kinds = self.scalar_types.of(node.target) if self.scalar_types else set()
            if target_kinds and all(k.startswith("arr:") for k in target_kinds):
                # an array updated in place: NumPy's loop, its result cast into the array
                inplace = self._inplace_array_update(node, target, value, target_kinds)
                if inplace is not None:
                    return hoisted + [inplace]
            exact = None if target_kinds and all(k.startswith("arr:") for k in target_kinds) \
                else self._numpy_scalar_op(node, node.op, [current, value],
                                           [node.target, node.value])
            if exact is None and isinstance(target, gast.Name):
                exact = self._python_number_op(node, node.op, [current, value],
                                               [node.target, node.value])
            if exact is None and isinstance(target, gast.Name):
                exact = self._alike_op(node, node.op, [current, value],
                                       [node.target, node.value])
            if isinstance(target, gast.Subscript) and self.scalar_types is not None:
                result = self.scalar_types.of(gast.BinOp(left=node.target, op=node.op,
                                                         right=node.value))
                update = exact if exact is not None else gast.BinOp(
                    left=current, op=node.op, right=self._m(value, node.value))
                checked = self._checked_store(node, node.target, node.value, update, result)
                if checked is not update or exact is not None:
                    return hoisted + [gast.Assign(targets=[target], value=checked,
                                                  type_comment=None)]
            if exact is not None:
                return hoisted + [gast.Assign(targets=[target], value=exact, type_comment=None)]
        weak_value = self._python_number(value, node.value)
        strong_target = (isinstance(target, gast.Name) and target.id not in self.python_numbers
                         ) or (isinstance(target, gast.Subscript) and _pure(target))
        like = _as_load(target)
        if weak_value and strong_target and self.fidelity:
            value = self._weak(value, node.value, like)
        value = self._m(value, node.value)
        source = node.target    # the analyses know the original node (its ctx aside)
        scalar_target = (isinstance(target, gast.Name) and (
            target.id in self.python_numbers or self.numbers.is_numpy_scalar(source))) or (
            isinstance(target, gast.Subscript) and _pure(target)
            and self.numbers.is_numpy_scalar(source))
        if scalar_target:
            # `x op= v` on a number is `x = x op v`: the checked operators apply.
            call = self._checked_binop(node, node.op, like, value, source, node.value)
            if call is not None:
                return hoisted + [gast.Assign(targets=[target], value=call, type_comment=None)]
        if isinstance(target, gast.Name) and self._may_be_python_int(
                node.op, [current, value], [node.target, node.value]):
            return hoisted + [gast.Assign(targets=[target], value=self._checked_int(
                node, _CHECKED_BINOPS[type(node.op)], [like, value]), type_comment=None)]
        if isinstance(target, gast.Name) and (scalar_target or self._holds_numbers(target.id)):
            # Spelled as a rebinding, so that an `x op= v` left in the generated code is an
            # in-place update of an array (analysis.effects relies on it).
            return hoisted + [gast.Assign(targets=[target], value=gast.BinOp(
                left=like, op=node.op, right=value), type_comment=None)]
        return hoisted + [gast.AugAssign(target=target, op=node.op, value=value)]

    def _int_power(self, node):
        """Whether ``_checked_binop`` converts ``node`` (a ``**`` of Python numbers) as an int
        power: both kinds int (python_numbers) and an exponent known >= 0, or an int argument
        never reassigned that the code is specialized on being >= 0. Else it is
        ``checked_pow``, a float. (``_checked_binop``'s decision, taken before the body is
        converted.)"""
        numbers = self.numbers
        if (numbers.kind(node.left), numbers.kind(node.right)) != ("int", "int"):
            return False
        exponent = numbers.constant(node.right)
        if exponent is None and isinstance(node.right, gast.Name) and \
                node.right.id in self.python_values and node.right.id not in numbers.assigned:
            exponent = self.python_values[node.right.id][1]
        return (exponent is not None and exponent >= 0) or numbers.is_nonneg(node.right)

    def _integer_typed(self, node):
        """Whether ``node`` is an integer NumPy scalar or array on every path."""
        if self.scalar_types is None:
            return False
        kinds = self.scalar_types.of(node)
        return bool(kinds) and all(
            (k.startswith("np:") or k.startswith("arr:")) and
            np.dtype(k.split(":")[1]).kind in "iu" for k in kinds)

    def _holds_numbers(self, name):
        """Whether every type ``name`` may hold is a number (analysis.scalar_types)."""
        kinds = self.scalar_types.types.get(name) if self.scalar_types else None
        return bool(kinds) and all(k in ("int", "float", "bool", "complex") or
                                   k.startswith("np:") for k in kinds)

    def stmt_Return(self, node):
        if self.tagged:     # `return s` -> `return (s, s_is_python)`: see _tag_update
            return [gast.Return(value=gast.Tuple(elts=[self.value(node.value), _load(self.tag)],
                                                 ctx=gast.Load()))]
        return [gast.Return(value=None if node.value is None else self.value(node.value))]

    def stmt_Raise(self, node):
        if isinstance(node.exc, gast.Call):
            if self._container_names is None:   # names bound to a container display
                self._container_names = {
                    t.id for n in gast.walk(self.src.node) if isinstance(n, gast.Assign)
                    and isinstance(n.value, _CONTAINERS) for t in n.targets
                    if isinstance(t, gast.Name)}
            for arg in node.exc.args:
                if isinstance(arg, _CONTAINERS) or (isinstance(arg, gast.Name) and
                                                    arg.id in self._container_names):
                    # Numba hands over its own object: a typed dict for {'a': 1}
                    self.fail(arg, "an exception argument that is a dict, list or set "
                                   "(Numba would hand over its own typed container)")
        return [gast.Raise(exc=None if node.exc is None else self.value(node.exc),
                           cause=None if node.cause is None else self.value(node.cause))]

    def stmt_Assert(self, node):
        return [gast.Assert(test=self.value(node.test),
                            msg=None if node.msg is None else self.value(node.msg))]

    def stmt_If(self, node):
        test = self.expr(node.test)
        if isinstance(test, Static):
            self._truth_of(test)
            try:
                taken = bool(test.value)
            except Exception:  # noqa: BLE001 - a __bool__ that raises: let Python raise it
                self.fail(node.test, "the truth value of this static condition raises")
            return self.block(node.body if taken else node.orelse)
        self.nesting += 1
        body, orelse = self.block(node.body) or [gast.Pass()], self.block(node.orelse)
        self.nesting -= 1
        return [gast.If(test=test, body=body, orelse=orelse)]

    def stmt_While(self, node):
        test = self.value(node.test)
        self.loops.append(_Loop(False))
        self.nesting += 1
        body = self.block(node.body) or [gast.Pass()]
        self.nesting -= 1
        self.loops.pop()
        return [gast.While(test=test, body=body, orelse=self.block(node.orelse))]

    # -- lambdas and nested defs ------------------------------------------------------------

    def stmt_FunctionDef(self, node):
        if node.decorator_list:
            self.fail(node, "a decorated nested def is not converted")
        self._define_local(node.name, node)
        return []

    def expr_Lambda(self, node):
        return Static(self._local_function(node, "lambda"))

    def _define_local(self, name, node):
        """Bind ``name`` to a lambda or nested def: calls to it are specialized."""
        stores = sum(1 for n in gast.walk(self.src.node)
                     if (isinstance(n, gast.Name) and n.id == name
                         and isinstance(n.ctx, (gast.Store, gast.Del)))
                     or (isinstance(n, gast.FunctionDef) and n.name == name
                         and n is not self.src.node))
        if stores != 1 or self.nesting:
            self.fail(node, f"the local function {name!r} must be defined once, at the top "
                            "level of the function body, to be converted")
        self.env[name] = Static(self._local_function(node, name))

    def _local_function(self, node, name):
        if isinstance(node, gast.Lambda):
            fdef = gast.FunctionDef(
                name=name, args=node.args, body=[gast.copy_location(
                    gast.Return(value=node.body), node.body)],
                decorator_list=[], returns=None, type_comment=None, type_params=[])
            gast.copy_location(fdef, node)
        else:
            fdef = node
        args = fdef.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            self.fail(node, "*args, **kwargs and keyword-only parameters are not converted yet")
        defaults = {}
        for param, default in zip(reversed(args.args), reversed(args.defaults)):
            value = self.expr(default)
            if not isinstance(value, Static):
                self.fail(default, "a default value that is not known at transpile time")
            defaults[param.id] = value
        inner = local_names(fdef)
        free = sorted({n.id for n in gast.walk(fdef) if isinstance(n, gast.Name)
                       and isinstance(n.ctx, gast.Load)} - inner)
        captures, static_captures = [], {}
        for var in free:
            if var in self.env:
                static_captures[var] = self.env[var]
                inner_fn = self.env[var].value
                if isinstance(inner_fn, LocalFunction):
                    # It calls another local function: what that one captures must reach it
                    # too, so it is captured here as well (under the same names).
                    for _, held in inner_fn.captures:
                        if held not in free and held in self.locals and (
                                held, held) not in captures:
                            captures.append((held, held))
            elif var in self.locals:
                captures.append((var, var))
        for var in inner:
            if var in self.env and var not in static_captures and var not in parameter_names(
                    fdef):
                static_captures.pop(var, None)
        return LocalFunction(fdef, self.src, captures, static_captures, defaults,
                             f"{_generated_name(self.fn)}_{name}")

    def stmt_Break(self, node):
        return self._loop_control(node, gast.Break())

    def stmt_Continue(self, node):
        return self._loop_control(node, gast.Continue())

    def _loop_control(self, node, new):
        return [new]  # in an unrolled loop, _unroll lowers it to a flag

    def stmt_For(self, node):
        items = self._static_items(node.iter)
        if items is not None:
            return self._unroll(node, items)
        iterable = self.expr(node.iter)
        if isinstance(iterable, Static):
            seq = iterable.value
            if isinstance(seq, (list, tuple)):
                return self._unroll(node, [self._element(iterable, i, node.iter)
                                           for i in range(len(seq))])
            if not isinstance(seq, range):
                self.fail(node.iter, f"cannot iterate over static {_describe(seq)}")
            iterable = self.materialize(iterable, node.iter)  # a range of constants
        target = self.target(node.target)
        self.loops.append(_Loop(False))
        self.nesting += 1
        body = self.block(node.body) or [gast.Pass()]
        self.nesting -= 1
        self.loops.pop()
        return [gast.For(target=target, iter=iterable, body=body,
                         orelse=self.block(node.orelse), type_comment=None)]

    def _element(self, seq, index, node):
        path = seq.path.child("[]", index) if seq.path is not None else None
        return self.static(seq.value[index], path, node)

    def _static_items(self, node):
        """The items of ``enumerate``/``zip`` over static sequences, or None."""
        if not (isinstance(node, gast.Call) and not node.keywords and node.args and not any(
                isinstance(a, gast.Starred) for a in node.args)):
            return None
        callee = self.expr(node.func)
        if not isinstance(callee, Static) or not _hashable(callee.value) or \
                callee.value not in (enumerate, zip):
            return None
        args = [self.expr(a) for a in node.args]
        if callee.value is enumerate and 1 <= len(args) <= 2:
            seq, start = args[0], args[1] if len(args) == 2 else Static(0)
            if not (isinstance(seq, Static) and isinstance(seq.value, (list, tuple))
                    and isinstance(start, Static) and type(start.value) is int):
                return None
            return [(Static(start.value + i), self._element(seq, i, node))
                    for i in range(len(seq.value))]
        if callee.value is zip and all(isinstance(a, Static) and isinstance(
                a.value, (list, tuple)) for a in args):
            length = min(len(a.value) for a in args)
            return [tuple(self._element(a, i, node) for a in args) for i in range(length)]
        return None

    def _bind(self, target, item):
        if isinstance(target, gast.Name):
            self.env[target.id] = item
            return
        if isinstance(target, (gast.Tuple, gast.List)) and isinstance(item, tuple) and len(
                target.elts) == len(item):
            for sub_target, sub_item in zip(target.elts, item):
                self._bind(sub_target, sub_item)
            return
        if isinstance(target, (gast.Tuple, gast.List)) and isinstance(item, Static) and \
                isinstance(item.value, tuple) and len(item.value) == len(target.elts):
            for i, sub_target in enumerate(target.elts):
                self._bind(sub_target, self._element(item, i, target))
            return
        self.fail(target, "this loop target does not fit the static sequence's elements")

    def _unroll(self, node, items):
        """Unroll ``for target in <static sequence>``: one copy of the body per element.

        A ``break``/``continue`` of this loop becomes a flag: each later copy runs under
        ``if not break_:`` (flat, so a long sequence nests nothing)."""
        if len(items) > MAX_UNROLL:
            self.fail(node.iter, f"a static sequence of {len(items)} elements is too long to "
                                 f"unroll (limit {MAX_UNROLL})")
        bound = [n.id for n in gast.walk(node.target) if isinstance(n, gast.Name)]
        saved = {name: self.env.get(name) for name in bound}
        has_break = contains(node.body, gast.Break)
        has_continue = contains(node.body, gast.Continue)
        out = []
        broke = self.new_local("break_") if has_break else None
        if broke:
            out.append(gast.copy_location(_assign(broke, False), node))
        self.loops.append(_Loop(True))
        self.nesting += 1
        for index, item in enumerate(items):
            self._bind(node.target, item)
            body = self.block(copy.deepcopy(node.body))
            if has_continue:
                flag = self.new_local("continue_")
                body = [gast.copy_location(_assign(flag, False), node)] + guard(
                    body, gast.Continue, flag)
            if broke:
                body = guard(body, gast.Break, broke)
                if index and body:
                    body = [gast.copy_location(gast.If(
                        test=gast.UnaryOp(op=gast.Not(), operand=_load(broke)), body=body,
                        orelse=[]), node)]
            out.extend(body)
        self.nesting -= 1
        self.loops.pop()
        for name, value in saved.items():
            if value is None:
                self.env.pop(name, None)
            else:
                self.env[name] = value
        orelse = self.block(node.orelse)
        if broke and orelse:
            orelse = [gast.copy_location(gast.If(
                test=gast.UnaryOp(op=gast.Not(), operand=_load(broke)), body=orelse,
                orelse=[]), node)]
        return out + orelse

    def new_local(self, base):
        """A fresh local variable name for a flag this pass introduces."""
        name, n = base, 1
        used = self.locals | set(self.inputs.values())
        while name in used:
            name = f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
            n += 1
        self.locals.add(name)
        return name

    # -- assignment targets -----------------------------------------------------------------

    def target(self, node):
        if isinstance(node, gast.Name):
            if node.id in self.env:
                self.fail(node, f"cannot assign to {node.id!r}: it is bound to a static value")
            return gast.Name(id=node.id, ctx=gast.Store(), annotation=None, type_comment=None)
        if isinstance(node, (gast.Tuple, gast.List)):
            return type(node)(elts=[self.target(e) for e in node.elts], ctx=gast.Store())
        if isinstance(node, gast.Attribute):
            base = self.expr(node.value)
            if isinstance(base, Static):
                self.fail(node, f"assigning attribute {node.attr!r} of a static object is not "
                                "converted (compiled code cannot change Python objects)")
            return gast.Attribute(value=base, attr=node.attr, ctx=gast.Store())
        if isinstance(node, gast.Subscript):
            return gast.Subscript(value=self.value(node.value), slice=self.value(node.slice),
                                  ctx=gast.Store())
        if isinstance(node, gast.Starred):
            return gast.Starred(value=self.target(node.value), ctx=gast.Store())
        self.fail(node, f"cannot assign to {type(node).__name__}")

    # -- expressions ------------------------------------------------------------------------

    def value(self, node):
        """Rewrite ``node`` into a generated expression (static values materialized)."""
        result = self.expr(node)
        return self.materialize(result, node) if isinstance(result, Static) else result

    def expr(self, node):
        """Rewrite ``node``: a :class:`Static` when known at transpile time, else a gast node."""
        if isinstance(node, _Converted):
            return node.value
        kind = type(node)
        if kind in _UNSUPPORTED_EXPRS:
            self.fail(node, f"{_UNSUPPORTED_EXPRS[kind]} is not converted")
        method = getattr(self, "expr_" + kind.__name__, None)
        if method is not None:
            result = method(node)
        else:
            result = self._generic(node)
        if not isinstance(result, Static) and getattr(result, "lineno", None) is None:
            gast.copy_location(result, node)
        return result

    def _generic(self, node):
        """Rebuild any other expression with its sub-expressions rewritten."""
        new = copy.copy(node)
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                setattr(new, field, [self._child(item) for item in old])
            else:
                setattr(new, field, self._child(old))
        return new

    def _child(self, item):
        if isinstance(item, gast.expr):
            if isinstance(getattr(item, "ctx", None), gast.Store):
                return self.target(item)
            return self.value(item)
        if isinstance(item, gast.comprehension):
            return gast.comprehension(target=self.target(item.target),
                                      iter=self.value(item.iter),
                                      ifs=[self.value(i) for i in item.ifs], is_async=0)
        if isinstance(item, gast.keyword):
            return gast.keyword(arg=item.arg, value=self.value(item.value))
        return item

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
        if is_runtime_value(value):
            if path is None:
                self.fail(node, "this array is not reachable from a root graphjit can re-read")
            # The code was typed for this array's dtype and ndim (this scalar's type): NEP 50,
            # accumulators and result boxing follow from them. Another instance, or the same
            # attribute reassigned, must meet the same types or specialize again.
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
            name = base
            used = set(self.inputs.values()) | self.locals
            n = 1
            while name in used:
                name = f"{base}_{n}"
                n += 1
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
        return self.static(value, path, node)

    def expr_Subscript(self, node):
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
        return gast.Subscript(value=base, slice=index, ctx=gast.Load())

    def expr_Tuple(self, node):
        elts = [self.expr(e) for e in node.elts]
        if all(isinstance(e, Static) for e in elts) and not any(
                isinstance(e, gast.Starred) for e in node.elts):
            return Static(tuple(e.value for e in elts))
        return gast.Tuple(elts=[self.materialize(e, n) if isinstance(e, Static) else e
                                for e, n in zip(elts, node.elts)], ctx=gast.Load())

    def expr_BinOp(self, node):
        left, right = self.expr(node.left), self.expr(node.right)
        folded = self._fold(BINOPS.get(type(node.op)), left, right)
        if folded is not None:
            return folded
        exact = self._numpy_scalar_op(node, node.op, [left, right], [node.left, node.right])
        if exact is not None:
            return exact
        python = self._python_number_op(node, node.op, [left, right], [node.left, node.right])
        if python is not None:
            return python
        alike = self._alike_op(node, node.op, [left, right], [node.left, node.right])
        if alike is not None:
            return alike
        if not isinstance(node.op, gast.MatMult):
            left, right = self._weak_pair(left, right, node.left, node.right)
            helper = self._weak_helper(node.op, left, right, node.left, node.right)
            if helper is not None:
                return self._call_helper(node, helper, [left, right])
        call = self._checked_binop(node, node.op, left, right, node.left, node.right)
        if call is not None:
            return call
        if self._may_be_python_int(node.op, [left, right], [node.left, node.right]):
            return self._checked_int(node, _CHECKED_BINOPS[type(node.op)],
                                     [self._m(left, node.left), self._m(right, node.right)])
        return gast.BinOp(left=self._m(left, node.left), op=node.op,
                          right=self._m(right, node.right))

    def _numpy_scalar_op(self, node, op, values, sources):
        """NumPy 2's loop for an operator with a NumPy scalar operand (analysis.numpy_scalars):
        each operand converted to the loop's dtype, the result to NumPy's result dtype. None
        where the other rules apply (no NumPy scalar, a type not known by path); falls back
        where NumPy's result cannot be computed exactly.

        Args:
            node: the user's operator node (for locations and messages).
            op: the gast operator (``gast.Add()``, ``gast.Lt()``, ``gast.USub()``...).
            values (list): the converted operands (generated nodes or Static values).
            sources (list): the user's operand nodes, as the analyses know them."""
        if not self.fidelity or self.scalar_types is None:
            return None
        ufunc = op if isinstance(op, np.ufunc) else None
        name = ufunc.__name__ if ufunc is not None else type(op).__name__
        kinds = []
        for value, source in zip(values, sources):
            found = ({type_of_value(value.value)} if isinstance(value, Static)
                     else self.scalar_types.of(source))
            if len(found) != 1:
                return None
            kinds.append(next(iter(found)))
        if ufunc is None and any(k.startswith("arr:") for k in kinds):
            return self._numpy_array_op(node, op, name, kinds, values, sources)
        # A static NumPy scalar (np.float32(2.0) folded) is as strong as a runtime one.
        strong = any(isinstance(v, Static) and isinstance(v.value, np.generic) for v in values)
        found = (ufunc_plan(ufunc, kinds) if ufunc is not None
                 else numpy_scalar_plan(name, kinds, strong))
        if found is None:
            return None
        if found.problem:
            self.fail(node, found.problem)
        loop = found.loop[0]
        operands = []
        for value, source, kind, weak_int in zip(values, sources, kinds, found.weak_int):
            expr = self._m(value, source)
            if weak_int:
                info = np.iinfo(loop)
                if not isinstance(value, Static) or not info.min <= value.value <= info.max:
                    # NumPy 2 raises OverflowError where it does not fit (a constant: always)
                    expr = self._call_helper(node, fit_int, [
                        expr, constant_node(int(info.min)), constant_node(int(info.max))])
            if kind != "np:" + loop:
                expr = self._np_cast(loop, expr, node)
            operands.append(expr)
        if ufunc is not None:
            out = gast.Call(func=self.materialize(Static(ufunc), node), args=operands,
                            keywords=[])
        elif name in COMPARISONS:
            out = gast.Compare(left=operands[0], ops=[op], comparators=[operands[1]])
        elif name == "Abs":
            out = gast.Call(func=self.materialize(Static(abs), node), args=operands,
                            keywords=[])
        elif len(operands) == 1:
            # NumPy's invert of a bool is logical (Numba's ~True is -2)
            out = gast.UnaryOp(op=gast.Not() if name == "Invert" and loop == "bool" else op,
                               operand=operands[0])
        elif name == "LShift":
            out = self._call_helper(node, numpy_lshift, operands + [
                constant_node(np.dtype(loop).itemsize * 8)])
        elif name == "RShift":
            out = self._call_helper(node, numpy_rshift, operands + [
                constant_node(np.dtype(loop).itemsize * 8),
                self._np_cast(loop, constant_node(0), node),
                self._np_cast(loop, constant_node(-1 if np.dtype(loop).kind == "i" else 0),
                              node)])
        elif name == "FloorDiv" and loop == "int64":
            out = self._call_helper(node, numpy_floordiv_int64, operands)
        elif name == "Pow" and np.dtype(loop).kind in "biu":
            out = self._call_helper(node, numpy_int_pow, operands)
        elif loop == "int64" and name in ("Add", "Sub", "Mult", "USub"):
            # wrapping int64 arithmetic, spelled in uint64 (Numba's signed ops are `nsw`)
            unsigned = [self._np_cast("uint64", o, node) for o in operands]
            if name == "USub":
                unsigned = [self._np_cast("uint64", constant_node(0), node)] + unsigned
                op = gast.Sub()
            out = gast.BinOp(left=unsigned[0], op=op, right=unsigned[1])
        elif name == "Div" and loop.startswith("complex"):
            out = self._call_helper(node, numpy_complex_div[loop], operands)
        elif name in NUMPY_BINOPS:
            out = self._call_helper(node, NUMPY_BINOPS[name], operands)
        else:
            out = gast.BinOp(left=operands[0], op=op, right=operands[1])
        return gast.copy_location(self._np_cast(found.result, gast.copy_location(out, node),
                                                node), node)

    def _alike_op(self, node, op, values, sources):
        """``/``, ``//``, ``%`` with an operand that is a Python float on some paths and an
        np.float64 on others (an int and an np.int64): they compute alike but by zero
        (fidelity.alike_div). None elsewhere."""
        name = type(op).__name__
        if not self.fidelity or self.scalar_types is None or name not in ALIKE_BINOPS:
            return None
        pairs = ({"float", "np:float64"}, {"int", "np:int64"})
        for value, source in zip(values, sources):
            kinds = set() if isinstance(value, Static) else self.scalar_types.of(source)
            if any(pair <= kinds for pair in pairs):
                return self._call_helper(node, ALIKE_BINOPS[name],
                                         [self._m(v, s) for v, s in zip(values, sources)])
        return None

    def _python_number_op(self, node, op, values, sources):
        """Python's own rules where Numba's differ for Python numbers: ``<<``/``>>`` of ints
        (a negative count raises ValueError, a result beyond int64 is said so), ``**`` with a
        complex operand (CPython's complex_pow). None elsewhere."""
        if not self.fidelity or self.scalar_types is None:
            return None
        kinds = [{type_of_value(v.value)} if isinstance(v, Static) else self.scalar_types.of(s)
                 for v, s in zip(values, sources)]
        if not all(k and k <= {"int", "bool", "float", "complex"} for k in kinds):
            return None
        operands = [self._m(v, s) for v, s in zip(values, sources)]
        if isinstance(op, (gast.LShift, gast.RShift)) and all(k <= {"int", "bool"}
                                                                for k in kinds):
            helper = python_lshift if isinstance(op, gast.LShift) else python_rshift
            return self._call_helper(node, helper, operands)
        if all(k <= {"int", "bool"} for k in kinds) and any("int" in k for k in kinds) and \
                self.program.check_int:
            # Python's int grows where int64 wraps: checked (backends/numba_checked.py)
            form = _CHECKED_BINOPS.get(type(op))
            if form is not None and self._cannot_overflow(op, values, sources):
                return None
            if isinstance(op, gast.FloorDiv) and isinstance(values[1], Static) and \
                    values[1].value != -1:
                return None             # only a divisor of -1 can leave int64
            if form is not None:
                return self._checked_int(node, form, operands)
            if isinstance(op, gast.FloorDiv):   # only -2**63 // -1 leaves int64
                return self._call_helper(node, python_floordiv_int, operands)
        if isinstance(op, gast.Pow) and any("complex" in k for k in kinds):
            return self._call_helper(node, python_complex_pow, operands)
        return None

    def _checked_int(self, node, form, operands):
        """``form`` (transpiler.ir.CHECKED_INT) of Python-int operands: raises OverflowError
        where int64 cannot hold Python's result; the site is recorded so that the error can
        name the user's line (Program.int_sites)."""
        self.program.int_sites.append(self.src.origin(node))
        call = gast.Call(func=self.program.ir_symbol(form).ref(), args=list(operands),
                         keywords=[])
        return gast.copy_location(call, node)

    def _may_be_python_int(self, op, values, sources):
        """``+ - *`` whose operands no analysis types (a tuple or list item, a dict value, a
        user function's result) but none says is a NumPy value, a float or an array: it may
        be a Python int, so it is checked too (an np.int64 there re-runs as Python, which
        wraps as NumPy; never a silently wrapped Python int). Numba's plain operator for
        other types (the checked forms' overloads fall through)."""
        if not (self.fidelity and self.program.check_int and type(op) in _CHECKED_BINOPS
                and self.scalar_types is not None):
            return False
        vague = False
        for value, source in zip(values, sources):
            if isinstance(value, Static):
                if type(value.value) not in (int, bool):
                    return False
                continue
            kinds = self.scalar_types.of(source)
            if kinds - {"int", "bool", UNKNOWN_TYPE, CALL_TYPE}:
                return False
            if self.numbers.kind(source) not in ("int", "num", None) or \
                    self.numbers.is_array(source) or self.numbers.is_numpy_scalar(source):
                return False
            vague = vague or not kinds or bool(kinds & {UNKNOWN_TYPE, CALL_TYPE})
        return vague and not self._cannot_overflow(op, values, sources)

    def _cannot_overflow(self, op, values, sources):
        """``counter ± small constant`` or ``range index ± constant``: no check needed
        (analysis.int_bounds says why)."""
        if not isinstance(op, (gast.Add, gast.Sub)):
            return False
        if self._int_safe is None:
            from ..analysis.int_bounds import safe_names
            builtin_range = "range" not in self.locals and self.fn_globals.get(
                "range", range) is range and "range" not in self.freevars
            self._int_safe = safe_names(self.src.node, builtin_range)
        counters, ranges = self._int_safe
        for (name, const) in ((sources[0], values[1]), (sources[1], values[0])):
            if not (isinstance(name, gast.Name) and isinstance(const, Static) and
                    type(const.value) is int):
                continue
            if name is sources[1] and isinstance(op, gast.Sub):
                continue                # c - name: not a step of name
            step = const.value if isinstance(op, gast.Add) else -const.value
            if name.id in counters and abs(step) <= 16:
                return True
            if name.id in ranges and -2 ** 62 <= step <= 1:
                return True
        return False

    def _python_int(self, node):
        """Whether ``node`` is a Python int (or bool) by every path, and an int on one (and
        its arithmetic is checked: ``jit(check_int_overflow=)``)."""
        if not self.fidelity or self.scalar_types is None or not self.program.check_int:
            return False
        kinds = self.scalar_types.of(node)
        return bool(kinds) and kinds <= {"int", "bool"} and "int" in kinds

    def _numpy_scalar_call(self, node, fn):
        """Builtins and ufuncs called on scalars, by the type model (analysis.scalar_types,
        analysis.numpy_scalars); None where the other rules apply.

        - a ufunc of EXACT_UFUNCS: NumPy's loop, as for operators;
        - ``isinstance(x, T)``: decided here from x's type (the specialization is guarded on
          it; Numba's typing takes an int64 for an int and a bool for no int);
        - ``divmod(a, b)`` with a NumPy scalar: NumPy's ``//`` and ``%`` loops;
        - ``sum((a, b, ...))`` / ``sum((...), start)``: ``start + a + b ...`` in Python's
          order, each ``+`` by the rules for operators;
        - ``range(...)`` of NumPy integers: Python ints (Numba would keep int16/uint8 counters);
        - ``round(x, n)`` of an integer (Python's or NumPy's): the value itself for a constant
          ``n >= 0``; otherwise it falls back (Python rounds the integer exactly, NumPy
          through float64); ``round(np.bool_)`` raises TypeError plainly: falls back."""
        args = node.args
        types = self.scalar_types
        kinds = [types.of(a) for a in args]
        known = all(len(k) == 1 and not k & {UNKNOWN_TYPE, CALL_TYPE, "shape"} for k in kinds)
        if known and _hashable(fn) and (fn in (round, int, float, complex, abs, divmod, len) or (
                fn in (max, min) and len(args) == 1) or (
                getattr(fn, "__module__", None) == "math")):
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"), \
                        random_state_kept(fn):
                    warnings.simplefilter("ignore")
                    fn(*[sample_of(next(iter(k))) for k in kinds])
            except TypeError as exc:   # decided by the types: the plain call raises it too
                self.fail(node, f"{getattr(fn, '__name__', fn)}() of these types raises "
                                f"TypeError in Python ({exc})")
            except Exception:  # noqa: BLE001 - a value error of the sample: decided at run time
                pass
        if fn is sum and len(args) == 1 and kinds[0] and all(
                k.startswith("arr:") for k in kinds[0]):
            self.fail(node, "sum() of an array adds from the Python int 0 (an int for an empty "
                            "array, the dtype's scalar otherwise; Numba sums in another type): "
                            "use a.sum() or np.sum(a)")
        if fn is complex and len(args) == 2 and known and all(
                next(iter(k)) in ("int", "float", "bool") or (next(iter(k)).startswith("np:") and
                                                               "complex" not in next(iter(k)))
                for k in kinds):
            return self._call_helper(node, to_complex2, [self._m(self.expr(a), a) for a in args])
        if isinstance(fn, type) and issubclass(fn, np.integer) and len(args) == 1 and \
                kinds[0] and kinds[0] <= {"int", "float"}:
            info = np.iinfo(fn)
            value = self.expr(args[0])
            if isinstance(value, Static) and info.min <= value.value <= info.max:
                return None
            if kinds[0] == {"int"}:     # int64 bounds cannot be passed as int64 +-1
                below, above = [constant_node(int(info.min) - 1 if info.min > -2 ** 63
                                              else -1.0e300),
                                constant_node(int(info.max) + 1 if info.max < 2 ** 63 - 1
                                              else 1.0e300)]
            else:
                below, above = (constant_node(float(info.min) - 1.0),
                                constant_node(float(info.max) + 1.0))
            value = self._call_helper(node, python_to_int_dtype, [
                self._m(value, args[0]), below, above])
            return gast.Call(func=self.materialize(Static(fn), node), args=[value],
                             keywords=[])
        if isinstance(fn, np.ufunc) and _hashable(fn):
            values = [self.expr(a) for a in args]
            return self._numpy_scalar_op(node, fn, values, args)
        if fn is isinstance and len(args) == 2:
            kinds = types.of(args[0])
            cls = self.expr(args[1])
            if len(kinds) == 1 and isinstance(cls, Static) and not (kinds & {
                    UNKNOWN_TYPE, CALL_TYPE}) and not next(iter(kinds)) == "shape":
                try:
                    return Static(isinstance(sample_of(next(iter(kinds))), cls.value))
                except (TypeError, ValueError):
                    return None
            return None
        if fn is divmod and len(args) == 2:
            pair = [gast.copy_location(gast.BinOp(left=args[0], op=op, right=args[1]), node)
                    for op in (gast.FloorDiv(), gast.Mod())]
            if not any(k.startswith("np:") for k in set().union(*kinds)):
                if all(k <= {"int", "bool"} for k in kinds) and any("int" in k
                                                                     for k in kinds):
                    # Python's divmod, but -2**63 // -1 leaves int64 (Numba gives 0)
                    return self._call_helper(node, python_divmod_int,
                                             [self.value(a) for a in args])
                return None         # Python numbers: Numba's divmod is Python's
            if not all(len(k) == 1 for k in kinds):
                self.fail(node, "divmod() of a NumPy scalar whose operands' types differ by "
                                "path")
            if not all(_pure(a) for a in args):
                self.fail(node, "divmod() of a NumPy scalar with an operand that is a call "
                                "(NumPy's // and % would evaluate it twice here)")
            return gast.Tuple(elts=[self._m(self.expr(p), p) for p in pair], ctx=gast.Load())
        if fn is sum and 1 <= len(args) <= 2 and isinstance(args[0], gast.Tuple) and not any(
                isinstance(e, gast.Starred) for e in args[0].elts) and len(args[0].elts) < 64:
            total = args[1] if len(args) == 2 else gast.copy_location(
                gast.Constant(value=0, kind=None), node)
            for item in args[0].elts:
                total = gast.copy_location(gast.BinOp(left=total, op=gast.Add(), right=item),
                                           node)
            return self.expr(total)
        if fn is range and any(types.of(a) and all(
                k.startswith("np:") or k == "bool" for k in types.of(a)) for a in args):
            values = []
            for a in args:
                value = self._m(self.expr(a), a)
                if all(k.startswith("np:") or k == "bool" for k in types.of(a)):
                    value = self._call_helper(node, REPLACEMENTS[int], [value])
                values.append(value)
            return gast.Call(func=self.materialize(Static(range), node), args=values,
                             keywords=[])
        if fn is round and len(args) == 1 and types.of(args[0]) and all(
                k in ("int", "bool") or k in ("np:int8", "np:int16", "np:int32", "np:int64",
                                              "np:uint8", "np:uint16", "np:uint32")
                for k in types.of(args[0])):
            # round() of an integer is that integer as a Python int, exactly (Numba goes
            # through float64: round(2**53 + 1) lost the 1)
            value = self._m(self.expr(args[0]), args[0])
            if types.of(args[0]) == {"int"}:
                return value
            return self._call_helper(node, REPLACEMENTS[int], [value])
        if fn is round and len(args) == 1 and types.of(args[0]) and all(
                k == "float" or k in ("np:float32", "np:float64") for k in types.of(args[0])):
            return self._call_helper(node, checked_round, [self._m(self.expr(args[0]),
                                                                   args[0])])
        if fn is round and len(args) == 2 and types.of(args[0]) == {"float"} and \
                types.of(args[1]) and types.of(args[1]) <= {"int", "bool"}:
            # CPython's correctly rounded round(x, n) (Numba's scales by 10**n: 0.2 for 0.1)
            return self._call_helper(node, python_round_digits,
                                     [self._m(self.expr(a), a) for a in args])
        if fn is round and len(args) == 2 and len(types.of(args[0])) == 1 and \
                types.of(args[0]) <= {"np:float32", "np:float64"} and types.of(args[1]) and \
                types.of(args[1]) <= {"int", "bool"}:
            # NumPy's own algorithm, in the scalar's dtype (Numba's differs from 10**9 on)
            return self._call_helper(node, numpy_round_digits,
                                     [self._m(self.expr(a), a) for a in args])
        if fn is round and args:
            kinds = types.of(args[0])
            if kinds == {"np:bool"}:
                self.fail(node, "round() of an np.bool_ raises TypeError")
            integer = kinds and all(k in ("int", "bool") or (k.startswith("np:") and np.dtype(
                k[3:]).kind in "iu") for k in kinds)
            if integer and len(args) == 2:
                digits = self.expr(args[1])
                if not (isinstance(digits, Static) and type(digits.value) is int
                        and digits.value >= 0):
                    self.fail(node, "round() of an integer to a number of digits that may be "
                                    "negative (Python rounds the integer exactly)")
                value = self._m(self.expr(args[0]), args[0])
                if kinds == {"bool"}:   # round(True, 1) is the int 1
                    value = gast.Call(func=self.materialize(Static(int), node),
                                      args=[value], keywords=[])
                return value
        return None

    def _inplace_array_update(self, node, target, value, target_kinds):
        """``a op= b`` of an array ``a``: ``np.<ufunc>(a, b, out=a)`` with casting
        'same_kind' in NumPy. Where NumPy's result dtype cannot be cast so into ``a``'s, the
        plain call raises (UFuncOutputCastingError, a TypeError): fall back. A NumPy scalar
        ``b`` is converted to the loop dtype, as for ``a op b``. None where the other rules
        apply."""
        if len(target_kinds) != 1:
            return None
        kind = next(iter(target_kinds))
        value_kinds = self.scalar_types.of(node.value)
        if len(value_kinds) != 1:
            return None
        other = next(iter(value_kinds))
        name = type(node.op).__name__
        constants = [None, value.value if isinstance(value, Static) else
                     self.numbers.constant(node.value)]
        found = array_plan(name, [kind, other], constants)
        if found is None:
            return None
        if found.problem:
            self.fail(node, found.problem)
        ufunc = UFUNCS.get(name)
        dtypes = (np.dtype(kind.split(":")[1]), _ufunc_operand(other))
        try:
            result = ufunc.resolve_dtypes(dtypes + (None,))[-1]
        except Exception:  # noqa: BLE001 - NumPy refuses the types: Numba's typing too
            return None
        if not np.can_cast(result, dtypes[0], casting="same_kind"):
            self.fail(node, f"NumPy cannot cast {ufunc.__name__}'s {result.name} result into "
                            f"the {dtypes[0].name} array updated in place (it raises "
                            "UFuncOutputCastingError)")
        if found.sqrt:
            return None
        value = self._m(value, node.value)
        if other.startswith("np:") and found.loop and other[3:] != found.loop:
            value = self._np_cast(found.loop, value, node)
        if other == "int" and dtypes[0].kind in "iu":
            # NEP 50: a Python int meeting an integer array must fit its dtype
            info = np.iinfo(dtypes[0])
            constant = constants[1]
            if constant is None or not info.min <= constant <= info.max:
                value = self._call_helper(node, fit_int, [
                    value, constant_node(int(info.min)), constant_node(int(info.max))])
        return gast.AugAssign(target=target, op=node.op, value=value)

    def _numpy_array_op(self, node, op, name, kinds, values, sources):
        """An operator with an array operand by NumPy's rules (analysis.numpy_scalars
        ``array_plan``): a NumPy scalar meeting an array converted to the loop dtype (the
        array too, where its dtype is not the loop's); ``a ** 0.5`` is ``np.sqrt(a)``; falls
        back where Numba's array loop differs. None where Numba's operator already agrees."""
        constants = [v.value if isinstance(v, Static) else self.numbers.constant(s)
                     for v, s in zip(values, sources)]
        found = array_plan(name, kinds, constants)
        if found is None:
            return None
        if found.problem:
            self.fail(node, found.problem)
        operands = [self._m(v, s) for v, s in zip(values, sources)]
        if found.sqrt:
            base = operands[0]
            if kinds[0] != f"arr:{found.loop}:{kinds[0].split(':')[2]}":
                base = self._astype(found.loop, base, node)
            return gast.copy_location(gast.Call(func=self.materialize(Static(np.sqrt), node),
                                                args=[base], keywords=[]), node)
        if not found.loop:
            return None
        converted = []
        for expr, kind in zip(operands, kinds):
            if kind.startswith("arr:") and kind.split(":")[1] != found.loop:
                expr = self._astype(found.loop, expr, node)
            elif (kind.startswith("np:") and kind[3:] != found.loop) or kind == "complex":
                expr = self._np_cast(found.loop, expr, node)
            converted.append(expr)
        if name in COMPARISONS:
            out = gast.Compare(left=converted[0], ops=[op], comparators=[converted[1]])
        else:
            out = gast.BinOp(left=converted[0], op=op, right=converted[1])
        return gast.copy_location(out, node)

    def _astype(self, dtype, expr, node):
        """``expr.astype(np.<dtype>)``: an array converted as NumPy converts a ufunc input."""
        return gast.copy_location(gast.Call(
            func=gast.Attribute(value=expr, attr="astype", ctx=gast.Load()),
            args=[self.materialize(Static(np.dtype(dtype).type), node)], keywords=[]), node)

    def _np_cast(self, dtype, expr, node):
        """``np.<dtype>(expr)`` (a conversion: wraps integers, rounds floats)."""
        return gast.copy_location(gast.Call(
            func=self.materialize(Static(np.dtype(dtype).type), node), args=[expr],
            keywords=[]), node)

    def _python_number(self, value, node):
        """Whether ``value`` (``node`` rewritten) always is a Python int/float."""
        return _weak_number(value) or (not isinstance(value, Static) and self.numbers.is_python(
            node))

    def _number_kind(self, value, node):
        if isinstance(value, Static):
            return {int: "int", float: "float"}.get(type(value.value))
        return self.numbers.kind(node)

    def _checked_binop(self, node, op, left, right, left_node, right_node):
        """``**``, ``/``, ``//``, ``%`` with Python's rules where both operands are Python
        numbers and NumPy's where one is a NumPy scalar (transpiler.fidelity): a call of the
        checked function, or None where Numba's operator already gives that result."""
        name = type(op).__name__
        if self.fidelity and name in NUM_CHECKED and self._python_number(left, left_node) and \
                self._python_number(right, right_node):
            kinds = (self._number_kind(left, left_node), self._number_kind(right, right_node))
            if _int_or_float_by_path(kinds):
                # An int on some paths (exact at any size in Python), a float on others:
                # float64 holds the int exactly only below 2 ** 53 (fidelity.checked_num_add).
                return self._call_helper(node, NUM_CHECKED[name], [
                    self._m(left, left_node), self._m(right, right_node)])
        if not self.fidelity or name not in NUMPY_BINOPS:
            return None
        numbers = self.numbers
        values = [self._m(left, left_node), self._m(right, right_node)]
        if isinstance(op, gast.Pow) and self._python_number(left, left_node) and \
                self._python_number(right, right_node):
            kinds = (self._number_kind(left, left_node), self._number_kind(right, right_node))
            if kinds == ("int", "int"):
                exponent = right.value if isinstance(right, Static) else numbers.constant(
                    right_node)
                if exponent is not None and exponent >= 0:
                    if exponent < 2:
                        return None
                    if isinstance(left, Static):
                        return None   # folds, or raises at run time as in Python
                    low, high = int64_pow_bounds(exponent)
                    return self._call_helper(node, int_pow_bounded, values + [
                        constant_node(low), constant_node(high)])
                if exponent is None and numbers.is_nonneg(right_node):
                    return self._call_helper(node, int_pow, values)
                if exponent is None and isinstance(right_node, gast.Name) and \
                        right_node.id in self.python_values and \
                        right_node.id not in numbers.assigned:
                    # An int argument, never reassigned: specialize on its sign (guarded).
                    path, value = self.python_values[right_node.id]
                    self.program.guard_sign(path, value >= 0)
                    if value >= 0:
                        return self._call_helper(node, int_pow, values)
                    exponent = value
                if exponent is None:
                    self.fail(node, "int ** int with an exponent that may be negative: Python "
                                    "gives an int or a float depending on its sign, compiled "
                                    "code cannot")
            if _int_or_float_by_path(kinds):
                # An int on some paths (a big int in Python), a float on others.
                return self._call_helper(node, checked_pow_num, values)
            return self._call_helper(node, checked_pow, values)
        left_np = not isinstance(left, Static) and numbers.is_numpy_scalar(left_node)
        right_np = not isinstance(right, Static) and numbers.is_numpy_scalar(right_node)
        if (left_np or right_np) and not (numbers.is_array(left_node)
                                         or numbers.is_array(right_node)):
            helper = Static(NUMPY_BINOPS[name])
            if right_np and not _pure(values[1]) and self._python_number(left, left_node):
                # NEP 50 was not applied (the NumPy operand cannot be evaluated twice here).
                return self._call_helper(node, weak_left, [helper] + values)
            if left_np and not _pure(values[0]) and self._python_number(right, right_node):
                return self._call_helper(node, weak_right, [helper] + values)
            return self._call_helper(node, helper.value, values)
        return None

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
                return UNKNOWN if hasattr(type(value), "__get__") else value
        return UNKNOWN

    def _call_helper(self, node, fn, values):
        """Call the transpiler.fidelity function ``fn`` on generated expressions."""
        call = gast.Call(func=node, args=[_Converted(v) for v in values], keywords=[])
        return gast.copy_location(self._call_user(call, fn, None), node)

    def _weak_helper(self, op, left, right, left_node, right_node):
        """The transpiler.fidelity helper applying NEP 50 to ``left op right`` when one side is
        a Python number and the other a NumPy value that cannot be evaluated twice (a call),
        so ``_weak_pair`` could not wrap the number; None otherwise."""
        if not self.fidelity:
            return None

        def impure_numpy(value, node):
            return not isinstance(value, Static) and not _pure(value) and not \
                self.numbers.is_python(node)

        def array(node):
            kinds = self.scalar_types.of(node) if self.scalar_types is not None else ()
            return self.numbers.is_array(node) or (
                kinds and all(k.startswith("arr:") for k in kinds))

        name = type(op).__name__
        if self._python_number(left, left_node) and impure_numpy(right, right_node):
            return WEAK_BINOPS.get((name, "left")) or (
                WEAK_ARRAY_BINOPS.get((name, "left")) if array(right_node) else None)
        if self._python_number(right, right_node) and impure_numpy(left, left_node):
            return WEAK_BINOPS.get((name, "right")) or (
                WEAK_ARRAY_BINOPS.get((name, "right")) if array(left_node) else None)
        return None

    def _weak_pair(self, left, right, left_node, right_node):
        """NEP 50: a Python number meeting an array or NumPy scalar takes its dtype. Wrap the
        number in ``weak(number, other)`` (transpiler.ir.weak) when the other side can be
        evaluated twice without effect (a name, attribute or subscript of names)."""
        if not self.fidelity:
            return left, right   # transpiler.fidelity compares with literals on purpose

        def weak_side(value, node):
            return self._python_number(value, node)

        def strong_side(value, node):
            return not isinstance(value, Static) and _pure(value) and not \
                self.numbers.is_python(node)

        if weak_side(left, left_node) and strong_side(right, right_node):
            left = self._weak(left, left_node, right)
        elif weak_side(right, right_node) and strong_side(left, left_node):
            right = self._weak(right, right_node, left)
        return left, right

    def _weak(self, value, node, like):
        number = self.materialize(value, node) if isinstance(value, Static) else value
        call = gast.Call(func=self.program.ir_symbol("weak").ref(),
                         args=[number, copy.deepcopy(like)], keywords=[])
        return gast.copy_location(call, node)

    def expr_UnaryOp(self, node):
        operand = self.expr(node.operand)
        folded = self._fold(UNARYOPS.get(type(node.op)), operand)
        if folded is not None:
            return folded
        exact = self._numpy_scalar_op(node, node.op, [operand], [node.operand])
        if exact is not None:
            return exact
        if isinstance(node.op, gast.USub) and not isinstance(operand, Static) and \
                self._python_int(node.operand):
            return self._checked_int(node, "int_neg", [operand])
        if isinstance(node.op, gast.Invert) and self.scalar_types is not None and \
                self.scalar_types.of(node.operand) == {"bool"}:
            # Python's ~True is the int -2 (Numba's is False)
            operand = gast.Call(func=self.materialize(Static(int), node),
                                args=[self._m(operand, node.operand)], keywords=[])
        return gast.UnaryOp(op=node.op, operand=self._m(operand, node.operand))

    def expr_Compare(self, node):
        operands = [self.expr(node.left)] + [self.expr(c) for c in node.comparators]
        if all(isinstance(o, Static) for o in operands):
            self._compare_fact(node.ops, operands)
            result = True
            try:
                for op, a, b in zip(node.ops, operands, operands[1:]):
                    result = CMPOPS[type(op)](a.value, b.value)
                    if not result:
                        break
                if is_scalar(result):
                    return Static(result)
            except Exception as exc:  # noqa: BLE001 - Python raises here, every time
                # (`(-1.5) ** 0.5 >= 0` compares a complex): Numba would compare something.
                self.fail(node, f"this comparison of constants raises {type(exc).__name__} "
                                f"in Python ({exc})")
        sources = [node.left] + node.comparators
        if len(operands) == 2:
            exact = self._numpy_scalar_op(node, node.ops[0], operands, sources)
            if exact is not None:
                return exact
        python_int = len(operands) == 2 and any(
            self._python_number(o, n) and self._number_kind(o, n) == "int" and
            self._integer_typed(other) for (o, n), other in zip(
                zip(operands, sources), reversed(sources)))
        if len(operands) == 2 and isinstance(node.ops[0], _ORDERING) and not python_int:
            # NumPy 2 compares a Python int with an integer scalar exactly (np.uint8(5) < 300
            # is True, no OverflowError): only a Python float takes the other side's dtype.
            operands = list(self._weak_pair(operands[0], operands[1], *sources))
            helper = self._weak_helper(node.ops[0], operands[0], operands[1], *sources)
            if helper is not None:   # the NumPy side cannot be evaluated twice
                return self._call_helper(node, helper, operands)
        for op, a, b in zip(node.ops, operands, operands[1:]):
            if isinstance(op, (gast.Is, gast.IsNot)) and not isinstance(a, Static) and \
                    not isinstance(b, Static):
                # Numba compares two arrays' data pointers (a is a[:] is True there)
                self.fail(node, "'is' between two runtime values (arrays, numbers) is not "
                                "compiled: Numba does not compare Python object identity")
        nodes = [self._m(o, n) for o, n in zip(operands, sources)]
        return gast.Compare(left=nodes[0], ops=node.ops, comparators=nodes[1:])

    def expr_BoolOp(self, node):
        # Python returns the first operand that decides: fold a static prefix.
        is_and = isinstance(node.op, gast.And)
        rest = []
        for i, child in enumerate(node.values):
            value = self.expr(child)
            if isinstance(value, Static) and not rest:
                self._truth_of(value)
                decided = (not value.value) if is_and else bool(value.value)
                if decided or i == len(node.values) - 1:
                    return value
                continue
            rest.append(self._m(value, child))
        if len(rest) == 1:
            return rest[0]
        return gast.BoolOp(op=node.op, values=rest)

    def expr_IfExp(self, node):
        test = self.expr(node.test)
        if isinstance(test, Static):
            self._truth_of(test)
            return self.expr(node.body if test.value else node.orelse)
        return gast.IfExp(test=test, body=self.value(node.body), orelse=self.value(node.orelse))

    def _m(self, result, node):
        return self.materialize(result, node) if isinstance(result, Static) else result

    def _check_list_elements(self, fdef):
        """Fall back where a list would hold numbers of more than one type: Numba's lists
        have one element type, so ``[42.0]`` then ``.append(0)`` would hold 0.0, ``[1] +
        [2.0]`` give ``[1.0, 2.0]`` and ``[1, True]`` hold 1. Lists are followed by name
        (displays, ``append``/``insert``/``extend``, ``+``, ``+=``), flow-insensitively."""
        kinds_of = {}       # list name -> kinds of its elements

        def one(elt):
            if isinstance(elt, gast.Starred):
                return {UNKNOWN_TYPE}
            if isinstance(elt, gast.Tuple):   # a tuple element: its items' kinds, in order
                return {"tuple(" + ",".join("|".join(sorted(one(e))) for e in elt.elts) + ")"}
            if isinstance(elt, gast.IfExp):
                return one(elt.body) | one(elt.orelse)
            found = self.scalar_types.of(elt)
            if not found or found <= {UNKNOWN_TYPE, CALL_TYPE}:
                # comprehension variables: the Python-number analysis may know them
                found = {"int": {"int"}, "float": {"float"}, "num": {"int", "float"}}.get(
                    self.numbers.kind(elt), found)
            return found

        def element_kinds(node):
            if isinstance(node, (gast.List, gast.Tuple)):
                found = set()
                for elt in node.elts:
                    found |= one(elt)
                return found
            if isinstance(node, gast.ListComp):
                return one(node.elt)
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                    node.func.id == "list" and len(node.args) == 1 and isinstance(
                        node.args[0], gast.Call) and isinstance(node.args[0].func, gast.Name) \
                    and node.args[0].func.id == "range":
                return {"int"}
            if isinstance(node, gast.Name):
                return kinds_of.get(node.id, set())
            if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Add):
                return element_kinds(node.left) | element_kinds(node.right)
            return set()

        def check(where, found):
            numbers = {k for k in found if k in ("int", "bool", "float", "complex") or
                       k.startswith(("np:", "tuple("))}
            if any("|" in k for k in numbers):   # a tuple item of several kinds
                numbers.add("mixed tuple items")
            if numbers and (not found <= numbers | {"str"}) and found & {UNKNOWN_TYPE,
                                                                         CALL_TYPE}:
                numbers.add("values of unknown type")   # may be another number type
            if len(numbers) > 1:
                self.fail(where, "a list holding numbers of several types ("
                                 f"{', '.join(sorted(numbers))}): Numba's lists have one "
                                 "element type, so Python's elements would be converted")

        for _ in range(2):   # twice: a name's later definitions reach earlier appends
            for node in gast.walk(fdef):
                if isinstance(node, (gast.List, gast.BinOp, gast.ListComp)):
                    found = element_kinds(node)
                    check(node, found)
                if isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                        node.targets[0], gast.Subscript) and isinstance(
                        node.targets[0].value, gast.Name) and \
                        node.targets[0].value.id in kinds_of:
                    name = node.targets[0].value.id     # values[i] = v
                    kinds_of[name] |= one(node.value)
                    check(node, kinds_of[name])
                if isinstance(node, gast.Assign) and len(node.targets) == 1 and isinstance(
                        node.targets[0], gast.Name):
                    found = element_kinds(node.value)
                    if found or isinstance(node.value, gast.List):
                        name = node.targets[0].id
                        kinds_of[name] = kinds_of.get(name, set()) | found
                        check(node, kinds_of[name])
                elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) \
                        and node.target.id in kinds_of and isinstance(node.op, gast.Add):
                    kinds_of[node.target.id] |= element_kinds(node.value)
                    check(node, kinds_of[node.target.id])
                elif isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
                        and isinstance(node.func.value, gast.Name) \
                        and node.func.value.id in kinds_of and node.args:
                    name, method = node.func.value.id, node.func.attr
                    if method == "append":
                        kinds_of[name] |= one(node.args[0])
                    elif method == "insert" and len(node.args) == 2:
                        kinds_of[name] |= one(node.args[1])
                    elif method == "extend":
                        kinds_of[name] |= element_kinds(node.args[0])
                    check(node, kinds_of[name])

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

    # -- calls ------------------------------------------------------------------------------

    def expr_Call(self, node):
        callee = self.expr(node.func)
        if not isinstance(callee, Static) and isinstance(node.func, gast.Attribute) and \
                node.func.attr == "item" and not node.args and not node.keywords and \
                self.scalar_types is not None:
            kinds = self.scalar_types.of(node.func.value)
            if len(kinds) == 1 and next(iter(kinds)) in ("int", "float", "bool", "complex"):
                self.fail(node, f"a Python {next(iter(kinds))} has no .item() (Python raises "
                                "AttributeError)")
            if len(kinds) == 1 and next(iter(kinds)).startswith("np:"):
                # a NumPy scalar's .item() is the Python number (Numba keeps the dtype)
                python = self.scalar_types.of(node)
                convert = {frozenset({"int"}): int, frozenset({"float"}): float,
                           frozenset({"complex"}): complex, frozenset({"bool"}): bool}.get(
                    frozenset(python))
                if convert is not None:
                    value = self._m(self.expr(node.func.value), node.func.value)
                    if convert is bool:
                        return gast.Call(func=self.materialize(Static(bool), node),
                                         args=[value], keywords=[])
                    return self._call_helper(node, REPLACEMENTS[convert], [value])
        if not isinstance(callee, Static) and self.fidelity and isinstance(
                node.func, gast.Attribute) and node.func.attr == "reshape" and node.args and \
                not node.keywords and self.scalar_types is not None and not any(
                isinstance(a, gast.Starred) for a in node.args):
            kinds = self.scalar_types.of(node.func.value)
            if kinds and all(k.startswith("arr:") for k in kinds) and _pure(node.func.value):
                # NumPy's errors and strides (fidelity.numpy_reshape)
                dims = node.args[0].elts if len(node.args) == 1 and isinstance(
                    node.args[0], gast.Tuple) else node.args
                one = self.scalar_types.of(node.args[0])
                if len(node.args) > 1 or isinstance(node.args[0], gast.Tuple) or (
                        one and one <= {"int", "bool"} or one and all(
                            k.startswith("np:int") for k in one)):
                    # a.reshape(6) is a.reshape((6,)): the helper takes a tuple
                    shape = gast.Tuple(elts=[self.value(d) for d in dims], ctx=gast.Load())
                else:
                    shape = self.value(node.args[0])
                return self._call_helper(node, numpy_reshape,
                                         [self.value(node.func.value), shape])
        if not isinstance(callee, Static):
            return gast.Call(func=callee, args=[self.value(a) for a in node.args],
                             keywords=[self._child(k) for k in node.keywords])
        fn = callee.value
        if _hashable(fn) and fn in _IR_CHECKED and not node.keywords and self.program.check_int:
            # transpiler.ir.int_add & co. called by transpiler.fidelity's helpers
            return self._checked_int(node, _IR_CHECKED[fn], [self.value(a) for a in node.args])
        if _hashable(fn) and fn in _IR_CHECKED and not node.keywords:
            return gast.BinOp(left=self.value(node.args[0]), op=_IR_OPERATORS[_IR_CHECKED[fn]](),
                              right=self.value(node.args[1]))
        if fn is ir_weak and len(node.args) == 2 and not node.keywords:
            # transpiler.ir.weak used by transpiler.fidelity: the typed NEP 50 helper.
            return self._weak(self.value(node.args[0]), node.args[0],
                              self.value(node.args[1]))
        if _hashable(fn) and fn in FOLDABLE_BUILTINS and not any(isinstance(a, gast.Starred) for a in node.args):
            args = [self.expr(a) for a in node.args]
            kwargs = {k.arg: self.expr(k.value) for k in node.keywords}
            if all(isinstance(a, Static) for a in args + list(kwargs.values())) and k_ok(kwargs):
                if fn in (len, hasattr, getattr) and args:
                    self._instance_fact(args[0])   # instance state read without a path
                try:
                    result = fn(*(a.value for a in args),
                                **{k: v.value for k, v in kwargs.items()})
                except Exception:  # noqa: BLE001 - raise it at run time, as Python would
                    result = None
                else:
                    if fn is getattr:
                        return self.static(result, None, node)
                    if fn is type and len(args) == 1 and not kwargs and \
                            args[0].path is not None:
                        # type(self).scale: re-read (and guard) through __class__
                        return self.static(result, args[0].path.child(".", "__class__"), node)
                    if is_scalar(result) or isinstance(result, type):
                        return Static(result)
        plain_args = not node.keywords and not any(isinstance(a, gast.Starred)
                                                   for a in node.args)
        if plain_args and self.scalar_types is not None:
            special = self._numpy_scalar_call(node, fn)
            if special is not None:
                return special
        if fn is abs and len(node.args) == 1 and not node.keywords and not isinstance(
                node.args[0], gast.Starred):
            operand = self.expr(node.args[0])
            exact = self._numpy_scalar_op(node, Abs(), [operand], [node.args[0]])
            if exact is not None:
                return exact
            if not isinstance(operand, Static) and self._python_int(node.args[0]) and \
                    self.scalar_types.of(node.args[0]) == {"int"}:
                return self._checked_int(node, "int_abs", [operand])
            if self.scalar_types is not None and self.scalar_types.of(node.args[0]) == {"bool"}:
                # Python's abs(True) is the int 1 (Numba's an int8)
                return gast.Call(func=self.materialize(Static(abs), node), args=[gast.Call(
                    func=self.materialize(Static(int), node), args=[
                        self._m(operand, node.args[0])], keywords=[])], keywords=[])
        if _hashable(fn) and fn in _DIFFERENT_BUILTINS:
            self.fail(node, f"{_DIFFERENT_BUILTINS[fn]} in compiled code does not give "
                            "Python's result")
        if _hashable(fn) and fn in DIFFERENT_MATH:
            self.fail(node, f"{DIFFERENT_MATH[fn]} is CPython's own implementation; the "
                            "compiled one (libm) differs in the last digits")
        if _hashable(fn) and fn is math.ldexp and len(node.args) == 2 and \
                self.numbers.kind(node.args[1]) != "int":
            self.fail(node, "math.ldexp() with an exponent that may not be a Python int "
                            "(Python raises TypeError; compiled code would compute)")
        if _hashable(fn) and fn is math.gcd and not all(
                self._integer_typed(a) or self.numbers.kind(a) == "int" for a in node.args):
            self.fail(node, "math.gcd() of a value that may be a float (Python raises "
                            "TypeError; compiled code would compute)")
        if (_hashable(fn) and fn in REPLACEMENTS and
                len(node.args) == REPLACEMENT_ARITY.get(fn, 1) and not node.keywords
                and self.fn.__module__ != REPLACEMENTS_MODULE):
            return self._call_user(node, REPLACEMENTS[fn], None)
        if getattr(fn, "__graphjit_do_not_convert__", False):
            self.fail(node, f"{getattr(fn, '__qualname__', fn)} is marked do_not_convert")
        target = self._user_callable(callee, node)
        if target is not None:
            return self._call_user(node, *target)
        if library_reference(fn) is None:
            self.fail(node.func, f"calling {_describe(fn) if not callable(fn) else repr(fn)} "
                                 "is not converted (not a library function graphjit can "
                                 "compile, nor Python source it can read)")
        if self.fidelity and fn in (np.arange, np.clip) and not node.keywords and not any(
                isinstance(a, gast.Starred) for a in node.args):
            checked = self._numpy_checked_call(node, fn)
            if checked is not None:
                return checked
        ref = library_reference(fn)
        if ref is not None and ref[0] == "numpy" and ref[1][:1] == ("random",):
            from ..random_state import EXACT
            if len(ref[1]) != 2 or ref[1][1] not in EXACT:
                self.fail(node, f"np.random.{'.'.join(ref[1][1:])} draws otherwise in "
                                "compiled code (Numba's implementation)")
            self.program.uses_random = True   # NumPy's state is carried in and out
            name = ref[1][1]
            if name == "seed":
                self.program.random_seeded = True   # NumPy's Gaussian cache is dropped too
            if self.fidelity and not node.keywords and (name, len(node.args)) in (
                    ("seed", 1), ("uniform", 2)):
                exprs = [self.expr(a) for a in node.args]
                if all(isinstance(e, Static) or self.scalar_types is not None and
                       self.scalar_types.of(a) and all(
                           k in ("int", "bool", "float") or k.startswith("np:")
                           for k in self.scalar_types.of(a))
                       for e, a in zip(exprs, node.args)):
                    helper = numpy_random_seed if name == "seed" else numpy_random_uniform
                    return self._call_helper(node, helper, [
                        self._m(e, a) for e, a in zip(exprs, node.args)])
        args = [self.value(a) for a in node.args]
        if ref is not None and ref[0] == "math" and ref[1][-1] in FLOAT_MATH and not any(
                isinstance(a, gast.Starred) for a in args):
            args = [gast.copy_location(gast.Call(func=gast.Attribute(
                value=self.program.import_symbol("numpy").ref(), attr="float64",
                ctx=gast.Load()), args=[a], keywords=[]), a) for a in args]
        return gast.Call(func=self.materialize(callee, node.func), args=args,
                         keywords=[self._child(k) for k in node.keywords])

    def _numpy_checked_call(self, node, fn):
        """``np.arange``/``np.clip`` where Numba's answer differs from NumPy's: the helpers of
        transpiler.fidelity (a zero step, a NaN or an infinite length, a NaN bound) or
        ``np.copy`` for ``np.clip(a, None, None)``; None where Numba's is NumPy's (the caller
        then emits the library call)."""
        exprs = [self.expr(a) for a in node.args]
        values = [self._m(e, a) for e, a in zip(exprs, node.args)]

        def may_be_float(e, a):   # a float may be NaN
            return not isinstance(e, Static) and (
                self.scalar_types is None or self.scalar_types.of(a) - {"int", "bool"})
        if fn is np.arange and len(exprs) in (1, 2):
            if self.scalar_types is None or not any(
                    may_be_float(e, a) for e, a in zip(exprs, node.args)):
                return None
            zero = gast.Constant(value=0, kind=None)
            one = gast.Constant(value=1, kind=None)
            return self._call_helper(node, numpy_arange3,
                                     ([zero] if len(values) == 1 else []) + values + [one])
        if fn is np.arange and len(exprs) == 3:
            step = exprs[2]
            if isinstance(step, Static) and step.value != 0 and not any(
                    may_be_float(e, a) for e, a in zip(exprs[:2], node.args)):
                return None
            return self._call_helper(node, numpy_arange3, values)
        if fn is not np.clip or len(exprs) != 3:
            return None
        bounds = exprs[1:]
        if any(isinstance(b, Static) and isinstance(b.value, float) and b.value != b.value
               for b in bounds):
            self.fail(node, "np.clip with a NaN bound (NumPy gives NaN; Numba ignores it)")
        kinds = [self.scalar_types.of(a) if self.scalar_types else set() for a in node.args[1:]]
        if all(not isinstance(b, Static) or type(b.value) is float for b in bounds) and \
                all(k and all(x in ("float", "int") or x.startswith("np:float") for x in k)
                    for k in kinds) and any(
                "float" in k or any(x.startswith("np:float") for x in k) for k in kinds):
            # a float bound may be NaN: NumPy's result is NaN (fidelity.numpy_clip)
            return self._call_helper(node, numpy_clip, values)
        if all(isinstance(b, Static) and b.value is None for b in bounds):
            # NumPy 2 returns a copy; Numba raises ValueError
            kinds = self.scalar_types.of(node.args[0]) if self.scalar_types else set()
            if not kinds or not all(k.startswith("arr:") for k in kinds):
                self.fail(node, "np.clip(x, None, None) of a value that may not be an array")
            return gast.Call(func=gast.Attribute(
                value=self.program.import_symbol("numpy").ref(), attr="copy",
                ctx=gast.Load()), args=[values[0]], keywords=[])
        return None

    def _user_callable(self, callee, node):
        """``(python function, bound self Static or None)`` for a call graphjit converts."""
        fn = callee.value
        path = callee.path
        # A bound method's object is re-read through the method itself: ``holder.method`` is
        # the holder's method, but a bound method stored as an attribute (``self.f =
        # self.inner.construct``) belongs to another object than the one holding it.
        parent = path.child(".", "__self__") if path is not None and len(path) > 1 else None
        if isinstance(fn, LocalFunction):
            return fn, None
        if is_jit_function(fn):
            return fn.python_function, None
        if is_bound_jit_function(fn):
            return fn.__func__, Static(fn.__self__, parent)
        if is_cell(fn):
            construct = type(fn).construct
            construct = getattr(construct, "python_function", construct)
            return construct, callee
        if isinstance(fn, types.MethodType) and not isinstance(fn.__self__, type):
            if library_reference(fn.__func__) is None and isinstance(
                    fn.__func__, types.FunctionType):
                return fn.__func__, Static(fn.__self__, parent)
            return None
        if is_user_function(fn):
            return fn, None
        if isinstance(fn, type):
            if fn.__module__.split(".")[0] in LIBRARY_ROOTS:
                return None
            self.fail(node, f"creating a {fn.__qualname__} object in compiled code is not "
                            "converted")
        call = getattr(type(fn), "__call__", None)
        if isinstance(call, types.FunctionType) and library_reference(call) is None:
            return call, callee
        return None

    def _call_user(self, node, fn, self_static):
        """Specialize ``fn`` for this call site and call the generated function."""
        if any(isinstance(a, gast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            self.fail(node, "*args / **kwargs at a call are not converted yet")
        bound, dynamic_nodes = {}, {}
        if isinstance(fn, LocalFunction):
            source, defaults, qualname = fn.source(), dict(fn.defaults), fn.name
            given = parameter_names(source.node)
            for captured, var in fn.captures:   # captured locals: passed as leading arguments
                given.remove(captured)
                dynamic_nodes[captured] = _load(var)
            bound.update(fn.static_captures)
            given = [g for g in given if g not in fn.static_captures]
            key_fn = fn.node
        else:
            try:
                source = capture(fn)
            except UnsupportedConstruct as exc:
                self.fail(node, f"cannot convert the call to {fn.__qualname__}: {exc.reason}")
            fargs = source.node.args
            if fargs.vararg or fargs.kwarg or fargs.kwonlyargs or fargs.posonlyargs:
                self.fail(node, f"calling {fn.__module__}.{fn.__qualname__} is not converted: "
                                "it takes *args, **kwargs, keyword-only or positional-only "
                                "parameters")
            given = parameter_names(source.node)
            defaults = {name: Static(value) for name, value in zip(
                reversed(given), reversed(fn.__defaults__ or ()))}
            qualname, key_fn = _generated_name(fn), fn
        if self_static is not None:
            bound[given.pop(0)] = self_static
        if len(node.args) > len(given):
            self.fail(node, f"{qualname}() takes {len(given)} arguments, {len(node.args)} given")
        args = dict(zip(given, node.args))
        for kw in node.keywords:
            if kw.arg not in given or kw.arg in args:
                self.fail(node, f"{qualname}() got an unexpected or repeated keyword argument "
                                f"{kw.arg!r}")
            args[kw.arg] = kw.value
        extra = []
        for name in given:
            if name in args:
                result = self.expr(args[name])
            elif name in defaults:
                result = defaults[name]
            else:
                self.fail(node, f"{qualname}() missing argument {name!r}")
            if isinstance(result, Static) and isinstance(result.value, LocalFunction):
                # A function passed as an argument: its captured locals travel with it.
                local_fn = result.value
                moved = []
                for capture_name, var in local_fn.captures:
                    param = f"{name}_{capture_name}"
                    dynamic_nodes[param] = _load(var)
                    extra.append(param)
                    moved.append((capture_name, param))
                result = Static(local_fn.with_captures(moved), result.path)
                bound[name] = result
            elif isinstance(result, Static) and not library_reference(result.value):
                bound[name] = result
            else:
                dynamic_nodes[name] = self._m(result, args.get(name, node))
        typed = self._argument_types(args, dynamic_nodes)
        key = (key_fn, ) + tuple(sorted(
            (name, _static_key(s.value)) for name, s in bound.items())) + (
            ("types",) + tuple(sorted(typed[3].items())),)
        if key in self.program.in_progress:
            return self._recursive_call(node, self.program.in_progress[key], dynamic_nodes)
        if key not in self.program.memo:
            symbol = self.program.function_symbol(qualname)
            python_params, numpy_params, array_params, param_types = typed
            specializer = Specializer(self.program, source, bound, extra,
                                      python_params=python_params, numpy_params=numpy_params,
                                      array_params=array_params, param_types=param_types)
            self.program.in_progress[key] = specializer
            try:
                generated = specializer.run(symbol)
            finally:
                del self.program.in_progress[key]
            canonical = generated if specializer.recursive_calls else self._dedup(generated)
            if canonical is generated and generated not in self.program.functions:
                self.program.functions.append(generated)
            self.program.memo[key] = canonical, generated.inputs
        generated, inputs = self.program.memo[key]
        call_args = [dynamic_nodes[p] for p in generated.dynamic_params]
        call_args += [self.runtime_input(path) for _, path in inputs]
        return gast.Call(func=generated.symbol.ref(), args=call_args, keywords=[])

    def _argument_types(self, args, dynamic_nodes):
        """What this call site knows of the runtime arguments of a converted callee, so that
        the callee computes as Python and NumPy would (NEP 50 for a Python float argument,
        float32 elements of an array argument, merges by path): ``(python_params,
        numpy_params, array_params, param_types)`` as ``specialize`` builds them for an entry
        from the argument values. An argument of several types by path stays unknown."""
        python_params, numpy_params, array_params, param_types = {}, set(), {}, {}
        if self.scalar_types is None:
            return python_params, numpy_params, array_params, param_types
        for name, node in args.items():
            if name not in dynamic_nodes or isinstance(node, _Converted):
                continue
            kinds = self.scalar_types.of(node)
            if len(kinds) != 1:
                continue
            kind = next(iter(kinds))
            if kind in ("int", "float") and self.numbers.is_python(node):
                python_params[name] = kind
            elif kind.startswith("np:") and self.numbers.is_numpy_scalar(node):
                numpy_params.add(name)
            elif kind.startswith("arr:"):
                array_params[name] = int(kind.split(":")[2])
            else:
                continue
            param_types[name] = kind
        return python_params, numpy_params, array_params, param_types

    def _recursive_call(self, node, target, dynamic_nodes):
        """A call to a function still being specialized (recursion): its runtime inputs are
        known only when it is done, so the call is completed then."""
        call = gast.Call(func=target.symbol.ref(),
                         args=[dynamic_nodes[p] for p in target.dynamic_params], keywords=[])
        target.recursive_calls.append((call, self, node))
        return call

    def _dedup(self, generated):
        """Share structurally identical generated functions (two ReLUs, three Dense layers)."""
        saved = generated.node.name
        generated.node.name = ""
        key = gast.dump(generated.node)
        generated.node.name = saved
        existing = self.program.dedup.get(key)
        if existing is not None:
            return existing
        self.program.dedup[key] = generated
        return generated

    # -- materialization --------------------------------------------------------------------

    def materialize(self, static, node):
        """A generated expression for a static value used at run time."""
        value = static.value
        if is_scalar(value):
            return constant_node(value)
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


class Abs:
    """The operator of ``abs(x)`` for analysis.numpy_scalars (NumPy's ``np.absolute``)."""


class _Converted:
    """An expression already rewritten, passed where a source node is expected."""

    def __init__(self, value):
        self.value = value


def _generated_name(function):
    """``Class_method`` or ``function``: the qualname after its last ``<locals>``."""
    name = function.__qualname__.rsplit("<locals>.", 1)[-1]
    name = re.sub(r"\W+", "_", name).strip("_") or "function"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_fn"       # `is_` stripped is the keyword `is`
    return name if not name[0].isdigit() else "f_" + name


def _static_key(value):
    if isinstance(value, LocalFunction):
        return ("local", id(value.node), tuple(c for c, _ in value.captures))
    if is_scalar(value):
        return ("value", type(value).__name__, repr(value))
    return ("id", id(value))


_ORDERING = (gast.Eq, gast.NotEq, gast.Lt, gast.LtE, gast.Gt, gast.GtE)


def _weak_number(value):
    return isinstance(value, Static) and type(value.value) in (int, float, complex)


def _pure(node):
    """An expression that can be evaluated twice with the same value and no effect."""
    if isinstance(node, (gast.Name, gast.Constant)):
        return True
    if isinstance(node, gast.Attribute):
        return _pure(node.value)
    if isinstance(node, gast.Subscript):
        return _pure(node.value) and _pure(node.slice)
    if isinstance(node, gast.Tuple):
        return all(_pure(e) for e in node.elts)
    if isinstance(node, gast.BinOp):   # arithmetic of pure operands: same value, no effect
        return _pure(node.left) and _pure(node.right)
    if isinstance(node, gast.UnaryOp):
        return _pure(node.operand)
    return False


def _assign(name, value):
    return gast.Assign(targets=[gast.Name(id=name, ctx=gast.Store(), annotation=None,
                                          type_comment=None)],
                       value=gast.Constant(value=value, kind=None), type_comment=None)


def _store(name):
    return gast.Name(id=name, ctx=gast.Store(), annotation=None, type_comment=None)


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


# Python-int operators checked for int64 overflow (transpiler.ir.CHECKED_INT)
_CHECKED_BINOPS = {gast.Add: "int_add", gast.Sub: "int_sub", gast.Mult: "int_mul"}
_IR_OPERATORS = {form: op for op, form in _CHECKED_BINOPS.items()}
_CONTAINERS = (gast.Dict, gast.Set, gast.List, gast.ListComp, gast.DictComp, gast.SetComp)
_IR_CHECKED = {ir_int_add: "int_add", ir_int_sub: "int_sub", ir_int_mul: "int_mul"}


def _instance_like(value):
    """An object whose identity or state can differ between instances of one class: not a
    scalar, module, class, function or method (those are the same for every instance)."""
    return not (is_scalar(value) or value is None or isinstance(value, (
        types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
        types.MethodType)) or callable(value) and not hasattr(value, "__dict__"))


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def k_ok(kwargs):
    return all(k is not None for k in kwargs)


def specialize(program, function, self_value=None, static_args=None, source=None,
               python_args=None, numpy_args=None, arg_keys=None):
    """Build ``program``'s entry: ``function`` specialized on ``self_value`` and static args.

    Args:
        program (Program): an empty program.
        function: the Python function (a method's underlying function when ``self_value`` is
            given).
        self_value: the bound instance, or None for a plain function.
        static_args (dict[str, tuple[int, object]] | None): static parameter name ->
            (index among the bound arguments, value).
        source (FunctionSource | None): the parsed function when it is not ``function``'s own
            source (a region of a function that is split; see transpiler.split).
        python_args (dict[str, tuple[int, type, object]] | None): parameters called with a
            Python int (index among the bound arguments, type, value; the value only decides
            the sign of an int exponent, then guarded too)
            or float or bool (index among the bound arguments, type): NEP 50 treats them as
            weak; the specialization is guarded on their type.
        numpy_args (dict[str, tuple[int, type, int | None, str]] | None): parameters called
            with a NumPy scalar or an array (index, type, ndim of an array, dtype name): NumPy's rules apply to
            their arithmetic (transpiler.fidelity). A NumPy scalar's type is guarded (called
            with a Python number instead, the rules differ); an array's is not (the helpers
            check at run time whether an operand is a scalar).
        arg_keys (dict[str, tuple[int, tuple]] | None): every dynamic parameter -> (index,
            ``type_key`` of its argument); those not guarded above are guarded on it.

    Returns:
        GeneratedFunction: the entry; also stored as ``program.entry``.

    Raises:
        UnsupportedConstruct: with the origin of the first construct not converted.
    """
    source = source or capture(function)
    params = parameter_names(source.node)
    bindings = {}
    if self_value is not None:
        if not params:
            raise UnsupportedConstruct(f"{function.__qualname__} takes no 'self' parameter",
                                       source.origin(source.node))
        bindings[params[0]] = Static(self_value, Path(((("self",)),)))
    for name, (index, value) in (static_args or {}).items():
        path = Path(((("arg", index)),))
        if is_runtime_value(value):
            continue
        bindings[name] = Static(value, path)
        program.guard(path, "eq" if is_scalar(value) else "is", value)
    symbol = program.function_symbol(_generated_name(function))
    python_params = {}
    python_values = {}
    for name, (index, kind, *value) in (python_args or {}).items():
        if name in bindings:
            continue
        program.guard(Path(((("arg", index)),)), "type", kind)
        # (a bool computes as an int: True * 0 is the int 0)
        python_params[name] = {int: "int", bool: "int", float: "float"}.get(kind, "num")
        if value:
            python_values[name] = (Path(((("arg", index)),)), value[0])
    numpy_params, array_params = set(), {}
    param_types = {name: {int: "int", float: "float", bool: "bool"}.get(kind, UNKNOWN_TYPE)
                   for name, (_, kind, *_) in (python_args or {}).items()}
    for name, (index, kind, ndim, *dtype) in (numpy_args or {}).items():
        if name in bindings:
            continue
        if ndim is None:
            program.guard(Path(((("arg", index)),)), "type", kind)
            numpy_params.add(name)
            param_types[name] = type_of_value(kind(0)) if not dtype else "np:" + dtype[0]
        else:
            array_params[name] = ndim
            if dtype:
                # The analyses read the dtype and the number of dimensions: guard both.
                program.guard(Path(((("arg", index)),)), "array", (ndim, dtype[0]))
                param_types[name] = f"arr:{dtype[0]}:{ndim}"
    for name, (index, key) in (arg_keys or {}).items():
        # Every other argument is guarded on its complete type too (None, str, complex, a
        # tuple and its items' types...): a call never reuses code made for another type.
        if name not in bindings:
            program.guard(Path(((("arg", index)),)), "typekey", key)
            if key == ("type", complex):
                param_types[name] = "complex"
            if key[0] == "tuple" and _holds_numpy(key):
                raise UnsupportedConstruct(
                    f"argument {name!r} is a tuple holding NumPy scalars or arrays: its items "
                    "are not typed by path yet, so their arithmetic would follow Numba's rules "
                    "(pass them as separate arguments)", source.origin(source.node))
    specializer = Specializer(program, source, bindings, python_params=python_params,
                              numpy_params=numpy_params, array_params=array_params,
                              param_types=param_types, entry=True)
    specializer.python_values = python_values
    key = (function,) + tuple(sorted((name, _static_key(s.value))
                                     for name, s in bindings.items()))
    program.in_progress[key] = specializer      # a recursive call finds the entry itself
    entry = specializer.run(symbol)
    del program.in_progress[key]
    program.functions.append(entry)
    program.entry = entry
    return entry


def _as_load(target):
    """A copy of an assignment target that reads it (``a[i]`` for ``a[i] op= v``)."""
    copied = copy.deepcopy(target)
    for child in gast.walk(copied):
        if hasattr(child, "ctx"):
            child.ctx = gast.Load()
    return copied


def _holds_numpy(key):
    """Whether an argument's ``type_key`` (transpiler.type_keys) has a NumPy scalar or an array in a
    tuple."""
    if key[0] == "tuple":
        return any(_holds_numpy(k) for k in key[1])
    return key[0] == "array" or getattr(key[1], "__module__", None) == "numpy"


def _calls_itself(fdef, name):
    """Whether ``fdef`` calls a function or method named ``name`` (maybe itself)."""
    for node in gast.walk(fdef):
        if isinstance(node, gast.Call):
            func = node.func
            if (isinstance(func, gast.Name) and func.id == name) or (
                    isinstance(func, gast.Attribute) and func.attr == name):
                return True
    return False


def _int_or_float_by_path(kinds):
    """Whether Python-number operand kinds (python_numbers) hold an int on some paths and a
    float on others (kept in float64), with no operand always a float."""
    return "float" not in kinds and "num" in kinds
