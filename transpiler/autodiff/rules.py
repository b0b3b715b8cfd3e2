"""Adjoint rules: for each differentiable operation, the contributions its result's gradient
makes to its operands' gradients, as Python source.

A rule is ``rule(op, ctx) -> [(operand_index, source), ...]``: ``ctx.g`` names the gradient of
the result, ``ctx.y`` the result, ``ctx.arg(k)`` renders operand ``k``. Contributions are
summed back to each operand's shape (``_ad.unbroadcast``) by the adjoint pass where NumPy may
have broadcast. The derivatives are the textbook ones, as JAX (``jax/_src/lax/lax.py``) and
Tangent (``tangent/grads.py``) define them; where a derivative is infinite (``log`` at 0,
``sqrt`` at 0, a division by 0) it is taken as zero when the incoming gradient is zero
(``_ad.safe_div``), so that the branch ``np.where`` did not take leaks no NaN. Ties share
the gradient evenly, as JAX does: ``np.maximum(a, b)``/``np.minimum`` give half to each
operand where ``a == b`` (so ``maximum(x, c) + minimum(x, c)``, which is ``x + c``, has
derivative 1 there; MindSpore's ``MaximumGrad`` would give 2), and the ``max``/``min``
reductions split it among the equal elements. ``nn.ReLU`` has its own ``bprop``: 0 at 0, as
MindSpore's ``ReluGrad``.
"""
import numpy as np

# -- element-wise functions of one operand: d(result)/d(operand) from a (operand), y, g -----

UNARY = {
    "exp": "{g} * {y}",
    "expm1": "{g} * ({y} + 1)",
    "exp2": "{g} * ({y} * 0.6931471805599453)",
    "log": "_ad.safe_div({g}, {a})",
    "log1p": "_ad.safe_div({g}, 1 + {a})",
    "log2": "_ad.safe_div({g}, {a} * 0.6931471805599453)",
    "log10": "_ad.safe_div({g}, {a} * 2.302585092994046)",
    "sqrt": "_ad.safe_div({g}, 2 * {y})",
    "cbrt": "_ad.safe_div({g}, 3 * {y} * {y})",
    "square": "{g} * (2 * {a})",
    "reciprocal": "-_ad.safe_mul({g}, {y} * {y})",
    "tanh": "{g} * (1 - {y} * {y})",
    "sin": "{g} * np.cos({a})",
    "cos": "-({g} * np.sin({a}))",
    "tan": "{g} * (1 + {y} * {y})",
    "arctan": "{g} / (1 + {a} * {a})",
    "arcsin": "_ad.safe_div({g}, np.sqrt(1 - {a} * {a}))",
    "arccos": "-_ad.safe_div({g}, np.sqrt(1 - {a} * {a}))",
    "sinh": "{g} * np.cosh({a})",
    "cosh": "{g} * np.sinh({a})",
    "arcsinh": "{g} / np.sqrt({a} * {a} + 1)",
    "absolute": "{g} * np.sign({a})",
    "abs": "{g} * np.sign({a})",
    "negative": "-{g}",
    "positive": "{g}",
    "copy": "{g}",
    "float": "{g}",
    "item": "{g}",
    "ascontiguousarray": "{g}",
    "asarray": "{g}",
    "array": "{g}",
}

# NumPy callables (by name in the numpy namespace) and the rule each uses.
FUNCTIONS = dict((name, name) for name in UNARY if hasattr(np, name))
FUNCTIONS.update({
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
    "true_divide": "div", "power": "pow", "matmul": "matmul", "dot": "dot",
    "maximum": "maximum", "minimum": "minimum", "fmax": "maximum", "fmin": "minimum",
    "where": "where", "clip": "clip", "outer": "outer",
    "sum": "sum", "mean": "mean", "max": "max", "min": "min", "amax": "max", "amin": "min",
    "var": "var", "std": "std", "reshape": "reshape", "transpose": "transpose",
    "ravel": "reshape", "squeeze": "reshape", "expand_dims": "reshape",
    "concatenate": "concatenate", "stack": "stack",
})
# Functions whose result carries no derivative even of a differentiated operand.
CONSTANT = {"argmax", "argmin", "argsort", "sign", "floor", "ceil", "round", "rint", "trunc",
            "fix", "zeros_like", "ones_like", "empty_like", "full_like", "shape", "ndim",
            "size", "isnan", "isinf", "isfinite", "equal", "not_equal", "greater",
            "greater_equal", "less", "less_equal", "logical_and", "logical_or",
            "logical_not", "nonzero", "count_nonzero", "any", "all", "heaviside",
            "floor_divide", "remainder", "mod", "signbit", "searchsorted", "unique",
            "result_type"}
# Methods of arrays (x.name(...)) and their rules; CONSTANT applies to methods too.
METHODS = {"sum": "sum", "mean": "mean", "max": "max", "min": "min", "var": "var",
           "std": "std", "reshape": "reshape", "ravel": "reshape", "flatten": "reshape",
           "squeeze": "reshape", "transpose": "transpose", "dot": "dot", "copy": "copy",
           "item": "item", "clip": "clip", "astype": "astype"}




def _binary(op, ctx):
    a, b, g, y = ctx.arg(0), ctx.arg(1), ctx.g, ctx.y
    kind = op.rule
    if kind == "add":
        return [(0, ctx.u(g, 0)), (1, ctx.u(g, 1))]
    if kind == "sub":
        return [(0, ctx.u(g, 0)), (1, ctx.u(f"-{g}", 1))]
    if kind == "mul":
        return [(0, ctx.u(f"{g} * {b}", 0)), (1, ctx.u(f"{g} * {a}", 1))]
    if kind == "div":
        first = f"{g} / {b}" if ctx.nonzero_constant(1) else f"_ad.safe_div({g}, {b})"
        return [(0, ctx.u(first, 0)),
                (1, ctx.u(f"-_ad.safe_div({g} * {a}, {b} * {b})", 1))]
    if kind == "pow":
        exponent = ctx.constant(1)
        if isinstance(exponent, (int, float)) and not isinstance(exponent, bool) and \
                float(exponent).is_integer() and exponent >= 1:
            # a whole positive power: a finite derivative everywhere
            first = g if exponent == 1 else (f"{g} * (2 * {a})" if exponent == 2 else
                                             f"{g} * ({b} * {a} ** {int(exponent) - 1})")
        else:
            first = f"_ad.safe_mul({g}, {b} * {a} ** ({b} - 1))"
        out = [(0, ctx.u(first, 0))]
        if ctx.active(1):
            out.append((1, ctx.u(f"_ad.safe_mul({g}, {y} * np.log(np.where({a} > 0, {a}, 1)))",
                                 1)))
        return out
    if kind in ("maximum", "minimum"):
        wins = ">" if kind == "maximum" else "<"
        loses = "<" if kind == "maximum" else ">"
        return [(0, ctx.u(f"np.where({a} {wins} {b}, {g}, np.where({a} == {b}, {g} * 0.5, 0))",
                          0)),
                (1, ctx.u(f"np.where({a} {loses} {b}, {g}, np.where({a} == {b}, {g} * 0.5, 0))",
                          1))]
    if kind in ("matmul", "dot"):
        ndims = ctx.ndims(0, 1)
        if ndims == (2, 2):
            return [(0, f"{g} @ {b}.T"), (1, f"{a}.T @ {g}")]
        if ndims == (1, 2):
            return [(0, f"{b} @ {g}"), (1, f"np.outer({a}, {g})")]
        if ndims == (2, 1):
            return [(0, f"np.outer({g}, {b})"), (1, f"{a}.T @ {g}")]
        if ndims == (1, 1):
            return [(0, f"{g} * {b}"), (1, f"{g} * {a}")]
        helper = "matmul_grad" if kind == "matmul" else "dot_grad"
        return [(0, f"_ad.{helper}({g}, {a}, {b}, 0)"), (1, f"_ad.{helper}({g}, {a}, {b}, 1)")]
    if kind == "outer":
        return [(0, f"np.dot({g}, np.ravel({b})).reshape(np.shape({a}))"),
                (1, f"np.dot(np.ravel({a}), {g}).reshape(np.shape({b}))")]
    raise AssertionError(kind)


def _unary(op, ctx):
    text = UNARY[op.rule].format(g=ctx.g, y=ctx.y, a=ctx.arg(0))
    return [(0, _safe(text, ctx))]


def _safe(text, ctx):
    """``_ad.safe_div(g, d)`` / ``safe_mul`` written by the context (one expression for
    numbers: compiled code takes it)."""
    for helper in ("safe_div", "safe_mul"):
        head = f"_ad.{helper}("
        cursor = 0
        while head in text[cursor:]:
            start = text.index(head, cursor)
            depth, k = 0, start + len(head)
            comma = None
            while True:
                c = text[k]
                if c == "(":
                    depth += 1
                elif c == ")":
                    if depth == 0:
                        break
                    depth -= 1
                elif c == "," and depth == 0 and comma is None:
                    comma = k
                k += 1
            g, d = text[start + len(head):comma].strip(), text[comma + 1:k].strip()
            written = getattr(ctx, helper)(g, d)
            text = text[:start] + written + text[k + 1:]
            cursor = start + len(written)
    return text


def _kw(op):
    axis = op.kw.get("axis")
    keep = op.kw.get("keepdims", False)
    return f"{axis!r}, {keep!r}"


def _reduction(op, ctx):
    a, g, y = ctx.arg(0), ctx.g, ctx.y
    shape = ctx.shape(op.args[0])
    axis, keep = op.kw.get("axis"), op.kw.get("keepdims", False)
    if op.rule in ("sum", "mean") and shape is not None:
        if op.rule == "mean":
            axes = range(len(shape)) if axis is None else (
                (axis,) if isinstance(axis, int) else axis)
            count = int(np.prod([shape[k] for k in axes]))
            g = f"({g} / {count})"
        if axis is not None and not keep:
            g = f"np.expand_dims({g}, {axis!r})"
        return [(0, f"np.broadcast_to({g}, {shape!r})")]
    if op.rule in ("sum", "mean") and ctx.ndims(0)[0] is not None and \
            (axis is None or isinstance(axis, int)):
        # the shape read at run time (inside loops it may change)
        if op.rule == "mean":
            count = f"{a}.size" if axis is None else f"{a}.shape[{axis}]"
            g = f"({g} / {count})"
        if axis is not None and not keep:
            g = f"np.expand_dims({g}, {axis!r})"
        return [(0, f"np.broadcast_to({g}, {a}.shape)")]
    if op.rule == "sum":
        return [(0, f"_ad.sum_grad({g}, {a}, {_kw(op)})")]
    if op.rule == "mean":
        return [(0, f"_ad.mean_grad({g}, {a}, {_kw(op)})")]
    if op.rule in ("max", "min"):
        return [(0, f"_ad.extremum_grad({g}, {a}, {y}, {_kw(op)})")]
    ddof = op.kw.get("ddof", 0)
    if op.rule == "var":
        return [(0, f"_ad.var_grad({g}, {a}, {_kw(op)}, {ddof!r})")]
    # std = sqrt(var): d std = d var / (2 std)
    return [(0, f"_ad.var_grad(_ad.safe_div({g}, 2 * {y}), {a}, {_kw(op)}, {ddof!r})")]


def _shape(op, ctx):
    a, g = ctx.arg(0), ctx.g
    if op.rule == "reshape":
        shape = ctx.shape(op.args[0])
        return [(0, f"np.reshape({g}, {shape!r})" if shape is not None else
                 f"np.reshape({g}, np.shape({a}))")]
    if op.rule == "transpose":
        axes = op.kw.get("axes")
        if axes is None:
            return [(0, f"np.transpose({g})")]
        inverse = tuple(int(k) for k in np.argsort(axes))
        return [(0, f"np.transpose({g}, {inverse!r})")]
    if op.rule == "astype":
        kind = ctx.kind(op.args[0])
        if kind is not None and kind[1] is np.ndarray:
            return [(0, f"np.asarray({g}).astype(np.{kind[0].name})")]
        return [(0, f"_ad.cast_like({g}, {a})")]
    raise AssertionError(op.rule)


class Scatter:
    """A contribution added in place at ``index`` of the operand's gradient (the adjoint of
    an indexing read): ``g[index] += source``; ``value`` is the index's value."""

    def __init__(self, index, source, value):
        self.index, self.source, self.value = index, source, value


def _index(op, ctx):
    return [(0, Scatter(ctx.arg(1), ctx.g, op.args[1]))]


def _store(op, ctx):
    index = ctx.arg(1)
    return [(0, f"_ad.stored_grad({ctx.g}, {index})"),
            (2, ctx.u(f"{ctx.g}[{index}]", 2))]


def _where(op, ctx):
    c, g = ctx.arg(0), ctx.g
    return [(1, ctx.u(f"np.where({c}, {g}, 0)", 1)), (2, ctx.u(f"np.where({c}, 0, {g})", 2))]


def _clip(op, ctx):
    a, lo, hi, g = ctx.arg(0), ctx.arg(1), ctx.arg(2), ctx.g
    inside = []
    if lo != "None":
        inside.append(f"({a} >= {lo})")
    if hi != "None":
        inside.append(f"({a} <= {hi})")
    mask = " & ".join(inside) or "True"
    return [(0, f"{g} * ({mask})")]


def _parts(op, ctx):
    axis = op.kw.get("axis", 0)
    out = []
    for k in range(len(op.args)):
        if op.rule == "concatenate":
            out.append((k, f"_ad.concatenate_grad({ctx.g}, {ctx.parts()}, {axis!r}, {k})"))
        else:
            out.append((k, f"_ad.stack_grad({ctx.g}, {axis!r}, {k})"))
    return out


def _bprop(op, ctx):
    """A Cell's own ``bprop(self, *inputs, out, dout)`` (MindSpore's custom backward): its
    statements were normalized with the forward; they run here and give one gradient per
    input."""
    statements, grads = op.extra
    ctx.emit_statements(statements)
    return [(k, ctx.render(v)) for k, v in enumerate(grads)]


def _safe_rule(rule):
    def wrapped(op, ctx):
        return [(k, _safe(c, ctx) if isinstance(c, str) else c) for k, c in rule(op, ctx)]
    return wrapped


RULES = {}
for _name in UNARY:
    RULES[_name] = _unary
for _name in ("add", "sub", "mul", "div", "pow", "maximum", "minimum", "matmul", "dot",
              "outer"):
    RULES[_name] = _safe_rule(_binary)
for _name in ("sum", "mean", "max", "min", "var", "std"):
    RULES[_name] = _reduction
for _name in ("reshape", "transpose", "astype"):
    RULES[_name] = _shape
RULES.update({"index": _index, "store": _store, "where": _where, "clip": _clip,
              "concatenate": _parts, "stack": _parts, "bprop": _bprop})
# identity-like rules whose operand is read as it is
RULES["neg"] = lambda op, ctx: [(0, f"-{ctx.g}")]
RULES["T"] = lambda op, ctx: [(0, f"np.transpose({ctx.g})")]
