"""``if`` -> ``cond``: each branch becomes a function of the region's inputs that returns its
outputs (the variables either branch modifies that are live after the ``if``)::

    if x > 0:                      def if_true(x, y):        def if_false(x, y):
        y = x          ->              y = x                     y = -x
    else:                              return y                  return y
        y = -x                     y = cond(x > 0, if_true, if_false, (x, y))
"""
import gast

from .. import anno
from ..analysis.region_io import branch_region
from ..nodes import located, name
from .forms_common import (form_call, form_function, names_tuple, outputs_value, placeholders,
                           rewrite_blocks)

REQUIRES = (anno.LIVENESS, anno.DEFINITE_ASSIGNMENT)


def transform(fdef, ctx):
    """Turn every ``if`` of ``fdef`` into ``cond`` (innermost first); returns ``fdef``."""
    anno.require(fdef, REQUIRES, __name__)
    fdef.body = rewrite_blocks(fdef.body, ctx, gast.If, _cond)
    return fdef


def _cond(node, ctx):
    inputs, outputs = branch_region(node, ctx.local_vars)
    returns = outputs_value(outputs) if outputs else None
    if_true = form_function(ctx, "if_true", inputs, node.body, returns, node)
    if_false = form_function(ctx, "if_false", inputs, node.orelse, returns, node)
    call = form_call(ctx, "cond", [node.test, name(if_true.name), name(if_false.name),
                                   names_tuple(inputs)])
    if not outputs:
        result = gast.Expr(value=call)
    else:
        target = name(outputs[0], store=True) if len(outputs) == 1 else names_tuple(
            outputs, store=True)
        result = gast.Assign(targets=[target], value=call, type_comment=None)
    return (placeholders(ctx, inputs, anno.get(node, anno.DEFINED_IN, None), node)
            + [if_true, if_false, located(result, node)])
