"""NumPy 2's rules for operators on NumPy scalars, taken from NumPy itself.

For ``a op b`` with a NumPy scalar operand, NumPy calls a ufunc (``np.add`` for ``+``...). The
ufunc picks a loop: both operands are converted to the loop's dtypes, the loop computes in
them and wraps in them (``np.uint8(200) + np.uint8(200)`` is ``np.uint8(144)``). Which loop is
``ufunc.resolve_dtypes`` with the operand dtypes, a Python int/float/complex entering as a NEP 50
*weak* scalar (it takes the other operand's kind; an int that does not fit raises
OverflowError). Numba types NumPy scalar arithmetic by its own rules instead: machine-width
integers (``uint8 + uint8`` is uint64, ``int8 + int8`` int64), ``int16 * float32`` is float64,
``-uint8`` is int64.

So the converter spells NumPy's loop out (transpiler.passes.specialize,
``Specializer._numpy_scalar_op``): each operand converted to the loop dtype, the operation, and
the result converted to NumPy's result dtype. That is exact:

- integer loops: ``+ - * & | ^ ~ -x`` and ``**`` are arithmetic modulo 2**64 in Numba's wider
  integer, and the conversion to the loop's ``n``-bit dtype keeps the value modulo 2**n, which
  is NumPy's wrapped result; ``//`` and ``%`` of values inside the dtype are exact in the wider
  type (``int8(-128) // -1`` is 128 there and -128 after the conversion, as NumPy gives);
  shifts go through ``numpy_lshift``/``numpy_rshift`` (a count outside ``[0, bits)``, NumPy's
  ``npy_lshift``/``npy_rshift``);
- int64 loops: ``+ - * -x`` are spelled in uint64 (Numba emits signed arithmetic as LLVM
  ``add nsw``, which the optimiser may assume never wraps: ``1 > 1 + i`` became ``i < 0``),
  ``**`` squares in uint64, and ``MIN // -1`` is MIN, as NumPy gives;
- float loops: the operands are already of the loop dtype, so Numba computes in it (float32
  with float32 is float32 in Numba); IEEE arithmetic is then bit for bit NumPy's. A Python
  float meeting an np.float32 is converted to float32 here (NEP 50) whatever shape the
  expression has.

What cannot be exact is a *problem* (the function falls back): float16 (Numba has no float16
scalars), a loop whose operands keep different dtypes (``int64 < uint64`` compares exactly, in
no common dtype), types NumPy refuses (``np.bool_ - np.bool_`` raises TypeError in the plain
call too), and a result type that disagrees with what the operation gives on sample values
(a rule this module does not know).
"""
from dataclasses import dataclass, replace

import numpy as np

from .scalar_types import _BINOPS, _UNARY, _apply

UFUNCS = {"Add": np.add, "Sub": np.subtract, "Mult": np.multiply, "Div": np.true_divide,
          "FloorDiv": np.floor_divide, "Mod": np.remainder, "Pow": np.power,
          "LShift": np.left_shift, "RShift": np.right_shift, "BitAnd": np.bitwise_and,
          "BitOr": np.bitwise_or, "BitXor": np.bitwise_xor,
          "Lt": np.less, "LtE": np.less_equal, "Gt": np.greater, "GtE": np.greater_equal,
          "Eq": np.equal, "NotEq": np.not_equal,
          "USub": np.negative, "UAdd": np.positive, "Invert": np.invert, "Abs": np.absolute}
"""gast operator name -> the ufunc NumPy's scalar operator calls."""

COMPARISONS = frozenset({"Lt", "LtE", "Gt", "GtE", "Eq", "NotEq"})

# Operand types whose + - * and comparisons the converter already gives NumPy's results for
# (Numba types them as NumPy does): left on that path. Not np.int64 (Numba's signed arithmetic
# is `add nsw`, which LLVM may assume never wraps; NumPy's int64 wraps: computed in uint64),
# not np.float32 (a Python float meeting it is NEP 50's float32 in every expression shape).
_NUMBA_ALIKE = frozenset({"np:float64", "int", "float"})
_PYTHON = {"int": int, "float": float, "complex": complex}


@dataclass(frozen=True)
class Plan:
    """How to compute one operator as NumPy does.

    Attributes:
        loop (tuple[str, ...]): dtype name each operand is converted to.
        result (str): dtype name of the result (``"bool"`` for comparisons).
        weak_int (tuple[bool, ...]): per operand, whether it is a Python int meeting an
            integer loop (NumPy raises OverflowError when it does not fit the dtype).
        problem (str | None): why it cannot be compiled exactly; then nothing else is set.
        int_uint64 (bool): a comparison of a Python int with an np.uint64, which NumPy makes
            exactly (helpers.numpy_arith.int_uint64_sign; ``loop`` is empty).
        numpy_loop (np.ufunc | None): compute by calling this ufunc's own NumPy inner loop
            for ``loop`` (transpiler.ir.ufunc_loop; see ``numpy_loop``).
    """
    loop: tuple = ()
    result: str = ""
    weak_int: tuple = ()
    problem: str = None
    int_uint64: bool = False
    numpy_loop: object = None


def _operator_function(name):
    for table in (_BINOPS, _UNARY):
        for node_type, fn in table.items():
            if node_type.__name__ == name:
                return fn
    import operator
    if name == "Abs":
        return abs
    return {"Lt": operator.lt, "LtE": operator.le, "Gt": operator.gt, "GtE": operator.ge,
            "Eq": operator.eq, "NotEq": operator.ne}[name]


_plans = {}


# ufuncs whose results are correctly rounded (IEEE) or exact, so computing in the loop dtype
# gives NumPy's value bit for bit (those that are operators are lowered as the operators are:
# Numba's own np.floor_divide/np.remainder of small ints give 0 for int8(-128) // -1 and trap
# (SIGFPE) for -128 % -1).
EXACT_UFUNCS = frozenset({
    np.add, np.subtract, np.multiply, np.true_divide, np.floor_divide, np.remainder,
    np.maximum, np.minimum, np.fmax, np.fmin, np.sqrt, np.absolute, np.negative, np.positive,
    np.floor, np.ceil, np.trunc, np.rint, np.square, np.bitwise_and, np.bitwise_or,
    np.bitwise_xor, np.invert, np.left_shift, np.right_shift, np.less, np.less_equal,
    np.greater, np.greater_equal, np.equal, np.not_equal, np.logical_and, np.logical_or,
    np.logical_xor, np.logical_not, np.power, np.sign, np.isnan, np.isinf, np.isfinite,
    np.signbit, np.copysign, np.fabs, np.conjugate, np.nextafter})

UFUNC_OPERATORS = {np.add: "Add", np.subtract: "Sub", np.multiply: "Mult",
                   np.true_divide: "Div", np.floor_divide: "FloorDiv", np.remainder: "Mod",
                   np.power: "Pow", np.left_shift: "LShift", np.right_shift: "RShift",
                   np.bitwise_and: "BitAnd", np.bitwise_or: "BitOr", np.bitwise_xor: "BitXor",
                   np.negative: "USub", np.positive: "UAdd", np.invert: "Invert",
                   np.absolute: "Abs", np.less: "Lt", np.less_equal: "LtE",
                   np.greater: "Gt", np.greater_equal: "GtE", np.equal: "Eq",
                   np.not_equal: "NotEq"}
"""ufunc -> the gast operator name whose lowering (Specializer._planned) computes it as NumPy
does for scalars."""

# ufuncs whose float and complex loops are NumPy's own math code (SIMD-dispatched at import:
# AVX-512 here), where Numba calls libm or its own code: the last bit differs for many values
# (float32 np.exp: 38% of them, np.rad2deg 79%; backends/runtime/ufunc_loops.py). Compiled
# code calls NumPy's own inner loop for them (transpiler.ir.ufunc_loop), so the bits are
# NumPy's on every machine.
LOOP_UFUNCS = frozenset({
    np.exp, np.exp2, np.expm1, np.log, np.log2, np.log10, np.log1p, np.sin, np.cos, np.tan,
    np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh, np.tanh, np.arcsinh, np.arccosh,
    np.arctanh, np.arctan2, np.hypot, np.cbrt, np.deg2rad, np.rad2deg, np.degrees,
    np.radians, np.logaddexp, np.logaddexp2,
    # float loops that are NumPy's own code too: its power loop (np.power(-0.0, 0.5) is
    # sqrt's -0.0, libm's pow gives 0.0), fmax/fmin's choice of a signed zero (float32: the
    # second, float64: the first, by its SIMD path); reciprocal (its integer loops stay
    # refused: NumPy's own integer 1/x)
    np.power, np.fmax, np.fmin, np.reciprocal})
# ufuncs whose complex loops are NumPy's own npy_math code (exact in the real case, where
# they stay the operators Numba compiles alike).
# (Not np.square: NumPy's complex scalar square is not its loop's: 30% of complex64 values
# differ from the array loop's, measured.)
COMPLEX_LOOP_UFUNCS = frozenset({np.sqrt, np.sign, np.absolute, np.maximum, np.minimum})


# ufuncs whose float *array* loops differ from Numba's array versions (the signed zero of
# np.maximum(0.0, -0.0) elementwise, np.sign(-0.0): found by a review); of scalars graphjit's
# helpers compute NumPy's C rules inline (helpers.numpy_arith.numpy_maximum, numpy_sign).
ARRAY_LOOP_UFUNCS = frozenset({np.maximum, np.minimum, np.sign})


def numpy_loop(ufunc, loop, arrays=False):
    """Whether ``ufunc`` on loop dtype names ``loop`` is computed by calling NumPy's own inner
    loop (LOOP_UFUNCS: float and complex loops; COMPLEX_LOOP_UFUNCS: complex loops; with
    ``arrays``, an array operand, ARRAY_LOOP_UFUNCS: float loops too). The loop must take
    float32/float64/complex64/complex128 operands (Numba's scalar types; float16 and long
    double have none)."""
    kinds = {np.dtype(d).char for d in loop}
    if not loop or not kinds <= set("fdFD"):
        return False
    return ufunc in LOOP_UFUNCS or (ufunc in COMPLEX_LOOP_UFUNCS and kinds <= set("FD")) or (
        arrays and ufunc in ARRAY_LOOP_UFUNCS)


def ufunc_plan(ufunc, kinds):
    """NumPy's plan for calling ``ufunc`` on scalars of type strings ``kinds`` (Python numbers
    included: ``np.add(2, 3)`` is an np.int64), or None (an operand not a known scalar).

    EXACT_UFUNCS compute in NumPy's loop dtype exactly; LOOP_UFUNCS (and complex loops of
    COMPLEX_LOOP_UFUNCS) by NumPy's own inner loop (``numpy_loop``); other complex loops and
    every other ufunc on scalars are a problem (Numba's implementations differ from NumPy's:
    ``np.sign(np.uint8(255))`` is 255 in Numba, ``np.fmod`` of int8(-128) and -1 is -128,
    ``np.spacing(-0.0)``...)."""
    if ufunc.nin != len(kinds) or ufunc.nout != 1:
        return None
    if not all(k in _PYTHON or k == "bool" or k.startswith("np:") for k in kinds):
        return None
    key = (ufunc, tuple(kinds))
    if key not in _plans:
        _plans[key] = _plan(ufunc.__name__, tuple(kinds), ufunc)
    found = _plans[key]
    if found is None or found.problem:
        return found
    name = ufunc.__name__
    if numpy_loop(ufunc, found.loop):
        return replace(found, numpy_loop=ufunc)
    if ufunc not in EXACT_UFUNCS:
        return Plan(problem=f"np.{name} of NumPy or Python scalars is not compiled (Numba's "
                            "implementation differs from NumPy's for some values)")
    return found


def plan(name, kinds, strong=False):
    """NumPy's plan for operator ``name`` (a gast operator class name: ``"Add"``, ``"Lt"``,
    ``"USub"``...) on operands of type strings ``kinds`` (transpiler.analysis.scalar_types:
    ``"np:uint8"``, ``"int"``...), or None when the converter's other rules already give
    NumPy's result (no NumPy scalar operand, or only types Numba treats as NumPy does) or an
    operand is not a known scalar type.

    Returns:
        Plan | None: a ``problem`` plan when the operation cannot be compiled exactly.
    """
    key = (name, tuple(kinds), strong)
    if key not in _plans:
        _plans[key] = _plan(name, tuple(kinds), strong=strong)
    return _plans[key]


def _plan(name, kinds, called=None, strong=False):
    ufunc = called or UFUNCS.get(name)
    if ufunc is None or not all(k in _PYTHON or k == "bool" or k.startswith("np:")
                                for k in kinds):
        return None
    # / // % ** keep NumPy's rules through graphjit's helpers (transpiler.helpers); shifts need
    # NumPy's counts: those always take the plan
    own_rules = name in ("LShift", "RShift", "Div", "FloorDiv", "Mod", "Pow")
    if called is None and (not any(k.startswith("np:") for k in kinds) or (
            set(kinds) <= _NUMBA_ALIKE and not own_rules and not strong)):
        return None
    integer = [k in ("int", "bool") or (k.startswith("np:") and np.dtype(k[3:]).kind in "biu")
               for k in kinds]
    if (name in COMPARISONS or UFUNC_OPERATORS.get(called) in COMPARISONS) and \
            "int" in kinds and all(integer):
        if "np:uint64" in kinds:
            # exact, where Numba compares int64 with uint64 in float64
            return Plan(loop=(), result="bool", int_uint64=True)
        return None    # NumPy 2 compares a Python int with an integer scalar exactly: kept
    dtypes = tuple(operand_dtype(k) for k in kinds)
    try:
        resolved = ufunc.resolve_dtypes(dtypes + (None,))
    except Exception as exc:  # noqa: BLE001 - NumPy refuses these types: so does the call
        return Plan(problem=f"NumPy raises {type(exc).__name__} for {ufunc.__name__} of "
                            f"{' and '.join(_describe(k) for k in kinds)}")
    loop, result = resolved[:-1], resolved[-1]
    if "float16" in {d.name for d in resolved}:
        return Plan(problem="a float16 NumPy scalar: Numba has no float16 scalars")
    if len({d.name for d in loop}) != 1:
        return Plan(problem=f"{ufunc.__name__} of {' and '.join(_describe(k) for k in kinds)}"
                            " has no common dtype in NumPy (it compares exactly)")
    if name == "Pow" and loop[0].kind in "fc" and (loop[0].kind == "c" or not any(
            k == "np:" + loop[0].name for k in kinds)):
        # NumPy's scalar ** computes with libm's pow only where one operand already has the
        # result dtype (scalarmath.c.src converts the other to it); otherwise it calls its own
        # ufunc loop (SIMD pow; its own cpow for complex): np.uint16(7) ** 1.5 differs from
        # libm's pow, which Numba calls, in the last bit: that loop is called. A complex
        # operand already of the result dtype is scalarmath's own complex power: not compiled.
        if loop[0].kind == "c" and any(k == "np:" + loop[0].name for k in kinds):
            return Plan(problem=f"{' ** '.join(_describe(k) for k in kinds)} is NumPy's own "
                            f"{loop[0].name} power loop (libm's pow differs in the last bits)")
        called_loop = np.power
    else:
        called_loop = None
    sampled = _apply(called or _operator_function(name), kinds)
    if sampled != "np:" + result.name:
        return Plan(problem=f"{ufunc.__name__} of {' and '.join(_describe(k) for k in kinds)}"
                            f" gives {sampled}, not the loop's {result.name}")
    # (compiled code holds Python ints in int64: they always fit an int64 loop)
    weak_int = tuple(k == "int" and loop[0].kind in "iu" and loop[0].name != "int64"
                     for k in kinds)
    return Plan(loop=tuple(d.name for d in loop), result=result.name, weak_int=weak_int,
                numpy_loop=called_loop)


def operand_dtype(kind):
    """What ``ufunc.resolve_dtypes`` takes for an operand of type string ``kind``: a Python
    int/float/complex type (NEP 50 weak) or a NumPy dtype."""
    if kind in _PYTHON:
        return _PYTHON[kind]
    return np.dtype("bool" if kind == "bool" else kind.split(":")[1])


def _describe(kind):
    return f"np.{kind[3:]}" if kind.startswith("np:") else f"a Python {kind}"


@dataclass(frozen=True)
class ArrayPlan:
    """How to compute an operator with an array operand as NumPy does.

    Attributes:
        loop (str): the loop dtype both operands are converted to ("" when Numba's own
            typing already gives it: a Python number, which NEP 50's ``weak`` types).
        sqrt (bool): ``a ** 0.5``: NumPy computes ``np.sqrt`` (its fast scalar power).
        problem (str | None): why it cannot be compiled exactly.
    """
    loop: str = ""
    sqrt: bool = False
    problem: str = None


def array_plan(name, kinds, constants):
    """NumPy's plan for operator ``name`` with at least one array operand (``kinds`` as in
    ``plan``; ``constants``: per operand its literal value, or None), or None where Numba's
    array operators already follow NumPy.

    - an array meeting a NumPy scalar: NumPy 2 types the scalar as strongly as an array
      (``complex64_array + np.int64(0)`` is complex128, ``int64_array * np.uint64(2)`` is
      float64); Numba's array-scalar typing lets the array's dtype win. Both operands are
      converted to the loop dtype;
    - ``<<``/``>>``: NumPy gives 0 (or -1) for a count outside ``[0, bits)``, Numba's loop
      shifts by it (undefined in C): only a literal count inside compiles;
    - ``**`` of floats: NumPy's power loop is its own (SIMD) code, which differs from libm's
      pow in the last bit (1,128 of 20,000 random float64 pairs here); NumPy's fast scalar
      power takes exponents -1, 0, 1, 2 (exact in both) and 0.5 (``np.sqrt``): only those
      literal exponents compile; integer powers are exact (NumPy raises ValueError for a
      negative integer exponent: only a literal one >= 0 compiles).
    """
    arrays = [k for k in kinds if k.startswith("arr:")]
    if not arrays or len(kinds) != 2 or not all(
            k in _PYTHON or k == "bool" or k.startswith(("np:", "arr:")) for k in kinds):
        return None
    ufunc = UFUNCS.get(name)
    if ufunc is None:
        return None
    dtypes = tuple(operand_dtype(k) for k in kinds)
    try:
        resolved = ufunc.resolve_dtypes(dtypes + (None,))
    except Exception as exc:  # noqa: BLE001 - NumPy refuses these types: so does the call
        return ArrayPlan(problem=f"NumPy raises {type(exc).__name__} for {ufunc.__name__} of "
                                 f"{' and '.join(map(_describe, kinds))}")
    loop = resolved[0]
    if len({d.name for d in resolved[:-1]}) != 1 or "float16" in {d.name for d in resolved}:
        return ArrayPlan(problem=f"{ufunc.__name__} of {' and '.join(map(_describe, kinds))}"
                                 " has no loop Numba computes alike")
    if loop.kind == "c" and name in ("Div", "FloorDiv", "Mod", "Pow"):
        return ArrayPlan(problem=f"{ufunc.__name__} of complex arrays is NumPy's own loop "
                                 "(Numba divides otherwise, and raises ZeroDivisionError)")
    if name in ("LShift", "RShift"):
        count = constants[1]
        if kinds[1].startswith("arr:") or type(count) is not int or not (
                0 <= count < loop.itemsize * 8):
            return ArrayPlan(problem="a shift of an array by a count that may be outside "
                                     "[0, bits) (NumPy gives 0, Numba's loop shifts by it)")
    if name == "Pow":
        exponent = constants[1]
        if loop.kind in "fc":
            if exponent == 0.5 and type(exponent) is float and loop.kind == "f":
                return ArrayPlan(loop=loop.name, sqrt=True)
            if exponent not in (-1, 0, 1, 2) or type(exponent) not in (int, float):
                return ArrayPlan(problem=f"an array {loop.name} power is NumPy's own power "
                                         "loop (libm's pow differs in the last bits); "
                                         "exponents -1, 0, 1, 2 and 0.5 compile")
        elif type(exponent) is not int or exponent < 0:
            return ArrayPlan(problem="an integer array to a power that may be negative "
                                     "(NumPy raises ValueError)")
    # A NumPy scalar, or a Python complex (NEP 50 makes it complex64 with float32 arrays,
    # where Numba's typing gives complex128), is converted to the loop dtype.
    numpy_scalar = any(k.startswith("np:") or k == "complex" for k in kinds)
    return ArrayPlan(loop=loop.name if numpy_scalar else "")
