"""Cells: MindSpore-style model building blocks whose ``construct`` graphjit compiles, the
losses, optimizers and training wrappers that train them."""
from .cell import Cell, SequentialCell
from .layers import Dense, Flatten, ReLU, set_seed
from .loss import CrossEntropyLoss, SoftmaxCrossEntropyWithLogits
from .optim import SGD, Adam, Momentum, Optimizer
from .wrap import TrainOneStepCell, WithLossCell

__all__ = ["Cell", "SequentialCell", "Dense", "Flatten", "ReLU", "set_seed",
           "CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits", "SGD", "Momentum", "Adam",
           "Optimizer", "WithLossCell", "TrainOneStepCell"]
