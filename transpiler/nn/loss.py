"""Losses, after MindSpore's ``nn.CrossEntropyLoss`` and ``nn.SoftmaxCrossEntropyWithLogits``.

Each is a Cell whose ``construct`` is plain NumPy (differentiable by the adjoint pass) and whose
``bprop`` (MindSpore's custom backward, read by ``transpiler.autodiff``) is the closed form
``softmax(logits) - onehot(labels)``, what a NumPy backward written by hand computes.
"""
import numpy as np

from .cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


def _log_softmax(logits):
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


class CrossEntropyLoss(Cell):
    """Cross entropy of logits (N, C) and integer class labels (N,).

    Args:
        reduction (str): 'mean' (default, MindSpore's), 'sum' or 'none'.

    Input: logits float array (N, C); labels integer array (N,) with values in [0, C).
    Output: a scalar of the logits' dtype ('none': an array (N,)).

    Raises:
        ValueError: an unknown reduction.
        IndexError: a label outside [0, C) (NumPy's indexing).
    """

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"reduction must be one of {_REDUCTIONS}, got {reduction!r}")
        self.reduction = reduction

    def construct(self, logits, labels):
        logp = _log_softmax(logits)
        picked = -logp[np.arange(logits.shape[0]), labels]
        if self.reduction == "mean":
            return picked.mean()
        if self.reduction == "sum":
            return picked.sum()
        return picked

    def bprop(self, logits, labels, out, dout):
        """d loss / d logits = (softmax(logits) - onehot(labels)) * dout (/ N for 'mean')."""
        shifted = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(shifted)
        # softmax minus one-hot, without a store (the NumPy graph runs expressions only)
        p = e / e.sum(axis=1, keepdims=True) - (labels[:, None] == np.arange(logits.shape[1]))
        if self.reduction == "mean":
            return (p * (dout / logits.shape[0]), np.zeros_like(labels))
        if self.reduction == "sum":
            return (p * dout, np.zeros_like(labels))
        return (p * dout[:, None], np.zeros_like(labels))


class SoftmaxCrossEntropyWithLogits(CrossEntropyLoss):
    """MindSpore's ``SoftmaxCrossEntropyWithLogits(sparse=False, reduction='none')``.

    Args:
        sparse (bool): labels are class indices (N,); False: only sparse labels are supported
            here (one-hot labels: use ``labels.argmax(axis=1)``).
        reduction (str): 'none' (MindSpore's default), 'mean' or 'sum'.

    Raises:
        NotImplementedError: ``sparse=False``.
    """

    def __init__(self, sparse=False, reduction="none"):
        if not sparse:
            raise NotImplementedError("SoftmaxCrossEntropyWithLogits(sparse=False) (one-hot "
                                      "labels) is not implemented: pass sparse=True and "
                                      "class indices")
        super().__init__(reduction)
        self.sparse = True
