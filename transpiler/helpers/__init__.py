"""graphjit's own helper functions, written in Python and converted into the generated code.

Where Numba's semantics differ from Python's or NumPy's (a domain error, an overflow, NEP 50,
CPython's ``round``), the specializer calls one of these functions instead; graphjit converts
it like user code (with Numba's own rules: helpers compare with literals on purpose), so the
generated module holds a copy of it, its lines tagged with this package's files.

Whether a function is one of them is decided here, once: by its module
(:func:`is_helper_module`) or its file (:func:`is_helper_file`).
"""
import os

_FOLDER = os.path.dirname(os.path.abspath(__file__))


def is_helper_module(module_name):
    """Whether functions of module ``module_name`` (a dotted name) are graphjit's helpers."""
    return module_name == __name__ or (module_name or "").startswith(__name__ + ".")


def is_helper_file(filename):
    """Whether ``filename`` (a path) holds graphjit's helpers."""
    return os.path.dirname(os.path.abspath(filename)) == _FOLDER


# Helpers compiled as functions of their own, never inlined: Numba removes unused pure
# expressions after inlining (ir_utils.dead_code_elimination), which would drop the evaluation
# (and the exceptions) these helpers exist to keep.
NOT_INLINED = frozenset({"evaluated_then"})
