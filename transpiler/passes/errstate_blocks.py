"""``with np.errstate(...)`` blocks that only quiet NumPy's floating-point warnings become their
body (issue 20: ``with np.errstate(divide="ignore"): r = a / b``), before the number analyses.

``np.errstate`` sets how NumPy reports floating-point errors inside the block (NumPy docs,
"numpy.errstate", "numpy.seterr"): "ignore" and "warn" change whether a RuntimeWarning is
shown, never a value; the default state is "warn" or "ignore" for every kind, so compiled
code, which gives NumPy's values (inf, nan) and shows no warning, computes the block the same
under either. "raise", "call", "print" and "log" (and ``call=``) change what happens, so a
block with any of them is left (the specializer says a with block is not converted), as is a
block with ``as``.
"""

import gast
import numpy as np

from ..nodes import copy_tree, rewrite_blocks, walk

_QUIET = ("ignore", "warn")
_KINDS = ("all", "divide", "over", "under", "invalid")


def desugar(fdef, resolve):
    """``(fdef', functions)``: a copy of ``fdef`` (gast.FunctionDef, read-only) with the quiet
    errstate blocks replaced by their bodies, and the ``np.errstate`` expressions read (for
    the caller to guard); ``(fdef, [])`` when there is none."""
    def quiet(stmt):
        if not isinstance(stmt, gast.With) or not stmt.items:
            return False
        for item in stmt.items:
            call = item.context_expr
            if item.optional_vars is not None or not isinstance(call, gast.Call) or \
                    call.args or not isinstance(call.func, (gast.Name, gast.Attribute)) or \
                    resolve(call.func) is not np.errstate:
                return False
            for keyword in call.keywords:
                if keyword.arg not in _KINDS or not isinstance(keyword.value, gast.Constant) \
                        or keyword.value.value not in _QUIET:
                    return False
        return True

    if not any(quiet(n) for n in walk(fdef)):
        return fdef, []
    fdef = copy_tree(fdef)
    functions = []

    def rewrite(stmt):
        if not quiet(stmt):
            return [stmt]
        functions.extend(item.context_expr.func for item in stmt.items)
        return stmt.body

    fdef.body = rewrite_blocks(fdef.body, rewrite)
    return fdef, functions
