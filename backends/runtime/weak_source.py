"""The source of ``weak``, NEP 50 in Numba: emitted by the numba backends into standalone
modules, executed once by :mod:`backends.runtime.weak` for the modules ``jit`` makes."""

# NEP 50 in Numba: transpiler.ir.weak typed by the dtype it meets (see its docstring). Emitted
# into each generated module that uses it, so converted modules stay standalone.
WEAK_SOURCE = '''
from numba import types as _nb_types
from numba.extending import overload as _nb_overload


def {name}(value, like):
    return value


@_nb_overload({name})
def _{name}_typed(value, like):
    dtype = getattr(like, "dtype", like)
    numeric = (_nb_types.Integer, _nb_types.Float, _nb_types.Complex)
    if not isinstance(dtype, numeric) or isinstance(value, _nb_types.Boolean) or \\
            not isinstance(value, numeric):
        return lambda value, like: value
    cast = np.dtype(str(dtype)).type
    if isinstance(value, _nb_types.Integer) and isinstance(dtype, _nb_types.Integer):
        info = np.iinfo(cast)
        low, high, name = int(info.min), int(info.max), str(dtype)

        def checked(value, like):
            if value < low or value > high:
                raise OverflowError("Python integer out of bounds for " + name)
            return cast(value)
        return checked
    if isinstance(value, _nb_types.Float) and isinstance(dtype, _nb_types.Integer):
        return lambda value, like: value
    if isinstance(value, _nb_types.Complex) and not isinstance(dtype, _nb_types.Complex):
        return lambda value, like: value
    return lambda value, like: cast(value)
'''


# transpiler.ir.untyped_operand in a standalone module (builtin_ops.register_untyped_operand
# is the shared form): an array passes, a number is a typing error.
UNTYPED_SOURCE = """
import numba.core.errors
import numba.extending


def {name}(value):
    return value


@numba.extending.overload({name})
def _{name}_typed(value):
    if isinstance(value, numba.types.Array):
        return lambda value: value
    raise numba.core.errors.TypingError(
        "graphjit: a value whose type the converter could not follow meets a NumPy value; "
        "as a number, NumPy's result type would depend on its Python type (NEP 50)")
"""


# transpiler.ir.opaque in a standalone module (builtin_ops.register_opaque is the shared
# form): a float through an empty inline-assembly statement, hidden from constant folding.
OPAQUE_SOURCE = """
import numba.extending
from llvmlite import ir as _ll_ir


def {name}(value):
    return value


@numba.extending.intrinsic
def _{name}_hidden(typingctx, value):
    def codegen(context, builder, signature, args):
        width = 64 if signature.args[0].bitwidth == 64 else 32
        bits = builder.bitcast(args[0], _ll_ir.IntType(width))
        hidden = builder.asm(_ll_ir.FunctionType(bits.type, [bits.type]), "", "=r,0", [bits],
                             side_effect=False)
        return builder.bitcast(hidden, args[0].type)
    return value(value), codegen


@numba.extending.overload({name})
def _{name}_typed(value):
    if isinstance(value, numba.types.Float) and value.bitwidth in (32, 64):
        return lambda value: _{name}_hidden(value)
    return lambda value: value
"""
