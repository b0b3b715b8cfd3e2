"""What the CUDA runtime modules share: the simulator switch, the launch shape, and the
compile-only tier's PTX compilation (``cuda`` and ``cuda_graph`` both import it; it imports
neither).
"""
from numba import config as _numba_config
from numba import cuda

SIMULATOR = bool(_numba_config.ENABLE_CUDASIM)
THREADS = 8 if SIMULATOR else 256        # threads per block (the simulator runs one Python
MAX_BLOCKS = 2 if SIMULATOR else 65535   # thread per CUDA thread: keep it small)

PTX_CC = (9, 0)   # set by cuda.enable_compile_only
COMPILED = []   # (kernel name, signature, PTX size in bytes) under COMPILE_ONLY


def launch_config(count):
    """(blocks, threads) for ``count`` iterations of a grid-stride loop."""
    blocks = max(1, min(MAX_BLOCKS, -(-count // THREADS)))
    return blocks, THREADS


def compile_to_ptx(kernel, args):
    """Compile ``kernel`` for the types of ``args`` to PTX for ``PTX_CC`` and record it in
    ``COMPILED``. Raises what numba-cuda raises when it does not compile."""
    from numba import typeof
    signature = tuple(typeof(a) for a in args)
    ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=PTX_CC)
    COMPILED.append((kernel.py_func.__name__, signature, len(ptx)))
