"""Write generated source to a real file in a private cache folder and run it from its text.

A real file (not ``exec`` of an anonymous string) gives tracebacks, ``inspect``, ``linecache``
and Numba's on-disk cache something to read. The rules:

- The cache folder is private: created with mode 0700, and used only when it is a real folder
  (not a symbolic link, not a file) owned by the user and not writable by group or others.
  Otherwise a :class:`~transpiler.errors.CacheWarning` says why (once per folder) and generated
  modules are compiled in memory: no file is read or written there. graphjit never moves to a
  shared folder on its own.
- A file is named by the hash of its content (``_graphjit_<stem>_<digest16>.py``) and is run
  only when its bytes are exactly the text graphjit generated: the text is compiled with
  ``compile(text, path, "exec")`` into a fresh module. No bytecode (``.pyc``) is ever loaded,
  so a swapped or planted bytecode file has no effect.
- A damaged entry (other content, unreadable, a folder or link in place of the file) is removed
  and written again, with a CacheWarning; when it cannot be, the module is compiled in memory.
  A read-only cache folder is still used for the entries it holds.
- Files are written atomically (temporary file, then ``os.replace``); the temporary file is
  removed on any error.
- The folder has a size cap (``GRAPHJIT_CACHE_LIMIT_MB`` / ``set_context(compile_cache_limit_mb=
  ...)``, default 256 MB): when a new entry is written and the folder is larger, the least
  recently used entries (a module and Numba's files for it in ``__pycache__``) are removed.
"""
import collections
import hashlib
import os
import re
import stat
import sys
import threading
import time
import types
import warnings
import weakref

from .settings import CONTEXT

DEFAULT_LIMIT_MB = 256
PREFIX = "_graphjit_"
# A temporary file older than this is from a process that was killed while writing: removed
# when the folder is pruned or cleared.
STALE_TMP_S = 3600

_guard = threading.Lock()
# module name -> threading.Lock, held while the module is being made (weak: gone once unused)
_locks = weakref.WeakValueDictionary()
_TMP = re.compile(r"\.tmp(\.[0-9a-f]+)?$")  # ours: <name>.py.<pid>.<tid>.tmp; Numba's: .tmp.<hex>
_warned = set()      # (folder, reason) already reported


def cache_dir():
    """The folder for generated modules: ``set_context(compile_cache_path=...)``, else
    ``$GRAPHJIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/graphjit`` (``~/.cache/graphjit``).

    It is used only when it passes the checks of the module docstring; there is no fallback
    folder."""
    explicit = CONTEXT["compile_cache_path"] or os.environ.get("GRAPHJIT_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "graphjit")


def cache_limit_bytes():
    """The size cap of the cache folder in bytes: ``set_context(compile_cache_limit_mb=...)``,
    else ``$GRAPHJIT_CACHE_LIMIT_MB``, else 256 MB. A value of 0 or less means no cap."""
    value = CONTEXT.get("compile_cache_limit_mb")
    if value is None:
        try:
            value = float(os.environ.get("GRAPHJIT_CACHE_LIMIT_MB", DEFAULT_LIMIT_MB))
        except ValueError:
            value = DEFAULT_LIMIT_MB
    return max(int(float(value) * 1024 * 1024), 0)


def _expected_owner():
    """The user id a usable cache folder must belong to (a function, so tests can play
    another user); None where the system has no user ids (then no owner check)."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid() if geteuid is not None else None


def _warn(message):
    from .errors import CacheWarning, user_stacklevel
    warnings.warn(message, CacheWarning, stacklevel=user_stacklevel())


def _warn_once(folder, reason, message=None):
    with _guard:
        if (folder, reason) in _warned:
            return
        _warned.add((folder, reason))
    _warn(message or f"graphjit: not using the cache folder {folder}: it {reason}; compiling "
          "in memory")


def _folder_state(folder, create=True):
    """``("ok" | "read-only" | "refused", reason)`` for the cache folder; creates it (mode
    0700) when it does not exist and ``create``."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        if not create:
            return "missing", "does not exist"
        try:
            os.makedirs(folder, mode=0o700)
        except FileExistsError:
            pass  # another process made it first: checked below like any folder
        except OSError as exc:
            return "refused", f"cannot be created ({exc.strerror or exc})"
        else:
            try:
                os.chmod(folder, 0o700)  # the umask may have taken bits away, never added
            except OSError:
                pass
        try:
            info = os.lstat(folder)
        except OSError as exc:
            return "refused", f"cannot be read ({exc.strerror or exc})"
    except OSError as exc:
        return "refused", f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return "refused", "is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return "refused", "is not a folder"
    owner = _expected_owner()
    if owner is not None:
        if info.st_uid != owner:
            return "refused", f"is owned by user id {info.st_uid}, not by you (user id {owner})"
        if info.st_mode & 0o022:
            return "refused", (f"is writable by other users (mode "
                               f"{stat.S_IMODE(info.st_mode):o}; chmod 700 it)")
        parent = _unsafe_parent(folder, owner)
        if parent is not None:
            return "refused", (f"is in {parent}, which other users can change (they could "
                               "put another folder in its place)")
    if not os.access(folder, os.W_OK | os.X_OK):
        return "read-only", "is read-only"
    return "ok", ""


def _unsafe_parent(folder, owner):
    """The first folder above ``folder`` that a user other than ``owner`` and root could
    rename entries of (owned by another user, or writable by group or others without the
    sticky bit, as ``/tmp`` has); None when there is none."""
    parent = os.path.dirname(os.path.abspath(folder))
    while True:
        try:
            info = os.stat(parent)
        except OSError:
            return None  # unreadable: it is the folder's own check that decides then
        if info.st_uid not in (owner, 0) or (
                info.st_mode & 0o022 and not info.st_mode & stat.S_ISVTX):
            return parent
        above = os.path.dirname(parent)
        if above == parent:
            return None
        parent = above


_users = {}   # module name -> loads not yet released (see release_with); under _guard
_idle = collections.OrderedDict()   # modules no one uses, oldest first, kept for reuse
IDLE_MODULES = 64   # as Numba keeps its last dispatchers (config.FUNCTION_CACHE_SIZE: 128)


def module_name(source, stem):
    """The module (and file) name of ``source``: ``_graphjit_<stem>_<sha256[:16]>``."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    return f"{PREFIX}{re.sub(r'[^A-Za-z0-9_]', '_', stem)[:60]}_{digest}"


def load_source(source, stem, memory_source=None):
    """Run ``source`` as a module, from a cache file holding exactly this text when possible.

    The module is registered in ``sys.modules`` once it has run (never before: another thread
    asking for it meanwhile waits): Numba's cache rebuilds a cached function's environment by
    importing its module by name. Concurrent calls for the same text make the module once.

    Args:
        source (str): Python module text.
        stem (str): readable part of the file and module name (the function's qualname).
        memory_source (str | None): the text to run when the module is compiled in memory
            rather than from a cache file (the numba-cpu backend turns Numba's own on-disk
            cache off there: it needs a file); same lines as ``source``. None: ``source``.

    Returns:
        tuple[module, str]: the module and its file name (a real path in the cache folder, or
        ``<graphjit-memory>/<name>.py`` for a module compiled in memory; ``linecache`` holds
        its text then).
    """
    name = module_name(source, stem)
    with _guard:
        module = sys.modules.get(name)
        if module is not None:
            _in_use(name)
            return module, module.__file__
        lock = _locks.get(name)
        if lock is None:
            lock = _locks[name] = threading.Lock()
    with lock:
        with _guard:
            module = sys.modules.get(name)
            if module is not None:
                _in_use(name)
                return module, module.__file__
        path = _cached_file(source, name)
        if path is None:
            text = source if memory_source is None else memory_source
            module = _run(text, name, os.path.join("<graphjit-memory>", name + ".py"), True)
        else:
            module = _run(source, name, path, False)
        with _guard:
            sys.modules[name] = module  # only now: it has run to the end
            _in_use(name)
    return module, module.__file__


def release_with(name, owner):
    """Let go of module ``name`` (as counted by :func:`load_source`) when ``owner`` is
    collected. When its last user is gone the module leaves ``sys.modules`` and its namespace
    is cleared: a Numba dispatcher held in its own module's globals forms a reference cycle
    the garbage collector never frees (Numba's C dispatcher does not expose all of its
    references), so without this every generated module, its dispatchers and their compile
    results stayed for the life of the process. Numba's machine code itself stays whatever
    graphjit does (LLVM MCJIT does not free it: numba#5976, numba#7831).

    A load that was never released (another caller of load_source) keeps its module, as before.
    """
    weakref.finalize(owner, _release, name)


def _release(name):
    with _guard:
        left = _users.get(name, 0) - 1
        if left > 0:
            _users[name] = left
            return
        _users.pop(name, None)
        # Kept a while, unused: a function made again with the same code (a closure built
        # anew at each call of its maker) finds its module instead of compiling it again.
        _idle[name] = None
        evicted = []
        while len(_idle) > IDLE_MODULES:
            old, _ = _idle.popitem(last=False)
            module = sys.modules.pop(old, None)
            if module is not None:
                evicted.append(module)
    for module in evicted:
        module.__dict__.clear()


def _in_use(name):
    """Count one more user of module ``name`` (under _guard)."""
    _users[name] = _users.get(name, 0) + 1
    _idle.pop(name, None)


def _run(text, name, filename, in_memory):
    module = types.ModuleType(name)
    module.__file__ = filename
    if in_memory:
        import linecache
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        weakref.finalize(module, linecache.cache.pop, filename, None)
    code = compile(text, filename, "exec", dont_inherit=True)
    exec(code, module.__dict__)  # noqa: S102 - graphjit's own generated text, never a file's
    return module


def _cached_file(source, name):
    """The path of a cache file holding exactly ``source`` (written now when missing or
    damaged), or None when the module is to be compiled in memory."""
    folder = os.path.abspath(cache_dir())
    state, reason = _folder_state(folder)
    if state == "refused":
        _warn_once(folder, reason)
        return None
    path = os.path.join(folder, name + ".py")
    data = source.encode()
    problem = _entry_problem(path, data)
    if problem is None:
        _touch(path)
        return path
    if state == "read-only":
        if problem != "missing":
            _warn(f"graphjit: cache entry {path} is corrupt or truncated ({problem}); the "
                  "cache folder is read-only: compiling in memory")
        else:
            _warn_once(folder, "read-only", f"graphjit: the cache folder {folder} is read-only: "
                       "its entries are used, new ones are compiled in memory")
        return None
    if problem != "missing":
        _warn(f"graphjit: cache entry {path} is corrupt or truncated ({problem}); rebuilding it")
    try:
        _remove_entry_file(path)
        _write_atomically(folder, path, data)
    except OSError as exc:
        _warn(f"graphjit: cache entry {path} cannot be written ({exc.strerror or exc}); "
              "compiling in memory")
        return None
    _prune(folder, keep=name)
    return path


def _entry_problem(path, data):
    """None when ``path`` is a regular file holding exactly ``data``; else what is wrong:
    "missing" or a short description."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISDIR(info.st_mode):
        return "a folder is in place of the file"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if info.st_size != len(data):
        return "other content: its size does not match its name's hash"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            found = handle.read(len(data) + 1)
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if found != data:
        return "other content: it does not match its name's hash"
    return None


def _remove_entry_file(path):
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(info.st_mode):
        import shutil
        shutil.rmtree(path)
    else:
        os.unlink(path)


def _write_atomically(folder, path, data):
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _touch(path):
    """Record a use for the size cap: the access time is set to now, the modification time is
    kept (Numba's cache stamps a source by it in some versions)."""
    try:
        info = os.stat(path)
        os.utime(path, ns=(time.time_ns(), info.st_mtime_ns))
    except OSError:
        pass


# -- size cap, info and clear --------------------------------------------------------------


def _scan(folder):
    """``{entry name: [(path, size, last use)]}`` for graphjit's files in ``folder`` and its
    ``__pycache__``, and ``[(path, age in seconds)]`` of its temporary files."""
    entries, temporary = {}, []
    now = time.time()
    for sub in (folder, os.path.join(folder, "__pycache__")):
        try:
            listing = os.scandir(sub)
        except OSError:
            continue
        with listing:
            for item in listing:
                if not item.name.startswith(PREFIX):
                    continue
                try:
                    info = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                used = max(info.st_atime, info.st_mtime)
                if _TMP.search(item.name):
                    temporary.append((item.path, now - info.st_mtime))
                    continue
                size = info.st_size if not stat.S_ISDIR(info.st_mode) else 0
                entries.setdefault(item.name.split(".")[0], []).append((item.path, size, used))
    return entries, temporary


def _remove_paths(paths):
    for path in paths:
        try:
            _remove_entry_file(path)
        except OSError:
            pass


def _prune(folder, keep):
    """Remove least recently used entries until the folder is under the cap. Runs when a new
    entry was written (not on every call); ``keep`` and the modules this process runs stay."""
    limit = cache_limit_bytes()
    entries, temporary = _scan(folder)
    _remove_paths(p for p, age in temporary if age > STALE_TMP_S)
    if limit <= 0:
        return
    total = sum(size for files in entries.values() for _, size, _ in files)
    if total <= limit:
        return
    order = sorted(entries, key=lambda e: max(used for _, _, used in entries[e]))
    for entry in order:
        if total <= limit:
            break
        if entry == keep or entry in sys.modules:
            continue
        files = entries[entry]
        # The module file first: a process that finds it gone writes it again.
        _remove_paths(sorted((p for p, _, _ in files), key=lambda p: not p.endswith(".py")))
        total -= sum(size for _, size, _ in files)


def cache_info():
    """What the cache folder holds.

    Returns:
        dict: ``{"path": str, "entries": int, "bytes": int, "limit_bytes": int}``: the folder
        (:func:`cache_dir`), the number of generated modules with their Numba files (an
        entry), their total size, and the size cap (0: none). A folder that does not exist or
        is refused (see the module docstring) is reported with 0 entries and is not read.
    """
    folder = os.path.abspath(cache_dir())
    state, _ = _folder_state(folder, create=False)
    entries = _scan(folder)[0] if state in ("ok", "read-only") else {}
    return {"path": folder, "entries": len(entries),
            "bytes": sum(size for files in entries.values() for _, size, _ in files),
            "limit_bytes": cache_limit_bytes()}


def cache_clear():
    """Remove every entry of the cache folder (graphjit's files only: names starting with
    ``_graphjit_``, in the folder and its ``__pycache__``). A refused folder is left alone
    (with a CacheWarning saying why).

    Returns:
        int: the number of entries removed.
    """
    folder = os.path.abspath(cache_dir())
    state, reason = _folder_state(folder, create=False)
    if state == "missing":
        return 0
    if state == "refused":
        _warn(f"graphjit: not clearing the cache folder {folder}: it {reason}")
        return 0
    entries, temporary = _scan(folder)
    _remove_paths(p for p, _ in temporary)
    removed = 0
    for files in entries.values():
        paths = [p for p, _, _ in files]
        _remove_paths(paths)
        removed += not any(os.path.lexists(p) for p in paths)
    return removed
