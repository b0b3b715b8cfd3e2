"""The ``graphjit`` command (also ``python -m transpiler``): convert, show, explain, cache.

Exit status: 0 success; 1 with ``--check`` when a function fell back or an output is stale;
2 for every failure: usage error, unreadable, unparsable or refused input (a symbolic link, a
FIFO or device), an input too deeply nested or too large to convert, two inputs with one
output, an output graphjit did not write (use ``--force``) or cannot write. Each failure is one
line on stderr naming the file (and line); never a traceback (``GRAPHJIT_TRACEBACK=1`` shows
one for an internal error).

The command never runs its input (unless ``--import``): files are parsed, and the current
folder is not searched for imports (transpiler.safe_path).
"""
import argparse
import os
import sys
import tempfile

from .convert_file import InputError, convert, read_header, read_source, source_hash
from .safe_path import drop_cwd

PROGRESS_FROM = 10  # files; fewer convert silently
FUNCTION_PROGRESS_FROM = 100  # functions to convert in one file; fewer show no bar inside it


class CommandError(Exception):
    """A failure the command reports as one line on stderr, exiting with status 2."""


def _inputs(paths, outdir):
    """The .py files named or found under the named folders (the output folder skipped)."""
    found = []
    skip = os.path.abspath(outdir) if outdir else None
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                                 and os.path.abspath(os.path.join(root, d)) != skip)
                found += [(os.path.join(root, f), os.path.relpath(os.path.join(root, f), path))
                          for f in sorted(files) if f.endswith(".py")]
        else:
            found.append((path, os.path.basename(path)))
    return found


def _plan(files, outdir):
    """``(input, relative, output)`` for each input, checked before anything is written.

    Raises:
        CommandError: ``outdir`` exists and is not a folder; two inputs would write one
            output (the second would silently replace the first); an input is its own output.
    """
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        raise CommandError(f"{outdir}: -o names an existing file, not a folder")
    planned, seen = [], {}
    for path, relative in files:
        out_path = os.path.join(outdir, relative)
        key = os.path.normcase(os.path.abspath(out_path))
        if key in seen:
            raise CommandError(f"{seen[key]} and {path} would both be written to {out_path}; "
                               "nothing written (convert them into different folders)")
        seen[key] = path
        if os.path.normcase(os.path.abspath(path)) == key or _same_file(path, out_path):
            raise CommandError(f"{path}: is its own output {out_path}; nothing written "
                               "(choose another -o)")
        planned.append((path, relative, out_path))
    return planned


def _same_file(a, b):
    """True when ``a`` and ``b`` both exist and are one file (a hard or symbolic link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _write_atomically(path, text):
    """Write ``text`` to ``path`` through a temporary file in its folder, then a rename (a
    reader never sees half a module).

    Raises:
        CommandError: the folder cannot be created or written.
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".graphjit-", suffix=".tmp")
    except OSError as exc:
        raise CommandError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        _remove_quietly(tmp)
        raise CommandError(f"{path}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        _remove_quietly(tmp)
        raise


def _remove_quietly(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _progress(index, total, path):
    if total >= PROGRESS_FROM:
        width = 30
        done = int(width * index / total)
        sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {index}/{total} {path[:40]:<40}")
        if index == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


class FunctionProgress:
    """The bar inside one large file: a tqdm bar when tqdm is installed, else a text bar
    redrawn at most once per percent (a log is not flooded). Silent below
    FUNCTION_PROGRESS_FROM functions. Call it as ``convert(..., progress=bar)``."""

    def __init__(self, label):
        self.label = label
        self.bar = None
        self.shown = -1

    def __call__(self, done, total):
        if total < FUNCTION_PROGRESS_FROM:
            return
        if self.bar is None:
            self.bar = self._tqdm(total) or False
        if self.bar:
            self.bar.update(done - self.bar.n)
        else:
            self._text(done, total)
        if done == total:
            self.close()

    def _tqdm(self, total):
        try:
            from tqdm import tqdm
        except ImportError:
            return None
        return tqdm(total=total, desc=self.label[-40:], unit="fn", file=sys.stderr,
                    leave=False)

    def _text(self, done, total):
        percent = 100 * done // total
        if percent == self.shown:
            return
        self.shown = percent
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r  {self.label[-40:]} [{'#' * filled}{'.' * (width - filled)}] "
                         f"{done}/{total} functions")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    def close(self):
        if self.bar:
            self.bar.close()
        self.bar = None


def cmd_convert(args):
    files = _inputs(args.paths, args.outdir)
    if not files:
        print("graphjit: no .py files found", file=sys.stderr)
        return 2
    planned = _plan(files, args.outdir)  # before anything is written
    status = 0
    for index, (path, relative, out_path) in enumerate(planned, 1):
        _progress(index, len(planned), relative)
        if args.check:
            status = max(status, _check(path, out_path, args))
            continue
        bar = FunctionProgress(relative)
        try:
            result = convert(path, backend=args.backend, convert_all=args.all,
                             use_import=args.use_import, progress=bar)
        except InputError as exc:
            print(f"graphjit: {exc}", file=sys.stderr)
            status = 2
            continue
        finally:
            bar.close()
        if os.path.exists(out_path) and read_header(out_path) is None and not args.force:
            print(f"graphjit: {out_path}: exists and was not written by graphjit; not "
                  "replaced (use --force)", file=sys.stderr)
            status = 2
            continue
        try:
            _write_atomically(out_path, result.source)
        except CommandError as exc:
            print(f"graphjit: {exc}", file=sys.stderr)
            status = 2
            continue
        for fn in result.fell_back:
            first = fn.reason.splitlines()[0]
            print(f"graphjit: {path}:{fn.lineno}: {fn.name} kept as Python: {first}",
                  file=sys.stderr)
        if not args.quiet:
            done = sum(f.converted for f in result.functions)
            print(f"{path} -> {out_path}: {done} converted, {len(result.fell_back)} kept as "
                  "Python", file=sys.stderr)
    return status


def _check(path, out_path, args):
    """1 when the output is missing or stale, or a function of the input falls back."""
    try:
        digest = source_hash(read_source(path))
        result = convert(path, backend=args.backend, convert_all=args.all,
                         use_import=args.use_import)
    except InputError as exc:
        print(f"graphjit: {exc}", file=sys.stderr)
        return 2
    status = 0
    recorded = read_header(out_path)
    if recorded != digest:
        state = "missing" if not os.path.exists(out_path) else (
            "not written by graphjit" if recorded is None else "stale")
        print(f"graphjit: {out_path}: {state} (source {path} has changed or was never "
              "converted)", file=sys.stderr)
        status = 1
    for fn in result.fell_back:
        print(f"graphjit: {path}:{fn.lineno}: {fn.name} falls back to Python: "
              f"{fn.reason.splitlines()[0]}", file=sys.stderr)
        status = 1
    return status


def _split_target(target):
    path, _, name = target.partition("::")
    return path, name or None


def _convert_all(path, args):
    """Every top-level function of ``path`` converted (for show/explain); None after an
    input error, which is reported on stderr."""
    try:
        return convert(path, backend=args.backend, convert_all=True, use_import=args.use_import)
    except InputError as exc:
        print(f"graphjit: {exc}", file=sys.stderr)
        return None


def cmd_show(args):
    path, name = _split_target(args.target)
    if name is None:
        print("graphjit: show needs FILE::FUNCTION", file=sys.stderr)
        return 2
    result = _convert_all(path, args)
    if result is None:
        return 2
    match = [f for f in result.functions if f.name == name]
    if not match:
        print(f"graphjit: {path}: no top-level function {name!r}", file=sys.stderr)
        return 2
    if not match[0].converted:
        print(f"graphjit: {path}:{match[0].lineno}: {name} is kept as Python: "
              f"{match[0].reason}", file=sys.stderr)
        return 1
    text = result.source
    if sys.stdout.isatty():
        try:
            from pygments import highlight
            from pygments.formatters import TerminalFormatter
            from pygments.lexers import PythonLexer
            text = highlight(text, PythonLexer(), TerminalFormatter())
        except ImportError:
            pass
    sys.stdout.write(text)
    return 0


def cmd_explain(args):
    path, name = _split_target(args.target)
    result = _convert_all(path, args)
    if result is None:
        return 2
    rows = [f for f in result.functions if name is None or f.name == name]
    if name is not None and not rows:
        print(f"graphjit: {path}: no top-level function {name!r}", file=sys.stderr)
        return 2
    base = os.path.basename(path)
    for fn in rows:
        status = "compiled" if fn.converted else "python"
        where = f"{base}:{fn.lineno}"
        print(f"{status:<9} {where:<24} {fn.name}" + (
            "" if fn.converted else f": {fn.reason.splitlines()[0]}"))
    return 0


def _size(count):
    """``count`` bytes for a person: ``1.5 MB (1572864 bytes)``."""
    if count < 1024:
        return f"{count} bytes"
    scaled = count
    for unit in ("KB", "MB", "GB"):
        scaled /= 1024
        if scaled < 1024 or unit == "GB":
            return f"{scaled:.1f} {unit} ({count} bytes)"


def _cache_functions():
    """``(cache_info, cache_clear)`` of transpiler.loader.

    Raises:
        CommandError: this graphjit's loader has no cache management.
    """
    try:
        from .loader import cache_clear, cache_info
    except ImportError:
        raise CommandError("this graphjit has no cache management (transpiler.loader lacks "
                           "cache_info/cache_clear)") from None
    return cache_info, cache_clear


def cmd_cache(args):
    """``cache info``: the folder of generated modules, its entries, size and limit;
    ``cache clear``: remove them."""
    cache_info, cache_clear = _cache_functions()
    if args.action == "info":
        info = cache_info()
        limit = info.get("limit_bytes") or 0
        print(f"path:    {info['path']}")
        print(f"entries: {info['entries']}")
        print(f"size:    {_size(info['bytes'])}")
        print(f"limit:   {_size(limit) if limit else 'none'}")
        return 0
    folder = cache_info()["path"]
    removed = cache_clear()
    print(f"removed {removed} {'entry' if removed == 1 else 'entries'} from {folder}")
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="graphjit", description="Convert Python/NumPy functions to Numba code.")
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-b", "--backend", default="numba-cpu",
                        choices=["numba-cpu", "numba-cuda", "eager"],
                        help="code generator (numba-cuda: only through jit() / "
                        "set_context(device_target='GPU'), see docs/guide/gpu.md)")
    common.add_argument("--import", dest="use_import", action="store_true",
                        help="import the input to read live values: RUNS ITS CODE")

    conv = sub.add_parser("convert", parents=[common], help="write converted modules",
                          description="Convert the functions marked @jit (every top-level "
                          "function with --all) of each file into a module that imports only "
                          "NumPy, Numba and the standard library. Inputs are parsed, never "
                          "run (unless --import).")
    conv.add_argument("paths", nargs="+", help="files or folders of .py files")
    conv.add_argument("-o", "--outdir", default="build", help="output folder (default: build)")
    conv.add_argument("--all", action="store_true", help="convert every top-level function")
    conv.add_argument("-f", "--force", action="store_true",
                      help="replace outputs that graphjit did not write")
    conv.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 if an output is stale or a function falls "
                      "back")
    conv.add_argument("-q", "--quiet", action="store_true", help="no per-file summary")
    conv.set_defaults(run=cmd_convert)

    show = sub.add_parser("show", parents=[common], help="print the generated source",
                          description="Print the module generated for FILE, which holds "
                          "FUNCTION.")
    show.add_argument("target", metavar="FILE::FUNCTION")
    show.set_defaults(run=cmd_show)

    explain = sub.add_parser("explain", parents=[common],
                             help="say what compiles and what stays Python",
                             description="For each top-level function of FILE (or FUNCTION): "
                             "compiled, or Python and why.")
    explain.add_argument("target", metavar="FILE[::FUNCTION]")
    explain.set_defaults(run=cmd_explain)

    cache = sub.add_parser("cache", help="the cache of generated modules",
                           description="info: the cache folder (set_context("
                           "compile_cache_path=...), $GRAPHJIT_CACHE_DIR, else "
                           "~/.cache/graphjit), its entries, size and limit. clear: remove "
                           "graphjit's entries from it.")
    cache.add_argument("action", choices=["info", "clear"])
    cache.set_defaults(run=cmd_cache, backend=None, use_import=False)
    return parser


def main(argv=None):
    """Entry point of the ``graphjit`` console script; returns the exit status.

    Every failure is one line on stderr and status 2, never a traceback
    (``GRAPHJIT_TRACEBACK=1`` re-raises an unexpected error, for a bug report)."""
    if argv is None:
        # The command (console script too: $PYTHONPATH may name '.'; see
        # transpiler.safe_path); a caller passing argv keeps its own sys.path.
        drop_cwd()
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with status 2 on a usage error
    try:
        return _run(args)
    except CommandError as exc:
        message = str(exc)
    except KeyboardInterrupt:
        print("graphjit: interrupted", file=sys.stderr)
        return 130
    except RecursionError:
        message = "input too deeply nested to process (RecursionError)"
    except MemoryError:
        message = "out of memory (MemoryError)"
    except Exception as exc:  # a bug in graphjit: still one line, and the status says failure
        if os.environ.get("GRAPHJIT_TRACEBACK"):
            raise
        first = (str(exc).splitlines() or [""])[0]
        message = (f"internal error: {type(exc).__name__}: {first} (GRAPHJIT_TRACEBACK=1 "
                   "shows the traceback)")
    print(f"graphjit: {message}", file=sys.stderr)
    return 2


def _run(args):
    if args.backend == "numba-cuda":
        print("graphjit: the command line converts for numba-cpu or eager only: a numba-cuda "
              "module launches its kernels through graphjit's runtime (backends.runtime.cuda), "
              "so it would not be standalone. Use jit(f, backend='numba-cuda') and "
              "f.source() to read one.", file=sys.stderr)
        return 2
    if args.use_import:
        print("graphjit: warning: --import runs the input's module-level code",
              file=sys.stderr)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
