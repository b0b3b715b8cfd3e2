"""Making Python islands (transpiler.island_frames) inside a loop region (transpiler.split).

A loop that does not convert because of one statement keeps that statement as Python and the
rest compiled: the statement is replaced by a call ``__graphjit_island_<k>(reads...)`` of an
:class:`~transpiler.island_frames.Island`, whose function is the statement compiled as Python
in the user's globals. The specializer turns the call into ``ir.python_island`` (compiled
code calls Python, the GIL held: backends/runtime/islands.py).

Which statements: a simple statement (an assignment, an augmented assignment, an expression
statement) that the converter's error names. Names the statement uses fall in two groups:

- *compiled* names appear in the loop outside the islands; the island reads them as arguments
  (boxed as Python holds them) and may not store into them (compiled code would not see the
  store), except a *value island*: ``x = e`` / ``x op= e`` returns the value of ``x`` to
  compiled code, typed by the scalar analysis of ``e`` (kept as the call's keyword,
  VALUE_KEYWORD / UPDATE_KEYWORD, and removed by :func:`without_typing` wherever the code runs
  as Python) and checked when it runs (island_frames.call_island); any other such statement
  stays Python with its loop;
- *island-owned* names appear only in islands (a dict argument read there, a string the
  island builds): they live in the region call's Frame, read and stored through it, passed in
  by the driver (those defined where the loop starts) and returned to it (those live after).

Each statement runs once per time Python would run it, in Python's order; an exception it
raises leaves the compiled loop as the same exception.
"""
import ast
import types

import gast

from .analysis.activity import reads, writes
from .errors import Origin
from .island_frames import UPDATE_KEYWORD, VALUE_KEYWORD, Island
from .nodes import copy_tree, function_def, located, walk

PREFIX = "__graphjit_island_"
FRAME = "__graphjit_frame__"
MAX_ISLANDS = 8      # islands per loop region; more: the loop stays Python
SIMPLE = (gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Expr)


def statement_at(loop, origin):
    """The innermost statement of ``loop`` (a For or While) that holds ``origin``'s line, with
    the list that holds it and its index; None when the line is the loop's own header or
    outside it."""
    found = None

    def visit(stmts):
        nonlocal found
        for index, stmt in enumerate(stmts):
            end = getattr(stmt, "end_lineno", None) or stmt.lineno
            if not stmt.lineno <= origin.lineno <= end:
                continue
            if found is not None and found[0] is stmts and stmt.lineno == origin.lineno and \
                    stmt.col_offset > origin.col_offset:
                continue    # `a; b` on one line: the statement the column falls in
            found = (stmts, index, stmt)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    visit(inner)
            for handler in getattr(stmt, "handlers", []):
                visit(handler.body)
    visit(loop.body)
    visit(loop.orelse)
    return found


def refusal(body, islands, all_locals, closure_reads, has_nonlocal, function):
    """Why the loop ``body`` may not keep its ``islands`` (name -> Island), or None. Python
    run in an island must see what Python would see there:

    - a nested function or lambda of the function reads its variables when called: one that
      the compiled loop or an island stores would be stale there (the driver's cell holds
      the value from before the loop); a nested function that declares ``nonlocal`` names
      would store where compiled code does not look;
    - a global or closure variable holding data (a number, an array...) is a constant of the
      compiled code, checked once per call: an island may rebind it;
    - an island-owned name that an island reads may be unassigned where the loop starts
      (passed to the frame only when assigned)."""
    owned_stores = set().union(*(i.stored for i in islands.values())) & set().union(
        *(i.owned for i in islands.values()))
    stale = sorted(closure_reads & (writes(body) | owned_stores))
    if stale:
        return (f"a nested function or lambda reads {stale[0]!r}, which the loop stores: "
                "Python run inside the compiled loop would see its value from before it")
    if has_nonlocal:
        return "a nested function stores variables of the function (nonlocal)"
    frozen = _data_names(body, all_locals, function)
    if frozen:
        return (f"the loop reads {frozen[0]!r}, a global or closure variable that compiled "
                "code holds as a constant during the call, and Python run inside it may "
                "rebind it")
    return None


def _data_names(body, all_locals, function):
    """Names ``body`` reads (outside its islands) that are globals or closure variables of
    ``function`` holding data (numbers, strings, tuples, arrays)."""
    from .arguments import is_data
    cells = dict(zip(function.__code__.co_freevars, function.__closure__ or ()))
    found = []
    for name in sorted({n.id for n in walk(body) if isinstance(n, gast.Name)} - all_locals):
        if name.startswith(PREFIX):
            continue
        if name in cells:
            try:
                value = cells[name].cell_contents
            except ValueError:
                continue
        elif name in function.__globals__:
            value = function.__globals__[name]
        else:
            continue
        if is_data(value):
            found.append(name)
    return found


def is_island_call(stmt):
    """Whether ``stmt`` is a statement island's call (``__graphjit_island_<k>(...)``, or
    ``x = __graphjit_island_<k>(...)`` of a value island)."""
    return isinstance(stmt, (gast.Expr, gast.Assign)) and isinstance(
        stmt.value, gast.Call) and isinstance(stmt.value.func, gast.Name) and \
        stmt.value.func.id.startswith(PREFIX)


def holds_line(node, origin):
    """Whether ``origin``'s line is one of ``node``'s."""
    end = getattr(node, "end_lineno", None) or node.lineno
    return node.lineno <= origin.lineno <= end


def without_typing(tree):
    """``tree`` (changed in place) with the value islands' typing keywords removed: run as
    Python, a value island's call must not evaluate its statement's expression again."""
    for node in walk(tree):
        if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) and \
                node.func.id.startswith(PREFIX):
            node.keywords = [k for k in node.keywords
                             if k.arg not in (VALUE_KEYWORD, UPDATE_KEYWORD)]
    return tree


def island_names(fdef):
    """The island functions' names a region's code calls (``__graphjit_island_<k>``)."""
    return {n.id for n in walk(fdef) if isinstance(n, gast.Name) and n.id.startswith(PREFIX)}


def make_island(loop, origin, why, all_locals, method, islands, filename, function,
                python_names=frozenset()):
    """``loop`` with the statement at ``origin`` made a Python island.

    Args:
        loop: the loop (a copy: changed in place).
        origin (Origin): where the converter failed; why (str): its reason.
        all_locals (set[str]): the function's local names; method (bool): ``self`` first.
        islands (dict[str, Island]): the islands the region's code already calls, by name.
        filename (str), function: the user's file and function (its globals and closure).
        python_names (frozenset[str]): names holding values compiled code cannot take (a
            dict argument): always island-owned, never an island's argument.

    Returns:
        ``(name, Island)`` with the statement replaced in ``loop``, or a str: why not.
    """
    if len(islands) >= MAX_ISLANDS:
        return f"more than {MAX_ISLANDS} statements of this loop would run as Python"
    if origin is None or origin.filename != filename:
        return "the converter's reason names no line of this loop"
    if isinstance(loop, gast.While) and holds_line(loop.test, origin):
        return _expression_island(loop, loop, origin, why, all_locals, method, islands,
                                  filename, function, python_names)
    place = statement_at(loop, origin)
    if place is None:
        return f"line {origin.lineno} is the loop's own header"
    stmts, index, stmt = place
    if is_island_call(stmt):
        return f"the statement at line {stmt.lineno} runs as Python already"
    if any(isinstance(n, (gast.Yield, gast.YieldFrom, gast.Await, gast.NamedExpr, gast.Lambda,
                          gast.GeneratorExp))
           for n in walk(stmt) if n is not stmt):
        # (a generator or a lambda reads the variables later, where Python's differ)
        return (f"the statement at line {stmt.lineno} has a yield, a lambda, a generator "
                "expression or a ':='")
    made = None
    if isinstance(stmt, SIMPLE):
        made = _statement_island(loop, stmts, index, stmt, why, all_locals, method, islands,
                                 filename, function, python_names)
        if not isinstance(made, str):
            return made
    expression = _expression_island(loop, stmt, origin, why, all_locals, method, islands,
                                    filename, function, python_names)
    if not isinstance(expression, str) or made is None:
        return expression
    return made


def _statement_island(loop, stmts, index, stmt, why, all_locals, method, islands, filename,
                      function, python_names):
    """``stmt`` (a simple statement of ``loop``, ``stmts[index]``) replaced by a call of an
    island running it; ``(name, Island)``, or why not."""
    name = f"{PREFIX}{_next_slot(islands)}"
    call = located(gast.Expr(value=gast.Call(func=_load(name), args=[], keywords=[])), stmt)
    stmts[index] = call
    compiled = {n.id for n in walk(loop) if isinstance(n, gast.Name)} - set(islands) - {
        name} - python_names
    stored = writes(stmt) & all_locals
    clash = sorted(stored & compiled)
    target = _value_target(stmt)
    if clash and clash != [target]:
        stmts[index] = stmt
        return (f"the statement at line {stmt.lineno} stores {', '.join(map(repr, clash))}, "
                "which the compiled loop reads")
    used = reads(stmt) | stored
    read = (reads(stmt) | _augmented(stmt)) & all_locals - ({"self"} if method else set())
    if clash:
        # a value island: compiled code reads the name it binds; the call gives it the value,
        # typed by the statement's own expression (kept as the call's keyword, which only
        # the scalar-type analysis reads: transpiler.analysis.scalar_types), so every name
        # it reads is compiled code's (an argument)
        held = read & (set(python_names) | set().union(*(i.owned for i in islands.values())))
        if held:
            stmts[index] = stmt
            return (f"the statement at line {stmt.lineno} stores {target!r}, which the "
                    f"compiled loop reads, from {sorted(held)[0]!r}, which compiled code "
                    "cannot hold")
        compiled |= read
    arguments = sorted(read & compiled)
    owned = (used & all_locals) - set(arguments) - set(clash)
    body = _owned_through_frame(copy_tree(stmt), owned)
    if clash:
        typing = copy_tree(stmt.value)
        if isinstance(stmt, gast.AugAssign):
            typing = gast.BinOp(left=_load(target), op=stmt.op, right=typing)
        stmts[index] = located(gast.Assign(targets=[gast.Name(
            id=target, ctx=gast.Store(), annotation=None, type_comment=None)], value=call.value,
            type_comment=None), stmt)
        call.value.keywords = [gast.keyword(arg=VALUE_KEYWORD if isinstance(
            stmt, gast.Assign) else UPDATE_KEYWORD, value=typing)]
        body = [body, located(gast.Return(value=_load(target)), stmt)]
    call.value.args = [located(_load(a), stmt) for a in arguments]
    island_fn = _compile(name, [FRAME] + arguments, body, stmt, filename, function)
    island = Island(island_fn, Origin(filename, stmt.lineno, stmt.col_offset), arguments, why,
                    slot=int(name[len(PREFIX):]), owned=owned, stored=stored,
                    gives_value=bool(clash))
    island.reads_owned = frozenset((reads(stmt) | _augmented(stmt)) & owned)
    return name, island


def _value_target(stmt):
    """The one name ``stmt`` binds, where it is ``name = value`` or ``name op= value``; else
    None (a value island gives compiled code one value)."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], gast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
        return stmt.target.id
    return None


def _augmented(stmt):
    """The name an augmented assignment ``x op= v`` reads before it stores it."""
    if isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name):
        return {stmt.target.id}
    return set()


# builtins whose result's type their call fixes (an expression island's value)
FORCED = {"int": "int", "float": "float", "bool": "bool", "complex": "complex", "str": "str",
          "len": "int", "isinstance": "bool"}


def _expression_island(loop, stmt, origin, why, all_locals, method, islands, filename,
                       function, python_names):
    """The expression of ``stmt`` that compiled code cannot compute made an island that
    gives it a value of a type its construction fixes: an ``if``/``while`` test (Python's
    truth value, a bool), or the whole value of an assignment (or ``x op= v``) that is a
    call of a builtin of FORCED (``k = int(s[j])``); the statement itself stays compiled.
    ``(name, Island)``, or why not."""
    if isinstance(stmt, (gast.If, gast.While)):
        if not holds_line(stmt.test, origin):
            return f"line {origin.lineno} is not the test of the statement at {stmt.lineno}"
        expression, kind, field = stmt.test, "bool", "test"
    elif isinstance(stmt, (gast.Assign, gast.AugAssign, gast.AnnAssign)) and isinstance(
            stmt.value, gast.Call) and isinstance(stmt.value.func, gast.Name) and \
            stmt.value.func.id in FORCED and _is_builtin(stmt.value.func.id, all_locals,
                                                         function):
        expression, kind, field = stmt.value, FORCED[stmt.value.func.id], "value"
    else:
        return (f"the statement at line {stmt.lineno} is not a simple one, nor a test or a "
                "builtin's value whose type Python fixes")
    if any(isinstance(n, gast.comprehension) for n in walk(expression)):
        return f"the expression at line {expression.lineno} has a comprehension"
    if isinstance(expression, gast.Call) and isinstance(expression.func, gast.Name) and \
            expression.func.id.startswith(PREFIX):
        return f"the expression at line {expression.lineno} runs as Python already"
    name = f"{PREFIX}{_next_slot(islands)}"
    inside = {id(n) for n in walk(expression)}
    compiled = {n.id for n in walk(loop) if isinstance(n, gast.Name) and
                id(n) not in inside} - set(islands) - {name} - python_names
    used = reads(expression)
    arguments = sorted(used & compiled & all_locals - ({"self"} if method else set()))
    owned = (used & all_locals) - set(arguments)
    value = _owned_through_frame(copy_tree(expression), owned)
    if kind == "bool":      # Python's truth value, taken once (PyObject_IsTrue), as `if` does
        value = gast.UnaryOp(op=gast.Not(), operand=gast.UnaryOp(op=gast.Not(), operand=value))
    body = located(gast.Return(value=value), expression)
    island_fn = _compile(name, [FRAME] + arguments, body, stmt, filename, function)
    island = Island(island_fn, Origin(filename, expression.lineno, expression.col_offset),
                    arguments, why, slot=int(name[len(PREFIX):]), owned=owned, stored=(),
                    result_kind=kind)
    island.reads_owned = frozenset(owned)
    call = gast.Call(func=_load(name), args=[_load(a) for a in arguments], keywords=[])
    setattr(stmt, field, gast.copy_location(located(call, expression), expression))
    return name, island


def _is_builtin(name, all_locals, function):
    """Whether ``name`` in ``function`` is the builtin of that name (not a local, a global or
    a closure variable shadowing it)."""
    import builtins
    return name not in all_locals and name not in function.__code__.co_freevars and \
        function.__globals__.get(name, getattr(builtins, name)) is getattr(builtins, name) \
        and function.__globals__.get("__builtins__", builtins) in (builtins, vars(builtins))


def _next_slot(islands):
    return max((island.slot for island in islands.values()), default=-1) + 1


def _load(name):
    return gast.Name(id=name, ctx=gast.Load(), annotation=None, type_comment=None)


def _owned_through_frame(stmt, owned):
    """``stmt`` with each island-owned name read and stored as ``__graphjit_frame__[name]``."""
    class Rewrite(gast.NodeTransformer):
        def visit_Name(self, node):
            if node.id not in owned:
                return node
            return gast.copy_location(gast.Subscript(
                value=_load(FRAME), slice=gast.Constant(value=node.id, kind=None),
                ctx=node.ctx), node)

        def visit_Lambda(self, node):      # their own scope (never in an island: refused)
            return node
    return Rewrite().visit(stmt)


def _compile(name, params, stmt, where, filename, function):
    """``def name(params): stmt`` compiled as Python (compile_closed), at the statement's
    own lines."""
    body = stmt if isinstance(stmt, list) else [stmt]
    island_def = gast.copy_location(function_def(name, params, body), where)
    return compile_closed(island_def, filename, function)


def compile_closed(definition, filename, function, extra=None):
    """The function of ``definition`` (a gast.FunctionDef, its lines the user's) compiled
    as Python in ``function``'s globals, closing over ``function``'s own cells (a closure
    variable rebound later is seen) and new ones holding ``extra`` (name -> value)."""
    extra = extra or {}
    freevars = list(function.__code__.co_freevars) + list(extra)
    ret = located(gast.Return(value=_load(definition.name)), definition)
    factory = gast.copy_location(function_def("__graphjit_factory__", freevars,
                                              [definition, ret]), definition)
    tree = gast.gast_to_ast(gast.Module(body=[factory], type_ignores=[]))
    ast.fix_missing_locations(tree)
    namespace = {}
    exec(compile(tree, filename, "exec"), function.__globals__, namespace)
    made = namespace["__graphjit_factory__"](*[None] * len(freevars))
    cells = dict(zip(function.__code__.co_freevars, function.__closure__ or ()))
    closure = tuple(cells.get(name) or types.CellType(extra[name])
                    for name in made.__code__.co_freevars)
    return types.FunctionType(made.__code__, made.__globals__, made.__name__,
                              made.__defaults__, closure or None)
