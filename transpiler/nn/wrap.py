"""Training wrappers, after MindSpore's ``nn.WithLossCell`` and ``nn.TrainOneStepCell``."""
from .cell import Cell
from .optim import SGD


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``: a network and its loss as one Cell."""

    def __init__(self, backbone, loss_fn):
        super().__init__()
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)


class TrainOneStepCell(Cell):
    """One training step: the loss and its gradients with respect to the optimizer's
    parameters (``transpiler.value_and_grad``; compiled in GRAPH_MODE), then the optimizer's
    in-place update. ``step(data, label)`` returns the loss (before the update).

    Args:
        network: a Cell returning a scalar loss (a ``WithLossCell``).
        optimizer: an ``nn.SGD``/``nn.Momentum``/``nn.Adam`` over ``network``'s parameters.
    """

    def __init__(self, network, optimizer, sens=1.0):
        super().__init__()
        from ..autodiff import value_and_grad
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.sens = sens
        self.grad_fn = value_and_grad(network, None, self.weights)

    def __call__(self, *inputs):
        optimizer = self.optimizer
        if self.sens == 1.0 and type(optimizer) is SGD and \
                not optimizer.momentum and not optimizer.weight_decay:
            # the update fused into the gradient code (GradFunction.sgd_step)
            return self.grad_fn.sgd_step(optimizer.learning_rate, *inputs)
        loss, grads = self.grad_fn(*inputs)
        if self.sens != 1.0:
            grads = tuple(g * self.sens for g in grads)
        self.optimizer(grads)
        return loss

    def construct(self, *inputs):
        return self(*inputs)
