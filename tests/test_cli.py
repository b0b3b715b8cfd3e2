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


def graphjit(*args, cwd=None):
    env = dict(os.environ)
    return subprocess.run(GRAPHJIT + list(args), capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


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
    for args in ([], ["convert"], ["show"], ["explain"]):
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
