"""Where an exception raised by compiled code came from: the ``raise`` statements of the
generated program by exception class (found once per specialization), and the note (PEP 678)
that names the user's line in the exception."""
import os

from .errors import Origin
from .source import origin_of
from .nodes import walk


def raise_sites(program):
    """``raise X(...)`` statements of the generated program, by exception class name."""
    import gast
    sites = {}
    for fn in program.functions:
        for node in walk(fn.node):
            if isinstance(node, gast.Raise) and node.exc is not None:
                exc = node.exc.func if isinstance(node.exc, gast.Call) else node.exc
                name = exc.id if isinstance(exc, gast.Name) else getattr(exc, "attr", None)
                if name:
                    sites.setdefault(name, []).append(Origin(fn.filename, node.lineno,
                                                             node.col_offset))
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
