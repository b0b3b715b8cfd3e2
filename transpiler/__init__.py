"""graphjit: static-graph acceleration for plain Python and NumPy.

``@jit`` reads a function's source, specializes it on the values known at transpile time and
compiles it with Numba; what cannot be compiled runs as plain Python, with a warning that says
where and why. See README.md, docs/ and docs/ARCHITECTURE.md.
"""
from .safe_path import drop_cwd as _drop_cwd, running_as_main_module as _as_main

if _as_main():
    # ``python -m transpiler``: drop the current folder from sys.path before the imports
    # below (and NumPy's, and the converter's) can pick up a calendar.py or numpy.py there.
    _drop_cwd()

from .api import BoundJitFunction, JitFunction, do_not_convert, jit
from .explain import Explanation, ExplainRow
from .specialization import GeneratedSource
from .context import GRAPH_MODE, PYNATIVE_MODE, get_context, set_context
from .errors import (CacheWarning, FallbackWarning, SourceUnavailable, TranspileError,
                     UnsupportedConstruct)

__all__ = [
    "jit", "do_not_convert", "Explanation", "ExplainRow", "JitFunction", "BoundJitFunction", "GeneratedSource", "set_context", "get_context",
    "GRAPH_MODE", "PYNATIVE_MODE", "nn", "TranspileError", "UnsupportedConstruct",
    "SourceUnavailable", "FallbackWarning", "CacheWarning", "grad", "value_and_grad",
    "check_grads", "GradFunction",
]
from ._version import __version__


def load_ipython_extension(ipython):
    """``%load_ext transpiler``: the ``%%graphjit`` cell magic (see transpiler.notebook)."""
    from .notebook import load_ipython_extension as load
    load(ipython)


def unload_ipython_extension(ipython):
    """``%unload_ext transpiler``."""
    from .notebook import unload_ipython_extension as unload
    unload(ipython)


def __getattr__(name):
    # ``transpiler.nn`` imports NumPy: load it on first use so ``import transpiler`` stays fast.
    if name == "nn":
        import importlib
        return importlib.import_module(".nn", __name__)
    if name in ("grad", "value_and_grad", "check_grads", "GradFunction"):
        # the adjoint pass imports NumPy: loaded on first use, like nn
        from . import autodiff
        return getattr(autodiff, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
