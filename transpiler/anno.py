"""Annotations: the facts analyses and passes leave on gast nodes for the passes after them.

In the manner of AutoGraph's ``pyct/anno.py``: every fact a later pass reads has one key here
that names the analysis or pass producing it, and reading a fact that was never produced is an
error naming that producer, not an ``AttributeError`` (or a silent default) deep in a pass.

Two levels:

- **Analyses run on a function** (:data:`LIVENESS`, :data:`DEFINITE_ASSIGNMENT`): an analysis
  marks the ``FunctionDef`` it annotated (:func:`mark_done`); a pass declares what it needs in
  a module-level ``REQUIRES`` tuple and checks it on entry (:func:`require`); a pass that
  changes control flow declares ``INVALIDATES`` and clears the marks (:func:`invalidate`).
- **Keys on nodes** (:data:`LIVE_OUT`, :data:`DEFINED_IN`, ...): read with :func:`get`.

The values are kept as plain attributes of the nodes (``node.live_out``), so a generated tree
prints and deep-copies as before.
"""
from typing import NamedTuple


class Analysis(NamedTuple):
    """An analysis that annotates a whole function: its name and the function that runs it."""
    name: str
    producer: str


class Key(NamedTuple):
    """One annotation: the node attribute holding it, who sets it, and what it holds."""
    attr: str
    producer: str
    doc: str


LIVENESS = Analysis("liveness", "transpiler.analysis.liveness.annotate")
DEFINITE_ASSIGNMENT = Analysis("definite assignment",
                               "transpiler.analysis.definite_assignment.annotate_defined")

LIVE_OUT = Key("live_out", LIVENESS.producer,
               "frozenset[str]: variables live after an If/While/For/With/Try")
DEFINED_IN = Key("defined_in", DEFINITE_ASSIGNMENT.producer,
                 "frozenset[str]: variables assigned on every path reaching a compound "
                 "statement; absent where the statement is unreachable")
EXTRA_TEST = Key("extra_test", "transpiler.passes.lower_break_continue",
                 "gast.expr: a `for` loop's lowered `break` test (`not break_`), read before "
                 "each iteration; absent when the loop has no break")
FORM = Key("graphjit_form", "transpiler.passes.forms_common.form_call",
           "str: the functional form a Call node calls (`cond`, `while_loop`, ...)")
FORM_FUNCTION = Key("graphjit_form_function", "transpiler.passes.forms_common.form_function",
                    "bool: a FunctionDef that is the body of a functional form")

_DONE = "graphjit_analyses"     # FunctionDef attribute: the analyses valid on it now
_MISSING = object()


class MissingAnalysis(RuntimeError):
    """A pass ran before an analysis it needs: a bug in the pipeline's order, not user code."""


def set_anno(node, key, value):
    """Record ``value`` under ``key`` on ``node``."""
    setattr(node, key.attr, value)


def get(node, key, default=_MISSING):
    """The value of ``key`` on ``node``; ``default`` when absent, if given.

    Raises:
        MissingAnalysis: absent and no default: names the producer that should have set it.
    """
    value = getattr(node, key.attr, _MISSING)
    if value is not _MISSING:
        return value
    if default is not _MISSING:
        return default
    where = getattr(node, "lineno", None)
    raise MissingAnalysis(
        f"{type(node).__name__} node{f' at line {where}' if where else ''} has no "
        f"{key.attr!r} ({key.doc}): {key.producer} must run before this pass")


def has(node, key):
    """Whether ``key`` is set on ``node``."""
    return getattr(node, key.attr, _MISSING) is not _MISSING


def mark_done(fdef, analysis):
    """Record that ``analysis`` annotated ``fdef`` and its annotations are current."""
    done = getattr(fdef, _DONE, None)
    if done is None:
        done = set()
        setattr(fdef, _DONE, done)
    done.add(analysis)


def invalidate(fdef, *analyses):
    """``fdef``'s control flow changed: ``analyses`` must run again before they are read."""
    done = getattr(fdef, _DONE, None)
    if done is not None:
        done.difference_update(analyses)


def require(fdef, analyses, by):
    """Check that every one of ``analyses`` annotated ``fdef`` since it last changed.

    Raises:
        MissingAnalysis: naming the first analysis missing, its producer, and the pass ``by``.
    """
    done = getattr(fdef, _DONE, ())
    for analysis in analyses:
        if analysis not in done:
            raise MissingAnalysis(f"{by} needs {analysis.name} of {fdef.name!r}, which did not "
                                  f"run since the function last changed (run "
                                  f"{analysis.producer} first)")
