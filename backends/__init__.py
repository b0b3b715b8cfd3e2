"""graphjit backends: each lowers a :class:`transpiler.program.Program` to source and loads it.

``numba-cpu`` compiles with ``numba.njit``; ``numba-cuda`` adds numba.cuda kernels for the GPU
parts; ``eager`` runs the same generated code as plain
Python, which checks the conversion apart from Numba.
"""


def get_backend(name, cache=False, boundscheck=True, parallel=False):
    """The backend object for ``name``; ``cache`` turns on Numba's on-disk cache,
    ``boundscheck`` checked indexing, ``parallel`` parallel loops (numba-cpu:
    backends/parallel_cpu.py).

    Raises:
        ValueError: unknown name.
        ImportError: ``numba-cuda`` without the numba-cuda package (``pip install graphjit[cuda]``).
    """
    if name == "numba-cpu":
        from .numba_cpu import NumbaCPUBackend
        return NumbaCPUBackend(cache=cache, boundscheck=boundscheck, parallel=parallel)
    if name == "numba-cuda":
        from .numba_cuda import NumbaCUDABackend
        return NumbaCUDABackend(cache=cache, boundscheck=boundscheck)
    if name == "eager":
        from .eager import EagerBackend
        return EagerBackend()
    raise ValueError(f"unknown backend {name!r}; available: 'numba-cpu', 'numba-cuda', "
                     "'eager'")
