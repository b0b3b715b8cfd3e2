"""Python-int arithmetic in compiled code, checked for int64 overflow (``transpiler.ir.int_add``
and the others in ``CHECKED_INT``).

Python's int grows without bound; compiled code holds a Python int in an int64. Where Numba
would wrap (``2**63 - 1 + 1`` is ``-2**63``), these raise OverflowError with the message of
``transpiler.helpers.messages.NOT_REPRESENTABLE``: an effect-free call then runs again as plain Python
and returns Python's int; a call with effects raises it, naming the user's line. NumPy int64
scalars and arrays keep NumPy's wrapping: only Python ints go through here.

The check is LLVM's own ``llvm.sadd/ssub/smul.with.overflow.i64`` (through
``numba.extending.intrinsic``; LLVM Language Reference, "Arithmetic with Overflow
Intrinsics"): one flag test after the operation, no division. ``CHECKED_SOURCE`` is emitted into
modules ``graphjit convert`` writes (standalone); modules made by ``jit`` import this one (one
registration per process: Numba keeps every overload for the life of the process).
"""
CHECKED_SOURCE = '''
from numba import types as _nb_types
from numba.extending import intrinsic as _nb_intrinsic, overload as _nb_overload

_INT_OVERFLOW = "int beyond int64 in compiled code (graphjit)"


def _nb_with_overflow(method):
    @_nb_intrinsic
    def with_overflow(typingctx, a, b):
        sig = _nb_types.UniTuple(_nb_types.int64, 2)(_nb_types.int64, _nb_types.int64)

        def codegen(context, builder, signature, args):
            pair = getattr(builder, method)(args[0], args[1])
            value = builder.extract_value(pair, 0)
            flag = builder.zext(builder.extract_value(pair, 1), value.type)
            return context.make_tuple(builder, signature.return_type, [value, flag])
        return sig, codegen
    return with_overflow


_nb_sadd = _nb_with_overflow("sadd_with_overflow")
_nb_ssub = _nb_with_overflow("ssub_with_overflow")
_nb_smul = _nb_with_overflow("smul_with_overflow")


def _nb_ints(*args):
    return all(isinstance(a, (_nb_types.Integer, _nb_types.Boolean)) for a in args)


def {add}(a, b):
    return a + b


def {sub}(a, b):
    return a - b


def {mul}(a, b):
    return a * b


def {neg}(a):
    return -a


def {abs}(a):
    return abs(a)


def _nb_binary(fn, checked, plain):
    @_nb_overload(fn)
    def typed(a, b):
        if not _nb_ints(a, b):
            return plain

        def impl(a, b):
            value, flag = checked(_nb_types.int64(a), _nb_types.int64(b))
            if flag:
                raise OverflowError(_INT_OVERFLOW)
            return value
        return impl


_nb_binary({add}, _nb_sadd, lambda a, b: a + b)
_nb_binary({sub}, _nb_ssub, lambda a, b: a - b)
_nb_binary({mul}, _nb_smul, lambda a, b: a * b)


@_nb_overload({neg})
def _nb_neg_typed(a):
    if not _nb_ints(a):
        return lambda a: -a

    def impl(a):
        value, flag = _nb_ssub(0, _nb_types.int64(a))
        if flag:
            raise OverflowError(_INT_OVERFLOW)
        return value
    return impl


@_nb_overload({abs})
def _nb_abs_typed(a):
    if not _nb_ints(a):
        return lambda a: abs(a)

    def impl(a):
        value = _nb_types.int64(a)
        if value >= 0:
            return value
        value, flag = _nb_ssub(0, value)
        if flag:
            raise OverflowError(_INT_OVERFLOW)
        return value
    return impl
'''

NAMES = {"int_add": "add", "int_sub": "sub", "int_mul": "mul", "int_neg": "neg",
         "int_abs": "abs"}


def checked_source(aliases):
    """CHECKED_SOURCE with each operator named as in ``aliases`` (form -> name); the forms
    not named get private names."""
    names = {short: aliases.get(form, f"_gj_{form}") for form, short in NAMES.items()}
    return CHECKED_SOURCE.format(**names)


exec(compile(checked_source({form: form for form in NAMES}), __file__ + ":CHECKED_SOURCE",
             "exec"))
