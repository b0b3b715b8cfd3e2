"""Assembling the generated module: the adjoint pass (adjoint.py) run over the whole program,
the result's seed, the returned gradients in their inputs' types, the tapes' creation; the
facts (shapes, dtypes, types) a first run recorded, and which of them may be written into
the specialized code."""
import os
import re

import numpy as np

from .adjoint import Emitter, _typed
from .values import Dyn, Op, Static, Tup, reads, stores_in, walk_statements


def facts_of(values):
    """(shape, dtype, type, is_view, ndim) of each value a run left in its locals (the
    probe)."""
    out = {}
    for name, v in values.items():
        if isinstance(v, (np.ndarray, np.generic, float, int, complex, bool)):
            out[name] = (np.shape(v), np.result_type(v), type(v),
                         isinstance(v, np.ndarray) and (v.base is not None
                                                        or not v.flags.writeable), np.ndim(v))
    return out


def _seed(emitter, result, where):
    """The backward sweep's first line: the result's gradient, one."""
    if isinstance(result, Tup):
        raise TypeError(f"{where}: grad needs a function whose result is a real floating "
                        f"scalar, this one returns a {result.kind} of {len(result.items)} "
                        "(has_aux=True takes (value, aux))")
    name = emitter.render(result)
    fact = emitter.fact(result) if isinstance(result, Dyn) else None
    if fact is None or not isinstance(result, Dyn) or not result.active:
        emitter.line(f"g_{name} = _ad.seed({name}, {where!r})" if isinstance(result, Dyn)
                     else f"_ad.seed({name}, {where!r})", result_origin(emitter))
    else:
        emitter.line(f"g_{name} = {_typed('1.0', fact)}", result_origin(emitter), " (adjoint)")
    if isinstance(result, Dyn) and result.active:
        emitter.defined.add(result.name)


def result_origin(emitter):
    return emitter.program.result_origin


def _final(emitter, value, shared):
    """The returned gradient of ``value``: its own type and an array the caller owns."""
    fact = emitter.fact(value)
    gfact = emitter.facts.get(f"g_{value.name}") if emitter.facts else None
    if value.name not in emitter.defined:
        if fact is None:
            return f"_ad.zeros_like({value.name})"
        return _typed("0.0", fact)
    g = f"g_{value.name}"
    if fact is None or gfact is None:
        return g      # _ad.finish makes it right at run time
    shape, dtype, kind = fact[:3]
    if kind is float:
        return f"float({g})"
    if kind is np.ndarray and gfact[2] is not np.ndarray:     # a 0-d array's gradient
        return f"np.array({g}, dtype=np.{dtype.name})"
    if gfact[1] != dtype or gfact[2] is not kind and kind is not np.ndarray:
        g = f"np.asarray({g}).astype(np.{dtype.name})" + ("[()]" if kind is not np.ndarray
                                                           else "")
    elif kind is np.ndarray and (f"g_{value.name}" not in emitter.owned or shared):
        g = f"{g}.copy()"
    if kind is np.ndarray and gfact[0] != shape:
        g = f"np.broadcast_to({g}, {shape!r}).copy()"
    return g


def generate(program, wrt, has_aux, facts=None, sgd=0, value=True):
    """Source of the module computing the value and the gradients.

    Args:
        program: the normalized function.
        wrt (list[Dyn]): the values to differentiate with respect to (parameters, then
            weights), in the order the gradients are returned.
        has_aux (bool): the function returns ``(value, aux)``.
        facts (dict | None): shapes, dtypes and types of the SSA values and gradients seen by
            a first run (:func:`facts_of`): the adjoints are then written with static axes and
            no run-time helper where possible (NumPy calls only: the NumPy graph can run and
            fuse them). None: the generic code, which takes a last argument ``_probe`` (a
            dict or None) that it fills with its locals.
        sgd (int): the last ``sgd`` values of ``wrt`` are weights updated in place by SGD,
            ``w -= _lr * grad`` (the function takes ``_lr`` last and returns no gradient for
            them); a weight whose gradient is one product ``a.T @ b`` is updated by one BLAS
            gemm into the weight (``_ad.sgd_gemm``: the gradient is never materialized).

        value (bool): return the value (``value_and_grad``); False: None in its place (a
            value whose type depends on the path taken, a Python float or an np.float64 by
            the trip count, would keep the compilers from compiling the gradient).

    Returns:
        tuple[str, str]: the module source and the function's name. The function takes the
        runtime parameters, then the arrays read from Cells, and returns
        ``(value, aux, grads)`` (``aux`` None without has_aux).
    """
    if facts is not None:
        # shapes inside loops may change from one iteration to the next: no static facts
        static = _shape_static(program, facts) - _loop_names(program.body)
        by_path = _path_dependent(program.body, _kind_changing(program.body, facts))
        facts = {k: (v if k in static or (k.startswith("g_") and k[2:] in static)
                     else (None,) + v[1:]) for k, v in facts.items()
                 if (k[2:] if k.startswith("g_") else k) not in by_path}
    # a first emission finds what each loop's backward reads (the tapes), the second writes
    _emit(program, wrt, has_aux, facts)
    emitter, value_text, aux = _emit(program, wrt, has_aux, facts)
    if facts is None:
        grads = [f"g_{v.name}" if v.name in emitter.defined else "None" for v in wrt]
        emitter.line("if _probe is not None:")     # the gradients' facts
        emitter.line("    _probe.update((k, v) for k, v in locals().items() if k[:2] == 'g_')")
        out = (f"_ad.finish(({', '.join(grads)},), ({', '.join(v.name for v in wrt)},))"
               if wrt else "()")
    else:
        kept = wrt[:len(wrt) - sgd]
        roots = [emitter.alias.get(f"g_{v.name}", f"g_{v.name}") if v.name in emitter.defined
                 else None for v in kept]
        finals = [_final(emitter, v, roots.count(roots[k]) > 1 and roots[k])
                  for k, v in enumerate(kept)]
        out = "(" + ", ".join(finals) + ",)" if finals else "()"
        if sgd:
            _sgd_updates(emitter, wrt[len(wrt) - sgd:])
    emitter.line(f"return ({value_text if value or sgd else 'None'}, {aux}, {out})",
                 program.result_origin)
    name = f"{program.name}_{'value_and_grad' if facts is not None else 'grad_generic'}"
    params = list(program.params) + [name for _, _, name, _ in program.inputs]
    if facts is None:
        params.append("_probe=None")
    if sgd:
        params.append("_lr")
        name = f"{program.name}_sgd_step"
    head = [f"# graphjit: value and gradient of {program.name} ({program.origin}), made by "
            "the adjoint pass (transpiler.autodiff).",
            "# Do not edit: regenerated when the source changes.",
            "import numpy as np",
            "import transpiler.autodiff.runtime as _ad",
            "", "",
            f"def {name}({', '.join(params)}):  # {os.path.basename(program.origin.filename)}:"
            f"{program.origin.lineno}"]
    tapes = emitter.tape_inits()
    return "\n".join(head + tapes + emitter.lines) + "\n", name


_PRODUCT = re.compile(r"^( *)(g_\w+) = (\w+)\.T @ (\w+)(  #.*)?$")


def _sgd_updates(emitter, weights):
    """The SGD updates of ``weights``, after the backward sweep (the sweep reads the weights'
    old values): one gemm into the weight where its gradient is one product, else
    ``w -= _lr * g``."""
    for w in weights:
        if w.name not in emitter.defined:
            continue
        var = f"g_{w.name}"
        assigned = [k for k, line in enumerate(emitter.lines)
                    if line.lstrip().startswith(f"{var} =") or f"{var}[" in line]
        match = _PRODUCT.match(emitter.lines[assigned[0]]) if len(assigned) == 1 else None
        if match and len(match.group(1)) == 4:
            del emitter.lines[assigned[0]]
            emitter.line(f"_ad.sgd_gemm({w.name}, {match.group(3)}, {match.group(4)}, _lr)")
        else:
            emitter.line(f"{w.name} -= _lr * {var}")


# Kinds of operation whose result's shape follows from their operands' shapes alone.
_SHAPE_KINDS = {"add", "sub", "mul", "div", "pow", "maximum", "minimum", "matmul", "dot",
                "outer", "where", "clip", "T", "transpose", "astype", "copy", "neg", "float",
                "item", "bprop", "sum", "mean", "max", "min", "var", "std", "concatenate",
                "stack", "binop", "cmp", "boolop", "ufunc", "create-like"}


def _shape_static(program, facts):
    """Names whose shape follows from the arguments' shapes (the specialization's key) and
    the Cells' arrays' (guarded), never from values: their shapes may be written into the
    code. Not so: what an ``int`` argument or a mask sizes (``x[:n]``, ``np.zeros(n)``,
    ``x[x > 0]``), what loops carry out (unless one array, stored into) and branches merge,
    anything an unknown function returns, and anything computed from those."""
    from .control import LoopStmt
    from .rules import UNARY
    static = set(program.params) | {name for _, _, name, _ in program.inputs}

    def number(d):
        fact = facts.get(d.name)
        return fact is not None and fact[4] == 0 and fact[2] is not np.ndarray

    def known(value):
        return all(d.name in static for d in reads(value))

    def shapes_only(value):
        """Constants and shapes (``x.shape[0]``), no runtime number: a size."""
        if isinstance(value, Dyn):
            return False
        if isinstance(value, Tup):
            return all(shapes_only(v) for v in value.items)
        return known(value)

    def index_static(index):
        parts = index.items if isinstance(index, Tup) else [index]
        for part in parts:
            if isinstance(part, Static):
                values = part.value if isinstance(part.value, tuple) else (part.value,)
                if not all(isinstance(v, (int, np.integer, slice, type(None), type(Ellipsis)))
                           and not isinstance(v, bool) for v in values):
                    return False
            elif isinstance(part, Dyn):
                # an integer, or an array of integers, of a known shape (a mask: no)
                fact = facts.get(part.name)
                if fact is None or part.name not in static or fact[1].kind not in "iu":
                    return False
            elif not shapes_only(part):
                return False
        return True

    for stmt in program.body:
        if isinstance(stmt, Op):
            kind, args = stmt.kind, stmt.args
            if kind in _SHAPE_KINDS or kind in UNARY:
                ok = all(known(a) for a in args)
            elif kind == "index":
                ok = known(args[0]) and index_static(args[1])
            elif kind == "static-index":
                ok = index_static(args[0])
            elif kind == "reshape":
                ok = known(args[0]) and all(shapes_only(a) for a in args[1:])
            elif kind == "create":
                ok = all(shapes_only(a) for a in args)
            else:
                ok = False
            if ok:
                static.add(stmt.target)
        elif isinstance(stmt, LoopStmt):
            for phi, last in stmt.phis:
                initial = _initial(program.body, phi.name)
                if (last is phi or last.same_as is phi) and initial in static:
                    static.add(phi.name)
        elif hasattr(stmt, "targets"):
            if stmt.array.name in static:
                static.add(stmt.new.name)
    return static


def _kind_changing(statements, facts):
    """A loop's carried names whose kind (number or array, ndim) the first run saw change
    (``h = 0.0``, then an array) or could not see (the loop ran no iteration)."""
    starts = {s.target: s.args[0] for s in walk_statements(statements)
              if isinstance(s, Op) and s.args}
    found = set()
    for stmt in walk_statements(statements):
        for phi, last in getattr(stmt, "phis", ()):
            start = starts.get(phi.name)
            first = _kind(start, facts)
            end = facts.get(last.name)
            if first is None or end is None or first != (end[4], end[2] is np.ndarray):
                found.add(phi.name)
    return found


def _kind(value, facts):
    if isinstance(value, Static):
        v = value.value
        return (np.ndim(v), isinstance(v, np.ndarray)) if isinstance(
            v, (int, float, complex, np.generic, np.ndarray)) else None
    fact = facts.get(getattr(value, "name", None))
    return None if fact is None else (fact[4], fact[2] is np.ndarray)


def _path_dependent(statements, seeds=()):
    """Names whose kind (a number or an array, its ndim) may depend on the path taken: what
    a branch merges (the first run saw one branch only), ``seeds``, and everything computed
    from them. Nothing of them is taken from the first run's facts."""
    from .control import IfStmt
    found = set(seeds)
    for stmt in walk_statements(statements):
        if isinstance(stmt, IfStmt):
            found.update(stmt.merged)
    grown = True
    while grown:
        grown = False
        for stmt in walk_statements(statements):
            if isinstance(stmt, Op):
                if stmt.target not in found and any(
                        d.name in found for a in stmt.args for d in reads(a)):
                    found.add(stmt.target)
                    grown = True
            elif hasattr(stmt, "targets"):
                if stmt.new.name not in found and (stmt.array.name in found or any(
                        d.name in found for d in reads(stmt.value))):
                    found.add(stmt.new.name)
                    grown = True
            elif hasattr(stmt, "phis"):
                for phi, last in stmt.phis:
                    if phi.name not in found and last.name in found:
                        found.add(phi.name)
                        grown = True
    return found


def _initial(statements, phi):
    """The value a loop's carried name starts from (its copy before the loop)."""
    for stmt in statements:
        if isinstance(stmt, Op) and stmt.target == phi:
            values = [d.name for d in reads(stmt.args[0])] if stmt.args else []
            return values[0] if values else None
    return None


def _loop_names(statements):
    """SSA names defined inside loops (their shapes may differ between iterations)."""
    from .control import LoopStmt, defined_names
    names = set()
    for stmt in statements:
        if isinstance(stmt, LoopStmt):
            names |= defined_names([stmt.body, stmt.test_ops]) | {stmt.index} - {None}
            names |= {phi.name for phi, _ in stmt.phis} - stmt.invariant()
        elif not isinstance(stmt, Op):
            for block in stmt.children():
                names |= _loop_names(block)
    return names


def _emit(program, wrt, has_aux, facts):
    emitter = Emitter(program, facts)
    result = program.result
    aux = Static(None)
    if has_aux:
        if not isinstance(result, Tup) or len(result.items) != 2:
            raise TypeError(f"{program.result_origin}: has_aux=True needs a function that "
                            "returns a pair (value, aux)")
        result, aux = result.items
    emitter.forward(program.body)
    value_text = emitter.render(result)
    if any(not isinstance(s, Op) for s in program.body):
        # the backward sweep takes loop values back from their tapes into their names and
        # writes stored arrays back as they were: the value and aux are kept before it
        emitter.line(f"_value = {value_text}", program.result_origin)
        value_text = "_value"
        if has_aux:
            emitter.line(f"_aux = _ad.snapshot({emitter.render(aux)})"
                         if stores_in(program.body) else f"_aux = {emitter.render(aux)}",
                         program.result_origin)
            aux = Static(None)
        aux_text = "_aux" if has_aux else emitter.render(aux)
    else:
        aux_text = emitter.render(aux)
    if facts is None:
        # the forward values' facts, before the backward sweep takes loop values back from
        # their tapes (a carried name would then hold its first value, not its last)
        emitter.line("if _probe is not None:")
        emitter.line("    _probe.update(locals())")
    _seed(emitter, result, f"{program.result_origin}")
    emitter.backward(program.body)
    return emitter, value_text, aux_text
