"""Worker processes that check programs, so that a crash or a hang costs one program only.

Compiled code can hang (a loop that terminates in Python but not in Numba) or crash the process
(Numba does not check bounds), and nothing inside the process can stop it; the parent gives every
task a deadline, kills a worker that passes it or dies, and starts a new one. Workers are also
replaced every ``recycle`` tasks, which bounds the memory Numba keeps for compiled functions.

    with Pool(jobs=2) as pool:
        for task_id, result in pool.imap([(0, task0), (1, task1)]):
            ...

A task is a dict: ``{"source": str, "name": str, "inputs": [tuple, ...]}`` (optionally
``history``: more tuples for the same jitted object, ``plain_limit``, ``timeout``); a result
is check.check_source's dict, or ``{"status": "timeout"}`` / ``{"status": "crash"}`` when the
worker did not answer.
"""
import multiprocessing
import os
import shutil
import tempfile
import time
import traceback
from multiprocessing.connection import wait

TASK_TIMEOUT_S = 60.0


def _worker_main(conn, folder):
    os.environ["GRAPHJIT_CACHE_DIR"] = os.path.join(folder, f"cache-{os.getpid()}")
    os.environ.pop("GRAPHJIT_FULLGRAPH", None)
    os.environ.pop("GRAPHJIT_DISABLE", None)
    os.environ.pop("GRAPHJIT_CACHE", None)
    from .check import PLAIN_LIMIT_S, check_source
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            result = check_source(task["source"], task.get("name", "f"), task["inputs"], folder,
                                  plain_limit=task.get("plain_limit", PLAIN_LIMIT_S),
                                  history=task.get("history", ()))
        except BaseException:  # noqa: BLE001 - report the fuzzer's own failure, keep going
            result = {"status": "error", "why": traceback.format_exc(limit=8), "fallbacks": []}
        try:
            conn.send(result)
        except Exception:  # noqa: BLE001 - an unpicklable result
            conn.send({"status": "error", "why": "unpicklable result", "fallbacks": []})


class _Worker:
    def __init__(self, ctx, folder):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, folder), daemon=True)
        self.process.start()
        child.close()
        self.done = 0
        self.task_id = None
        self.deadline = None

    def send(self, task_id, task, timeout):
        self.task_id = task_id
        self.deadline = time.monotonic() + timeout
        self.conn.send(task)

    def stop(self, kill=False):
        try:
            if kill:
                self.process.kill()
            else:
                self.conn.send(None)
        except Exception:  # noqa: BLE001 - already gone
            pass
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class Pool:
    """``jobs`` worker processes (spawned: a clean interpreter each); see the module docstring.

    Programs and generated modules are written under a fresh folder in the system temp dir
    (``/tmp/graphjit-fuzz-*``), removed by close().
    """

    def __init__(self, jobs=None, timeout=TASK_TIMEOUT_S, recycle=250):
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.timeout = timeout
        self.recycle = recycle
        self.folder = tempfile.mkdtemp(prefix="graphjit-fuzz-")
        self._ctx = multiprocessing.get_context("spawn")
        self._workers = []
        self.restarts = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        for worker in self._workers:
            worker.stop(kill=worker.task_id is not None)
        self._workers = []
        shutil.rmtree(self.folder, ignore_errors=True)

    def _idle_worker(self):
        for index, worker in enumerate(self._workers):
            if worker.task_id is None:
                if worker.done >= self.recycle:
                    worker.stop()
                    self._workers[index] = worker = _Worker(self._ctx, self.folder)
                return worker
        if len(self._workers) < self.jobs:
            worker = _Worker(self._ctx, self.folder)
            self._workers.append(worker)
            return worker
        return None

    def _replace(self, worker):
        worker.stop(kill=True)
        self.restarts += 1
        self._workers[self._workers.index(worker)] = _Worker(self._ctx, self.folder)

    def imap(self, tasks):
        """Yield (task_id, result) for an iterable of (task_id, task), in completion order."""
        tasks = iter(tasks)
        exhausted = False
        while True:
            while not exhausted:
                worker = self._idle_worker()
                if worker is None:
                    break
                try:
                    task_id, task = next(tasks)
                except StopIteration:
                    exhausted = True
                    break
                worker.send(task_id, task, task.get("timeout", self.timeout))
            busy = [w for w in self._workers if w.task_id is not None]
            if not busy:
                return
            now = time.monotonic()
            wait_s = max(0.0, min(w.deadline for w in busy) - now)
            ready = wait([w.conn for w in busy], timeout=wait_s)
            for worker in busy:
                task_id = worker.task_id
                if worker.conn in ready:
                    try:
                        result = worker.conn.recv()
                    except (EOFError, OSError):
                        code = worker.process.exitcode
                        worker.process.join(timeout=5)
                        code = worker.process.exitcode if code is None else code
                        result = {"status": "crash", "why": f"worker exit code {code}",
                                  "fallbacks": []}
                        worker.task_id = None
                        self._replace(worker)
                        yield task_id, result
                        continue
                    worker.task_id = None
                    worker.done += 1
                    yield task_id, result
                elif time.monotonic() >= worker.deadline:
                    worker.task_id = None
                    self._replace(worker)
                    yield task_id, {"status": "timeout", "fallbacks": [],
                                    "why": f"no answer within {self.timeout:.0f} s"}

    def run(self, tasks):
        """Results of a list of tasks, in order (all workers busy at once)."""
        results = [None] * len(tasks)
        for index, result in self.imap(enumerate(tasks)):
            results[index] = result
        return results
