"""Compile-time tables of the number rules: which of graphjit's helpers (transpiler.helpers)
the specializer calls instead of a library call or an operator, and which calls it refuses.
"""
import cmath
import math

import numpy as np

from .helpers.math_checks import (
    checked_acos, checked_acosh, checked_asin, checked_atanh, checked_ceil, checked_cos,
    checked_cosh, checked_exp, checked_expm1, checked_floor, checked_frexp, checked_int,
    checked_ldexp, checked_log, checked_log10, checked_log1p, checked_log2, checked_math_pow,
    checked_sin, checked_sinh, checked_sqrt, checked_tan, checked_trunc, to_complex, to_float)
from .helpers import cmath_checks
from .helpers.numpy_arith import (
    alike_div, alike_floordiv, alike_lshift, alike_mod, alike_rshift, numpy_cdiv128,
    numpy_cdiv64, numpy_floordiv, numpy_mod, numpy_pow, numpy_scalar_floordiv, numpy_scalar_mod,
    numpy_scalar_truediv, numpy_truediv)
from .helpers.python_arith import checked_num_add, checked_num_mul, checked_num_sub
from .helpers.weak import (
    weak_add_left, weak_add_right, weak_div_left, weak_div_right, weak_eq_left, weak_eq_right,
    weak_floordiv_left, weak_floordiv_right, weak_ge_left, weak_ge_right, weak_gt_left,
    weak_gt_right, weak_le_left, weak_le_right, weak_lt_left, weak_lt_right, weak_mod_left,
    weak_mod_right, weak_mul_left, weak_mul_right, weak_ne_left, weak_ne_right, weak_pow_left,
    weak_pow_right, weak_sub_left, weak_sub_right)


REPLACEMENTS = {
    int: checked_int, float: to_float, complex: to_complex,
    math.sqrt: checked_sqrt, math.log: checked_log, math.log2: checked_log2,
    math.log10: checked_log10, math.log1p: checked_log1p, math.acos: checked_acos,
    math.asin: checked_asin, math.acosh: checked_acosh, math.atanh: checked_atanh,
    math.floor: checked_floor, math.ceil: checked_ceil, math.trunc: checked_trunc,
    math.exp: checked_exp, math.expm1: checked_expm1, math.sinh: checked_sinh,
    math.cosh: checked_cosh, math.sin: checked_sin, math.cos: checked_cos,
    math.tan: checked_tan, math.pow: checked_math_pow, math.ldexp: checked_ldexp,
    math.frexp: checked_frexp,
}
# cmath: arguments as CPython takes them (complex128), its errors and special values run as
# Python (transpiler.helpers.cmath_checks)
REPLACEMENTS.update({getattr(cmath, name): getattr(cmath_checks, "cmath_" + name) for name in (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "log", "log10",
    "phase", "polar", "rect", "sin", "sinh", "sqrt", "tan", "tanh")})
"""Library callable -> the checked function the converter calls instead (calls with
``REPLACEMENT_ARITY`` positional arguments, default one)."""
REPLACEMENT_ARITY = {math.pow: 2, math.ldexp: 2, cmath.rect: 2}
# (callable, number of positional arguments) -> the checked function, where it differs by arity
REPLACEMENTS_BY_ARITY = {(cmath.log, 2): cmath_checks.cmath_log_base}


def replacement(fn, arity):
    """The checked function the converter calls instead of ``fn`` with ``arity`` positional
    arguments (and no keywords), or None."""
    found = REPLACEMENTS_BY_ARITY.get((fn, arity))
    if found is None and arity == REPLACEMENT_ARITY.get(fn, 1):
        found = REPLACEMENTS.get(fn)
    return found

# Library calls whose compiled result differs from Python's -> why; the converter falls back
# on them. math functions CPython implements itself where Numba calls libm: the results
# differ in the last bits (math.gamma, math.lgamma: about 2 in 3 arguments; math.hypot: 1 in
# 500, measured on 60,000 random arguments). NumPy functions that give a read-only view,
# where Numba's is writable (a store through it changed the argument where NumPy raises).
_LIBM = "is CPython's own implementation; the compiled one (libm) differs in the last digits"
_READ_ONLY = "gives a read-only view in NumPy (a store raises), a writable one compiled"
DIFFERENT_CALLS = {math.gamma: f"math.gamma() {_LIBM}", math.lgamma: f"math.lgamma() {_LIBM}",
                   math.hypot: f"math.hypot() {_LIBM}",
                   np.broadcast_to: f"np.broadcast_to() {_READ_ONLY}",
                   np.lib.stride_tricks.sliding_window_view:
                       f"sliding_window_view() {_READ_ONLY}",
                   np.cov: "np.cov() in compiled code adds in another order (the last bits "
                           "differ)",
                   np.corrcoef: "np.corrcoef() in compiled code adds in another order (the "
                                "last bits differ)",
                   np.linalg.pinv: "np.linalg.pinv() in compiled code differs in the last bits"}
# NumPy's linear algebra runs its own LAPACK (lapack_lite or its OpenBLAS), Numba's SciPy's:
# the last bits differ (measured: inv of 3 x 3 and 20 x 20, solve and det of 100 x 100).
_LAPACK = "in compiled code is SciPy's LAPACK, NumPy's own in Python (the last bits differ)"
DIFFERENT_CALLS.update({fn: f"np.linalg.{fn.__name__}() {_LAPACK}" for fn in (
    np.linalg.inv, np.linalg.solve, np.linalg.det, np.linalg.slogdet, np.linalg.eig,
    np.linalg.eigh, np.linalg.eigvals, np.linalg.eigvalsh, np.linalg.svd, np.linalg.qr,
    np.linalg.cholesky, np.linalg.lstsq, np.linalg.matrix_rank, np.linalg.cond,
    np.linalg.matrix_power)})

# math functions of real numbers: Python converts their arguments to a (64-bit) float, so a
# float32 argument gives a float64 result; Numba would compute in float32. The converter
# passes their arguments through np.float64.
FLOAT_MATH = frozenset({
    "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "hypot", "pow",
    "fabs", "erf", "erfc", "gamma", "lgamma", "degrees", "radians", "copysign", "fmod"})
# math functions whose result is a Python float (a weak operand under NEP 50): the above, and
# ldexp (its exponent is an int, so its arguments are not all converted; checked_ldexp).
PYTHON_FLOAT_MATH = FLOAT_MATH | {"ldexp"}


NUM_CHECKED = {"Add": checked_num_add, "Sub": checked_num_sub, "Mult": checked_num_mul}
"""Operator name -> the checked function for operands that are ints or floats by path."""


ALIKE_BINOPS = {"Div": alike_div, "FloorDiv": alike_floordiv, "Mod": alike_mod,
                "LShift": alike_lshift, "RShift": alike_rshift}


numpy_complex_div = {"complex128": numpy_cdiv128, "complex64": numpy_cdiv64}


NUMPY_BINOPS = {"Pow": numpy_pow, "Div": numpy_truediv, "FloorDiv": numpy_floordiv,
                "Mod": numpy_mod}
"""gast operator name -> the NumPy-rules function used where a NumPy value is an operand."""

NUMPY_SCALAR_BINOPS = {"Pow": numpy_pow, "Div": numpy_scalar_truediv,
                       "FloorDiv": numpy_scalar_floordiv, "Mod": numpy_scalar_mod}
"""NUMPY_BINOPS where the converter knows both operands are scalars (no ``np.isscalar``)."""

NUMPY_DIVISION_HELPERS = {fn.__name__: name for table in (NUMPY_BINOPS, NUMPY_SCALAR_BINOPS)
                          for name, fn in table.items() if name != "Pow"}
"""Helper name -> the gast operator name it computes (``/ // %`` by NumPy's rules): they never
raise (NumPy's inf, nan or 0 by zero); the NumPy graph and CUDA kernels write the operator."""


WEAK_ARRAY_BINOPS = {("Div", "left"): weak_div_left, ("Div", "right"): weak_div_right,
                     ("FloorDiv", "left"): weak_floordiv_left,
                     ("FloorDiv", "right"): weak_floordiv_right,
                     ("Mod", "left"): weak_mod_left, ("Mod", "right"): weak_mod_right,
                     ("Pow", "left"): weak_pow_left, ("Pow", "right"): weak_pow_right}
"""NEP 50 helpers for operators whose NumPy *scalar* forms are NUMPY_BINOPS: used where the
other side is an array (Numba's array operators already follow NumPy)."""

WEAK_BINOPS = {("Add", "left"): weak_add_left, ("Add", "right"): weak_add_right,
               ("Sub", "left"): weak_sub_left, ("Sub", "right"): weak_sub_right,
               ("Mult", "left"): weak_mul_left, ("Mult", "right"): weak_mul_right,
               # comparisons: NumPy 2 compares np.float32(-0.67) >= -0.67 in float32 (True)
               ("Lt", "left"): weak_lt_left, ("Lt", "right"): weak_lt_right,
               ("LtE", "left"): weak_le_left, ("LtE", "right"): weak_le_right,
               ("Gt", "left"): weak_gt_left, ("Gt", "right"): weak_gt_right,
               ("GtE", "left"): weak_ge_left, ("GtE", "right"): weak_ge_right,
               ("Eq", "left"): weak_eq_left, ("Eq", "right"): weak_eq_right,
               ("NotEq", "left"): weak_ne_left, ("NotEq", "right"): weak_ne_right}
"""(gast operator name, side of the Python number) -> its NEP 50 helper."""
