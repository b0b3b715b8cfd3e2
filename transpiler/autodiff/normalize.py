"""The differentiated function in three-address form: one operation per statement.

:func:`normalize` reads the function's source (``source.capture``: gast, the user's lines),
resolves at transpile time what is static (modules, functions, Cells and their non-array
attributes, numbers held by Cells, ``if`` on static values, ``for`` over static sequences: a
``SequentialCell``'s layers), inlines the Cells and user functions it calls (their ``construct``
or body, renamed), reads the arrays Cells hold as runtime inputs, and writes every runtime
operation as an :class:`Op` whose result has a name of its own (static single assignment: no
name is assigned twice, so the backward sweep reads every forward value by name).

An operation is *active* when it depends on a differentiated input and its result can carry a
derivative (not a comparison, a shape, an integer cast). Active operations need an adjoint
rule (:mod:`transpiler.autodiff.rules`); one without raises :class:`UnsupportedConstruct`
with the user's line. Control flow on runtime values is handled by
:mod:`transpiler.autodiff.control`.
"""
import builtins

import gast

from ..errors import Origin, UnsupportedConstruct
from ..source import capture
from . import rules
from .control import Unbound, branch, loop_for, loop_while
from .expressions import expression
from .values import Dyn, LocalFunction, Op, RuntimeRange, Static, Tup, is_active, render

MAX_INLINE_DEPTH = 40
MAX_UNROLL = 256     # a static ``for`` (over a list of Cells, a range of constants) is unrolled


class Normalizer:
    """Builds a :class:`Program`; one per differentiated function and specialization."""

    def __init__(self, program, weights):
        self.program = program
        self.weights = {id(w): k for k, w in enumerate(weights)}
        self.weight_names = {}        # weight index -> SSA name
        self.input_names = {}         # (id(owner), attr) -> Dyn
        self.depth = 0
        self.loop_depth = 0       # loops around the statements being normalized
        self.control = 0          # runtime branches and loops around them, in this function
        self.env = None           # the scope of the statement being normalized
        self.callers = []         # the scopes of the inlined functions' callers
        self.statements = program.body

    # -- the entry ---------------------------------------------------------------------------

    def function(self, function, self_obj, args, kwargs, origin):
        """Inline ``function`` called with ``args`` (values) and ``kwargs``; returns its
        result value. ``self_obj``: the bound instance (a Cell) or None."""
        if self.depth > MAX_INLINE_DEPTH:
            raise UnsupportedConstruct("calls nested too deep to differentiate (recursion?)",
                                       origin)
        if isinstance(function, LocalFunction):
            fdef, env = function.node, function.scope.child()
            where = env.origin(fdef)
            defaults, qualname = function.defaults, function.name
        else:
            captured = capture(function)
            fdef = captured.node
            env = Scope(function, captured.filename)
            where = captured.origin(fdef)
            defaults, qualname = list(function.__defaults__ or ()), function.__qualname__
        params = [a.id for a in fdef.args.args]
        if fdef.args.vararg or fdef.args.kwarg or fdef.args.kwonlyargs:
            raise UnsupportedConstruct(
                "differentiating through *args, **kwargs or keyword-only parameters is not "
                "supported yet", where)
        values = list(args)
        if self_obj is not None:
            values.insert(0, Static(self_obj))
        first_default = len(params) - len(defaults)
        for k, name in enumerate(params):
            if k < len(values):
                env.names[name] = values[k]
            elif name in kwargs:
                env.names[name] = kwargs.pop(name)
            elif k >= first_default:
                env.names[name] = Static(defaults[k - first_default])
            else:
                raise TypeError(f"{qualname}() missing argument {name!r}")
        if len(values) > len(params) or kwargs:
            raise TypeError(f"{qualname}() got unexpected arguments")
        self.depth += 1
        # the caller's names (a store here into an array it passed rebinds them too)
        self.callers.append(self.env)
        outer_control, self.control = self.control, 0
        try:
            if isinstance(fdef, gast.Lambda):
                returned = (self.expr(fdef.body, env), where)
            else:
                returned = self.block(fdef.body, env)
        finally:
            self.depth -= 1
            self.env = self.callers.pop()
            self.control = outer_control
        if returned is None:
            returned = (Static(None), where)
        return returned

    # -- statements --------------------------------------------------------------------------

    def block(self, body, env):
        """Convert statements; returns ``(value, origin)`` at a ``return``, else None."""
        for stmt in body:
            out = self.statement(stmt, env)
            if out is not None:
                return out
        return None

    def statement(self, stmt, env):
        self.env = env
        origin = env.origin(stmt)
        kind = type(stmt).__name__
        if isinstance(stmt, gast.Expr):
            if isinstance(stmt.value, gast.Constant):
                return None          # a docstring
            self.expr(stmt.value, env)    # its value dropped: no gradient flows from it
            return None
        if isinstance(stmt, gast.Pass):
            return None
        if isinstance(stmt, gast.FunctionDef):
            if stmt.decorator_list:
                raise UnsupportedConstruct("a decorated nested function is not differentiated",
                                           origin)
            env.names[stmt.name] = Static(self.local_function(stmt, env, stmt.name))
            return None
        if isinstance(stmt, gast.Return):
            value = Static(None) if stmt.value is None else self.expr(stmt.value, env)
            return (value, origin)
        if isinstance(stmt, gast.Assign):
            value = self.expr(stmt.value, env)
            for target in stmt.targets:
                self.assign(target, value, env, origin)
            return None
        if isinstance(stmt, gast.AnnAssign):
            if stmt.value is not None:
                self.assign(stmt.target, self.expr(stmt.value, env), env, origin)
            return None
        if isinstance(stmt, gast.AugAssign):
            current = self.expr(stmt.target, env)
            if isinstance(stmt.target, gast.Name):
                self.refuse_aliased_update(stmt.target.id, current, env, origin)
            value = self.binop(type(stmt.op).__name__, current, self.expr(stmt.value, env),
                               origin)
            self.assign(stmt.target, value, env, origin)
            return None
        if isinstance(stmt, gast.If):
            test = self.expr(stmt.test, env)
            if isinstance(test, Static):
                return self.block(stmt.body if test.value else stmt.orelse, env)
            return branch(self, stmt, test, env, origin)
        if isinstance(stmt, gast.For):
            iterable = self.range_or_value(stmt.iter, env, origin)
            from .control import has_jump
            if isinstance(iterable, Static) and isinstance(iterable.value, range) and \
                    has_jump(stmt.body):      # break/continue: a loop at run time
                r = iterable.value
                iterable = RuntimeRange([Static(r.start), Static(r.stop), Static(r.step)])
            if isinstance(iterable, Static) and not stmt.orelse:
                items = iterable.value
                if isinstance(items, (list, tuple, range)) and len(items) <= MAX_UNROLL:
                    for item in list(items):
                        self.assign(stmt.target, Static(item), env, origin)
                        if self.block(stmt.body, env) is not None:
                            raise UnsupportedConstruct("a return inside a loop is not "
                                                       "differentiated yet", origin)
                    return None
            return loop_for(self, stmt, iterable, env, origin)
        if isinstance(stmt, gast.While):
            return loop_while(self, stmt, env, origin)
        raise UnsupportedConstruct(f"a {kind} statement is not differentiated (supported: "
                                   "assignments, if, for, while, return)", origin)

    def range_or_value(self, node, env, origin):
        """A ``for``'s iterable: ``range(...)`` of static bounds as a static range, of
        runtime bounds as None (the loop reads them: nothing is emitted here), else its
        value."""
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id == "range" and not node.keywords:
            callee = env.lookup("range", origin)
            if isinstance(callee, Static) and callee.value is range:
                bounds = [self.expr(a, env) for a in node.args]
                if all(isinstance(b, Static) for b in bounds):
                    return Static(range(*(b.value for b in bounds)))
                return RuntimeRange(bounds)
        return self.expr(node, env)

    def local_function(self, node, env, name):
        """A ``def`` or ``lambda`` of the code being differentiated: inlined where it is
        called; its defaults evaluated here, its free names read from ``env`` at the call."""
        defaults = []
        for default in node.args.defaults:
            value = self.expr(default, env)
            if not isinstance(value, Static):
                raise UnsupportedConstruct("a nested function's default computed at run time",
                                           env.origin(default))
            defaults.append(value.value)
        return LocalFunction(node, env, defaults, name)

    def refuse_views(self, name, array, env, origin):
        """A store into an array another live name sees through a view (or that is a view of
        another live array), or that another name may be depending on the path taken (``b =
        a`` in one branch), changes that name's values: not followed, refused."""
        for scope in [env] + self.callers:
            if scope is None:
                continue
            for other, seen in scope.names.items():
                if isinstance(seen, Dyn) and (
                        (seen is array and array.sources) or
                        (seen is not array and array.name in seen.sources)):
                    with_whom = "another name's array" if seen is array else f"'{other}'"
                    raise UnsupportedConstruct(
                        f"a store into '{name}', which may be the same array as {with_whom} "
                        "depending on the path taken (an alias made in one branch or loop "
                        "iteration): not differentiated (copy it: .copy())", origin)
                if isinstance(seen, Dyn) and seen is not array and (
                        seen.view_of is array or array.view_of is seen):
                    raise UnsupportedConstruct(
                        f"a store into '{name}', whose memory '{other}' also refers to "
                        "through a view: the gradient does not follow stores through views",
                        origin)

    def propagate(self, old, new, origin):
        """After a loop or branch of an inlined function changed which array a name holds
        (stores in it), the callers' names for the old one name the new one: at the
        function's top level only."""
        if self.control:
            return        # the enclosing loop or branch of this function propagates at its end
        for scope in self.callers:
            if scope is None:
                continue
            for other, seen in list(scope.names.items()):
                if seen is old:
                    scope.names[other] = new

    def rebind(self, old, new, env, origin):
        """After a store, every name bound to the array (an alias ``b = a``, the caller's
        name for an argument) names its new version; inside a branch or loop, the callers'
        names are rebound when it ends (``propagate``)."""
        for scope in [env] + self.callers:
            if scope is None or (scope is not env and self.control):
                continue
            for other, seen in list(scope.names.items()):
                if seen is old:
                    scope.names[other] = new

    def refuse_aliased_update(self, name, current, env, origin):
        """``a += b`` updates an array in place; the gradient computes it as ``a = a + b``,
        which is the same only when no other name sees that array."""
        if not isinstance(current, Dyn):
            return
        for other, value in env.names.items():
            if other != name and isinstance(value, Dyn) and (
                    value.name == current.name or value.view_of is current
                    or current.view_of is value):
                raise UnsupportedConstruct(
                    f"'{name} += ...' updates an array that '{other}' also refers to: the "
                    "gradient does not follow in-place updates through aliases (write "
                    f"'{name} = {name} + ...')", origin)

    def assign(self, target, value, env, origin):
        if isinstance(target, gast.Name):
            env.names[target.id] = value
            return
        if isinstance(target, (gast.Tuple, gast.List)):
            if isinstance(value, Static):
                items = [Static(v) for v in value.value]
            elif isinstance(value, Tup):
                items = value.items
            else:
                items = [self.op(f"{value.name}[{k}]", "index", [value, Static(k)], {},
                                 origin, hint="t") for k in range(len(target.elts))] \
                    if not value.active else None
                if items is None:
                    raise UnsupportedConstruct("unpacking a differentiated value whose "
                                               "length is not known here", origin)
            if len(items) != len(target.elts):
                raise ValueError(f"{origin}: cannot unpack {len(items)} values into "
                                 f"{len(target.elts)}")
            for t, v in zip(target.elts, items):
                self.assign(t, v, env, origin)
            return
        if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name):
            name = target.value.id
            array = self.expr(target.value, env)
            if not isinstance(array, Dyn):
                raise UnsupportedConstruct("a store into an object known at transpile time",
                                           origin)
            self.refuse_views(name, array, env, origin)
            index = self.expr(target.slice, env)
            if is_active(index):
                raise UnsupportedConstruct("an index computed from a differentiated value",
                                           origin)
            if array.root_borrowed():
                if self.loop_depth:
                    raise UnsupportedConstruct(
                        f"a store inside a loop into '{name}', an array the caller passed: the "
                        f"gradient never mutates its arguments (write '{name} = "
                        f"{name}.copy()' before the loop)", origin)
                copy = self.op(f"{array.name}.copy()", "copy", [array], {}, origin, hint=name)
                self.rebind(array, copy, env, origin)   # every name of the caller's array
                array = copy
            from .stores import store
            new = store(self, array, index, value, origin, name)
            env.names[name] = new
            self.rebind(array, new, env, origin)
            return
        raise UnsupportedConstruct("this assignment target is not differentiated (names, "
                                   "tuples of names and 'name[index] = value' are)", origin)

    # -- operations -----------------------------------------------------------------------------

    def op(self, src, rule, args, kw, origin, hint="t", active=None, view_of=None, extra=None,
           kind=None):
        """Emit ``new = src``; ``rule`` is the adjoint rule used when the op is active;
        ``kind`` what it is when no rule names it (see Op.kind)."""
        if active is None:
            active = rule is not None and any(is_active(a) for a in args)
        name = self.program.new_name(hint)
        if active and rule not in rules.RULES:
            raise UnsupportedConstruct(f"no gradient rule for {rule}", origin)
        self.statements.append(Op(name, src, rule if active else None, args, kw, origin,
                                  extra, kind or rule))
        return Dyn(name, active, view_of)

    def binop(self, opname, left, right, origin):
        symbol = BINOPS.get(opname)
        if symbol is None:
            raise UnsupportedConstruct(f"the operator {opname} is not supported", origin)
        if isinstance(left, Static) and isinstance(right, Static):
            return Static(eval_binop(symbol, left.value, right.value))
        src = f"{self.wrap(left)} {symbol} {self.wrap(right)}"
        rule = BINOP_RULES.get(opname)
        if rule is None and (is_active(left) or is_active(right)):
            raise UnsupportedConstruct(f"the operator '{symbol}' has no derivative (its "
                                       "result is an integer or a bool)", origin)
        return self.op(src, rule, [left, right], {}, origin, kind="binop")

    def wrap(self, value):
        text = render(value, self.program)
        if isinstance(value, Static) and isinstance(value.value, (int, float)) and \
                value.value < 0:
            return f"({text})"
        return text

    # -- expressions ------------------------------------------------------------------------

    def expr(self, node, env):
        return expression(self, node, env)

    def cell_call(self, cell, args, kwargs, origin):
        from .cells import cell_call
        return cell_call(self, cell, args, kwargs, origin)


BINOPS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "Pow": "**", "MatMult": "@",
          "FloorDiv": "//", "Mod": "%", "BitAnd": "&", "BitOr": "|", "BitXor": "^",
          "LShift": "<<", "RShift": ">>"}
BINOP_RULES = {"Add": "add", "Sub": "sub", "Mult": "mul", "Div": "div", "Pow": "pow",
               "MatMult": "matmul"}


def eval_binop(symbol, a, b):
    import operator
    table = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "**": operator.pow, "@": operator.matmul, "//": operator.floordiv,
             "%": operator.mod, "&": operator.and_, "|": operator.or_, "^": operator.xor,
             "<<": operator.lshift, ">>": operator.rshift}
    return table[symbol](a, b)


class Scope:
    """Names of one inlined function: its locals (values) over its globals and closure; a
    nested function's scope reads its free names from the scope that defined it
    (``parent``)."""

    parent = None

    def child(self):
        """The scope of a nested function defined here."""
        other = Scope.__new__(Scope)
        other.function, other.filename, other.free = self.function, self.filename, self.free
        other.names, other.parent = {}, self
        return other

    def __init__(self, function, filename):
        self.function = function
        self.filename = filename
        self.names = {}
        closure = function.__closure__ or ()
        self.free = {}
        for name, cell in zip(function.__code__.co_freevars, closure):
            try:
                self.free[name] = cell.cell_contents
            except ValueError:
                pass

    def copy(self):
        """The same names, for a block normalized apart (a branch, a loop body)."""
        other = Scope.__new__(Scope)
        other.function, other.filename, other.free = self.function, self.filename, self.free
        other.names, other.parent = dict(self.names), self.parent
        return other

    def origin(self, node):
        return Origin(self.filename, getattr(node, "lineno", 0) or 0,
                      getattr(node, "col_offset", 0) or 0)

    def lookup(self, name, origin):
        if name in self.names:
            value = self.names[name]
            if isinstance(value, Unbound):
                raise UnsupportedConstruct(
                    f"'{name}' is {value.why} (line {value.origin.lineno}) and read after it: "
                    "not differentiated (define it before)", origin)
            return value
        if self.parent is not None:
            return self.parent.lookup(name, origin)
        if name in self.free:
            return Static(self.free[name])
        glob = self.function.__globals__
        if name in glob:
            return Static(glob[name])
        if hasattr(builtins, name):
            return Static(getattr(builtins, name))
        raise NameError(f"{origin}: name {name!r} is not defined")
