"""The eager backend: the generated code run as plain Python.

It checks the conversion (static resolution, pruning, unrolling, call specialization) apart
from Numba: for every input the eager-generated code must agree with the original function.
"""
from .base import Backend


class EagerBackend(Backend):
    """No decorator: the generated functions are ordinary Python functions."""

    name = "eager"
    decorator_lines = None
