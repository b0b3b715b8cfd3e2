"""The numba-cuda backend's two test tiers that need no GPU, each in its own process
(``NUMBA_ENABLE_CUDASIM`` must be set before numba.cuda is imported, and the compile-only tier
must not have it). The cases are in tests/cuda/tiers.py; ``make gpu-check`` is the third tier.
"""
import importlib.util
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                reason="numba-cuda is not installed (pip install "
                                       "'graphjit[cuda]'; make installs it)")


def _tier(tier, simulator):
    env = dict(os.environ, GRAPHJIT_CUDA_TIER=tier)
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           os.path.join(HERE, "cuda", "tiers.py")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout[-3000:]


def test_simulator_tier():
    """Kernels run in Numba's CUDA simulator on tiny shapes and agree with the plain call."""
    _tier("simulator", simulator=True)


def test_compile_only_tier():
    """Every kernel the cases generate compiles to PTX for sm_90 without a GPU."""
    _tier("ptx", simulator=False)
