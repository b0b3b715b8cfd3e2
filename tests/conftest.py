"""Test setup: generated modules go to a fresh folder; the context is reset around each test."""
import os
import tempfile

import pytest

os.environ.setdefault("GRAPHJIT_CACHE_DIR", tempfile.mkdtemp(prefix="graphjit-test-"))
os.environ.pop("GRAPHJIT_FULLGRAPH", None)
os.environ.pop("GRAPHJIT_DISABLE", None)


@pytest.fixture(autouse=True)
def _pynative_context():
    import transpiler as tp
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    yield
    tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
