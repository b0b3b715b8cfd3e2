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
import numpy as np

from .values import Dyn, is_active, render_index


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

    def saved_text(self, emitter, array):
        """The values at the index, kept: a number, a copy, or ``_ad.saved``."""
        index = render_index(self.index, emitter.program)
        kind = emitter.index_kind(self.array, self.index) if emitter.facts is not None \
            else None
        if kind == "element":
            fact = emitter.fact(Dyn(self.old, False))
            if fact is not None and fact[2] is not np.ndarray and fact[1].kind in "biuf":
                # one type for the kept number, as its tape gives it back
                return f"np.{fact[1].name}({array}[{index}])"
            return f"{array}[{index}]"
        if kind == "basic":
            return f"{array}[{index}].copy()"
        return f"_ad.saved({array}, {emitter.render(self.index)})"

    def forward(self, emitter):
        a, index = self.array.name, render_index(self.index, emitter.program)
        kind = emitter.index_kind(self.array, self.index) if emitter.facts is not None \
            else None
        if kind is None:
            emitter.line(f"_ad.check_store_index({a}, {emitter.render(self.index)}, "
                         f"{str(self.origin)!r})", self.origin)
        emitter.line(f"{self.old} = {self.saved_text(emitter, a)}", self.origin)
        emitter.line(f"{a}[{index}] = {emitter.render(self.value)}", self.origin)
        emitter.line(f"{self.new.name} = {a}", self.origin)

    def backward(self, emitter):
        a, index = self.array.name, render_index(self.index, emitter.program)
        new = self.new.name
        if new in emitter.defined:
            g = f"g_{new}"
            if isinstance(self.value, Dyn) and self.value.active:
                taken = self.saved_text(emitter, g)
                kind = emitter.index_kind(self.array, self.index) \
                    if emitter.facts is not None else None
                if kind == "element" and emitter.scalar(self.value):
                    source = taken            # one element for one number
                elif kind == "basic" and emitter.scalar(self.value):
                    source = f"np.sum({taken})"   # one number stored into several elements
                else:
                    source = f"_ad.unbroadcast({taken}, {self.value.name})"
                emitter.accumulate(self.value.name, source, self.origin)
            emitter.make_owned(new, self.origin)
            emitter.line(f"{g}[{index}] = 0", self.origin, " (adjoint)")
            if self.array.active:
                emitter.accumulate(a, g, self.origin, transfer=True)
        emitter.line(f"{a}[{index}] = {self.old}", self.origin, " (undo)")


def store(nz, array, index, value, origin, name):
    """Normalize a store; returns the array's value after it."""
    new = Dyn(nz.program.new_name(name), array.active or is_active(value))
    new.borrowed = array.borrowed
    new.same_as = array.same_as or array
    old = nz.program.new_name("_old")
    nz.statements.append(StoreStmt(array, new, old, index, value, origin))
    return new
