"""The functional forms: the vocabulary of graphjit's intermediate program, and its runtime.

After the lowering passes, every ``if``, ``while`` and ``for`` of a converted function is one
of these calls, with its body in a nested function whose parameters are the region's inputs and
whose return value is the region's outputs (AutoGraph's "functional form", with explicit state
instead of closures)::

    x, y = cond(test, if_true, if_false, (x, y, a))        # if_true(x, y, a) -> (x, y)
    i, s = while_loop(loop_test, loop_body, (i, s), (n,))  # loop_test(i, s, n) -> bool
    s, = for_range(loop_body, 0, n, 1, (s,), (a,))         # loop_body(i, s, a) -> (s,)
    s, = for_each(loop_body, items, (s,), ())              # loop_body(item, s) -> (s,)

``state`` is what the region modifies and what is live into or out of it; ``args`` are the
loop-invariant inputs. ``extra_test(*state, *args)`` (optional on for loops) is checked before
each iteration: it is how a lowered ``break`` or ``return`` stops a ``for`` loop.
``undefined(name)`` stands for a variable not yet assigned where a region starts (one that the
region assigns before any read).

The functions below run these forms in Python: that is the eager backend. The numba-cpu backend
turns the forms back into structured loops (Numba compiles those fastest).
"""


class Undefined:
    """A variable that has no value yet; any use of it is an error in the conversion."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"undefined({self.name!r})"

    def __bool__(self):
        raise UnboundLocalError(f"local variable {self.name!r} referenced before assignment")


def undefined(name):
    """The placeholder of variable ``name`` before its first assignment."""
    return Undefined(name)


def cond(test, if_true, if_false, inputs):
    """``if test`` as a form: ``if_true(*inputs)`` or ``if_false(*inputs)``; their outputs."""
    return if_true(*inputs) if test else if_false(*inputs)


def while_loop(loop_test, loop_body, state, args):
    """``while loop_test(*state, *args): state = loop_body(*state, *args)``; the final state."""
    while loop_test(*state, *args):
        state = loop_body(*state, *args)
    return state


def for_range(loop_body, start, stop, step, state, args, extra_test=None):
    """``for i in range(start, stop, step)``: ``state = loop_body(i, *state, *args)``."""
    for i in range(start, stop, step):
        if extra_test is not None and not extra_test(*state, *args):
            break
        state = loop_body(i, *state, *args)
    return state


def for_each(loop_body, iterable, state, args, extra_test=None):
    """``for item in iterable``: ``state = loop_body(item, *state, *args)``."""
    for item in iterable:
        if extra_test is not None and not extra_test(*state, *args):
            break
        state = loop_body(item, *state, *args)
    return state


def weak(value, like):
    """A Python number used with ``like`` (an array or NumPy scalar), typed the NumPy 2 way.

    NEP 50: a Python int/float is a *weak* scalar: it takes the dtype of the array or NumPy
    scalar it meets (``float32_array * 0.5`` stays float32; ``uint8_array + 300`` raises
    OverflowError). NumPy applies the rule itself, so in Python this is the identity; the
    numba-cpu backend defines a typed version (Numba would promote to float64/int64).
    """
    return value


def opaque(value):
    """``value``, hidden from the compiler's constant folding: graphjit's helpers compute
    ``opaque(x) ** opaque(y)`` where Python (CPython's float_pow) and NumPy's scalar power
    (npy_pow, npy_powf) call libm's ``pow``. LLVM rewrites ``pow(x, 2.0)`` as ``x * x``,
    ``pow(x, -1.0)`` as ``1 / x``, ``pow(x, 0.5)`` as ``sqrt(x)`` and ``pow(2.0, y)`` as
    ``exp2(y)`` (LLVM's LibCallSimplifier, optimizePow), each correctly rounded where libm's
    ``pow`` is within about 0.52 ulp: about 1 call in 1,200 of ``x ** 2.0`` differs in the
    last bit. The numba backends define it as an empty inline-assembly barrier on a float
    (backends/runtime/builtin_ops.py); the GPU and graph backends drop it. In Python this is
    the identity."""
    return value


def ufunc_loop(ufunc, *operands):
    """``ufunc(*operands)`` computed by NumPy's own inner loop for the operands' dtypes: the
    converter casts the operands to the loop NumPy picks (``np.exp`` of an int16 is its float32
    loop) and calls this for the ufuncs whose loops are NumPy's own math code
    (analysis.numpy_scalars.LOOP_UFUNCS). Numba computes those with libm, which differs from
    NumPy's SIMD loops in the last bit for many values; the numba-cpu backend calls the loop
    NumPy calls (backends/runtime/ufunc_loops.py). In Python, the ufunc itself."""
    return ufunc(*operands)


def untyped_operand(value):
    """An operand whose type the converter could not follow, meeting an array or NumPy scalar
    (transpiler.analysis.untyped_operands). NumPy's result type depends on whether it is a
    Python number (NEP 50: weak) or a NumPy value, which compiled code cannot tell once Numba
    holds it as an int64 or float64: the numba-cpu backend accepts only an array here and
    refuses to compile a number (the function falls back). In Python this is the identity."""
    return value


def int_add(a, b):
    """``a + b`` of Python ints. Python's int grows; compiled code holds it in int64, so the
    numba backends define checked versions (``backends/runtime/checked_ints.py``) that raise
    OverflowError("int beyond int64 in compiled code (graphjit)") instead of wrapping (an
    effect-free call then runs again as Python: transpiler.api). Plain Python: the operator."""
    return a + b


def int_sub(a, b):
    """``a - b`` of Python ints; see :func:`int_add`."""
    return a - b


def int_mul(a, b):
    """``a * b`` of Python ints; see :func:`int_add`."""
    return a * b


def int_neg(a):
    """``-a`` of a Python int (``-(-2**63)`` does not fit int64); see :func:`int_add`."""
    return -a


def int_abs(a):
    """``abs(a)`` of a Python int; see :func:`int_add`."""
    return abs(a)


# Python-int operators whose compiled versions check for int64 overflow.
CHECKED_INT = ("int_add", "int_sub", "int_mul", "int_neg", "int_abs")

FORMS = ("cond", "while_loop", "for_range", "for_each", "undefined")


def python_island(slot, kinds, values, result):
    """Run the Python island in ``slot`` of the current region call (transpiler.island_frames)
    with ``values``, a tuple of what compiled code holds, converted to the Python types
    ``kinds`` names. The numba-cpu backend calls it from compiled code, the GIL held
    (backends/runtime/islands.py). A statement island returns None (its stores go to arrays,
    Python objects and its frame, never to a compiled variable); an expression island its
    value, of the type string ``result`` (``"int"``, ``"bool"``...; ``""`` for a
    statement)."""
    from .island_frames import call_island
    return call_island(slot, kinds, values)
