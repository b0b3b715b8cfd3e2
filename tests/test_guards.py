"""transpiler.guards: one guard text for the generated ``_prepare`` and the dispatcher."""
import numpy as np
import pytest

from transpiler.analysis.paths import Path
from transpiler.guards import failed_condition, holds
from transpiler.program import Forgotten, Guard
from transpiler.type_keys import type_key

SELF = Path(((("self",)),))
LAYERS = [object(), object()]
ARRAY = np.zeros((2, 3), np.float32)

CASES = [
    (Guard(SELF, "eq", 1.0), [(1.0, True), (2.0, False), (np.float64(1.0), False),
                              (float("nan"), False), (1, False)]),
    (Guard(SELF, "eq", float("nan")), [(float("nan"), True), (1.0, False)]),
    (Guard(SELF, "eq", 0.0), [(0.0, True), (-0.0, False), (0, False)]),
    (Guard(SELF, "eq", -0.0), [(-0.0, True), (0.0, False)]),
    (Guard(SELF, "eq", complex(1, 0.0)), [(complex(1, 0.0), True), (complex(1, -0.0), False)]),
    (Guard(SELF, "eq", 3), [(3, True), (True, False), (3.0, False)]),
    (Guard(SELF, "is", LAYERS), [(LAYERS, True), (list(LAYERS), False)]),
    (Guard(SELF, "len", LAYERS), [(LAYERS, True), (list(LAYERS), False)]),
    (Guard(SELF, "type", float), [(2.5, True), (np.float64(2.5), False)]),
    (Guard(SELF, "type_sign", (int, True)), [(3, True), (-3, False), (3.0, False)]),
    (Guard(SELF, "array", (2, "float32")), [(ARRAY, True), (ARRAY[0], False),
                                            (ARRAY.astype(np.float64), False)]),
    (Guard(SELF, "typekey", type_key((ARRAY, 1))), [((ARRAY + 1, 5), True),
                                                    ((ARRAY, 1.0), False), ((ARRAY,), False),
                                                    ([ARRAY, 1], False)]),
]


@pytest.mark.parametrize("guard,values", CASES, ids=lambda c: getattr(c, "kind", ""))
def test_holds_is_the_generated_condition(guard, values):
    constants = []

    def const(obj):
        constants.append(obj)
        return f"K[{len(constants) - 1}]"

    text = failed_condition(guard, "v", const)
    for value, expected in values:
        assert holds(guard, value) is expected, (guard.kind, value)
        try:
            failed = eval(text, {"K": constants, "v": value})   # what _prepare runs
        except Exception:   # noqa: BLE001 - _prepare: a guard that cannot be read fails
            failed = True
        assert (not failed) is expected, (guard.kind, value)


def test_structural_guard_checks_type_and_length_even_forgotten():
    guard = Guard(SELF, "is", [1, 2])
    assert holds(guard, [3, 4], structural=True)
    assert not holds(guard, [3], structural=True)
    assert not holds(guard, (3, 4), structural=True)
    guard.expected = Forgotten(guard.expected)
    assert holds(guard, [5, 6], structural=True)
    assert not holds(guard, [5, 6, 7], structural=True)


def test_a_global_that_turns_into_negative_zero_is_seen():
    """``Z = 0.0`` read as a constant: set to -0.0 the guard fails (0.0 == -0.0, the sign is
    not the same), so the next call gives plain's -1.0, never the stale 1.0."""
    import guard_globals as G
    import transpiler as tp
    f = tp.jit(G.sign_of_global)
    G.Z = 0.0
    assert f(2.0) == G.sign_of_global(2.0) == 2.0
    G.Z = -0.0
    assert f(2.0) == G.sign_of_global(2.0) == -2.0
    G.Z = 0.0
