"""Shared helpers of the lowering passes: fresh names and small node builders."""
import gast


class Namer:
    """Fresh local names that collide with nothing the function already uses.

    Attributes:
        taken (set[str]): every name in use; new names are added.
        created (list[str]): the names made here (flags, form functions), in order.
    """

    def __init__(self, taken):
        self.taken = set(taken)
        self.created = []
        self._next = {}             # base -> next suffix to try (keeps this linear)

    def new(self, base):
        name, n = base, self._next.get(base, 1)
        while name in self.taken:
            name = f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
            n += 1
        self._next[base] = n
        self.taken.add(name)
        self.created.append(name)
        return name


class Context:
    """What a pass needs besides the function: the namer, the function's local variables, and
    ``ir(form)``, which returns a new Name node referring to a functional form (``cond``...)."""

    def __init__(self, namer, local_vars, ir):
        self.namer = namer
        self.local_vars = set(local_vars)
        self.ir = ir

    def new_var(self, base):
        name = self.namer.new(base)
        self.local_vars.add(name)
        return name


def name(identifier, store=False):
    return gast.Name(id=identifier, ctx=gast.Store() if store else gast.Load(), annotation=None,
                     type_comment=None)


def function_def(identifier, params, body, like=None):
    """``def identifier(params): body`` (plain positional parameters), located like ``like``."""
    fdef = gast.FunctionDef(
        name=identifier,
        args=gast.arguments(args=[gast.Name(id=p, ctx=gast.Param(), annotation=None,
                                            type_comment=None) for p in params],
                            posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                            kwarg=None, defaults=[]),
        body=body, decorator_list=[], returns=None, type_comment=None, type_params=[])
    return located(fdef, like) if like is not None else fdef


def assign(identifier, value):
    return gast.Assign(targets=[name(identifier, store=True)], value=value, type_comment=None)


def const(value):
    return gast.Constant(value=value, kind=None)


def negate(expr):
    return gast.UnaryOp(op=gast.Not(), operand=expr)


def located(node, like):
    """Give ``node`` and its descendants that have no location the location of ``like``."""
    for child in gast.walk(node):
        if "lineno" in getattr(child, "_attributes", ()) and getattr(
                child, "lineno", None) is None:
            gast.copy_location(child, like)
    return node


def contains(stmts, kinds, stop=(gast.While, gast.For, gast.FunctionDef)):
    """Whether ``stmts`` contain a node of ``kinds`` outside nested ``stop`` nodes."""
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, stop):
            continue
        stack.extend(child for child in gast.iter_child_nodes(node)
                     if isinstance(child, gast.stmt))
    return False


def ordered(names, *blocks):
    """``names`` in order of first appearance in ``blocks`` (deterministic generated code)."""
    seen = []
    for block in blocks:
        for node in block if isinstance(block, list) else [block]:
            for child in gast.walk(node):
                if isinstance(child, gast.Name) and child.id in names and child.id not in seen:
                    seen.append(child.id)
                elif isinstance(child, gast.FunctionDef):
                    for arg in child.args.args:
                        if arg.id in names and arg.id not in seen:
                            seen.append(arg.id)
    seen += sorted(set(names) - set(seen))
    return seen
