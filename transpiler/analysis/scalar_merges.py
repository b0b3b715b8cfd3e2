"""Where Numba's one type per variable would change a result, given the types each name may
hold (transpiler.analysis.scalar_types): the merge checks of :class:`ScalarTypes`, a base class
of it.

``problems`` gives the merges that change a result (transpiler.analysis.merge_problems).

Where the merge can be kept compiled with the plain call's values instead, the Specializer
(transpiler.passes.specialize) is told how: ``weak_merges`` (convert the Python number where
assigned), ``float_storage`` (keep a float / np.float32 merge in float64, narrowing reads back),
``tagged`` / ``alike_tag`` (return a flag beside the result, which the caller boxes by:
transpiler.boxing).
"""
import gast
import numpy as np

from .scalar_kinds import of_with, _BINOPS, _FLOATS, _constant, _number_pair, alike_pair
from .merge_problems import merge_problems
from .tuple_items import (items_of, result_boxes, result_types, untyped_tuple_item,
                          value_items)
from ..nodes import walk


class ScalarMerges:
    """The merge checks of :class:`~transpiler.analysis.scalar_types.ScalarTypes` (its
    ``types``, ``definitions``, ``of`` and the other attributes it sets)."""

    def boxed_as(self, read):
        """The one type Python holds in ``read`` (a Name load of a local whose name merges a
        Python number with the NumPy scalar compiled code holds alike: ``e = 0.0; e +=
        a[i]``), found from the definitions reaching it (def-use chains): after ``e +=
        a[i]`` in the loop's body, an np.float64, whatever ``e`` held before the loop. None
        where those definitions give both, or the name is no such merge. A Python island reads
        the value so (transpiler.passes.specialize.user_calls)."""
        if alike_pair(set(self.of(read))) is None:
            return None
        if getattr(self, "_reaching_reads", None) is None:
            self._reaching_reads = self._read_types()
        found = self._reaching_reads.get(id(read), ())
        return next(iter(found)) if len(found) == 1 else None

    def float_storage(self, weak=()):
        """Names merging Python floats with one NumPy float type ``np:D`` (float32, float16)
        that compiled code may keep in float64, which holds every value of both exactly.
        Each read must then see one type, or not depend on it:

        - a read reached only by ``D`` definitions is narrowed back, ``np.float32(v)``, so it
          computes as NumPy does (``v < lo`` after ``v = a[i]``: NEP 50, in float32);
        - any other read (reached by Python floats only, or by both) must only pass the
          value on: stored into a float array
          element (NumPy converts either exactly as Numba does), or given to ``float()`` or a
          ``math`` function (both convert to a double first: Python docs, "math").

        ``v = a[i]; if v < lo: v = lo; out[i] = v`` (clipping) is such a name. Arithmetic on
        a mixed read is not (float32 or float64 by path): those names stay merges (problems).
        ``weak`` names (weak_merges) are not considered.

        Returns:
            dict[int, str]: id(read Name) -> dtype name, for the reads to narrow.
        """
        candidates = {}
        for name, kinds in self.types.items():
            numpy = _float_pair(kinds)
            if numpy and name not in weak and name not in self.params and \
                    name not in self.closure_reads:
                candidates[name] = numpy
        if not candidates:
            return {}
        reads = self._read_types()
        parents = self._parents()
        narrow, refined = {}, {}
        for node in self.nodes:
            if isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name):
                candidates.pop(node.target.id, None)    # `v op= x` computes with v
            if not (isinstance(node, gast.Name) and node.id in candidates and
                    isinstance(node.ctx, gast.Load)):
                continue
            kind = candidates[node.id]
            seen = reads.get(id(node))
            if seen == {kind}:
                narrow[id(node)] = kind[3:]
                refined[id(node)] = seen
            elif not (seen and seen <= {kind, "float"} and
                      self._passes_value_on(node, parents.get(id(node)))):
                # A read only Python floats reach is not narrowed either: the NEP 50 rewrites
                # (python_numbers) judge the variable as a whole, not the read.
                candidates.pop(node.id, None)
        self.float_names = dict((name, kind[3:]) for name, kind in candidates.items())
        keep = {id(n) for n in self.nodes if isinstance(n, gast.Name) and n.id in candidates}
        self._refined = {key: kinds for key, kinds in refined.items() if key in keep}
        return {key: dtype for key, dtype in narrow.items() if key in keep}

    def _passes_value_on(self, node, parent, dtype=None):
        """Whether expression ``node`` (child of ``parent``) is only passed on by value: the
        value of a store into one element of a float array (of ``dtype`` when given), or an
        argument of ``float()`` or of a ``math`` function."""
        if isinstance(parent, gast.Assign) and parent.value is node and \
                len(parent.targets) == 1 and isinstance(parent.targets[0], gast.Subscript):
            target = parent.targets[0]
            base = self.of(target.value)
            index = self.of(target.slice) if not isinstance(target.slice, gast.Tuple) else \
                set().union(*[self.of(e) for e in target.slice.elts])
            return len(base) == 1 and index <= {"int", "np:int64"} and bool(index) and all(
                k.startswith("arr:") and k.split(":")[1] in _FLOATS and
                k.split(":")[2] == _ndim(target) and (dtype is None or k.split(":")[1] == dtype)
                for k in base)
        if dtype is None and isinstance(parent, gast.Call) and node in parent.args and \
                not parent.keywords and isinstance(parent.func, (gast.Name, gast.Attribute)):
            if isinstance(parent.func, gast.Name) and parent.func.id in self.types:
                return False
            fn = self.resolve(parent.func)
            return fn is float or (fn is not self.unknown and
                                   getattr(fn, "__module__", None) == "math")
        return False

    def _pick_passed_on(self, node):
        """Whether a pick of a Python float or an np.float32/16 operand (``min``, ``max``,
        ``x if c else y``) only passes its value on (``_passes_value_on``), so compiled code
        may pick in float64. ``min``/``max`` compare: NEP 50 compares a Python float ``p``
        with an np.float32 ``x`` in float32, Numba in float64, so they may pick differently
        where ``float32(p) == x``; both picks then store the same float32, so only a store
        into an array of that dtype is allowed. Rounding is monotone, so ``p < x`` and
        ``float32(p) < x`` never disagree the other way."""
        numpy = _float_pair(self.of(node))
        if not numpy:
            return False
        parent = self._parents().get(id(node))
        if isinstance(node, gast.IfExp):
            return self._passes_value_on(node, parent)
        if isinstance(node, gast.Call):
            return self._passes_value_on(node, parent, dtype=numpy[3:])
        return False

    def weak_merges(self, tag_result=False):
        """Names merging Python numbers with one NumPy float type ``np:D`` whose every read
        meets a ``D`` value under NEP 50 (``s + a[i]``, ``s += a[i]``, ``out[i] = s`` into a
        ``D`` array): Python converts the number to ``D`` at each such read, so converting it
        where it is assigned instead gives the same values, and Numba one type, ``D``
        (``s = 0.0; for ...: s += a[i]; out[i] = s`` over float32 arrays). A read that only
        passes the value on (``math.sqrt(s)``, ``float(s)``: ``_passes_value_on``) is allowed
        too when every number assigned is a literal ``D`` holds exactly (``_exact_numbers``).

        With ``tag_result``, the one name every ``return`` gives (``return s``, the last
        statement a return) may also be returned: it is a Python number on the paths that
        assigned one last (the loop did not run), so compiled code carries a flag beside it
        and the caller boxes the result by it (``tagged``: ``(name, dtype, "float" or
        "int")``); the numbers assigned must be literals exact in ``D``, all floats or all
        ints.

        Returns:
            dict[str, str]: name -> dtype name (``"float32"``).
        """
        self.tagged = None
        candidates = {}
        for name, kinds in self.types.items():
            numpy = {k for k in kinds if k.startswith("np:")}
            python = kinds - numpy
            if len(numpy) == 1 and python and python <= {"int", "float", "bool"} and \
                    name not in self.params:
                dtype = next(iter(numpy))[3:]
                if (dtype in ("float16", "float32") or (
                        dtype in _NARROW_INTS and python <= {"int", "bool"} and
                        self._int_literals_fit(name, dtype))) and all(
                        self._convertible(node, value, numpy)
                        for node, value in self.definitions[name]):
                    candidates[name] = dtype
        for name in self.closure_reads:      # a closure reads it as Python would hold it
            candidates.pop(name, None)
        if not candidates:
            return {}
        parents = self._parents()
        returned = set()
        for node in self.nodes:
            if isinstance(node, gast.Name) and node.id in candidates and \
                    not isinstance(node.ctx, gast.Store):
                parent = parents.get(id(node))
                if tag_result and isinstance(parent, gast.Return) and parent.value is node:
                    returned.add(node.id)
                    continue
                if not self._meets(node, parent, "np:" + candidates[node.id]) and not (
                        self._passes_value_on(node, parent) and
                        self._exact_numbers(node.id, candidates[node.id])):
                    del candidates[node.id]
            elif isinstance(node, gast.AugAssign) and isinstance(node.target, gast.Name) and \
                    node.target.id in candidates and \
                    self.of(node.value) != {"np:" + candidates[node.target.id]}:
                del candidates[node.target.id]
        for name in sorted(returned & set(candidates)):
            python = self.types[name] - {"np:" + candidates[name]}
            if self._returned_name() == name and python in ({"float"}, {"int"}) and \
                    self._exact_numbers(name, candidates[name]):
                self.tagged = (name, candidates[name], next(iter(python)))
            else:
                del candidates[name]
        return candidates

    def _returned_name(self):
        """The one name every ``return`` gives, the last statement being one of them (no
        path falls off the end), or None: the shape a result flag needs."""
        body = self.fdef.body
        if not self.returns or not body or not isinstance(body[-1], gast.Return) or not all(
                isinstance(r.value, gast.Name) for r in self.returns):
            return None
        names = {r.value.id for r in self.returns}
        return names.pop() if len(names) == 1 else None

    def alike_tag(self):
        """The result tag for a name that merges a Python number with the NumPy scalar that
        computes alike (a float and an np.float64, an int and an np.int64, a bool and an
        np.bool_): compiled values are the same, only the plain call's box differs by path
        (``s = 0.0; for ...: s += a[i]; return s`` over float64 is 0.0 or an np.float64).
        Every return must give the name (the last statement one of them), and every
        assignment of it must tell which of the two it holds (``tag_after``).

        Returns:
            tuple | None: ``(name, dtype, python kind)``, as ``tagged``.
        """
        name = self._returned_name() or self._followed_name()
        if name is None or name in self.closure_reads:
            return None
        pair = _number_pair(self.types.get(name, frozenset()))
        slots = self._tagged_slot(name)
        if not pair or slots == -1:
            return None
        boxes = []      # per tagged item (or the one result): the pair it follows
        for slot in (None,) if slots is None else slots:
            results = {self._follows(r.value if slot is None else r.value.elts[slot], name,
                                     pair) for r in self.returns}
            if len(results) != 1 or None in results:
                return None
            boxes.append((slot, results.pop()))
        tag = (name, pair[1][3:], pair[0])
        chain = self._tag_chain(name, pair)
        if chain is None:
            return None
        self.tag_chain, self.tag_updates, self.tag_params = chain
        self.tag_param = self.tag_params.get(name)
        # how the caller boxes it: the result (slot None) or those items of the returned tuple
        if slots is None:
            self.result_tag = (name, boxes[0][1][1][3:], boxes[0][1][0], None)
        else:
            self.result_tag = (name, None, None, tuple(
                (slot, result[1][3:], result[0]) for slot, result in boxes))
        return tag

    def _tag_chain(self, name, pair):
        """The flags a result tag needs: ``name``'s, and those of the merged names its
        assignments follow (``mean = s / n`` after ``s += a[i]``: ``mean`` is a Python float
        exactly where ``s`` is). Returns ``({name: pair}, {id(stmt): [(name, update)]},
        {name: bool})`` — each update True/False (the Python number or the NumPy scalar),
        None (``s += 1``: unchanged) or the name whose flag it copies; the last dict gives
        the flags of loop-region inputs (transpiler.split) — or None where an assignment
        cannot tell."""
        chain, updates, params, work = {name: pair}, {}, {}, [name]
        while work:
            current = work.pop()
            kinds = chain[current]
            tag = (current, kinds[1][3:], kinds[0])
            for stmt, value in self.definitions[current]:
                if isinstance(value, tuple) and value[0] == "param":
                    # A loop region's input (transpiler.split): its type is the argument's.
                    params[current] = self.params.get(current) == kinds[0]
                    if self.params.get(current) not in kinds:
                        return None
                    continue
                if isinstance(value, tuple) and value[0] != "update":
                    return None
                update = self.tag_after(stmt, tag)
                if update == "?":
                    update = self._followed_source(stmt, current, kinds)
                    if update is None:
                        return None
                    if update not in chain:
                        if len(chain) >= 4 or update in self.closure_reads:
                            return None
                        chain[update] = _number_pair(self.types[update])
                        work.append(update)
                updates.setdefault(id(stmt), []).append((current, update))
        return chain, updates, params

    def _followed_source(self, stmt, name, pair):
        """The one other merged name ``stmt`` (``name = <expression>``) computes ``name``
        from, when ``name`` then holds ``pair``'s Python number exactly where that name holds
        its own (``_follows``); else None."""
        if not (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], gast.Name) and stmt.targets[0].id == name):
            return None
        sources = {n.id for n in walk(stmt.value) if isinstance(n, gast.Name) and
                   _number_pair(self.types.get(n.id, ()))}
        if len(sources) != 1 or name in sources:
            return None
        source = sources.pop()
        if self._follows(stmt.value, source, _number_pair(self.types[source])) != pair:
            return None
        return source

    def _tagged_slot(self, name):
        """Where the tagged ``name``'s box shows in the result: None (every return gives one
        expression), the indices of the items that read ``name`` in a tuple every return
        gives (``return i, s``, ``return s > 0, s``; the same indices, the same length), else
        -1."""
        if not any(isinstance(r.value, gast.Tuple) for r in self.returns):
            return None
        slots = set()
        for ret in self.returns:
            if not isinstance(ret.value, gast.Tuple) or any(
                    isinstance(e, gast.Starred) for e in ret.value.elts):
                return -1
            slots.add((len(ret.value.elts), tuple(
                k for k, e in enumerate(ret.value.elts) if any(
                    isinstance(n, gast.Name) and n.id == name for n in walk(e)))))
        if len(slots) != 1:
            return -1
        _, reading = slots.pop()
        return reading if reading else -1

    def _followed_name(self):
        """The one alike-merged name (``alike_pair``) the returned expressions read, when
        every return gives an expression or a tuple (``return s * 2``, ``return i, s``; the
        last statement a return), else None: the result then follows that name's box
        (``_follows``)."""
        body = self.fdef.body
        if not self.returns or not body or not isinstance(body[-1], gast.Return) or any(
                r.value is None for r in self.returns):
            return None
        names = {n.id for r in self.returns for n in walk(r.value)
                 if isinstance(n, gast.Name) and _number_pair(self.types.get(n.id, ()))}
        return names.pop() if len(names) == 1 else None

    def _follows(self, expr, name, pair):
        """The alike pair ``expr`` gives (``alike_pair``) when it is the Python number of it
        where ``name`` holds the Python number of ``pair`` and the NumPy scalar where it holds
        that (``s * 2``, ``-s``, ``abs(s)``, ``s > 0``: a bool or an np.bool), by NumPy's and
        Python's rules (``of``) with the reads of ``name`` taken as each; else None."""
        reads = [n for n in walk(expr) if isinstance(n, gast.Name) and n.id == name]
        found = [of_with(self, expr, {n: {kind} for n in reads}) for kind in pair]
        if not all(len(kinds) == 1 for kinds in found):
            return None
        result = (next(iter(found[0])), next(iter(found[1])))
        return result if alike_pair(set(result)) == result else None

    def tag_after(self, stmt, tag):
        """What an assignment ``stmt`` of a tagged name leaves it holding: True (the Python
        number), False (the NumPy scalar), None (what it held: ``s += 1``), or "?"."""
        name, dtype, _ = tag
        numpy = {"np:" + dtype}
        if not assigns(stmt, name):
            return "?"
        if isinstance(stmt, gast.Assign):
            kinds = self.of(stmt.value)
            if kinds and not kinds & numpy and kinds <= {"int", "float", "bool", "complex"}:
                return True
            if kinds == numpy:
                return False
            value = stmt.value      # `name = name op v` (or `v op name`): as `name op= v`
            if not isinstance(value, gast.BinOp):
                return "?"
            sides = [value.left, value.right]
            mine = [isinstance(e, gast.Name) and e.id == name for e in sides]
            if mine.count(True) != 1 or any(isinstance(n, gast.Name) and n.id == name
                                            for n in walk(sides[mine.index(False)])):
                return "?"
            op, other, first = value.op, sides[mine.index(False)], mine[0]
        else:
            op, other, first = stmt.op, stmt.value, True
        # `name op= v`: the result's type from each of the two it may hold (NumPy's rules).
        fn, kinds = _BINOPS.get(type(op)), self.of(other)
        python = {tag[2]}
        from_python = self._combine(fn, [python, kinds] if first else [kinds, python])
        from_numpy = self._combine(fn, [numpy, kinds] if first else [kinds, numpy])
        if from_python == from_numpy == numpy:
            return False
        return None if (from_python, from_numpy) == (python, numpy) else "?"

    def _exact_numbers(self, name, dtype):
        """Whether every Python number assigned to ``name`` is a literal that ``dtype`` holds
        exactly: converted where assigned, it then passes on the value Python would (a read
        by ``float()``, ``math.sqrt`` or a store sees 0.0 either way)."""
        for _, value in self.definitions[name]:
            if isinstance(value, gast.AST) and self.of(value) <= {"int", "float", "bool"}:
                number = _constant(value)
                if number is None:
                    return False
                if np.dtype(dtype).kind in "iu":
                    if not self._int_literals_fit(name, dtype):
                        return False
                elif float(np.dtype(dtype).type(number)) != number:
                    return False
        return True

    def _int_literals_fit(self, name, dtype):
        """Whether every Python number assigned to ``name`` is an int (or bool) literal that
        integer ``dtype`` holds: NEP 50 converts it where it meets the ``dtype`` value, and
        raises OverflowError there where it does not fit, so converting it where assigned is
        the same only for these (``s = 3; for x in a: s += x`` over an int32 array)."""
        info = np.iinfo(dtype)
        for _, value in self.definitions[name]:
            if isinstance(value, gast.AST) and self.of(value) <= {"int", "float", "bool"}:
                number = _constant(value)
                if type(number) not in (int, bool) or not info.min <= number <= info.max:
                    return False
        return True

    def _convertible(self, node, value, numpy):
        """A definition ``stmt_Assign`` converts (``x = <Python number>``), or one giving the
        NumPy type already (``x = a[i]``, ``x op= a[i]``)."""
        if isinstance(value, tuple) and value[0] == "update":
            return True     # its value is checked by weak_merges
        if not isinstance(node, gast.Assign) or len(node.targets) != 1 or not isinstance(
                node.targets[0], gast.Name) or not isinstance(value, gast.AST):
            return False
        kinds = self.of(value)
        return kinds == numpy or kinds <= {"int", "float", "bool"}

    def _meets(self, name, parent, kind):
        """Whether the read ``name`` (child of ``parent``) is converted to ``kind`` by NEP 50."""
        if isinstance(parent, gast.BinOp) and not isinstance(parent.op, gast.MatMult):
            other = parent.right if parent.left is name else parent.left
            return self.of(other) == {kind}
        if isinstance(parent, gast.Assign) and parent.value is name and \
                len(parent.targets) == 1 and isinstance(parent.targets[0], gast.Subscript):
            target = parent.targets[0]     # a store of one element: converted to the dtype
            return self.of(target.value) == {f"arr:{kind[3:]}:{_ndim(target)}"}
        return False

    # the item types of tuple values (analysis/tuple_items.py)
    _untyped_tuple_item = untyped_tuple_item
    value_items = value_items
    items_of = items_of
    result_types = result_types
    result_boxes = result_boxes

    problems = merge_problems




# NumPy integer dtypes a Python int literal can be converted to where assigned (weak_merges);
# int64 merges compute alike with Python ints and keep their own rules (numpy_scalar_rules)
_NARROW_INTS = ("int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64")


def _float_pair(kinds):
    """``"np:float32"``/``"np:float16"`` when ``kinds`` is exactly a Python float and that
    NumPy float (a merge float64 holds exactly), else None."""
    numpy = {k for k in kinds if k.startswith("np:")}
    if len(numpy) == 1 and kinds == numpy | {"float"} and \
            next(iter(numpy)) in ("np:float32", "np:float16"):
        return next(iter(numpy))
    return None


def assigns(stmt, name):
    """Whether ``stmt`` is ``name = ...`` (one Name target) or ``name op= ...``."""
    if isinstance(stmt, gast.Assign):
        return len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name) and \
            stmt.targets[0].id == name
    return isinstance(stmt, gast.AugAssign) and isinstance(stmt.target, gast.Name) and \
        stmt.target.id == name


def _ndim(subscript):
    """The ndim an array indexed by ``subscript`` (all indices ints) must have: as many."""
    index = subscript.slice
    return str(len(index.elts) if isinstance(index, gast.Tuple) else 1)
