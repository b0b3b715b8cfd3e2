"""Which local variables always hold Python numbers (never NumPy scalars or arrays).

NumPy 2's promotion rules (NEP 50) treat Python ints and floats as *weak*: only where a Python
number meets an array or a NumPy scalar does the converter need ``weak(...)`` (see
transpiler.ir.weak). A variable is a Python number when every assignment to it gives one:
an int/float literal, another such variable, arithmetic of them, ``len``/``int``/``float``/
``round``/``abs``/``min``/``max`` of them, or the target of ``for ... in range(...)``.
Parameters are not (a caller may pass anything). A greatest fixpoint over the assignments.
"""
import gast

_PY_CALLS = {"len": "any", "int": "any", "float": "any", "round": "py", "abs": "py",
             "min": "py", "max": "py"}


def python_number_vars(fdef, local_vars, seeds=()):
    """The subset of ``local_vars`` that always hold Python numbers in ``fdef``; ``seeds`` are
    parameters known to be called with Python numbers (the specialization is guarded on it)."""
    definitions = {}
    params = {a.id for a in fdef.args.args}
    for node in gast.walk(fdef):
        if isinstance(node, gast.Assign):
            for target in node.targets:
                for name in _names(target):
                    value = node.value if isinstance(target, gast.Name) else None
                    definitions.setdefault(name, []).append(value)
        elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
            definitions.setdefault(node.target.id, []).append(
                gast.BinOp(left=node.target, op=node.op, right=node.value))
        elif isinstance(node, (gast.For, gast.comprehension)):
            ranged = _is_range(node.iter)
            for name in _names(node.target):
                definitions.setdefault(name, []).append("range" if ranged else None)
        elif isinstance(node, gast.AnnAssign) and isinstance(node.target, gast.Name):
            definitions.setdefault(node.target.id, []).append(node.value)
    candidates = {n for n in definitions if n in local_vars and n not in params}
    candidates |= set(seeds)
    for seed in seeds:
        definitions.setdefault(seed, [])
    changed = True
    while changed:
        changed = False
        for name in sorted(candidates):
            if not all(d == "range" or is_python_number(d, candidates)
                       for d in definitions[name]):
                candidates.discard(name)
                changed = True
    return candidates


def is_python_number(node, py_vars):
    """Whether expression ``node`` always gives a Python int/float (see the module doc)."""
    if node is None:
        return False
    if isinstance(node, gast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, gast.Name):
        return node.id in py_vars
    if isinstance(node, gast.BinOp):
        return is_python_number(node.left, py_vars) and is_python_number(node.right, py_vars)
    if isinstance(node, gast.UnaryOp) and not isinstance(node.op, gast.Not):
        return is_python_number(node.operand, py_vars)
    if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
            node.func.id in _PY_CALLS and not node.keywords:
        kind = _PY_CALLS[node.func.id]
        return kind == "any" or all(is_python_number(a, py_vars) for a in node.args)
    return False


def _names(target):
    """Names bound by an assignment target (not those read in ``a[i] = ...``'s index)."""
    return [n.id for n in gast.walk(target) if isinstance(n, gast.Name)
            and isinstance(n.ctx, gast.Store)]


def _is_range(node):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
        node.func.id == "range"
