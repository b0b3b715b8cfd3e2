"""Functions of tests/test_probe_findings.py (graphjit reads a function's source from its file)."""
import numpy as np


def int_div(a, b):
    return a / b


def int_tenth(a):
    return a / 10


def int_div_in_loop(values, d):
    total = 0.0
    for v in values:
        total += v / d
    return total


def int_div_into(out, a, b):
    out[0] = a / b
    return out
