"""Which of graphjit's helpers the Numba backend inlines at Numba's IR level
(``inline='always'``, Numba docs "Notes on inlining") and which it compiles as functions of
their own, called.

Inlining spares a helper a dispatcher and a compile of its own (tens of ms each at a cold first
call). But Numba copies the helper's IR into every call site and types it again there, and
helpers nest: the reductions' ``numpy_var`` holds ``numpy_mean``, ``_flat`` and NumPy's pairwise
sum, so a function taking ``a.var()``, ``np.std(a)``, ``a.var(ddof=1)`` and ``a.mean()`` of one
array, all inlined, held nine copies of the pairwise loop: 18-26 s to its first call here;
3-3.2 s with the large helpers compiled once (4.3-4.8 s when only those with a loop were).
So a helper is inlined where it is small, or where its code lands in one place only anyway.
The calls of the others pass their arguments through ``nonliteral``
(backends/runtime/nonliteral.py), so that constant arguments do not make Numba compile the
helper once per combination of their values.
"""
import gast

from transpiler.nodes import walk

# A helper of at most this many gast nodes (its functional form) is always inlined: NEP 50's
# weak operators and Python's division are 16-40; the reductions' block sum 753, _flat 343.
SMALL = 120


def inlined_helpers(functions, never=frozenset()):
    """The helpers among ``functions`` to inline into their callers.

    Args:
        functions (list[transpiler.program.GeneratedFunction]): a program's functions (each
            call of one is a reference among its symbol's ``nodes``).
        never (frozenset[str]): qualified names of helpers never inlined
            (transpiler.helpers.NOT_INLINED).

    Returns:
        set[int]: ``id()`` of each helper to inline: one of at most :data:`SMALL` nodes, or
        one whose code would be compiled into one place only (one call, in a function that is
        itself compiled once).
    """
    callee_of = {}      # id(reference node) -> the function it names
    for fn in functions:
        for node in fn.symbol.nodes:
            if not isinstance(node, gast.FunctionDef):
                callee_of[id(node)] = fn
    callers = {id(fn): [] for fn in functions}     # one entry per reference
    sizes = {}
    for fn in functions:
        size = 0
        for node in walk(fn.node):
            size += 1
            callee = callee_of.get(id(node))
            if callee is not None:
                callers[id(callee)].append(fn)
        sizes[id(fn)] = size
    decided = {}    # id(fn) -> whether it is inlined

    def inlined(fn, active=frozenset()):
        if id(fn) not in decided:
            if not fn.is_helper or fn.qualname in never or id(fn) in active:
                return False        # (a helper reached again through its callers: recursion)
            decided[id(fn)] = sizes[id(fn)] <= SMALL or copies(fn, active | {id(fn)}) <= 1
        return decided[id(fn)]

    def copies(fn, active):
        """How many places ``fn``'s code is compiled into: one per call in a function compiled
        on its own, as many per call as an inlined caller has copies."""
        return sum(copies(caller, active) if inlined(caller, active) else 1
                   for caller in callers[id(fn)])

    return {id(fn) for fn in functions if inlined(fn)}
