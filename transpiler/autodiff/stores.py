"""Stores ``a[index] = value`` into local arrays, differentiated in place (an undo log).

The forward sweep writes into the array as the plain code does (no copy of the array per
store: a loop of element stores stays linear), after keeping the values it overwrites
(``_ad.saved``). The backward sweep, at the store, takes the stored elements' gradient for
``value``, zeroes them in the array's gradient (their old values no longer reach the result)
and writes the kept values back: the adjoints visited after it (the code before the store)
read the array as it was when they ran. A store into the function's own argument writes into a
copy made before (the gradient never mutates its arguments); a store into a view of another
live array is refused (normalize.py).
"""
from .values import Dyn, is_active


class StoreStmt:
    """``array[index] = value``; ``new`` names the array after the store (the same object),
    ``old`` the overwritten values."""

    def __init__(self, array, new, old, index, value, origin):
        self.array, self.new, self.old = array, new, old
        self.index, self.value, self.origin = index, value, origin

    def children(self):
        return []

    def targets(self):
        return [self.new.name, self.old]

    def forward(self, emitter):
        a, index = self.array.name, emitter.render(self.index)
        emitter.line(f"{self.old} = _ad.saved({a}, {index})", self.origin)
        emitter.line(f"{a}[{index}] = {emitter.render(self.value)}", self.origin)
        emitter.line(f"{self.new.name} = {a}", self.origin)

    def backward(self, emitter):
        a, index = self.array.name, emitter.render(self.index)
        new = self.new.name
        if new in emitter.defined:
            g = f"g_{new}"
            if isinstance(self.value, Dyn) and self.value.active:
                emitter.accumulate(self.value.name,
                                   f"_ad.unbroadcast(_ad.saved({g}, {index}), "
                                   f"{self.value.name})", self.origin)
            emitter.make_owned(new, self.origin)
            emitter.line(f"{g}[{index}] = 0", self.origin, " (adjoint)")
            if self.array.active:
                emitter.accumulate(a, g, self.origin, transfer=True)
        emitter.line(f"{a}[{index}] = {self.old}", self.origin, " (undo)")


def store(nz, array, index, value, origin, name):
    """Normalize a store; returns the array's value after it."""
    new = Dyn(nz.program.new_name(name), array.active or is_active(value))
    new.borrowed = array.borrowed
    old = nz.program.new_name("_old")
    nz.statements.append(StoreStmt(array, new, old, index, value, origin))
    return new
