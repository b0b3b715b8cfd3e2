"""Calls of the ``operator`` module's functions become the operators they stand for (issue 20:
``operator.add(a, b)`` is ``a + b``), before the number analyses run, so NumPy's and Python's
rules for the operator apply to them as to the operator written out.

The Python docs ("operator — Standard operators as functions") define each function as its
operator: ``operator.add(a, b)`` "Return a + b", ``operator.getitem(a, b)`` "Return the value of
a at index b", ``operator.neg(obj)`` "Return obj negated (-obj)", ``operator.lt(a, b)`` is
``a < b``; both evaluate their operands left to right and call the same special methods (CPython
``Modules/_operator.c``: ``PyNumber_Add``, ``PyObject_GetItem``, ``PyObject_RichCompare``).
The builtin ``pow(base, exp)`` with two arguments is ``base ** exp`` as well (Python docs,
"Built-in Functions": "The two-argument form pow(base, exp) is equivalent to using the power
operator: base**exp"; CPython ``builtin_pow_impl`` calls ``PyNumber_Power(base, exp, None)``, as
the operator does), so NumPy's and Python's ``**`` rules (complex results, OverflowError,
ZeroDivisionError, big ints) apply to it; ``pow(b, e, mod)`` stays a call.
``contains(a, b)`` (``b in a`` evaluates ``b`` first), ``truth``, ``index`` and the in-place
functions (``iadd`` updates an array in place and returns it) are left as calls.

A call is rewritten only when its function is resolved at transpile time to one of these
(``operator.add``, ``from operator import add``, ``op = operator.add`` at module level), with
positional arguments only; the specializer still guards the name it was read through
(``Specializer.run``), so rebinding it later makes a new specialization.
"""
import builtins
import operator

import gast
from ..nodes import child_nodes, copy_tree, located, OwnScopeTransformer


_BINARY = {operator.add: gast.Add, operator.sub: gast.Sub, operator.mul: gast.Mult,
           operator.truediv: gast.Div, operator.floordiv: gast.FloorDiv,
           operator.mod: gast.Mod, operator.pow: gast.Pow, operator.lshift: gast.LShift,
           operator.rshift: gast.RShift, operator.and_: gast.BitAnd, operator.or_: gast.BitOr,
           operator.xor: gast.BitXor, operator.matmul: gast.MatMult, builtins.pow: gast.Pow}
_UNARY = {operator.neg: gast.USub, operator.pos: gast.UAdd, operator.invert: gast.Invert,
          operator.inv: gast.Invert, operator.not_: gast.Not}
_COMPARE = {operator.lt: gast.Lt, operator.le: gast.LtE, operator.eq: gast.Eq,
            operator.ne: gast.NotEq, operator.gt: gast.Gt, operator.ge: gast.GtE,
            operator.is_: gast.Is, operator.is_not: gast.IsNot}


def _known(value):
    try:
        return value in _BINARY or value in _UNARY or value in _COMPARE or \
            value is operator.getitem
    except TypeError:       # an unhashable static value
        return False


def desugar(fdef, resolve):
    """``(fdef', functions)``: a copy of ``fdef`` (gast.FunctionDef, read-only: shared by every
    specialization) with the operator calls as operators, and the function expressions
    (``operator.add`` nodes) that were read, for the caller to guard; ``(fdef, [])`` when there
    is none.

    Args:
        resolve (callable): the static value of a Name or Attribute node of ``fdef``'s own
            scope, or a sentinel that is none of the operator functions.
    """
    def candidate(node):
        return isinstance(node, gast.Call) and not node.keywords and not any(
            isinstance(a, gast.Starred) for a in node.args) and isinstance(
                node.func, (gast.Name, gast.Attribute)) and _known(resolve(node.func))

    if not any(candidate(n) for n in _own_nodes(fdef)):
        return fdef, []
    fdef = copy_tree(fdef)
    functions = []

    class Rewrite(OwnScopeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            if not candidate(node):
                return node
            new = _operator_of(resolve(node.func), node.args)
            if new is None:
                return node
            functions.append(node.func)
            return located(gast.copy_location(new, node), node)

    Rewrite(fdef).visit(fdef)
    return fdef, functions


def _operator_of(fn, args):
    """The operator expression computing ``fn(*args)``, or None (wrong arity: the call stays
    and raises Python's TypeError where it runs)."""
    if fn in _BINARY and len(args) == 2:
        return gast.BinOp(left=args[0], op=_BINARY[fn](), right=args[1])
    if fn in _UNARY and len(args) == 1:
        return gast.UnaryOp(op=_UNARY[fn](), operand=args[0])
    if fn in _COMPARE and len(args) == 2:
        return gast.Compare(left=args[0], ops=[_COMPARE[fn]()], comparators=[args[1]])
    if fn is operator.getitem and len(args) == 2:
        return gast.Subscript(value=args[0], slice=args[1], ctx=gast.Load())
    return None


def _own_nodes(fdef):
    """The nodes of ``fdef``'s own scope (not of nested functions or lambdas)."""
    stack = list(child_nodes(fdef))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (gast.FunctionDef, gast.Lambda, gast.ClassDef)):
            stack.extend(child_nodes(node))
