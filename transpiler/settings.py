"""The values ``set_context`` sets: a leaf module that cuts the import circle between
transpiler.context (which sets and resolves them) and transpiler.loader (which reads the cache
folder and its size cap from them)."""
GRAPH_MODE = 0
PYNATIVE_MODE = 1

# One dict, shared: transpiler.context knows it as ``_context``.
CONTEXT = {"mode": PYNATIVE_MODE, "device_target": "CPU", "enable_compile_cache": None,
           "compile_cache_path": None, "compile_cache_limit_mb": None,
           "numpy_graph": None, "parallel": None, "tiers": None, "native_after": None}
