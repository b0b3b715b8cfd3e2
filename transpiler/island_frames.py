"""Python islands inside compiled loops: the statement that compiled code cannot run exactly
runs as Python *from inside* the compiled loop, and the loop around it stays compiled.

transpiler.split makes them: a loop region that does not convert because of one simple
statement (``C[j] = X[m].mean(axis=0)``, ``log.append(f"...")``, ``d[key] = v`` of a dict)
gets that statement replaced by a call of an :class:`Island`; the island's function is the
statement itself, compiled as Python in the user's globals. The values the island reads that
compiled code holds (arrays, numbers) are its arguments, boxed as Python would hold them (an
``np.float64`` stays one: ``kinds``). The names only islands use (a dict or list argument,
a string the island builds) never enter compiled code: they live in a :class:`Frame`, pushed
by the region's call on a per-thread stack and read by the islands of that call.

This module is the Python side, shared by the plain form (transpiler.ir.python_island) and
the compiled one (backends/runtime/islands.py, a Numba intrinsic that calls
:func:`call_island` with the GIL held).
"""
import contextvars
import threading
import time

_local = threading.local()

# True while transpiler.split checks that a region converts before any call (no argument
# types: an island's reads are typed when the region is specialized for a call).
UNTYPED_CHECK = contextvars.ContextVar("graphjit_untyped_check", default=False)


class Frame:
    """The island-owned names of one region call: ``values`` (name -> value), looked up in
    the enclosing region call's frame (``parent``) when not its own, where that is a call of
    the same function split again (``family``: a region of a region); a store goes to the
    frame that holds the name, else to this one. ``ran``: whether an island ran in this call
    (compiled code may then not run again as Python)."""

    def __init__(self, islands, values, parent, family):
        self.islands = islands
        self.values = values
        self.family = family
        self.parent = parent if parent is not None and parent.family is family else None
        self.ran = False

    def __getitem__(self, name):
        frame = self
        while frame is not None:
            if name in frame.values:
                return frame.values[name]
            frame = frame.parent
        raise UnboundLocalError(
            f"cannot access local variable '{name}' where it is not associated with a value")

    def __setitem__(self, name, value):
        frame = self
        while frame is not None:
            if name in frame.values:
                frame.values[name] = value
                return
            frame = frame.parent
        self.values[name] = value

    def __delitem__(self, name):
        frame = self
        while frame is not None:
            if name in frame.values:
                del frame.values[name]
                return
            frame = frame.parent
        raise UnboundLocalError(
            f"cannot access local variable '{name}' where it is not associated with a value")

    def get(self, name, default=None):
        try:
            return self[name]
        except UnboundLocalError:
            return default


def _stack():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def push(islands, values, family):
    """Enter a region call whose code calls ``islands`` (slot -> Island) with the
    island-owned ``values`` (dict); ``family``: the object shared by the regions of one
    function, split again and again. Returns its Frame."""
    stack = _stack()
    frame = Frame(islands, values, stack[-1] if stack else None, family)
    stack.append(frame)
    return frame


def current_frame():
    """The Frame of the current region call."""
    return _stack()[-1]


def islands_ran():
    """Whether an island ran in the current region call (False outside any)."""
    stack = _stack()
    return bool(stack) and stack[-1].ran


def pop(frame):
    """Leave the region call of ``frame`` (pushed by :func:`push`)."""
    stack = _stack()
    if stack and stack[-1] is frame:
        stack.pop()


class Island:
    """One statement run as Python inside compiled code.

    Attributes:
        function: ``function(frame, *reads)``, the statement (its island-owned names read
            and stored through the frame).
        origin (Origin): the statement's place in the user's file.
        reads (tuple[str]): the names compiled code passes it, in order.
        why (str): why it cannot be compiled (the converter's reason).
        slot (int): its index in the region's table (what compiled code names it by).
        owned (frozenset[str]), stored (frozenset[str]): the island-owned names it uses
            (read and stored through the frame) and the names it stores.
        result_kind (str | None): the type string of the value it gives compiled code (an
            expression island: ``int(s[j])``, an ``if`` test made ``bool``), one its
            construction fixes; None: a statement, no value.
        calls (int), seconds (float): how many times it ran and how long it took (explain()).
    """

    def __init__(self, function, origin, reads, why, slot=0, owned=(), stored=(),
                 result_kind=None):
        self.family = None      # the Frame family of the function's regions (split sets it)
        self.function = function
        self.result_kind = result_kind
        self.origin = origin
        self.reads = tuple(reads)
        self.why = why
        self.slot = slot
        self.owned = frozenset(owned)
        self.stored = frozenset(stored)
        self.reads_owned = frozenset()      # the island-owned names it reads (islands.py)
        self.calls = 0
        self.seconds = 0.0
        self._lock = threading.Lock()

    def run(self, *values):
        """Run the statement with ``values`` (the reads, as Python holds them)."""
        frame = _stack()[-1]
        frame.ran = True
        start = time.perf_counter()
        try:
            return self.function(frame, *values)
        finally:
            spent = time.perf_counter() - start
            with self._lock:
                self.calls += 1
                self.seconds += spent

    __call__ = run


def box(kind, value):
    """``value`` as Python holds a value of type string ``kind`` (analysis.scalar_types):
    compiled code boxes an np.float64 as a float, an np.int64 as an int."""
    if kind.startswith("np:"):
        import numpy as np      # (imported by then: compiled code holds NumPy values)
        return np.dtype(kind[3:]).type(value)
    if kind == "int" and type(value) is bool:
        return int(value)
    if kind == "bool":
        return bool(value)
    return value


# (transpiler.helpers.messages: the text compiled code raises for an int beyond int64)
INT_BEYOND = "int beyond int64 in compiled code (graphjit)"


def call_island(slot, kinds, values):
    """Run the island in ``slot`` of the current region call with ``values`` (a tuple, boxed
    by compiled code) converted to the Python types ``kinds`` (a string of type strings joined
    by ``;``) says; its value for compiled code (an expression island), else None.

    Raises:
        OverflowError: an int result beyond int64 (compiled code cannot hold it).
    """
    frame = _stack()[-1]
    if kinds:
        values = tuple(box(kind, value) for kind, value in zip(kinds.split(";"), values))
    island = frame.islands[slot]
    result = island.run(*values)
    if island.result_kind == "int" and not -2 ** 63 <= result < 2 ** 63:
        raise OverflowError(INT_BEYOND)
    return result
