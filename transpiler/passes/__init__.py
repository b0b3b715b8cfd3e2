"""The rewrite passes, one per file, and the order they run in.

``specialize`` resolves static values and builds the generated functions; then each function is
lowered to the functional program: single exit (``lower_return``), loop ``else``
(``loop_else``), ``break``/``continue`` to flags (``lower_break_continue``), and the functional
forms ``cond`` / ``while_loop`` / ``for_range`` and ``for_each`` (``cond``, ``while_loop``,
``for_loop``), whose inputs and outputs come from liveness (transpiler.analysis.region_io) and whose
placeholders from definite assignment.
"""
from ..analysis import liveness
from ..analysis.definite_assignment import annotate_defined
from . import cond, for_loop, loop_else, lower_break_continue, lower_return, while_loop
from ..naming import Namer
from .pass_context import Context
from ..nodes import walk

LOWERING = (lower_return, loop_else, lower_break_continue)
FORMS = (cond, while_loop, for_loop)


def to_functional_form(fdef, local_vars, ir, flags=None):
    """Lower ``fdef`` (gast.FunctionDef, structured control flow) to functional forms.

    Args:
        fdef: the generated function; changed in place.
        local_vars (set[str]): its local variables (parameters included).
        ir (callable): ``ir("cond")`` -> a new Name node referring to that form.
        flags (dict | None): variable -> its definedness flag (passes/definedness_flags.py).

    Returns:
        set[str]: the names the passes added (flags, form functions).
    """
    ctx = Context(Namer(set(local_vars) | _all_names(fdef)), local_vars, ir, flags)
    for lowering in LOWERING:
        lowering.transform(fdef, ctx)
    liveness.annotate(fdef)
    annotate_defined(fdef, ctx.local_vars)
    for form in FORMS:
        form.transform(fdef, ctx)
    return set(ctx.namer.created)


def _all_names(fdef):
    import gast
    return {n.id for n in walk(fdef) if isinstance(n, gast.Name)}
