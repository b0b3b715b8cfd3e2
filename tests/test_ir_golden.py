"""Golden file: ``f.ir()`` of a function with a break in a nested loop and an early return.

To update after an intended change: ``python tests/test_ir_golden.py`` rewrites the golden
file; review the diff like code.
"""
import os
import sys

import numpy as np

import transpiler as tp
from golden_source import find_pair

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "find_pair.ir.py")


def current_ir():
    compiled = tp.jit(find_pair, backend="eager", fullgraph=True)
    return compiled, compiled.ir()


def test_ir_matches_golden_file():
    _, text = current_ir()
    with open(GOLDEN) as handle:
        assert text == handle.read()


def test_ir_is_runnable_and_agrees_with_plain_python():
    _, text = current_ir()
    namespace = {}
    exec(compile(text, GOLDEN, "exec"), namespace)
    for a, target in [(np.array([1, 2, -1, 4, 5]), 9), (np.array([1, 2, -1, 4, 5]), 100),
                      (np.array([3, 3]), 6), (np.array([], dtype=np.int64), 1)]:
        assert namespace["find_pair"](a, target) == find_pair(a, target)


def test_ir_has_no_jumps_left():
    _, text = current_ir()
    code = [line.split("#")[0] for line in text.splitlines()]
    assert not any(line.strip() in ("break", "continue") for line in code)
    top_level_returns = [line for line in code if line.startswith("    return")]
    assert top_level_returns == ["    return retval  "]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    with open(GOLDEN, "w") as handle:
        handle.write(current_ir()[1])
