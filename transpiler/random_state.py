"""NumPy's global random state carried into compiled code and back.

Numba's ``np.random`` functions draw from Numba's own MT19937 state, not NumPy's: after
``np.random.seed(0)`` a compiled ``np.random.random()`` gave another number than the plain call,
and the plain draws after it did not continue the sequence. A specialization whose code uses
``np.random`` copies NumPy's legacy global state (``np.random.get_state()``: the 624 keys and the
position) into Numba's (``numba._helperlib.rnd_set_state`` on ``rnd_get_np_state_ptr()``) before
the call, and Numba's back into NumPy's after it, so the compiled call draws exactly the numbers
the plain one would and leaves the state where it would.

Only functions whose Numba implementation consumes the generator as NumPy's legacy
``RandomState`` does are compiled (``EXACT``: checked draw for draw in tests/test_random.py);
the others fall back. Gaussian draws are not among them: NumPy caches the second value of each
pair in its state, and Numba's cache cannot be read or set from Python.
"""
import threading

# np.random functions whose compiled draws equal NumPy's legacy RandomState draw for draw.
EXACT = frozenset({"random", "random_sample", "rand", "ranf", "sample", "uniform", "seed"})

_LOCK = threading.RLock()   # one call at a time moves the state across (NumPy's is global)


def _pointer():
    from numba import _helperlib
    return _helperlib, _helperlib.rnd_get_np_state_ptr()


def enter():
    """Copy NumPy's global state into Numba's; returns a token for :func:`leave`. Holds a
    lock until then (the state is global: two calls must not interleave their moves)."""
    import numpy as np
    _LOCK.acquire()
    try:
        helper, pointer = _pointer()
        state = np.random.get_state(legacy=True)
        helper.rnd_set_state(pointer, (int(state[2]), [int(k) for k in state[1]]))
    except BaseException:
        _LOCK.release()
        raise
    return state


def leave(token, restore=False, seeded=False):
    """Copy Numba's state back into NumPy's global one (NumPy's Gaussian cache as it was: the
    compiled functions in ``EXACT`` never use it; ``seeded``: the call may have seeded, which
    empties the cache as NumPy's ``seed`` does); with ``restore``, put back the state from
    before the call instead (the call then runs again as Python)."""
    import numpy as np
    try:
        if restore:
            np.random.set_state(token)
            return
        helper, pointer = _pointer()
        position, keys = helper.rnd_get_state(pointer)
        has_gauss, gauss = (0, 0.0) if seeded else (token[3], token[4])
        np.random.set_state(("MT19937", np.array(keys, dtype=np.uint32), position, has_gauss,
                             gauss))
    finally:
        _LOCK.release()
