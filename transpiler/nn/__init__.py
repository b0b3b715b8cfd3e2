"""Cells: MindSpore-style model building blocks whose ``construct`` graphjit compiles."""
from .cell import Cell, SequentialCell
from .layers import Dense, Flatten, ReLU, set_seed

__all__ = ["Cell", "SequentialCell", "Dense", "Flatten", "ReLU", "set_seed"]
