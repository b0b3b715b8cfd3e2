"""Differential fuzzer for graphjit: random small Python functions, run plainly and compiled.

- generate.py: a seeded generator of small, always-terminating functions (source text) and inputs
  (classic: ints, floats, a float32 array; NumPy universe: scalars and arrays of every dtype),
  and the re-typed calls of a program's history.
- check.py: run one program plainly and through ``transpiler.jit`` (one jitted object for all
  its calls, a fresh one to confirm a mismatch) and compare the outcomes.
- worker.py: a pool of worker processes (a crash or a hang costs one program, not the run).
- shrink.py: an AST delta-debugging shrinker that keeps a mismatch of the same kind.
- run.py: the round (``python -m tests.fuzzing.run --n 10000 --seed 1``) and saving of
  regression cases under regressions/.
"""
