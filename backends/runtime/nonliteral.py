"""``nonliteral(x)``: ``x`` as a value of its type, not of a literal type, in compiled code.

Numba types a constant argument as a literal (``Literal[int](1)``) and compiles a called
function once per combination of literal values it meets (numba/core/typing/context.py tries
literal types first). graphjit's large helpers are compiled once and called
(backends/inlining.py); their calls in generated code wrap each argument in ``nonliteral`` so
that ``np.roll(a, 1, 0)``, ``np.roll(a, -2, 1)`` and ``np.roll(a, k, 0)`` share one compile of
the helper instead of three (a first call took 12.6 s where it took 8.9 s inlined, review of
the inlining change). The helpers never depend on a literal value: those that did would not
have compiled for a run-time one either.

A ``numba.extending.intrinsic``: no function compiled; the value is cast from the literal type
to its plain one (a no-op for non-literal types), the reference borrowed as Numba's own
identity operations do. ``NONLITERAL_SOURCE`` is the one definition: modules written by
``graphjit convert`` carry it, modules made by ``jit`` import this module's ``nonliteral``.
"""
NONLITERAL_SOURCE = '''
from numba.core import types as _nb_nl_types
from numba.core.imputils import impl_ret_borrowed as _nb_nl_borrowed
from numba.extending import intrinsic as _nb_nl_intrinsic


@_nb_nl_intrinsic
def {name}(typingctx, value):
    kind = _nb_nl_types.unliteral(value)

    def codegen(context, builder, signature, args):
        plain = context.cast(builder, args[0], signature.args[0], signature.return_type)
        return _nb_nl_borrowed(context, builder, signature.return_type, plain)
    return kind(value), codegen
'''

exec(NONLITERAL_SOURCE.format(name="nonliteral"))   # noqa: S102 - our own constant source
