"""Region-level fallback: compile the loops of a function that cannot compile whole.

When a function does not compile as a whole (a ``print`` of a dict, ``try``/``except``, a
``with`` block, a call into a pure-Python library, ``global``), graphjit splits it along its
loops. Each loop whose inputs are defined where it starts becomes a *region*: a function of its
inputs (the variables it reads before writing them) returning its outputs (the variables it
writes that are live after it), compiled by its own :class:`~transpiler.api.JitFunction`. The
rest of the function runs as Python in a *driver*: the original function with each region
replaced by a call. Loops nested in Python-only statements (``try``, ``with``, a loop that does
not compile) are searched too.

A region is split in its turn when it does not compile for the types it meets (a
``X[m].mean(axis=0)`` that Numba types otherwise, an argument compiled code cannot take): its
loop then runs as Python and the loops inside it are tried as regions (``split(...,
inner=True)``), so one statement that needs Python costs the loop it stands in, not the loop
nest around it.

Whether a region's code converts is decided when the function is split, before anything runs;
whether Numba compiles it for the argument types is decided when the region is first reached,
before it runs: a region that does not compile runs as Python, once. So no statement ever runs
twice, and arguments are mutated exactly as the plain call would.
"""
import ast

import gast

from .analysis import liveness
from .analysis.activity import reads, writes
from .analysis.definite_assignment import annotate_defined
from .analysis.scopes import local_names, nested_reads, parameter_names
from .errors import Origin, TranspileError
from . import anno
from .island_frames import current_frame, island_barrier, pop, push
from time import perf_counter as _clock
from .islands import (PREFIX, SIMPLE as _SIMPLE, compile_closed, holds_line, is_island_call,
                      island_names, make_island, refusal as island_refusal, without_typing)
from .nodes import copy_tree, function_def, located, name as _name, walk
from .source import FunctionSource, capture

_LOOPS = (gast.For, gast.While)
_NOT_IN_REGION = (gast.Return, gast.Yield, gast.YieldFrom, gast.Global, gast.Nonlocal,
                  gast.Await, gast.FunctionDef, gast.Lambda, gast.ClassDef)
_PYTHON_BLOCKS = (gast.Try, gast.With, gast.If, gast.For, gast.While)


class Region:
    """One compiled region: a loop of the original function.

    Attributes:
        origin (Origin): where the loop starts.
        lines (tuple[int, int]): first and last line.
        inputs (list[str]), outputs (list[str]): the explicit state crossing the boundary.
        jit: the region's JitFunction (its own guards, specializations and fallback).
    """

    def __init__(self, origin, lines, inputs, outputs, jit, uses_self, islands=None,
                 frame_in=(), frame_out=(), family=None):
        self.origin = origin
        self.lines = lines
        self.inputs = inputs
        self.outputs = outputs
        self.jit = jit
        self.uses_self = uses_self
        self.islands = islands or {}     # slot -> Island its code calls
        self.frame_in = list(frame_in)   # island-owned names passed in (after the inputs)
        self.frame_out = list(frame_out)     # and returned (after the outputs)
        self.family = family     # shared by the regions of one function (island_frames.push)

    def __call__(self, obj, *values):
        if not self.islands:
            return self.jit._call(obj if self.uses_self else None, values, {})
        count = len(self.inputs)
        owned = dict(zip(self.frame_in, values[count:]))
        if obj is not None:
            owned["self"] = obj
        frame = push(self.islands, owned, self.family)
        way = self._way()
        start = _clock()
        try:
            if way == "compiled":
                result = self.jit._call(obj if self.uses_self else None, values[:count], {})
            else:   # the loop as written (the region's Python function)
                result = self.jit.python_function(
                    *((obj,) if self.uses_self else ()), *values[:count])
            self._timed(way, _clock() - start)
        except BaseException as exc:
            exc.__graphjit_frame_values__ = dict(frame)      # (recovered)
            raise
        finally:
            pop(frame)
        if not self.frame_out:
            return result
        compiled = () if not self.outputs else (
            (result,) if len(self.outputs) == 1 else tuple(result))
        everything = compiled + tuple(frame[name] for name in self.frame_out)
        return everything[0] if len(everything) == 1 else everything

    # Calls of a region with islands: the 1st compiles, the 2nd is timed compiled, the 3rd
    # timed as written in Python; later ones take the faster (an island costs ~2 us: where
    # the loop does little else, Python's own loop is faster: never a silent slowdown).
    _calls = 0

    def _way(self):
        calls = self._calls
        self._calls = calls + 1
        if calls == 2:
            return "python"
        if calls < 2 or self.python_seconds is None or self.compiled_seconds is None:
            return "compiled"
        return "python" if self.python_seconds < self.compiled_seconds else "compiled"

    def _timed(self, way, seconds):
        if self._calls == 2 and way == "compiled":
            self.compiled_seconds = seconds
        elif self._calls == 3 and way == "python":
            self.python_seconds = seconds

    compiled_seconds = python_seconds = None

    def recovered(self, exc):
        """The outputs' values when the loop raised ``exc`` (name -> value): those of its
        Python run (the frame of the region's function, or of its driver when split again,
        in the traceback) and its island-owned ones. Compiled code keeps none: its outputs
        keep their values from before the loop."""
        found = {}
        name = self.jit.python_function.__code__.co_name
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_name == name and code.co_filename == self.origin.filename:
                local = tb.tb_frame.f_locals
                found = {n: local[n] for n in self.outputs if n in local}
                break
            tb = tb.tb_next
        frame = getattr(exc, "__graphjit_frame_values__", None)
        if frame is not None:
            found.update({n: frame[n] for n in self.frame_out if n in frame})
        return found


class SplitFunction:
    """A function run as a Python driver that calls compiled regions.

    Attributes:
        regions (list[Region]): the compiled loops.
        python_parts (list[tuple[Origin, str]]): loops kept in Python and why.
        callees (dict[str, callable]): plain functions the driver calls compiled
            (transpiler.python_callees).
    """

    def __init__(self, function, regions, python_parts, factory, callees=None):
        self.function = function
        self.regions = regions
        self.python_parts = python_parts
        self.callees = callees or {}     # name -> the compiled callee the driver calls
        self._factory = factory
        # a split of the user's function, not of a region (a region's function has this)
        self._top = not getattr(function, "__graphjit_outer__", None)

    def __call__(self, obj, args, kwargs):
        closure = self.function.__closure__ or ()
        values = [cell.cell_contents for cell in closure]
        driver = self._factory(self.regions, *values, *self.callees.values())
        # the function's own defaults (a mutable default is one object across calls, as in
        # Python), not values made again by each call's factory
        driver.__defaults__ = self.function.__defaults__
        driver.__kwdefaults__ = self.function.__kwdefaults__
        # A call of the user's function (not of a region split again) starts its own chain
        # of island frames: a recursive call from an island must not take its caller's
        # frames as its parents (island_frames.Frame)
        barrier = island_barrier() if self._top else None
        try:
            if obj is None:
                return driver(*args, **kwargs)
            return driver(obj, *args, **kwargs)
        finally:
            if barrier is not None:
                pop(barrier)


def split(function, obj, make_jit, redirect=None, source=None, inner=False, failed=None,
          python_values=None):
    """Split ``function`` into a Python driver and compiled regions.

    Args:
        function: the Python function that did not compile whole.
        obj: the instance of a method call (regions are checked against it), or None.
        make_jit (callable): ``make_jit(python_region, region_source)`` -> the region's
            JitFunction (transpiler.api: the function's options, never split again).
        redirect (callable): ``redirect(function, driver_def)`` -> ``{name: callable}``, the
            plain functions the driver calls that run compiled (transpiler.python_callees);
            None: none.
        source (FunctionSource): the function's parsed source when it has no file of its
            own (a region's); None: read it (transpiler.source.capture).
        inner (bool): ``function`` is a region: its own loop stays Python, the loops inside
            it are tried.
        failed (TranspileError): why ``function`` did not compile, when its origin is known:
            the loop holding that line becomes a region with that statement a Python island
            (transpiler.islands), where it can.
        python_values (dict[str, str]): arguments compiled code cannot take (a dict, an
            object) -> why: the statements that read them become Python islands, where they
            can.

    Returns:
        SplitFunction, or None when there is no loop worth compiling (or the function cannot
        be split: a generator, no source).
    """
    if source is None:
        try:
            source = capture(function)
        except TranspileError:
            return None
    fdef = copy_tree(source.node)
    if any(isinstance(n, (gast.Yield, gast.YieldFrom, gast.Await)) for n in walk(fdef)):
        return None
    params = parameter_names(fdef)
    method = bool(params) and params[0] == "self"
    all_locals = local_names(fdef)
    liveness.annotate(fdef)
    annotate_defined(fdef, all_locals)
    regions, python_parts = [], []
    closure_reads = nested_reads(fdef)
    # what the user's function's nested functions read, and whether one declares nonlocal
    # names: kept by its regions' functions, split again (the islands' refusal)
    outer = getattr(function, "__graphjit_outer__", None) or (
        frozenset(closure_reads), any(isinstance(n, gast.Nonlocal) for n in walk(fdef)))
    # a region inside a `try` of the function: never islands, however often split again
    no_islands = getattr(function, "__graphjit_no_islands__", False)

    # islands the function's code already calls (a region split again): by name
    existing = {name: cell.cell_contents for name, cell in zip(
        function.__code__.co_freevars, function.__closure__ or ())
        if name.startswith(PREFIX)}
    # the frames of this function's region calls, and of its regions split again, see each
    # other's island-owned names; no other function's (island_frames.Frame)
    family = next(iter(existing.values())).family if existing else object()

    def region_for(loop, seeds=(), as_it_is=True, islands_allowed=True):
        """A Region for ``loop``, or the reason it stays Python. ``seeds``: ``(origin,
        why)`` of statements of the loop known not to compile (the error of a call, a read of
        a value compiled code cannot take): each is made a Python island first
        (transpiler.islands); a statement the region's check refuses is made one too, then
        the region is tried again. ``as_it_is``: whether the loop may be a region without
        the seeds' islands (not a region's own loop, which failed so)."""
        if any(isinstance(n, _NOT_IN_REGION) for n in walk(loop)):
            return None, "it contains return, yield, global, a nested def or a lambda"
        if no_islands:
            seeds = ()
        islands, body = {}, copy_tree(loop) if seeds else loop
        for origin, why in seeds:
            made = make_island(body, origin, why, all_locals, method,
                               {**existing, **islands}, source.filename, function,
                               frozenset(python_values or ()))
            if isinstance(made, str):
                if not as_it_is:    # (a region's own loop: it failed as it is)
                    return None, f"{why} ({made})"
                islands, body = {}, loop    # the loop as it is (its types may differ)
                break
            islands[made[0]] = made[1]
        islands_allowed = islands_allowed and not no_islands
        while True:
            region, error = try_region(loop, body, islands, islands_allowed)
            if region is not None:
                return region, None
            if not isinstance(error, TranspileError) or not islands_allowed:
                return None, error if isinstance(error, str) else error.reason
            if body is loop:
                body = copy_tree(loop)
            made = make_island(body, error.origin, error.reason, all_locals, method,
                               {**existing, **islands}, source.filename, function,
                               frozenset(python_values or ()))
            if isinstance(made, str):
                return None, error.reason
            islands[made[0]] = made[1]

    def try_region(loop, body, islands, islands_allowed=True):
        """The Region of ``body`` (``loop`` with ``islands`` in it), or why not: a str, or
        the TranspileError of its check."""
        defined = anno.get(loop, anno.DEFINED_IN, None)
        # A nested function or lambda reads its enclosing variables when it is called, which
        # liveness does not see: every such name a loop writes is an output too.
        live_out = set(anno.get(loop, anno.LIVE_OUT))
        outputs = _ordered(writes(body) & (live_out | closure_reads) & all_locals, body)
        # Inputs: what the loop reads before writing it, given that it returns its outputs
        # (variables merely live across the loop are not its inputs).
        inputs = [v for v in _ordered(liveness.live_in([body], set(outputs)) & all_locals, body)
                  if not (method and v == "self")]
        if defined is None or any(v not in defined for v in inputs):
            return None, "one of its inputs may be undefined where it starts"
        owned = set().union(*(i.owned for i in islands.values())) - {"self"}
        if islands:
            why = island_refusal(body, islands, all_locals, closure_reads | outer[0],
                                 outer[1], function)
            unassigned = sorted(set().union(*(i.reads_owned for i in islands.values())) -
                                {"self"} - set(defined or ()))
            if why is None and unassigned:
                why = (f"{unassigned[0]!r}, which Python run inside the loop reads, may be "
                       "unassigned where the loop starts")
            if why is None and python_values and set(inputs) & set(python_values):
                why = (f"the loop reads {sorted(set(inputs) & set(python_values))[0]!r} in "
                       "compiled code, which cannot take it")
            if why is not None:
                return None, why
        frame_in = sorted(v for v in owned if v in defined)
        frame_out = sorted(set().union(*(i.stored for i in islands.values())) & owned & (
            live_out | closure_reads))
        if any(v not in frame_in for v in frame_out):
            return None, ("a name that a statement of the loop kept as Python stores may be "
                          "undefined where the loop starts")
        name = f"{function.__name__}__loop_{loop.lineno}"
        region_def = _region_def(name, body, (["self"] if method else []) + inputs, outputs)
        python_region = _compile_python(region_def, source.filename, function, islands)
        label = f" (loop at line {loop.lineno})"
        # (a loop tried again as its own region keeps one label, not two)
        python_region.__qualname__ = function.__qualname__ if \
            function.__qualname__.endswith(label) else function.__qualname__ + label
        python_region.__graphjit_outer__ = outer
        python_region.__graphjit_no_islands__ = not islands_allowed
        # (with islands, the region's own function: the specializer finds them in its
        # closure)
        region_source = FunctionSource(python_region if islands else function,
                                       source.filename, region_def)
        jit = make_jit(python_region, region_source)
        if islands:
            # Where the region runs as Python (its code does not compile for the types it
            # meets), it runs the loop as written, not through its islands: plain speed
            plain = _compile_python(
                _plain_region_def(name, loop, region_def.args, outputs, sorted(owned),
                                  sorted(set().union(*(i.stored for i in islands.values())) &
                                         owned)),
                source.filename, function, {"__graphjit_current_frame__": current_frame})
            plain.__qualname__ = python_region.__qualname__
            jit.python_function = plain
            jit._split_function = python_region     # (split again: its code, islands in)
        try:
            jit._transpile_check(obj if method else None)
        except TranspileError as exc:
            return None, exc
        origin = Origin(source.filename, loop.lineno, loop.col_offset)
        end = getattr(loop, "end_lineno", None) or loop.lineno
        called = {**existing, **islands}
        table = {called[n].slot: called[n] for n in island_names(region_def) if n in called}
        for island in islands.values():
            island.family = family
        return Region(origin, (loop.lineno, end), inputs, outputs, jit, method, table,
                      frame_in, frame_out, family), None

    def rewrite(stmts, top=False, in_try=False):
        out = []
        for stmt in stmts:
            # (inside a `try`, an exception out of a compiled loop would lose its outputs
            # where the handler reads them: no islands, which raise Python's exceptions)
            # The error of the whole function may not be the loop's own (its types differ
            # in context): a loop is tried as it is first, and made islands from its own
            # error (its region's split); only a region's own loop, which failed so, is
            # seeded with the error. Reads of values compiled code cannot take: always.
            seeds = [] if in_try else _seeds(stmt, failed if inner and top else None,
                                             python_values, source.filename)
            hoisted = _hoist_range_arguments(stmt, python_values, all_locals, function)
            if hoisted:     # (Python evaluates them once, before the loop: the driver does)
                out.extend(hoisted)
                names = {h.targets[0].id for h in hoisted}
                all_locals.update(names)
                defined = anno.get(stmt, anno.DEFINED_IN, None)
                if defined is not None:
                    anno.set_anno(stmt, anno.DEFINED_IN, frozenset(defined | names))
            if isinstance(stmt, _LOOPS) and (seeds or hoisted or not (inner and top)):
                region, why = region_for(stmt, seeds, as_it_is=not (inner and top),
                                         islands_allowed=not in_try)
                if region is not None:
                    regions.append(region)
                    out.append(_region_call(len(regions) - 1, region, stmt, params))
                    continue
                python_parts.append((Origin(source.filename, stmt.lineno, stmt.col_offset),
                                     why))
            if isinstance(stmt, _PYTHON_BLOCKS):
                inside = in_try or isinstance(stmt, gast.Try)
                for field in ("body", "orelse", "finalbody"):
                    if isinstance(getattr(stmt, field, None), list):
                        setattr(stmt, field, rewrite(getattr(stmt, field), in_try=inside))
                for handler in getattr(stmt, "handlers", []):
                    handler.body = rewrite(handler.body, in_try=inside)
            out.append(stmt)
        return out

    fdef.body = rewrite(fdef.body, top=True)
    if not regions:
        return None
    # Names assigned only inside the regions must stay local in the driver, or reading one
    # unassigned would raise NameError instead of Python's UnboundLocalError.
    lost = sorted(all_locals - local_names(fdef))
    if lost:
        keep = gast.If(test=gast.Constant(value=False, kind=None), body=[gast.Assign(
            targets=[_name(n, True) for n in lost], value=gast.Constant(value=None, kind=None),
            type_comment=None)], orelse=[])
        fdef.body.append(located(keep, fdef.body[-1]))
    _without_def_time_values(fdef)
    freevars = list(function.__code__.co_freevars)
    callees = redirect(function, fdef) if redirect is not None else {}
    # (a region split again: its driver runs its value islands' calls as Python)
    factory_def = _factory_def(without_typing(fdef), freevars + list(callees))
    module = gast.Module(body=[factory_def], type_ignores=[])
    tree = gast.gast_to_ast(module)
    ast.fix_missing_locations(tree)
    namespace = {}
    exec(compile(tree, source.filename, "exec"), function.__globals__, namespace)
    return SplitFunction(function, regions, python_parts, namespace["__graphjit_factory__"],
                         callees)


def _hoist_range_arguments(stmt, python_values, all_locals, function):
    """``for v in range(e...)`` where an ``e`` reads a value compiled code cannot take (a
    dict: ``range(names["n"])``): each such ``e`` assigned to a name of its own before the
    loop, where Python evaluates it too (once, in order), and the loop reading that name.
    Returns the assignments (``stmt`` changed in place), or []."""
    import builtins
    if not python_values or not isinstance(stmt, gast.For) or not isinstance(
            stmt.iter, gast.Call) or not isinstance(stmt.iter.func, gast.Name) or \
            stmt.iter.func.id != "range" or "range" in all_locals or \
            function.__globals__.get("range", builtins.range) is not builtins.range or \
            stmt.iter.keywords or not any(reads(a) & set(python_values)
                                          for a in stmt.iter.args):
        return []
    if any(isinstance(a, gast.Starred) for a in stmt.iter.args):
        return []
    assigns = []
    for k, arg in enumerate(stmt.iter.args):
        name = f"__graphjit_range_{stmt.lineno}_{k}"
        assigns.append(located(gast.Assign(targets=[_name(name, True)], value=arg,
                                           type_comment=None), arg))
        stmt.iter.args[k] = located(_name(name), arg)
    return assigns


def _seeds(stmt, failed, python_values, filename):
    """``(origin, why)`` of the statements of loop ``stmt`` to make Python islands first:
    the one ``failed`` names, the simple ones that read ``python_values``."""
    if not isinstance(stmt, _LOOPS):
        return []
    seeds = []
    if failed is not None and failed.origin is not None and \
            failed.origin.filename == filename and holds_line(stmt, failed.origin):
        seeds.append((failed.origin, failed.reason))
    for node in walk(stmt) if python_values else ():
        # a simple statement, or the test of an `if` / `while` (an expression island)
        part = node if isinstance(node, _SIMPLE) and not is_island_call(node) else \
            node.test if isinstance(node, (gast.If, gast.While)) else None
        read = sorted(reads(part) & set(python_values)) if part is not None else ()
        if read:
            seeds.append((Origin(filename, part.lineno, part.col_offset),
                          f"it reads {read[0]!r}, {python_values[read[0]]}"))
    return seeds


def _without_def_time_values(fdef):
    """``fdef`` with its defaults ``None`` and its annotations gone: the driver's ``def`` runs
    at every call (in its factory), which must not evaluate them again (a default list would
    be a new one each call, a default's call would run again); SplitFunction gives the driver
    the function's own defaults."""
    args = fdef.args
    args.defaults = [gast.Constant(value=None, kind=None) for _ in args.defaults]
    args.kw_defaults = [None if d is None else gast.Constant(value=None, kind=None)
                        for d in args.kw_defaults]
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
        if arg is not None:
            arg.annotation = None
    fdef.returns = None


def _ordered(names, node):
    seen = []
    for child in walk(node):
        if isinstance(child, gast.Name) and child.id in names and child.id not in seen:
            seen.append(child.id)
    return seen + sorted(set(names) - set(seen))


def _region_def(name, loop, params, outputs):
    """``def name(params): <loop>; return outputs`` at the loop's own lines."""
    if len(outputs) == 1:
        value = _name(outputs[0])
    elif outputs:
        value = gast.Tuple(elts=[_name(o) for o in outputs], ctx=gast.Load())
    else:
        value = None
    ret = located(gast.Return(value=value), loop)
    return gast.copy_location(function_def(name, params, [copy_tree(loop), ret]), loop)


def _plain_region_def(name, loop, args, outputs, owned, stored):
    """The region's loop as written, as a function like its region's (``args``, returning
    ``outputs``) whose island-owned names are read from the region call's frame first and
    ``stored`` ones written back to it last (transpiler.island_frames)."""
    frame = _name("__graphjit_frame__")

    def guarded(stmt, errors):
        return gast.Try(body=[stmt], handlers=[gast.ExceptHandler(
            type=gast.Tuple(elts=[_name(e) for e in errors], ctx=gast.Load()), name=None,
            body=[gast.Pass()])], orelse=[], finalbody=[])
    body = [gast.Assign(targets=[_name("__graphjit_frame__", True)], value=gast.Call(
        func=_name("__graphjit_current_frame__"), args=[], keywords=[]), type_comment=None)]
    for v in owned:
        body.append(guarded(gast.Assign(targets=[_name(v, True)], value=gast.Subscript(
            value=frame, slice=gast.Constant(value=v, kind=None), ctx=gast.Load()),
            type_comment=None), ["UnboundLocalError"]))
    back = [guarded(gast.Assign(targets=[gast.Subscript(
        value=frame, slice=gast.Constant(value=v, kind=None), ctx=gast.Store())],
        value=_name(v), type_comment=None), ["UnboundLocalError", "NameError"])
        for v in stored]
    body.append(gast.Try(body=[copy_tree(loop)], handlers=[], orelse=[],
                         finalbody=back or [gast.Pass()]))
    value = (_name(outputs[0]) if len(outputs) == 1 else gast.Tuple(
        elts=[_name(o) for o in outputs], ctx=gast.Load()) if outputs else None)
    body.append(gast.Return(value=value))
    definition = function_def(name, [], body)
    definition.args = copy_tree(args)
    for node in walk(definition):
        located(node, loop)
    return gast.copy_location(definition, loop)


def _region_call(index, region, loop, params):
    """``outputs = __graphjit_regions__[index](self_or_None, inputs)`` in place of the loop
    (the island-owned names after the compiled ones: Region.__call__)."""
    first = _name(params[0]) if region.uses_self else gast.Constant(value=None, kind=None)
    call = gast.Call(
        func=gast.Subscript(value=_name("__graphjit_regions__"),
                            slice=gast.Constant(value=index, kind=None), ctx=gast.Load()),
        args=[first] + [_name(v) for v in region.inputs + region.frame_in], keywords=[])
    outputs = region.outputs + region.frame_out
    if not outputs:
        return located(gast.Expr(value=call), loop)
    target = _name(outputs[0], True) if len(outputs) == 1 else gast.Tuple(
        elts=[_name(o, True) for o in outputs], ctx=gast.Store())
    stmt = gast.Assign(targets=[target], value=call, type_comment=None)
    # If the loop raises, its outputs keep what they held when it raised, as in Python (a
    # handler or a `finally` may read them): Region.recovered
    got = "__graphjit_got__"
    recover = [gast.Assign(targets=[_name(got, True)], value=gast.Call(
        func=gast.Attribute(value=call.func, attr="recovered", ctx=gast.Load()),
        args=[_name("__graphjit_exc__")], keywords=[]), type_comment=None)]
    for name in outputs:
        recover.append(gast.If(
            test=gast.Compare(left=gast.Constant(value=name, kind=None), ops=[gast.In()],
                              comparators=[_name(got)]),
            body=[gast.Assign(targets=[_name(name, True)], value=gast.Subscript(
                value=_name(got), slice=gast.Constant(value=name, kind=None),
                ctx=gast.Load()), type_comment=None)], orelse=[]))
    recover.append(gast.Raise(exc=None, cause=None))
    handler = gast.ExceptHandler(type=_name("BaseException"),
                                 name=_name("__graphjit_exc__", True), body=recover)
    guarded = gast.Try(body=[stmt], handlers=[handler], orelse=[], finalbody=[])
    for node in walk(guarded):
        located(node, loop)
    return guarded


def _factory_def(fdef, freevars):
    """``def __graphjit_factory__(__graphjit_regions__, *freevars): <driver>; return it``:
    the driver closes over the regions and the function's free variables."""
    ret = gast.Return(value=_name(fdef.name))
    factory = function_def("__graphjit_factory__", ["__graphjit_regions__"] + freevars,
                           [fdef, ret])
    located(ret, fdef)
    return gast.copy_location(factory, fdef)


def _compile_python(region_def, filename, function, islands=None):
    """The region as a plain Python function (its fallback), with the original lines,
    closing over ``function``'s cells and the ``islands`` (name -> Island) its code calls."""
    return compile_closed(without_typing(copy_tree(region_def)), filename, function, islands)
