"""Reverse-mode automatic differentiation, source to source: ``grad``, ``value_and_grad``,
``check_grads``. See transpiler/autodiff/api.py and docs/ARCHITECTURE.md."""
from .api import GradFunction, grad, value_and_grad

__all__ = ["GradFunction", "grad", "value_and_grad"]
