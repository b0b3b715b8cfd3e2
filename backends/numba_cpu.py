"""The numba-cpu backend: generated functions compiled with ``numba.njit``.

Options follow Numba's documentation: ``error_model="python"`` (the njit default) makes integer
and float division by zero raise ZeroDivisionError as Python does; ``cache=True`` writes machine
code next to the generated file (Numba's on-disk cache needs a real file, which graphjit writes).
"""
from .base import Backend


class NumbaCPUBackend(Backend):
    """Compile with ``numba.njit``; every generated function is a Numba dispatcher."""

    name = "numba-cpu"

    def __init__(self, cache=False):
        self.cache = bool(cache)
        self.decorator_lines = [
            "import numba",
            f"_jit = numba.njit(cache={self.cache})",
        ]

    @staticmethod
    def compile_errors():
        """The exception types that mean "Numba cannot compile this" (never user errors)."""
        from numba.core import errors
        found = [errors.NumbaError]
        unsupported_bytecode = getattr(errors, "UnsupportedBytecodeError", None)
        if unsupported_bytecode is not None:
            found.append(unsupported_bytecode)  # not a NumbaError subclass
        return tuple(found)
