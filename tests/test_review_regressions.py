"""Regressions found by a fresh-eyes review of the foundation; each compares with plain Python."""
import functools
import warnings

import numpy as np
import pytest

import transpiler as tp
from transpiler import nn
from reference import assert_compiles_same, outcome


def twice(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x) * 2
    return wrapper


@twice
def increment(x):
    return x + 1


def test_jit_over_a_wraps_decorator_compiles_the_wrapper():
    compiled = assert_compiles_same(increment, 1)
    assert compiled(1) == 4


class Model:
    def __init__(self, sub=None):
        self.k = 2
        self.sub = sub

    def helper(self, x):
        return x * self.k

    @tp.jit(fullgraph=True)
    def run(self, x):
        return self.helper(x) + 1

    @tp.jit(fullgraph=True)
    def maybe_sub(self, x):
        if self.sub is None:
            return x
        return self.sub(x)


def test_method_called_from_compiled_code_compiles_and_is_reused():
    # (arrays: a scalar result of self.helper is a call's result the analyses do not type,
    # which runs as Python under fullgraph's refusal, transpiler/result_box_check.py)
    model = Model()
    np.testing.assert_array_equal(model.run(np.array([1.0, 0.5])), [3.0, 2.0])
    np.testing.assert_array_equal(model.run(np.array([2.0, 0.5])), [5.0, 2.0])
    assert len(Model.run._serving(model)) == 1
    model.k = 3
    np.testing.assert_array_equal(model.run(np.array([2.0, 0.5])), [7.0, 2.5])


def test_a_scalar_result_of_a_method_call_has_the_plain_calls_type():
    # self.helper(x) + 1 of an np.float64 is an np.float64 (compiled code gave 5.0)
    model = Model()
    run = Model.run.python_function
    for x in (2.0, np.float64(2.0), 3, np.float32(1.5), np.int8(3)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", tp.FallbackWarning)
            got = tp.jit(run)(model, x)
        expected = run(model, x)
        assert type(got) is type(expected) and got == expected


def test_static_early_return_prunes_the_rest():
    x = np.array([2.0, 1.0])
    assert Model(None).maybe_sub(x) is x


def test_literal_result():
    def three(x):
        return 3
    assert_compiles_same(three, 1)


@pytest.mark.parametrize("argument,word", [
    (np.ma.masked_array([1.0, 2.0], mask=[True, False]), "subclass"),
    ([1, 2], "list"),
    (2 ** 70, "int64"),
])
def test_arguments_compiled_code_would_misread_fall_back(argument, word):
    def total(x):
        return x + x
    compiled = tp.jit(total)
    compiled(np.ones(2))
    with pytest.warns(tp.FallbackWarning, match=word):
        result = compiled(argument)
    expected = total(argument)
    assert type(result) is type(expected)
    assert np.array_equal(np.asarray(result), np.asarray(expected))


def test_list_argument_is_not_truncated():
    def store(x):
        x[0] = 2.7
    values = [1, 2]
    with pytest.warns(tp.FallbackWarning):
        tp.jit(store)(values)
    assert values == [2.7, 2]


def test_internal_numba_failure_falls_back_cleanly(numba_path):
    def double(x):
        return x * 2
    with pytest.warns(tp.FallbackWarning, match="float16"):
        out = tp.jit(double)(np.ones(2, np.float16))
    assert out.dtype == np.float16


def test_str_of_a_number_is_not_compiled():
    def label(x):
        return str(x)
    with pytest.warns(tp.FallbackWarning, match="str"):
        assert tp.jit(label)(1.5) == "1.5"


def test_relu_keeps_int32_in_graph_mode():
    relu = nn.ReLU()
    x = np.array([-2, 3], np.int32)
    tp.set_context(mode=tp.GRAPH_MODE)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        out = relu(x)
    assert out.dtype == np.int32 and out.tolist() == [0, 3]


def test_fullgraph_raises_for_kwargs_and_compiles_varargs():
    def kwargs(**xs):
        return len(xs)
    with pytest.raises(tp.UnsupportedConstruct, match=r"\*\*kwargs parameter"):
        tp.jit(kwargs, fullgraph=True)(a=1, b=2)

    def varargs(*xs):
        return len(xs)
    assert tp.jit(varargs, fullgraph=True)(1, 2) == 2


def test_overlapping_in_place_slice_update_reads_the_old_values():
    # NumPy buffers the overlapping operand (helpers.numpy_calls.overlapping_operand); this fell back
    def running(a):
        out = a.copy()
        out[1:] += out[:-1]
        return out
    result = assert_compiles_same(running, np.arange(6.0))(np.arange(6.0))
    assert result.tolist() == running(np.arange(6.0)).tolist() == [0, 1, 3, 5, 7, 9]


def test_element_update_from_the_same_array_compiles():
    def prefix(a):
        for i in range(1, a.shape[0]):
            a[i] += a[i - 1]
        return a
    assert_compiles_same(prefix, np.arange(5.0))


def test_out_of_range_index_raises_index_error():
    def read(a, i):
        return a[i]

    def fill(a, n):
        for i in range(n):
            a[i] = 7
        return a.sum()
    assert_compiles_same(read, np.arange(3), 5)
    assert_compiles_same(read, np.arange(3), -1)
    assert_compiles_same(fill, np.zeros(3, np.int64), 1000)


def test_runtime_error_in_compiled_code_is_not_a_fallback():
    def bump_then_max(a, b):
        for i in range(len(a)):
            a[i] += 1
        return b.max()
    compiled = tp.jit(bump_then_max)
    compiled(np.zeros(3), np.ones(2))
    a = np.zeros(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tp.FallbackWarning)
        with pytest.raises(ValueError):
            compiled(a, np.zeros(0))
    assert a.tolist() == [1.0, 1.0, 1.0]          # mutated once, as by the plain call


def test_nested_def_calling_a_nested_def_that_captures():
    def nested(a, k):
        off = k + 1

        def inner(v):
            return v * off

        def inner2(v):
            return inner(v) - k
        s = 0.0
        for x in a:
            s += inner2(x)
        return s
    assert_compiles_same(nested, np.arange(3.0), 2)


def test_ir_of_a_fallback_is_valid_python():
    def uses_try(x):
        try:
            return x + 1
        except TypeError:
            return 0
    compiled = tp.jit(uses_try)
    text = compiled.ir()
    compile(text, "<ir>", "exec")
    assert text.startswith("# graphjit:")


def dtype_typed_sum(x):
    s = x.dtype.type(0)
    for i in range(x.shape[0]):
        s += x[i]
    return s


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32", "int64", "uint64",
                                   "float32", "bool"])
def test_accumulator_of_the_arrays_own_scalar_type(dtype):
    """Found by the parallel-loop review: ``x.dtype.type(0)`` was a type unknown to the number
    analyses, so ``s += x[i]`` over int8 added in Numba's int64 and returned 200 (a Python
    int) where NumPy wraps to np.int8(-56). Its type is now the array's NumPy scalar type."""
    x = np.array([100, 100, 3], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)    # NumPy's scalar overflow warning
        compiled = assert_compiles_same(dtype_typed_sum, x)
    assert type(compiled(x)) is type(dtype_typed_sum(x))


def odd(k):     # a global of the name a nested function below binds later
    return 42


def test_nested_call_of_a_sibling_defined_later_is_not_the_global():
    def early_global(n):
        def even(k):
            return True if k == 0 else odd(k - 1)
        r = even(n)

        def odd(k):
            return False if k == 0 else even(k - 1)
        return r
    for n in (0, 3):
        compiled = tp.jit(early_global)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plain, got = outcome(early_global, (n,)), outcome(compiled, (n,))
        assert plain == got     # n=3: NameError both ways (not the global's 42)


def type_is_float(x):
    return type(x) is float


def type_of(x):
    return type(x)


def in_place_minus(x, v):
    y = x
    y -= v
    return y


@pytest.mark.parametrize("fn,args", [
    (type_is_float, (1.5,)), (type_is_float, (1,)), (type_is_float, (np.float64(1.5),)),
    (type_of, (1.5,)), (type_of, (np.int8(3),)), (type_of, (True,)),
    (in_place_minus, (np.array([0.1, 1.0], np.float32), 0.1)),
    (in_place_minus, (np.array([0.1, 1.3], np.complex64), 0.7)),
    (in_place_minus, (np.array([0.1, 1.3], np.float32), 3)),
    (in_place_minus, (np.array([1, 2], np.int8), 3)),
], ids=lambda v: getattr(v, "__name__", None))
def test_type_and_in_place_weak_numbers(fn, args):
    compiled = tp.jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain, got = outcome(fn, args), outcome(compiled, args)
    (kind, value), _ = plain
    (kind_c, value_c), _ = got
    assert kind == kind_c and type(value) is type(value_c)
    if isinstance(value, np.ndarray):
        assert value.dtype == value_c.dtype and np.array_equal(value, value_c)
    else:
        assert value == value_c


def value_and_its_type(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5
    return s, type(s)


def test_a_class_inside_a_returned_tuple_falls_back():
    """Found by review (issue 20): Numba cannot box a class inside a tuple result (SystemError
    after the call ran); the function runs as Python, with plain's result."""
    jitted = tp.jit(value_and_its_type)
    with pytest.warns(tp.FallbackWarning, match="class returned inside a tuple"):
        assert jitted(3) == (1.5, float)
