"""Where an exception raised by compiled code came from: the ``raise`` statements of the
generated program by exception class (found once per specialization), and the note (PEP 678)
that names the user's line in the exception."""
import os

from .errors import Origin
from .source import origin_of
from .nodes import walk


def raise_sites(program):
    """``raise X(...)`` statements of the generated program, by exception class name, at the
    user's lines: a raise inside one of graphjit's helpers (transpiler.helpers: ``int(x)`` of
    an infinity, ``math.sqrt`` of a negative number) is named at the user's call of the helper,
    where Python itself would raise, not in graphjit's file."""
    import gast
    functions = list(program.functions)
    callee_of = {id(ref): fn for fn in functions for ref in fn.symbol.nodes}
    own, calls = {}, {}
    for fn in functions:
        own[id(fn)], calls[id(fn)] = {}, []
        for node in walk(fn.node):
            if isinstance(node, gast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, gast.Call) else node.exc
                name = exc.id if isinstance(exc, gast.Name) else getattr(exc, "attr", None)
                if name:
                    own[id(fn)].setdefault(name, []).append(Origin(fn.filename, node.lineno,
                                                                   node.col_offset))
            elif isinstance(node, gast.Call) and id(node.func) in callee_of:
                calls[id(fn)].append((callee_of[id(node.func)], node))

    def helper_raises(fn, seen):
        """Exception names a helper may raise, through the helpers it calls."""
        names = set(own[id(fn)])
        for callee, _call in calls[id(fn)]:
            if callee.is_helper and id(callee) not in seen:
                seen.add(id(callee))
                names |= helper_raises(callee, seen)
        return names

    sites = {}
    for fn in functions:
        if fn.is_helper:
            continue
        for name, origins in own[id(fn)].items():
            sites.setdefault(name, []).extend(origins)
        for callee, call in calls[id(fn)]:
            if callee.is_helper:
                for name in helper_raises(callee, {id(callee)}):
                    origin = Origin(fn.filename, call.lineno, call.col_offset)
                    if origin not in sites.setdefault(name, []):
                        sites[name].append(origin)
    return sites


def note_raise_site(exc, spec, function):
    """Name the user's line in an exception raised by compiled code.

    Numba's exceptions carry no frame of the compiled function; when exactly one ``raise`` of
    this exception type in the generated code can have raised it, its origin is added as a
    note (PEP 678), shown in the traceback. An IndexError with no ``raise`` of it comes from
    the bounds check of an index: the note names the function (Numba does not say which
    index)."""
    if spec.program is None or not hasattr(exc, "add_note"):
        return
    from .helpers.messages import not_representable
    if not_representable(exc):
        # An effect-free call would have run again as Python: this one has effects.
        where = ""
        if "int beyond int64" in str(exc) and spec.program.int_sites:
            lines = sorted({f"{os.path.basename(o.filename)}:{o.lineno}"
                            for o in spec.program.int_sites})
            where = (f" at {lines[0]}" if len(lines) == 1 else
                     f" at one of {', '.join(lines[:6])}{', ...' if len(lines) > 6 else ''}")
            if len(spec.program.int_sites) == 1:
                excerpt = spec.program.int_sites[0].excerpt()
                where += f"\n{excerpt}" if excerpt else ""
        exc.add_note(f"in compiled code of {function.__qualname__} "
                     f"({origin_of(function)}): Python's result does not fit there{where}; "
                     "the function has effects (it stores into an array or calls something "
                     "that may), so graphjit did not run it again as Python. Call it plainly" +
                     (", or use NumPy int64 values (they wrap as NumPy does)"
                      if "int beyond int64" in str(exc) else ""))
        return
    sites = spec.raise_sites.get(type(exc).__name__)
    if sites is None:
        if isinstance(exc, IndexError):
            exc.add_note(f"an index out of range in the compiled code of "
                         f"{function.__qualname__} ({origin_of(function)}); Numba's bounds "
                         "check does not say which index")
        return
    if len(sites) == 1:
        origin = sites[0]
        excerpt = origin.excerpt()
        exc.add_note(f"raised in compiled code at {origin}" + (f"\n{excerpt}" if excerpt
                                                                  else ""))
