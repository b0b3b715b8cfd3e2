"""Python islands called from Numba-compiled code (transpiler.ir.python_island,
transpiler.island_frames).

An intrinsic: with the GIL taken (``PyGILState_Ensure``, as Numba's ``objmode`` blocks do),
the slot, the kinds and the tuple of values are boxed (arrays as the caller's own ndarray
objects where compiled code holds them, so the island's stores show), and
``transpiler.island_frames.call_island`` is called. An exception it raises propagates out of
the compiled function as the Python exception it is. Unlike ``objmode`` no function is lifted
out of the compiled one (the loop stays one function) and the code refers to
``call_island`` by its import path, so Numba's on-disk cache holds it.
"""
from numba.core import cgutils, types
from numba.core.extending import intrinsic
from numba.core.typing.templates import signature

from transpiler.island_frames import call_island


@intrinsic
def python_island(typingctx, slot, kinds, values):
    """``python_island(slot, kinds, values)``: ``slot`` an integer, ``kinds`` a string
    literal, ``values`` a tuple; returns None."""
    if not isinstance(slot, types.Integer) or not isinstance(
            kinds, (types.StringLiteral, types.UnicodeType)) or not isinstance(
            values, types.BaseTuple):
        return None
    sig = signature(types.none, slot, kinds, values)

    def codegen(context, builder, sig, args):
        pyapi = context.get_python_api(builder)
        env_manager = context.get_env_manager(builder)
        gil = pyapi.gil_ensure()
        function = pyapi.unserialize(pyapi.serialize_object(call_island))
        boxed = []
        for kind, value in zip(sig.args, args):
            context.nrt.incref(builder, kind, value)     # boxing steals a reference
            boxed.append(pyapi.from_native_value(kind, value, env_manager))
        result = pyapi.call_function_objargs(function, boxed)
        for obj in boxed:
            pyapi.decref(obj)
        failed = cgutils.is_null(builder, result)
        with builder.if_then(failed, likely=False):
            pyapi.gil_release(gil)
            context.call_conv.return_exc(builder)
        pyapi.decref(result)
        pyapi.gil_release(gil)
        return context.get_dummy_value()
    return sig, codegen
