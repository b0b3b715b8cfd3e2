"""Optimizers, after MindSpore's ``nn.SGD``, ``nn.Momentum`` and ``nn.Adam``: called with the
gradients (in the order of ``parameters``), they update the parameter arrays in place, so the
Cells holding them see the new values at their next call (no recompile)."""
import numpy as np


class Optimizer:
    """Base: ``parameters`` (list of arrays) and ``learning_rate`` (float).

    Raises:
        TypeError: a parameter is not a floating ndarray.
        ValueError: a negative learning rate.
    """

    def __init__(self, params, learning_rate):
        self.parameters = list(params)
        for p in self.parameters:
            if not isinstance(p, np.ndarray) or p.dtype.kind != "f":
                raise TypeError("optimizer parameters must be floating arrays "
                                "(net.trainable_params())")
        if learning_rate < 0:
            raise ValueError(f"learning_rate must be >= 0, got {learning_rate}")
        self.learning_rate = float(learning_rate)

    def _check(self, grads):
        grads = tuple(grads)
        if len(grads) != len(self.parameters):
            raise ValueError(f"{len(grads)} gradients for {len(self.parameters)} parameters")
        return grads

    def __call__(self, grads):
        raise NotImplementedError


class SGD(Optimizer):
    """``p -= lr * (g + weight_decay * p)``, with optional momentum (MindSpore's SGD).

    Args:
        params: arrays to update in place. learning_rate (float, default 0.1).
        momentum (float), dampening (float), weight_decay (float), nesterov (bool).
    """

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False):
        super().__init__(params, learning_rate)
        self.momentum, self.dampening = float(momentum), float(dampening)
        self.weight_decay, self.nesterov = float(weight_decay), bool(nesterov)
        self.moments = [np.zeros_like(p) for p in self.parameters] if momentum else None

    def __call__(self, grads):
        for k, (p, g) in enumerate(zip(self.parameters, self._check(grads))):
            if self.weight_decay:
                g = g + self.weight_decay * p
            if self.moments is not None:
                v = self.moments[k]
                v *= self.momentum
                v += (1.0 - self.dampening) * g
                g = g + self.momentum * v if self.nesterov else v
            p -= self.learning_rate * g
        return True


class Momentum(SGD):
    """MindSpore's ``nn.Momentum(params, learning_rate, momentum, weight_decay=0.0,
    use_nesterov=False)``: ``v = momentum * v + g; p -= lr * v``."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, use_nesterov=False):
        super().__init__(params, learning_rate, momentum, 0.0, weight_decay, use_nesterov)
        self.moments = [np.zeros_like(p) for p in self.parameters]


class Adam(Optimizer):
    """Adam (Kingma and Ba), MindSpore's defaults: ``learning_rate=1e-3, beta1=0.9,
    beta2=0.999, eps=1e-8``; ``weight_decay`` adds ``weight_decay * p`` to the gradient."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 weight_decay=0.0):
        super().__init__(params, learning_rate)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.weight_decay = float(weight_decay)
        self.m = [np.zeros_like(p) for p in self.parameters]
        self.v = [np.zeros_like(p) for p in self.parameters]
        self.step = 0

    def __call__(self, grads):
        self.step += 1
        b1, b2 = self.beta1, self.beta2
        scale = self.learning_rate * np.sqrt(1 - b2 ** self.step) / (1 - b1 ** self.step)
        for p, g, m, v in zip(self.parameters, self._check(grads), self.m, self.v):
            if self.weight_decay:
                g = g + self.weight_decay * p
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * (g * g)
            p -= (scale * m / (np.sqrt(v) + self.eps)).astype(p.dtype, copy=False)
        return True
