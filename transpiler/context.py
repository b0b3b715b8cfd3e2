"""Execution modes and device target, after MindSpore's ``set_context``.

``PYNATIVE_MODE`` (the default, as in MindSpore 2.x) runs ``Cell.construct`` eagerly unless it is
decorated with ``@jit``; ``GRAPH_MODE`` compiles every Cell call's ``construct``.
"""
import os

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_DEVICE_BACKENDS = {"CPU": "numba-cpu"}
_context = {"mode": PYNATIVE_MODE, "device_target": "CPU"}


def set_context(mode=None, device_target=None):
    """Set the execution mode and/or the device target.

    Args:
        mode (int): ``GRAPH_MODE`` (0) or ``PYNATIVE_MODE`` (1), MindSpore's values.
        device_target (str): ``"CPU"``. ``"GPU"`` is the numba-cuda backend, not built yet.

    Raises:
        ValueError: unknown mode or device target, or a target with no backend yet.
    """
    if mode is not None:
        if mode not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(f"mode must be GRAPH_MODE (0) or PYNATIVE_MODE (1), got {mode!r}")
        _context["mode"] = mode
    if device_target is not None:
        if device_target not in _DEVICE_BACKENDS:
            raise ValueError(
                f"device_target {device_target!r} is not available; "
                f"available: {sorted(_DEVICE_BACKENDS)}")
        _context["device_target"] = device_target


def get_context(key):
    """Return a context value: ``"mode"`` or ``"device_target"``.

    Raises:
        ValueError: unknown key.
    """
    if key not in _context:
        raise ValueError(f"unknown context key {key!r}; known: {sorted(_context)}")
    return _context[key]


def default_backend():
    """The backend name for the current device target."""
    return _DEVICE_BACKENDS[_context["device_target"]]


def env_flag(name):
    """True when environment variable ``name`` is set to a true value (1, true, yes, on)."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")
