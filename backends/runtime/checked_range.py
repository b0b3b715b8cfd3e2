"""``range()`` for compiled loops: Python's iteration count, or OverflowError, never a wrong one.

Numba computes a range's length as ``(stop - start) / step`` in the range's own integer type
(``numba/cpython/rangeobj.py``, ``RangeIter.from_range_state``), with no overflow test:

- where ``stop - start`` leaves that type the count is silently wrong:
  ``range(-2**63, 2**63 - 1, 2**62)`` runs 0 times where Python runs 4, and with np.int32
  arguments (Numba's ``range_state32``) from a difference of 2**31 on;
- ``range(0, -2**63, -1)`` divides -2**63 by -1, which stops the process (SIGFPE on x86);
- a uint64 range from 2**63 on compares the difference as signed: 0 iterations.

Python computes the length exactly (CPython ``Objects/rangeobject.c``, ``compute_range_length``
in Python ints). ``checked_range(start, stop, step)`` is Numba's own range where its count is
exact, and raises OverflowError with the message of
``transpiler.helpers.messages.NOT_REPRESENTABLE`` everywhere else: an effect-free call then
runs again as plain Python (transpiler.api), a call with effects raises it at the user's line.

It is a ``numba.extending.intrinsic``: emitted into the caller as one overflow-flagged
subtraction before the loop (no function compiled per argument types). ``RANGE_SOURCE`` is the
one definition: modules written by ``graphjit convert`` carry it (standalone), modules made by
``jit`` import this module's ``checked_range``. Called from plain Python (outside compiled
code) an intrinsic cannot run; the backends that emit it are the Numba ones only.
"""
RANGE_SOURCE = '''
from numba.core import cgutils as _nb_cgutils
from numba.extending import intrinsic as _nb_range_intrinsic


@_nb_range_intrinsic
def {name}(typingctx, start, stop, step):
    sig = typingctx.resolve_function_type(typingctx.resolve_value_type(range),
                                          (start, stop, step), {{}})
    if sig is None:
        return None
    kind = sig.args[0]

    def codegen(context, builder, signature, args):
        start, stop, step = args
        zero = start.type(0)
        if kind.signed:
            pair = builder.ssub_with_overflow(stop, start)
            smallest = start.type(-(1 << (kind.bitwidth - 1)))
            divides_over = builder.and_(builder.icmp_signed("==", builder.extract_value(pair, 0),
                                                            smallest),
                                        builder.icmp_signed("==", step, start.type(-1)))
            flag = builder.or_(builder.extract_value(pair, 1), divides_over)
        else:   # compared as signed by Numba: exact below 2**63 only
            flag = builder.or_(builder.or_(builder.icmp_signed("<", start, zero),
                                           builder.icmp_signed("<", stop, zero)),
                               builder.icmp_signed("<", step, zero))
        with _nb_cgutils.if_unlikely(builder, flag):
            context.call_conv.return_user_exc(
                builder, OverflowError, ("int beyond int64 in compiled code (graphjit)",))
        return context.get_function(range, signature)(builder, args)
    return sig, codegen
'''

exec(RANGE_SOURCE.format(name="checked_range"))   # noqa: S102 - our own constant source
