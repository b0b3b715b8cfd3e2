"""NumPy's own ufunc inner loops, called from Numba-compiled code (transpiler.ir.ufunc_loop).

Why: Numba computes ``np.exp``, ``np.sin``, ``np.tanh``... with the C library (libm) or its own
code; NumPy runs its own loops, dispatched at import to the CPU's SIMD level (AVX-512 here:
``np.lib.introspect.opt_func_info``). The last bits differ: measured on this machine over
300,000 float32 values, ``np.exp`` 38% of them, ``np.tanh`` 30% (float64 26%), ``np.cos``
14%, ``np.sin`` 11%, ``np.cbrt`` 11%, ``np.log`` 9%, ``np.rad2deg`` 79%. Calling the loop
NumPy itself calls gives NumPy's bits by construction, on every machine.

How: a ufunc object (``PyUFuncObject``, numpy/_core/include/numpy/ufuncobject.h) holds its
legacy inner loops in ``functions[i]`` with ``data[i]``, one per signature of ``ufunc.types``
(NumPy fills the SIMD-dispatched entries at import, ``NPY_CPU_DISPATCH_CALL_XB``). A loop is
``void loop(char **args, npy_intp const *dimensions, npy_intp const *steps, void *data)``:
``dimensions[0]`` elements, operand ``k`` at ``args[k]`` advancing ``steps[k]`` bytes. The
addresses are registered with LLVM by name (``llvmlite.binding.add_symbol``, as Numba does for
its own C helpers), so compiled code calls the symbol and Numba's on-disk cache stays valid in
another process: the name is resolved again when the cached code is loaded (this module is
imported first by the generated module).

Only loops of float32/float64/complex64/complex128 operands and one output are taken (the
loops NumPy computes with its own math code; none of them sets a Python exception).

This file is also the standalone source (``source(name)``): a module converted by the command
line embeds it instead of importing graphjit.
"""
import ctypes as _gj_ctypes
import operator as _gj_operator

import numpy as _gj_np
from llvmlite import binding as _gj_llvm
from llvmlite import ir as _gj_ir
from numba.core import cgutils as _gj_cgutils
from numba.core import types as _gj_types
from numba.core.extending import intrinsic as _gj_intrinsic
from numba.core.imputils import lower_builtin as _gj_lower_builtin
from numba.core.typing.templates import AbstractTemplate as _gj_AbstractTemplate
from numba.core.typing.templates import infer_global as _gj_infer_global
from numba.core.typing.templates import signature as _gj_signature
from numba.extending import register_jitable as _gj_register_jitable
from numba.np.numpy_support import as_dtype as _gj_as_dtype
from numba.np.numpy_support import from_dtype as _gj_from_dtype


def _gj_registered_globals():
    """The values Numba's typing registry already types (np.matmul is not one: Numba 0.68)."""
    from numba.core.typing.templates import builtin_registry
    return {value for value, _ in builtin_registry.globals}


def ufunc_loop(ufunc, *operands):
    """``ufunc(*operands)`` computed by NumPy's own inner loop for the operands' dtypes (the
    identity of transpiler.ir.ufunc_loop in Python). Compiled: operands float32, float64,
    complex64 or complex128 scalars or arrays (ndim >= 1) of one loop's input dtypes exactly
    (the converter casts them to NumPy's loop first); the result is the loop's output type, a
    new C-contiguous array of the broadcast shape for array operands."""
    return ufunc(*operands)


class _gj_UFuncHead(_gj_ctypes.Structure):
    """The start of NumPy 2's PyUFuncObject (numpy/_core/include/numpy/ufuncobject.h)."""
    _fields_ = [("ob_refcnt", _gj_ctypes.c_ssize_t), ("ob_type", _gj_ctypes.c_void_p),
                ("nin", _gj_ctypes.c_int), ("nout", _gj_ctypes.c_int),
                ("nargs", _gj_ctypes.c_int), ("identity", _gj_ctypes.c_int),
                ("functions", _gj_ctypes.POINTER(_gj_ctypes.c_void_p)),
                ("data", _gj_ctypes.POINTER(_gj_ctypes.c_void_p)),
                ("ntypes", _gj_ctypes.c_int), ("reserved1", _gj_ctypes.c_int),
                ("name", _gj_ctypes.c_char_p)]


_GJ_KINDS = frozenset("fdFD")      # float32, float64, complex64, complex128
# (ufunc name, input chars "dd") -> (loop types "dd->d", function symbol, data symbol), for
# the first loop of those inputs (the one NumPy picks), filled when this module is imported
_gj_loops = {}


def _gj_loop_types(ufunc, dtypes):
    """The signature in ``ufunc.types`` (``"dd->d"``) of NumPy's loop for inputs ``dtypes``
    exactly, where it has one float or complex output; else None."""
    found = _gj_loops.get((ufunc.__name__, "".join(_gj_np.dtype(d).char for d in dtypes)))
    return None if found is None else found[0]


def _gj_register(ufunc):
    """Register ``ufunc``'s float and complex loops with LLVM by name (each input signature's
    first loop: NumPy's)."""
    head = _gj_UFuncHead.from_address(id(ufunc))
    if head.ntypes != ufunc.ntypes or head.name.decode() != ufunc.__name__:
        raise RuntimeError(f"NumPy {_gj_np.__version__}'s ufunc layout is not the one "
                           "graphjit reads (PyUFuncObject)")
    seen = set()
    for index, types in enumerate(ufunc.types):
        ins, out = types.split("->")
        if ins in seen:
            continue
        seen.add(ins)
        function, data = head.functions[index], head.data[index]
        if len(out) != 1 or not set(ins + out) <= _GJ_KINDS or not function:
            continue
        base = f"_graphjit_numpy_{ufunc.__name__}_{ins}_{out}"
        _gj_llvm.add_symbol(base, function)
        data_name = None
        if data:
            data_name = base + "_data"
            _gj_llvm.add_symbol(data_name, data)
        _gj_loops[(ufunc.__name__, ins)] = (types, base, data_name)


_GJ_I8P = _gj_ir.IntType(8).as_pointer()
_GJ_INTP = _gj_ir.IntType(64)
_GJ_LOOP = _gj_ir.FunctionType(_gj_ir.VoidType(), [_GJ_I8P.as_pointer(), _GJ_INTP.as_pointer(),
                                                   _GJ_INTP.as_pointer(), _GJ_I8P])


def _gj_call_loop(builder, ufunc, types, count, pointers, steps):
    """Emit ``loop(args, &count, steps, data)``: ``pointers`` (i8*) and ``steps`` (i64) per
    operand, the output last."""
    module = builder.module
    _, name, data_name = _gj_loops[(ufunc.__name__, types.split("->")[0])]
    loop = _gj_cgutils.get_or_insert_function(module, _GJ_LOOP, name)
    n = len(pointers)
    argv = _gj_cgutils.alloca_once(builder, _GJ_I8P, size=n)
    stepv = _gj_cgutils.alloca_once(builder, _GJ_INTP, size=n)
    for k, (pointer, step) in enumerate(zip(pointers, steps)):
        index = [_gj_ir.Constant(_gj_ir.IntType(32), k)]
        builder.store(builder.bitcast(pointer, _GJ_I8P), builder.gep(argv, index))
        builder.store(step, builder.gep(stepv, index))
    dims = _gj_cgutils.alloca_once(builder, _GJ_INTP)
    builder.store(count, dims)
    builder.call(loop, [argv, dims, stepv, _gj_loop_data(builder, data_name)])


def _gj_loop_data(builder, data_name):
    """The ``void *data`` argument of a loop: its registered symbol's address, or NULL."""
    if data_name is None:
        return _gj_ir.Constant(_GJ_I8P, None)
    data = builder.module.globals.get(data_name)
    if data is None:    # its address is the registered pointer
        data = _gj_ir.GlobalVariable(builder.module, _gj_ir.IntType(8), data_name)
        data.linkage = "external"
    return builder.bitcast(data, _GJ_I8P)


def _gj_operand_dtype(numba_type):
    if isinstance(numba_type, _gj_types.Array):
        return _gj_as_dtype(numba_type.dtype) if numba_type.ndim >= 1 else None
    if isinstance(numba_type, (_gj_types.Float, _gj_types.Complex)):
        return _gj_as_dtype(numba_type)
    return None


class _gj_UFuncLoopTemplate(_gj_AbstractTemplate):
    """The typing of ``ufunc_loop(ufunc, *operands)``: the loop of ``ufunc.types`` whose
    inputs are the operands' dtypes exactly; its output type, or an array of the operands'
    one ndim (None: not this builtin's, Numba reports it and the function falls back)."""
    key = ufunc_loop

    def generic(self, args, kws):
        if kws or len(args) < 2 or not isinstance(args[0], _gj_types.Function):
            return None
        ufunc = args[0].typing_key
        operands = [_gj_types.unliteral(a) for a in args[1:]]
        if ufunc is _gj_np.matmul and len(operands) == 2 and _gj_matmul_types(operands) is None:
            # not NumPy's loop (mixed dtypes, ints, 3-D...): Numba's own @, as written
            found = self.context.resolve_function_type(_gj_operator.matmul, tuple(operands), {})
            return None if found is None else _gj_signature(found.return_type, args[0],
                                                             *operands)
        dtypes = [_gj_operand_dtype(a) for a in operands]
        # (not `None in dtypes`: np.dtype("float64") == None is True)
        if not isinstance(ufunc, _gj_np.ufunc) or any(d is None for d in dtypes):
            return None
        types = _gj_loop_types(ufunc, dtypes)
        if types is None:
            return None
        result = _gj_from_dtype(_gj_np.dtype(types[-1]))
        arrays = [a for a in operands if isinstance(a, _gj_types.Array)]
        if ufunc is _gj_np.matmul:
            # NumPy's gufunc loop (a matrix product, _gj_matmul_impl): 1-D or 2-D operands;
            # a 1-D operand's dimension is absent from the result (two: a scalar)
            if len(arrays) != 2 or any(a.ndim not in (1, 2) for a in arrays):
                return None
            ndim = arrays[0].ndim + arrays[1].ndim - 2
            if ndim:
                result = _gj_types.Array(result, ndim, "C")
            return _gj_signature(result, args[0], *operands)
        if arrays:
            # (an N-d result is F-ordered for F-ordered operands; arrays of several ndims
            # broadcast: NumPy's own call, _gj_numpy_call)
            ndim = max(a.ndim for a in arrays)
            result = _gj_types.Array(result, ndim, "C" if ndim == 1 else "A")
        return _gj_signature(result, args[0], *operands)


_gj_infer_global(ufunc_loop)(_gj_UFuncLoopTemplate)


class _gj_MatmulName(_gj_AbstractTemplate):
    """``np.matmul`` as a value Numba can type (it has no typing of its own), for
    ``ufunc_loop(np.matmul, a, b)``; a direct call stays untyped (Numba refuses it, as
    before)."""
    key = _gj_np.matmul

    def generic(self, args, kws):
        return None


if _gj_np.matmul not in _gj_registered_globals():
    _gj_infer_global(_gj_np.matmul)(_gj_MatmulName)


@_gj_lower_builtin(ufunc_loop, _gj_types.Function, _gj_types.VarArg(_gj_types.Any))
def _gj_lower_ufunc_loop(context, builder, sig, args):
    """Scalars: one loop call on stack slots; arrays: ``_gj_array_impl`` compiled inline."""
    ufunc = sig.args[0].typing_key
    operands = sig.args[1:]
    dtypes = [_gj_operand_dtype(a) for a in operands]
    types = _gj_loop_types(ufunc, dtypes)
    if ufunc is _gj_np.matmul:     # (two vectors: a scalar result, still the gufunc loop)
        if _gj_matmul_types(operands) is None:
            return context.compile_internal(builder, _gj_numba_matmul, sig, args)
        impl = _gj_matmul_impl(types, tuple(a.ndim for a in operands))
        return context.compile_internal(builder, impl, sig, args)
    if not isinstance(sig.return_type, _gj_types.Array):
        slots = [_gj_cgutils.alloca_once_value(builder, v) for v in args[1:]]
        out = _gj_cgutils.alloca_once(builder, context.get_value_type(sig.return_type))
        # NumPy's steps for scalars (ufunc_object.c, try_trivial_single_output_loop): 0 for
        # a 0-d input, the item size for the output it allocates. A loop may take another
        # path by its steps (fmax's signed zeros, power's exponent 0.5): the same ones here.
        steps = [_gj_ir.Constant(_GJ_INTP, 0)] * len(dtypes) + [
            _gj_ir.Constant(_GJ_INTP, _gj_np.dtype(types[-1]).itemsize)]
        _gj_call_loop(builder, ufunc, types, _gj_ir.Constant(_GJ_INTP, 1), slots + [out],
                      steps)
        return builder.load(out)
    impl = _gj_array_impl(ufunc, types, tuple(a.ndim if isinstance(a, _gj_types.Array) else 0
                                              for a in operands))
    return context.compile_internal(builder, impl, sig, args)


_gj_array_impls = {}


@_gj_register_jitable
def _gj_order(a):
    """An operand's place in NumPy's trivial iteration: (its step, its order: 0 for 1-D or a
    scalar, else C=1 | F=2 as its contiguity flags; -1 not contiguous)."""
    if a.ndim == 1:
        return a.strides[0], 0
    order = (1 if a.flags.c_contiguous else 0) | (2 if a.flags.f_contiguous else 0)
    return a.itemsize, order if order else -1


@_gj_register_jitable
def _gj_same_order(first, second):
    """The operation's order from two operands' (0: a 1-D or scalar operand says nothing;
    NumPy's try_trivial_single_output_loop takes the first N-d operand's flags and needs
    every other's to be equal); -1 where they differ."""
    if first < 0 or second < 0:
        return -1
    if first == 0:
        return second
    if second == 0 or first == second:
        return first
    return -1


@_gj_register_jitable
def _gj_output(shape, order, dtype):
    """NumPy's output of the trivial iteration: F-ordered for F-contiguous operands only."""
    if order == 2:
        return _gj_np.empty(shape[::-1], dtype).T
    return _gj_np.empty(shape, dtype)


def _gj_numpy_call(address):
    """NumPy's own call ``ufunc(*operands)`` for compiled code whose operands NumPy iterates
    in several calls of its loop (non-contiguous N-d, broadcast): NumPy's iterator chooses
    the calls and their steps, on which a SIMD loop's path (and so the last bits) may depend,
    so NumPy itself computes the result (a ctypes callback: it takes the GIL; the compiled
    loop around the call stays compiled). ``address``: an int64 record made by
    ``_gj_numpy_record``: a status word (set to 1 here if the call raised), the ufunc's
    name, each operand's type char, then per operand (the output last) its data address,
    ndim, shape and strides. The result is written into the output operand."""
    try:
        head = (_gj_ctypes.c_int64 * 3).from_address(address)
        length, count = head[1], head[2]
        words = (_gj_ctypes.c_int64 * (3 + length + count)).from_address(address)
        name = "".join(chr(c) for c in words[3:3 + length])
        chars = [chr(c) for c in words[3 + length:3 + length + count]]
        at = address + 8 * (3 + length + count)
        views = []
        for char in chars:
            data, ndim = (_gj_ctypes.c_int64 * 2).from_address(at)
            dims = list((_gj_ctypes.c_int64 * (2 * ndim)).from_address(at + 16)) if ndim \
                else []
            views.append(_gj_view(data, _gj_np.dtype(char), dims[:ndim], dims[ndim:]))
            at += 8 * (2 + 2 * ndim)
        result = getattr(_gj_np, name)(*views[:-1])
        views[-1][...] = result
    except BaseException:   # noqa: BLE001 - a callback cannot raise: compiled code does
        (_gj_ctypes.c_int64).from_address(address).value = 1


def _gj_view(data, dtype, shape, strides):
    """The array at address ``data`` with ``shape`` and byte ``strides`` (a view, no copy)."""
    low = high = 0
    for n, step in zip(shape, strides):
        if n == 0:
            return _gj_np.empty(shape, dtype)
        low += min(0, (n - 1) * step)
        high += max(0, (n - 1) * step)
    memory = (_gj_ctypes.c_char * (high - low + dtype.itemsize)).from_address(data + low)
    return _gj_np.ndarray(shape, dtype, buffer=memory, offset=-low, strides=strides)


_GJ_CALLBACK = _gj_ctypes.CFUNCTYPE(None, _gj_ctypes.c_int64)(_gj_numpy_call)
_gj_llvm.add_symbol("_graphjit_numpy_ufunc_call",
                    _gj_ctypes.cast(_GJ_CALLBACK, _gj_ctypes.c_void_p).value)


@_gj_intrinsic
def _gj_callback(typingctx, address):
    """Call ``_gj_numpy_call(address)`` by its registered symbol (no address in the code:
    Numba's on-disk cache stays valid)."""
    def codegen(context, builder, signature, args):
        kind = _gj_ir.FunctionType(_gj_ir.VoidType(), [_GJ_INTP])
        function = _gj_cgutils.get_or_insert_function(builder.module, kind,
                                                      "_graphjit_numpy_ufunc_call")
        builder.call(function, [args[0]])
        return context.get_dummy_value()
    return _gj_signature(_gj_types.none, _gj_types.int64), codegen


@_gj_register_jitable
def _gj_put(record, at, a):
    """Operand ``a`` (an array, 0-d for a scalar) into ``record`` from word ``at``; the next
    free word."""
    record[at] = a.ctypes.data
    record[at + 1] = a.ndim
    for k in range(a.ndim):
        record[at + 2 + k] = a.shape[k]
        record[at + 2 + a.ndim + k] = a.strides[k]
    return at + 2 + 2 * a.ndim


@_gj_register_jitable
def _gj_numpy_record(header, a, b, out):
    """The record of ``_gj_numpy_call`` (``b`` None for a unary ufunc), and the call."""
    # (room for b as if it had the output's ndim: no b.ndim to read when b is None)
    record = _gj_np.zeros(len(header) + 6 + 2 * (a.ndim + 2 * out.ndim), _gj_np.int64)
    for k in range(len(header)):
        record[k] = header[k]
    at = _gj_put(record, len(header), a)
    if b is not None:
        at = _gj_put(record, at, b)
    _gj_put(record, at, out)
    _gj_callback(record.ctypes.data)
    if record[0] != 0:
        raise ValueError("NumPy's ufunc call failed (graphjit)")
    return out


def _gj_header(ufunc, types):
    """The constant head of a ``_gj_numpy_call`` record: status, name, type chars."""
    name = ufunc.__name__
    chars = types.replace("->", "")
    return (0, len(name), len(chars), *map(ord, name), *map(ord, chars))


def _gj_array_impl(ufunc, types, ndims):
    """A Python function ``(ufunc, *operands) -> array`` that Numba compiles: NumPy's trivial
    iteration (numpy/_core/src/umath/ufunc_object.c, try_trivial_single_output_loop), which
    calls the loop once: scalar operands with step 0, 1-D arrays with their stride, N-d
    arrays all C- or all F-contiguous with their item size, operands of one shape; the
    output allocated in that order, its step the item size. NumPy iterates other operands
    (broadcast, non-contiguous N-d) in several loop calls of its iterator's choosing: for
    those NumPy itself is called (``_gj_numpy_call``), from inside the compiled code."""
    key = (ufunc.__name__, types, ndims)
    if key in _gj_array_impls:
        return _gj_array_impls[key]
    out_dtype = _gj_np.dtype(types[-1]).type
    ins = types.split("->")[0]
    a_dtype, b_dtype = _gj_np.dtype(ins[0]).type, _gj_np.dtype(ins[-1]).type
    call = _gj_pointer_call(ufunc, types)

    header = _gj_header(ufunc, types)

    if len(ndims) == 1:
        def impl(ufunc, a):
            step, order = _gj_order(a)
            if order < 0:
                return _gj_numpy_record(header, a, None, _gj_np.empty(a.shape, out_dtype))
            out = _gj_output(a.shape, order, out_dtype)
            if a.size:
                call(a.size, a.ctypes.data, step, out.ctypes.data, out.itemsize)
            return out
    elif ndims[0] and ndims[1] and ndims[0] != ndims[1]:
        def impl(ufunc, a, b):
            out = _gj_np.empty(_gj_np.broadcast_shapes(a.shape, b.shape), out_dtype)
            return _gj_numpy_record(header, a, b, out)
    elif ndims[0] and ndims[1]:
        def impl(ufunc, a, b):
            step_a, order_a = _gj_order(a)
            step_b, order_b = _gj_order(b)
            order = _gj_same_order(order_a, order_b)
            if order < 0 or a.shape != b.shape:
                out = _gj_np.empty(_gj_np.broadcast_shapes(a.shape, b.shape), out_dtype)
                return _gj_numpy_record(header, a, b, out)
            out = _gj_output(a.shape, order, out_dtype)
            if a.size:
                call(a.size, a.ctypes.data, step_a, b.ctypes.data, step_b, out.ctypes.data,
                     out.itemsize)
            return out
    elif ndims[0]:
        def impl(ufunc, a, b):
            step, order = _gj_order(a)
            y = _gj_np.empty(1, b_dtype)
            y[0] = b
            if order < 0:
                return _gj_numpy_record(header, a, y.reshape(()),
                                        _gj_np.empty(a.shape, out_dtype))
            out = _gj_output(a.shape, order, out_dtype)
            if a.size:
                call(a.size, a.ctypes.data, step, y.ctypes.data, 0, out.ctypes.data,
                     out.itemsize)
            return out
    else:
        def impl(ufunc, a, b):
            step, order = _gj_order(b)
            x = _gj_np.empty(1, a_dtype)
            x[0] = a
            if order < 0:
                return _gj_numpy_record(header, x.reshape(()), b,
                                        _gj_np.empty(b.shape, out_dtype))
            out = _gj_output(b.shape, order, out_dtype)
            if b.size:
                call(b.size, x.ctypes.data, 0, b.ctypes.data, step, out.ctypes.data,
                     out.itemsize)
            return out
    _gj_array_impls[key] = impl
    return impl


def _gj_pointer_call(ufunc, types):
    """An intrinsic ``call(count, pointer, step, ..., out_pointer, out_step)`` of the loop
    (pointers: integer addresses, ``array.ctypes.data``; steps in bytes)."""
    from numba.core.extending import intrinsic

    def codegen(context, builder, signature, args):
        count, rest = args[0], args[1:]
        _gj_call_loop(builder, ufunc, types, count,
                      [builder.inttoptr(p, _GJ_I8P) for p in rest[0::2]],
                      [builder.sext(s, _GJ_INTP) if s.type.width < 64 else s
                       for s in rest[1::2]])
        return context.get_dummy_value()

    def typer(typingctx, *args):
        if not all(isinstance(a, _gj_types.Integer) for a in args):
            return None
        return _gj_signature(_gj_types.none, *args)

    if ufunc.nin == 1:
        def call(typingctx, n, p0, s0, p1, s1):
            return typer(typingctx, n, p0, s0, p1, s1), codegen
    else:
        def call(typingctx, n, p0, s0, p1, s1, p2, s2):
            return typer(typingctx, n, p0, s0, p1, s1, p2, s2), codegen
    return intrinsic(call)


def _gj_matmul_types(operands):
    """NumPy's matmul loop types ("dd->d") for 1-D or 2-D arrays of one float dtype, or None."""
    if len(operands) != 2 or not all(isinstance(a, _gj_types.Array) and a.ndim in (1, 2)
                                     for a in operands):
        return None
    return _gj_loop_types(_gj_np.matmul, [_gj_operand_dtype(a) for a in operands])


def _gj_numba_matmul(ufunc, a, b):      # Numba's own @ (where NumPy's loop does not apply)
    return a @ b


def _gj_matmul_impl(types, ndims):
    """``a @ b`` by NumPy's own matmul gufunc loop for ``types`` ("dd->d"), operands of
    ``ndims`` (1 or 2 each): numpy/_core/src/umath/matmul.c.src chooses gemm, syrk
    (``x.T @ x``), gemv, dot or its own loop by the dimensions and strides, with NumPy's
    OpenBLAS, so the bits are NumPy's (Numba's ``@`` is SciPy's BLAS: other bits). The loop is
    called as ufunc_object.c (PyUFunc_GeneralizedFunctionInternal) calls it for one pair:
    ``dimensions`` = (1 outer iteration, m, n, p); ``steps`` = 3 outer steps, then each
    operand's core strides, a stride forced to 0 where its dimension is 1; the output a new
    C-contiguous array. A 1-D operand's absent dimension is 1, stride 0: ``a @ v`` is the
    loop call of ``(a @ v[:, None])[:, 0]``, bit-equal in NumPy (2,646 products measured)."""
    key = ("matmul", types, ndims)
    if key in _gj_array_impls:
        return _gj_array_impls[key]
    out_dtype = _gj_np.dtype(types[-1]).type
    call = _gj_matmul_call(types)

    def run(a, b, m, n, p, is1_m, is1_n, is2_n, is2_p, out, os_m, os_p):
        call(a.ctypes.data, b.ctypes.data, out.ctypes.data, m, n, p,
             0 if m == 1 else is1_m, 0 if n == 1 else is1_n,
             0 if n == 1 else is2_n, 0 if p == 1 else is2_p,
             0 if m == 1 else os_m, 0 if p == 1 else os_p)
        return out

    run = _gj_register_jitable(run)

    if ndims == (2, 2):
        def impl(ufunc, a, b):
            m, n = a.shape
            if b.shape[0] != n:
                raise ValueError(_GJ_MISMATCH)
            p = b.shape[1]
            out = _gj_np.empty((m, p), out_dtype)
            return run(a, b, m, n, p, a.strides[0], a.strides[1], b.strides[0], b.strides[1],
                       out, out.strides[0], out.strides[1])
    elif ndims == (2, 1):
        def impl(ufunc, a, b):
            m, n = a.shape
            if b.shape[0] != n:
                raise ValueError(_GJ_MISMATCH)
            out = _gj_np.empty(m, out_dtype)
            return run(a, b, m, n, 1, a.strides[0], a.strides[1], b.strides[0], 0,
                       out, out.strides[0], 0)
    elif ndims == (1, 2):
        def impl(ufunc, a, b):
            n = a.shape[0]
            if b.shape[0] != n:
                raise ValueError(_GJ_MISMATCH)
            p = b.shape[1]
            out = _gj_np.empty(p, out_dtype)
            return run(a, b, 1, n, p, 0, a.strides[0], b.strides[0], b.strides[1],
                       out, 0, out.strides[0])
    else:
        def impl(ufunc, a, b):
            n = a.shape[0]
            if b.shape[0] != n:
                raise ValueError(_GJ_MISMATCH)
            out = _gj_np.empty(1, out_dtype)
            return run(a, b, 1, n, 1, 0, a.strides[0], b.strides[0], 0, out, 0, 0)[0]
    _gj_array_impls[key] = impl
    return impl


_GJ_MISMATCH = "matmul: Input operand 1 has a mismatch in its core dimension 0 (graphjit)"


def _gj_matmul_call(types):
    """An intrinsic ``call(a, b, out, m, n, p, 6 core strides)`` of np.matmul's loop for
    ``types`` (addresses and strides as integers)."""
    from numba.core.extending import intrinsic

    def codegen(context, builder, signature, args):
        module = builder.module
        _, name, data_name = _gj_loops[("matmul", types.split("->")[0])]
        loop = _gj_cgutils.get_or_insert_function(module, _GJ_LOOP, name)
        argv = _gj_cgutils.alloca_once(builder, _GJ_I8P, size=3)
        dims = _gj_cgutils.alloca_once(builder, _GJ_INTP, size=4)
        stepv = _gj_cgutils.alloca_once(builder, _GJ_INTP, size=9)

        def put(array, k, value):
            builder.store(value, builder.gep(array, [_gj_ir.Constant(_gj_ir.IntType(32), k)]))
        for k in range(3):
            put(argv, k, builder.inttoptr(args[k], _GJ_I8P))
        zero = _gj_ir.Constant(_GJ_INTP, 0)
        for k, value in enumerate([_gj_ir.Constant(_GJ_INTP, 1)] + list(args[3:6])):
            put(dims, k, value)
        for k, value in enumerate([zero, zero, zero] + list(args[6:12])):
            put(stepv, k, value)
        builder.call(loop, [argv, dims, stepv, _gj_loop_data(builder, data_name)])
        return context.get_dummy_value()

    def call(typingctx, a, b, out, m, n, p, s0, s1, s2, s3, s4, s5):
        args = (a, b, out, m, n, p, s0, s1, s2, s3, s4, s5)
        if not all(isinstance(x, _gj_types.Integer) for x in args):
            return None
        return _gj_signature(_gj_types.none, *args), codegen
    return intrinsic(call)


def _gj_register_all():
    """Register every NumPy ufunc's float and complex loops now: Numba loads cached code
    that names them without compiling anything (an unresolved symbol would be a null call)."""
    for value in vars(_gj_np).values():
        if isinstance(value, _gj_np.ufunc) and value.nout == 1 and getattr(
                _gj_np, value.__name__, None) is value:
            _gj_register(value)


_gj_register_all()
# (source() embeds the text above this line)


def source(name):
    """This module's code as standalone source, ``ufunc_loop`` named ``name``: a module
    converted by the command line embeds it (it must not import graphjit)."""
    import re
    with open(__file__, encoding="utf-8") as handle:
        text = handle.read()
    body = text[text.index('"""', 3) + 3:text.index("# (source() embeds")]
    return re.sub(r"\bufunc_loop\b", name, body)
