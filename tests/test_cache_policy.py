"""The cache folder's policy and the loader, in this process: a folder that is not private is
refused (compiled in memory, never moved elsewhere), damaged entries are rebuilt, modules run
from their checked text, concurrent loads make one module, the size cap prunes the least
recently used entries, cache_info / cache_clear."""
import hashlib
import linecache
import os
import stat
import sys
import threading
import time
import traceback
import uuid
import warnings

import pytest

from transpiler import CacheWarning, context, loader


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache folder path (not created yet); the modules loaded are dropped after."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("GRAPHJIT_CACHE_DIR", str(folder))
    monkeypatch.setitem(context._context, "compile_cache_path", None)
    monkeypatch.setitem(context._context, "compile_cache_limit_mb", None)
    monkeypatch.delenv("GRAPHJIT_CACHE_LIMIT_MB", raising=False)
    monkeypatch.setattr(loader, "_warned", set())
    before = set(sys.modules)
    yield folder
    for name in set(sys.modules) - before:
        if name.startswith(loader.PREFIX):
            del sys.modules[name]


def text(tag="", pad=0):
    """A module source, unique per call unless ``tag`` is given."""
    tag = tag or uuid.uuid4().hex
    return (f"# {tag}\n" + "#" * pad + "\n"
            "def _prepare():\n    return 42\n\n\ndef boom():\n    raise ValueError('x')\n")


def load(source, stem="f"):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module, path = loader.load_source(source, stem)
    return module, path, [w for w in caught if issubclass(w.category, CacheWarning)]


def digest_ok(path):
    name = os.path.basename(path)[:-3]
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:16] == name.rsplit("_", 1)[1]


def in_memory(module, path, source):
    assert path.startswith("<graphjit-memory>") and module.__file__ == path
    assert module._prepare() == 42
    assert linecache.getline(path, 3) == source.splitlines(True)[2]
    try:
        module.boom()
    except ValueError:
        shown = traceback.format_exc()
    assert "raise ValueError('x')" in shown and path in shown


def test_new_folder_is_private_and_the_entry_is_a_checked_file(cache):
    source = text()
    module, path, caught = load(source)
    assert caught == [] and module._prepare() == 42
    assert stat.S_IMODE(os.lstat(cache).st_mode) == 0o700
    assert os.path.dirname(path) == str(cache) and digest_ok(path)
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    assert sys.modules[module.__name__] is module and module.__file__ == path
    assert os.listdir(cache) == [os.path.basename(path)]  # no temporary file left


def _foreign(folder, monkeypatch):
    folder.mkdir(mode=0o700)
    if os.geteuid() == 0:
        os.chown(folder, 65534, 65534)  # a real other user
    else:
        monkeypatch.setattr(loader, "_expected_owner", lambda: os.geteuid() + 1)


@pytest.mark.parametrize("fault", ["other owner", "group-writable", "world-writable",
                                   "symlink", "file", "changeable parent"])
def test_unsafe_folder_is_refused_and_nothing_in_it_runs(cache, tmp_path, monkeypatch, fault):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr("tempfile.tempdir", None)
    marker = tmp_path / "marker"
    source = text()
    name = loader.module_name(source, "f")
    planted = f"open({str(marker)!r}, 'w').close()\ndef _prepare():\n    return -1\n"
    if fault == "other owner":
        _foreign(cache, monkeypatch)
    elif fault in ("group-writable", "world-writable"):
        cache.mkdir()
        os.chmod(cache, 0o770 if fault == "group-writable" else 0o703)
    elif fault == "symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        os.symlink(tmp_path / "elsewhere", cache)
    elif fault == "changeable parent":
        (tmp_path / "shared").mkdir()
        os.chmod(tmp_path / "shared", 0o777)  # no sticky bit: others can rename what is in it
        cache = tmp_path / "shared" / "cache"
        cache.mkdir(mode=0o700)
        monkeypatch.setenv("GRAPHJIT_CACHE_DIR", str(cache))
    else:
        cache.write_text("not a folder")
    if fault != "file":
        real = os.path.realpath(cache)
        with open(os.path.join(real, name + ".py"), "w") as handle:
            handle.write(planted)
    listing = sorted(os.listdir(os.path.realpath(cache))) if fault != "file" else None
    module, path, caught = load(source)
    in_memory(module, path, source)
    assert not marker.exists()
    assert len(caught) == 1
    message = str(caught[0].message)
    assert f"not using the cache folder {cache}" in message and "compiling in memory" in message
    assert {"other owner": "owned by user id", "group-writable": "writable by other users",
            "world-writable": "writable by other users", "symlink": "symbolic link",
            "file": "not a folder",
            "changeable parent": f"is in {cache.parent}, which other users can change"}[fault] \
        in message
    assert caught[0].filename == __file__  # points at the caller, not into graphjit
    if listing is not None:
        assert sorted(os.listdir(os.path.realpath(cache))) == listing  # nothing written
    assert os.listdir(tmp_path / "tmp") == []  # never moved to $TMPDIR
    # Warned once per folder and reason.
    module, path, caught = load(text())
    assert caught == [] and path.startswith("<graphjit-memory>")


def test_folder_in_a_sticky_shared_folder_is_used(cache, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # as /tmp: others cannot rename or remove what is not theirs
    monkeypatch.setenv("GRAPHJIT_CACHE_DIR", str(shared / "cache"))
    _, path, caught = load(text())
    assert caught == [] and os.path.dirname(path) == str(shared / "cache")


def test_refused_folder_with_numba_cache_on_compiles_in_memory(cache, monkeypatch):
    import transpiler as tp
    _foreign(cache, monkeypatch)

    def tally(n):
        total = 0
        for i in range(n):
            total += i * 3
        return total

    compiled = tp.jit(tally, cache=True, fullgraph=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert compiled(10) == tally(10)
    assert [w for w in caught if issubclass(w.category, CacheWarning)]
    assert compiled._plain[0].path.startswith("<graphjit-memory>")
    assert os.listdir(cache) == []


def test_read_only_folder_is_used_for_what_it_holds(cache, monkeypatch):
    kept = text()
    _, path, _ = load(kept)
    sys.modules.pop(loader.module_name(kept, "f"))
    damaged = text()
    _, damaged_path, _ = load(damaged)
    sys.modules.pop(loader.module_name(damaged, "f"))
    with open(damaged_path, "r+") as handle:
        handle.truncate(5)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if os.fspath(p) == str(
        cache) else real_access(p, mode, **kw))
    listing = sorted(os.listdir(cache))
    module, again, caught = load(kept)
    assert again == path and module.__file__ == path and caught == []
    source = text()
    module, new, caught = load(source)
    in_memory(module, new, source)
    assert len(caught) == 1 and "read-only" in str(caught[0].message)
    module, again, caught = load(damaged)
    assert again.startswith("<graphjit-memory>") and module._prepare() == 42
    assert len(caught) == 1 and damaged_path in str(caught[0].message)
    assert sorted(os.listdir(cache)) == listing  # left as it is


def _damage(path, fault):
    if fault == "random bytes":
        with open(path, "wb") as handle:
            handle.write(os.urandom(os.path.getsize(path)))
    elif fault == "truncated":
        with open(path, "r+") as handle:
            handle.truncate(40)
    elif fault == "other valid code":
        with open(path, "w") as handle:
            handle.write("raise SystemExit('planted')\n")
    elif fault == "folder":
        os.remove(path)
        os.makedirs(os.path.join(path, "inner"))
        open(os.path.join(path, "inner", "x"), "w").close()
    elif fault == "symlink":
        os.remove(path)
        os.symlink(os.path.join(os.path.dirname(path), "other.py"), path)
    elif fault == "unreadable":
        os.remove(path)
        os.mkfifo(path)


@pytest.mark.parametrize("fault", ["random bytes", "truncated", "other valid code", "folder",
                                   "symlink", "unreadable"])
def test_damaged_entry_is_rebuilt_with_a_warning(cache, fault):
    source = text()
    _, path, _ = load(source)
    sys.modules.pop(loader.module_name(source, "f"))
    _damage(path, fault)
    module, again, caught = load(source)
    assert again == path and module._prepare() == 42
    assert len(caught) == 1, [str(w.message) for w in caught]
    message = str(caught[0].message)
    assert path in message and "rebuilding it" in message and "\n" not in message
    assert caught[0].filename == __file__
    assert stat.S_ISREG(os.lstat(path).st_mode) and digest_ok(path)
    assert not [n for n in os.listdir(cache) if n.endswith(".tmp")]
    sys.modules.pop(module.__name__)
    _, _, caught = load(source)
    assert caught == []


def test_entry_that_cannot_be_rewritten_runs_in_memory_and_leaves_no_temporary_file(
        cache, monkeypatch):
    cache.mkdir(mode=0o700)

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    source = text()
    module, path, caught = load(source)
    in_memory(module, path, source)
    assert len(caught) == 1 and "cannot be written" in str(caught[0].message)
    assert os.listdir(cache) == []


def test_a_planted_pyc_is_never_run(cache, tmp_path):
    import importlib._bootstrap_external as external
    import importlib.util
    source = text()
    _, path, _ = load(source)
    sys.modules.pop(loader.module_name(source, "f"))
    marker = tmp_path / "marker"
    code = compile(f"open({str(marker)!r}, 'w').close()\ndef _prepare():\n    return -1\n",
                   path, "exec")
    info = os.stat(path)
    pyc = importlib.util.cache_from_source(path)
    os.makedirs(os.path.dirname(pyc), exist_ok=True)
    with open(pyc, "wb") as handle:
        handle.write(external._code_to_timestamp_pyc(code, info.st_mtime, info.st_size))
    module, again, caught = load(source)
    assert module._prepare() == 42 and caught == [] and not marker.exists()
    # The planted file is valid: Python's own import of that path would run it.
    spec = importlib.util.spec_from_file_location("_graphjit_probe", path)
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    assert marker.exists() and probe._prepare() == -1


def test_concurrent_loads_make_one_finished_module(cache):
    source = ("import sys, time\nsys._graphjit_test_runs = getattr(sys, "
              "'_graphjit_test_runs', 0) + 1\ntime.sleep(0.3)\n" + text())
    sys._graphjit_test_runs = 0
    results, errors = [], []

    def worker():
        try:
            module, _ = loader.load_source(source, "f")
            results.append((module, module._prepare()))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(results) == 8
    assert {id(m) for m, _ in results} == {id(results[0][0])}
    assert all(v == 42 for _, v in results) and sys._graphjit_test_runs == 1
    del sys._graphjit_test_runs


def test_size_cap_prunes_the_least_recently_used_entries(cache, monkeypatch):
    names, paths = [], []
    for i in range(4):
        source = text(pad=20000)
        _, path, _ = load(source)
        names.append(loader.module_name(source, "f"))
        paths.append(path)
        sys.modules.pop(names[-1])
    # Numba's files of entry 0, and uses: entry 0 most recently, then 3, 2, 1.
    numba_file = os.path.join(cache, "__pycache__", names[0] + ".f-3.py311.nbi")
    os.makedirs(os.path.dirname(numba_file))
    with open(numba_file, "wb") as handle:
        handle.write(b"x" * 1000)
    now = time.time()
    for age, path in zip((10, 400, 300, 200), paths):
        os.utime(path, (now - age, now - 1000))
    os.utime(numba_file, (now - 1000, now - 1000))
    stale = os.path.join(cache, names[1] + ".py.1.2.tmp")
    open(stale, "w").close()
    os.utime(stale, (now - 2 * loader.STALE_TMP_S, now - 2 * loader.STALE_TMP_S))
    unrelated = cache / "notes.txt"
    unrelated.write_text("mine")
    info = loader.cache_info()
    assert info["entries"] == 4 and info["bytes"] > 80000 and info["path"] == str(cache)
    assert info["limit_bytes"] == 256 * 1024 * 1024
    monkeypatch.setenv("GRAPHJIT_CACHE_LIMIT_MB", str(65000 / 1024 / 1024))
    newest = text(pad=20000)
    _, new_path, _ = load(newest)
    # 5 entries of ~20 kB, a cap of 65 kB: the two least recently used go.
    assert not os.path.exists(paths[1]) and not os.path.exists(paths[2])
    assert all(os.path.exists(p) for p in (paths[0], paths[3], new_path, numba_file))
    assert not os.path.exists(stale) and unrelated.exists()
    assert loader.cache_info()["entries"] == 3
    # A use is recorded on load, and keeps the file's modification time (Numba's stamp).
    before = os.stat(paths[3])
    sys.modules.pop(names[3], None)
    load(open(paths[3]).read())
    after = os.stat(paths[3])
    assert after.st_mtime_ns == before.st_mtime_ns and after.st_atime > before.st_atime


def test_cache_clear_removes_graphjit_files_only(cache, monkeypatch):
    for _ in range(3):
        source = text()
        load(source)
        sys.modules.pop(loader.module_name(source, "f"))
    os.makedirs(cache / "__pycache__")
    (cache / "__pycache__" / "_graphjit_f_0123456789abcdef.f-3.py311.nbi").write_bytes(b"x")
    (cache / "notes.txt").write_text("mine")
    assert loader.cache_info()["entries"] == 4
    assert loader.cache_clear() == 4
    assert sorted(os.listdir(cache)) == ["__pycache__", "notes.txt"]
    assert loader.cache_info() == {"path": str(cache), "entries": 0, "bytes": 0,
                                   "limit_bytes": 256 * 1024 * 1024}
    monkeypatch.setattr(loader, "_expected_owner", lambda: os.geteuid() + 1)
    with pytest.warns(CacheWarning, match="not clearing"):
        assert loader.cache_clear() == 0


def test_cache_info_of_a_missing_folder_creates_nothing(cache):
    assert loader.cache_info()["entries"] == 0 and not cache.exists()
    assert loader.cache_clear() == 0 and not cache.exists()
    context.set_context(compile_cache_limit_mb=1)
    assert loader.cache_info()["limit_bytes"] == 1024 * 1024
    assert context.get_context("compile_cache_limit_mb") == 1
