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


def _callee(builder, pyapi):
    """``call_island`` as a Python object, unpickled at the first call and kept in a global
    of the module (as Numba's objmode keeps its dispatcher: ObjModeUtils.load_dispatcher),
    not at every call (~0.5 us)."""
    module = builder.module
    cache = module.globals.get("_graphjit_call_island")
    if cache is None:
        cache = cgutils.add_global_variable(module, pyapi.pyobj, "_graphjit_call_island")
        cache.linkage = "internal"
        cache.initializer = pyapi.pyobj(None)
    with builder.if_then(cgutils.is_null(builder, builder.load(cache)), likely=False):
        loaded = pyapi.unserialize(pyapi.serialize_object(call_island))
        builder.store(loaded, cache)     # (its reference kept: the module's, for good)
    return builder.load(cache)


# the type string of an expression island's value -> the Numba type it is unboxed as
RESULT_TYPES = {"int": types.int64, "float": types.float64, "bool": types.boolean,
                "complex": types.complex128, "str": types.unicode_type}


def result_type(kind):
    """The Numba type a value of type string ``kind`` is unboxed as (a value island's:
    ``np:<dtype>`` a NumPy scalar, ``arr:<dtype>:<ndim>`` an array of any layout: it may be a
    view), or None."""
    if kind in RESULT_TYPES:
        return RESULT_TYPES[kind]
    import numpy as np
    from numba.np.numpy_support import from_dtype
    parts = kind.split(":")
    try:
        if parts[0] == "np" and len(parts) == 2:
            return from_dtype(np.dtype(parts[1]))
        if parts[0] == "arr" and len(parts) == 3:
            return types.Array(from_dtype(np.dtype(parts[1])), int(parts[2]), "A")
    except Exception:   # noqa: BLE001 - not a type compiled code holds
        return None
    return None


@intrinsic
def python_island(typingctx, slot, kinds, values, result):
    """``python_island(slot, kinds, values, result)``: ``slot`` an integer, ``kinds`` a
    string literal, ``values`` a tuple, ``result`` a string literal: the value's type string
    (result_type), or ``""`` (a statement: None)."""
    if not isinstance(slot, types.Integer) or not isinstance(
            kinds, (types.StringLiteral, types.UnicodeType)) or not isinstance(
            values, types.BaseTuple) or not isinstance(result, types.StringLiteral) or (
            result.literal_value and result_type(result.literal_value) is None):
        return None
    returned = result_type(result.literal_value) if result.literal_value else types.none
    sig = signature(returned, slot, kinds, values, result)

    def codegen(context, builder, sig, args):
        pyapi = context.get_python_api(builder)
        env_manager = context.get_env_manager(builder)
        gil = pyapi.gil_ensure()
        function = _callee(builder, pyapi)
        boxed = []
        for kind, value in zip(sig.args[:3], args[:3]):
            context.nrt.incref(builder, kind, value)     # boxing steals a reference
            boxed.append(pyapi.from_native_value(kind, value, env_manager))
        result = pyapi.call_function_objargs(function, boxed)
        for obj in boxed:
            pyapi.decref(obj)
        failed = cgutils.is_null(builder, result)
        with builder.if_then(failed, likely=False):
            pyapi.gil_release(gil)
            context.call_conv.return_exc(builder)
        if sig.return_type == types.none:
            pyapi.decref(result)
            pyapi.gil_release(gil)
            return context.get_dummy_value()
        native = pyapi.to_native_value(sig.return_type, result)
        pyapi.decref(result)
        if callable(native.cleanup):
            native.cleanup()
        pyapi.gil_release(gil)
        with builder.if_then(native.is_error, likely=False):
            context.call_conv.return_exc(builder)
        return native.value
    return sig, codegen
