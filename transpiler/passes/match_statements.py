"""``match`` statements with value, singleton, or-, wildcard and capture patterns become
``if``/``elif`` chains (issue 20), before the number analyses run.

PEP 634 ("Structural Pattern Matching: Specification"): the subject is evaluated once; the
cases are tried in order; a value pattern succeeds if ``subject == value``, a singleton pattern
(``None``, ``True``, ``False``) if ``subject is value``, an or-pattern if one of its
alternatives does (left to right), a wildcard ``_`` always; a capture pattern ``n`` always
succeeds and binds ``n = subject``, ``P as n`` binds ``n`` when ``P`` succeeds; a guard is
evaluated after the pattern succeeded and its bindings were made. So

    match x:                       _subject = x
        case 1 | 2: A              if _subject == 1 or _subject == 2: A
        case None: B         ->    elif _subject is None: B
        case n: C                  else: n = _subject; C

A case whose pattern binds a name and has a guard is left (when the guard is false the binding
stays: the chain would need a flag), as are class, sequence and mapping patterns: the
specializer then says the statement is not converted.
"""

import gast

from ..naming import fresh
from ..nodes import assign, copy_tree, located, name, rewrite_blocks, walk


class _Unsupported(Exception):
    pass


def desugar(fdef):
    """A copy of ``fdef`` (gast.FunctionDef, read-only) with its convertible ``match``
    statements as ``if`` chains, or ``fdef`` itself when there is none."""
    if not any(isinstance(n, gast.Match) for n in walk(fdef)):
        return fdef
    fdef = copy_tree(fdef)
    taken = {n.id for n in walk(fdef) if isinstance(n, gast.Name)} | {fdef.name}
    fdef.body = rewrite_blocks(fdef.body, lambda stmt: _rewrite(stmt, taken))
    return fdef


def _rewrite(stmt, taken):
    if isinstance(stmt, gast.Match):
        try:
            return _chain(stmt, taken)
        except _Unsupported:
            pass
    return [stmt]


def _chain(match, taken):
    subject = fresh("match_subject", taken)
    taken.add(subject)
    rest = []
    for case in reversed(match.cases):
        test, bound = _test(case.pattern, subject)
        if bound and case.guard is not None:
            raise _Unsupported()
        body = [located(assign(n, name(subject)), case.pattern) for n in bound] + case.body
        if case.guard is not None:
            test = case.guard if test is None else gast.BoolOp(op=gast.And(),
                                                               values=[test, case.guard])
        if test is None:
            rest = body                 # irrefutable: the later cases are unreachable
        else:
            rest = [located(gast.If(test=test, body=body, orelse=rest), case.pattern)]
    return [located(assign(subject, match.subject), match)] + rest


def _test(pattern, subject):
    """``(test expression or None for always, [names bound])`` of ``pattern``."""
    if isinstance(pattern, gast.MatchValue):
        return gast.Compare(left=name(subject), ops=[gast.Eq()],
                            comparators=[pattern.value]), []
    if isinstance(pattern, gast.MatchSingleton):
        return gast.Compare(left=name(subject), ops=[gast.Is()],
                            comparators=[gast.Constant(value=pattern.value, kind=None)]), []
    if isinstance(pattern, gast.MatchAs):
        if pattern.pattern is None:
            return None, [pattern.name] if pattern.name else []
        test, bound = _test(pattern.pattern, subject)
        return test, bound + ([pattern.name] if pattern.name else [])
    if isinstance(pattern, gast.MatchOr):
        tests = []
        for alternative in pattern.patterns:
            test, bound = _test(alternative, subject)
            if bound or test is None:
                raise _Unsupported()
            tests.append(test)
        return gast.BoolOp(op=gast.Or(), values=tests), []
    raise _Unsupported()
