"""The CUDA test tiers, run in a subprocess by tests/test_cuda.py (one process per tier):

- ``GRAPHJIT_CUDA_TIER=simulator`` with ``NUMBA_ENABLE_CUDASIM=1``: the kernels run in Numba's
  CUDA simulator (a Python thread per CUDA thread: tiny shapes);
- ``GRAPHJIT_CUDA_TIER=ptx``: no GPU, no simulator; every kernel a call would launch is
  compiled to PTX for sm_90 (the simulator checks no types) and the CPU path runs.

Each case runs plainly (the truth), on the numba-cpu backend and on numba-cuda, and compares
values (float32 tolerance where the GPU sums in another order), dtypes, argument mutation and
exception types, and what explain() says ran where.
"""
import copy
import os
import re
import sys
import warnings

import numpy as np
import pytest

TIER = os.environ.get("GRAPHJIT_CUDA_TIER")
if TIER not in ("simulator", "ptx"):
    pytest.skip("run by tests/test_cuda.py with GRAPHJIT_CUDA_TIER set", allow_module_level=True)

sys.path.insert(0, os.path.dirname(__file__))
import programs  # noqa: E402

import transpiler as tp  # noqa: E402
from backends.runtime import cuda as rt  # noqa: E402
from transpiler.errors import FallbackWarning  # noqa: E402

if TIER == "ptx":
    rt.enable_compile_only()
else:
    assert rt.SIMULATOR, "the simulator tier needs NUMBA_ENABLE_CUDASIM=1 before import"

RNG = np.random.default_rng(7)
KERNELS_SEEN = set()   # names of @cuda.jit kernels in the generated modules


def run(fn, args, backend):
    args = copy.deepcopy(args)
    target = fn if backend is None else tp.jit(fn, backend=backend)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FallbackWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            result = target(*args)
    except Exception as exc:  # noqa: BLE001 - the exception type is the outcome
        return ("raised", type(exc)), args, target
    return ("returned", result), args, target


def close(expected, actual, exact):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for e, a in zip(expected, actual):
            close(e, a, exact)
        return
    if isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray)
        assert actual.dtype == expected.dtype and actual.shape == expected.shape
        if exact:
            np.testing.assert_array_equal(actual, expected)
        else:
            np.testing.assert_allclose(actual, expected, rtol=2e-6, atol=1e-6)
        return
    assert np.result_type(actual) == np.result_type(expected)
    assert actual == pytest.approx(expected, rel=2e-6)


def compare(fn, args, exact=False):
    """Plain vs numba-cpu vs numba-cuda; returns the numba-cuda JitFunction."""
    plain, plain_args, _ = run(fn, args, None)
    cpu, cpu_args, _ = run(fn, args, "numba-cpu")
    gpu, gpu_args, jitted = run(fn, args, "numba-cuda")
    assert plain[0] == cpu[0] == gpu[0], (plain, cpu, gpu)
    if plain[0] == "raised":
        assert plain[1] is cpu[1] is gpu[1]
    else:
        close(plain[1], gpu[1], exact)
    for before, after in zip(plain_args, gpu_args):
        close(before, after, exact) if isinstance(before, np.ndarray) else None
    KERNELS_SEEN.update(re.findall(r"@cuda\.jit\ndef (\w+)", jitted.source()))
    return jitted


def rows(jitted, status):
    return [r for r in jitted.explain().rows if r.status == status]


def sites(jitted):
    """The rows of the parts mapped to the GPU (status "gpu", or "cpu" when every call so far
    ran on the CPU), with their call counts."""
    return [r for r in jitted.explain().rows if "calls on the GPU:" in r.reason]


def gpu_ran(jitted):
    """The GPU rows' text; in the simulator tier each must show a GPU call."""
    found = sites(jitted)
    assert found, str(jitted.explain())
    if TIER == "simulator":
        assert all("calls on the GPU: 0" not in r.reason for r in found), jitted.explain()
    else:
        assert all("compile-only run" in r.reason for r in found), jitted.explain()
    return found


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_elementwise_function(dtype):
    x = RNG.standard_normal(7).astype(dtype)
    y = RNG.standard_normal(7).astype(dtype)
    jitted = compare(programs.scaled_exp, (x, y))
    assert "element-wise" in gpu_ran(jitted)[0].region
    compare(programs.scaled_exp, (x, 0.5))                      # a scalar broadcast
    compare(programs.scaled_exp, (x.reshape(7, 1), y.reshape(7, 1)))   # any shape


def test_elementwise_of_numbers_and_mismatched_shapes_run_on_the_cpu():
    compare(programs.scaled_exp, (1.5, 0.25), exact=True)
    jitted = compare(programs.scaled_exp, (np.ones((2, 3), np.float32),
                                           np.ones(3, np.float32)), exact=True)
    # np.maximum of a 2-D and a 1-D array: NumPy's loop in several calls, which compiled CPU
    # code leaves to NumPy's own call (backends/runtime/ufunc_loops._gj_numpy_call)
    assert any("different shapes" in r.reason for r in sites(jitted)) or any(
        r.status == "compiled" for r in jitted.explain().rows), jitted.explain()


def test_independent_loop_is_a_kernel():
    x = RNG.standard_normal(9).astype(np.float32)
    y = RNG.standard_normal(9).astype(np.float32)
    jitted = compare(programs.saxpy_sqrt, (2.0, x, y, np.zeros(9, np.float32)))
    assert "one thread per iteration" in gpu_ran(jitted)[0].reason
    assert "range(cuda.grid(1), _gj_count, cuda.gridsize(1))" in jitted.source()


def test_loop_with_inner_loops_is_a_kernel_over_its_outer_loop():
    points = RNG.standard_normal((5, 3))
    jitted = compare(programs.pairwise, (points, np.zeros((5, 5))))
    gpu_ran(jitted)


def test_dependent_loop_runs_on_the_cpu_and_explain_says_why():
    x = RNG.standard_normal(6).astype(np.float32)
    jitted = compare(programs.prefix_sum, (x,), exact=True)
    cpu = rows(jitted, "cpu")
    assert cpu and "loop-carried dependence" in cpu[0].reason, jitted.explain()
    assert cpu[0].origin.lineno == programs.prefix_sum.__code__.co_firstlineno + 4
    assert not sites(jitted)


def test_reduction_is_recognised_and_kept_on_the_cpu():
    jitted = compare(programs.total, (RNG.standard_normal(6),), exact=True)
    assert "reduction" in rows(jitted, "cpu")[0].reason, jitted.explain()


def test_break_keeps_a_loop_on_the_cpu():
    x = np.array([1.0, 2.0, -1.0, 3.0])
    jitted = compare(programs.early_exit, (x, np.zeros(4)), exact=True)
    assert "break" in rows(jitted, "cpu")[0].reason, jitted.explain()


def test_index_error_on_the_gpu_raises_as_python_does():
    x = np.arange(5, dtype=np.float64)
    jitted = compare(programs.shifted, (x, np.zeros(5)))   # IndexError, same partial writes
    if TIER == "simulator":
        assert any("error on the GPU" in r.reason for r in sites(jitted)), \
            jitted.explain()
    compare(programs.shifted, (x, np.zeros(4)))            # in range: the kernel's result


def test_cpu_region_then_kernel():
    x = RNG.standard_normal(8)
    jitted = compare(programs.mixed, (x, np.zeros(8)))
    assert "mixed__cpu_" in jitted.source()
    mapped = sites(jitted)
    static = [r for r in rows(jitted, "cpu") if r not in mapped]
    assert len(mapped) == 1 and len(static) == 1, jitted.explain()


def test_aliased_arguments_run_on_the_cpu():
    x = np.arange(6.0)
    jitted = tp.jit(programs.add_one, backend="numba-cuda")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = jitted(x, x)
    plain = np.arange(6.0)
    programs.add_one(plain, plain)
    np.testing.assert_array_equal(got, plain)
    np.testing.assert_array_equal(x, plain)
    assert any("share memory" in str(w.message) for w in caught)


def _network():
    tp.nn.set_seed(3)
    return programs.SmallNet()


def test_network_matches_the_cpu_backend():
    net = _network()
    x = RNG.standard_normal((4, 1, 8, 8)).astype(np.float32)
    expected = net(x)                                   # PYNATIVE: the truth
    tp.set_context(mode=tp.GRAPH_MODE, device_target="CPU")
    try:
        on_cpu = net(x)
        tp.set_context(device_target="GPU")
        on_gpu = net(x)
        # A weight update shows at the next call, without a new specialization.
        net.layers[0].weight[...] *= 0.5
        on_gpu2 = net(x)
    finally:
        tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    expected2 = net(x)
    np.testing.assert_array_equal(on_cpu, expected)
    assert on_gpu.dtype == np.float32 and on_gpu.shape == (4, 10)
    np.testing.assert_allclose(on_gpu, on_cpu, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(on_gpu2, expected2, rtol=1e-5, atol=1e-6)
    assert not np.allclose(on_gpu2, on_gpu)
    from transpiler.nn.cell import _graph_function
    jitted = _graph_function(programs.SmallNet.construct)
    explained = jitted._explain_for(net)
    network = [r for r in explained.rows if "calls on the GPU:" in r.reason]
    assert network and "fused" in network[0].reason, explained
    assert "kernel launches in the last call: 3" in network[0].reason, explained
    if TIER == "ptx":
        assert {"matmul_kernel"} <= {name for name, _, _ in rt.COMPILED}


# -- regressions found by review (each was a silent wrong answer or a wrong report) -----------

def test_range_with_negative_and_positive_indices_runs_on_the_cpu():
    jitted = compare(programs.negative_start, (np.arange(12.0),), exact=True)
    assert any("negative and non-negative" in r.reason for r in sites(jitted))
    assert all(r.status == "cpu" for r in sites(jitted))


@pytest.mark.parametrize("fn, arg", [(programs.alias_local, np.ones(20)),
                                     (programs.alias_transpose, np.ones((5, 5)))])
def test_stored_array_used_through_another_name_is_not_independent(fn, arg):
    jitted = compare(fn, (arg,), exact=True)
    assert not sites(jitted) and "other than as" in rows(jitted, "cpu")[0].reason, \
        jitted.explain()


def test_runtime_error_after_a_kernel_is_not_a_second_run():
    compare(programs.kernel_then_bad_dot, (np.zeros(4), np.ones((2, 3)), np.ones((2, 3))),
            exact=True)


def test_python_int_argument_stays_weak_in_an_element_wise_map():
    compare(programs.add_big_int, (np.zeros(2, np.float32), 16777217), exact=True)


def test_loop_after_an_early_return_is_a_kernel():
    jitted = compare(programs.early_return, (np.ones(3), np.zeros(3)))
    gpu_ran(jitted)


def test_identity_returns_the_argument_itself():
    x = np.ones(3)
    assert tp.jit(programs.identity, backend="numba-cuda")(x) is x


def test_counts_belong_to_each_jit_function():
    x = np.arange(4.0)
    first = tp.jit(programs.add_one, backend="numba-cuda")
    for _ in range(3):
        first(x, np.zeros(4))
    second = tp.jit(programs.add_one, backend="numba-cuda")
    second(x, np.zeros(4))
    if TIER == "simulator":
        assert "calls on the GPU: 1," in sites(second)[0].reason, second.explain()
        assert "calls on the GPU: 3," in sites(first)[0].reason, first.explain()


def test_network_with_a_residual_add():
    tp.nn.set_seed(5)
    net = programs.Residual()
    x = RNG.standard_normal((3, 8)).astype(np.float32)
    expected = net(x)
    tp.set_context(mode=tp.GRAPH_MODE, device_target="GPU")
    try:
        got = net(x)
    finally:
        tp.set_context(mode=tp.PYNATIVE_MODE, device_target="CPU")
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    from transpiler.nn.cell import _graph_function
    explained = _graph_function(programs.Residual.construct)._explain_for(net)
    network = [r for r in explained.rows if "calls on the GPU:" in r.reason][0]
    if TIER == "simulator":
        assert "on the CPU: 0" in network.reason, explained
    else:
        assert "compile-only run" in network.reason and "no kernel" not in network.reason, \
            explained


def test_division_of_array_elements_is_a_kernel_and_zero_divisors_go_to_the_cpu():
    x = np.arange(1.0, 6.0)
    jitted = compare(programs.ratios, (x, np.array([1.0, 2.0, 4.0, 3.0, 2.0]), np.zeros(5)))
    gpu_ran(jitted)
    compare(programs.ratios, (x, np.array([1.0, 2.0, 0.0, 3.0, 2.0]), np.zeros(5)), exact=True)


def test_a_local_named_weak_keeps_the_element_wise_map():
    """The IR form ``weak`` is recognised by its symbol's final name, not the literal "weak"
    (a user's local ``weak`` makes the namer call the form ``weak_1``)."""
    compare(programs.local_named_weak, (np.float32(1.5),), exact=True)
    x = np.arange(5, dtype=np.float32)
    jitted = compare(programs.local_named_weak, (x,), exact=True)
    assert "weak_1" in jitted.source(), jitted.source()
    assert "element-wise" in gpu_ran(jitted)[0].region, jitted.explain()


def test_every_generated_kernel_compiled_to_ptx():
    """Runs last (file order): every kernel the cases generated was compiled for sm_90."""
    if TIER != "ptx":
        pytest.skip("the compile-only tier's check")
    compiled = {name for name, _, size in rt.COMPILED if size > 0}
    assert KERNELS_SEEN, "no kernels generated"
    assert not rt.FAILED, rt.FAILED
    missing = KERNELS_SEEN - compiled
    assert not missing, f"generated but never compiled to PTX: {sorted(missing)}"
    # The network kernels for both float types, and the element-wise kernel of the graph.
    from numba import float32, float64, int64, boolean, types
    from backends.runtime import cuda_graph
    for element in (float32, float64):
        matrix, vector = types.Array(element, 2, "C"), types.Array(element, 1, "C")
        kernel = cuda_graph._make_matmul(16, element)
        assert rt.cuda.compile_ptx(kernel.py_func, (matrix, matrix, vector, matrix, boolean,
                                                    boolean, boolean), cc=(9, 0))[0]
        assert rt.cuda.compile_ptx(cuda_graph.elementwise_kernel.py_func,
                                   (int64, vector, vector, int64, vector), cc=(9, 0))[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_power_helpers_in_a_kernel(dtype):
    """``(a + i) ** 2.0`` is libm's pow on the CPU (transpiler.ir.opaque hides the exponent
    from LLVM); on the device the barrier is dropped and CUDA's pow computes it."""
    x = RNG.standard_normal(9).astype(dtype)
    jitted = compare(programs.squares, (1.5, x, np.zeros(9, dtype)))
    gpu_ran(jitted)
    assert "opaque" not in "".join(
        line for line in jitted.source().splitlines() if "__dev" in line or "cuda" in line)
