"""What generated gradient code calls: the adjoints that are more than one NumPy expression.

Plain Python over NumPy, imported by the modules that :mod:`transpiler.autodiff.adjoint`
writes. Each function takes the incoming gradient ``g`` (the adjoint of an operation's result,
of the result's shape and dtype) and the operation's operands, and returns the contribution to
one operand, of that operand's shape. Rules follow the usual reverse-mode definitions (JAX's
``jax/_src/lax`` and Tangent's ``tangent/grads.py``); where the derivative has a choice at a
tie, the docstring says which one is made.
"""
import numpy as np

_BASIC = (int, np.integer, slice, type(None), type(Ellipsis))


def seed(y, where):
    """The adjoint of the differentiated function's result: one, of ``y``'s type.

    Raises:
        TypeError: ``y`` is not a real floating scalar (a Python float, a NumPy floating
            scalar or a 0-d floating array): gradients are of scalar functions, as in JAX;
            ``where`` (``file:line`` of the ``return``) is named in the message.
    """
    if isinstance(y, float) and not isinstance(y, np.floating):
        return 1.0
    dtype = getattr(y, "dtype", None)
    if dtype is None or np.ndim(y) != 0 or dtype.kind != "f":
        kind = (f"an array of shape {np.shape(y)}" if np.ndim(y)
                else f"a {type(y).__name__}" if dtype is None or dtype.kind != "f"
                else type(y).__name__)
        raise TypeError(f"{where}: grad needs a function whose result is a real floating "
                        f"scalar, this one returns {kind} (sum it, or take value_and_grad "
                        "of a scalar loss)")
    return np.ones_like(y) if isinstance(y, np.ndarray) else dtype.type(1)


def unbroadcast(g, like):
    """``g`` summed over the axes along which ``like`` was broadcast to ``g``'s shape
    (NumPy's broadcasting rules, read backwards): the adjoint of the broadcast itself."""
    shape = np.shape(like)
    gshape = np.shape(g)
    if gshape == shape:
        return g
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape)
                                      if n == 1 and gshape[lead + i] != 1)
    total = np.sum(g, axis=axes) if axes else g
    return np.reshape(total, shape) if shape else total


def sum_grad(g, x, axis=None, keepdims=False):
    """Adjoint of ``np.sum(x, axis, keepdims)``: ``g`` spread back over the summed axes."""
    if axis is not None and not keepdims:
        g = np.expand_dims(g, axis)
    return np.broadcast_to(g, np.shape(x))


def mean_grad(g, x, axis=None, keepdims=False):
    """Adjoint of ``np.mean``: ``sum_grad`` divided by the number of elements averaged."""
    shape = np.shape(x)
    if axis is None:
        count = int(np.prod(shape))
    else:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        count = int(np.prod([shape[a] for a in axes]))
    return sum_grad(g / count, x, axis, keepdims)


def extremum_grad(g, x, y, axis=None, keepdims=False):
    """Adjoint of ``max``/``min`` (reductions): the gradient goes to the elements equal to
    the result; ties share it evenly (as ``jax.numpy.max`` does)."""
    if axis is not None and not keepdims:
        y = np.expand_dims(y, axis)
        g = np.expand_dims(g, axis)
    hit = x == y
    count = np.sum(hit, axis=axis, keepdims=True)
    return np.where(hit, g, 0) / count


def var_grad(g, x, axis=None, keepdims=False, ddof=0):
    """Adjoint of ``np.var(x, axis, ddof=ddof)``: ``2 (x - mean) / (n - ddof)`` times ``g``."""
    shape = np.shape(x)
    axes = tuple(range(len(shape))) if axis is None else \
        ((axis,) if isinstance(axis, int) else tuple(axis))
    count = int(np.prod([shape[a] for a in axes])) - ddof
    centred = x - np.mean(x, axis=axis, keepdims=True)
    if axis is not None and not keepdims:
        g = np.expand_dims(g, axis)
    return g * centred * (2.0 / count) if not np.ndim(g) else centred * (g * (2.0 / count))


def matmul_grad(g, a, b, which):
    """Adjoint of ``a @ b`` (``np.matmul``; ``np.dot`` of arrays of at most 2 dimensions)
    with respect to operand ``which`` (0: a, 1: b); 1-D operands are promoted and the
    promoted axis removed again, batch axes are summed where an operand was broadcast."""
    a2 = a[np.newaxis, :] if np.ndim(a) == 1 else a
    b2 = b[:, np.newaxis] if np.ndim(b) == 1 else b
    g2 = g
    if np.ndim(a) == 1 and np.ndim(b) == 1:
        return g * (b if which == 0 else a)
    if np.ndim(a) == 1:
        g2 = np.expand_dims(g, -2)
    if np.ndim(b) == 1:
        g2 = np.expand_dims(g2, -1)
    if which == 0:
        out = g2 @ np.swapaxes(b2, -1, -2)
        if np.ndim(a) == 1:
            out = out[..., 0, :]
        return unbroadcast(out, a)
    out = np.swapaxes(a2, -1, -2) @ g2
    if np.ndim(b) == 1:
        out = out[..., 0]
    return unbroadcast(out, b)


def dot_grad(g, a, b, which):
    """Adjoint of ``np.dot(a, b)``: as ``matmul_grad`` for operands of at most 2 dimensions
    (a scalar operand is a product).

    Raises:
        NotImplementedError: an operand has more than 2 dimensions (``np.dot`` then sums
            over another axis than ``matmul``; not differentiated yet).
    """
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(g * (b if which == 0 else a), a if which == 0 else b)
    if np.ndim(a) > 2 or np.ndim(b) > 2:
        raise NotImplementedError("the gradient of np.dot of arrays of more than 2 "
                                  "dimensions is not implemented: use np.matmul or @")
    return matmul_grad(g, a, b, which)


def product_grad_t(g, a, b, which):
    """The transpose of ``matmul_grad(g, a, b, which)`` (the gradient of ``w`` where the
    operand was ``w.T``), computed as one product where both operands are 2-D: ``g.T @ a``
    or ``b @ g.T``, a contiguous result; else the transpose of ``matmul_grad``."""
    if np.ndim(a) == 2 and np.ndim(b) == 2 and np.ndim(g) == 2:
        return g.T @ a if which == 1 else b @ g.T
    return np.transpose(matmul_grad(g, a, b, which))


def index_grad(g, x, index):
    """Adjoint of ``x[index]``: ``g`` scattered into zeros of ``x``'s shape; repeated
    indices (fancy indexing) add up, as ``np.add.at`` does."""
    out = np.zeros(np.shape(x), dtype=np.result_type(g))
    parts = index if isinstance(index, tuple) else (index,)
    if all(isinstance(p, _BASIC) for p in parts):
        out[index] = g
    else:
        np.add.at(out, index, g)
    return out


def scatter_add(g, index, contribution):
    """``g[index] += contribution`` in place, where repeated indices (fancy indexing) add up
    as ``np.add.at`` does; ``g`` is an array the gradient code alone holds."""
    parts = index if isinstance(index, tuple) else (index,)
    if all(isinstance(p, _BASIC) for p in parts):
        g[index] += contribution
    else:
        np.add.at(g, index, contribution)


def owned(g):
    """``g`` as an array of its own (a copy), or the number it is: the gradient code then
    updates it in place."""
    return np.array(g) if isinstance(g, np.ndarray) else g


def check_store_index(x, index, where):
    """Refuse a store whose index array names an element twice: NumPy keeps the last write
    (and ``a[idx] += v`` adds once), which the adjoint of a store does not follow.

    Raises:
        UnsupportedConstruct: at ``where`` (the user's line), for repeated indices.
    """
    parts = index if isinstance(index, tuple) else (index,)
    if all(isinstance(p, _BASIC) or (isinstance(p, np.ndarray) and p.dtype == np.bool_)
           for p in parts):
        return
    count = np.zeros(np.shape(x), np.intp)
    np.add.at(count, index, 1)
    if count.max(initial=0) > 1:
        from ..errors import UnsupportedConstruct
        raise UnsupportedConstruct(
            f"{where}: a store at an index array that names an element twice: NumPy keeps the "
            "last write, which the gradient does not follow (make the indices unique)")


def saved(x, index):
    """``x[index]`` as it is before a store overwrites it (a copy: the store writes the
    same memory), for the backward sweep to put back."""
    old = x[index]
    return old.copy() if isinstance(old, np.ndarray) else old


def snapshot(value):
    """``value`` with its arrays copied (tuples and lists followed): the aux output of a
    function whose arrays the backward sweep writes back."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, (tuple, list)):
        return type(value)(snapshot(v) for v in value)
    return value


def store(x, index, value):
    """The value of ``x`` after ``x[index] = value``, as a new array (the forward of a store:
    every version of a stored array stays readable for the backward)."""
    out = np.array(x, copy=True)
    out[index] = value
    return out


def stored_grad(g, index):
    """Adjoint of a store with respect to the array stored into: ``g`` with the stored
    elements zeroed (their old values no longer reach the result)."""
    out = np.array(g, copy=True)
    out[index] = 0
    return out


def transpose_grad(g, axes=None):
    """Adjoint of ``np.transpose(x, axes)``: the inverse permutation."""
    if axes is None:
        return np.transpose(g)
    return np.transpose(g, np.argsort(axes))


def safe_div(g, d):
    """``g / d``, zero where ``g`` is zero: a gradient that is zero (the branch
    ``np.where`` did not take) stays zero where the derivative is infinite or NaN, instead
    of making NaN (JAX's "double where" problem)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = g / d
    if np.ndim(out) == 0:
        return out if g != 0 else out * 0
    return np.where(np.asarray(g) == 0, np.zeros((), out.dtype), out)


def safe_mul(g, d):
    """``g * d``, zero where ``g`` is zero (see ``safe_div``)."""
    with np.errstate(invalid="ignore", over="ignore"):
        out = g * d
    if np.ndim(out) == 0:
        return out if g != 0 else out * 0
    return np.where(np.asarray(g) == 0, np.zeros((), out.dtype), out)


def concatenate_grad(g, parts, axis, which):
    """Adjoint of ``np.concatenate(parts, axis)`` with respect to ``parts[which]``."""
    start = sum(np.shape(p)[axis] for p in parts[:which])
    stop = start + np.shape(parts[which])[axis]
    index = [slice(None)] * np.ndim(g)
    index[axis] = slice(start, stop)
    return g[tuple(index)]


def stack_grad(g, axis, which):
    """Adjoint of ``np.stack(parts, axis)`` with respect to ``parts[which]``."""
    return np.take(g, which, axis=axis)


def finish(grads, inputs):
    """The gradients returned to the caller: each in its input's type (``cast_like``), zeros
    for an input the result does not depend on (``None``), and each an array the caller
    owns: a copy only where a gradient is a read-only or shared view, or the same array as
    another gradient (``a + b``: both operands' gradients are one array)."""
    out, seen = [], set()
    for g, x in zip(grads, inputs):
        g = zeros_like(x) if g is None else cast_like(g, x)
        if isinstance(g, np.ndarray):
            root = g if g.base is None else g.base
            if id(root) in seen or not g.flags.writeable or g.base is not None:
                g = g.copy()
            seen.add(id(g if g.base is None else g.base))
        out.append(g)
    return tuple(out)


def sgd_gemm(w, x, y, lr):
    """``w -= lr * (x.T @ y)`` in place, as one BLAS gemm into ``w`` (``beta=1``) where the
    dtypes and layouts allow (float32/float64, ``w`` C-contiguous): the product is never
    written out, nor ``lr`` times it. Else the NumPy expression.

    Shapes: w (m, n), x (k, m), y (k, n)."""
    if w.dtype == x.dtype == y.dtype and w.dtype in (np.float32, np.float64) and \
            w.ndim == x.ndim == y.ndim == 2 and w.flags.c_contiguous and w.flags.writeable:
        from scipy.linalg import blas
        gemm = blas.sgemm if w.dtype == np.float32 else blas.dgemm
        # w.T (n, m) is Fortran-ordered: w.T += -lr * (y.T @ x), op(b) = x
        out = gemm(-lr, y.T, x.T, beta=1.0, c=w.T, trans_b=1, overwrite_c=1)
        if not np.shares_memory(out, w):
            w[...] = out.T
        return
    w -= lr * (x.T @ y)


def cast_like(g, x):
    """The gradient with respect to ``x`` in ``x``'s own type: a Python float for a float, a
    NumPy scalar of ``x``'s dtype, an array of ``x``'s dtype and shape that the caller owns."""
    if isinstance(x, float) and not isinstance(x, np.floating):
        return float(g)
    if isinstance(x, np.ndarray):
        out = np.asarray(g, dtype=x.dtype)
        return out if out.shape == x.shape else np.broadcast_to(out, x.shape)
    return np.asarray(g).astype(x.dtype).reshape(())[()]


def zeros_like(x):
    """The gradient of an input the result does not depend on."""
    if isinstance(x, float) and not isinstance(x, np.floating):
        return 0.0
    return np.zeros_like(x) if isinstance(x, np.ndarray) else np.asarray(x).dtype.type(0)
