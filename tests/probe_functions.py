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


def tuple_less(a, b):
    return (a, 1) < (b, 2)


def tuple_order_test(a, b):
    if (a, 1) <= (b, 0):
        return 1
    return 2


def tuple_equal(a, b):
    return (a, 1) == (b, 1)


def same_nan_tuple_less(x):
    return (x, 1) < (x, 2)


def nested_tuple(x):
    return ((x, 1), (2.0, (x,)))


def nested_tuple_by_path(x, flag):
    y = x if flag else 1.0
    return (1, (y, 2))


def real_part(x):
    return x.real


def imag_part(x):
    return x.imag


def real_plus_imag(x):
    return x.real + x.imag


def same_item_equal(x):
    return (x, 1) == (x, 1)


def same_item_in(x):
    return x in (x, 1.0)


def same_item_list_equal(x):
    return [x, 2.0] == [x, 2.0]


def same_item_not_in(x, y):
    return x not in (y, x)


def to_int64(a):
    return np.int64(a)


def to_int32(a):
    return np.int32(a)


def to_uint64(a):
    return np.uint64(a)


def to_int8(a):
    return np.int8(a)


def store_first(a, v):
    a[0] = v
    return a


def halve_all(a):
    for i in range(len(a)):
        a[i] = a[i] / 2
    return a


def round_two(x):
    return np.round(x, 2)


def round_none(x):
    return np.round(x)


def round_minus_one(x):
    return np.round(x, -1)


def same_type_three(x):
    return type(x)(3)


def same_type_of(x, v):
    return type(x)(v)


def dict_of_powers(n):
    d = {}
    for i in range(n):
        d[i] = 3 ** i
    return d[n - 1]


def dict_big_key(n):
    d = {}
    d[2 ** n] = 1
    return len(d)


def set_of_power(n):
    s = set()
    s.add(3 ** n)
    return len(s)


def dict_values_numpy(x):
    d = {"a": np.float64(1.5), "b": np.float64(x)}
    return d["a"], d["b"]


def dict_built(n):
    d = {}
    for i in range(n):
        d[i] = i * 2
    return d


def dict_holds_callers_array(a, n):
    d = {"x": a}
    d["x"][0] += 1.0
    return 3 ** n


class Affine:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        return x * self.k + 1.0


AFFINE_NUMPY = Affine(np.float64(2.0))
AFFINE_PYTHON = Affine(2.0)


def numpy_method(x):
    return AFFINE_NUMPY.apply(x)


def python_method(x):
    return AFFINE_PYTHON.apply(x)


def dict_item_iadd(arr):
    d = {0: arr}
    v = d[0]
    v += 1
    return 0


def dict_values_iadd(arr):
    d = {0: arr}
    for v in d.values():
        v += 1
    return 0


def literal_dict(x):
    return {"a": x, "b": 2}


def literal_dict_in_tuple(x):
    d = {"a": x, "b": x * 2}
    return (d, 1)


def set_of_two(x):
    return {x, x + 1.0}


def zip_pair(x, y):
    for a, b in zip((x,), (y,)):
        return a, b


class Counted:
    reads = 0

    @property
    def k(self):
        Counted.reads += 1
        return 2.0

    def helper(self, x):
        return x * self.k


COUNTED = Counted()


def counted_method(x):
    return COUNTED.helper(x)


def held_tuple_in(x):
    t = (x, 2.0)
    return 1 if x in t else 0


def held_tuples_equal(x):
    t = (x,)
    u = (x,)
    return 1 if t == u else 0


def held_tuple_le_itself(x):
    t = (x, 1.0)
    return 1 if t <= t else 0


def held_tuple_items_in(x):
    t = (x, 2.0, 3.0)
    for i in range(3):
        if t[i] in t:
            return i
    return -1


def round_in_loop(a, digits):
    s = 0.0
    for i in range(a.shape[0]):
        s += np.round(a[i], digits)
    return s


def round_two_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += np.round(a[i], 2)
    return s


def scaled_by_default(x, k=np.float64(2.0)):
    return x * k


def scaled_by_float32_default(x, k=np.float32(0.1)):
    return x * k


def nan_default(x, k=np.float64("nan")):
    return x + k


def big_uint_default(x, k=np.uint64(2 ** 64 - 1)):
    return k - x


def calls_numpy_defaults(x):
    return scaled_by_default(x), scaled_by_float32_default(x), nan_default(x)


def calls_uint_default(x):
    return big_uint_default(x)


def static_loop_in_branch(x, n):
    """A loop over a static tuple that runs only where n is true: f is 2.0 or still 1.0."""
    f = 1.0
    if n:
        for f in (2.0,):
            pass
    return f * x


def static_loop_in_loop(x, n):
    f = 1.0
    for _ in range(n):
        for f in (2.0, 3.0):
            pass
    return f * x


def static_loop_held_function(x, n):
    f = np.sin
    if n:
        for f in (np.cos,):
            pass
    return f(x)
