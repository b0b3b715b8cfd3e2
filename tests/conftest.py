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
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    yield
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
