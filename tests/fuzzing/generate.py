"""A seeded generator of small, always-terminating Python functions, as source text.

Every program is ``def f(<ints>, <floats>, a):`` where ``a`` is a 1-D float32 array. Its locals
are assigned at the top (graphjit refuses reads of maybe-unassigned variables, so every path
defines every variable it reads); loop variables are read only inside their loop. Loops are
bounded: ``for`` over small ``range``s or over ``a``, and ``while`` loops carry a counter
(``w0 += 1`` as the first statement of the body, ``w0 < K`` in the test). Int products inside
loops are reduced ``% 1009`` so that values stay inside int64. Every ``return`` gives the same
shape (a value or a tuple of int/float slots), so the plain and compiled results are comparable.

Things with known semantic gaps are generated on purpose, at low rates: raw divisors that can be
zero, ``math.sqrt`` of a possibly negative value, ``int ** negative``, raw ``a[k]`` indexes,
``int()``/``math.floor`` of floats, raw float32 array reads mixed with Python floats,
``math.exp``/``sin``/``pow``/``ldexp``... (range and domain errors).

Usage::

    program = generate(random.Random(7))
    program.source        # "import math\\n\\ndef f(i0, x0, a):\\n    ..."
    inputs = make_inputs(random.Random(7), program.params, count=3)
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


@dataclass
class Program:
    """One generated function.

    Attributes:
        source (str): the whole module text (imports and ``def f``).
        name (str): the function's name.
        params (list[tuple[str, str]]): (name, kind) with kind ``int``, ``float`` or ``array``.
    """
    source: str
    name: str
    params: list


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
                # CPython's range/domain errors and float64 results (transpiler.fidelity)
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
        for _ in range(count):
            if self.budget <= 0:
                break
            self.statement(indent)
        if len(self.lines) == start:
            self.simple(indent)
        # A while counter assigned in this block is not defined on the other paths.
        self.ints[:] = [name for name in self.ints if name in readable]

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

    def loop_body(self, indent, readable, f32=False):
        self.loops += 1
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
        args = ", ".join(p for p, _ in params)
        text = f"def {name}({args}):\n" + "\n".join(self.lines) + "\n"
        text = ast.unparse(ast.parse(text)) + "\n"     # drop the generator's extra parentheses
        return Program(HEADER + text, name, params)


def generate(rng, name="f", raw_f32=RAW_F32):
    """A random program (see the module docstring) drawn from ``rng`` (a random.Random).

    ``raw_f32``: the share of float32 array reads left as float32 (the rest are wrapped in
    ``float()``). Mixing float32 with Python floats is a known, very frequent gap (NumPy 2 keeps
    float32, Numba computes in float64), so a low rate keeps it from hiding everything else.
    """
    return _Gen(rng, raw_f32).function(name)


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


def random_array(rng):
    size = 0 if rng.random() < 0.04 else rng.choice([1, 2, 3, 4, 5, 6, 8])
    values = [round(rng.gauss(0.0, 3.0), 2) for _ in range(size)]
    if values and rng.random() < 0.04:
        values[rng.randrange(size)] = rng.choice([float("nan"), float("inf")])
    return np.array(values, dtype=np.float32)


def make_inputs(rng, params, count=3):
    """``count`` argument tuples for ``params`` (a Program's (name, kind) list)."""
    makers = {"int": random_int, "float": random_float, "array": random_array}
    return [tuple(makers[kind](rng) for _, kind in params) for _ in range(count)]


def program_rng(seed, index, what="program"):
    """The random.Random for program ``index`` of a round seeded ``seed`` (reproducible alone);
    ``what`` ("program" or "inputs") gives independent streams."""
    return random.Random(f"{seed}:{index}:{what}")


if __name__ == "__main__":      # print a few programs: python -m tests.fuzzing.generate [seed]
    import sys
    base = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    for index in range(3):
        program = generate(program_rng(base, index))
        print(program.source)
        print(make_inputs(program_rng(base, index, "inputs"), program.params, 2))
