"""The numba-cuda backend: the same converted program, with the GPU parts as kernels.

The generated module holds the whole program compiled for the CPU (exactly what numba-cpu
emits: the CPU path of everything), and, for the entry function, one of three GPU mappings
(docs/guide/gpu.md), chosen statically by the planner (``cuda_planner``):

1. **network** -- every function the entry reaches is array code (``np.dot``/``@``, ``+``,
   ``np.maximum``, ``reshape``, ``.T``, ``.shape``; no statement with an effect): the driver runs
   those functions in Python on device tensors, which launch a tiled matmul with the bias add
   and ReLU fused into its epilogue and element-wise kernels (``runtime.cuda_graph``);
2. **element-wise function** -- straight-line arithmetic and NumPy element-wise functions: a
   device function (``<name>__dev``) and a grid-stride kernel over the arrays
   (``<name>__map``), scalars broadcast;
3. **loops** -- each top-level ``for v in range(...)`` whose iterations are independent
   (``transpiler.analysis.dependence``) becomes a kernel, one thread per iteration
   (``<name>__loop_<line>``); other top-level loops run as CPU-compiled regions
   (``<name>__cpu_<line>``); the statements between them run in the driver, as Python.

The driver (``<name>__gpu``) is plain Python. What cannot go to the GPU -- statically (a
carried dependence, a call without a GPU implementation) or at a call (argument types, an
error flagged by device code, a kernel that does not compile) -- runs on the CPU, and
``explain()`` says which and why.
"""
import os
import traceback
import types

from transpiler.analysis.activity import reads
from transpiler.ir import CHECKED_INT

from .base import emit_def
from .cuda_planner import _Planner
from .numba_cpu import NumbaCPUBackend

_HELPERS = ("gj_index", "gj_nonzero", "gj_maximum", "gj_minimum", "gj_weak",
            *("gj_" + form for form in CHECKED_INT))
_RESERVED = {"cuda", "_gpu", "_gj_math", "_GJ_SITES", *_HELPERS}


class NumbaCUDABackend(NumbaCPUBackend):
    """Compile for the GPU with numba-cuda, the CPU path with ``numba.njit``.

    Attributes (after :meth:`lower`):
        mapping (str): "network", "element-wise", "loops" or "cpu".
        static_rows (list[tuple]): (region, Origin, "cpu", reason) for what stays on the CPU.
        module: the loaded generated module (its ``_GJ_SITES`` record each GPU region's calls).
    """

    name = "numba-cuda"
    native_jumps = False    # the kernel planner reads the flag form (not measured on a GPU)

    def __init__(self, cache=False, boundscheck=True):
        super().__init__(cache=cache, boundscheck=boundscheck)
        self.mapping = "cpu"
        self.static_rows = []
        self.module = None

    def versions(self):
        import numba_cuda
        from .runtime import cuda_config
        mode = "simulator" if cuda_config.SIMULATOR else "device"
        return f"{super().versions()}, numba-cuda {numba_cuda.__version__} ({mode})"

    def lower(self, program, header="", include_prepare=True, reserved=()):
        return super().lower(program, header, include_prepare, set(reserved) | _RESERVED)

    def load(self, generated, stem):
        """Import the module, and give this specialization its own GPU sites: the module is
        shared by every JitFunction that generates the same text, its call counts are not."""
        module, path = super().load(generated, stem)
        sites = getattr(module, "_GJ_SITES", None)
        if sites is None:
            self.module = module
            return module, path
        from .runtime.cuda import Site
        namespace = dict(vars(module))
        namespace["_GJ_SITES"] = [Site(s.region, s.filename, s.line, s.plan) for s in sites]
        driver = getattr(module, generated.entry_name)
        own = types.FunctionType(driver.__code__, namespace, driver.__name__,
                                 driver.__defaults__, driver.__closure__)
        own.__gj_cpu__ = driver.__gj_cpu__
        namespace[generated.entry_name] = own
        self.module = types.SimpleNamespace(**namespace)
        return self.module, path

    # -- the GPU part of the module ---------------------------------------------------------

    def lower_more(self, program, lines, line_map):
        planner = _Planner(self, program)
        emitted = planner.plan()
        self.mapping = planner.mapping
        self.static_rows = planner.rows
        if not emitted:
            return None
        lines.append("")
        lines.append("from numba import cuda")
        lines.append("import math as _gj_math")
        lines.append("from backends.runtime import cuda as _gpu")
        lines.append("from backends.runtime.cuda_device import " + ", ".join(_HELPERS))
        lines.append("")
        lines.append("# Where the GPU parts come from; they record each call (explain()).")
        lines.append("_GJ_SITES = [")
        for site in planner.sites:
            lines.append(f"    _gpu.Site({site[0]!r}, {site[1]!r}, {site[2]!r}, {site[3]!r}),")
        lines.append("]")
        for node, filename, decorator in emitted:
            emit_def(lines, line_map, node, filename, decorator)
        lines.append("")
        lines.append(f"{planner.driver_name}.__gj_cpu__ = {program.entry.symbol.name}")
        return planner.driver_name

    # -- explain and results ----------------------------------------------------------------

    def explain_rows(self):
        """(region, Origin, status, reason) rows: "gpu" per mapped region with its call
        counts and any CPU runs, "cpu" for what stays on the CPU statically."""
        from transpiler.errors import Origin
        rows = []
        for site in getattr(self.module, "_GJ_SITES", ()):
            detail = f"{site.plan}; calls on the GPU: {site.gpu_calls}, on the CPU: " \
                     f"{site.cpu_calls}"
            if site.launches is not None:
                detail += f"; kernel launches in the last call: {site.launches}"
            if site.notes:
                detail += "; ran on the CPU because: " + "; ".join(site.notes)
            # "gpu" once a call ran there (or none ran yet); "cpu" when every call so far ran
            # on the CPU, whatever the plan.
            status = "gpu" if site.gpu_calls or not site.cpu_calls else "cpu"
            rows.append((site.region, Origin(site.filename, site.line), status, detail))
        rows.extend(self.static_rows)
        return rows

    def is_compile_failure(self, exc, function, args):
        if hasattr(function, "overloads"):
            return super().is_compile_failure(exc, function, args)
        # A host driver: Numba's errors, or an exception raised while Numba's compiler runs
        # (its frames are in numba/core: dispatcher, typing, lowering), mean a CPU part does not
        # compile. An error raised by compiled code has no such frame: at most one frame naming
        # the library source of the raise (numba/np/linalg.py for np.dot's shape check).
        if isinstance(exc, self.compile_errors()):
            return True
        frames = traceback.extract_tb(exc.__traceback__)
        return any(_in_compiler_core(f.filename) for f in frames)

    def box_result(self, function, result, dynamic, inputs):
        cpu = getattr(function, "__gj_cpu__", None)
        if cpu is not None:
            function = cpu
        if not hasattr(function, "overloads") or not function.overloads:
            return result
        return super().box_result(function, result, dynamic, inputs)


def _in_compiler_core(filename):
    import llvmlite
    import numba
    path = filename.replace(os.sep, "/")
    core = os.path.join(os.path.dirname(numba.__file__), "core").replace(os.sep, "/")
    return path.startswith(core + "/") or path.startswith(
        os.path.dirname(llvmlite.__file__).replace(os.sep, "/"))


__all__ = ["NumbaCUDABackend", "reads"]
