"""Small gast node builders and predicates shared by the passes: names, constants,
assignments, function definitions, giving new nodes a source location, walking a tree."""
import ast
import copy
from collections import deque

import gast

_AST = ast.AST


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


def copy_tree(tree):
    """A deep copy of ``tree`` (a gast node, or a list of them): what ``copy.deepcopy`` gives,
    node for node (annotations included, a node met twice copied once), ~4x faster: nodes
    and lists are copied here, immutable leaves shared, anything else by ``copy.deepcopy``
    (one memo throughout). Passes copy a function's tree several times per transpile."""
    return _copy(tree, {})


# Leaves deepcopy returns as they are (copy._deepcopy_atomic) or that cannot hold a node.
_SHARED = frozenset({str, int, float, complex, bool, type(None), bytes, type(Ellipsis),
                     frozenset})


def _copy(value, memo):
    kind = type(value)
    if kind in _SHARED:
        return value
    found = memo.get(id(value))
    if found is not None:
        return found
    if isinstance(value, _AST):
        new = kind.__new__(kind)
        memo[id(value)] = new
        state = new.__dict__
        for key, item in value.__dict__.items():
            state[key] = item if type(item) in _SHARED else _copy(item, memo)
        return new
    if kind is list:
        new = memo[id(value)] = []
        new.extend(item if type(item) in _SHARED else _copy(item, memo) for item in value)
        return new
    return copy.deepcopy(value, memo)


def located(node, like):
    """Give ``node`` and its descendants that have no location the location of ``like``."""
    for child in walk(node):
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
        stack.extend(child for child in child_nodes(node)
                     if isinstance(child, gast.stmt))
    return False


def rewrite_blocks(stmts, rewrite):
    """``stmts`` with every statement list under them rewritten bottom-up (bodies, ``else``
    branches, ``finally``, handlers, ``match`` cases; not nested functions or classes, which
    are kept as they are): ``rewrite(stmt)`` returns the statements replacing ``stmt``, whose
    own blocks are rewritten already. The desugaring passes use it (passes/comprehensions.py,
    named_expressions.py, match_statements.py, errstate_blocks.py)."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            out.append(stmt)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if inner:
                setattr(stmt, field, rewrite_blocks(inner, rewrite))
        for part in (getattr(stmt, "handlers", None) or ()) + tuple(
                getattr(stmt, "cases", None) or ()):
            part.body = rewrite_blocks(part.body, rewrite)
        out.extend(rewrite(stmt))
    return out


class OwnScopeTransformer(gast.NodeTransformer):
    """A NodeTransformer over one function's own scope: ``visit(fdef)`` rewrites ``fdef``'s
    nodes but leaves nested functions and lambdas as they are (their names are their own)."""

    def __init__(self, fdef):
        self.fdef = fdef

    def visit_FunctionDef(self, node):
        return self.generic_visit(node) if node is self.fdef else node

    def visit_Lambda(self, node):
        return node


def child_nodes(node):
    """The direct child nodes of ``node``, in the order of ``ast.iter_child_nodes`` (a list:
    that function's two generators per node cost more than the children's own visit)."""
    found = []
    fields = _NODE_FIELDS.get(type(node))
    for field in _node_fields(type(node)) if fields is None else fields:
        value = getattr(node, field, None)
        if isinstance(value, _AST):     # (first, as ast.iter_child_nodes tests it)
            found.append(value)
        elif isinstance(value, list):
            found.extend(item for item in value if isinstance(item, _AST))
    return found


# Fields that hold a str, an int or a list of str in every tree gast makes (its gast.py):
# walks skip them, ~20% of a walk (a Name's ``id`` and ``type_comment``, say).
_SCALAR_FIELDS = frozenset({
    ("Name", "id"), ("Name", "type_comment"), ("Attribute", "attr"),
    ("FunctionDef", "name"), ("FunctionDef", "type_comment"),
    ("AsyncFunctionDef", "name"), ("AsyncFunctionDef", "type_comment"),
    ("ClassDef", "name"), ("Constant", "kind"), ("keyword", "arg"), ("alias", "name"),
    ("alias", "asname"), ("ImportFrom", "module"), ("ImportFrom", "level"),
    ("Global", "names"), ("Nonlocal", "names"), ("FormattedValue", "conversion"),
    ("AnnAssign", "simple"), ("comprehension", "is_async"), ("For", "type_comment"),
    ("AsyncFor", "type_comment"), ("With", "type_comment"), ("AsyncWith", "type_comment"),
    ("Assign", "type_comment"), ("MatchAs", "name"), ("MatchStar", "name"),
    ("MatchMapping", "rest"), ("MatchClass", "kwd_attrs")})
_NODE_FIELDS = {}   # node class -> its fields that may hold a node or a list of nodes


def _node_fields(kind):
    fields = _NODE_FIELDS[kind] = tuple(
        field for field in kind._fields if (kind.__name__, field) not in _SCALAR_FIELDS)
    return fields


def walk(node):
    """Every node under ``node`` (itself first), in the order of ``ast.walk``: breadth first,
    fields in ``_fields`` order, the children of a node collected before it is yielded.

    ``ast.walk``'s own loop goes through two generators per node (``iter_child_nodes``,
    ``iter_fields``); this one reads the fields directly: the passes and analyses walk each
    function's tree some 40 times, ~10% of a transpile (make bench, section 3).
    """
    todo = deque((node,))
    pop, append = todo.popleft, todo.append
    fields_of = _NODE_FIELDS.get
    while todo:
        node = pop()
        # child_nodes, inlined: a call of it per node made the walk ~50% slower
        fields = fields_of(type(node))
        if fields is None:
            fields = _node_fields(type(node))
        for field in fields:
            value = getattr(node, field, None)
            if isinstance(value, _AST):
                append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, _AST):
                        append(item)
        yield node


def node_types(tree):
    """The set of the node classes in ``tree`` (one walk)."""
    return {type(node) for node in walk(tree)}


def ufunc_call(call):
    """The plain call that ``ufunc_loop(f, *operands)`` (transpiler.ir) stands for, for
    backends that let NumPy or the device compute it: ``f(*operands)``, or ``a @ b`` where
    ``f`` is np.matmul (Numba has no np.matmul; the NumPy graph keeps buffers for ``@``)."""
    func, operands = call.args[0], call.args[1:]
    if len(operands) == 2 and (isinstance(func, gast.Attribute) and func.attr == "matmul" or
                               isinstance(func, gast.Name) and func.id == "matmul"):
        out = gast.BinOp(left=operands[0], op=gast.MatMult(), right=operands[1])
    else:
        out = gast.Call(func=func, args=operands, keywords=[])
    return gast.copy_location(out, call)
