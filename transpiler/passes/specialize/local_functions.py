"""Lambdas and nested ``def``: bound to a static :class:`LocalFunction`, each call specialized
into a generated function that receives the enclosing variables it reads.
"""

import gast

from ...analysis.scopes import local_names, parameter_names
from ...analysis.static_values import Static
from ...source import FunctionSource
from .nodes import _generated_name
from ...nodes import copy_tree, walk


class NotYetDefined:
    """What a nested function's call of a sibling ``def`` sees before that ``def`` ran."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"the nested function {self.name!r} before its definition (Python: NameError)"


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

    # how a refusal names it (nodes._describe)
    description = "a nested function or lambda used other than by calling it"

    def __init__(self, node, owner, captures, static_captures, defaults, name):
        self.node = node
        self.owner = owner
        self.captures = captures
        self.static_captures = static_captures
        self.defaults = defaults
        self.name = name

    def typing_view(self):
        """What the scalar-type analysis needs to type a call of it
        (analysis.callee_types.CalleeTypes.view_result): ``(FunctionDef, captures, statics,
        defaults)`` -- captures as ``[(name, caller's variable)]``, statics and defaults as
        name -> value."""
        return (self.node, list(self.captures),
                {name: held.value for name, held in self.static_captures.items()},
                {name: held.value for name, held in self.defaults.items()})

    def with_captures(self, captures):
        return LocalFunction(self.node, self.owner, captures, self.static_captures,
                             self.defaults, self.name)

    def source(self):
        """A FunctionSource whose parameters are the captures followed by the function's."""
        node = copy_tree(self.node)
        node.args = copy_tree(node.args)
        node.args.args = [gast.Name(id=c, ctx=gast.Param(), annotation=None, type_comment=None)
                          for c, _ in self.captures] + node.args.args
        node.args.defaults = []
        return FunctionSource(self.owner.function, self.owner.filename, node)


def _defined_in_loop(fdef, name, node):
    """Whether the definition ``node`` of local function ``name`` (a nested def, or the
    lambda of ``name = lambda ...``) is a statement of a ``for``/``while`` body and every
    read of ``name`` comes after it in that body. Each iteration then makes a new function
    of the same code whose free variables Python reads when it is called (the captures are
    passed at each call), and no read can see an earlier iteration's function or none:
    binding it once is the same (Python reference, "Naming and binding": closures read
    free variables at call time)."""
    for loop in walk(fdef):
        if not isinstance(loop, (gast.For, gast.While)):
            continue
        for position, stmt in enumerate(loop.body):
            if stmt is node or (isinstance(stmt, gast.Assign) and stmt.value is node):
                after = {id(n) for later in loop.body[position + 1:] for n in walk(later)}
                return all(id(n) in after for n in walk(fdef) if isinstance(
                    n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Load))
    return False


def _check_comprehension_shadowing(specializer, fdef, binding, captures, where):
    """Refuse a local function called inside a comprehension whose own variable has the name
    of one it captures: the call passes the capture by that name, which there is the
    comprehension's variable, not the enclosing one the closure reads."""
    captured = {var for var, _ in captures}
    for comp in walk(fdef):
        if not isinstance(comp, (gast.ListComp, gast.SetComp, gast.DictComp,
                                 gast.GeneratorExp)):
            continue
        bound = {n.id for g in comp.generators for n in walk(g.target)
                 if isinstance(n, gast.Name)}
        if bound & captured and any(isinstance(n, gast.Call) and isinstance(
                n.func, gast.Name) and n.func.id == binding for n in walk(comp)):
            specializer.fail(where, f"the local function {binding!r} is called in a "
                                    "comprehension whose variable shadows a name it reads")


class LocalFunctions:
    """Lambdas and nested ``def``: bound as static LocalFunction values."""

    def stmt_FunctionDef(self, node):
        if node.decorator_list:
            self.fail(node, "a decorated nested def is not converted")
        self._define_local(node.name, node)
        return []

    def expr_Lambda(self, node):
        return Static(self._local_function(node, "lambda"))

    def _define_local(self, name, node):
        """Bind ``name`` to a lambda or nested def: calls to it are specialized."""
        stores = sum(1 for n in walk(self.src.node)
                     if (isinstance(n, gast.Name) and n.id == name
                         and isinstance(n.ctx, (gast.Store, gast.Del)))
                     or (isinstance(n, gast.FunctionDef) and n.name == name
                         and n is not self.src.node))
        if stores != 1 or (self.nesting and not _defined_in_loop(self.src.node, name, node)):
            self.fail(node, f"the local function {name!r} must be defined once, at the top "
                            "level of the function body or of a loop's body that alone "
                            "calls it after the definition, to be converted")
        local = self._local_function(node, name, name)
        self.env[name] = Static(local)
        # Functions defined before this one that call it (mutual recursion) see it now, as
        # Python's closures would at their call.
        for earlier in getattr(self, "_later_locals", {}).pop(name, ()):
            earlier.static_captures[name] = Static(local)
            for held in local.captures:   # what this one captures must reach it as well
                if held not in earlier.captures:
                    earlier.captures.append(held)

    def _local_function(self, node, name, binding=None):
        """The LocalFunction of ``node``; ``binding``: the local name it is bound to (a nested
        ``def``'s own name, ``f = lambda ...``), None for a lambda used as a value."""
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
        # A function reading the name it is bound to calls itself (recursion): that name is
        # the function, bound statically below, never a captured variable.
        free = sorted({n.id for n in walk(fdef) if isinstance(n, gast.Name)
                       and isinstance(n.ctx, gast.Load)} - inner - {binding})
        captures, static_captures, later = [], {}, []
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
            elif var in self.locals and any(
                    isinstance(s, gast.FunctionDef) and s.name == var for s in self.src.node.body):
                later.append(var)   # a nested def defined further down: bound when it is
            elif var in self.locals:
                captures.append((var, var))
        for var in inner:
            if var in self.env and var not in static_captures and var not in parameter_names(
                    fdef):
                static_captures.pop(var, None)
        if binding is not None:
            _check_comprehension_shadowing(self, self.src.node, binding, captures, node)
        local = LocalFunction(fdef, self.src, captures, static_captures, defaults,
                              f"{_generated_name(self.fn)}_{name}")
        if binding is not None and any(isinstance(n, gast.Name) and n.id == binding
                                       and isinstance(n.ctx, gast.Load) for n in walk(fdef)):
            static_captures[binding] = Static(local)
        if later:
            pending = self.__dict__.setdefault("_later_locals", {})
            for var in later:
                pending.setdefault(var, []).append(local)
                # Called before `var` is defined, Python raises NameError (a free variable
                # not yet bound), whatever global has that name: it cannot be converted.
                static_captures[var] = Static(NotYetDefined(var))
        return local
