# graphjit: every target installs what it needs into a local virtual environment first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.graphjit-installed
PYTEST_ARGS ?=
# make test runs the suite on every core (pytest-xdist): the tests are independent processes'
# work (each worker has its own Numba dispatchers; the compile cache directory is shared, as
# two user processes share one). PYTEST_JOBS=0 runs it in this process alone.
PYTEST_JOBS ?= auto

.PHONY: install test demo bench gpu-check clean bytecode docs

install: $(STAMP)

# graphjit's own modules byte-compiled, as pip's install of a wheel does (an editable install
# does not, and where PYTHONDONTWRITEBYTECODE is set Python never writes them itself: every
# process then compiles graphjit's ~100 modules from source, ~120 ms on the 2-core machine).
# Incremental: only modules changed since the last run are compiled again. make test, demo and
# bench run it first (the demo prints first-call times).
bytecode: $(STAMP)
	$(PY) -m compileall -q transpiler backends || \
		echo "make bytecode: the modules named above did not compile; Python compiles them at import"

$(STAMP): setup.cfg setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,notebook,cuda,distributed,docs]'
	touch $(STAMP)

test: $(STAMP) bytecode
	$(PY) -m pytest -q -n $(PYTEST_JOBS) $(PYTEST_ARGS) tests

# The documentation site (mkdocs.yml, docs/) into build/site; any warning (a broken link, a
# page left out of the nav) fails it. The API page is generated from the docstrings first.
docs: $(STAMP)
	$(PY) tools/docs_reference.py
	$(PY) -m mkdocs build --strict --quiet

demo: $(STAMP) bytecode
	$(PY) samples/static_graph.py
	$(PY) samples/train_seed_network.py

# The bench-only extra (JAX, a baseline beside graphjit): installed once, into the same venv,
# only by `make bench` (its own stamp; `make install`/`make test` never pull JAX). If it cannot
# be installed the benchmarks still run and say "jax: not installed".
BENCH_STAMP := $(VENV)/.graphjit-bench-installed

$(BENCH_STAMP): $(STAMP)
	$(PY) -c 'import jax' 2>/dev/null || $(PY) -m pip install --quiet -e '.[bench]' \
		|| echo "make bench: could not install the bench extra (JAX); running without it"
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) bytecode
	$(PY) benchmarks/run.py

# The numba-cuda backend on a real GPU vs the CPU backend; without a GPU it says so, exits 0.
gpu-check: $(STAMP)
	$(PY) benchmarks/gpu_check.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache

# Differential fuzzing (tests/fuzzing): `make fuzz N=10000`; FUZZ_ARGS="--seed 7 --no-save".
.PHONY: fuzz
fuzz: N ?= 1000
fuzz: $(STAMP)
	$(PY) -m tests.fuzzing.run --n $(N) $(FUZZ_ARGS)

# Operator x type matrix, compiled vs plain (tests/dtype_universe.py): summary table and the
# differences; `make matrix MATRIX_ARGS="--jobs 2 --out /tmp/matrix_report.txt"`,
# MATRIX_ARGS="--ops 'a + b' 'round(a, 1)' --sample 500". `make test` runs a fixed sample.
.PHONY: matrix
matrix: $(STAMP)
	$(PY) -m tests.dtype_universe $(MATRIX_ARGS)

# Memory kept by N dropped jitted closures, beside numba.njit (benchmarks/memory.py).
.PHONY: memory
memory: N ?= 1000
memory: $(STAMP)
	$(PY) benchmarks/memory.py --n $(N)

# Generated source of the test suite's cases, to check that a refactoring changes nothing
# (tools/snapshot_generated.py): `make snapshot OUT=/tmp/a` on each commit, then
# `make snapshot-compare A=/tmp/a B=/tmp/b`.
.PHONY: snapshot snapshot-compare
snapshot: $(STAMP)
	PYTHONPATH=. $(PY) tools/snapshot_generated.py --out $(OUT)
snapshot-compare: $(STAMP)
	$(PY) tools/snapshot_generated.py --compare $(A) $(B)

# NumPy's reductions in compiled code (tests/test_numpy_reductions.py) over every dtype;
# `make test` runs a sample.
.PHONY: test-reductions
test-reductions: $(STAMP)
	GRAPHJIT_REDUCTIONS_FULL=1 $(PY) -m pytest -q $(PYTEST_ARGS) tests/test_numpy_reductions.py

# Parallel loops (issue #19): tests/test_parallel.py over every integer and float dtype
# (`make test` runs a sample), then the reference suite's functions under parallel=True.
.PHONY: test-parallel
test-parallel: $(STAMP)
	GRAPHJIT_PARALLEL_FULL=1 $(PY) -m pytest -q $(PYTEST_ARGS) tests/test_parallel.py

# In-place updates through N-d boolean masks over every dtype x operand
# (tests/test_review_ufuncs_stores.py); `make test` runs a sample.
.PHONY: test-stores
test-stores: $(STAMP)
	GRAPHJIT_STORES_FULL=1 $(PY) -m pytest -q $(PYTEST_ARGS) tests/test_review_ufuncs_stores.py

# Names that are a Python int or an np.int64 by path (tests/test_path_types.py) under every
# operator; `make test` runs a sample.
.PHONY: test-path-types
test-path-types: $(STAMP)
	GRAPHJIT_PATH_TYPES_FULL=1 $(PY) -m pytest -q $(PYTEST_ARGS) tests/test_path_types.py tests/test_merged_operands.py

# Every ufunc called by NumPy's inner loop x every operand layout, in a function that stores
# into its argument (tests/test_ufunc_layouts.py); `make test` runs a sample.
.PHONY: test-layouts
test-layouts: $(STAMP)
	GRAPHJIT_LAYOUTS_FULL=1 $(PY) -m pytest -q $(PYTEST_ARGS) tests/test_ufunc_layouts.py

# Numba's own test usecases run plainly and through graphjit, the plain call as oracle
# (tools/numba_usecases.py): a summary table and the wrong/crash cases. DIR holds the usecase
# modules, extracted first with `$(PY) tools/numba_usecases.py --extract GITDIR DIR`. Not part
# of `make test`. `make numba-usecases DIR=/tmp/numba_usecases NUMBA_USECASES_ARGS="--json x"`
.PHONY: numba-usecases
NUMBA_USECASES_ARGS ?= --jobs 2
numba-usecases: $(STAMP)
	@test -n "$(DIR)" || { echo "usage: make numba-usecases DIR=/path/to/usecase/modules"; exit 2; }
	$(PY) tools/numba_usecases.py $(DIR) $(NUMBA_USECASES_ARGS)
