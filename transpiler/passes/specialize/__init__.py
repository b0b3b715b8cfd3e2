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
- operators and calls on numbers follow Python's and NumPy's rules (NEP 50, overflow checks)
  where Numba's differ, through graphjit's helpers (transpiler.helpers, tables in transpiler.number_rules);
- what it does not convert raises :class:`~transpiler.errors.UnsupportedConstruct` with the
  construct's origin.

The body is first rewritten with its structured control flow (``if``/``while``/``for``,
``break``, ``continue``, ``return``); then ``Specializer.run`` checks definite assignment and
lowers it to the functional forms of the IR (``transpiler.passes.to_functional_form``: single
exit, loop ``else``, ``break``/``continue`` as flags, then ``cond`` / ``while_loop`` /
``for_range`` / ``for_each``). The generated function holds those forms; a backend that compiles
loops natively turns them back into structured control flow (backends/restructure.py).

``Specializer`` is one object per function being specialized, composed of mixins, one job per
module:

======================== ====================================================================
module                   job (and the state of ``Specializer`` it reads or changes)
======================== ====================================================================
``__init__``             ``specialize()``, the entry; ``Specializer.__init__`` sets every
                         attribute below; ``run`` builds the GeneratedFunction (``symbol``,
                         ``dynamic_params``, ``recursive_calls``; the type analyses:
                         ``scalar_types``, ``weak_merges``, ``narrow``, ``result_types``,
                         ``tagged``/``tag``)
``statements``           ``block``/``stmt`` dispatch, assignments, ``return``/``raise``/
                         ``assert``, assignment targets (``_container_names``)
``control_flow``         ``if``/``while``/``for``, unrolling static sequences, ``break``/
                         ``continue`` (``nesting``; binds loop targets in ``env``)
``local_functions``      lambdas and nested ``def`` (``LocalFunction``; binds them in ``env``)
``expressions``          the ``expr``/``value`` dispatch and the operator nodes (BinOp,
                         UnaryOp, Compare, BoolOp, IfExp, Tuple)
``environment``          names, attributes and subscripts resolved to static values, their
                         guards, runtime inputs and fresh names (``env``, ``bindings``,
                         ``locals``, ``inputs``, ``freevars``, ``fn_globals``, ``narrow``);
                         materialization; instance facts (``program.instance_specific``);
                         constant folding
``calls``                ``expr_Call``: which rule a call takes (builtins, library calls,
                         NumPy's checks; ``program.uses_random``/``random_seeded``)
``user_calls``           calls to converted functions: specialized recursively, memoized,
                         shared (``program.memo``/``in_progress``/``dedup``; the callee's
                         ``recursive_calls``)
``numpy_scalar_rules``   NumPy 2's loops for operators and builtins on NumPy scalars
``numpy_array_rules``    NumPy's rules for array operands, in-place updates, integer stores
``python_number_rules``  Python's rules for Python numbers: checked int arithmetic, ``**``,
                         ``/``, ``//``, ``%`` (``numbers``, ``python_numbers``,
                         ``python_values``, ``_int_safe``; ``program.int_sites``)
``weak_numbers``         NEP 50: a Python number meeting a NumPy value takes its dtype
``result_tag``           the flag beside a result that is a Python number on some paths
                         (``tagged``, ``tag``)
``refusals``             ``fail`` and what is not converted (the tables; lists of mixed numbers)
``nodes``                small gast constructors and predicates shared by the others
======================== ====================================================================

``fidelity`` (False in graphjit's own helpers, transpiler.helpers: converted with Numba's rules), ``program``,
``src``/``fn`` and ``scalar_types`` are read by most modules.
"""
import copy
import inspect

import gast

from ...analysis.callee_types import CalleeTypes
from ...analysis.definite_assignment import check_definite_assignment
from .. import (attribute_stores, comprehension_names, comprehensions, definedness_flags,
                delete_names, errstate_blocks, function_imports, match_statements,
                named_expressions, list_arguments, namedtuple_locals, nonlocal_functions,
                operator_calls, starred_tuples, tuple_arguments)
from ...analysis.python_numbers import exponent_params, Numbers, UNKNOWN
from ...analysis.scalar_types import ScalarTypes, type_of_value, UNKNOWN as UNKNOWN_TYPE
from ...analysis.scopes import local_names, parameter_names
from ...analysis.static_values import is_runtime_value, is_scalar, Path, Static
from ...errors import UnsupportedConstruct
from ...helpers import is_helper_module
from ...program import GeneratedFunction
from ...source import capture, FunctionSource
from .. import to_functional_form
from ...nodes import function_def, node_types
from ..split_webs import split_webs
from .calls import Calls
from .control_flow import ControlFlow
from .environment import Environment
from .expressions import Expressions
from .local_functions import LocalFunctions
from .nodes import _generated_name, _load, _store
from .numpy_array_rules import NumpyArrayRules
from .numpy_scalar_rules import NumpyScalarRules
from .python_number_rules import PythonNumberRules
from .refusals import Refusals
from ...analysis.scalar_kinds import alike_pair
from ...analysis.tuple_items import kind_leaves
from .result_tag import ResultTag, per_return_tags, _calls_itself
from .statements import Statements
from .user_calls import UserCalls, _static_key
from .weak_numbers import WeakNumbers


class _Census:
    """Which node kinds a tree has (one walk), for skipping the desugarings that could not
    apply: ``having(tree, *kinds)`` is whether ``tree`` has a node of one of ``kinds``; the
    census is taken again when ``tree`` is not the one it was taken of (a desugaring that
    rewrote something returns a new tree)."""

    def __init__(self, tree):
        self._tree, self._kinds = tree, node_types(tree)

    def __call__(self, tree, *kinds):
        if tree is not self._tree:
            self._tree, self._kinds = tree, node_types(tree)
        return not self._kinds.isdisjoint(kinds)


class Specializer(Refusals, Statements, ResultTag, ControlFlow, LocalFunctions, Expressions,
                  Environment, Calls, UserCalls, NumpyScalarRules, NumpyArrayRules,
                  PythonNumberRules, WeakNumbers):
    """Specialize one Python function; see the module docstring.

    Args:
        program (Program): the program being built.
        source (FunctionSource): the parsed function.
        bindings (dict[str, Static]): parameters bound to static values (``self``, static
            arguments, static values passed by a caller).
    """

    def __init__(self, program, source, bindings, extra_params=(), python_params=(),
                 numpy_params=(), array_params=None, param_types=None, entry=False,
                 python_values=None):
        self.program = program
        self.entry = entry          # the program's entry: its result reaches the caller
        self.tagged = None          # ScalarTypes.tagged: (name, dtype, python kind)
        self.return_tags = None     # id(Return) -> whether it returns the Python number
        self.return_tagged = None   # ("", dtype, python kind) when return_tags is set
        self.tag = None             # the flag variable beside it
        self.tag_flags = {}         # alike_tag: name -> its flag variable (tag among them)
        self.extra_params = list(extra_params)
        self.recursive_calls = []   # (call node, calling Specializer, source node)
        self.symbol = None
        self.dynamic_params = []
        self.tuple_params = {}      # an entry's tuple parameter -> its items' parameters
        self.list_params = {}       # an entry's list parameter -> the Path _prepare converts
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
        self.nesting = 0            # depth of if/while/for around the current statement
        self.unrolling = 0          # of which loops over static sequences (unrolled)
        self.fn_globals = getattr(self.fn, "__globals__", {})
        code = self.fn.__code__
        self.freevars = dict(zip(code.co_freevars, self.fn.__closure__ or ()))
        # Desugaring, before any analysis reads the tree: `match` -> if/elif;
        # a comprehension's variable named as another binding -> a name of its own;
        # `import math` -> a static module;
        # `del t` (dead after) -> `t`;
        # `if (y := f(x)) > 0` -> `y = f(x);
        # if y > 0`, operator.add(a, b) -> a + b (the names read are guarded in run),
        # sum/any/all of a generator expression and functools.reduce -> loops.
        having = _Census(source.node)   # one walk; a desugaring whose node kinds are absent
        node = source.node              # is skipped (each would walk the tree to find out)
        if having(node, gast.Match):
            node = match_statements.desugar(node)
        if having(node, *comprehension_names.COMPREHENSIONS):
            node = comprehension_names.desugar(node)
        if having(node, gast.Nonlocal):
            node = nonlocal_functions.desugar(node, named_expressions.desugar)
        desugared, imported = function_imports.desugar(node)
        self.writeback, self.attribute_reads = [], set()
        first = (parameter_names(source.node) or [None])[0]
        if entry and first in bindings and bindings[first].path == Path(((("self",)),)):
            # `self.count += 1`: a local, written back when the call returns
            desugared, self.writeback, self.attribute_reads = attribute_stores.desugar(
                desugared, first, bindings[first].value)
            if self.writeback:
                program.writeback_instance = bindings[first].value
        self.env.update((name, Static(value)) for name, value in imported.items())
        if having(desugared, gast.NamedExpr):
            desugared = named_expressions.desugar(desugared)
        if having(desugared, gast.Delete):
            desugared = delete_names.desugar(desugared)
        desugared, self.operator_functions = operator_calls.desugar(desugared,
                                                                    self._resolve_static)
        desugared, quieted = errstate_blocks.desugar(desugared, self._resolve_static) if \
            having(desugared, gast.With) else (desugared, [])
        desugared, made = namedtuple_locals.desugar(desugared, self._resolve_static)
        desugared = starred_tuples.desugar(desugared)     # t = (x, 2.0); f(*t)
        quieted += made             # p = Point(x, y) read by field: its class guarded too
        self.operator_functions += quieted      # np.errstate: guarded like them
        reduced = comprehensions.desugar(desugared, comprehensions.builtin_shadowed(
            self.fn, self.locals), self._resolve_static, self.operator_functions)
        if reduced is not desugared:    # reduce(operator.add, ...) calls operator.add
            desugared, more = operator_calls.desugar(reduced, self._resolve_static)
            self.operator_functions += more
        if desugared is not source.node:
            self.src = source = FunctionSource(source.function, source.filename, desugared)
            self.locals = local_names(source.node)
        # Which expressions are Python numbers (no NEP 50 `weak` needed against them; Python's
        # rules for `**`) and which are NumPy scalars (NumPy's rules for `**`, `/`, `//`, `%`).
        # An int argument read in an exponent: specialized on its sign (`n ** i` an int for
        # i >= 0, as _checked_binop computes it), which every analysis then knows.
        python_values = dict(python_values or {})
        candidates = [p for p, kind in dict(python_params).items() if kind == "int"
                      and p in python_values and type(python_values[p][1]) is int]
        nonneg = {name for name in exponent_params(source.node, candidates)
                  if python_values[name][1] >= 0} if having(source.node, gast.Pow) else set()
        for name in sorted(nonneg):
            program.guard_sign(python_values[name][0], True)
        self.numbers = Numbers(source.node, self.locals - set(bindings), python_params,
                               self._resolve_static, numpy_params, array_params,
                               nonneg_seeds=nonneg)
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
            or numbers._python_here(aug.target) or aug.target.id in scalars), numbers._reaching)
        if self.renamed:
            self.src = source = FunctionSource(source.function, source.filename, node)
            self.locals = local_names(node)
            self.numbers = Numbers(node, self.locals - set(bindings), python_params,
                                   self._resolve_static, numpy_params, array_params,
                                   nonneg_seeds=nonneg)
        self._numbers_args = (self.locals - set(bindings), python_params, self._resolve_static,
                              numpy_params, array_params)
        self._nonneg_params = nonneg
        # Which types each name holds by path, where Numba's one type per name would differ.
        self.param_types = dict(param_types or {})
        self.weak_merges = {}       # name -> dtype: Python numbers assigned to it are converted
        self.result_types = None    # ScalarTypes.result_types: the result's NumPy box
        self.scalar_types = None
        self.narrow = {}            # id(read) -> dtype: a float64-stored read narrowed back
        self.python_numbers = set(self.numbers.kinds)
        self.fidelity = not is_helper_module(self.fn.__module__)
        self._int_safe = None       # analysis.int_bounds.safe_names, when first needed
        self._container_names = None   # names assigned a dict/list/set display (stmt_Raise)
        self.python_values = python_values  # entry parameters called with Python numbers

    def run(self, symbol):
        """Build the generated function under module symbol ``symbol``."""
        node = self.src.node
        params = parameter_names(node)
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs:
            self.fail(node, "*args, **kwargs and keyword-only parameters are not converted yet")
        self.symbol = symbol
        self.dynamic_params = dynamic = self.extra_params + [
            p for p in params if p not in self.env and p not in self.list_params]
        for name, path in self.list_params.items():     # read as an array (list_arguments)
            self.inputs[path] = name
        items = {item: name for name, held in self.tuple_params.items() for item in held}
        if items:   # the entry takes the tuple itself: unpacked first (passes/tuple_arguments)
            self.dynamic_params = dynamic = [items.get(p, p) for p in dynamic
                                             if p not in items or self.tuple_params[items[p]][
                                                 0] == p]
        for function in self.operator_functions:
            self.expr(function)     # guards the name an operator call was read through
        if self.fidelity:
            # (the extra parameters: what a nested function passed in captures)
            types = ScalarTypes(node, {p: self.param_types.get(p, UNKNOWN_TYPE)
                                       for p in self.extra_params + params
                                       if p not in self.env}, self._resolve_static, UNKNOWN,
                                int_power=self._int_power, reaching=self.numbers._reaching,
                                callees=CalleeTypes(split=_split_tuple))
            # Only the entry's result is boxed by the caller (a converted callee's result
            # stays in compiled code), and a recursive call would read the flag too.
            items = types.item_kinds()
            if items:   # `s, n = helper(x)`: what the callee's analysis says of its items
                self.numbers = Numbers(node, *self._numbers_args, item_kinds=items,
                                       nonneg_seeds=self._nonneg_params)
                self.python_numbers = set(self.numbers.kinds)
            may_tag = self.entry and not _calls_itself(node, self.fn.__name__)
            self.weak_merges = types.weak_merges(tag_result=may_tag)
            self.tagged = types.tagged
            if self.tagged is None and may_tag:
                self.tagged = types.alike_tag()
            if self.tagged is None and may_tag:
                # returns of a Python number and of the NumPy scalar Numba boxes alike
                # (`return a[i]` / `return -1.0`): each return says which (ResultTag)
                found = per_return_tags(types, node)
                if found is not None:
                    self.return_tags, self.return_tagged = found
            if self.tagged:
                self.tag = self.new_local(f"{self.tagged[0]}_is_python")
                if types.tag_chain and self.tagged is not types.tagged:   # alike_tag's flags
                    self.tag_flags = {name: self.tag if name == self.tagged[0] else
                                      self.new_local(f"{name}_is_python")
                                      for name in types.tag_chain}
            # a recursive entry cannot carry a flag (the recursive call would read it): it is
            # refused too when its result is a Python number or the NumPy scalar by path
            refuse_alike = self.entry and self.return_tags is None and (
                not self.tagged or _tagged_items(self.tagged, types.result_tag) is not None)
            self.narrow = types.float_storage(self.weak_merges)
            self.scalar_types = types
            self.result_types = types.result_boxes()
            for where, reason in types.problems(self.weak_merges, self.renamed):
                self.fail(where, reason)
            self._check_list_elements(node)
        body = self.block(node.body, top=True)
        if self.fidelity and refuse_alike:
            # after the body: a construct it cannot convert is the better reason to give
            _refuse_alike_result(self, self.scalar_types, node,
                                 _tagged_items(self.tagged, self.scalar_types.result_tag))
        if self.tag_flags:
            for name, python in self.scalar_types.tag_params.items():
                body.insert(0, gast.copy_location(gast.Assign(
                    targets=[_store(self.tag_flags[name])],
                    value=gast.Constant(value=python, kind=None), type_comment=None), node))
        elif self.tagged and self.scalar_types.tag_param is not None:
            body.insert(0, gast.copy_location(gast.Assign(
                targets=[_store(self.tag)],
                value=gast.Constant(value=self.scalar_types.tag_param, kind=None),
                type_comment=None), node))
        if self.tagged and self.recursive_calls:
            self.fail(node, "a recursive function whose result is a Python number or a NumPy "
                            "scalar by path")
        if not body:
            body = [gast.Return(value=None)]
        body[:0] = [tuple_arguments.unpacking(name, held, node)
                    for name, held in self.tuple_params.items()]
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
        local_vars = (self.locals - set(self.env)) | set(dynamic) | {n for n, _ in names} | set(
            items)
        flags = definedness_flags.transform(fdef, local_vars, taken)
        check_definite_assignment(fdef, local_vars - set(flags), self.src.filename,
                                  self.fn.__qualname__)
        taken |= to_functional_form(fdef, local_vars,
                                    lambda form: self.program.ir_symbol(form).ref(), flags)
        symbol.nodes.append(fdef)
        generated = GeneratedFunction(symbol, fdef, dynamic, names, self.src.filename,
                                      self.fn.__qualname__, taken)
        generated.result_types = self.result_types
        generated.returns_value = bool(self.scalar_types) and any(
            r.value is not None for r in self.scalar_types.returns)
        generated.writeback = self.writeback    # the result tuple's attributes after it
        # the scalar types of each name (parallel loops: which reductions are exact)
        generated.name_types = dict(self.scalar_types.types) if self.scalar_types else {}
        result_tag = self.scalar_types.result_tag if self.scalar_types else None
        generated.tagged = (result_tag if self.tagged and result_tag else
                            self.tagged or self.return_tagged)    # (name, dtype, kind[, slot])
        return generated


def _tagged_items(tagged, result_tag):
    """The indices of a tuple result's items that carry a flag, or None where the flag is
    the whole result's (or there is none: an empty set)."""
    if not tagged:
        return set()
    if result_tag and result_tag[3] is not None:
        return {index for index, _, _ in result_tag[3]}
    return None


def _refuse_alike_result(specializer, types, fdef, tagged=()):
    """Fall back where the result (or an item of a tuple result not among the ``tagged``
    indices) is a Python number on some paths and the NumPy scalar that computes alike on
    others (a float or an np.float64) and no flag can tell which: Numba boxes both as the
    Python number, the plain call would not."""
    for path, part in kind_leaves(types.result_boxes()):
        if path and path[0] in tagged:
            continue
        if len(path) > 1 and _refuse_nested(specializer, types, fdef, part):
            continue
        pair = alike_pair(part or ())
        if pair is not None:
            python, numpy = pair
            where = next((r for r in types.returns if r.value is not None), fdef)
            specializer.fail(where, f"the result is a Python {python} on some paths and an "
                             f"np.{numpy[3:]} on others; compiled code cannot tell which "
                             f"(assign it to one variable and return that, or give it one "
                             f"type where it is first assigned)")


def _refuse_nested(specializer, types, fdef, part):
    """Fall back where an item of a tuple nested in the result is a NumPy scalar on some
    paths and another type on others (a Python number, another dtype): its box depends on
    the path, and a flag follows only the result's own items. Returns whether it did."""
    if len(part) < 2 or not any(k.startswith("np:") for k in part) or UNKNOWN_TYPE in part:
        return False
    where = next((r for r in types.returns if r.value is not None), fdef)
    specializer.fail(where, "an item of a tuple nested in the result is a Python number on "
                            "some paths and a NumPy scalar on others; compiled code cannot "
                            "tell which")
    return True



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
            their arithmetic (transpiler.helpers.numpy_arith). A NumPy scalar's type is guarded (called
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
    fargs = source.node.args
    if fargs.kwarg is None and (fargs.kwonlyargs or fargs.posonlyargs):
        # keyword-only and positional-only parameters: the dispatcher binds every argument in
        # the signature's order, defaults applied (arguments.bind_values): all positional here
        node = copy.copy(source.node)
        node.args = copy.copy(fargs)
        node.args.args = list(fargs.posonlyargs) + list(fargs.args) + (
            [fargs.vararg] if fargs.vararg is not None else []) + list(fargs.kwonlyargs)
        node.args.posonlyargs, node.args.kwonlyargs, node.args.kw_defaults = [], [], []
        node.args.vararg, node.args.defaults = None, []
        source = FunctionSource(source.function, source.filename, node)
    elif fargs.vararg is not None and not fargs.kwarg:
        # `def f(a, *rest)`: the dispatcher binds `rest` to a tuple, passed as a parameter
        node = copy.copy(source.node)
        node.args = copy.copy(fargs)
        node.args.args = list(fargs.args) + [fargs.vararg]
        node.args.vararg = None
        source = FunctionSource(source.function, source.filename, node)
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
    tuple_params, list_params = {}, {}
    for name, (index, key) in (arg_keys or {}).items():
        # Every other argument is guarded on its complete type too (None, str, complex, a
        # tuple and its items' types...): a call never reuses code made for another type.
        if name not in bindings:
            program.guard(Path(((("arg", index)),)), "typekey", key)
            kinds = tuple_arguments.item_kinds(key)
            if kinds is not None and set(kinds) & {int, bool, float, complex}:
                # its items typed as the Python numbers they are: one parameter each
                items = tuple_arguments.item_names(name, len(kinds), local_names(source.node))
                node = tuple_arguments.desugar(source.node, name, items, key[2]._fields if
                                               key[0] == "namedtuple" else None)
                if node is None:
                    raise UnsupportedConstruct(
                        f"argument {name!r} is a tuple of numbers that the function rebinds, "
                        "reads in a nested function or comprehension, or (a namedtuple) uses "
                        "whole: its items would not be typed as Python numbers (unpack it "
                        f"first: a, b = {name})", source.origin(source.node))
                source = FunctionSource(source.function, source.filename, node)
                tuple_params[name] = items
                for item, kind in zip(items, kinds):
                    if kind in tuple_arguments.PYTHON_ITEMS:
                        python_params[item] = tuple_arguments.PYTHON_ITEMS[kind]
                    param_types[item] = type_of_value(kind())
            if key[0] == "list" and key[1] is not None:
                # read as a 1-D array whose elements come back as Python numbers
                node, use = list_arguments.desugar(source.node, name, key[1],
                                                   comprehensions.builtin_shadowed(
                                                       function, local_names(source.node)))
                if node is None:
                    raise UnsupportedConstruct(
                        f"argument {name!r} is a list, used here other than by {name}[i], "
                        f"for v in {name}, enumerate, a comprehension, len, sum, any or all: "
                        "compiled code reads a list of numbers only as an array",
                        source.origin(use))
                source = FunctionSource(source.function, source.filename, node)
                dtype = list_arguments.ELEMENTS[key[1]][1]
                array_params[name] = 1
                param_types[name] = f"arr:{dtype}:1"
                list_params[name] = Path(((("arg", index)), ("list", dtype)))
            if key == ("type", complex):
                param_types[name] = "complex"
            if key[0] in ("tuple", "namedtuple") and _holds_numpy(key):
                raise UnsupportedConstruct(
                    f"argument {name!r} is a tuple holding NumPy scalars or arrays: its items "
                    "are not typed by path yet, so their arithmetic would follow Numba's rules "
                    "(pass them as separate arguments)", source.origin(source.node))
    specializer = Specializer(program, source, bindings, python_params=python_params,
                              numpy_params=numpy_params, array_params=array_params,
                              param_types=param_types, entry=True,
                              python_values=python_values)
    specializer.tuple_params = tuple_params
    specializer.list_params = list_params
    key = (function,) + tuple(sorted((name, _static_key(s.value))
                                     for name, s in bindings.items()))
    program.in_progress[key] = specializer      # a recursive call finds the entry itself
    entry = specializer.run(symbol)
    del program.in_progress[key]
    program.functions.append(entry)
    program.entry = entry
    return entry


def _split_tuple(fdef, name, count):
    """``fdef`` with its parameter ``name`` split into ``count`` item parameters, and their
    names (passes.tuple_arguments, as a call with a tuple display converts it), or None."""
    items = tuple_arguments.item_names(name, count, local_names(fdef))
    rewritten = tuple_arguments.desugar(fdef, name, items)
    return None if rewritten is None else (rewritten, items)


def _holds_numpy(key):
    """Whether an argument's ``type_key`` (transpiler.type_keys) has a NumPy scalar or an array in a
    tuple."""
    if key[0] in ("tuple", "namedtuple"):
        return any(_holds_numpy(k) for k in key[1])
    return key[0] == "array" or getattr(key[1], "__module__", None) == "numpy"
