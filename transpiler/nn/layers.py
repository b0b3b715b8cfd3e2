"""The layers of the seed network: ``Dense``, ``ReLU``, ``Flatten`` (MindSpore layouts)."""
import numpy as np

from .cell import Cell

_rng = [np.random.default_rng()]


def set_seed(seed):
    """Seed the generator that initializes new layers' weights (like ``mindspore.set_seed``)."""
    _rng[0] = np.random.default_rng(seed)


def _initial(init, shape, bound, dtype):
    if init is None:
        # MindSpore's defaults: HeUniform(negative_slope=sqrt(5)) for the weight and
        # Uniform(1/sqrt(fan_in)) for the bias; both reduce to U(-bound, bound).
        return _rng[0].uniform(-bound, bound, size=shape).astype(dtype)
    if isinstance(init, str):
        if init == "zeros":
            return np.zeros(shape, dtype)
        if init == "ones":
            return np.ones(shape, dtype)
        if init == "normal":
            return (_rng[0].standard_normal(shape) * 0.01).astype(dtype)
        raise ValueError(f"unknown initializer {init!r}: use 'zeros', 'ones', 'normal' or an "
                         "array")
    array = np.array(init, dtype=dtype)
    if array.shape != shape:
        raise ValueError(f"initial value has shape {array.shape}, expected {shape}")
    return array


class Dense(Cell):
    """Fully connected layer: ``y = activation(x @ weight.T + bias)``.

    Args:
        in_channels (int), out_channels (int): feature sizes.
        weight_init, bias_init: None (MindSpore's default uniform), 'zeros', 'ones', 'normal'
            or an array of shape (out_channels, in_channels) / (out_channels,).
        has_bias (bool): add ``bias``.
        activation (None | str | Cell): ``'relu'`` or a Cell applied to the output.
        dtype: NumPy dtype of the parameters; float32 as in MindSpore.

    Attributes:
        weight (np.ndarray): shape (out_channels, in_channels).
        bias (np.ndarray | None): shape (out_channels,).

    Input: x of shape (batch, in_channels); output (batch, out_channels), x's dtype rules
    (NumPy's).
    """

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=np.float32):
        super().__init__()
        self.in_channels = int(in_channels)
        self.out_channels = int(out_channels)
        bound = 1.0 / np.sqrt(self.in_channels)
        self.weight = _initial(weight_init, (self.out_channels, self.in_channels), bound, dtype)
        self.has_bias = bool(has_bias)
        self.bias = _initial(bias_init, (self.out_channels,), bound, dtype) if has_bias else None
        if isinstance(activation, str):
            activations = {"relu": ReLU}
            if activation.lower() not in activations:
                raise ValueError(f"unknown activation {activation!r}; known: "
                                 f"{sorted(activations)}")
            activation = activations[activation.lower()]()
        elif activation is not None and not isinstance(activation, Cell):
            raise TypeError("activation must be None, a name or a Cell")
        self.activation = activation

    def construct(self, x):
        x = np.dot(x, self.weight.T)
        if self.has_bias:
            x = x + self.bias
        if self.activation is not None:
            x = self.activation(x)
        return x


class ReLU(Cell):
    """``max(x, 0)`` element-wise; keeps x's dtype; NaN stays NaN (``np.maximum``)."""

    def construct(self, x):
        # A zero of x's own dtype: a Python 0 would promote int32 to int64 under Numba.
        return np.maximum(x, x.dtype.type(0))

    def bprop(self, x, out, dout):
        """MindSpore's ReluGrad: the gradient passes where the output is positive (0 at 0)."""
        return (dout * (out > 0),)


class Flatten(Cell):
    """Flattens all dimensions but the first: (N, ...) -> (N, prod(...))."""

    def construct(self, x):
        return x.reshape((x.shape[0], -1))
