"""The on-disk cache: hits across processes, never stale, corrupt entries rebuilt, races."""
import glob
import hashlib
import json
import os
import random
import subprocess
import sys
import textwrap

import pytest

KERNEL = """
SCALE = {scale}

def kernel(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i * SCALE
    return total
"""

DRIVER = """
import json, sys, warnings
sys.path.insert(0, sys.argv[1])
import transpiler as tp
import kern
compiled = tp.jit(kern.kernel, cache=True, fullgraph=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    value = compiled(100)
spec = compiled._plain[0]
print(json.dumps({
    "value": value, "expected": kern.kernel(100), "module": spec.path,
    "hits": sum(spec.function.stats.cache_hits.values()),
    "misses": sum(spec.function.stats.cache_misses.values()),
    "warnings": [str(w.message) for w in caught]}))
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "driver.py").write_text(DRIVER)
    (tmp_path / "kern.py").write_text(KERNEL.format(scale=2))
    return tmp_path


def run(project, cache):
    env = dict(os.environ, GRAPHJIT_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, str(project / "driver.py"), str(project)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["value"] == result["expected"]
    return result


def test_cache_hit_in_a_later_process(project, tmp_path):
    first = run(project, tmp_path / "cache")
    second = run(project, tmp_path / "cache")
    assert first["misses"] >= 1 and first["hits"] == 0
    assert second["hits"] >= 1 and second["misses"] == 0
    assert first["module"] == second["module"]


def test_source_change_gives_a_new_entry(project, tmp_path):
    first = run(project, tmp_path / "cache")
    text = (project / "kern.py").read_text().replace("i % 3", "i % 4")
    (project / "kern.py").write_text(text)
    second = run(project, tmp_path / "cache")
    assert second["module"] != first["module"] and second["hits"] == 0


def test_baked_static_value_change_gives_a_new_entry(project, tmp_path):
    first = run(project, tmp_path / "cache")
    (project / "kern.py").write_text(KERNEL.format(scale=7))
    second = run(project, tmp_path / "cache")
    assert second["module"] != first["module"] and second["hits"] == 0
    assert second["value"] == 7 * first["value"] // 2


def test_corrupt_entries_are_rebuilt_with_a_warning(project, tmp_path):
    cache = tmp_path / "cache"
    first = run(project, cache)
    for index in glob.glob(str(cache / "__pycache__" / "*.nbi")):
        with open(index, "r+b") as handle:
            handle.truncate(10)
    second = run(project, cache)
    assert any("could not be read" in w for w in second["warnings"])
    with open(first["module"], "r+") as handle:
        handle.truncate(50)
    third = run(project, cache)
    assert any("corrupt or truncated" in w for w in third["warnings"])
    fourth = run(project, cache)
    assert fourth["warnings"] == [] and fourth["misses"] == 0 and fourth["hits"] >= 1
    # Numba's index and data files: random bytes, truncated.
    noise = random.Random(16)
    for pattern, fault in (("*.nbi", "random"), ("*.nbc", "truncate"), ("*.nbc", "random")):
        files = glob.glob(str(cache / "__pycache__" / pattern))
        assert files
        for name in files:
            size = os.path.getsize(name)
            with open(name, "r+b") as handle:
                if fault == "truncate":
                    handle.truncate(size // 2)
                else:
                    handle.write(noise.randbytes(size))
        damaged = run(project, cache)
        assert any("could not be read" in w for w in damaged["warnings"]), (pattern, fault)
        again = run(project, cache)
        assert again["warnings"] == [] and again["misses"] == 0 and again["hits"] >= 1


def rebuilt(path):
    """The entry is a file again whose content has the hash its name says."""
    digest = os.path.basename(path)[:-3].rsplit("_", 1)[1]
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()[:16] == digest


def test_damaged_module_files_are_rebuilt_and_never_run(project, tmp_path):
    cache = tmp_path / "cache"
    path = run(project, cache)["module"]
    marker = tmp_path / "marker"
    for fault in ("random bytes", "folder", "other valid code"):
        if fault == "random bytes":
            with open(path, "wb") as handle:
                handle.write(random.Random(16).randbytes(os.path.getsize(path)))
        elif fault == "folder":
            os.remove(path)
            os.makedirs(os.path.join(path, "inside"))
        else:
            with open(path, "w") as handle:
                handle.write(f"open({str(marker)!r}, 'w').close()\n"
                             "def _prepare(*args):\n    return None\n")
        after = run(project, cache)
        assert any("corrupt or truncated" in w and path in w for w in after["warnings"]), fault
        assert rebuilt(path) and not marker.exists(), fault
        assert not glob.glob(str(cache / "*.tmp")), fault  # none left by a failed write
    final = run(project, cache)
    assert final["warnings"] == [] and final["misses"] == 0 and final["hits"] >= 1


def test_planted_or_truncated_bytecode_is_ignored(project, tmp_path):
    import importlib._bootstrap_external as external
    import importlib.util
    cache = tmp_path / "cache"
    path = run(project, cache)["module"]
    marker = tmp_path / "marker"
    # Valid bytecode for this very file (its header matches the file's mtime and size), so
    # Python's import system would run it instead of the file.
    code = compile(f"open({str(marker)!r}, 'w').close()\n", path, "exec")
    info = os.stat(path)
    pyc = importlib.util.cache_from_source(path)
    with open(pyc, "wb") as handle:
        handle.write(external._code_to_timestamp_pyc(code, info.st_mtime, info.st_size))
    planted = run(project, cache)
    assert not marker.exists()
    assert planted["warnings"] == [] and planted["hits"] >= 1 and planted["misses"] == 0
    with open(pyc, "r+b") as handle:
        handle.truncate(20)
    truncated = run(project, cache)
    assert truncated["warnings"] == [] and truncated["hits"] >= 1 and rebuilt(path)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to make a folder owned by another user (the refusal "
                           "itself is tested in test_cache_policy.py for any user)")
def test_cache_folder_of_another_user_is_refused(project, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    os.chown(cache, 65534, 65534)
    result = run(project, cache)
    assert any("not using the cache folder" in w and "owned by user id 65534" in w
               for w in result["warnings"])
    assert result["module"].startswith("<graphjit-memory>") and os.listdir(cache) == []


def test_two_processes_racing_on_one_entry(project, tmp_path):
    cache = tmp_path / "cache"
    env = dict(os.environ, GRAPHJIT_CACHE_DIR=str(cache))
    args = [sys.executable, str(project / "driver.py"), str(project)]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env) for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        result = json.loads(out.strip().splitlines()[-1])
        assert result["value"] == result["expected"] and result["warnings"] == []
    after = run(project, cache)
    assert after["hits"] >= 1 and after["misses"] == 0 and after["warnings"] == []
    assert not glob.glob(str(cache / "*.tmp")) and not glob.glob(str(cache / "__pycache__" / "*.tmp*"))


def test_import_does_not_import_numba_or_numpy():
    code = textwrap.dedent("""
        import sys, transpiler
        print("numba" in sys.modules, "numpy" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False"]
