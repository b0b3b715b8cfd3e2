"""The ``graphjit`` command (also ``python -m transpiler``): convert, show, explain.

Exit status: 0 success; 1 with ``--check`` when a function fell back or an output is stale;
2 usage error, unreadable or unparsable input, or an output graphjit did not write (use
``--force``). Messages go to stderr and name the file and line.
"""
import argparse
import os
import sys
import tempfile

from .convert_file import InputError, convert, read_header, source_hash

PROGRESS_FROM = 10  # files; fewer convert silently


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


def _write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".graphjit-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _progress(index, total, path):
    if total >= PROGRESS_FROM:
        width = 30
        done = int(width * index / total)
        sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {index}/{total} {path[:40]:<40}")
        if index == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def cmd_convert(args):
    files = _inputs(args.paths, args.outdir)
    if not files:
        print("graphjit: no .py files found", file=sys.stderr)
        return 2
    status = 0
    for index, (path, relative) in enumerate(files, 1):
        _progress(index, len(files), relative)
        out_path = os.path.join(args.outdir, relative)
        if args.check:
            status = max(status, _check(path, out_path, args))
            continue
        try:
            result = convert(path, backend=args.backend, convert_all=args.all,
                             use_import=args.use_import)
        except InputError as exc:
            print(f"graphjit: {exc}", file=sys.stderr)
            status = 2
            continue
        if os.path.exists(out_path) and read_header(out_path) is None and not args.force:
            print(f"graphjit: {out_path}: exists and was not written by graphjit; not "
                  "replaced (use --force)", file=sys.stderr)
            status = 2
            continue
        _write_atomically(out_path, result.source)
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
        with open(path, encoding="utf-8") as handle:
            digest = source_hash(handle.read())
        result = convert(path, backend=args.backend, convert_all=args.all,
                         use_import=args.use_import)
    except (OSError, InputError) as exc:
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


def build_parser():
    parser = argparse.ArgumentParser(
        prog="graphjit", description="Convert Python/NumPy functions to Numba code.")
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-b", "--backend", default="numba-cpu",
                        choices=["numba-cpu", "numba-cuda", "eager"],
                        help="code generator (numba-cuda: only through jit() / "
                        "set_context(device_target='GPU'), see README)")
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
    return parser


def main(argv=None):
    """Entry point of the ``graphjit`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)  # exits with status 2 on a usage error
    if args.backend == "numba-cuda":
        print("graphjit: the command line converts for numba-cpu or eager only: a numba-cuda "
              "module launches its kernels through graphjit's runtime (backends.cuda_runtime), "
              "so it would not be standalone. Use jit(f, backend='numba-cuda') and "
              "f.source() to read one.", file=sys.stderr)
        return 2
    if args.use_import:
        print("graphjit: warning: --import runs the input's module-level code",
              file=sys.stderr)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
