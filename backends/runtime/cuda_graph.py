"""A Cell network on the GPU: its array code run on device-resident tensors.

The network's generated functions run in Python with :class:`Tensor` arguments; each NumPy
operation they make (``np.dot``, ``@``, ``+``, ``np.maximum``, ``reshape``, ``.T``) goes through
NumPy's dispatch protocols (``__array_function__``, ``__array_ufunc__``, NEP 18/NEP 13) to a
kernel launch here. A matrix product is not launched at once: it stays *pending* while a bias
add and a ReLU follow it, which are fused into its epilogue, so ``relu(x @ W.T + b)`` is one
launch (:func:`matmul_kernel`, tiled in shared memory). Everything stays on the device; the
:class:`Graph` copies the inputs in once and the result back once.

What has no kernel here (other dtypes than float32/float64, mixed dtypes, broadcasting beyond a
row vector, other functions) raises :class:`GraphUnsupported`; the caller then runs the CPU
version of the whole function (nothing on the host has changed).
"""
import numpy as np
from numba import cuda, float32, float64

from .cuda_config import SIMULATOR, launch_config

TILE = 4 if SIMULATOR else 16   # matmul tile edge: TILE x TILE threads per block
_FLOATS = {np.dtype(np.float32): float32, np.dtype(np.float64): float64}


class GraphUnsupported(Exception):
    """An operation with no GPU kernel here; the function runs on the CPU instead."""


def _make_matmul(tile, element):
    """The tiled matmul kernel for one element type: shared-memory tiles are typed and sized
    at compile time, so each (tile, dtype) is its own kernel."""

    @cuda.jit
    def matmul_kernel(a, b, bias, out, transb, has_bias, relu):
        """out = a @ (b.T if transb else b) (+ bias) (ReLU): one TILE x TILE block per output
        tile, grid-stride over the tiles; K walked one tile at a time through shared memory."""
        sa = cuda.shared.array((tile, tile), element)
        sb = cuda.shared.array((tile, tile), element)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        m = out.shape[0]
        n = out.shape[1]
        k_total = a.shape[1]
        tiles_m = (m + tile - 1) // tile
        tiles_n = (n + tile - 1) // tile
        tiles_k = (k_total + tile - 1) // tile
        for tm in range(cuda.blockIdx.y, tiles_m, cuda.gridDim.y):
            for tn in range(cuda.blockIdx.x, tiles_n, cuda.gridDim.x):
                row = tm * tile + ty
                col = tn * tile + tx
                acc = element(0)
                for t in range(tiles_k):
                    ka = t * tile + tx
                    if row < m and ka < k_total:
                        sa[ty, tx] = a[row, ka]
                    else:
                        sa[ty, tx] = 0
                    kb = t * tile + ty
                    if col < n and kb < k_total:
                        if transb:
                            sb[ty, tx] = b[col, kb]
                        else:
                            sb[ty, tx] = b[kb, col]
                    else:
                        sb[ty, tx] = 0
                    cuda.syncthreads()
                    for j in range(tile):
                        acc += sa[ty, j] * sb[j, tx]
                    cuda.syncthreads()
                if row < m and col < n:
                    if has_bias:
                        acc += bias[col]
                    if relu and acc < 0:
                        acc = element(0)
                    out[row, col] = acc

    return matmul_kernel


@cuda.jit
def elementwise_kernel(op, a, b, mode, out):
    """out.flat[k] = op(a.flat[k], b.flat[...]) over flattened arrays, grid-stride.

    ``mode``: 0 same shape, 1 ``b`` a row vector over the last axis, 2 ``b`` a scalar (one
    element). ``op``: 0 +, 1 -, 2 reversed -, 3 *, 4 np.maximum, 5 np.minimum, 6 /,
    7 reversed /."""
    n = out.shape[0]
    width = b.shape[0]
    for k in range(cuda.grid(1), n, cuda.gridsize(1)):
        x = a[k]
        if mode == 0:
            y = b[k]
        elif mode == 1:
            y = b[k % width]
        else:
            y = b[0]
        if op == 0:
            r = x + y
        elif op == 1:
            r = x - y
        elif op == 2:
            r = y - x
        elif op == 3:
            r = x * y
        elif op == 4:
            r = x if (x != x or x >= y) and y == y else y
        elif op == 5:
            r = x if (x != x or x <= y) and y == y else y
        elif op == 6:
            r = x / y
        else:
            r = y / x
        out[k] = r


_MATMUL = {}
_OPS = {"add": 0, "sub": 1, "rsub": 2, "mul": 3, "maximum": 4, "minimum": 5, "div": 6,
        "rdiv": 7}
_COMMUTE = {"add": "add", "mul": "mul", "maximum": "maximum", "minimum": "minimum",
            "sub": "rsub", "div": "rdiv"}


def _matmul_for(dtype):
    element = _FLOATS.get(np.dtype(dtype))
    if element is None:
        raise GraphUnsupported(f"no matmul kernel for {dtype}")
    kernel = _MATMUL.get((TILE, element))
    if kernel is None:
        kernel = _MATMUL[(TILE, element)] = _make_matmul(TILE, element)
    return kernel


class Graph:
    """The device-side state of one call: inputs copied in, kernels launched, result out.

    Args:
        compile_only (bool): compile each kernel to PTX (``cuda_config.COMPILED``) instead of
            launching;
            the values are then computed with NumPy so the code can go on.
    """

    def __init__(self, compile_only=False):
        self.compile_only = compile_only
        self.launches = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def tensor(self, host):
        """Copy a host array to the device (once)."""
        if self.compile_only:
            return Tensor(self, np.ascontiguousarray(host))
        return Tensor(self, cuda.to_device(np.ascontiguousarray(host)))

    def to_host(self, value):
        if isinstance(value, Tensor):
            value = value.materialize()
            if value.transposed:
                raise GraphUnsupported("a transposed result")
            return value.array if self.compile_only else value.array.copy_to_host()
        if isinstance(value, tuple):
            return tuple(self.to_host(v) for v in value)
        raise GraphUnsupported(f"a {type(value).__name__} result")

    def empty(self, shape, dtype):
        if self.compile_only:
            return np.empty(shape, dtype)
        return cuda.device_array(shape, dtype)

    def _compile(self, kernel, args):
        from .cuda_config import compile_to_ptx
        compile_to_ptx(kernel, args)

    def matmul(self, a, b, transb, bias, relu):
        m, k = a.shape
        n = b.shape[0] if transb else b.shape[1]
        out = self.empty((m, n), a.dtype)
        kernel = _matmul_for(a.dtype)
        bias_array = bias.array if bias is not None else self.empty(1, a.dtype)
        args = (a.array, b.array, bias_array, out, transb, bias is not None, relu)
        self.launches += 1
        if self.compile_only:
            self._compile(kernel, args)
            bb = b.array.T if transb else b.array
            value = a.array @ bb + (bias.array if bias is not None else 0)
            out[...] = np.maximum(value, 0) if relu else value
            return out
        tiles = (min(-(-n // TILE), 65535), min(-(-m // TILE), 65535))
        kernel[tiles, (TILE, TILE)](*args)
        return out

    def elementwise(self, op, a, b, mode, dtype):
        n = a.size
        out = self.empty(n, dtype)
        flat_a = a.array.reshape(n)
        flat_b = b.reshape(b.size)
        self.launches += 1
        if self.compile_only:
            self._compile(elementwise_kernel, (_OPS[op], flat_a, flat_b, mode, out))
            x, y = flat_a, (flat_b if mode == 0 else (np.tile(flat_b, n // flat_b.size)))
            out[...] = _numpy_op(op, x, y)
        else:
            blocks, threads = launch_config(n)
            elementwise_kernel[blocks, threads](_OPS[op], flat_a, flat_b, mode, out)
        return Tensor(self, out.reshape(a.shape))


def _numpy_op(op, x, y):
    return {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum,
            "minimum": np.minimum, "div": np.divide}.get(op, None)(x, y) if op[0] != "r" else \
        {"rsub": np.subtract, "rdiv": np.divide}[op](y, x)


class Tensor:
    """A device array, or a pending matmul (with its fused bias and ReLU), in a Graph."""

    __array_priority__ = 1000

    def __init__(self, graph, array=None, pending=None, shape=None, dtype=None,
                 transposed=False):
        self.graph = graph
        self.array = array
        self.pending = pending      # (a, b, transb, bias, relu) until materialized
        self.transposed = transposed
        if array is not None:
            shape, dtype = array.shape, array.dtype
            if transposed:
                shape = shape[::-1]
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape)))

    @property
    def T(self):
        value = self.materialize()
        if value.ndim != 2 or value.transposed:
            raise GraphUnsupported("transpose of a non-2-D or transposed tensor")
        return Tensor(self.graph, value.array, transposed=True)

    def materialize(self):
        if self.pending is None:
            return self
        a, b, transb, bias, relu = self.pending
        self.array = self.graph.matmul(a, b, transb, bias, relu)
        self.pending = None
        return self

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        value = self._plain()
        shape = [int(s) for s in shape]
        if shape.count(-1) == 1:
            known = int(np.prod([s for s in shape if s != -1]))
            if known == 0 or value.size % known:
                raise GraphUnsupported("a reshape NumPy would refuse")
            shape[shape.index(-1)] = value.size // known
        if int(np.prod(shape)) != value.size:
            raise GraphUnsupported("a reshape NumPy would refuse")
        return Tensor(self.graph, value.array.reshape(tuple(shape)))

    def _plain(self):
        value = self.materialize()
        if value.transposed:
            raise GraphUnsupported("a transposed tensor used other than in a matmul")
        return value

    # -- operators ------------------------------------------------------------------------

    def __matmul__(self, other):
        return _matmul(self, other)

    def __rmatmul__(self, other):
        return _matmul(other, self)

    def __add__(self, other):
        return _binary("add", self, other)

    def __radd__(self, other):
        return _binary("add", other, self)

    def __sub__(self, other):
        return _binary("sub", self, other)

    def __rsub__(self, other):
        return _binary("sub", other, self)

    def __mul__(self, other):
        return _binary("mul", self, other)

    def __rmul__(self, other):
        return _binary("mul", other, self)

    def __truediv__(self, other):
        return _binary("div", self, other)

    def __rtruediv__(self, other):
        return _binary("div", other, self)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        names = {np.add: "add", np.subtract: "sub", np.multiply: "mul",
                 np.maximum: "maximum", np.minimum: "minimum", np.true_divide: "div"}
        if method != "__call__" or kwargs or len(inputs) != 2:
            raise GraphUnsupported(f"np.{ufunc.__name__}.{method}")
        if ufunc is np.matmul:
            return _matmul(*inputs)
        if ufunc not in names:
            raise GraphUnsupported(f"np.{ufunc.__name__}")
        return _binary(names[ufunc], *inputs)

    def __array_function__(self, func, types, args, kwargs):
        if func in (np.dot, np.matmul) and len(args) == 2 and not kwargs:
            return _matmul(*args)
        raise GraphUnsupported(f"np.{func.__name__}")

    def __bool__(self):
        raise GraphUnsupported("the truth value of a tensor")


def _matmul(a, b):
    if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
        raise GraphUnsupported("a matmul with a non-tensor operand")
    a = a._plain()
    b = b.materialize()
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise GraphUnsupported(f"a matmul of shapes {a.shape} and {b.shape}")
    if a.dtype != b.dtype:
        raise GraphUnsupported(f"a matmul of {a.dtype} and {b.dtype}")
    _matmul_for(a.dtype)
    base = Tensor(b.graph, b.array) if b.transposed else b
    return Tensor(a.graph, pending=(a, base, b.transposed, None, False),
                  shape=(a.shape[0], b.shape[1]), dtype=a.dtype)


def _is_zero_scalar(value, dtype):
    return (isinstance(value, (np.generic, int, float)) and not isinstance(value, bool)
            and value == 0 and np.result_type(dtype, value) == dtype)


def _binary(op, x, y):
    tensor = x if isinstance(x, Tensor) else y
    graph = tensor.graph
    # Fusion into a pending matmul: + bias (a row vector), then np.maximum(., 0).
    pend = next((t for t in (x, y) if isinstance(t, Tensor) and t.pending is not None), None)
    if pend is not None and op in ("add", "maximum"):
        other = y if pend is x else x
        a, b, transb, bias, relu = pend.pending
        if op == "add" and isinstance(other, Tensor) and other.pending is None and \
                not other.transposed and bias is None and not relu and \
                other.shape == (pend.shape[1],) and other.dtype == pend.dtype:
            return Tensor(graph, pending=(a, b, transb, other, False), shape=pend.shape,
                          dtype=pend.dtype)
        if op == "maximum" and not relu and _is_zero_scalar(other, pend.dtype):
            return Tensor(graph, pending=(a, b, transb, bias, True), shape=pend.shape,
                          dtype=pend.dtype)
    if isinstance(x, Tensor) and isinstance(y, Tensor) and op in _COMMUTE and \
            _COMMUTE[op] == op and x.ndim < y.ndim:
        x, y = y, x     # row vector + matrix: the matrix first
    if not isinstance(x, Tensor):
        op, x, y = _COMMUTE.get(op, op), y, x
        if op in ("rsub", "rdiv") and not isinstance(x, Tensor):
            raise GraphUnsupported(f"an operation {op} without a tensor")
    a = x._plain()
    if isinstance(y, Tensor):
        b = y._plain()
        dtype = np.result_type(a.dtype, b.dtype)
        if a.dtype != b.dtype:
            raise GraphUnsupported(f"{op} of {a.dtype} and {b.dtype}")
        if b.shape == a.shape:
            mode = 0
        elif b.ndim == 1 and a.ndim >= 1 and b.shape[0] == a.shape[-1]:
            mode = 1
        else:
            raise GraphUnsupported(f"{op} broadcasting {a.shape} with {b.shape}")
        operand = b.array
    elif isinstance(y, (np.generic, int, float)) and not isinstance(y, (bool, np.bool_)):
        dtype = np.result_type(a.dtype, y)
        if dtype != a.dtype:
            raise GraphUnsupported(f"{op} promoting {a.dtype} to {dtype}")
        operand = np.asarray([y], dtype=dtype)
        if not graph.compile_only:
            operand = cuda.to_device(operand)
        mode = 2
    else:
        raise GraphUnsupported(f"{op} with a {type(y).__name__}")
    if dtype not in _FLOATS:
        raise GraphUnsupported(f"{op} of {dtype}")
    return graph.elementwise(op, a, operand, mode, dtype)
