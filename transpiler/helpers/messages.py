"""The messages of the errors graphjit's helpers raise where Python's or NumPy's result is
something compiled code cannot hold (an int beyond int64, a complex number...).

transpiler.api recognises them (:func:`not_representable`) and re-runs an effect-free function
as Python on them (transpiler.analysis.effects).
"""


DOMAIN = "math domain error"


# CPython's math_1: a nan from a non-nan argument is a domain error (ValueError), an infinity
# from a finite one a range error (OverflowError) for the functions that can overflow.
RANGE = "math range error"


# The messages of the errors compiled code raises where Python's result is a value it cannot
# hold (an int beyond int64, a complex number). transpiler.api re-runs an effect-free function
# as Python on them (transpiler.analysis.effects); the raises below spell them out literally
# because converted code reads string constants only as literals.
BY_PATH = ("an operation of a value that is a Python number on some paths and a NumPy scalar "
           "on others where Python and NumPy differ (a division by zero, a shift out of range, "
           "an int beyond int64) (graphjit)")

UNDEFINED_CAST = ("a NumPy float outside the integer type's range (or nan) converted to it: C's "
                  "conversion is undefined there, so NumPy's value depends on the machine "
                  "(graphjit)")

ROUND_INEXACT = ("round(x, n) where CPython's correctly rounded result needs more than "
                  "float64 arithmetic (n beyond +-22, or a huge x) (graphjit)")


RESHAPE_STRIDED = ("a reshape of an array that is not C-contiguous: NumPy copies it or "
                    "gives a view by its strides, Numba cannot (graphjit)")

CLIP_NAN = ("np.clip with a NaN bound: NumPy gives NaN, Numba ignores the bound "
             "(graphjit)")

SUM_ORDER = ("a sum of an array that is neither 1-D nor contiguous: NumPy adds in the order of "
             "its iterator's buffers, which compiled code does not reproduce (graphjit)")

AXIS_ORDER = ("a reduction along an axis of an array whose strides do not fix NumPy's order of "
              "operations (reversed, broadcast or overlapping) (graphjit)")

MINMAX_TIE = ("a max or min along an axis over a NaN, over zeros of both signs or over an empty "
              "slice: NumPy's result or error is its own (graphjit)")

EMPTY_MEAN = "the mean of an empty array: NumPy warns and gives nan (graphjit)"

VAR_DDOF = ("a variance with ddof >= the number of elements: NumPy warns and gives inf or nan "
            "(graphjit)")

INT_TRUEDIV_INEXACT = ("an int beyond 2**53 in a true division of ints: Python rounds the exact "
                       "quotient once, compiled code would round each int first (graphjit)")

IDENTITY_NAN = ("a NaN item in a comparison of tuples or lists, or in an 'in' test: Python's "
                "result depends on object identity (one NaN object equals itself), which compiled "
                "code does not have (graphjit)")

CREATED_FLOAT = ("a float outside the integer dtype's range (or nan) converted into a new array: "
                 "NumPy's value is undefined (graphjit)")

USER_EXCEPTION = ("an exception of a class defined in Python code: the call runs again as Python "
                  "to raise it (graphjit)")

CMATH_SPECIAL = ("a cmath function of a value where CPython's special values, errors or last "
                 "digits are its own (graphjit)")

NOT_REPRESENTABLE = (
    USER_EXCEPTION,
    "int beyond int64 in compiled code (graphjit)",
    BY_PATH,
    UNDEFINED_CAST,
    "an int from 2**53 in a value that is an int or a float by path: compiled code holds it in "
    "float64 (graphjit)",
    "a negative number to a fractional power is complex in Python; compiled code cannot "
    "return it (graphjit)",
    ROUND_INEXACT,
    RESHAPE_STRIDED,
    CLIP_NAN,
    SUM_ORDER,
    AXIS_ORDER,
    MINMAX_TIE,
    EMPTY_MEAN,
    VAR_DDOF,
    CREATED_FLOAT,
    INT_TRUEDIV_INEXACT,
    IDENTITY_NAN,
    CMATH_SPECIAL,
)


def not_representable(exc):
    """Whether exception ``exc`` is compiled code saying Python's result does not fit it, or
    Numba failing to box a result as a Python object (a module a Numba overload returned:
    numba's test_extending usecases)."""
    return (type(exc) in (OverflowError, ValueError) and str(exc) in NOT_REPRESENTABLE) or (
        type(exc) is TypeError and str(exc).startswith("cannot convert native "))
