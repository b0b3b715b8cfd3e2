"""Execution modes and device target, after MindSpore's ``set_context``.

``PYNATIVE_MODE`` (the default, as in MindSpore 2.x) runs ``Cell.construct`` eagerly unless it is
decorated with ``@jit``; ``GRAPH_MODE`` compiles every Cell call's ``construct``.
"""
import os

from .settings import CONTEXT as _context, GRAPH_MODE, PYNATIVE_MODE

_DEVICE_BACKENDS = {"CPU": "numba-cpu", "GPU": "numba-cuda"}


def set_context(mode=None, device_target=None, enable_compile_cache=None,
                compile_cache_path=None, compile_cache_limit_mb=None, numpy_graph=None,
                parallel=None, tiers=None, native_after=None):
    """Set the execution mode, the device target and the compile cache (MindSpore's names).

    Args:
        mode (int): ``GRAPH_MODE`` (0) or ``PYNATIVE_MODE`` (1), MindSpore's values.
        device_target (str): ``"CPU"`` (the numba-cpu backend) or ``"GPU"`` (numba-cuda: needs
            the ``cuda`` extra; without a GPU, ``NUMBA_ENABLE_CUDASIM=1`` runs its simulator).
        enable_compile_cache (bool): default of ``jit(cache=...)``: keep Numba's machine code
            on disk beside the generated modules, so a later process skips compiling. Unset,
            the environment variable ``GRAPHJIT_CACHE=1`` turns it on.
        compile_cache_path (str): folder of generated modules and caches; unset,
            ``$GRAPHJIT_CACHE_DIR``, else ``~/.cache/graphjit``. It must be a folder of
            yours that others cannot write (created with mode 0700); otherwise graphjit warns
            and compiles in memory.
        compile_cache_limit_mb (float): size cap of that folder; the least recently used
            entries are removed when a new one is written and the folder is larger. Unset,
            ``$GRAPHJIT_CACHE_LIMIT_MB``, else 256. 0 or less: no cap.
        numpy_graph (bool): on the CPU, run straight-line array code (no loop or branch, an
            array in it: a Cell network, a stencil, a norm) as a graph of NumPy and BLAS calls
            instead of compiling it with Numba (backends/numpy_graph.py): no compile, NumPy's
            own results. Unset, on unless the environment variable ``GRAPHJIT_NUMPY_GRAPH=0``.
            It applies to specializations made after it (a function already called keeps
            its code for the same argument types).
        parallel (bool | str): default of ``jit(parallel=...)``: True runs each loop proved
            independent across cores (backends/parallel_cpu.py), ``"fast-reductions"``
            float sums too (their rounding then differs). Unset, ``$GRAPHJIT_PARALLEL``
            (``1`` or ``fast-reductions``), else False.
        tiers (bool): measure which way runs a NumPy graph's calls fastest (the plain
            function, the graph, or the graph compiled by Numba in the background once the
            calls have taken as long as a compile: transpiler.tiers), and run that one. Unset,
            on unless ``GRAPHJIT_TIERS=0``.
        native_after (float): seconds of a specialization's calls after which its Numba code
            (tier 1) is compiled. Unset, ``$GRAPHJIT_NATIVE_AFTER``, else the last such compile
            time measured in the process (1 s before the first). A negative value: never.

    Raises:
        ValueError: unknown mode, device target or parallel value.
    """
    if parallel is not None:
        _context["parallel"] = parallel_value(parallel)
    if enable_compile_cache is not None:
        _context["enable_compile_cache"] = bool(enable_compile_cache)
    if compile_cache_path is not None:
        _context["compile_cache_path"] = str(compile_cache_path)
    if compile_cache_limit_mb is not None:
        _context["compile_cache_limit_mb"] = float(compile_cache_limit_mb)
    if numpy_graph is not None:
        _context["numpy_graph"] = bool(numpy_graph)
    if tiers is not None:
        _context["tiers"] = bool(tiers)
    if native_after is not None:
        after = float(native_after)
        _context["native_after"] = float("inf") if after < 0 else after
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


def parallel_value(value):
    """``value`` as a ``parallel`` setting: False, True or ``"fast-reductions"``.

    Raises:
        ValueError: anything else."""
    if value is True or value is False or value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("fast-reductions",
                                                             "fast_reductions"):
        return "fast-reductions"
    raise ValueError(f"parallel must be True, False or 'fast-reductions', got {value!r}")


def get_context(key):
    """Return a context value: ``"mode"``, ``"device_target"``, ``"enable_compile_cache"``,
    ``"compile_cache_path"``, ``"compile_cache_limit_mb"``, ``"numpy_graph"``, ``"parallel"``,
    ``"tiers"`` or ``"native_after"`` (all but the first two resolved from the environment when
    unset; ``native_after`` may stay None: transpiler.tiers estimates it).

    Raises:
        ValueError: unknown key.
    """
    if key not in _context:
        raise ValueError(f"unknown context key {key!r}; known: {sorted(_context)}")
    if key == "enable_compile_cache" and _context[key] is None:
        return env_flag("GRAPHJIT_CACHE")
    if key == "numpy_graph" and _context[key] is None:
        return os.environ.get("GRAPHJIT_NUMPY_GRAPH", "1").strip().lower() not in (
            "0", "false", "no", "off")
    if key == "tiers" and _context[key] is None:
        return os.environ.get("GRAPHJIT_TIERS", "1").strip().lower() not in (
            "0", "false", "no", "off")
    if key == "native_after" and _context[key] is None:
        after = os.environ.get("GRAPHJIT_NATIVE_AFTER", "").strip()
        return None if not after else float("inf") if float(after) < 0 else float(after)
    if key == "parallel" and _context[key] is None:
        flag = os.environ.get("GRAPHJIT_PARALLEL", "").strip().lower()
        return "fast-reductions" if flag.replace("_", "-") == "fast-reductions" else \
            flag in ("1", "true", "yes", "on")
    if key == "compile_cache_path" and _context[key] is None:
        from .loader import cache_dir
        return cache_dir()
    if key == "compile_cache_limit_mb" and _context[key] is None:
        from .loader import cache_limit_bytes
        return cache_limit_bytes() / (1024 * 1024)
    return _context[key]


def default_backend():
    """The backend name for the current device target."""
    return _DEVICE_BACKENDS[_context["device_target"]]


def env_flag(name):
    """True when environment variable ``name`` is set to a true value (1, true, yes, on)."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")
