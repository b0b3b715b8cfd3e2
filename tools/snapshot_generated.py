"""Dump the generated source of graphjit's own test cases, to compare two versions of the code.

A refactoring must not change what graphjit generates: dump before (``--out A``) and after
(``--out B``) and compare (``--compare A B``). Cases: the reference suite, its fidelity cases,
the control-flow cases, the saved fuzz cases, and the dtype-matrix functions over every scalar
and array kind; each lowered by numba-cpu (with its IR) and numba-cuda (under the simulator).
Nothing is compiled: transpile and load only (Numba compiles lazily).

    make snapshot OUT=/tmp/before            # on the old commit
    make snapshot OUT=/tmp/after             # on the new one
    make snapshot-compare A=/tmp/before B=/tmp/after

``--compare`` prints how many files differ, how many beyond ``# file.py:N`` location comments,
and the differing lines counted, most frequent first.
"""
import argparse
import collections
import copy
import glob
import importlib.util
import os
import re
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LOCATION = re.compile(r"  # [A-Za-z_0-9]+\.py:[0-9]+$")


def cases():
    """``(function, args)`` pairs from the test suite's own tables."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import test_control_flow as C
    import test_dtype_matrix as D
    import test_reference_suite as R
    found = [(f, a) for f, a in R.CASES] + [(c[0], c[1]) for c in R.FIDELITY_CASES]
    found += [(c[0], c[-1] if isinstance(c[-1], tuple) else c[1]) for c in C.CASES
              if callable(c[0])]
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fuzzing/regressions/case_*.py"))):
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found += [(module.f, inputs) for inputs in module.INPUTS]
    for value in D.SCALARS + D.ARRAYS:
        found += [(D.twice, (value,)), (D.acc, (value, 3))]
    return found


def dump(out):
    """Write one file per case and backend into folder ``out``; returns how many."""
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
    import transpiler as tp
    os.makedirs(out, exist_ok=True)
    warnings.simplefilter("ignore")
    count = 0
    for i, (fn, args) in enumerate(cases()):
        for backend in ("numba-cpu", "numba-cuda"):
            try:
                jitted = tp.jit(fn, backend=backend)
                spec = jitted._specialize_for(None, copy.deepcopy(tuple(args)))
                text = str(spec.source) if spec.fallback_reason is None else \
                    "FALLBACK " + spec.fallback_reason
                if spec.program is not None and backend == "numba-cpu":
                    text += "\n#### IR\n" + str(jitted._ir_for(None))
            except Exception as exc:  # noqa: BLE001 - recorded, compared like the rest
                text = f"ERROR {type(exc).__name__}: {exc}"
            text = re.sub(r"_gjmod_[0-9a-f]+", "_gjmod_X", text.replace(ROOT, "<ROOT>"))
            with open(os.path.join(out, f"{i:03d}_{fn.__name__}_{backend}.py"), "w") as f:
                f.write(text)
            count += 1
    return count


def compare(a, b):
    """Print the differences between two dumps; returns the number of files that differ
    beyond location comments."""
    names = sorted(set(os.listdir(a)) | set(os.listdir(b)))
    any_diff, real, lines = 0, 0, collections.Counter()
    for name in names:
        old = _read(os.path.join(a, name))
        new = _read(os.path.join(b, name))
        if old == new:
            continue
        any_diff += 1
        old_s = [_LOCATION.sub("", line) for line in old]
        new_s = [_LOCATION.sub("", line) for line in new]
        if old_s != new_s:
            real += 1
            for line in set(old_s) ^ set(new_s):
                lines[("<" if line in old_s else ">") + " " + line.strip()] += 1
    print(f"{len(names)} files; {any_diff} differ; {real} beyond location comments")
    for line, n in lines.most_common(30):
        print(f"{n:5d} {line}")
    return real


def _read(path):
    if not os.path.exists(path):
        return ["<missing>"]
    with open(path) as f:
        return f.read().splitlines()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", help="dump into this folder")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"), help="compare two dumps")
    args = parser.parse_args(argv)
    if args.compare:
        compare(*args.compare)
    elif args.out:
        print(dump(args.out), "files written to", args.out)
    else:
        parser.error("give --out or --compare")


if __name__ == "__main__":
    main()
