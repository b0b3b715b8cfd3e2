"""An adversarial review's findings (issue 14): ufuncs called on NumPy scalars, in-place
updates between overlapping views, scalar stores into slices and new integer arrays, np.clip's
result dtype, chained comparisons of NumPy scalars.

Each case runs plainly and with ``fullgraph=True`` (reference.assert_compiles_same: value,
type, dtype, exception type, arguments after the call); the ones that must fall back are
checked to warn and give the plain result. Before the fixes, ``np.mod(np.int8(-128), -1)``
killed the process (SIGFPE) and every other case here gave a different value or type.
"""
import math
import os
import warnings

import numpy as np
import pytest

import transpiler as tp

from reference import assert_compiles_same, assert_same_outcome, outcome


def mod(a, b):
    return np.mod(a, b)


def floor_divide(a, b):
    return np.floor_divide(a, b)


def np_divmod(a, b):
    return np.divmod(a, b)


def fmod(a, b):
    return np.fmod(a, b)


def sign(a):
    return np.sign(a)


def maximum(a, b):
    return np.maximum(a, b)


def minimum(a, b):
    return np.minimum(a, b)


def exp(a):
    return np.exp(a)


def add_one(a):
    return np.add(a, 1)


def mod_in_loop(a, d):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = np.mod(a[i], d)
    return out


I8 = np.int8


@pytest.mark.parametrize("fn,args", [
    (mod, (I8(-128), I8(-1))),                  # SIGFPE before
    (mod, (np.int64(-2 ** 63), -1)),
    (mod, (I8(7), I8(0))),
    (mod, (np.int16(7), -2)),
    (mod, (np.uint8(7), 300)),                  # OverflowError (NEP 50)
    (floor_divide, (I8(-128), I8(-1))),         # -128 in NumPy, 0 before
    (floor_divide, (np.uint16(7), np.int8(-2))),
    (np_divmod, (I8(-128), I8(-1))),            # SIGFPE before
    (np_divmod, (7, -2)),                       # np.int64s, not Python ints
    (np_divmod, (7.5, -2.0)),
    (np_divmod, (np.float32(7.5), 0.0)),
    (sign, (np.uint8(255),)),                   # 255 before
    (sign, (-0.0,)),                            # +0.0 in NumPy
    (sign, (np.float32("nan"),)),
    (sign, (np.int16(-300),)),
    (maximum, (0.0, -0.0)),                     # the second of equal values
    (maximum, (-0.0, 0.0)),
    (minimum, (np.float32(0.0), -0.0)),
    (maximum, (np.nan, 1.0)),
    (maximum, (1.0, np.float32("nan"))),
    (minimum, (2, I8(3))),
    (exp, (np.int16(3),)),                      # float32 in NumPy
    (exp, (np.float32(1.5),)),
    (add_one, (3,)),                            # np.int64, not a Python int
    (add_one, (I8(127),)),                      # wraps to int8
    (add_one, (np.uint64(5),)),
    (mod_in_loop, (np.array([-128, 5], dtype=np.int8), -1)),    # SIGFPE before
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_ufuncs_of_scalars(fn, args):
    with np.errstate(all="ignore"):
        assert_compiles_same(fn, *args)


@pytest.mark.parametrize("fn,args", [
    (fmod, (I8(-128), I8(-1))),                 # Numba's integer fmod differs
    (exp, (I8(3),)),                            # float16 in NumPy
    (exp, (True,)),
    (sign, (np.True_,)),                        # TypeError in NumPy
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_ufuncs_that_fall_back(fn, args):
    compiled = tp.jit(fn)
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        plain, got = outcome(fn, args)[0], outcome(compiled, args)[0]
    assert plain[0] == got[0]
    assert type(plain[1]) is type(got[1]) and repr(plain[1]) == repr(got[1])
    assert any(issubclass(w.category, tp.FallbackWarning) for w in caught)


def add_reversed(a):
    a += a[::-1]
    return a


def add_transposed(a):
    a += a.T
    return a


def shift_add(a):
    b = a[:-1]
    a[1:] += b
    return a


def update(a, b):
    a += b
    return a


@pytest.mark.parametrize("fn,args", [
    (add_reversed, (np.arange(5.0),)),
    (add_transposed, (np.arange(9.0).reshape(3, 3),)),
    (add_transposed, (np.arange(9, dtype=np.int8).reshape(3, 3),)),
    (shift_add, (np.arange(6),)),
    (update, (np.arange(4.0), np.ones(4))),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_in_place_updates_from_overlapping_views(fn, args):
    assert_compiles_same(fn, *args)


def test_in_place_update_by_an_aliasing_argument():
    compiled = tp.jit(update, fullgraph=True)
    for cut in ((slice(1, None), slice(None, -1)), (slice(None, -1), slice(1, None))):
        plain_a, jit_a = np.arange(6.0), np.arange(6.0)
        update(plain_a[cut[0]], plain_a[cut[1]])
        compiled(jit_a[cut[0]], jit_a[cut[1]])
        assert np.array_equal(plain_a, jit_a), (cut, plain_a, jit_a)


def store_slice(a, v):
    a[1:] = v
    return a


def store_column(a, v):
    a[:, 0] = v
    return a


def fill(a, v):
    a.fill(v)
    return a


def full_int8(v):
    return np.full(3, v, dtype=np.int8)


def array_uint8(v):
    return np.array([v, 1], dtype=np.uint8)


@pytest.mark.parametrize("fn,args", [
    (store_slice, (np.zeros(3, np.int8), 300)),         # OverflowError, wrapped before
    (store_slice, (np.zeros(3, np.uint8), -1)),
    (store_slice, (np.zeros(3, np.int8), float("nan"))),    # ValueError
    (store_slice, (np.zeros(3, np.int8), 1e10)),
    (store_slice, (np.zeros(3, np.int8), np.int64(300))),
    (store_slice, (np.zeros(3, np.uint8), np.int64(300))),  # a NumPy int wraps
    (store_slice, (np.zeros(3, np.int8), 3.7)),
    (store_slice, (np.zeros(3, np.int8), np.arange(2))),
    (store_slice, (np.zeros(3, np.float32), 0.1)),
    (store_column, (np.zeros((2, 2), np.int16), 70000)),
    (fill, (np.zeros(3, np.int8), 300)),
    (fill, (np.zeros(3, np.uint8), -1.0)),
    (fill, (np.zeros(3, np.int8), 5)),
    (full_int8, (300,)),
    (full_int8, (3.7,)),
    (full_int8, (np.int64(300),)),
    (array_uint8, (300,)),
    (array_uint8, (-1,)),
    (array_uint8, (5,)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_scalar_stores_convert_as_numpy(fn, args):
    assert_compiles_same(fn, *args)


def test_a_float_out_of_range_into_a_new_int_array_runs_as_python():
    compiled = tp.jit(full_int8)
    with warnings.catch_warnings(record=True), np.errstate(all="ignore"):
        warnings.simplefilter("always")
        for v in (1e10, float("nan")):
            assert np.array_equal(compiled(v), full_int8(v))


def clip(a, low, high):
    return np.clip(a, low, high)


@pytest.mark.parametrize("args", [
    (np.arange(4, dtype=np.float32), 0.5, 2.5),
    (np.arange(4), 1, 2),
    (np.arange(4, dtype=np.int8), np.int8(1), np.int8(2)),
], ids=repr)
def test_clip_keeps_compiling(args):
    assert_compiles_same(clip, *args)


@pytest.mark.parametrize("args", [
    (np.arange(4, dtype=np.int8), 0.5, 2.5),                 # float64 in NumPy
    (np.arange(4, dtype=np.float32), np.float64(0.5), 2.5),  # float64 in NumPy
    (np.arange(4, dtype=np.int8), 0, 300),                   # clipped by value in NumPy
], ids=repr)
def test_clip_of_another_result_dtype_falls_back(args):
    compiled = tp.jit(clip)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got, want = compiled(*args), clip(*args)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert any(issubclass(w.category, tp.FallbackWarning) for w in caught)


def chain(a, b, c):
    return a == b == c


@pytest.mark.parametrize("args", [
    (np.float32(0.1), 0.1, np.float32(0.1)),     # NEP 50: True (False before)
    (np.float32(1), 1.0, np.float32(1)),
    (np.uint8(1), 1, np.int8(1)),
    (np.float32(0.1), np.float32(0.1), 0.2),
], ids=repr)
def test_chained_comparisons_of_numpy_scalars(args):
    assert_compiles_same(chain, *args)


def np_round(x):
    return np.round(x)


def np_round_digits(x, n):
    return np.round(x, n)


def round_digits(x, n):
    return round(x, n)


def where(c, a, b):
    return np.where(c, a, b)


def gcd(a, b):
    return math.gcd(a, b)


@pytest.mark.parametrize("fn,args", [
    (np_round, (np.float32(2.5),)),             # np.float32 (a Python float before)
    (np_round, (np.int8(3),)),
    (np_round, (np.float64(-0.5),)),
    (np_round_digits, (np.float32(2.567), 1)),
    (np_round_digits, (2.675, 2)),              # NumPy's algorithm: 2.68
    (round_digits, (2.675, np.int64(2))),       # CPython's: 2.67 (2.68 before)
    (round_digits, (np.float32(2.675), np.int8(2))),
    (where, (True, np.float32(1.5), 2.5)),      # float32 (float64 before)
    (where, (False, np.int8(1), 300)),          # NumPy converts 300 unsafely: 44
    (where, (np.True_, np.uint64(1), -1)),
    (where, (np.array([True, False]), np.float32(1.5), 2.5)),
    (gcd, (np.uint8(12), np.uint8(18))),        # a Python int (np.uint8 before)
    (gcd, (np.int16(-12), 18)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_numpy_calls_of_scalars(fn, args):
    assert_compiles_same(fn, *args)


# -- a second review's findings -------------------------------------------------------------

def np_equal(a, b):
    return np.equal(a, b)


def np_less(a, b):
    return np.less(a, b)


def np_abs(a):
    return np.abs(a)


@pytest.mark.parametrize("fn,args", [
    (gcd, (np.int8(-128), np.int8(0))),         # 128 (-128 before)
    (gcd, (np.uint64(2 ** 64 - 1), 3)),          # 3 (1 before)
    (gcd, (0, -2 ** 63)),                        # 2**63: runs as Python (effect-free)
    (gcd, (12, -18)),
    (gcd, (True, 4)),
    (np_equal, (np.int8(127), 300)),             # False (OverflowError before)
    (np_less, (np.uint8(5), -1)),
    (np_less, (3, np.uint64(2 ** 63))),
    (np_abs, (np.int8(-128),)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_second_review_scalar_calls(fn, args):
    if fn is gcd and args == (0, -2 ** 63):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert tp.jit(fn)(*args) == fn(*args) == 2 ** 63
        return
    assert_compiles_same(fn, *args)


@pytest.mark.parametrize("fn,args", [
    (np_abs, (np.complex128(-3 + 0.5j),)), (np_abs, (np.complex64(1e-3 - 7j),)),
    (maximum, (np.complex64(1j), 1.0)), (maximum, (np.complex128(np.nan), 1j)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_complex_loops_compile_as_numpy_loops(fn, args):
    # NumPy's npy_cabs differs from Python's abs in the last bit, its complex maximum orders
    # by its own rules: compiled code calls NumPy's loop (transpiler.ir.ufunc_loop); both
    # fell back before
    assert "ufunc_loop(" in assert_compiles_same(fn, *args).source()


def strided_update(a):
    a[::2] += a[1::2]
    return a


def prefix_rows(a):
    for i in range(1, a.shape[0]):
        a[i:] += a[i - 1]
    return a


@pytest.mark.parametrize("fn,args", [
    (update, (np.zeros(4), np.ones(3))),              # ValueError (read past the end before)
    (update, (np.zeros((4, 1)), np.ones(4))),         # ValueError (broadcast output)
    (update, (np.zeros((2, 3)), np.ones((1, 2, 3)))),
    (update, (np.zeros((2, 3)), np.ones((2, 1)))),
    (strided_update, (np.arange(7.0),)),              # ValueError: 4 and 3 elements
    (strided_update, (np.arange(8.0),)),
    (prefix_rows, (np.arange(5.0),)),                 # an element operand (fell back)
    (prefix_rows, (np.arange(6.0).reshape(3, 2),)),   # a row overlapping the target
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_in_place_update_shapes(fn, args):
    assert_compiles_same(fn, *args)


def store_mask(a, v):
    a[a > 0] = v
    return a


def store_index_array(a, v, where):
    a[where] = v
    return a


def array_0d(v):
    return np.array(v, dtype=np.int8)


def asarray_uint8(v):
    return np.asarray([v, 2], dtype=np.uint8)


def nested_int8(v):
    return np.array([[v, 1], [2, 3]], dtype=np.int8)


@pytest.mark.parametrize("fn,args", [
    (store_mask, (np.arange(5, dtype=np.int8), np.uint8(200))),     # wraps: -56
    (store_mask, (np.arange(5, dtype=np.int8), np.float32(300.5))),  # 44
    (store_mask, (np.arange(5, dtype=np.int8), 300)),                # OverflowError
    (store_mask, (np.arange(5, dtype=np.int8), float("nan"))),       # ValueError
    (store_index_array, (np.arange(5, dtype=np.int8), np.uint8(200), np.array([0, 2]))),
    (store_index_array, (np.arange(5, dtype=np.int16), np.int64(2 ** 40), np.array([1]))),
    (store_index_array, (np.arange(5, dtype=np.int8), 300, np.array([0, 2]))),
    (array_0d, (300,)),
    (array_0d, (float("nan"),)),
    (array_0d, (np.int64(300),)),                 # wraps: 44
    (array_0d, (1e10,)),
    (asarray_uint8, (-1,)),
    (asarray_uint8, (300,)),
    (nested_int8, (300,)),
    (nested_int8, (5,)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_stores_through_index_arrays_and_new_arrays(fn, args):
    assert_compiles_same(fn, *args)


def clip_into(a, low, high):
    a[:] = np.clip(a, low, high)
    return a


@pytest.mark.parametrize("args", [
    (np.arange(4.0), float("nan"), 3),       # NaN everywhere (an internal error before)
    (np.arange(4.0), 1.0, 3.0),
    (np.arange(4, dtype=np.float32), 1.0, float("nan")),
], ids=repr)
def test_clip_with_a_nan_bound_in_a_function_that_stores(args):
    assert_compiles_same(clip_into, *args)


def store_all(a, v):
    a[...] = v
    return a


@pytest.mark.parametrize("args", [
    (np.zeros(3), 1.5),
    (np.zeros(3, np.int8), 300),            # OverflowError, as NumPy
    (np.zeros((2, 2), np.int8), 3),
    (np.zeros(3), np.arange(3.0)),
], ids=repr)
def test_ellipsis_stores_compile(args):
    # `a[...] = v` fell back ("ellipsis cannot be used as a value")
    assert_compiles_same(store_all, *args)


# -- N-d boolean masks (issue 20: Numba indexes with 1-D masks only) ------------------------

def square_masked(z, n):
    for _ in range(n):
        mask = z > 0.5
        z[mask] = z[mask] ** 2
    return z


def fill_masked(z, v):
    for _ in range(2):
        z[z > 0.5] = v
    return z


def read_masked(z):
    out = z[z > 0.5]
    for i in range(out.shape[0]):
        out[i] += 1.0
    return out


GRID = np.linspace(0, 1, 12).reshape(3, 4)


@pytest.mark.parametrize("fn,args", [
    (square_masked, (GRID.copy(), 2)),
    (fill_masked, (GRID.copy(), 7.0)),
    (fill_masked, (np.arange(12).reshape(3, 4), 300)),
    (fill_masked, (np.arange(12, dtype=np.int8).reshape(3, 4), 300)),    # OverflowError
    (fill_masked, (np.arange(12, dtype=np.int8).reshape(3, 4), np.int64(300))),  # wraps
    (read_masked, (GRID.copy(),)),
    (read_masked, (GRID[:, ::2].copy(),)),
    (read_masked, (GRID[:, ::2],)),                     # a strided view
    (read_masked, (np.linspace(0, 1, 24).reshape(2, 3, 4),)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v)[:40])
def test_nd_boolean_masks_compile(fn, args):
    assert_compiles_same(fn, *args)


def store_masked_items(z, v):
    for _ in range(1):
        z[z > 0.5] = v
    return z


@pytest.mark.parametrize("v", [np.arange(5.0), np.arange(6.0), np.arange(1.0)], ids=repr)
def test_nd_mask_store_of_an_array(v):
    # 5 selected elements: 6 raises ValueError as NumPy, 1 broadcasts
    assert_compiles_same(store_masked_items, GRID.copy(), v)


def add_masked(z, v):
    for _ in range(2):
        mask = z > 2
        z[mask] += v
    return z


def ops_masked(z, m, v):
    for _ in range(1):
        z[m] -= v
        z[m] *= v
    return z


def or_masked(z, m, v):
    for _ in range(1):
        z[m] |= v
    return z


_MASK = (np.arange(12).reshape(3, 4) % 3) == 0


# `make test-stores` runs every dtype x operand (GRAPHJIT_STORES_FULL=1); `make test` a sample
STORES_FULL = os.environ.get("GRAPHJIT_STORES_FULL") == "1"
_MASK_DTYPES = ["float64", "float32", "int64", "int8", "uint8", "int32", "complex128", "uint64"]
_MASK_OPERANDS = [1, 300, 2.5, -1, np.float32(0.1), np.int8(-3), np.uint16(7), True, 1j,
                  np.arange(4.0)]
if not STORES_FULL:
    _MASK_DTYPES = ["float32", "int8", "uint64", "complex128"]
    _MASK_OPERANDS = [300, 2.5, np.float32(0.1), np.uint16(7), np.arange(4.0)]


@pytest.mark.parametrize("dtype", _MASK_DTYPES)
@pytest.mark.parametrize("v", _MASK_OPERANDS, ids=repr)
def test_nd_mask_in_place_updates_equal_plain(dtype, v):
    """``z[mask] op= v`` with a 2-D mask: Python's getitem (a 1-D copy), the in-place ufunc by
    NumPy's casting rules, setitem; compiled where NumPy's result casts into the array
    ('same_kind'), else it falls back (the plain call raises UFuncTypeError)."""
    z = (np.arange(12).reshape(3, 4) % 7).astype(dtype)
    for fn, args in [(add_masked, (z, v)), (ops_masked, (z, _MASK, v))]:
        plain_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = outcome(fn, plain_args)
            jitted = tp.jit(fn)
            got = outcome(jitted, [a.copy() if isinstance(a, np.ndarray) else a for a in args])
        assert_same_outcome(*want, *got)
        compiles = np.result_type(z.dtype, v) == z.dtype and not isinstance(v, np.ndarray)
        if compiles and np.dtype(dtype).kind != "c" and not (
                type(v) is int and np.dtype(dtype).kind in "iu"):
            assert "python" not in str(jitted.explain()), (fn.__name__, jitted.explain())


@pytest.mark.parametrize("args", [
    (np.zeros((3, 4), bool), _MASK, True),
    (np.arange(12).reshape(3, 4), _MASK, np.int64(6)),
    (np.arange(12).reshape(3, 4), _MASK.T, 6),                     # IndexError: mask shape
    (np.arange(12.0).reshape(3, 4), _MASK, np.arange(4.0)),       # 4 selected: elementwise
], ids=lambda a: repr(a)[:40])
def test_nd_mask_in_place_update_compiles(args):
    fn = or_masked if args[0].dtype == bool else ops_masked
    assert_compiles_same(fn, *args)


# -- np.roll along an axis in Numba code (issue 20: Numba's np.roll takes no axis) ----------

def roll_in_loop(a, k, axis, times):
    out = a
    for _ in range(times):
        out = np.roll(out, k, axis)
    return out


def roll_keyword(a, k, ax):
    out = a
    for _ in range(1):
        out = np.roll(out, k, axis=ax)
    return out


_ROLLED = [np.arange(5.0), np.arange(12).reshape(3, 4), np.arange(24, dtype=np.int8).reshape(
    2, 3, 4), np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1), np.arange(20.0).reshape(
    4, 5)[::2, ::-1], np.zeros((3, 0, 2)), np.array([True, False, True])]


@pytest.mark.parametrize("a", _ROLLED, ids=lambda a: f"{a.dtype}{a.shape}")
def test_roll_along_an_axis_equals_numpy(a):
    jitted = tp.jit(roll_in_loop)
    for k in (0, 1, -1, 3, -7, 10**12, np.int8(-2), True):
        for axis in range(-a.ndim - 1, a.ndim + 1):       # out of range: AxisError
            want, got = outcome(roll_in_loop, (a, k, axis, 2)), outcome(jitted, (a, k, axis, 2))
            assert_same_outcome(*want, *got)
    assert "python" not in str(jitted.explain())
    assert_compiles_same(roll_keyword, a, 2, -1)


def xor_through_own_view(z):
    for _ in range(1):
        m = z[:, ::-1]
        z[m] ^= True
    return z


def xor_through_copied_mask(z):
    for _ in range(1):
        m = z[:, ::-1].copy()
        z[m] ^= True
    return z


def store_through_own_view(z, v):
    for _ in range(1):
        m = z[::-1, :]
        z[m] = v
    return z


@pytest.mark.parametrize("z", [np.array([[True, True]]), np.array([[True, False, False, False],
                                                                   [False, False, True, True]]),
                               np.eye(3, dtype=bool)], ids=repr)
def test_nd_mask_that_is_a_view_of_the_array(z):
    """Found by review: a mask sharing memory with the array it stores into was read while
    the store changed it (NumPy finds the positions first). ``z[m] ^= True`` itself is not
    a fixed answer in NumPy: its store reads the mask as the read wrote it, and stored bytes
    such as 0x26 and 0xd1 into the bool array, 0x00 in some runs of `make test` (measured);
    the compiled code gives the answer of the mask copied first, compared with that."""
    got = tp.jit(xor_through_own_view, fullgraph=True)(z.copy())
    want = xor_through_copied_mask(z.copy())
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    assert_compiles_same(store_through_own_view, z, False)
    assert_compiles_same(store_through_own_view, z, np.array([False]))


def add_where_positive(z, v):
    for _ in range(2):
        z[z > 0] += v
    return z


@pytest.mark.parametrize("v", [1.5, np.float32(2.0), np.arange(2.0)], ids=repr)
def test_nd_mask_expression_in_place(v):
    """``z[z > 0] += v``: the mask is computed once, before the update (was a fallback)."""
    assert_compiles_same(add_where_positive, np.arange(-3.0, 3.0).reshape(2, 3), v)


def roll_reshaped(a, t):
    s = 0.0
    for i in range(2):
        s += a[i]
    return np.roll(a.reshape(2, -1), *t), s


@pytest.mark.parametrize("t", [(1, 1), (-2, 0), (3, -1)], ids=repr)
def test_roll_of_a_reshape_with_star_arguments(t):
    """Found trying the README as a new user: a.reshape(2, -1) was not typed as a 2-D array
    (its result typed now: a's dtype, one dimension per size), so np.roll of it fell back."""
    assert_compiles_same(roll_reshaped, np.arange(6.0), t)
