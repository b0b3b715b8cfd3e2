"""Device code from converted code: the rewrite of statements for a kernel or device function.

What Python checks at run time, a kernel checks through an error flag (see ``runtime.cuda_device``):
every array index goes through ``gj_index`` (Python's negative indices, range check), every
divisor through ``gj_nonzero``, a ``raise`` or failed ``assert`` sets the flag. Calls of the
program's own functions go to their device versions (``<name>__dev``, which take the flag too);
NumPy element-wise functions of scalars become their ``math`` equivalents, the only ones
numba-cuda implements in device code.
"""

import gast

from transpiler.analysis.dependence import NUMPY_TO_MATH
from transpiler.nodes import copy_tree, walk

ERR = "_err"
DEVICE_SUFFIX = "__dev"


def _name(identifier, store=False):
    return gast.Name(id=identifier, ctx=gast.Store() if store else gast.Load(),
                     annotation=None, type_comment=None)


def _call(func, args):
    return gast.Call(func=func, args=args, keywords=[])


def _set_flag(node):
    flag = gast.Assign(targets=[gast.Subscript(value=_name(ERR), slice=gast.Constant(
        value=0, kind=None), ctx=gast.Store())], value=gast.Constant(value=1, kind=None),
        type_comment=None)
    return _locate(flag, node)


def _locate(new, old):
    for child in walk(new):
        if "lineno" in getattr(child, "_attributes", ()):
            gast.copy_location(child, old)
    return new


class DeviceRewriter(gast.NodeTransformer):
    """Rewrite a function body (in place) for device code.

    Args:
        program_names (set[str]): the program's own functions (called as device versions).
        numpy_aliases (set[str]): local names of the numpy module.
        math_alias (str): the local name of the math module in the generated module.
        check_division (bool): flag zero divisors (loops: Python numbers raise); False for
            element-wise maps, where NumPy array semantics give inf/nan.
        weak_name (str | None): the generated module's name of transpiler.ir.weak
            (``Program.ir_name("weak")``), None when the program does not use it.
    """

    def __init__(self, program_names, numpy_aliases, math_alias, check_division=True,
                 operators=None, checked=None, weak_name=None):
        self.program_names = set(program_names)
        self.checked = dict(checked or {})   # name -> transpiler.ir.CHECKED_INT form
        self.numpy_aliases = set(numpy_aliases)
        self.math_alias = math_alias
        self.check_division = check_division
        self.weak_name = weak_name
        self.operators = dict(operators or {})   # helper name -> gast operator class

    def visit_Raise(self, node):
        return _set_flag(node)

    def visit_Assert(self, node):
        test = self.visit(node.test)
        check = gast.If(test=gast.UnaryOp(op=gast.Not(), operand=test),
                        body=[_set_flag(node)], orelse=[])
        return _locate(check, node)

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.value, gast.Name):
            return node
        index = node.slice
        parts = index.elts if isinstance(index, gast.Tuple) else [index]
        if any(isinstance(p, gast.Slice) for p in parts):
            return node
        checked = []
        for dim, part in enumerate(parts):
            length = gast.Subscript(
                value=gast.Attribute(value=_name(node.value.id), attr="shape",
                                     ctx=gast.Load()),
                slice=gast.Constant(value=dim, kind=None), ctx=gast.Load())
            checked.append(_locate(_call(_name("gj_index"), [part, length, _name(ERR)]),
                                   node))
        node.slice = (gast.Tuple(elts=checked, ctx=gast.Load()) if isinstance(
            index, gast.Tuple) else checked[0])
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if self.check_division and isinstance(node.op, (gast.Div, gast.FloorDiv, gast.Mod)):
            node.right = _locate(_call(_name("gj_nonzero"), [node.right, _name(ERR)]), node)
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if isinstance(func, gast.Name) and func.id in self.operators and len(node.args) == 2:
            # numpy_truediv(a, b) -> a / gj_nonzero(b, _err): a zero divisor goes to the CPU
            divisor = _call(_name("gj_nonzero"), [node.args[1], _name(ERR)])
            return _locate(gast.BinOp(left=node.args[0], op=self.operators[func.id](),
                                      right=divisor), node)
        if isinstance(func, gast.Name) and func.id in self.checked:
            node.func = _name("gj_" + self.checked[func.id])   # overflow sets the flag
            node.args = list(node.args) + [_name(ERR)]
        elif isinstance(func, gast.Name) and func.id.startswith("untyped_operand") and len(
                node.args) == 1:
            return node.args[0]     # kernels take arrays (docs/guide/gpu.md: the GPU backend's gaps)
        elif isinstance(func, gast.Name) and func.id == self.weak_name and len(node.args) == 2:
            node.func = _name("gj_weak")            # NEP 50 with the error flag
            node.args = list(node.args) + [_name(ERR)]
        elif isinstance(func, gast.Name) and func.id in self.program_names:
            node.func = _name(func.id + DEVICE_SUFFIX)
            node.args = list(node.args) + [_name(ERR)]
        elif isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
                and func.value.id in self.numpy_aliases:
            if func.attr in ("maximum", "minimum"):
                node.func = _name("gj_" + func.attr)
            elif func.attr in NUMPY_TO_MATH:
                target = NUMPY_TO_MATH[func.attr]
                node.func = _name("abs") if target is None else gast.Attribute(
                    value=_name(self.math_alias), attr=target, ctx=gast.Load())
        return node


def device_statements(stmts, rewriter):
    """Rewritten copies of ``stmts``."""
    out = []
    for stmt in copy_tree(stmts):
        new = rewriter.visit(stmt)
        out.extend(new if isinstance(new, list) else [new])
    return out
