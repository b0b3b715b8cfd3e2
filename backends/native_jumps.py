"""``break`` and ``continue`` again, in structured code that compiles loops natively (numba-cpu).

``transpiler.passes.lower_break_continue`` turns a jump into a flag for the functional forms:
``F = True`` where the jump was, the rest of the iteration guarded by ``if not F:``, and the
loop stopped before its next iteration (a ``for`` loop's body starts ``if F: break`` once
restructured, a ``while`` test becomes ``not F and (test)``; a ``continue`` flag is reset to
False at the top of every iteration). Numba compiles that form correctly but more slowly: the
flag is one more loop-carried variable and every guard one more branch to type and lower
(newton_sqrt's generated module alone, first call: 222 ms with flags, 198 ms with a native
``break``, medians of 12 fresh processes; in the whole first call, transpile included, 227 vs
226 ms, within the noise; the same run time). And the generated source reads like the user's.

This pass undoes it where the code has exactly that shape: each ``F = True`` the last statement
of its block, everything after a statement that may set ``F`` (in the same block) is one
``if not F:`` guard, no guard of another flag at the loop's level (a loop with both a break
and a continue, or a lowered return, keeps its flags), and no other read or write of ``F``
anywhere in the function (so ``F`` is dead after the loop). Then ``F = True`` becomes
``break``/``continue``, each guard its body, and the initializer and the loop's test of ``F``
go. Anything else is left as it is. A user's own variable of exactly that shape (``found =
False; while not found and ...``) is a flag like any other: the rewrite keeps its meaning.
"""
import gast

from transpiler.nodes import walk


def native_jumps(fdef):
    """Rewrite the jump flags of ``fdef`` (structured gast.FunctionDef, changed in place) as
    native ``break``/``continue`` (module docstring); returns ``fdef``."""
    counts = {}
    for node in walk(fdef):
        if isinstance(node, gast.Name):
            counts[node.id] = counts.get(node.id, 0) + 1
    _block(fdef.body, counts)
    return fdef


def _block(stmts, counts):
    for stmt in stmts:                  # inner loops first
        if isinstance(stmt, (gast.If, gast.For, gast.While)):
            _block(stmt.body, counts)
            _block(stmt.orelse, counts)
    index = 0
    while index < len(stmts):
        loop = stmts[index]
        if isinstance(loop, (gast.For, gast.While)) and not loop.orelse:
            _continue_flag(loop, counts)
            if index > 0 and _break_flag(stmts[index - 1], loop, counts):
                del stmts[index - 1]
                continue
        index += 1


def _break_flag(before, loop, counts):
    """Rewrite ``loop``'s break flag, set False by ``before``; whether it did."""
    flag = _assigned(before, False)
    if flag is None:
        return False
    if isinstance(loop, gast.For):
        top = loop.body[0] if loop.body else None
        if not (isinstance(top, gast.If) and _is_name(top.test, flag) and not top.orelse
                and len(top.body) == 1 and isinstance(top.body[0], gast.Break)):
            return False
        rest = loop.body[1:]
    else:
        test = loop.test
        if not (isinstance(test, gast.BoolOp) and isinstance(test.op, gast.And)
                and len(test.values) >= 2 and _is_not(test.values[0], flag)):
            return False
        rest = loop.body
    used = _level(rest, flag)
    if used is None or used[1] == 0 or counts.get(flag) != 2 + used[0]:
        return False
    loop.body = _rewrite(rest, flag, gast.Break)
    if isinstance(loop, gast.While):
        values = loop.test.values[1:]
        loop.test = values[0] if len(values) == 1 else gast.BoolOp(op=gast.And(), values=values)
    counts[flag] = 0
    return True


def _continue_flag(loop, counts):
    """Rewrite ``loop``'s continue flag, reset False by a statement at the top of its body."""
    for position, stmt in enumerate(loop.body[:2]):
        flag = _assigned(stmt, False)
        if flag is None:
            continue
        rest = loop.body[position + 1:]
        used = _level(rest, flag)
        if used is None or used[1] == 0 or counts.get(flag) != 1 + used[0] or any(
                _mentions(s, flag) for s in loop.body[:position]):
            return
        loop.body = loop.body[:position] + (_rewrite(rest, flag, gast.Continue) or [
            gast.copy_location(gast.Pass(), loop)])
        counts[flag] = 0
        return


def _level(stmts, flag):
    """``(occurrences of flag, sets)`` in ``stmts`` at the loop's own level (through ``if``
    only) when every one has the shape the rewrite needs; None otherwise."""
    found = sets = 0
    for index, stmt in enumerate(stmts):
        if _assigned(stmt, True) == flag:
            if index != len(stmts) - 1:
                return None
            found, sets = found + 1, sets + 1
            continue
        if _is_guard(stmt, flag):
            inner = _level(stmt.body, flag)
            if inner is None:
                return None
            found, sets = found + 1 + inner[0], sets + inner[1]
        elif _guarded(stmt) is not None:
            # another flag's guard (a break and a continue in one loop, a return, an unrolled
            # loop's break): left as it is. With one jump native, Numba's branch pruning can
            # find the other flag constant on the only path left and drop the code it guards,
            # with the only definition of a variable (helper-found: TypingError, retval)
            return None
        elif isinstance(stmt, gast.If) and not _mentions(stmt.test, flag):
            body, orelse = _level(stmt.body, flag), _level(stmt.orelse, flag)
            if body is None or orelse is None:
                return None
            found, sets = found + body[0] + orelse[0], sets + body[1] + orelse[1]
            if body[1] + orelse[1] == 0:
                continue
        elif _mentions(stmt, flag):
            return None
        else:
            continue
        # it may set the flag: what follows in this block must be one guard of the rest
        after = stmts[index + 1:]
        if after and not (len(after) == 1 and _is_guard(after[0], flag)):
            return None
    return found, sets


def _rewrite(stmts, flag, jump):
    out = []
    for stmt in stmts:
        if _assigned(stmt, True) == flag:
            out.append(gast.copy_location(jump(), stmt))
        elif _is_guard(stmt, flag):
            out.extend(_rewrite(stmt.body, flag, jump))
        else:
            if isinstance(stmt, gast.If) and _mentions(stmt, flag):
                stmt.body = _rewrite(stmt.body, flag, jump) or [
                    gast.copy_location(gast.Pass(), stmt)]
                stmt.orelse = _rewrite(stmt.orelse, flag, jump)
            out.append(stmt)
    return out


def _assigned(stmt, value):
    """The name ``stmt`` assigns the bool ``value`` to (``F = value``), or None."""
    if isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Constant) and \
            stmt.value.value is value:
        return stmt.targets[0].id
    return None


def _is_name(node, flag):
    return isinstance(node, gast.Name) and node.id == flag


def _negated(node):
    """The name ``node`` negates (``not F``), or None."""
    if isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.Not) and isinstance(
            node.operand, gast.Name):
        return node.operand.id
    return None


def _is_not(node, flag):
    return _negated(node) == flag


def _guarded(stmt):
    """The name of the flag ``stmt`` tests as a guard (``if not F:``), or None."""
    return _negated(stmt.test) if isinstance(stmt, gast.If) else None


def _is_guard(stmt, flag):
    return _guarded(stmt) == flag and not stmt.orelse


def _mentions(node, flag):
    return any(isinstance(n, gast.Name) and n.id == flag for n in walk(node))
