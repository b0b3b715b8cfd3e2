"""A module global read as a constant by a jitted function (tests/test_guards.py)."""
import numpy as np

Z = 0.0


def sign_of_global(x):
    return np.copysign(1.0, Z) * x
