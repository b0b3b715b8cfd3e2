"""Keep the current folder from shadowing imports when graphjit runs as a command.

``python -m transpiler`` puts the current folder first on ``sys.path``, so a ``calendar.py``
or ``numpy.py`` there would be imported (and run) in place of the library when the converter
imports NumPy or a module the input names. The command line never needs the current folder:
the inputs are read as files, not imported (except with ``--import``, which adds the input's
own folder itself).
"""
import os
import sys

# The folder holding the transpiler and backends packages: kept, it is graphjit itself.
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def drop_cwd(path=None, cwd=None):
    """Remove from ``path`` (``sys.path``) the entries that name the current folder ('',
    '.', its absolute path), unless the current folder is graphjit's own folder."""
    path = sys.path if path is None else path
    try:
        cwd = os.path.realpath(cwd or os.getcwd())
    except OSError:     # the current folder was removed: '' resolves to nothing then
        cwd = None
    if cwd is not None and cwd == os.path.realpath(PACKAGE_ROOT):
        return
    path[:] = [entry for entry in path
               if entry not in ("", ".") and (cwd is None or _resolved(entry) != cwd)]


def _resolved(entry):
    try:
        return os.path.realpath(entry)
    except (OSError, ValueError):
        return None


def running_as_main_module():
    """True while ``python -m transpiler`` imports the package (before ``__main__`` runs)."""
    argv = getattr(sys, "orig_argv", None) or []
    return sys.argv[:1] == ["-m"] and any(
        (a == "-m" and b == "transpiler") or a == "-mtranspiler"
        for a, b in zip(argv, argv[1:] + [""]))
