"""transpiler.nodes.walk / child_nodes / node_types against the standard library's ast.walk and
ast.iter_child_nodes, their reference: the same nodes (identity) in the same order, on gast and
ast trees of real code (graphjit's own modules, the test functions, the standard library's)
and on trees with missing, None and non-node fields."""
import ast
import glob
import os
import sysconfig

import gast
import pytest

from transpiler.nodes import child_nodes, node_types, walk

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STDLIB = sysconfig.get_paths()["stdlib"]
FILES = sorted(glob.glob(os.path.join(ROOT, "transpiler", "**", "*.py"), recursive=True)) + \
    sorted(glob.glob(os.path.join(ROOT, "tests", "*_functions.py"))) + \
    [os.path.join(_STDLIB, name) for name in ("ast.py", "dataclasses.py", "typing.py",
                                              "asyncio/tasks.py", "re/_parser.py")]


def _trees(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return ast.parse(text), gast.parse(text)


@pytest.mark.parametrize("path", FILES, ids=lambda p: os.path.relpath(p, ROOT))
def test_walk_is_ast_walk(path):
    for tree in _trees(path):
        expected = [id(node) for node in ast.walk(tree)]
        assert [id(node) for node in walk(tree)] == expected
        assert node_types(tree) == {type(node) for node in ast.walk(tree)}


@pytest.mark.parametrize("path", FILES[:40], ids=lambda p: os.path.relpath(p, ROOT))
def test_child_nodes_is_iter_child_nodes(path):
    for tree in _trees(path):
        for node in ast.walk(tree):
            assert [id(c) for c in child_nodes(node)] == \
                [id(c) for c in ast.iter_child_nodes(node)]


def test_missing_none_and_foreign_fields():
    # a field never set, a None field, a list holding non-nodes beside nodes
    call = ast.Call(func=ast.Name(id="f", ctx=ast.Load()), args=[ast.Constant(1), 2, None])
    if hasattr(call, "keywords"):    # Python 3.13 fills a missing list field with []
        del call.keywords
    ret = ast.Return(value=None)
    module = ast.Module(body=[ast.Expr(value=call), ret], type_ignores=[])
    assert [id(n) for n in walk(module)] == [id(n) for n in ast.walk(module)]
    for node in ast.walk(module):
        assert [id(c) for c in child_nodes(node)] == [id(c) for c in ast.iter_child_nodes(node)]


def test_walk_collects_children_before_yielding():
    # as ast.walk: children are taken when their parent is reached, so a caller replacing a
    # node's field after it was yielded still sees the old children
    tree = gast.parse("x = a + b")
    seen = []
    for node in walk(tree):
        seen.append(type(node).__name__)
        if isinstance(node, gast.Assign):
            node.value = gast.Constant(value=1, kind=None)
    expected = []
    tree = gast.parse("x = a + b")
    for node in ast.walk(tree):
        expected.append(type(node).__name__)
        if isinstance(node, gast.Assign):
            node.value = gast.Constant(value=1, kind=None)
    assert seen == expected


@pytest.mark.parametrize("path", FILES[::7], ids=lambda p: os.path.relpath(p, ROOT))
def test_copy_tree_is_deepcopy(path):
    # transpiler.nodes.copy_tree against copy.deepcopy, its reference: the same tree (dump,
    # locations, annotations of every kind), no node or mutable value shared with the original
    import copy
    from transpiler.nodes import copy_tree
    tree = _trees(path)[1]
    for i, node in enumerate(walk(tree)):
        node.live_out = frozenset({"a", str(i)})   # annotations, as the analyses leave them
        node.notes = {"index": [i]}
    expected, copied = copy.deepcopy(tree), copy_tree(tree)
    assert ast.dump(gast.gast_to_ast(copied), include_attributes=True) == \
        ast.dump(gast.gast_to_ast(expected), include_attributes=True)
    for old, new, ref in zip(walk(tree), walk(copied), walk(expected)):
        assert new is not old and type(new) is type(old) is type(ref)
        assert new.__dict__.keys() == ref.__dict__.keys()
        assert new.live_out == old.live_out and new.notes == old.notes
        assert new.notes is not old.notes and new.notes["index"] is not old.notes["index"]


def test_copy_tree_copies_a_shared_node_once():
    # as deepcopy's memo: a node met twice in the tree is one node in the copy too
    import copy
    from transpiler.nodes import copy_tree
    shared = gast.Name(id="x", ctx=gast.Load(), annotation=None, type_comment=None)
    tree = gast.BinOp(left=shared, op=gast.Add(), right=shared)
    for copied in (copy_tree(tree), copy.deepcopy(tree)):
        assert copied.left is copied.right and copied.left is not shared
    items = [shared, [shared]]
    copied = copy_tree(items)
    assert copied[0] is copied[1][0] is not shared
