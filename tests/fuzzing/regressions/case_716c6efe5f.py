"""graphjit fuzzer regression: int64 overflow.

Found by `python -m tests.fuzzing.run --seed 1` (program 276), shrunk from 20 lines.
plain:    returned 10000000000000000525047602552044202487044685811081591549158541155118024579889081957863713750804478640437044438328838781769425232353604305756447921847867069828483872009265758037378302337947880900593689...
compiled: returned -9223372036854775808
"""
import math
import numpy as np

def f(x1):
    v1 = math.floor(x1)
    return v1


INPUTS = [(1e+300,)]
KIND = 'int64 overflow'
SIGNATURE = 'int64 overflow | math.floor'
