"""Host side of the numba-cuda backend: launches, copies, and the CPU path beside each.

Generated drivers call three entry points, one per GPU mapping (docs/guide/gpu.md;
backends/numba_cuda.py):

- :func:`launch_loop`: an independent loop as a kernel, one thread per iteration (grid-stride);
- :func:`map_elementwise`: an element-wise scalar function mapped over arrays;
- :func:`run_graph`: a Cell network as kernel launches on device-resident arrays
  (``cuda_graph``).

Each gets the CPU-compiled version of the same code. Nothing on the host changes until a launch
has succeeded (kernels work on device copies), so whenever the GPU cannot give Python's answer
-- arguments it cannot take, a kernel that does not compile, an error flag raised by device code
(an index out of range, a zero divisor) -- the CPU version runs instead, on the untouched host
values, and raises or computes exactly as the CPU backend does. The :class:`Site` records why,
for ``explain()``, and a :class:`~transpiler.errors.FallbackWarning` says so once.

``COMPILE_ONLY``: set by the compile-only test tier (no GPU, no simulator): every launch
compiles its kernel to PTX for ``cuda_config.PTX_CC`` (recorded in ``COMPILED``) and the CPU
version runs.
"""
import warnings

import numpy as np
from numba import cuda

from . import cuda_config
from .cuda_config import (COMPILED, MAX_BLOCKS, SIMULATOR, THREADS,  # noqa: F401 - re-exported
                          compile_to_ptx, launch_config)

COMPILE_ONLY = False
FAILED = []     # (kernel name, argument types, error) under COMPILE_ONLY

_NUMBERS = (bool, int, float, complex, np.number, np.bool_)


class Site:
    """A region of the user's code that the backend maps to the GPU.

    Attributes:
        region (str): what it is ("loop", "element-wise function", "network").
        filename (str), line (int): where it starts in the user's file.
        plan (str): what it becomes on the GPU.
        notes (list[str]): why some calls ran on the CPU instead.
        gpu_calls (int), cpu_calls (int): how often each path ran.
        launches (int | None): kernel launches in the last call of a network.
    """

    def __init__(self, region, filename, line, plan):
        self.region = region
        self.filename = filename
        self.line = line
        self.plan = plan
        self.notes = []
        self.gpu_calls = 0
        self.cpu_calls = 0
        self.launches = None    # kernel launches of the last network call

    def ran_on_cpu(self, why):
        self.cpu_calls += 1
        if why:
            if why not in self.notes:
                self.notes.append(why)
            # Every time, through the warnings registry: Python's filters decide what shows.
            from transpiler.errors import FallbackWarning, user_stacklevel
            warnings.warn(f"graphjit: {self.region} at {self.filename}:{self.line} runs on "
                          f"the CPU: {why}", FallbackWarning, stacklevel=user_stacklevel())


_NO_GPU = []


def no_gpu():
    """Why there is no GPU to launch on (asked once), or None."""
    if not _NO_GPU:
        why = None
        if not SIMULATOR and not COMPILE_ONLY:
            try:
                usable = cuda.is_available()
            except Exception:  # noqa: BLE001 - a broken driver is no GPU
                usable = False
            if not usable:
                why = ("there is no CUDA GPU here (numba.cuda.is_available() is False); "
                       "NUMBA_ENABLE_CUDASIM=1 runs the kernels in Numba's simulator")
        _NO_GPU.append(why)
    return _NO_GPU[0]


def _scalar_problem(name, value):
    if isinstance(value, np.ndarray):
        return None
    if isinstance(value, _NUMBERS):
        if type(value) is int and not -2 ** 63 <= value < 2 ** 63:
            return f"{name} is an int beyond int64"
        return None
    return f"{name} is a {type(value).__name__}, which a kernel cannot take"


def _array_problem(name, value):
    if value.dtype.hasobject or value.dtype.kind not in "biufc":
        return f"{name} has dtype {value.dtype}"
    if value.ndim == 0:
        return f"{name} is a 0-d array"
    if not (value.flags.c_contiguous or value.flags.f_contiguous):
        return f"{name} is a non-contiguous view"
    return None


def _arguments_problem(names, args):
    """Why a kernel cannot take these arguments, or None."""
    for name, value in zip(names, args):
        problem = _scalar_problem(name, value) or (
            _array_problem(name, value) if isinstance(value, np.ndarray) else None)
        if problem:
            return problem
    return None


def _loop_problem(names, args, stored):
    problem = _arguments_problem(names, args)
    if problem:
        return problem
    for i in stored:
        if not args[i].flags.writeable:
            return f"{names[i]} is read-only"
        for j, other in enumerate(args):
            if j != i and isinstance(other, np.ndarray) and np.may_share_memory(args[i], other):
                return (f"{names[i]} and {names[j]} may share memory, so iterations could "
                        "depend on each other through it")
    return None


def _compile_only(kernel, args):
    """Compile ``kernel`` to PTX (the compile-only tier); returns the note for the CPU run
    that follows."""
    try:
        compile_to_ptx(kernel, args)
    except Exception as exc:  # noqa: BLE001 - reported; the tier's test fails on it
        FAILED.append((kernel.py_func.__name__, tuple(type(a).__name__ for a in args), _first_line(exc)))
        return f"the kernel does not compile for the GPU ({_first_line(exc)})"
    return "compile-only run (no GPU): compiled to PTX, ran on the CPU"


def compile_cpu_first(dispatcher, args):
    """Compile the whole function for the CPU for these argument types before a driver runs
    any of it. A Numba typing failure then surfaces before any statement or kernel has run,
    and graphjit's fallback to Python does nothing twice. Once per argument types."""
    from numba import typeof
    key = tuple(typeof(a) for a in args)
    if key not in dispatcher.overloads:
        dispatcher.compile(key)


def launch_loop(kernel, cpu, site, names, r, args, stored):
    """Run an independent loop ``for v in r`` as ``kernel``, one thread per iteration.

    Args:
        kernel: ``cuda.jit`` kernel ``(err, start, step, count, *args)``.
        cpu: the same loop compiled for the CPU, ``cpu(*args, start, stop, step)``.
        site (Site): where it comes from.
        names (tuple[str]): names of ``args``, for messages.
        r (range): the iterations (``range`` evaluated on the host, as Python does).
        args (tuple): the loop's inputs: arrays (copied to the device) and numbers.
        stored (tuple[int]): indices in ``args`` of the arrays the loop stores to (copied
            back into the host arrays after a successful launch).

    Raises:
        whatever the CPU version raises when the GPU flags an error.
    """
    count = len(r)
    if count == 0:
        site.gpu_calls += 1
        return
    problem = no_gpu() or _loop_problem(names, args, stored)
    if problem is None and stored and min(r[0], r[-1]) < 0 <= max(r[0], r[-1]):
        # a[i] with i < 0 counts from the end: -1 and n - 1 would be the same element.
        problem = (f"its range {r} has negative and non-negative values, which may index "
                   "the same element")
    if COMPILE_ONLY:
        # Compiled whenever the types allow, even if this call may not launch it.
        if all(isinstance(a, (np.ndarray,) + _NUMBERS) for a in args):
            note = _compile_only(kernel, (np.zeros(1, np.int32), r.start, r.step, count, *args))
            problem = problem or note
    elif problem is None:
        problem = _try_loop(kernel, site, r, count, args, stored)
        if problem is None:
            return
    site.ran_on_cpu(problem)
    cpu(*args, r.start, r.stop, r.step)


def _try_loop(kernel, site, r, count, args, stored):
    try:
        device = [cuda.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
        err = cuda.to_device(np.zeros(1, np.int32))
        blocks, threads = launch_config(count)
        kernel[blocks, threads](err, r.start, r.step, count, *device)
        flagged = bool(err.copy_to_host()[0])
    except Exception as exc:  # noqa: BLE001 - the GPU could not run it: the CPU will
        return f"the GPU could not run it ({_first_line(exc)})"
    if flagged:
        return ("an iteration hit an error on the GPU (index out of range, zero divisor, int64 "
                "overflow or a raise): the loop ran again on the CPU, which raises as Python "
                "does")
    for i in stored:
        device[i].copy_to_host(args[i])
    site.gpu_calls += 1
    return None


def map_elementwise(kernel, cpu, probe, site, names, args):
    """Map an element-wise scalar function over array arguments (scalars broadcast).

    The result dtype is NumPy's: ``probe`` (the function as Python) runs on the first element
    of each array (a 1-element array), which NumPy types by dtype alone (NEP 50). Python number
    arguments are passed at the dtype NumPy gives them against the arrays.

    Args:
        kernel: ``cuda.jit`` kernel ``(err, n, out, a0, s0, a1, s1, ...)``; ``s`` is 1 for an
            array (flattened), 0 for a broadcast scalar (a 1-element array).
        cpu: the function compiled for the CPU.
        probe: the function as plain Python.
        site (Site), names (tuple[str]): as in :func:`launch_loop`.
        args (tuple): the arguments.

    Returns:
        ndarray of the arrays' common shape and NumPy's result dtype.
    """
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    if not arrays:
        return cpu(*args)   # numbers only: not a map
    problem = no_gpu() or _arguments_problem(names, args)
    shape = arrays[0].shape
    if problem is None and any(a.dtype.kind not in "fc" for a in arrays):
        problem = ("it has integer or bool array arguments: NumPy computes them at the array's "
                   "dtype (wrapping), Numba's scalar arithmetic widens to int64")
    if problem is None and any(a.shape != shape for a in arrays):
        problem = "its array arguments have different shapes (broadcasting them is the CPU's)"
    if problem is None:
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sample = probe(*[a.reshape(-1)[:1] if isinstance(a, np.ndarray) else a
                                 for a in args])
        except Exception as exc:  # noqa: BLE001 - the CPU version raises it properly
            sample, problem = None, f"its first element raised {type(exc).__name__}"
        if problem is None and not (isinstance(sample, np.ndarray)
                                    and sample.shape == (min(1, arrays[0].size),)):
            problem = "its result is not one value per element"
    if problem is None:
        dtypes = [a.dtype for a in arrays]
        flat = []
        for value in args:
            if isinstance(value, np.ndarray):
                flat.extend([np.ascontiguousarray(value).reshape(-1), 1])
            else:
                # At its own type (a Python int as int64, a float as float64): NEP 50 is in
                # the device code, weak() where the number meets an array element.
                flat.extend([np.asarray([value]), 0])
        n = arrays[0].size
        if n == 0:
            site.gpu_calls += 1
            return np.empty(shape, sample.dtype)
        if COMPILE_ONLY:
            problem = _compile_only(kernel, (np.zeros(1, np.int32), n,
                                             np.empty(n, sample.dtype), *flat))
        else:
            try:
                device = [cuda.to_device(v) if isinstance(v, np.ndarray) else v for v in flat]
                out = cuda.device_array(n, sample.dtype)
                err = cuda.to_device(np.zeros(1, np.int32))
                blocks, threads = launch_config(n)
                kernel[blocks, threads](err, n, out, *device)
                if not err.copy_to_host()[0]:
                    site.gpu_calls += 1
                    return out.copy_to_host().reshape(shape)
                problem = "an element hit an error on the GPU: ran again on the CPU"
            except Exception as exc:  # noqa: BLE001 - the CPU version runs instead
                problem = f"the GPU could not run it ({_first_line(exc)})"
    site.ran_on_cpu(problem)
    return cpu(*args)


def run_graph(graph_function, cpu, site, names, args):
    """Run a network's code on device-resident arrays: array arguments are copied to the
    device once, every array operation is a kernel launch (matmul with bias and activation
    fused, see ``cuda_graph``), the result is copied back once.

    The code is free of effects (checked when it was generated), so when the GPU cannot run
    some operation (a dtype or shape it has no kernel for) nothing has changed on the host, and
    the CPU version runs instead.
    """
    from . import cuda_graph
    problem = no_gpu() or _arguments_problem(names, args)
    if problem is None:
        try:
            with cuda_graph.Graph(COMPILE_ONLY) as graph:
                tensors = [graph.tensor(a) if isinstance(a, np.ndarray) else a for a in args]
                result = graph.to_host(graph_function(*tensors))
            site.launches = graph.launches
            if not COMPILE_ONLY:
                site.gpu_calls += 1
                return result
            problem = "compile-only run (no GPU): compiled to PTX, ran on the CPU"
        except Exception as exc:  # noqa: BLE001 - the CPU version runs (and raises) instead
            problem = f"the GPU has no kernel for it ({_first_line(exc)})"
    site.ran_on_cpu(problem)
    return cpu(*args)


def _first_line(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__






def enable_compile_only(cc=(9, 0)):
    """Switch to the compile-only tier: launches compile their kernel to PTX for compute
    capability ``cc`` (recorded in ``COMPILED``) and the CPU version runs. Needs no GPU, no
    driver and no simulator: numba-cuda's CUDA 13 extra carries NVVM.

    numba-cuda 0.30 compiles a device function called by a kernel for the *current device's*
    compute capability even inside ``compile_ptx``; with no device there is none, so the
    lookup is given ``cc`` here (the kernel itself is compiled for ``cc`` by compile_ptx).
    """
    global COMPILE_ONLY
    if SIMULATOR:
        raise RuntimeError("the compile-only tier needs NUMBA_ENABLE_CUDASIM unset")
    COMPILE_ONLY, cuda_config.PTX_CC = True, tuple(cc)
    import numba.cuda.dispatcher as dispatcher

    class _Target:
        compute_capability = cuda_config.PTX_CC
    dispatcher.get_current_device = lambda: _Target()
