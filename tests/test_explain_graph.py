"""explain().graph(): the picture of what compiled (issue 52)."""
import warnings
import xml.etree.ElementTree as ET

import numpy as np

import transpiler as tp
from transpiler.explain import Explanation, ExplainRow
from transpiler.errors import Origin


def _split(X, settings):
    out = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        out[i] = X[i, 0] * 2.0
    if settings["verbose"]:
        print(settings["tag"])
    return out


def test_graph_of_a_split_function():
    f = tp.jit(_split)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        f(np.ones((4, 2)), {"tag": "t", "verbose": False})
    graph = f.explain().graph()
    text = str(graph)
    assert text.splitlines()[0] == "_split"
    assert "[compiled] loop" in text and "[python]" in text
    dot = graph.dot()
    assert dot.startswith("digraph explain {") and "root -> n0" in dot
    svg = ET.fromstring(graph.builtin_svg())
    boxes = [e for e in svg.iter() if e.tag.endswith("rect")]
    assert len(boxes) == len(graph.nodes) + 1
    assert graph._repr_svg_().lstrip().startswith("<")


def test_nesting_and_parents():
    rows = [ExplainRow("function", Origin("/a/b/x.py", 1), "python", "why /a/b/x.py:3: no"),
            ExplainRow("loop, lines 2-5", Origin("x.py", 2), "compiled", "inputs"),
            ExplainRow("  island, line 3", Origin("x.py", 3), "python", "print"),
            ExplainRow("rest of the function", None, "python", "")]
    graph = Explanation("f", rows).graph()
    assert [n[0] for n in graph.nodes] == [1, 1, 2, 1]
    assert graph.parents() == [-1, -1, 1, -1]
    assert "x.py:3: no" in graph.nodes[0][4] and "/a/b" not in graph.nodes[0][4]
