"""Progress of a long first compile, on stderr: graphjit's answer to "is it hung?".

A first call transpiles and has Numba compile, which for a large network takes seconds (a
120-layer model: 24 s). When that lasts longer than ``GRAPHJIT_PROGRESS_AFTER`` seconds (3 by
default; ``0`` never reports), a line names the function while it compiles and another the
time it took; with ``tqdm`` installed, a tqdm status bar shows the elapsed time instead. Only
the outermost first call of a thread reports (a compile inside a compile is part of it).
"""
import os
import sys
import threading
import time

_DEPTH = threading.local()
_ACTIVE = set()                 # keys being compiled and reported on
_ACTIVE_LOCK = threading.Lock()


def _threshold():
    try:
        return float(os.environ.get("GRAPHJIT_PROGRESS_AFTER", "3"))
    except ValueError:
        return 3.0


class compile_progress:
    """Context manager around a first call: reports on stderr if it runs past the threshold.

    Args:
        what (str): the function, as the user knows it (``net.construct (model.py:12)``).
        key (hashable): what is being compiled; threads waiting for the same compile stay
            quiet (one report per compile, not per waiting thread).
    """

    def __init__(self, what, key=None):
        self.what = what
        self.key = key
        self._owner = False
        self._done = threading.Event()
        self._thread = None
        self._started = None
        self._shown = False
        self._bar = None

    def __enter__(self):
        depth = getattr(_DEPTH, "value", 0)
        _DEPTH.value = depth + 1
        after = _threshold()
        if depth == 0 and after > 0 and self.key is not None:
            with _ACTIVE_LOCK:
                self._owner = self.key not in _ACTIVE
                _ACTIVE.add(self.key)
        else:
            self._owner = depth == 0
        if self._owner and after > 0:
            self._started = time.monotonic()
            self._thread = threading.Thread(target=self._watch, args=(after,), daemon=True,
                                            name="graphjit-progress")
            self._thread.start()
        return self

    def __exit__(self, *exc):
        _DEPTH.value -= 1
        if self._owner and self.key is not None:
            with _ACTIVE_LOCK:
                _ACTIVE.discard(self.key)
        if self._thread is None:
            return False
        self._done.set()
        self._thread.join()
        if self._shown:
            took = time.monotonic() - self._started
            if self._bar is not None:
                self._bar.close()
            _write(f"graphjit: compiled {self.what} in {took:.1f} s\n")
        return False

    def _watch(self, after):
        if self._done.wait(after):
            return
        self._shown = True
        try:
            from tqdm import tqdm
        except ImportError:
            _write(f"graphjit: compiling {self.what} (first call; compiled code is kept for "
                   "later calls)...\n")
            return
        self._bar = tqdm(desc=f"graphjit: compiling {self.what}", bar_format="{desc} {elapsed}",
                         file=sys.stderr, leave=False)
        while not self._done.wait(0.5):
            self._bar.refresh()


def _write(text):
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed stderr must not break the call
        pass
