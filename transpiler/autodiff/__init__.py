"""Reverse-mode automatic differentiation, source to source: ``grad``, ``value_and_grad``,
``check_grads``. The pipeline: normalize.py (three-address form, Cells and user functions
inlined, control.py for runtime branches and loops) -> adjoint.py (the adjoint pass, rules.py)
-> a generated function (runtime.py for its helpers), run by api.py. See docs/ARCHITECTURE.md."""
from .api import GradFunction, grad, value_and_grad
from .check import check_grads

__all__ = ["GradFunction", "grad", "value_and_grad", "check_grads"]
