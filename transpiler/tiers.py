"""Tiers: which code runs the calls of a NumPy graph specialization, chosen by measuring.

A plain jitted function whose code is straight-line array code gets a NumPy graph
(backends/numpy_graph.py): no compile, the first call is immediate, but every NumPy call keeps
its dispatch and its temporary array. Three ways can run such a call, all giving the plain
call's answer:

- ``plain``: the Python function itself (the truth; at small sizes often the fastest);
- ``tier 0``: the NumPy graph (fewer temporaries, in place where the shapes allow);
- ``tier 1``: the same specialization compiled by Numba (``pipeline.compile_function(...,
  native=True)``): one native function, element-wise operations in Numba's loops, NumPy's own
  inner loops for transcendental functions (backends/runtime/ufunc_loops.py), so its bits are
  NumPy's. Where Numba would compute otherwise than NumPy the converter refuses (the program's
  ``numba_gaps``, raised when not deferred) and tier 1 is not made: the reason is kept.

How a :class:`TierRace` (one per specialization and argument-type key, a decision of the
dispatcher's fast path, transpiler.fast_path) chooses:

1. race: the first calls go to the ways in turn, ``RACE_RUN`` calls in a row each (steady
   state, as in the caller's loop; the first of a run not counted), each call timed; once
   each way has ``RACE_CALLS`` counted calls, the way of the lowest median runs from then
   on; the ways race again after 64 calls, then 128, ... (the load and the data change).
   Effects happen once: each call runs exactly one way.
2. ski rental: the time spent in calls is summed; once it reaches the estimated compile time
   (``native_after``: the CPU time of the last tier-1 compile in this process, 1 s before
   any), tier 1 is compiled in a background thread while the calls go on (rent until the rent
   paid equals the price, then buy: never worse than twice the better choice). A function
   called for less than that never compiles. The calls go on meanwhile, slower: the compile
   holds the GIL in turns (measured: a 12 us call ran at 27 us on average for the 10 s
   its layernorm compile took, 4.3 s alone; single calls waited up to 0.16-0.24 s).
3. when tier 1 is ready, race again among the three; then the winner runs, untimed.

Tier 1 is only tried where its Numba overload can be fixed ahead: no runtime inputs beyond the
arguments, a result boxed the same for every call (spec.unknown_boxes), no random state. Its
overload is compiled for the arguments' Numba types; an array argument's layout, alignment and
writeability (``ndarray.flags.num``) are compared at each call, and a call with another layout
runs tier 0 (no compile on the caller's path).

``GRAPHJIT_TIERS=0`` (or ``set_context(tiers=False)``) keeps tier 0 for every call, unmeasured.
"""
import ast
import atexit
import threading
import time

from .context import get_context
from .settings import CONTEXT as _CONTEXT

RACE_RUN = 4            # a way runs this many calls in a row in a race, the first not counted
RACE_CALLS = 9          # counted calls of each way before choosing (a median of 9)
RACE_TIMED = RACE_CALLS // (RACE_RUN - 1) * RACE_RUN    # timed calls of each way in a race
RACE_AGAIN = 64         # untimed calls of the chosen way before the ways race again
RACE_AGAIN_MOST = 1 << 16
_perf = time.perf_counter
# ndarray.flags.num bits that select a Numba array type: C and F contiguity, alignment,
# writeability (numpy/_core/include/numpy/ndarraytypes.h NPY_ARRAY_*)
_LAYOUT_BITS = 0x1 | 0x2 | 0x100 | 0x400
_estimate = [1.0]       # the estimated tier-1 compile time, seconds (the last one measured)
_threads = []           # compile threads (joined at exit: a compile is never cut short)


def enabled():
    """Whether tiers are measured and tier 1 made (the ``tiers`` context setting)."""
    return get_context("tiers")


def compile_after():
    """Seconds of calls after which tier 1 is compiled: ``set_context(native_after=)``, else
    the last tier-1 compile time measured in this process (1 s before any)."""
    after = get_context("native_after")
    return _estimate[0] if after is None else after


class TierRace:
    """The fast-path decision of one NumPy graph specialization ``spec`` for arguments of
    exact types ``kinds``: ``race(jit, args)`` runs the call one way (module docstring) and
    returns its result, or ``fast_path._MISS`` when tier 0's guards do not hold.

    Attributes read by explain(): ``calls`` (way -> calls run), ``seconds`` (way -> timed
    seconds), ``timed`` (way -> timed calls), ``medians`` (way -> its median seconds in the
    last race), ``chosen`` (the way running now, or None while racing), ``tier1`` (None,
    ``"compiling"``, ``"ready"`` or why it was not made), ``compile_seconds``. After
    ``RACE_AGAIN`` untimed calls the ways race again, then after twice as many, and so on.
    """

    def __init__(self, spec, kinds, tier0, plain, miss, compiled):
        self.spec = spec
        self._compiled = compiled   # fast_path._compiled: a specialization's decision
        self.kinds = kinds
        self._miss = miss
        self._ways = {"tier 0": tier0, "plain": plain}
        self._racing = ["tier 0", "plain"]
        self._samples = {"tier 0": [], "plain": []}
        self._turn = ("plain", 0)   # the way of the current run of race calls, calls left
        self._lock = threading.Lock()
        self._spent = 0.0
        self._settled = None        # (the chosen way's decision, its name), once settled
        self._calls = {"tier 0": 0, "plain": 0, "tier 1": 0}   # flushed counts (calls)
        self.seconds = {"tier 0": 0.0, "plain": 0.0, "tier 1": 0.0}
        self.timed = {"tier 0": 0, "plain": 0, "tier 1": 0}
        self.tier1 = None
        self.compile_seconds = None     # wall time of tier 1's compile ...
        self.compile_cpu_seconds = None     # ... and its thread's CPU time
        self._count = 0             # calls of the chosen way, untimed, since it was chosen
        self.medians = {}           # way -> its median seconds in the last race
        self._next_race = RACE_AGAIN   # ... after which the ways race again
        self._watch = True          # summing time for the ski-rental rule
        self._after = compile_after()   # read once: the environment is not read per call

    def __call__(self, jit, args):
        if _CONTEXT["tiers"] is False:      # set_context(tiers=False) after the race began
            return self._ways["tier 0"](jit, args)
        settled = self._settled     # (decision, way): one read, so never half-updated
        if settled is not None and not self._watch:
            count = self._count = self._count + 1
            if count >= self._next_race:
                self._race_again()
            result = settled[0](jit, args)
            if result is self._miss and settled[1] == "tier 1":
                self._count -= 1        # another layout than tier 1's overload: tier 0 runs
                self._calls["tier 0"] += 1
                return self._ways["tier 0"](jit, args)
            return result
        return self._timed(jit, args, settled)

    def _timed(self, jit, args, settled):
        counted = settled is None
        if settled is not None:
            name = settled[1]
        else:
            name, left = self._turn
            if left <= 0 or name not in self._racing:
                # a run of calls for the way with the fewest samples (whose calls raise: more)
                samples = self._samples
                name = min(self._racing, key=lambda n: len(samples.get(n, ())))
                left = RACE_RUN
            counted = left < RACE_RUN   # a run's first call is not: caches, branches
            self._turn = (name, left - 1)
        start = _perf()
        result = self._ways[name](jit, args)
        elapsed = _perf() - start
        if result is self._miss:
            if name != "tier 1":
                return result       # the guards fail: the general path decides
            name = "tier 0"         # another layout than tier 1's overload: no compile here
            start = _perf()
            result = self._ways[name](jit, args)
            elapsed = _perf() - start
            if result is self._miss:
                return result
        self._calls[name] += 1
        self.seconds[name] += elapsed
        self.timed[name] += 1
        if settled is None:
            samples = self._samples.get(name)
            if counted and samples is not None and len(samples) < RACE_CALLS:
                samples.append(elapsed)
            if all(len(self._samples.get(n, ())) >= RACE_CALLS for n in self._racing):
                self._settle()
        self._spent += elapsed
        if self._watch and self.tier1 is None and self._spent >= self._after:
            self._start_tier1(jit, args)
        return result

    @property
    def calls(self):
        """way -> calls it ran (a new dict)."""
        calls = dict(self._calls)
        if self.chosen is not None:
            calls[self.chosen] += self._count
        return calls

    @property
    def chosen(self):
        """The way running the calls now, or None while the ways race."""
        settled = self._settled
        return None if settled is None else settled[1]

    def _flush(self):
        """Count the untimed calls of the chosen way (under ``_lock``)."""
        settled = self._settled
        if settled is not None:
            self._calls[settled[1]] += self._count
        self._count = 0

    def _race_again(self):
        """Race the ways again (the machine's load, the caches and the data change): after
        ``RACE_AGAIN`` untimed calls, then twice as many each time, up to ``RACE_AGAIN_MOST``."""
        with self._lock:
            if self._settled is None:
                return
            self._flush()
            self._next_race = min(self._next_race * 2, RACE_AGAIN_MOST)
            self._samples = {n: [] for n in self._ways}
            self._racing = list(self._ways)
            self._settled = None

    def _settle(self):
        """Choose the way of the lowest median time (racing threads: the first wins)."""
        with self._lock:
            if self._settled is not None:
                return
            medians = {n: sorted(s)[len(s) // 2] for n, s in self._samples.items()
                       if n in self._racing and s}
            chosen = min(medians, key=medians.get)
            self.medians = medians
            self._count = 0
            self._settled = (self._ways[chosen], chosen)
            # go on summing until tier 1 is tried (never, with native_after < 0)
            self._watch = self.tier1 is None and self._after != float("inf")

    def _start_tier1(self, jit, args):
        with self._lock:
            if self.tier1 is not None:
                return
            self.tier1 = "compiling"
            self._watch = False
        thread = threading.Thread(target=self._make_tier1, args=(jit, args),
                                  name="graphjit-tier1", daemon=True)
        thread.start()
        _threads[:] = [t for t in _threads if t.is_alive()] + [thread]

    def _make_tier1(self, jit, args):
        """Compile tier 1 for calls like ``args`` (in the background thread); then race it."""
        start, cpu = _perf(), time.thread_time()
        try:
            why, decision = native_decision(jit, self.spec, self.kinds, args, self._compiled,
                                            self._miss)
        except Exception as exc:  # noqa: BLE001 - a converter bug must not break user code
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            why, decision = (f"Numba did not compile it ({type(exc).__name__}: {first[:160]})"
                             if type(exc).__module__.startswith("numba") else
                             f"internal error in graphjit ({type(exc).__name__}: {first[:160]})"
                             ), None
        seconds, cpu = _perf() - start, time.thread_time() - cpu
        with self._lock:
            self.compile_seconds = seconds
            self.compile_cpu_seconds = cpu
            if decision is None:
                self.tier1 = why
                self._watch = False
                return
            _estimate[0] = cpu   # its own CPU time: the calls beside it made it longer
            self._ways["tier 1"] = decision
            self._samples = {n: [] for n in self._ways}
            self._racing = list(self._ways)
            self.tier1 = "ready"
            self._watch = False
            self._flush()
            self._settled = None    # race again, tier 1 included


    def describe(self):
        """``(status, text)`` for explain(): the way running now (``"plain"``, ``"tier 0"``,
        ``"tier 1"``, or ``"racing"``), how often each ran and its median time in the last
        race, tier 1's state."""
        kinds = ", ".join(getattr(k, "__name__", str(k)) for k in self.kinds)
        ran = []
        calls = self.calls
        for name in ("plain", "tier 0", "tier 1"):
            if calls[name]:
                median = self.medians.get(name)
                said = f" ({median * 1e6:.1f} us in the last race)" if median else ""
                ran.append(f"{name} {calls[name]} call(s){said}")
        now = self.chosen or "racing"
        tier1 = self.tier1
        if tier1 is None:
            tier1 = f"not compiled yet (after {self._after:.2g} s of calls; " \
                f"{self._spent:.2g} s so far)"
        elif tier1 == "ready":
            tier1 = (f"compiled by Numba in {self.compile_seconds:.2f} s in a background "
                     f"thread ({self.compile_cpu_seconds:.2f} s of its CPU time)")
        elif tier1 != "compiling":
            tier1 = f"not made: {tier1}"
        return now, (f"tiers for ({kinds}): runs {now}; {'; '.join(ran) or 'no calls'}; "
                        f"tier 1 {tier1}")


def native_decision(jit, spec, kinds, args, compiled, miss):
    """Tier 1 for the calls of ``spec`` with arguments like ``args``: ``(None, decision)``,
    where ``decision(jit, args)`` runs the Numba specialization (``compiled``:
    fast_path._compiled) or returns ``miss`` for an array of another layout; or
    ``(why not, None)``."""
    made = jit._specialize_for(None, args, native=True)
    if made.fallback_reason is not None:
        return made.fallback_reason, None
    made.backend_name = spec.backend_name
    if made.program.entry.inputs:
        return "its Numba code reads runtime inputs beyond the arguments", None
    if made.program.uses_random:
        return "it draws random numbers (NumPy's state is carried per call)", None
    if made.writeback:
        return "it stores into attributes of its object", None
    # graphjit's clip helpers: Numba's np.clip is NumPy's but for NaN bounds, which they
    # handle (helpers/numpy_calls.py; measured equal over NaN, +-0.0, +-inf elements)
    reviewed = {f.symbol.name for f in made.program.functions
                if f.is_helper and f.qualname in ("numpy_clip", "numpy_clip_array")}
    unchecked = _unchecked(made.source, args, reviewed)
    if unchecked:
        return unchecked, None
    if not _ERRSTATE:
        _ERRSTATE.append(_errstate())
    errstate, default = _ERRSTATE[0]
    if errstate is None:
        return "this NumPy's np.errstate cannot be read at each call", None
    inputs = made.prepare(None, args, made.roots, made.constants)
    if inputs != ():
        return "its guards do not hold for these arguments", None
    import numba
    dynamic = [args[i] for i in made.dynamic_indices]
    types = tuple(numba.typeof(v) for v in dynamic)
    made.function.compile(types)
    if made.unknown_boxes is not None:      # a result part of a type the analyses do not know
        from .result_box_check import result_box_problem
        why = result_box_problem(made.function, types, made.unknown_boxes)
        if why is not None:
            return why, None
    np = __import__("numpy")
    layouts = tuple((i, a.flags.num & _LAYOUT_BITS) for i, a in enumerate(args)
                    if isinstance(a, np.ndarray))
    # scalars and arrays only: the key, the guards and the layouts fix the overload, whose
    # boxing is then found once; tuples and lists: their items' types may vary
    run = compiled(made, kinds, made.backend_name, fixed_overload=not any(
        isinstance(a, (tuple, list)) for a in args))

    def run_tier1(jit, args):
        if errstate.get() is not default:
            return miss     # inside np.errstate: NumPy raises or calls back, Numba cannot
        for i, bits in layouts:
            if args[i].flags.num & _LAYOUT_BITS != bits:
                return miss     # another layout than the overload's: no compile here
        return run(jit, args)
    run_tier1.spec = made
    return None, run_tier1


def plain_way(python, run_reaching, spec, miss):
    """The way ``plain``: the Python function ``python`` called as the fallback calls it
    (the Cells it reaches compiled: transpiler.python_scope), for the calls ``spec``'s guards
    hold for (others, ``miss``: the general path decides, as for tier 0)."""
    prepare, roots, constants = spec.prepare, spec.roots, spec.constants

    def run_plain(jit, args):
        if prepare(None, args, roots, constants) is None:
            return miss
        if jit.__dict__.get("_reaches") is False:
            return python(*args)
        return run_reaching(jit, python, args, {})
    return run_plain


def race_for(spec, kinds, tier0, python, run_reaching, miss, compiled):
    """The :class:`TierRace` of ``spec`` for argument types ``kinds`` (one per pair, kept on
    the specialization so that a decision made again keeps its measurements)."""
    races = spec.__dict__.setdefault("races", {})
    race = races.get(kinds)
    if race is None:
        race = races.setdefault(kinds, TierRace(spec, kinds, tier0,
                                                plain_way(python, run_reaching, spec, miss),
                                                miss, compiled))
    return race


def _unchecked(source, args, reviewed=frozenset()):
    """Why tier 1 is not tried for arguments ``args`` and the generated Numba ``source``, or
    None. Tier 1 is only as exact as the Numba backend, which the NumPy graph's first call
    never exercised; a review of tier 1 found Numba computing otherwise than NumPy in the
    function forms of ufuncs (``np.floor_divide`` of inf, ``np.fmod``/``np.remainder`` of
    negative ints, ``np.spacing(-0.0)``, ``np.sinc`` of float32, integer ``np.divmod`` by -1
    killing the process), in float32 chains with an int from ``x.shape`` (computed in
    float64), in complex multiplies (NumPy's loop uses FMA), in the result dtypes of small
    integer arrays (float32 for NumPy's float16/float64), in ``np.dot`` and LAPACK (SciPy's
    BLAS; ``@`` runs NumPy's own matmul loop, ufunc_loop). So tier 1 takes float64 arrays
    (no other dtype), Python numbers and
    float64/int64 scalars, and calls only of ``_TIER1_NUMPY`` and ``_TIER1_METHODS`` (NumPy's
    own inner loops, ``ufunc_loop``, and graphjit's checked helpers are what the rest is);
    the functions named in ``reviewed`` (helpers whose calls were checked) are not read."""
    import numpy as np
    for value in args:
        if isinstance(value, np.ndarray):
            if value.dtype != np.float64:
                return f"an argument is a {value.dtype} array (tier 1 takes float64 arrays)"
        elif type(value) not in (int, float, bool, np.float64, np.int64, np.bool_):
            return f"an argument is a {type(value).__name__} (tier 1 takes numbers and arrays)"
    functions = [f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef)
                 and f.name != "_prepare" and f.name not in reviewed]
    for node in (n for f in functions for n in ast.walk(f)):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return ("it has a matrix product (@), which Numba computes with SciPy's BLAS, "
                    "NumPy with its own (the last bits differ)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            receiver, name = node.func.value, node.func.attr
            if isinstance(receiver, ast.Name) and receiver.id in ("np", "numpy", "_np"):
                if name not in _TIER1_NUMPY:
                    return (f"it calls np.{name}(), whose compiled form is not checked "
                            "against NumPy's for tier 1")
            elif isinstance(receiver, ast.Attribute) and isinstance(
                    _root(receiver), ast.Name) and _root(receiver).id in ("np", "numpy", "_np"):
                return f"it calls {name}() of a NumPy submodule"
            elif name not in _TIER1_METHODS:
                return f"it calls the method {name}(), not checked against NumPy's for tier 1"
    return None


def _root(node):
    """The name an attribute chain starts from (``np`` of ``np.linalg.inv``)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


# NumPy functions whose compiled form equals NumPy's on float64 arrays (IEEE operations,
# copies, comparisons: reviewed, and the axis-reduction helpers' own tests)
_TIER1_NUMPY = frozenset({
    "empty", "zeros", "ones", "empty_like", "zeros_like", "ones_like", "float64", "int64",
    "signbit", "sqrt", "where", "abs", "absolute", "negative", "cumsum", "maximum", "minimum",
    "isnan", "isinf", "isfinite"})
_TIER1_METHODS = frozenset({"reshape", "copy", "ravel", "transpose"})


def _errstate():
    """NumPy's errstate context variable and its value outside any ``np.errstate`` (numpy/
    _core/_ufunc_config.py), or ``(None, None)`` where this NumPy has none."""
    import contextvars
    try:
        from numpy._core import _ufunc_config
        variable = _ufunc_config._extobj_contextvar
        # its default (a context where nothing set it: np.seterr() sets it too)
        return variable, contextvars.Context().run(variable.get)
    except (ImportError, AttributeError, LookupError):
        return None, None


_ERRSTATE = []     # [(variable, default)], read at the first tier-1 compile (NumPy loaded)


def join_compiles(timeout=30.0):
    """Wait for the tier-1 compiles under way (at exit, so none is cut short: a daemon
    thread stopped inside LLVM may crash the interpreter's exit), at most ``timeout``
    seconds in all."""
    deadline = _perf() + timeout
    for thread in list(_threads):
        thread.join(max(0.0, deadline - _perf()))


atexit.register(join_compiles)
