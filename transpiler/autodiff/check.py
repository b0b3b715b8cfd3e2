"""``check_grads``: graphjit's reverse-mode gradient against central finite differences, as
JAX's ``jax.test_util.check_grads`` and autograd's ``check_grads`` do."""
import numpy as np

from .api import grad as _grad


def _directions(value, rng):
    if isinstance(value, np.ndarray):
        return rng.standard_normal(value.shape)
    return float(rng.standard_normal())


def _shift(value, direction, step):
    if isinstance(value, np.ndarray):
        return (value.astype(np.float64) + step * direction).astype(value.dtype)
    return type(value)(float(value) + step * direction)


def check_grads(fn, args, grad_position=None, eps=None, atol=None, rtol=None, seed=0,
                directions=3):
    """Compare ``grad(fn)`` with central differences along random directions.

    For each differentiated argument and each of ``directions`` random directions ``v``,
    ``<grad, v>`` must equal ``(fn(x + eps v) - fn(x - eps v)) / (2 eps)`` within
    ``atol + rtol * |value|``. Defaults follow the arguments' precision: float64
    ``eps=1e-6, atol=rtol=1e-5``; float32/float16 ``eps=1e-2, atol=rtol=2e-2``.

    Args:
        fn: a function of arrays returning a real floating scalar.
        args (tuple): its arguments (never mutated).
        grad_position (int | tuple | None): the arguments to check; None: every floating one.

    Raises:
        AssertionError: a directional derivative differs; the message names the argument,
            both values and the tolerance.
        TypeError: as ``grad`` does (non-scalar result, integer argument).
    """
    args = tuple(args)
    if grad_position is None:
        grad_position = tuple(k for k, a in enumerate(args)
                              if np.result_type(a).kind == "f" and not isinstance(a, bool))
    elif isinstance(grad_position, int):
        grad_position = (grad_position,)
    grads = _grad(fn, tuple(grad_position))(*args)
    rng = np.random.default_rng(seed)
    for position, g in zip(grad_position, grads):
        x = args[position]
        low = np.result_type(x).itemsize < 8
        step = eps if eps is not None else (1e-2 if low else 1e-6)
        a_tol = atol if atol is not None else (2e-2 if low else 1e-5)
        r_tol = rtol if rtol is not None else (2e-2 if low else 1e-5)
        for _ in range(directions):
            v = _directions(x, rng)
            plus = list(args)
            minus = list(args)
            plus[position] = _shift(x, v, step)
            minus[position] = _shift(x, v, -step)
            numeric = (float(fn(*plus)) - float(fn(*minus))) / (2 * step)
            analytic = float(np.sum(np.asarray(g, dtype=np.float64) * v))
            if not abs(numeric - analytic) <= a_tol + r_tol * abs(numeric):
                raise AssertionError(
                    f"check_grads: argument {position}: the gradient along a random direction "
                    f"is {analytic!r}, finite differences give {numeric!r} (eps={step}, "
                    f"atol={a_tol}, rtol={r_tol})")
