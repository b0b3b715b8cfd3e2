"""Test setup: generated modules go to a fresh folder; the context is reset around each test."""
import atexit
import os
import shutil
import tempfile

import pytest

if "GRAPHJIT_CACHE_DIR" not in os.environ:  # subprocesses of the tests inherit it
    os.environ["GRAPHJIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="graphjit-test-")
    atexit.register(shutil.rmtree, os.environ["GRAPHJIT_CACHE_DIR"], True)
os.environ.pop("GRAPHJIT_FULLGRAPH", None)
os.environ.pop("GRAPHJIT_DISABLE", None)


@pytest.fixture(autouse=True)
def _pynative_context():
    import transpiler as tp
    from transpiler.settings import CONTEXT
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    CONTEXT["numpy_graph"] = None
    yield
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    CONTEXT["numpy_graph"] = None


@pytest.fixture
def numba_path():
    """Array code compiled by Numba, not run as a NumPy graph (tests of the Numba lowering)."""
    import transpiler as tp
    tp.set_context(numpy_graph=False)


@pytest.fixture
def transpiles(monkeypatch):
    """The transpiles made during the test: ``(JitFunction, self object)`` per call of
    JitFunction._specialize."""
    from transpiler import api
    made = []
    original = api.JitFunction._specialize

    def counting(self, obj, values):
        made.append((self, obj))
        return original(self, obj, values)
    monkeypatch.setattr(api.JitFunction, "_specialize", counting)
    return made


@pytest.fixture
def slow_first_compile(monkeypatch):
    """Every transpile takes 0.3 s more, progress reports start after 0.05 s, in plain text
    (tqdm hidden): the long-first-compile report without a long compile."""
    import sys
    import time
    from transpiler import api
    original = api.JitFunction._specialize

    def slow(self, obj, values):
        time.sleep(0.3)
        return original(self, obj, values)
    monkeypatch.setattr(api.JitFunction, "_specialize", slow)
    monkeypatch.setenv("GRAPHJIT_PROGRESS_AFTER", "0.05")
    monkeypatch.setitem(sys.modules, "tqdm", None)
