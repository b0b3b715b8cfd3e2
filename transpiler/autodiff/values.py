"""The values and statements of a normalized function (three-address form; see normalize.py):
what is static, what is a runtime value, how each is written in generated source."""
import math
import types

import numpy as np


class Static:
    """A value known at transpile time."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Dyn:
    """A runtime value: the name of the SSA variable holding it; ``active`` when it carries
    a derivative of a differentiated input."""
    __slots__ = ("name", "active", "view_of", "borrowed", "same_as", "sources")

    def __init__(self, name, active, view_of=None, borrowed=False):
        self.name = name
        self.active = active
        self.view_of = view_of    # the Dyn whose memory this one shares (a view), or None
        self.borrowed = borrowed  # the caller's array (an argument, a Cell's weight)
        self.same_as = None       # the first name of the same array object (after stores)
        self.sources = set()      # names of arrays it may be, by path (a merge)

    def root_borrowed(self):
        """Whether this array, or the one it is a view of, belongs to the caller."""
        return self.borrowed or (self.view_of is not None and self.view_of.root_borrowed())


class Tup:
    """A tuple or list whose items are values (some runtime): ``(x.shape[0], -1)``."""
    __slots__ = ("items", "kind")

    def __init__(self, items, kind="tuple"):
        self.items = list(items)
        self.kind = kind


class Lazy:
    """An inactive expression kept whole where it is used (``x.shape[0]``,
    ``x.dtype.type(0)``): attribute reads of arrays, never differentiated, with no effect;
    written in place rather than as a statement so the compilers see the expression the user
    wrote (the type of ``x.dtype.type(0)`` is known; of a name bound to it, not always)."""
    __slots__ = ("text", "deps")

    def __init__(self, text, deps):
        self.text = text
        self.deps = list(deps)


class Method:
    """``x.name`` of a runtime ``x`` before the call: a method, bound at the call."""
    __slots__ = ("owner", "attr")

    def __init__(self, owner, attr):
        self.owner = owner
        self.attr = attr


class RuntimeRange:
    """``range(...)`` with runtime bounds (their values), the iterable of a runtime loop."""

    def __init__(self, bounds):
        self.bounds = bounds


class LocalFunction:
    """A nested ``def`` or a ``lambda`` met in the code being differentiated."""

    def __init__(self, node, scope, defaults, name):
        self.node, self.scope, self.defaults, self.name = node, scope, defaults, name


class Op:
    """``target = src``: one operation.

    Attributes:
        target (str): the SSA name of the result.
        src (str): the forward expression (Python over SSA names and constants).
        rule (str | None): the adjoint rule's key (rules.RULES) when active, else None.
        args (list): the operands the rule reads (Dyn, Static or Tup values).
        kw (dict): static keyword values the rule reads (``axis``, ``keepdims``...).
        origin (Origin): the user's line.
        extra: rule-specific data (a Cell's ``bprop`` program).
        kind (str | None): the operation's kind even when inactive (``rule`` is then None).
    """
    __slots__ = ("target", "src", "rule", "args", "kw", "origin", "extra", "kind")

    def __init__(self, target, src, rule, args, kw, origin, extra=None, kind=None):
        self.target, self.src, self.rule, self.args = target, src, rule, args
        self.kw, self.origin, self.extra = kw, origin, extra
        # what the operation is, active or not (its rule's name, "cmp", "ufunc", "create",
        # "index"...): whether its result's shape follows from its operands' shapes
        self.kind = kind or rule


class Program:
    """The normalized function.

    Attributes:
        name (str): the function's name.
        origin (Origin): its ``def`` line.
        params (list[str]): SSA names of its parameters, in order.
        inputs (list[tuple]): ``(owner, attr, ssa_name)`` arrays read from Cells.
        body (list): Op and control-flow statements (:mod:`.control`).
        result: the returned value (Dyn, Static or Tup).
        result_origin (Origin): the ``return`` line.
        constants (dict): name -> static object the generated module needs.
        guards (list): ``(owner, attr, value)`` static attribute reads to check at each call.
    """

    def __init__(self, name, origin):
        self.name, self.origin = name, origin
        self.params, self.inputs, self.body = [], [], []
        self.result = self.result_origin = None
        self.constants, self.guards = {}, []
        self._names = {}
        self._const_ids = {}

    def new_name(self, hint):
        """A fresh SSA name built from ``hint`` (a user variable's name, or ``t``)."""
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in hint).strip("_") or "t"
        count = self._names.get(base, 0) + 1
        self._names[base] = count
        return f"{base}_{count}"

    def constant(self, value):
        """The name under which the generated module holds ``value``."""
        key = id(value)
        if key not in self._const_ids:
            name = f"_k{len(self.constants)}"
            self.constants[name] = value
            self._const_ids[key] = name
        return self._const_ids[key]


_SIMPLE = (bool, int, str, type(None))


def render(value, program):
    """Python source for ``value`` inside the generated function."""
    if isinstance(value, Dyn):
        return value.name
    if isinstance(value, Lazy):
        return value.text
    if isinstance(value, Tup):
        inner = ", ".join(render(v, program) for v in value.items)
        if value.kind == "list":
            return f"[{inner}]"
        return f"({inner},)" if len(value.items) == 1 else f"({inner})"
    v = value.value
    if isinstance(v, _SIMPLE) or (type(v) is float and math.isfinite(v)):
        return repr(v)
    if v is Ellipsis:
        return "..."
    if isinstance(v, slice) and all(isinstance(p, (int, type(None)))
                                    for p in (v.start, v.stop, v.step)):
        return f"slice({v.start!r}, {v.stop!r}, {v.step!r})"
    if isinstance(v, tuple) and all(isinstance(p, _SIMPLE) for p in v):
        return repr(v)
    if v is np:
        return "np"
    name = getattr(v, "__name__", None)
    if name and getattr(np, name, None) is v:
        return f"np.{name}"
    return program.constant(v)


def render_index(value, program):
    """``value`` as written between brackets: ``:, None`` rather than a tuple constant."""
    def part(v):
        if isinstance(v, Static) and isinstance(v.value, slice):
            sl = v.value
            if all(isinstance(p, (int, type(None))) for p in (sl.start, sl.stop, sl.step)):
                text = f"{'' if sl.start is None else sl.start}:" \
                       f"{'' if sl.stop is None else sl.stop}"
                return text + (f":{sl.step}" if sl.step is not None else "")
        return render(v, program)
    if isinstance(value, Static) and isinstance(value.value, tuple) and value.value:
        return ", ".join(part(Static(v)) for v in value.value)
    if isinstance(value, Tup) and value.kind == "tuple" and value.items:
        return ", ".join(part(v) for v in value.items)
    return part(value)


def dyns(value):
    """The runtime values inside ``value`` (a Tup holds several)."""
    if isinstance(value, Dyn):
        return [value]
    if isinstance(value, Tup):
        return [d for item in value.items for d in dyns(item)]
    return []


def reads(value):
    """Every runtime value ``value`` reads, also inside lazy expressions."""
    if isinstance(value, Lazy):
        return [d for dep in value.deps for d in reads(dep)]
    if isinstance(value, Tup):
        return [d for item in value.items for d in reads(item)]
    return [value] if isinstance(value, Dyn) else []


def is_active(value):
    return any(d.active for d in dyns(value))


def is_user_function(value):
    """A plain Python function graphjit may inline (not NumPy's, not graphjit's runtime)."""
    if not isinstance(value, types.FunctionType):
        return False
    module = getattr(value, "__module__", "") or ""
    return not (module.startswith("numpy") or module.startswith("transpiler.autodiff"))


def walk_statements(statements):
    """Every statement, also inside control flow (statements with ``children``)."""
    for stmt in statements:
        yield stmt
        if not isinstance(stmt, Op):
            for block in stmt.children():
                yield from walk_statements(block)


def stores_in(statements):
    """Whether a store (a statement with ``targets``) runs in ``statements``, nested blocks
    included."""
    return any(hasattr(stmt, "targets") for stmt in walk_statements(statements))
