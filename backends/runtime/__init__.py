"""What generated modules import at run time (no code generators here): the int64-checked
Python-int operators (``checked_ints``), the shared NEP 50 ``weak`` (``weak``, its source in
``weak_source``), and the numba-cuda runtime: launches and the CPU path (``cuda``), device
helpers (``cuda_device``), networks on device tensors (``cuda_graph``) and what both share
(``cuda_config``).
"""
