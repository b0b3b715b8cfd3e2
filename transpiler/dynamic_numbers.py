"""Automatic dynamic numbers: a captured or global Python float whose value changed once becomes
a runtime input of the next specialization, so one closure factory compiles once.

This is torch.compile's "automatic dynamic" (``torch._dynamo.config.automatic_dynamic_shapes``:
a size first compiled as a constant, then as a symbol once a second value is seen). graphjit
freezes a number read through a closure cell or a global into the generated code, guarded on its
value (passes/specialize/environment.py): exact and fastest, but 200 closures ``make(k)`` of one
function with different ``k`` were 200 Numba compiles. The first value seen for a code object's
cell or global stays a constant; from the second one on, that name is read at each call (a
parameter of the generated function, guarded on its type only), and every later closure made
by the factory shares that code (the generated source no longer holds the value).

Where the specialization with the runtime input does not compile (a branch on the number that
typed the code only while it was a constant: one side returns a str), the caller pins the
number static again for good and converts once more (``attempt``/``pin``, transpiler/api.py).

Only Python floats (``type(v) is float``): an int may size an array, bound a ``range`` or
index a tuple, where a constant is what lets the code compile at all; a float computes the same
whether it is a constant or a float64 parameter (both are IEEE doubles, and the analyses type a
Python float as weak by its type, not its value).
"""
import threading
import weakref

_DYNAMIC = object()
_STATIC = object()
_lock = threading.Lock()
_local = threading.local()      # .used: the (code, steps) made dynamic by this thread's attempt
# code object -> {path steps after the root (("cell", "k"),): the first value's float.hex(),
# or _DYNAMIC}; weak, so a dropped factory's code takes its entries with it
_seen = weakref.WeakKeyDictionary()


def is_dynamic(code, steps, value):
    """Whether the float ``value``, read in ``code`` through ``steps`` (a closure cell's
    ``(("cell", name),)``, a global's ``(("[]", name),)``) is a runtime input: True from the
    second distinct value (bits: ``-0.0`` and ``0.0`` differ, all NaNs are one) seen there on.

    Args:
        code (types.CodeType): the function's code, shared by every closure of one factory.
        steps (tuple): the path from the cell or globals root to the value.
        value (float): the value read now.
    """
    bits = value.hex()
    with _lock:
        seen = _seen.get(code)
        if seen is None:
            seen = _seen[code] = {}
        first = seen.setdefault(steps, bits)
        if first is _STATIC or first == bits:
            return False
        seen[steps] = _DYNAMIC
    used = getattr(_local, "used", None)
    if used is not None:
        used.append((code, steps))
    return True


class attempt:
    """``with attempt() as used:`` collects in ``used`` (a list) the numbers made runtime
    inputs by conversions on this thread inside the block."""

    def __enter__(self):
        self.outer = getattr(_local, "used", None)
        _local.used = []
        return _local.used

    def __exit__(self, *exc):
        inner, _local.used = _local.used, self.outer
        if self.outer is not None:
            self.outer.extend(inner)
        return False


def pin(used):
    """Make the numbers ``used`` (from ``attempt``) constants for good: the specialization
    that read them at run time did not compile."""
    with _lock:
        for code, steps in used:
            seen = _seen.get(code)
            if seen is not None:
                seen[steps] = _STATIC
