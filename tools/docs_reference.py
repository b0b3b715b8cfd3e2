"""Write docs/reference/api.md from the public names' signatures and docstrings.

``python tools/docs_reference.py`` rewrites the file; ``--check`` exits 1 when the file differs
from what the code says (tests/test_docs.py runs it, so the reference cannot drift).
"""
import inspect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "reference", "api.md")
sys.path.insert(0, ROOT)

# (section, module path, names): the public surface of DESIGN.md's "Public surface".
SECTIONS = [
    ("Compiling", "transpiler", ["jit", "do_not_convert", "JitFunction", "set_context",
                                 "get_context"]),
    ("Inspecting", "transpiler", ["Explanation", "GeneratedSource"]),
    ("Gradients", "transpiler.autodiff", ["grad", "value_and_grad", "check_grads",
                                          "GradFunction"]),
    ("Cells", "transpiler.nn", ["Cell", "SequentialCell", "Dense", "ReLU", "Flatten",
                                "set_seed"]),
    ("Training", "transpiler.nn", ["CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits", "SGD",
                                   "Momentum", "Adam", "WithLossCell", "TrainOneStepCell"]),
    ("Errors and warnings", "transpiler", ["TranspileError", "UnsupportedConstruct",
                                           "SourceUnavailable", "FallbackWarning",
                                           "CacheWarning"]),
]


def _signature(obj):
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


def _doc(obj):
    return inspect.cleandoc(inspect.getdoc(obj) or "(no docstring)")


def _first_sentence(obj):
    """The docstring's first sentence (its first paragraph up to a full stop)."""
    paragraph = _doc(obj).split("\n\n")[0].replace("\n", " ")
    end = paragraph.find(". ")
    return paragraph if end < 0 else paragraph[:end + 1]


def render():
    import importlib
    out = ["# API reference", "",
           "Generated from the docstrings by `tools/docs_reference.py` (a test checks it is "
           "current). Import as `import transpiler as tp`; `tp.nn` holds the Cells.", ""]
    for title, module_name, names in SECTIONS:
        module = importlib.import_module(module_name)
        out += [f"## {title}", ""]
        for name in names:
            obj = getattr(module, name)
            prefix = "tp.nn." if module_name == "transpiler.nn" else "tp."
            kind = "class" if inspect.isclass(obj) else "function"
            out += [f"### `{prefix}{name}`", "", "```text",
                    f"{kind} {name}{_signature(obj)}", "```", "", "```text", _doc(obj), "```", ""]
            if inspect.isclass(obj):
                for attr, member in sorted(vars(obj).items()):
                    if attr.startswith("_") or not callable(member) or not member.__doc__:
                        continue
                    out += [f"- `{attr}{_signature(member)}`: {_first_sentence(member)}"]
                out.append("")
    out += _gradient_tables()
    return "\n".join(out).rstrip() + "\n"


def _gradient_tables():
    """The NumPy functions and array methods the adjoint pass differentiates, and those whose
    result carries no gradient, from transpiler/autodiff/rules.py's tables."""
    from transpiler.autodiff import rules
    functions = sorted(rules.FUNCTIONS)
    methods = sorted(rules.METHODS)
    constant = sorted(rules.CONSTANT)
    return ["## Differentiated NumPy functions", "",
            "From `transpiler/autodiff/rules.py` (see the [gradients guide]"
            "(../guide/gradients.md) for the conventions at ties and singular points).", "",
            "| kind | names |", "|---|---|",
            "| functions `np.<name>` | " + ", ".join(f"`{n}`" for n in functions) + " |",
            "| array methods `x.<name>()` | " + ", ".join(f"`{n}`" for n in methods) + " |",
            "| no gradient (result constant) | " + ", ".join(f"`{n}`" for n in constant) + " |",
            "| operators | `+ - * / ** @`, unary `-`, comparisons and `and`/`or`/`not` "
            "(no gradient), indexing, slicing, stores |", ""]


def main():
    text = render()
    if "--check" in sys.argv:
        current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if current != text:
            print(f"{os.path.relpath(OUT, ROOT)} is stale: run python tools/docs_reference.py")
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as handle:
        handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
