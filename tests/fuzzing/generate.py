"""A seeded generator of small, always-terminating Python functions, as source text.

A classic program is ``def f(<ints>, <floats>, a):`` where ``a`` is a 1-D float32 array. Its
locals are assigned at the top (graphjit refuses reads of maybe-unassigned variables, so every
path defines every variable it reads); loop variables are read only inside their loop. Loops are
bounded: ``for`` over small ``range``s or over ``a``, and ``while`` loops carry a counter
(``w0 += 1`` as the first statement of the body, ``w0 < K`` in the test). Int products inside
loops are reduced ``% 1009`` so that values stay inside int64. Every ``return`` gives the same
shape (a value or a tuple of int/float slots), so the plain and compiled results are comparable.

Things with known semantic gaps are generated on purpose, at low rates: raw divisors that can be
zero, ``math.sqrt`` of a possibly negative value, ``int ** negative``, raw ``a[k]`` indexes,
``int()``/``math.floor`` of floats, raw float32 array reads mixed with Python floats,
``math.exp``/``sin``/``pow``/``ldexp``... (range and domain errors).

The NumPy universe (``generate(rng, universe="numpy")``, 40% of a round's programs: see
``pick_universe``) has parameters of every scalar type (Python bool/int/float/complex, NumPy
bool_, int8..int64, uint8..uint64, float16/32/64, complex64/128), arrays of every dtype, a
tuple ``q0`` of numbers (``TUPLE_SHARE``) and a list ``l0`` of Python numbers of one kind
(``LIST_SHARE``; re-typed in a history to NumPy elements, which stay Python), and
adds ``<< >> & | ^ ~``, unary ``+``, divmod, round, sum, isinstance, complex, bool and more of
math.* (``_TypedGen``). Expressions are mostly well-typed by kind (bool, int, float, complex);
a few operands are of another kind on purpose (then both runs must raise the same exception).

``make_history`` gives the calls that go through the same jitted object after the inputs: the
parameters re-typed (an int as np.uint16, a float32 array as int8, now and then another kind),
then the first types again.

*Python islands* (``generate(..., islands=rng)``, ``ISLAND_SHARE`` of a round's programs in both
universes): the program gets a last parameter ``log`` (spec ``"log"``: a fresh empty Python list
each call), and for ``DICT_SHARE`` of those a ``d0`` (spec ``"dict"``: a fresh ``{"a": 1, "b":
2.5}``); inside loop bodies and branches, at a low rate (``ISLAND_RATE`` per block), statements
that compiled code cannot run and that graphjit runs as Python islands from inside a compiled
loop: ``log.append(<expr>)`` with an expression of any kind, ``log.append(f"{<expr>}")`` (also
``!r``), ``log.append((<expr>, <expr>))``, ones that can raise after effects (a division by a
value that can be zero, a raw index into ``a`` or into ``log``), reads and stores of ``d0``
(``log.append(d0["a"] * <expr>)``, ``d0["c"] = <expr>``, ``d0["a"] += <expr>``), and a few that
store into a local the loop reads (``v0 = v0 + len(log)``: the loop must then stay Python).
Everything about islands is drawn from the ``islands`` stream only (the main stream's draws are
unchanged, so a program is the one the seed gave before, plus its islands), and ``log``/``d0``
are never re-typed in a history.

Usage::

    program = generate(random.Random(7))
    program.source        # "import math\\n\\ndef f(i0, x0, a):\\n    ..."
    inputs = make_inputs(random.Random(7), program.params, count=3)
    history = make_history(random.Random(8), program.params, count=2)
"""
import ast
import random
from dataclasses import dataclass

import numpy as np

HEADER = "import math\nimport numpy as np\n\n\n"
INT_CONSTS = [0, 1, 2, 3, 4, 5, 7, 10, -1, -2, -3]
FLOAT_CONSTS = ["0.0", "0.5", "1.5", "-2.0", "3.25", "0.1", "100.0", "-0.75", "2.0", "0.001"]
CMP_OPS = ["<", "<=", ">", ">=", "==", "!="]
MAX_DEPTH = 3        # nesting of compound statements
RAW_F32 = 0.1        # share of array reads not wrapped in float()
MAX_LOOPS = 2        # nesting of loops (keeps the plain run far below a millisecond)
ISLAND_SHARE = 0.25  # share of programs with a ``log`` parameter and island statements
DICT_SHARE = 0.4     # ... of those, with a dict parameter ``d0`` too
ISLAND_RATE = 0.5    # chance that a block (loop body, branch) gets an island statement
ISLAND_MORE = 0.15   # ... and then a second one
FIXED_SPECS = {"log": list, "dict": dict}    # parameters that stay Python values (never re-typed)


@dataclass
class Program:
    """One generated function.

    Attributes:
        source (str): the whole module text (imports and ``def f``).
        name (str): the function's name.
        params (list[tuple[str, str]]): (name, spec): ``int``, ``float`` or ``array`` (float32)
            in the classic universe; in the NumPy one any scalar type of SCALAR_TYPES
            (``np.uint8``, ``complex``, ...) or ``array np.<dtype>``.
        universe (str): "classic" or "numpy" (see ``generate``).
        islands (int): how many island statements (``log.append(...)``, ``d0[...]``) it has;
            a program with ``log`` in its params may have none (no loop or branch got one).
    """
    source: str
    name: str
    params: list
    universe: str = "classic"
    islands: int = 0


class _Gen:
    def __init__(self, rng, raw_f32):
        self.rng = rng
        self.raw_f32 = raw_f32
        self.lines = []
        self.budget = 0
        self.ints = []            # readable int names
        self.floats = []          # readable float names (f32 loop elements are in f32s too)
        self.f32s = set()
        self.int_targets = []
        self.float_targets = []
        self.loops = 0
        self.counters = 0
        self.loop_vars = 0
        self.ret = ["int"]
        self.island_rng = None    # a random.Random: this program has a log (and islands)
        self.has_dict = False     # ... and a d0
        self.island_count = 0

    # -- helpers ---------------------------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def pick(self, seq):
        return self.rng.choice(seq)

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    # -- expressions -----------------------------------------------------------------------
    def int_leaf(self):
        r = self.rng.random()
        if r < 0.65 and self.ints:
            return self.pick(self.ints)
        return str(self.pick(INT_CONSTS))

    def float_leaf(self):
        r = self.rng.random()
        if r < 0.45 and self.floats:
            name = self.pick(self.floats)
            if name in self.f32s and not self.chance(self.raw_f32):
                return f"float({name})"
            return name
        if r < 0.7:
            return self.array_read()
        return self.pick(FLOAT_CONSTS)

    def index(self, depth):
        if self.chance(0.03):                     # raw index: may be out of range
            return str(self.pick([0, 1, 2, 3, -1]))
        return f"({self.int_expr(depth)}) % n"

    def array_read(self, depth=1):
        read = f"a[{self.index(depth)}]"
        return read if self.chance(self.raw_f32) else f"float({read})"

    def int_divisor(self, depth):
        if self.chance(0.1):
            return self.int_expr(depth)
        if self.chance(0.5):
            return str(self.pick([2, 3, 5, 7, -3]))
        return f"(abs({self.int_expr(depth)}) + 1)"

    def float_divisor(self, depth):
        if self.chance(0.1):
            return self.float_expr(depth)
        if self.chance(0.4):
            return self.pick(["2.0", "0.5", "3.0", "-4.0"])
        return f"(abs({self.float_expr(depth)}) + 1.0)"

    def int_expr(self, depth=2):
        if depth <= 0 or self.chance(0.3):
            return self.int_leaf()
        d = depth - 1
        r = self.rng.random()
        if r < 0.35:
            return f"({self.int_expr(d)} {self.pick(['+', '-', '*'])} {self.int_expr(d)})"
        if r < 0.47:
            return f"({self.int_expr(d)} {self.pick(['//', '%'])} {self.int_divisor(d)})"
        if r < 0.52:
            if self.chance(0.1):
                exponent = self.pick(["-1", "-2"] + self.ints)
            else:
                exponent = str(self.pick([0, 1, 2, 3]))
            return f"({self.int_expr(d)} ** {exponent})"
        if r < 0.58:
            return f"abs({self.int_expr(d)})"
        if r < 0.68:
            return f"{self.pick(['min', 'max'])}({self.int_expr(d)}, {self.int_expr(d)})"
        if r < 0.72:
            return f"(-{self.int_expr(d)})"
        if r < 0.80:
            return f"math.floor({self.float_expr(d)})"
        if r < 0.84:
            return f"int({self.float_expr(d)})"
        if r < 0.90:
            return f"({self.int_expr(d)} if {self.cond(d)} else {self.int_expr(d)})"
        return self.int_leaf()

    def float_expr(self, depth=2):
        if depth <= 0 or self.chance(0.25):
            return self.float_leaf()
        d = depth - 1
        r = self.rng.random()
        if r < 0.30:
            a, b = self.float_expr(d), (self.float_expr(d) if self.chance(0.7) else self.int_expr(d))
            if self.chance(0.5):
                a, b = b, a
            return f"({a} {self.pick(['+', '-', '*'])} {b})"
        if r < 0.42:
            num = self.float_expr(d) if self.chance(0.8) else self.int_expr(d)
            return f"({num} / {self.float_divisor(d)})"
        if r < 0.46:
            return f"({self.int_expr(d)} / {self.int_divisor(d)})"
        if r < 0.51:
            return f"({self.float_expr(d)} {self.pick(['//', '%'])} {self.float_divisor(d)})"
        if r < 0.57:
            if self.chance(0.08):
                return f"({self.float_expr(d)} ** {self.float_expr(d)})"
            if self.chance(0.5):
                return f"(abs({self.float_expr(d)}) ** {self.pick(['0.5', '1.5', '2.0'])})"
            return f"({self.float_expr(d)} ** {self.pick(['2', '3'])})"
        if r < 0.65:
            if self.chance(0.4):
                # CPython's range/domain errors and float64 results (transpiler.helpers.math_checks)
                fn = self.pick(["math.exp", "math.sin", "math.cos", "math.tan", "math.atan",
                                "math.tanh", "math.expm1", "math.cosh", "math.pow",
                                "math.ldexp"])
                if fn == "math.pow":
                    return f"math.pow({self.float_expr(d)}, {self.float_expr(d)})"
                if fn == "math.ldexp":
                    return f"math.ldexp({self.float_expr(d)}, {self.int_expr(d)})"
                return f"{fn}({self.float_expr(d)})"
            if self.chance(0.15):
                return f"math.sqrt({self.float_expr(d)})"
            return f"math.sqrt(abs({self.float_expr(d)}))"
        if r < 0.70:
            return f"abs({self.float_expr(d)})"
        if r < 0.78:
            return f"{self.pick(['min', 'max'])}({self.float_expr(d)}, {self.float_expr(d)})"
        if r < 0.81:
            return f"(-{self.float_expr(d)})"
        if r < 0.85:
            return f"float({self.int_expr(d)})"
        if r < 0.90:
            return f"({self.float_expr(d)} if {self.cond(d)} else {self.float_expr(d)})"
        return self.float_leaf()

    def compare(self, depth):
        if self.chance(0.5):
            left, right = self.int_expr(depth), self.int_expr(depth)
        else:
            left = self.float_expr(depth)
            right = self.float_expr(depth) if self.chance(0.7) else self.int_expr(depth)
        if self.chance(0.08):
            return f"{left} {self.pick(['<', '<='])} {right} {self.pick(['<', '<='])} {self.int_leaf()}"
        return f"{left} {self.pick(CMP_OPS)} {right}"

    def cond(self, depth=1):
        r = self.rng.random()
        if depth <= 0 or r < 0.65:
            return self.compare(max(depth, 1))
        d = depth - 1
        if r < 0.75:
            return f"not ({self.cond(d)})"
        return f"({self.cond(d)}) {self.pick(['and', 'or'])} ({self.cond(d)})"

    def ret_value(self):
        parts = [self.int_expr(1) if kind == "int" else self.float_expr(1) for kind in self.ret]
        return parts[0] if len(parts) == 1 else ", ".join(parts)

    def ret_final(self):
        # The final return reads the locals most of the time (so the body matters).
        parts = []
        for kind in self.ret:
            pool = self.int_targets if kind == "int" else self.float_targets
            if pool and self.chance(0.75):
                parts.append(self.pick(pool))
            else:
                parts.append(self.int_expr(1) if kind == "int" else self.float_expr(1))
        return parts[0] if len(parts) == 1 else ", ".join(parts)

    # -- statements ------------------------------------------------------------------------
    def block(self, indent, count):
        start = len(self.lines)
        readable = list(self.ints)
        marks = [start]           # where a statement of this block starts or ends
        for _ in range(count):
            if self.budget <= 0:
                break
            self.statement(indent)
            marks.append(len(self.lines))
        if len(self.lines) == start:
            self.simple(indent)
            marks.append(len(self.lines))
        # A while counter assigned in this block is not defined on the other paths.
        self.ints[:] = [name for name in self.ints if name in readable]
        if self.island_rng is not None:
            self.add_islands(indent, marks)

    # -- Python islands ----------------------------------------------------------------------
    def add_islands(self, indent, marks):
        """Now and then an island statement at one of ``marks`` (line positions between this
        block's statements; not after a bare break/continue), drawn from the islands stream
        only (the names readable there are those readable at the block's start)."""
        rng = self.island_rng
        jumps = {"    " * indent + word for word in ("break", "continue")}
        marks = [m for m in marks if m == marks[0] or self.lines[m - 1] not in jumps]
        chosen = []
        if rng.random() < ISLAND_RATE:
            chosen.append(rng.choice(marks))
            if rng.random() < ISLAND_MORE:
                chosen.append(rng.choice(marks))
        main_rng, self.rng = self.rng, rng
        main_budget = self.budget
        try:
            for mark in sorted(chosen, reverse=True):
                start = len(self.lines)
                self.island(indent)
                new = self.lines[start:]
                del self.lines[start:]
                self.lines[mark:mark] = new
                self.island_count += 1
        finally:
            self.rng, self.budget = main_rng, main_budget

    def island_value(self, depth=1):
        """An expression of any kind (for ``log.append``)."""
        r = self.rng.random()
        if r < 0.4:
            return self.int_expr(depth)
        if r < 0.8:
            return self.float_expr(depth)
        return self.compare(depth)

    def raw_index(self):
        """An int that may be out of range for ``a`` or ``log`` (a name or a constant)."""
        return self.pick(self.ints) if self.ints and self.chance(0.6) else str(
            self.pick([0, 1, 2, 3, 5, -1, -2]))

    def island_raising(self):
        """An expression that can raise: a division by a value that can be zero, a raw
        index into ``a`` or into ``log``."""
        r = self.rng.random()
        if r < 0.3:
            return f"({self.int_expr(1)} // {self.int_leaf()})"
        if r < 0.5:
            return f"({self.island_value(1)} / {self.int_expr(1)})"
        if r < 0.75:
            return f"a[{self.raw_index()}]"
        return f"log[{self.raw_index()}]"

    def island(self, indent):
        """One statement that graphjit runs as a Python island (see the module docstring)."""
        if self.has_dict and self.chance(0.3):
            r = self.rng.random()
            if r < 0.35:
                self.emit(indent, f'log.append(d0["a"] * {self.island_value(1)})')
            elif r < 0.65:
                self.emit(indent, f'd0["c"] = {self.island_value(1)}')
            elif r < 0.8:
                self.emit(indent, f'd0["a"] += {self.int_expr(1)}')
            else:
                self.emit(indent, f'log.append(d0.get("c", {self.island_value(1)}))')
            return
        r = self.rng.random()
        if r < 0.36:
            self.emit(indent, f"log.append({self.island_value(2)})")
        elif r < 0.58:
            conversion = "!r" if self.chance(0.2) else ""
            self.emit(indent, f'log.append(f"{{{self.island_value(1)}{conversion}}}")')
        elif r < 0.76:
            self.emit(indent, f"log.append(({self.island_value(1)}, {self.island_value(1)}))")
        elif r < 0.88:
            self.emit(indent, f"log.append({self.island_raising()})")
        elif r < 0.94 and self.int_targets:
            # an island that stores into a local the loop reads: the loop stays Python
            target = self.pick(self.int_targets)
            self.emit(indent, f"{target} = {target} + len(log)")
        else:
            self.emit(indent, "log.append(len(log))")

    def island_params(self):
        """The parameters an island program adds (last): ``log``, and ``d0`` now and then."""
        if self.island_rng is None:
            return []
        return [("log", "log")] + ([("d0", "dict")] if self.has_dict else [])

    def simple(self, indent):
        self.budget -= 1
        r = self.rng.random()
        if r < 0.45 or not self.float_targets:
            if self.int_targets and (self.chance(0.5) or not self.float_targets):
                target = self.pick(self.int_targets)
                value = self.int_expr()
                if self.loops and ("*" in value):
                    value = f"({value}) % 1009"
                if self.chance(0.4):
                    self.emit(indent, f"{target} {self.pick(['+=', '-='])} {value}")
                else:
                    self.emit(indent, f"{target} = {value}")
                return
        if r < 0.85:
            target = self.pick(self.float_targets)
            if self.chance(0.4):
                op = self.pick(["+=", "-=", "*=", "/="])
                value = self.float_divisor(1) if op == "/=" else self.float_expr()
                self.emit(indent, f"{target} {op} {value}")
            else:
                self.emit(indent, f"{target} = {self.float_expr()}")
            return
        value = self.float_expr(1) if self.chance(0.8) else self.int_expr(1)
        op = "+=" if self.chance(0.3) else "="
        self.emit(indent, f"a[{self.index(1)}] {op} {value}")

    def statement(self, indent):
        depth = indent - 1
        r = self.rng.random()
        compound_ok = depth < MAX_DEPTH and self.budget > 2
        loop_ok = compound_ok and self.loops < MAX_LOOPS
        if r < 0.50 or not compound_ok:
            if self.loops and r < 0.05:
                self.jump(indent)
            elif r < (0.08 if self.loops else 0.04):
                self.early_return(indent)
            else:
                self.simple(indent)
        elif r < 0.70:
            self.if_stmt(indent)
        elif r < 0.84 and loop_ok:
            self.for_range(indent)
        elif r < 0.91 and loop_ok:
            self.for_each(indent)
        elif loop_ok:
            self.while_loop(indent)
        else:
            self.if_stmt(indent)

    def jump(self, indent):
        self.budget -= 1
        word = self.pick(["break", "continue"])
        if self.chance(0.15):
            self.emit(indent, word)
        else:
            self.emit(indent, f"if {self.cond()}:")
            self.emit(indent + 1, word)

    def early_return(self, indent):
        self.budget -= 1
        self.emit(indent, f"if {self.cond()}:")
        self.emit(indent + 1, f"return {self.ret_value()}")

    def if_stmt(self, indent):
        self.budget -= 1
        self.emit(indent, f"if {self.cond()}:")
        self.block(indent + 1, self.rng.randint(1, 3))
        while self.chance(0.25) and self.budget > 0:
            self.budget -= 1
            self.emit(indent, f"elif {self.cond()}:")
            self.block(indent + 1, self.rng.randint(1, 2))
        if self.chance(0.5) and self.budget > 0:
            self.emit(indent, "else:")
            self.block(indent + 1, self.rng.randint(1, 2))

    def loop_body(self, indent, readable, f32=False, pool=None):
        """A loop body in which ``readable`` (the loop variable) is readable, from ``pool``
        (default: the float names for an element of ``a``, else the int names)."""
        self.loops += 1
        if pool is None:
            pool = self.floats if f32 else self.ints
        pool.append(readable)
        if f32:
            self.f32s.add(readable)
        self.block(indent, self.rng.randint(1, 4))
        if self.loops and self.chance(0.3) and self.budget > 0:
            self.jump(indent)
        pool.remove(readable)
        self.loops -= 1

    def for_range(self, indent):
        self.budget -= 1
        var = "ijk"[self.loop_vars % 3] if self.loop_vars < 3 else f"i{self.loop_vars}"
        self.loop_vars += 1
        bound = self.pick([str(self.rng.randint(1, 8)), "n", f"{self.rng.randint(-1, 2)}, {self.rng.randint(2, 8)}",
                           f"min(abs({self.int_leaf()}), 8)", f"({self.int_leaf()}) % 6",
                           f"{self.rng.randint(6, 9)}, 0, -{self.rng.randint(1, 3)}"])
        self.emit(indent, f"for {var} in range({bound}):")
        self.loop_body(indent + 1, var)

    def for_each(self, indent):
        self.budget -= 1
        var = f"e{self.loop_vars}"
        self.loop_vars += 1
        self.emit(indent, f"for {var} in a:")
        self.loop_body(indent + 1, var, f32=True)

    def while_loop(self, indent):
        self.budget -= 2
        counter = f"w{self.counters}"
        self.counters += 1
        self.emit(indent, f"{counter} = 0")
        limit = self.rng.randint(1, 10)
        test = f"{counter} < {limit}"
        if self.chance(0.6):
            cond = self.cond()
            test = f"{test} and ({cond})" if self.chance(0.5) else f"({cond}) and {test}"
        self.emit(indent, f"while {test}:")
        self.emit(indent + 1, f"{counter} += 1")
        self.loop_body(indent + 1, counter)
        self.ints.append(counter)     # defined on every path after the loop

    # -- the function ----------------------------------------------------------------------
    def function(self, name="f"):
        rng = self.rng
        params = [(f"i{k}", "int") for k in range(rng.randint(1, 2))]
        params += [(f"x{k}", "float") for k in range(rng.randint(1, 2))]
        params.append(("a", "array"))
        self.ints = [p for p, kind in params if kind == "int"]
        self.floats = [p for p, kind in params if kind == "float"]
        self.emit(1, "n = len(a)")
        self.ints.append("n")
        for k in range(rng.randint(1, 2)):
            value = self.pick(["0", "1", str(self.pick(INT_CONSTS)), self.int_expr(1)])
            self.emit(1, f"v{k} = {value}")
            self.ints.append(f"v{k}")
            self.int_targets.append(f"v{k}")
        for k in range(rng.randint(1, 2)):
            value = self.pick(["0.0", "1.0", self.pick(FLOAT_CONSTS), self.float_expr(1)])
            self.emit(1, f"y{k} = {value}")
            self.floats.append(f"y{k}")
            self.float_targets.append(f"y{k}")
        self.ret = self.pick([["int"], ["float"], ["int", "float"], ["float", "float"],
                              ["float", "int", "float"]])
        self.budget = rng.randint(5, 12)
        while self.budget > 0:
            self.statement(1)
        self.emit(1, f"return {self.ret_final()}")
        params += self.island_params()
        args = ", ".join(p for p, _ in params)
        text = f"def {name}({args}):\n" + "\n".join(self.lines) + "\n"
        text = ast.unparse(ast.parse(text)) + "\n"     # drop the generator's extra parentheses
        return Program(HEADER + text, name, params, islands=self.island_count)


# -- the NumPy universe ------------------------------------------------------------------------
#
# Values have one of four *kinds*: "b" (bool), "i" (integer), "f" (real float), "c" (complex).
# A type is named by a *spec* string: a scalar type ("int", "np.uint8", ...), or "array" (the
# classic float32 array) or "array np.<dtype>" (a 1-D array of that dtype).

SCALAR_TYPES = {
    "b": ["bool", "np.bool_"],
    "i": ["int", "np.int8", "np.int16", "np.int32", "np.int64",
          "np.uint8", "np.uint16", "np.uint32", "np.uint64"],
    "f": ["float", "np.float16", "np.float32", "np.float64"],
    "c": ["complex", "np.complex64", "np.complex128"],
}
KINDS = "bifc"
# Numba has no float16 scalars (graphjit runs such code as Python): drawn less often.
TYPE_WEIGHTS = {"np.float16": 0.4}
ARRAY_TYPES = [name for kind in KINDS for name in SCALAR_TYPES[kind] if name.startswith("np.")]
NUMPY_UNIVERSE = 0.4     # share of programs drawn from the NumPy universe (pick_universe)
TUPLE_SHARE = 0.2       # share of NumPy-universe programs with a tuple parameter ``q0``
LIST_SHARE = 0.12       # ... and with a list parameter ``l0`` (Python numbers of one kind)
ILL_TYPED = 0.04         # share of operands drawn from another kind (both runs then raise alike)
NONNEG_INTS = [0, 1, 2, 3, 4, 5, 7, 10]
COMPLEX_CONSTS = ["1j", "(0.5-2j)", "(1+1j)", "(-1.5+0.25j)", "2j", "0j", "(3+0j)"]
ISINSTANCE_TYPES = ["int", "float", "bool", "complex", "(int, float)", "np.integer",
                    "np.floating", "np.generic", "np.int64", "np.float64", "np.number"]
MATH_1 = ["math.exp", "math.sin", "math.cos", "math.tan", "math.atan", "math.tanh", "math.expm1",
          "math.cosh", "math.fabs", "math.degrees", "math.radians", "math.erf"]
MATH_LOG = ["math.sqrt", "math.log", "math.log2", "math.log10", "math.log1p"]
MATH_2 = ["math.pow", "math.hypot", "math.atan2", "math.copysign"]
RET_SHAPES = [["i"], ["f"], ["c"], ["b"], ["i", "f"], ["f", "c"], ["b", "i", "f"], ["c", "i"]]


def pick_type(rng, names):
    """One of the type specs ``names``, drawn with TYPE_WEIGHTS (default 1)."""
    return rng.choices(names, [TYPE_WEIGHTS.get(name, 1.0) for name in names])[0]


def spec_kind(spec):
    """The kind ("b", "i", "f", "c") of a spec; an array's is its elements' ("array": "f")."""
    if spec == "array":
        return "f"
    if spec.startswith("array "):
        spec = spec[len("array "):]
    for kind, names in SCALAR_TYPES.items():
        if spec in names:
            return kind
    raise ValueError(f"unknown type spec {spec!r}")


def spec_type(spec):
    """The Python or NumPy type of a spec (an array spec: its dtype's scalar type)."""
    if spec == "array":
        return np.float32
    if spec.startswith("array "):
        spec = spec[len("array "):]
    if spec.startswith("np."):
        return getattr(np, spec[3:])
    return {"bool": bool, "int": int, "float": float, "complex": complex}[spec]


class _TypedGen(_Gen):
    """A program of the NumPy universe: Python and NumPy scalars of every kind and arrays of
    every dtype, with the bitwise operators, divmod, round, sum, isinstance, complex and more
    of math.*.

    The generator tracks only each value's kind, not its exact type (that is the argument's,
    chosen per call, and NumPy's promotion). Integer-only operators get integer (or bool)
    operands, ``<`` never gets a complex one; ``ILL_TYPED`` of the operands come from another
    kind, so some programs raise a TypeError (both runs must raise the same type). Int
    products and shifts assigned inside loops are reduced ``% 101`` (it fits every integer
    dtype), shift counts are small, so Python ints stay small and loops stay fast.
    """

    PARAM_PREFIX = {"b": "p", "i": "i", "f": "x", "c": "c"}
    LOCAL_PREFIX = {"b": "t", "i": "v", "f": "y", "c": "z"}

    def __init__(self, rng):
        super().__init__(rng, raw_f32=0.0)
        # self.ints / self.floats stay the base class's lists (block() and the loops use them).
        self.pools = {"b": [], "i": self.ints, "f": self.floats, "c": []}
        self.targets = {"b": [], "i": self.int_targets, "f": self.float_targets, "c": []}
        self.arrays = {}          # array parameter -> (kind, name of its length)
        self.one_type = None      # kind -> its one type spec, in a program of one type per kind

    def scalar_type(self, kind):
        """A parameter type of ``kind`` (the program's one type of that kind, if it has one)."""
        if self.one_type:
            return self.one_type[kind]
        return pick_type(self.rng, SCALAR_TYPES[kind])

    def converted(self, kind, value):
        """``value`` (source) converted to the program's one type of ``kind`` (three times in
        four; ``np.int16(v1 * 3)``), so that locals keep their type across paths."""
        if self.one_type and self.chance(0.75):
            return f"{self.one_type[kind]}({value})"
        return value

    def numpy_type(self, kind):
        """A NumPy scalar type of ``kind`` (for arrays and NumPy literals)."""
        spec = self.one_type[kind] if self.one_type else pick_type(self.rng,
                                                                     SCALAR_TYPES[kind][1:])
        if not spec.startswith("np."):
            spec = {"bool": "np.bool_", "int": "np.int64", "float": "np.float64",
                    "complex": "np.complex128"}[spec]
        return spec

    # -- leaves ----------------------------------------------------------------------------
    def expr(self, kind, depth=2):
        """An expression of ``kind``."""
        return {"b": self.bool_expr, "i": self.int_expr, "f": self.float_expr,
                "c": self.complex_expr}[kind](depth)

    def operand(self, kind, depth):
        """An operand of ``kind``, now and then (``ILL_TYPED``) one of another kind."""
        if self.chance(ILL_TYPED):
            kind = self.pick([other for other in KINDS if other != kind])
        return self.expr(kind, depth)

    def leaf(self, kind):
        r = self.rng.random()
        pool = self.pools[kind]
        if r < 0.55 and pool:
            return self.pick(pool)
        arrays = [name for name, (k, _) in self.arrays.items() if k == kind]
        if r < 0.75 and arrays:
            return self.array_read(self.pick(arrays))
        return self.constant(kind)

    def constant(self, kind):
        """A literal of ``kind``; one in ten is a NumPy scalar (``np.uint16(3)``)."""
        if self.chance(0.1):
            value = {"b": self.pick(["True", "False"]), "i": str(self.rng.randint(0, 7)),
                     "f": self.pick(FLOAT_CONSTS), "c": self.pick(COMPLEX_CONSTS)}[kind]
            return f"{self.numpy_type(kind)}({value})"
        if kind == "b":
            return self.pick(["True", "False"])
        if kind == "i":
            return str(self.pick(NONNEG_INTS if self.chance(0.85) else INT_CONSTS))
        if kind == "f":
            return self.pick(FLOAT_CONSTS)
        return self.pick(COMPLEX_CONSTS)

    def int_leaf(self):
        return self.leaf("i")

    def float_leaf(self):
        return self.leaf("f")

    def index_of(self, array, depth):
        if self.chance(0.03):                     # raw index: may be out of range
            return str(self.pick([0, 1, 2, 3, -1]))
        return f"({self.int_expr(depth)}) % {self.arrays[array][1]}"

    def index(self, depth):
        return self.index_of("a", depth)

    def array_read(self, array="a", depth=1):
        return f"{array}[{self.index_of(array, depth)}]"

    def arrays_of(self, kind):
        return [name for name, (k, _) in self.arrays.items() if k == kind]

    def int_divisor(self, depth):
        if self.chance(0.1):
            return self.int_expr(depth)
        if self.chance(0.5):
            return str(self.pick([2, 3, 5, 7, 2, 3, -3]))
        return f"(abs({self.int_expr(depth)}) + 1)"

    def shift_count(self, depth):
        if self.chance(0.05) and not self.loops:
            return self.int_leaf()                # may be negative or wide
        if self.chance(0.7):
            return str(self.rng.randint(0, 7))
        return f"({self.int_expr(depth)}) % 8"

    # -- expressions -----------------------------------------------------------------------
    def int_expr(self, depth=2):
        if depth <= 0 or self.chance(0.3):
            return self.leaf("i")
        d = depth - 1
        r = self.rng.random()
        if r < 0.22:
            op = self.pick(["+", "-", "*"])
            return f"({self.operand('i', d)} {op} {self.operand('i', d)})"
        if r < 0.30:
            return f"({self.operand('i', d)} {self.pick(['//', '%'])} {self.int_divisor(d)})"
        if r < 0.34:
            if self.chance(0.1):
                exponent = self.pick(["-1", "-2"] + self.ints)
            else:
                exponent = str(self.pick([0, 1, 2, 3]))
            return f"({self.operand('i', d)} ** {exponent})"
        if r < 0.46:
            return self.bitwise(d)
        if r < 0.50:
            fn = self.pick(["abs", "-", "+"])
            inner = self.operand("i", d)
            return f"abs({inner})" if fn == "abs" else f"({fn}{inner})"
        if r < 0.56:
            count = 3 if self.chance(0.2) else 2
            items = ", ".join(self.operand("i", d) for _ in range(count))
            return f"{self.pick(['min', 'max'])}({items})"
        if r < 0.63:
            fn = self.pick(["int", "math.floor", "math.ceil", "math.trunc", "round", "int"])
            if fn == "int" and self.chance(0.3):
                return f"int({self.expr(self.pick(['b', 'i']), d)})"
            return f"{fn}({self.operand('f', d)})"
        if r < 0.66:
            left, right = self.operand("i", d), self.int_divisor(d)
            return f"divmod({left}, {right})[{self.rng.randint(0, 1)}]"
        if r < 0.70:
            arrays = self.arrays_of("i") + self.arrays_of("b")
            if arrays and self.chance(0.5):
                return f"sum({self.pick(arrays)})"
            return f"len({self.pick(list(self.arrays))})"
        if r < 0.76:
            return f"({self.int_expr(d)} if {self.cond(d)} else {self.int_expr(d)})"
        return self.leaf("i")

    def bitwise(self, d):
        r = self.rng.random()
        if r < 0.4:
            left = self.operand("i", d) if self.chance(0.85) else self.bool_expr(d)
            return f"({left} {self.pick(['&', '|', '^'])} {self.operand('i', d)})"
        if r < 0.8:
            return f"({self.operand('i', d)} {self.pick(['<<', '>>'])} {self.shift_count(d)})"
        return f"(~{self.operand('i', d)})"

    def float_expr(self, depth=2):
        if depth <= 0 or self.chance(0.25):
            return self.leaf("f")
        d = depth - 1
        r = self.rng.random()
        if r < 0.24:
            a = self.operand("f", d)
            b = self.operand("f", d) if self.chance(0.7) else self.int_expr(d)
            if self.chance(0.5):
                a, b = b, a
            return f"({a} {self.pick(['+', '-', '*'])} {b})"
        if r < 0.33:
            num = self.operand("f", d) if self.chance(0.8) else self.int_expr(d)
            return f"({num} / {self.float_divisor(d)})"
        if r < 0.36:
            return f"({self.int_expr(d)} / {self.int_divisor(d)})"
        if r < 0.40:
            return f"({self.operand('f', d)} {self.pick(['//', '%'])} {self.float_divisor(d)})"
        if r < 0.45:
            if self.chance(0.08):
                return f"({self.float_expr(d)} ** {self.float_expr(d)})"
            if self.chance(0.5):
                return f"(abs({self.float_expr(d)}) ** {self.pick(['0.5', '1.5', '2.0'])})"
            return f"({self.operand('f', d)} ** {self.pick(['2', '3'])})"
        if r < 0.57:
            return self.math_call(d)
        if r < 0.61:
            return f"abs({self.expr(self.pick(['f', 'f', 'c']), d)})"
        if r < 0.67:
            count = 3 if self.chance(0.2) else 2
            items = ", ".join(self.operand("f", d) for _ in range(count))
            return f"{self.pick(['min', 'max'])}({items})"
        if r < 0.70:
            return f"({self.pick(['-', '+'])}{self.operand('f', d)})"
        if r < 0.74:
            return f"float({self.operand(self.pick(['i', 'f', 'b']), d)})"
        if r < 0.77:
            return f"round({self.operand('f', d)}, {self.rng.randint(0, 3)})"
        if r < 0.80 and self.arrays_of("f"):
            return f"sum({self.pick(self.arrays_of('f'))})"
        if r < 0.86:
            return f"({self.float_expr(d)} if {self.cond(d)} else {self.float_expr(d)})"
        return self.leaf("f")

    def math_call(self, d):
        r = self.rng.random()
        if r < 0.4:
            return f"{self.pick(MATH_1)}({self.operand('f', d)})"
        if r < 0.65:
            fn = self.pick(MATH_LOG)
            if self.chance(0.15):                 # domain errors: ValueError in both
                return f"{fn}({self.float_expr(d)})"
            return f"{fn}(abs({self.float_expr(d)}) + {self.pick(['0.5', '1.0'])})"
        if r < 0.85:
            return f"{self.pick(MATH_2)}({self.operand('f', d)}, {self.float_expr(d)})"
        if r < 0.93:
            return f"math.fmod({self.operand('f', d)}, {self.float_divisor(d)})"
        return f"math.ldexp({self.float_expr(d)}, {self.int_expr(d)})"

    def complex_expr(self, depth=2):
        if depth <= 0 or self.chance(0.3):
            return self.leaf("c")
        d = depth - 1
        r = self.rng.random()
        if r < 0.30:
            a = self.operand("c", d)
            b = self.operand(self.pick(["c", "c", "f", "i"]), d)
            if self.chance(0.5):
                a, b = b, a
            return f"({a} {self.pick(['+', '-', '*'])} {b})"
        if r < 0.40:
            if self.chance(0.1):
                divisor = self.complex_expr(d)
            elif self.chance(0.4):
                divisor = self.pick(["(1+1j)", "2.0", "(-0.5j)", "(0.5-2j)"])
            else:
                divisor = f"(abs({self.complex_expr(d)}) + 1.0)"
            return f"({self.operand('c', d)} / {divisor})"
        if r < 0.45:
            return f"({self.operand('c', d)} ** {self.pick(['2', '3', '2', '0.5', '(1+1j)'])})"
        if r < 0.53:
            if self.chance(0.3):
                return f"complex({self.operand(self.pick(['i', 'f', 'c']), d)})"
            return f"complex({self.operand('f', d)}, {self.operand('f', d)})"
        if r < 0.58:
            return f"({self.pick(['-', '+'])}{self.operand('c', d)})"
        if r < 0.62 and self.arrays_of("c"):
            return f"sum({self.pick(self.arrays_of('c'))})"
        if r < 0.70:
            return f"({self.complex_expr(d)} if {self.cond(d)} else {self.complex_expr(d)})"
        return self.leaf("c")

    def island_value(self, depth=1):
        """An expression of any kind (for ``log.append``): bool, int, float, complex or a
        comparison."""
        if self.chance(0.15):
            return self.compare(max(depth, 1))
        return self.expr(self.pick("biiiffffcc"), depth)

    def island_raising(self):
        r = self.rng.random()
        if r < 0.3:
            return f"({self.int_expr(1)} // {self.int_leaf()})"
        if r < 0.5:
            return f"({self.island_value(1)} / {self.int_expr(1)})"
        if r < 0.75:
            return f"{self.pick(list(self.arrays))}[{self.raw_index()}]"
        return f"log[{self.raw_index()}]"

    def bool_expr(self, depth=2):
        if depth <= 0 or self.chance(0.25):
            return self.leaf("b")
        d = depth - 1
        r = self.rng.random()
        if r < 0.40:
            return f"({self.compare(max(d, 1))})"
        if r < 0.52:
            names = [name for kind in KINDS for name in self.pools[kind]]
            subject = self.pick(names) if names and self.chance(0.8) else self.expr(
                self.pick(KINDS), d)
            return f"isinstance({subject}, {self.pick(ISINSTANCE_TYPES)})"
        if r < 0.62:
            return f"bool({self.expr(self.pick(KINDS), d)})"
        if r < 0.70:
            return f"(not {self.bool_expr(d)})"
        if r < 0.80:
            return f"({self.bool_expr(d)} {self.pick(['&', '|', '^'])} {self.bool_expr(d)})"
        if r < 0.88:
            fn = self.pick(["math.isnan", "math.isinf", "math.isfinite"])
            return f"{fn}({self.float_expr(d)})"
        return self.leaf("b")

    def compare(self, depth):
        kind = self.pick("iiiiffffbcc")
        if kind == "c":
            left = self.complex_expr(depth)
            right = self.expr(self.pick(["c", "f"]), depth)
            return f"{left} {self.pick(['==', '!='])} {right}"
        if kind == "b":
            left, right = self.bool_expr(depth), self.operand("b", depth)
        elif kind == "i":
            left, right = self.int_expr(depth), self.operand("i", depth)
        else:
            left = self.float_expr(depth)
            right = self.float_expr(depth) if self.chance(0.7) else self.int_expr(depth)
        if self.chance(0.08):
            first, second = self.pick(["<", "<="]), self.pick(["<", "<="])
            return f"{left} {first} {right} {second} {self.int_leaf()}"
        return f"{left} {self.pick(CMP_OPS)} {right}"

    def cond(self, depth=1):
        if self.chance(0.15):
            return self.bool_expr(max(depth, 1))
        return super().cond(depth)

    def ret_value(self):
        parts = [self.expr(kind, 1) for kind in self.ret]
        return parts[0] if len(parts) == 1 else ", ".join(parts)

    def ret_final(self):
        parts = []
        for kind in self.ret:
            pool = self.targets[kind]
            parts.append(self.pick(pool) if pool and self.chance(0.75) else self.expr(kind, 1))
        return parts[0] if len(parts) == 1 else ", ".join(parts)

    # -- statements ------------------------------------------------------------------------
    AUGMENTED = {"b": ["&=", "|=", "^="],
                 "i": ["+=", "-=", "*=", "//=", "%=", "<<=", ">>=", "&=", "|=", "^="],
                 "f": ["+=", "-=", "*=", "/=", "//=", "%=", "**="],
                 "c": ["+=", "-=", "*=", "/="]}

    def simple(self, indent):
        self.budget -= 1
        kinds = [kind for kind in KINDS if self.targets[kind]]
        if not kinds or self.chance(0.15):
            self.array_store(indent)
            return
        kind = self.pick(kinds)
        target = self.pick(self.targets[kind])
        if self.chance(0.4):
            op = self.pick(self.AUGMENTED[kind])
            if self.loops and op in ("*=", "<<=", "**="):
                # Growth inside loops: an assignment reduced % 101 instead.
                value = f"({target} {op[:-1]} {self.expr(kind, 1)})"
                if kind == "i":
                    value = f"{value} % 101"
                self.emit(indent, f"{target} = {value}")
                return
            if op in ("//=", "%="):
                value = self.int_divisor(1) if kind == "i" else self.float_divisor(1)
            elif op == "/=":
                value = self.float_divisor(1) if kind == "f" else self.complex_divisor()
            elif op in ("<<=", ">>="):
                value = self.shift_count(1)
            elif op == "**=":
                value = self.pick(["2", "3"])
            else:
                value = self.operand(kind, 2 if kind != "b" else 1)
            self.emit(indent, f"{target} {op} {value}")
            return
        value = self.expr(kind)
        if self.loops and kind == "i" and ("*" in value or "<<" in value):
            value = f"({value}) % 101"
        self.emit(indent, f"{target} = {self.converted(kind, value)}")

    def complex_divisor(self):
        if self.chance(0.5):
            return self.pick(["(1+1j)", "2.0", "(0.5-2j)"])
        return f"(abs({self.complex_expr(1)}) + 1.0)"

    def array_store(self, indent):
        array = self.pick(list(self.arrays))
        kind = self.arrays[array][0]
        value = self.operand(kind, 1)
        op = "="
        if self.chance(0.3):
            op = "|=" if kind == "b" else "+="
        self.emit(indent, f"{array}[{self.index_of(array, 1)}] {op} {value}")

    def for_each(self, indent):
        self.budget -= 1
        array = self.pick(list(self.arrays))
        var = f"e{self.loop_vars}"
        self.loop_vars += 1
        self.emit(indent, f"for {var} in {array}:")
        self.loop_body(indent + 1, var, pool=self.pools[self.arrays[array][0]])

    # -- the function ----------------------------------------------------------------------
    def function(self, name="f"):
        """The program. Six in ten have one type per kind (all their int parameters, int
        arrays, NumPy int literals and int locals are np.int16, say), so that more of them
        compile (a local that is an np.int16 on one path and an np.int8 on another falls
        back); the others mix types freely."""
        rng = self.rng
        if self.chance(0.6):
            self.one_type = {kind: pick_type(rng, SCALAR_TYPES[kind]) for kind in KINDS}
        params, counts = [], dict.fromkeys(KINDS, 0)
        for _ in range(rng.randint(1, 3)):
            kind = self.pick("iiiiffffbcc")
            params.append((f"{self.PARAM_PREFIX[kind]}{counts[kind]}", self.scalar_type(kind)))
            counts[kind] += 1
        for array in ["a", "b"] if self.chance(0.25) else ["a"]:
            params.append((array, f"array {self.numpy_type(self.pick('iiiffffbcc'))}"))
        if self.chance(TUPLE_SHARE):
            # a tuple of numbers, mostly Python ones (NumPy items: the entry refuses them)
            items = [self.pick("iiffbc") for _ in range(rng.randint(1, 3))]
            params.append(("q0", "tuple " + ",".join(
                SCALAR_TYPES[k][0] if self.chance(0.85) else pick_type(rng, SCALAR_TYPES[k])
                for k in items)))
        if self.chance(LIST_SHARE):
            # a list of Python numbers of one kind (read as an array: passes/list_arguments)
            params.append(("l0", "list " + SCALAR_TYPES[self.pick("iifb")][0]))
        for pname, spec in params:
            if spec.startswith("list "):    # l0[0], l0[-1]: reads of its elements
                for index in ("0", "-1", "len(l0) - 1")[:rng.randint(1, 3)]:
                    self.pools[spec_kind(spec[len("list "):])].append(f"l0[{index}]")
            elif spec.startswith("tuple "):
                items = spec[len("tuple "):].split(",")
                for i, item in enumerate(items):    # q0[1], q0[-1]: reads of its items
                    index = i - len(items) if self.chance(0.2) else i
                    self.pools[spec_kind(item)].append(f"{pname}[{index}]")
            elif spec.startswith("array"):
                length = "n" if pname == "a" else "m"
                self.arrays[pname] = (spec_kind(spec), length)
                self.emit(1, f"{length} = len({pname})")
                self.ints.append(length)
            else:
                self.pools[spec_kind(spec)].append(pname)
        self.ret = self.pick(RET_SHAPES)
        wanted = {"i": rng.randint(1, 2), "f": rng.randint(1, 2),
                  "c": rng.randint(1, 2) if counts["c"] or "c" in self.ret or self.chance(0.3)
                  else 0,
                  "b": 1 if counts["b"] or "b" in self.ret or self.chance(0.3) else 0}
        for kind in "ifcb":
            for k in range(wanted[kind]):
                start = {"b": "False", "i": "0", "f": "0.0", "c": "0j"}[kind]
                if self.one_type and self.one_type[kind].startswith("np."):
                    start = f"{self.one_type[kind]}({start})"
                value = self.pick([start, self.converted(kind, self.constant(kind)),
                                   self.converted(kind, self.expr(kind, 1))])
                local = f"{self.LOCAL_PREFIX[kind]}{k}"
                self.emit(1, f"{local} = {value}")
                self.pools[kind].append(local)
                self.targets[kind].append(local)
        self.budget = rng.randint(5, 12)
        while self.budget > 0:
            self.statement(1)
        self.emit(1, f"return {self.ret_final()}")
        params += self.island_params()
        args = ", ".join(p for p, _ in params)
        text = f"def {name}({args}):\n" + "\n".join(self.lines) + "\n"
        text = ast.unparse(ast.parse(text)) + "\n"
        return Program(HEADER + text, name, params, "numpy", islands=self.island_count)


def generate(rng, name="f", raw_f32=RAW_F32, universe="classic", islands=None,
             island_share=ISLAND_SHARE):
    """A random program (see the module docstring) drawn from ``rng`` (a random.Random).

    ``universe``: "classic" (ints, floats, a float32 array) or "numpy" (NumPy and Python
    scalars of every kind, arrays of every dtype: _TypedGen).
    ``raw_f32``: the share of float32 array reads left as float32 (the rest are wrapped in
    ``float()``), classic programs only. Mixing float32 with Python floats is a known, very
    frequent gap (NumPy 2 keeps float32, Numba computes in float64), so a low rate keeps it
    from hiding everything else.
    ``islands``: a random.Random of its own (None: no islands): for ``island_share`` of the
    programs it draws a ``log`` parameter (and maybe ``d0``) and the island statements; the
    main stream ``rng`` is drawn exactly as without it.
    """
    gen = _TypedGen(rng) if universe == "numpy" else _Gen(rng, raw_f32)
    if islands is not None and islands.random() < island_share:
        gen.island_rng = islands
        gen.has_dict = islands.random() < DICT_SHARE
    return gen.function(name)


def pick_universe(rng, share=NUMPY_UNIVERSE):
    """ "numpy" for a ``share`` of programs, else "classic" (``rng``: its own stream, so that
    classic programs stay the ones the seed gave before)."""
    return "numpy" if rng.random() < share else "classic"


# -- inputs ------------------------------------------------------------------------------------

def random_int(rng):
    r = rng.random()
    if r < 0.8:
        return rng.randint(-4, 12)
    return rng.choice([0, 1, -1, 100, -50, 2 ** 20])


def random_float(rng):
    r = rng.random()
    if r < 0.75:
        return round(rng.uniform(-6.0, 6.0), rng.choice([1, 2, 3]))
    if r < 0.95:
        return rng.choice([0.0, -0.0, 1.0, 0.5, -1.5, 1e6, -1e-3, 1e300])
    return rng.choice([float("nan"), float("inf"), float("-inf")])


def random_complex(rng):
    imag = rng.choice([0.0, 1.0, -0.5, 2.25]) if rng.random() < 0.5 else random_float(rng)
    return complex(random_float(rng), imag)


def random_int_of(rng, dtype):
    """An int that a NumPy integer ``dtype`` holds: mostly small, sometimes its extremes."""
    info = np.iinfo(dtype)
    r = rng.random()
    if r < 0.75:
        value = rng.randint(-4, 12)
    elif r < 0.88:
        value = rng.choice([100, -50, 200, -100, 2 ** 20, 1000])
    else:
        value = rng.choice([info.min, info.max, info.max - 1, info.min + 1])
    span = int(info.max) - int(info.min) + 1
    return int(info.min) + (value - int(info.min)) % span     # wrapped into range


def random_scalar(rng, spec):
    """A value of the scalar type ``spec`` ("int", "np.uint8", ...)."""
    if spec == "int":
        return random_int(rng)
    if spec == "float":
        return random_float(rng)
    if spec == "bool":
        return rng.random() < 0.5
    if spec == "complex":
        return random_complex(rng)
    tp, kind = spec_type(spec), spec_kind(spec)
    with np.errstate(all="ignore"):           # 1e300 is inf in float16 and float32
        if kind == "b":
            return tp(rng.random() < 0.5)
        if kind == "i":
            return tp(random_int_of(rng, tp))
        if kind == "f":
            return tp(random_float(rng))
        return tp(random_complex(rng))


def random_array(rng, dtype=np.float32):
    """A short 1-D array of ``dtype`` (empty now and then; floats: sometimes a nan or inf)."""
    size = 0 if rng.random() < 0.04 else rng.choice([1, 2, 3, 4, 5, 6, 8])
    kind = np.dtype(dtype).kind
    if kind == "f":
        values = [round(rng.gauss(0.0, 3.0), 2) for _ in range(size)]
        if values and rng.random() < 0.04:
            values[rng.randrange(size)] = rng.choice([float("nan"), float("inf")])
    elif kind == "b":
        values = [rng.random() < 0.5 for _ in range(size)]
    elif kind in "iu":
        values = [random_int_of(rng, dtype) if rng.random() < 0.15 else
                  (rng.randint(0, 9) if kind == "u" else rng.randint(-6, 9))
                  for _ in range(size)]
    else:
        values = [complex(round(rng.gauss(0.0, 3.0), 2), round(rng.gauss(0.0, 3.0), 2))
                  for _ in range(size)]
    with np.errstate(all="ignore"):
        return np.array(values, dtype=dtype)


def make_value(rng, spec):
    """A value for a parameter of type ``spec`` (``log``: a fresh empty list, ``dict``: a fresh
    ``{"a": 1, "b": 2.5}``; neither draws from ``rng``)."""
    if spec == "log":
        return []
    if spec == "dict":
        return {"a": 1, "b": 2.5}
    if spec.startswith("array"):
        return random_array(rng, spec_type(spec))
    if spec.startswith("tuple "):
        return tuple(random_scalar(rng, item) for item in spec[len("tuple "):].split(","))
    if spec.startswith("list "):    # at least one element (l0[0] is read), mostly
        return [random_scalar(rng, spec[len("list "):])
                for _ in range(rng.randint(0 if rng.random() < 0.05 else 1, 4))]
    return random_scalar(rng, spec)


def make_inputs(rng, params, count=3):
    """``count`` argument tuples for ``params`` (a Program's (name, spec) list)."""
    return [tuple(make_value(rng, spec) for _, spec in params) for _ in range(count)]


# Other kinds a parameter's type may change to in a history (so that some calls are ill-typed).
_NEIGHBOURS = {"b": "i", "i": "bf", "f": "ic", "c": "f"}


def retype(rng, spec):
    """Another type for a parameter of type ``spec``: mostly of the same kind (an int as
    np.int8 or np.uint64, a float32 array as int16 or float64), sometimes of another kind.
    ``log`` and ``dict`` stay as they are."""
    if spec in FIXED_SPECS:
        return spec
    if spec.startswith("tuple "):   # each item may change
        return "tuple " + ",".join(retype(rng, item) if rng.random() < 0.5 else item
                                   for item in spec[len("tuple "):].split(","))
    if spec.startswith("list "):    # another element type (a NumPy one: the list stays Python)
        return "list " + retype(rng, spec[len("list "):])
    kind = spec_kind(spec)
    if rng.random() < 0.85:
        kinds = kind
    else:
        kinds = _NEIGHBOURS[kind]
    if spec.startswith("array"):
        if rng.random() < 0.2:
            return f"array {pick_type(rng, ARRAY_TYPES)}"
        names = [n for k in kinds for n in SCALAR_TYPES[k] if n.startswith("np.")]
        return f"array {pick_type(rng, names)}"
    return pick_type(rng, [n for k in kinds for n in SCALAR_TYPES[k]])


def make_history(rng, params, count=3):
    """Argument tuples that call one jitted object with changing types: ``count - 1`` calls
    whose parameters are re-typed (``retype``: each changes with probability 0.7, at least
    one), then one with the original types again (its first specialization, reused)."""
    specs = [spec for _, spec in params]
    signatures = []
    for _ in range(count - 1):
        for _attempt in range(10):     # log and d0 stay (and draw nothing)
            new = [spec if spec in FIXED_SPECS else retype(rng, spec) if rng.random() < 0.7
                   else spec for spec in specs]
            if new != specs:
                break
        signatures.append(new)
    signatures.append(specs)
    return [tuple(make_value(rng, spec) for spec in signature) for signature in signatures]


def program_rng(seed, index, what="program"):
    """The random.Random for program ``index`` of a round seeded ``seed`` (reproducible alone);
    ``what`` ("program", "inputs", "universe", "history" or "islands") gives independent
    streams."""
    return random.Random(f"{seed}:{index}:{what}")


if __name__ == "__main__":      # print a few programs: python -m tests.fuzzing.generate [seed]
    import sys
    base = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    for index in range(4):
        universe = pick_universe(program_rng(base, index, "universe"))
        program = generate(program_rng(base, index), universe=universe,
                           islands=program_rng(base, index, "islands"))
        print(program.source)
        print(make_inputs(program_rng(base, index, "inputs"), program.params, 2))
        print("history:", make_history(program_rng(base, index, "history"), program.params))
