"""graphjit fuzzer regression: raise UnboundLocalError / raise NameError.

Found by `python -m tests.fuzzing.run --n 2000 --seed 1` while the generator could still emit a
read of a maybe-unassigned variable (a while counter assigned in one branch); shrunk from 23
lines by the shrinker, then by hand. Only the split (compiled-loop region) path differs:
the whole-function fallback raises UnboundLocalError as Python does.
plain:    raised UnboundLocalError: cannot access local variable 'w0' where it is not associated with a value
compiled: raised NameError: name 'w0' is not defined
"""
import math
import numpy as np


def f(i0, a):
    v1 = 1
    if i0 > 100:
        for e0 in a:
            w0 = 0
    elif -v1 >= w0:
        pass
    return v1


INPUTS = [(0, np.array([0.0, 0.0], dtype=np.float32))]
KIND = 'raise UnboundLocalError / raise NameError'
SIGNATURE = 'raise UnboundLocalError / raise NameError | neg'
