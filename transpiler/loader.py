"""Write generated source to a real file and import it.

A real file (not ``exec`` of a string) gives tracebacks, ``inspect``, ``linecache`` and
Numba's on-disk cache something to read. Files are named by the hash of their content, written
atomically (temporary file, then ``os.replace``), and never overwritten with other content.
"""
import hashlib
import importlib.util
import os
import re
import sys
import tempfile
import threading

_LOCK = threading.Lock()   # a module is in sys.modules only once it has executed


def cache_dir():
    """The folder for generated modules: ``set_context(compile_cache_path=...)``, else
    ``$GRAPHJIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/graphjit`` (``~/.cache/graphjit``); the
    temporary folder when that one is not writable."""
    from .context import _context
    explicit = _context["compile_cache_path"] or os.environ.get("GRAPHJIT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "graphjit")


def _writable(folder):
    try:
        os.makedirs(folder, exist_ok=True)
        return os.access(folder, os.W_OK)
    except OSError:
        return False


def load_source(source, stem):
    """Import ``source`` as a module registered in ``sys.modules``.

    Args:
        source (str): Python module text.
        stem (str): readable part of the file and module name (the function's qualname).

    Returns:
        tuple[module, str]: the module and the path of its file.
    """
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    safe = re.sub(r"\W", "_", stem)[:60]
    name = f"_graphjit_{safe}_{digest}"
    module = sys.modules.get(name)
    if module is not None:
        return module, module.__file__
    with _LOCK:
        module = sys.modules.get(name)
        if module is not None:
            return module, module.__file__
        return _load(source, name)


def _load(source, name):
    folder = cache_dir()
    if not _writable(folder):
        folder = os.path.join(tempfile.gettempdir(), "graphjit")
        os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name + ".py")
    if os.path.exists(path) and not _same_content(path, source):
        # The name is the content's hash: different content means a damaged file.
        import warnings
        from .errors import CacheWarning
        warnings.warn(f"graphjit: cache entry {path} is corrupt or truncated; rebuilding it",
                      CacheWarning, stacklevel=6)
    if not _same_content(path, source):
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as handle:
            handle.write(source)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module, path


def _same_content(path, source):
    try:
        with open(path) as handle:
            return handle.read() == source
    except OSError:
        return False
