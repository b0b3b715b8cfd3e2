"""Calls of Cells inside a differentiated function: their ``construct`` inlined, or, when the
Cell's class defines MindSpore's ``bprop(self, *inputs, out, dout)``, that backward used
instead of differentiating ``construct``."""
from ..errors import UnsupportedConstruct
from .values import Dyn, Op, Static, Tup, is_active


def _python(function):
    return getattr(function, "python_function", function)


def construct_of(cell):
    """The function a call of ``cell`` runs (its own ``construct`` if set on the instance)."""
    own = getattr(cell, "__dict__", {}).get("construct")
    if own is not None:
        return _python(getattr(own, "__func__", own)), getattr(own, "__self__", None)
    return _python(type(cell).construct), cell


def cell_call(nz, cell, args, kwargs, origin):
    """Inline ``cell(*args, **kwargs)``; returns the result value."""
    function, self_obj = construct_of(cell)
    bprop = getattr(type(cell), "bprop", None)
    if bprop is None or not any(is_active(a) for a in args):
        return nz.function(function, self_obj, args, dict(kwargs), origin)[0]
    if kwargs:
        raise UnsupportedConstruct("keyword arguments to a Cell with its own bprop", origin)
    if not all(isinstance(a, (Dyn, Static)) for a in args):
        raise UnsupportedConstruct("a Cell with bprop called on a tuple", origin)
    quiet = [Dyn(a.name, False) if isinstance(a, Dyn) else a for a in args]
    out, _ = nz.function(function, self_obj, quiet, {}, origin)
    if not isinstance(out, Dyn):
        raise UnsupportedConstruct("a Cell with bprop must return one array", origin)
    # the forward's result, under a name of its own: its gradient is bprop's dout
    target = nz.program.new_name("out")
    saved, nz.statements = nz.statements, []
    try:
        grads, where = nz.function(_python(bprop), self_obj,
                                   quiet + [Dyn(out.name, False), Dyn("g_" + target, False)],
                                   {}, origin)
        statements = nz.statements
    finally:
        nz.statements = saved
    items = grads.items if isinstance(grads, Tup) else (
        [Static(v) for v in grads.value] if isinstance(grads, Static) and
        isinstance(grads.value, tuple) else None)
    if items is None or len(items) != len(args):
        raise UnsupportedConstruct(f"{type(cell).__name__}.bprop must return a tuple of "
                                   f"{len(args)} gradient(s), one per input", where)
    nz.statements.append(Op(target, out.name, "bprop", list(args), {}, origin,
                            (statements, items)))
    return Dyn(target, True)
