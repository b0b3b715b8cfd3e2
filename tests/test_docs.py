"""The documentation cannot drift (issue 52): every ```python block of README.md and docs/
runs (a page's blocks in order, as one script, in a fresh process: graphjit reads the
functions' source from the file); the site builds with no warning (`mkdocs build --strict`:
broken links, pages left out of the nav); the API page is the docstrings' current text; the
configuration page lists every GRAPHJIT_* variable the code reads and every set_context key;
the README stays short and its links resolve.

Blocks fenced ```py are illustrations (they need a cluster or a GPU, or are fragments) and
are not run; ```text blocks are output or shell commands.
"""
import glob
import inspect
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = [os.path.join(ROOT, "README.md")] + sorted(
    glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _blocks(path):
    return _BLOCK.findall(open(path, encoding="utf-8").read())


RUNNABLE = [p for p in PAGES if _blocks(p)]


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda p: os.path.relpath(p, ROOT))
def test_examples_run(page, tmp_path):
    script = tmp_path / "example.py"
    script.write_text("\n\n".join(_blocks(page)), encoding="utf-8")
    env = dict(os.environ, GRAPHJIT_CACHE_DIR=str(tmp_path / "cache"),
               OPENBLAS_NUM_THREADS="1", PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (
        f"{os.path.relpath(page, ROOT)}: its example failed:\n{done.stdout[-2000:]}\n"
        f"{done.stderr[-4000:]}")


def test_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--site-dir", str(tmp_path / "site")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_api_page_is_current():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "docs_reference.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_configuration_page_lists_every_setting():
    from transpiler.context import set_context
    text = open(os.path.join(ROOT, "docs", "guide", "configuration.md"),
                encoding="utf-8").read()
    used = set()
    for folder in ("transpiler", "backends"):
        for path in glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True):
            used |= set(re.findall(r"GRAPHJIT_[A-Z_]*[A-Z]", open(path, encoding="utf-8").read()))
    missing = sorted(v for v in used if f"`{v}`" not in text)
    assert not missing, f"docs/guide/configuration.md does not list {missing}"
    keys = [k for k in inspect.signature(set_context).parameters]
    missing = [k for k in keys if f"`{k}`" not in text]
    assert not missing, f"docs/guide/configuration.md does not list set_context keys {missing}"


def test_readme_is_short_and_its_links_resolve():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    assert len(text.splitlines()) < 200
    for target in re.findall(r"\]\(([^)#]+)[^)]*\)", text):
        if "://" not in target:
            assert os.path.exists(os.path.join(ROOT, target)), f"README links {target}"
