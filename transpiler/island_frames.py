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

# the keyword of a value island's call holding the statement's expression, for its type
# (transpiler.islands, transpiler.analysis.scalar_types): ``x = e`` (the value of e) and
# ``x op= e`` (x's own type where x is an array updated in place, else that of ``x op e``)
VALUE_KEYWORD = "__graphjit_value__"
UPDATE_KEYWORD = "__graphjit_update__"

# True while transpiler.split checks that a region converts before any call (no argument
# types: an island's reads are typed when the region is specialized for a call).
UNTYPED_CHECK = contextvars.ContextVar("graphjit_untyped_check", default=False)


class Frame(dict):
    """The island-owned names of one region call (name -> value), looked up in the enclosing
    region call's frame (``parent``) when not its own, where that is a call of the same
    function split again (``family``: a region of a region). A name read from the parent is
    copied here; this call's values of the parent's names are written back to it when it
    ends (:func:`pop`). ``ran``: whether an
    island ran in this call (compiled code may then not run again as Python). A dict: an
    island reads and stores its names at C speed."""

    def __init__(self, islands, values, parent, family):
        super().__init__(values)
        self.islands = islands
        self.family = family
        self.parent = parent if parent is not None and parent.family is family else None
        self.borrowed = []
        self.ran = False

    def __missing__(self, name):
        frame = self.parent
        while frame is not None:
            if dict.__contains__(frame, name):
                value = dict.__getitem__(frame, name)
                dict.__setitem__(self, name, value)
                self.borrowed.append(name)
                return value
            frame = frame.parent
        raise UnboundLocalError(
            f"cannot access local variable '{name}' where it is not associated with a value")

    def __delitem__(self, name):
        if not dict.__contains__(self, name):
            raise UnboundLocalError(
                f"cannot access local variable '{name}' where it is not associated with a "
                "value")
        dict.__delitem__(self, name)

    def give_back(self):
        """Write this call's values of the parent frames' names back to them."""
        for name, value in self.items():
            frame = self.parent
            while frame is not None and not dict.__contains__(frame, name):
                frame = frame.parent
            if frame is not None:
                dict.__setitem__(frame, name, value)


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


def island_barrier():
    """Push a frame no region call chains to (a new call of a split function: its region
    frames take no parent across it); pop it with :func:`pop`."""
    return push({}, {}, object())


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
    if frame.parent is not None:
        frame.give_back()


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
            construction fixes; None: a statement, no value, or a value island.
        gives_value (bool): a value island: ``x = e`` / ``x op= e`` whose ``x`` compiled
            code reads; its value is typed where the region is specialized, by the scalar
            analysis of ``e`` (transpiler.islands.VALUE_KEYWORD), and checked when it runs.
        calls (int), seconds (float): how many times it ran and how long it took (explain()).
    """

    def __init__(self, function, origin, reads, why, slot=0, owned=(), stored=(),
                 result_kind=None, gives_value=False):
        self.family = None      # the Frame family of the function's regions (split sets it)
        self.function = function
        self.result_kind = result_kind
        self.gives_value = gives_value
        self.origin = origin
        self.reads = tuple(reads)
        self.why = why
        self.slot = slot
        self.owned = frozenset(owned)
        self.stored = frozenset(stored)
        self.reads_owned = frozenset()      # the island-owned names it reads (islands.py)
        self.calls = 0
        self.seconds = 0.0

    def run(self, *values):
        """Run the statement with ``values`` (the reads, as Python holds them)."""
        return self.run_in(_local.stack[-1], values)

    __call__ = run

    def run_in(self, frame, values):
        """Run it in region call ``frame``. (Its counts are statistics: two threads may
        lose one, never a run.)"""
        frame.ran = True
        start = _clock()
        try:
            return self.function(frame, *values)
        finally:
            self.seconds += _clock() - start
            self.calls += 1


_clock = time.perf_counter
_BOXERS = {}     # kinds string -> a converter per value (None: as compiled code boxed it)


def _boxers(kinds):
    """``(converters, expected, check)`` of a ``kinds`` string (call_island): a converter per
    read, or () where none converts; the value island's result kind after a ``|`` and its
    check (_kind_check), or None, None."""
    kinds, _, result = kinds.partition("|")
    return _converters(kinds), (result or None), (_kind_check(result) if result else None)


def _is_kind(value, kind):
    """Whether ``value`` is of type string ``kind`` exactly (transpiler.analysis.scalar_kinds:
    ``int``, ``float``, ``bool``, ``complex``, ``np:<dtype>``, ``arr:<dtype>:<ndim>``)."""
    return _kind_check(kind)(value)


def _kind_check(kind):
    """The test of :func:`_is_kind` for ``kind``, its dtype and class found once (it runs at
    each value island's call)."""
    if kind.startswith("arr:"):
        import numpy as np
        _, name, ndim = kind.split(":")
        dtype, ndim = np.dtype(name), int(ndim)
        # (native byte order, aligned, writeable: what compiled code assumes of an array)
        return lambda value: type(value) is np.ndarray and value.dtype == dtype and \
            value.ndim == ndim and value.flags.aligned and value.flags.writeable
    if kind.startswith("np:"):
        import numpy as np
        scalar = np.dtype(kind[3:]).type
        return lambda value: type(value) is scalar
    python = {"int": int, "float": float, "bool": bool, "complex": complex}.get(kind)
    return lambda value: python is not None and type(value) is python


def _converters(kinds):
    found = []
    for kind in kinds.split(";") if kinds else ():
        if kind.startswith("np:"):
            import numpy as np
            found.append(np.dtype(kind[3:]).type)
        elif kind == "bool":
            found.append(bool)
        elif kind == "int":
            found.append(int)       # (a bool where Numba unified it: Python's int)
        else:
            found.append(None)
    return tuple(found) if any(f is not None for f in found) else ()


# (transpiler.helpers.messages: the text compiled code raises for an int beyond int64)
INT_BEYOND = "int beyond int64 in compiled code (graphjit)"


def call_island(slot, kinds, values):
    """Run the island in ``slot`` of the current region call with ``values`` (a tuple, boxed
    by compiled code) converted to the Python types ``kinds`` (a string of type strings joined
    by ``;``) says; its value for compiled code (an expression island), else None.

    Raises:
        OverflowError: an int result beyond int64 (compiled code cannot hold it).
    """
    frame = _local.stack[-1]
    island = frame.islands[slot]
    found = _BOXERS.get(kinds)
    if found is None:
        found = _BOXERS[kinds] = _boxers(kinds)
    boxers, expected, check = found
    if boxers:
        values = tuple(value if convert is None else convert(value)
                       for convert, value in zip(boxers, values))
    result = island.run_in(frame, values)
    if check is not None and not check(result):
        # the scalar analysis typed the statement's value otherwise than Python computed it:
        # a graphjit bug, said at the user's line rather than converted silently
        raise TypeError(f"graphjit: the statement at {island.origin} (run as Python inside "
                        f"compiled code) gave a {type(result).__name__}"
                        f"{_shape_note(result)}, where compiled code was specialized on "
                        f"{expected!r}; please report this")
    if (island.result_kind == "int" or expected == "int") and not -2 ** 63 <= result < 2 ** 63:
        raise OverflowError(INT_BEYOND)
    return result


def _shape_note(value):
    dtype, ndim = getattr(value, "dtype", None), getattr(value, "ndim", None)
    return f" ({dtype}, {ndim}-d)" if dtype is not None and ndim is not None else ""
