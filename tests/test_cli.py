"""The graphjit command, through a subprocess: every command and exit status; converted
samples run where graphjit cannot be imported, with the originals' values."""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(ROOT, "samples")
GRAPHJIT = [sys.executable, "-m", "transpiler"]


def graphjit(*args, cwd=None, timeout=300, env=None):
    env = dict(os.environ, **(env or {}))
    return subprocess.run(GRAPHJIT + list(args), capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout)


def run_without_graphjit(module_dir, code):
    """Run ``code`` with ``module_dir`` on the path and graphjit made unimportable."""
    prelude = ("import sys\nsys.modules['transpiler'] = None\nsys.modules['backends'] = None\n"
               f"sys.path.insert(0, {module_dir!r})\n")
    proc = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_help_for_every_command():
    for args in ([], ["convert"], ["show"], ["explain"], ["cache"]):
        proc = graphjit(*args, "--help")
        assert proc.returncode == 0 and "usage:" in proc.stdout
    script = shutil.which("graphjit", path=os.path.dirname(sys.executable))
    assert script, "the graphjit console script is installed"
    assert subprocess.run([script, "--help"], capture_output=True).returncode == 0


def test_usage_error_exits_2():
    assert graphjit().returncode == 2
    assert graphjit("convert").returncode == 2
    assert graphjit("convert", "x.py", "--backend", "nope").returncode == 2


def test_converted_sample_runs_without_graphjit(tmp_path):
    out = tmp_path / "out"
    proc = graphjit("convert", os.path.join(SAMPLES, "loop_kernels.py"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = (out / "loop_kernels.py").read_text()
    assert "transpiler" not in text.split("# It imports only")[1]
    original = load(os.path.join(SAMPLES, "loop_kernels.py"), "original_loop_kernels")
    values = np.array([0.25, 2.0, 9.0, 0.5])
    result = run_without_graphjit(str(out), """
        import json, numpy as np, loop_kernels as m
        v = np.array([0.25, 2.0, 9.0, 0.5])
        print(json.dumps({"sqrt": m.newton_sqrt(v).tolist(), "norm": m.norm(v),
                          "first": m.first_above(v), "first3": m.first_above(v, 3.0),
                          "jitted": type(m.newton_sqrt).__name__}))
    """)
    assert result["sqrt"] == original.newton_sqrt.python_function(values).tolist()
    assert result["norm"] == original.norm.python_function(values)
    assert result["first"] == original.first_above.python_function(values)
    assert result["first3"] == original.first_above.python_function(values, 3.0)
    assert result["jitted"] == "CPUDispatcher"


def test_static_graph_sample_with_all(tmp_path):
    out = tmp_path / "out"
    proc = graphjit("convert", "--all", os.path.join(SAMPLES, "static_graph.py"), "-o",
                    str(out))
    assert proc.returncode == 0, proc.stderr
    assert "kept as Python" in proc.stderr          # main(), measure(): listed with reasons
    original = load(os.path.join(SAMPLES, "static_graph.py"), "original_static_graph")
    result = run_without_graphjit(str(out), """
        import json, static_graph as m
        print(json.dumps({"collatz": m.collatz_steps(3000),
                          "compiled": type(m.collatz_steps).__name__}))
    """)
    assert result == {"collatz": original.collatz_steps(3000), "compiled": "CPUDispatcher"}


def test_eager_backend_output_is_plain_python(tmp_path):
    proc = graphjit("convert", "-b", "eager", os.path.join(SAMPLES, "loop_kernels.py"), "-o",
                    str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "loop_kernels.py").read_text()
    assert "numba.njit" not in text and "transpiler" not in text.split("# It imports only")[1]
    result = run_without_graphjit(str(tmp_path), """
        import json, numpy as np, loop_kernels as m
        print(json.dumps({"first": m.first_above(np.array([0.1, 0.7]))}))
    """)
    assert result == {"first": 1}


def test_input_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    hostile = tmp_path / "hostile.py"
    hostile.write_text(textwrap.dedent(f"""
        import numpy as np
        open({str(marker)!r}, "w").write("ran")
        LIMIT = 3

        def f(n):
            total = 0
            for i in range(n):
                if i < LIMIT:
                    total += i
            return total
    """))
    proc = graphjit("convert", "--all", str(hostile), "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()
    result = run_without_graphjit(str(tmp_path / "out"), """
        import json, hostile
        print(json.dumps(hostile.f(10)))
    """)
    assert result == 3
    assert not marker.exists()


def test_check_reports_stale_and_fallback(tmp_path):
    src = tmp_path / "kern.py"
    shutil.copy(os.path.join(SAMPLES, "loop_kernels.py"), src)
    out = tmp_path / "out"
    assert graphjit("convert", "--check", str(src), "-o", str(out)).returncode == 1  # missing
    assert graphjit("convert", str(src), "-o", str(out)).returncode == 0
    assert graphjit("convert", "--check", str(src), "-o", str(out)).returncode == 0
    src.write_text(src.read_text().replace("MAX_STEPS = 50", "MAX_STEPS = 60"))
    proc = graphjit("convert", "--check", str(src), "-o", str(out))
    assert proc.returncode == 1 and "stale" in proc.stderr
    assert graphjit("convert", str(src), "-o", str(out)).returncode == 0
    src.write_text(src.read_text() + textwrap.dedent("""

        @jit
        def uses_try(n):
            try:
                return n + 1
            except TypeError:
                return 0
    """))
    graphjit("convert", str(src), "-o", str(out))
    proc = graphjit("convert", "--check", str(src), "-o", str(out))
    assert proc.returncode == 1 and "uses_try falls back" in proc.stderr


def test_existing_file_is_replaced_only_with_force(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "loop_kernels.py").write_text("# my own file\n")
    src = os.path.join(SAMPLES, "loop_kernels.py")
    proc = graphjit("convert", src, "-o", str(out))
    assert proc.returncode == 2 and "--force" in proc.stderr
    assert (out / "loop_kernels.py").read_text() == "# my own file\n"
    assert graphjit("convert", "--force", src, "-o", str(out)).returncode == 0
    assert (out / "loop_kernels.py").read_text().startswith("# graphjit-generated")
    assert graphjit("convert", src, "-o", str(out)).returncode == 0   # ours: replaced
    assert not [p for p in os.listdir(out) if p.endswith(".tmp")]


def test_unreadable_and_unparsable_inputs_exit_2(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n    pass\n")
    proc = graphjit("convert", str(bad), "-o", str(tmp_path / "out"))
    assert proc.returncode == 2 and f"{bad}:1" in proc.stderr
    proc = graphjit("convert", str(tmp_path / "missing.py"), "-o", str(tmp_path / "out"))
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_show_and_explain():
    src = os.path.join(SAMPLES, "loop_kernels.py")
    proc = graphjit("show", f"{src}::newton_sqrt")
    assert proc.returncode == 0 and "def newton_sqrt(values):" in proc.stdout
    assert graphjit("show", f"{src}::nope").returncode == 2
    assert graphjit("show", src).returncode == 2
    report = graphjit("show", f"{src}::report")
    assert report.returncode == 1 and "kept as Python" in report.stderr
    proc = graphjit("explain", src)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert any(line.startswith("compiled") and "newton_sqrt" in line for line in lines)
    assert any(line.startswith("python") and "report" in line for line in lines)


def test_directories_are_walked_with_progress(tmp_path):
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    for i in range(12):
        folder = src / "sub" if i % 2 else src
        (folder / f"m{i}.py").write_text(f"def f{i}(x):\n    return x + {i}\n")
    out = tmp_path / "out"
    proc = graphjit("convert", "--all", "-q", str(src), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "12/12" in proc.stderr
    assert (out / "sub" / "m1.py").exists() and (out / "m0.py").exists()


def test_import_option_reads_live_values_and_warns(tmp_path):
    src = tmp_path / "computed.py"
    src.write_text(textwrap.dedent("""
        SIZE = 2 * 8

        def scaled(x):
            return x * SIZE
    """))
    parsed = graphjit("convert", "--all", str(src), "-o", str(tmp_path / "a"))
    assert parsed.returncode == 0 and "scaled kept as Python" in parsed.stderr  # SIZE unknown
    live = graphjit("convert", "--all", "--import", str(src), "-o", str(tmp_path / "b"))
    assert live.returncode == 0 and "runs the input's module-level code" in live.stderr
    assert "1 converted, 0 kept as Python" in live.stderr
    result = run_without_graphjit(str(tmp_path / "b"), """
        import json, computed
        print(json.dumps(computed.scaled(3)))
    """)
    assert result == 48


def one_line_failure(proc):
    """The command failed as the README says: status 2, one line on stderr, no traceback."""
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("graphjit: "), proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def test_annotations_defaults_decorators_and_top_level_never_run(tmp_path):
    markers = tmp_path / "markers"
    markers.mkdir()
    hostile = tmp_path / "hostile.py"
    hostile.write_text(textwrap.dedent(f"""
        import os
        import numpy as np

        def mark(tag):
            open(os.path.join({str(markers)!r}, tag), "w").write(tag)
            return lambda f: f

        @mark("decorator")
        def total(a: __import__("os").system("touch " + {str(markers / "annotation")!r})
                  or np.ndarray, n: mark("arg") = 3) -> mark("returns"):
            s = 0.0
            for i in range(n):
                if a[i] > 0:
                    s += a[i]
            return s

        def defaulted(x=mark("default")):
            return x

        def runs_a_command(n):
            os.system("touch " + {str(markers / "body")!r})
            return n

        class Planted(mark("class_base") and object):
            mark("class_body")

        mark("top_level")
        X = mark("assignment")
    """))
    out = tmp_path / "out"
    proc = graphjit("convert", "--all", str(hostile), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "1 converted" in proc.stderr      # total(): converted, its annotations dropped
    assert graphjit("show", f"{hostile}::total").returncode == 0
    explained = graphjit("explain", str(hostile))
    assert explained.returncode == 0 and "compiled" in explained.stdout
    assert sorted(os.listdir(markers)) == []
    result = run_without_graphjit(str(out), """
        import json, numpy as np, hostile
        print(json.dumps(hostile.total(np.array([1.0, -2.0, 3.0]))))
    """)
    assert result == 4.0


def test_current_folder_never_shadows_an_import(tmp_path):
    """python -m transpiler puts the current folder first on sys.path: a calendar.py (a
    module the input imports) or numpy.py there (the converter's own import) must not run."""
    work = tmp_path / "work"
    work.mkdir()
    for name in ("calendar", "numpy", "random", "gast"):
        (work / f"{name}.py").write_text(
            f"open({str(tmp_path / ('ran_' + name))!r}, 'w').write('ran')\n")
    (work / "model.py").write_text(textwrap.dedent("""
        import calendar
        import numpy as np

        def days(n):
            return n * calendar.MONDAY + 7
    """))
    env = {"PYTHONPATH": ROOT}
    proc = graphjit("convert", "--all", "model.py", "-o", "out", cwd=work, env=env)
    assert proc.returncode == 0, proc.stderr
    assert graphjit("show", "model.py::days", cwd=work, env=env).returncode == 0
    assert graphjit("explain", "model.py", cwd=work, env=env).returncode == 0
    assert not [p for p in os.listdir(tmp_path) if p.startswith("ran_")]
    assert "1 converted" in proc.stderr


def test_two_inputs_with_one_output_name_write_nothing(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(f"def f(n):\n    return n + {len(folder)}\n")
    out = tmp_path / "out"
    proc = graphjit("convert", "--all", str(tmp_path / "a" / "m.py"), str(tmp_path / "b" / "m.py"),
                    "-o", str(out))
    line = one_line_failure(proc)
    assert "would both be written to" in line and "nothing written" in line
    assert not out.exists()


def test_symbolic_links_are_refused(tmp_path):
    real = tmp_path / "real.py"
    real.write_text("def f(n):\n    return n + 1\n")
    (tmp_path / "link.py").symlink_to(real)
    proc = graphjit("convert", "--all", str(tmp_path / "link.py"), "-o", str(tmp_path / "out"))
    assert "symbolic link" in one_line_failure(proc)
    assert not (tmp_path / "out" / "link.py").exists()
    # An input that links to its own output: the output is left as it was.
    out = tmp_path / "out2"
    out.mkdir()
    (out / "own.py").write_text("def f(n):\n    return n\n")
    (tmp_path / "own.py").symlink_to(out / "own.py")
    proc = graphjit("convert", "--all", str(tmp_path / "own.py"), "-o", str(out))
    assert "its own output" in one_line_failure(proc)
    assert (out / "own.py").read_text() == "def f(n):\n    return n\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_fifo_in_a_folder_is_refused_without_waiting(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    os.mkfifo(src / "x.py")
    (src / "y.py").write_text("def f(n):\n    return n + 1\n")
    proc = graphjit("convert", "--all", str(src), "-o", str(tmp_path / "out"), timeout=60)
    assert proc.returncode == 2
    assert f"{src / 'x.py'}: not a regular file" in proc.stderr
    assert (tmp_path / "out" / "y.py").exists() and not (tmp_path / "out" / "x.py").exists()


def test_bom_and_coding_cookie_inputs_convert(tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfdef inc(n):\n    return n + 1\n")
    (tmp_path / "latin.py").write_bytes(
        b"# -*- coding: latin-1 -*-\nNAME = '\xe9t\xe9'\n\ndef twice(n):\n    return 2 * n\n"
        b"\n\ndef name():\n    return NAME + ' caf\xe9'\n")
    out = tmp_path / "out"
    paths = [str(tmp_path / "bom.py"), str(tmp_path / "latin.py")]
    proc = graphjit("convert", "--all", *paths, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    result = run_without_graphjit(str(out), """
        import json, bom, latin
        print(json.dumps([bom.inc(1), latin.twice(4), latin.name()]))
    """)
    assert result == [2, 8, "\u00e9t\u00e9 caf\u00e9"]
    # The recorded hash is that of the decoded text: --check finds the outputs up to date.
    assert graphjit("convert", "--all", "--check", paths[0], "-o", str(out)).returncode == 0


def test_too_deeply_nested_input_is_one_line_exit_2(tmp_path):
    deep = tmp_path / "deep.py"
    deep.write_text("def f(x):\n    return " + "+".join(["x"] * 30000) + "\n")
    line = one_line_failure(graphjit("convert", "--all", str(deep), "-o", str(tmp_path / "o")))
    assert str(deep) in line and "RecursionError" in line
    assert one_line_failure(graphjit("explain", str(deep))).startswith("graphjit: ")


def test_output_folder_that_is_a_file_exit_2(tmp_path):
    src = os.path.join(SAMPLES, "loop_kernels.py")
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    assert "not a folder" in one_line_failure(graphjit("convert", src, "-o", str(afile)))
    # A folder below a file cannot be created.
    line = one_line_failure(graphjit("convert", src, "-o", str(afile / "sub")))
    assert "cannot write" in line or "not a folder" in line
    assert afile.read_text() == "mine\n"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root can write into a read-only folder")
def test_unwritable_output_folder_exit_2(tmp_path):
    out = tmp_path / "readonly"
    out.mkdir()
    out.chmod(0o555)
    try:
        line = one_line_failure(graphjit("convert", os.path.join(SAMPLES, "loop_kernels.py"),
                                         "-o", str(out)))
    finally:
        out.chmod(0o755)
    assert "cannot write" in line and os.listdir(out) == []


def test_internal_errors_are_one_line_exit_2(monkeypatch, capsys):
    from transpiler import cli

    def fail(*args, **kwargs):
        raise MemoryError()
    monkeypatch.setattr(cli, "convert", fail)
    assert cli.main(["explain", os.path.join(SAMPLES, "loop_kernels.py")]) == 2
    assert capsys.readouterr().err == "graphjit: out of memory (MemoryError)\n"

    def bug(*args, **kwargs):
        raise KeyError("oops")
    monkeypatch.setattr(cli, "convert", bug)
    monkeypatch.delenv("GRAPHJIT_TRACEBACK", raising=False)
    assert cli.main(["explain", os.path.join(SAMPLES, "loop_kernels.py")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("graphjit: internal error: KeyError") and err.count("\n") == 1


def test_progress_inside_a_large_file(tmp_path):
    big = tmp_path / "big.py"
    big.write_text("".join(f"def f{i}(n):\n    return n + {i}\n\n" for i in range(120)))
    proc = graphjit("convert", "--all", "-q", str(big), "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert "120/120" in proc.stderr and "120 converted" not in proc.stderr  # -q: no summary
    small = tmp_path / "small.py"
    small.write_text("def f(n):\n    return n\n")
    assert graphjit("convert", "--all", "-q", str(small), "-o", str(tmp_path / "o2")).stderr == ""


def test_cache_info_and_clear(tmp_path):
    cache = tmp_path / "cache"
    env = {"GRAPHJIT_CACHE_DIR": str(cache), "PYTHONPATH": ROOT}
    try:
        from transpiler.loader import cache_clear, cache_info  # noqa: F401
    except ImportError:   # this tree's loader has none: the command says so, exit 2
        assert "no cache management" in one_line_failure(graphjit("cache", "info", env=env))
        return
    fill = subprocess.run([sys.executable, "-c", (
        "from transpiler.loader import load_source\n"
        "for i in range(3):\n    load_source(f'X = {i}\\n', f'entry{i}')\n")],
        env=dict(os.environ, **env), capture_output=True, text=True, timeout=120)
    assert fill.returncode == 0, fill.stderr
    info = graphjit("cache", "info", env=env)
    assert info.returncode == 0, info.stderr
    assert f"path:    {cache}" in info.stdout and "entries: 3" in info.stdout
    assert "size:" in info.stdout and "limit:" in info.stdout
    cleared = graphjit("cache", "clear", env=env)
    assert cleared.returncode == 0 and "removed 3 entries" in cleared.stdout
    assert "entries: 0" in graphjit("cache", "info", env=env).stdout


def test_round_to_digits_of_an_unknown_type_is_kept_as_python(tmp_path):
    # Numba's round(x, n) scales by 10**n (2.68 for round(2.675, 2)); without argument types
    # the converter cannot call CPython's algorithm, so the function stays Python (a review
    # found the converted module giving Numba's value silently)
    src = tmp_path / "rounding.py"
    src.write_text(textwrap.dedent("""
        def rounding(x, n):
            a = round(x, n)
            for i in range(2):
                a = a + round(x, i)
            return a

        def whole(x):
            return round(x)
    """))
    proc = graphjit("convert", "--all", str(src), "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    assert "rounding kept as Python" in proc.stderr and "round(x, n)" in proc.stderr
    result = run_without_graphjit(str(tmp_path / "out"), """
        import json, rounding
        print(json.dumps([rounding.rounding(2.675, 2), rounding.whole(2.5), rounding.whole(3.5)]))
    """)
    assert result == [round(2.675, 2) + round(2.675, 0) + round(2.675, 1),
                      2, 4]


def test_converted_matrix_products_are_numpys(tmp_path):
    """Converted without argument types, ``a @ b`` calls NumPy's own matmul loop where
    Numba's types allow (backends/runtime/ufunc_loops.py, embedded in the module): a 1000 x 3
    @ 3 x 1000 product differed with Numba's @ (SciPy's BLAS)."""
    source = tmp_path / "products.py"
    source.write_text(textwrap.dedent("""
        import transpiler as tp


        @tp.jit
        def accumulate(a, b, k):
            out = a @ b
            for _ in range(k):
                out = out + a @ b
            return out
    """))
    out = tmp_path / "out"
    proc = graphjit("convert", str(source), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    result = run_without_graphjit(str(out), """
        import json, numpy as np, products as m
        a = np.random.default_rng(0).standard_normal((1000, 3))
        b = np.random.default_rng(1).standard_normal((3, 1000))
        got, want = m.accumulate(a, b, 2), a @ b + a @ b + a @ b
        v = np.random.default_rng(2).standard_normal(3)
        print(json.dumps({"equal": got.tobytes() == want.tobytes(),
                          "vector": m.accumulate(a, v, 1).tobytes() == (a @ v + a @ v).tobytes()}))
    """)
    assert result == {"equal": True, "vector": True}
