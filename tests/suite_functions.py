"""Small plain Python functions for the reference suite (tests/test_reference_suite.py).

Every function here is ordinary Python + NumPy; graphjit reads its source from this file. Each is
run plainly and compiled (eager and numba-cpu backends, fullgraph=True), and the two must agree
on values, dtypes, argument mutation and exception types.

Rules kept throughout (documented gaps handled elsewhere): no int64 overflow, no mixing of
float32/int32 values with Python floats/ints in arithmetic (np.float32(...) constants instead),
no out-of-range indexing, no math-domain errors, no division by zero.
"""
import functools
import operator
from functools import reduce
from operator import mul as mul_from_operator, sub as sub_from_operator
import numpy as np

from transpiler import nn


# ---------------------------------------------------------------------------------------------
# 1. Branches: if/elif/else chains, nested ifs, conditional expressions, short-circuit boolean
#    operators, comparison chains.
# ---------------------------------------------------------------------------------------------

def sign_code(x):
    if x > 0:
        s = 1
    elif x < 0:
        s = -1
    else:
        s = 0
    return s


def grade(score):
    if score >= 90:
        g = 4
    elif score >= 80:
        g = 3
    elif score >= 70:
        g = 2
    elif score >= 60:
        g = 1
    else:
        g = 0
    return g


def nested_ifs(a, b):
    r = 0
    if a > 0:
        if b > 0:
            r = 1
        else:
            if b == 0:
                r = 2
            else:
                r = 3
    else:
        if b > a:
            r = 4
    return r


def clamp_ifexp(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)


def guarded_index(a, i):
    # `and` must short-circuit: a[i] is only read when i is in range.
    if i < a.shape[0] and a[i] > 0:
        return 1
    return 0


def guarded_division(x, y):
    # `or` must short-circuit: y / x is only computed when x != 0.
    if x == 0 or y / x > 2:
        return 1.0
    return -1.0


def not_flag(flag, x):
    if not flag:
        x = -x
    return x * 2


def chain_compare(a, b, c):
    return a < b < c


def in_half_open(x, lo, hi):
    if lo <= x < hi:
        return 1
    elif x < lo:
        return 0
    return 2


def same_sign(x, y):
    return (x > 0 and y > 0) or (x < 0 and y < 0)


def int_or_default(x, d):
    # `or` on ints yields an operand, not a bool.
    return x or d


def int_and_value(x, y):
    # `and` on ints yields an operand, not a bool.
    return x and y


def array_endpoints_branch(a):
    if a[0] > a[-1]:
        r = a[0] - a[-1]
    elif a[0] == a[-1]:
        r = a[0] * 0.0
    else:
        r = a[-1] - a[0]
    return r


def ifexp_with_bool_ops(x, y, flag):
    return x + y if (flag and x > y) or (not flag and x < y) else x - y


# ---------------------------------------------------------------------------------------------
# 2. Loops: while, for over range with start/stop/step (negative too), nested loops, element
#    loops by index, accumulation into arrays (argument mutation), loops that run zero times.
# ---------------------------------------------------------------------------------------------

def while_countdown(n):
    s = 0
    while n > 0:
        s += n
        n -= 2
    return s


def range_start_stop(start, stop):
    s = 0
    for i in range(start, stop):
        s += i * i
    return s


def range_negative_step(n):
    out = 0
    for i in range(n, -1, -1):
        out = out * 2 + i
    return out


def range_step_args(start, stop, step):
    count = 0
    total = 0
    for i in range(start, stop, step):
        count += 1
        total += i
    return count, total


def triangle_nested(n):
    s = 0
    for i in range(n):
        for j in range(i):
            s += i * j + 1
    return s


def sum_by_index(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def dot_float32(a, b):
    acc = np.float32(0)
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    return acc


def prefix_sum_inplace(a):
    for i in range(1, a.shape[0]):
        a[i] += a[i - 1]


def histogram_into(values, counts):
    for i in range(values.shape[0]):
        counts[values[i] % counts.shape[0]] += 1
    return counts.sum()


def scale_int32_inplace(a, k):
    for i in range(len(a)):
        a[i] = a[i] * k
    return a


def matrix_row_sums(m):
    out = np.zeros(m.shape[0])
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            out[i] += m[i, j]
    return out


def while_two_conditions(a, limit):
    i = 0
    s = 0.0
    while i < a.shape[0] and s < limit:
        s += a[i]
        i += 1
    return i, s


def iterate_array_values(a):
    s = 0
    for v in a:
        if v % 2 == 0:
            s += 1
    return s


def float32_blend_into(a, b, out):
    half = np.float32(0.5)
    for i in range(out.shape[0]):
        out[i] = a[i] * half + b[i] * half
    return out


# ---------------------------------------------------------------------------------------------
# 3. Loop control: break, continue, for/else, while/else, break out of the inner of two loops,
#    continue in nested loops.
# ---------------------------------------------------------------------------------------------

def first_negative_index(a):
    idx = -1
    for i in range(a.shape[0]):
        if a[i] < 0:
            idx = i
            break
    return idx


def sum_skip_multiples(n, k):
    s = 0
    for i in range(n):
        if i % k == 0:
            continue
        s += i
    return s


def for_else_search(a, target):
    pos = -1
    for i in range(a.shape[0]):
        if a[i] == target:
            pos = i
            break
    else:
        pos = a.shape[0] * 10
    return pos


def while_else_count(n, stop):
    i = 0
    r = 0
    while i < n:
        if i == stop:
            r = -i
            break
        i += 1
    else:
        r = 100 + i
    return r


def break_inner_only(m, threshold):
    count = 0
    rows = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > threshold:
                break
            count += 1
        rows += 1
    return count, rows


def continue_nested(n):
    s = 0
    for i in range(n):
        for j in range(n):
            if (i + j) % 3 == 0:
                continue
            s += i * 10 + j
    return s


def count_primes(n):
    count = 0
    for i in range(2, n):
        for j in range(2, i):
            if i % j == 0:
                break
        else:
            count += 1
    return count


def while_true_break(n):
    k = 0
    steps = 0
    while True:
        if k >= n:
            break
        k += 3
        steps += 1
    return steps, k


def continue_in_while(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 2 == 1:
            continue
        s += i
    return s


def for_else_zero_iterations(n):
    flag = 0
    for i in range(n):
        flag = i + 1
        break
    else:
        flag = -1
    return flag


def break_float32_threshold(a, limit):
    total = np.float32(0)
    for i in range(a.shape[0]):
        if total + a[i] > limit:
            break
        total += a[i]
    return total


def skip_rows_with_flag(m):
    total = 0
    for i in range(m.shape[0]):
        bad = False
        for j in range(m.shape[1]):
            if m[i, j] < 0:
                bad = True
                break
        if bad:
            continue
        total += i + 1
    return total


# ---------------------------------------------------------------------------------------------
# 4. Early return: return inside loops and nested branches, several return points, tuples.
# ---------------------------------------------------------------------------------------------

def find_in_matrix(m, target):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] == target:
                return i, j
    return -1, -1


def find_pair_sum(a, total):
    for i in range(a.shape[0]):
        for j in range(i + 1, a.shape[0]):
            if a[i] + a[j] == total:
                return i, j
    return -1, -1


def classify_point(x, y):
    if x >= 0:
        if y >= 0:
            return 1
        return 4
    else:
        if y >= 0:
            return 2
    return 3


def return_in_while_true(n):
    k = 1
    while True:
        if k * k > n:
            return k
        k += 1


def first_above(a, t):
    for i in range(a.shape[0]):
        if a[i] > t:
            return a[i]
    return -1.0


def min_max(a):
    lo = a[0]
    hi = a[0]
    for i in range(1, a.shape[0]):
        if a[i] < lo:
            lo = a[i]
        elif a[i] > hi:
            hi = a[i]
    return lo, hi


def argmax_with_value(a):
    best = 0
    for i in range(1, a.shape[0]):
        if a[i] > a[best]:
            best = i
    return best, a[best]


def return_two_arrays(a):
    if a.shape[0] == 0:
        return a, a
    return a * 2.0, a + 1.0


def early_exit_validation(x, y):
    if x < 0:
        return 0
    if y < 0:
        return 1
    if x > y:
        return x - y
    return y - x + 100


def return_from_for_else(a, t):
    for i in range(a.shape[0]):
        if a[i] == t:
            return i
    else:
        return -a.shape[0]


# ---------------------------------------------------------------------------------------------
# 5. Variables created inside loops or branches and used after (defined on all paths), swaps
#    by tuple unpacking, augmented assignment.
# ---------------------------------------------------------------------------------------------

def defined_in_both_branches(x):
    if x > 0:
        factor = 1.5
    else:
        factor = -2.0
    return factor * x


def defined_before_loop_updated_inside(n):
    last = -1
    for i in range(n):
        last = i * i
    return last


def swap_pair(a, b):
    a, b = b, a
    return a - b


def fib_iterative(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def reverse_inplace(a):
    i = 0
    j = a.shape[0] - 1
    while i < j:
        a[i], a[j] = a[j], a[i]
        i += 1
        j -= 1


def augmented_int_ops(x):
    x += 3
    x *= 2
    x -= 1
    x //= 3
    x %= 7
    x **= 2
    return x


def augmented_float_ops(x):
    x += 0.5
    x *= 3.0
    x /= 2.0
    x -= 1.0
    return x


def augmented_array_elements(a):
    a[0] += 1.0
    a[1] *= 2.0
    a[2] -= a[0]
    a[1] /= 4.0
    return a[0] + a[1] + a[2]


def augmented_slice(a):
    a[1:3] += 10.0
    a[::2] *= 2.0
    return a


def rotate_three(a, b, c):
    for _ in range(2):
        a, b, c = c, a, b
    return a, b, c


def all_elif_paths_assign(x):
    if x < 0:
        label = -1
        extra = 0.0
    elif x == 0:
        label = 0
        extra = 1.0
    elif x < 10:
        label = 1
        extra = 2.0
    else:
        label = 2
        extra = 3.0
    return label, extra


def running_best(a):
    best = a[0]
    best_i = 0
    for i in range(a.shape[0]):
        cand = a[i] * a[i]
        if cand > best * best:
            best = a[i]
            best_i = i
    return best_i, best


# ---------------------------------------------------------------------------------------------
# 6. Calls to user functions: helpers calling helpers, keyword arguments, defaults, tuple
#    returns and unpacking, a helper called in a loop.
# ---------------------------------------------------------------------------------------------

def h_square(x):
    return x * x


def h_sum_squares(x, y):
    return h_square(x) + h_square(y)


def h_affine(x, scale=2.0, shift=0.0):
    return x * scale + shift


def h_divmod(a, b):
    return a // b, a % b


def h_clip(v, lo, hi):
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


def h_fill(out, value):
    for i in range(out.shape[0]):
        out[i] = value + i


def h_scaled(a, k):
    return a * k


def h_poly(x, a=1, b=0, c=0):
    return c * x * x + b * x + a


def h_min_max(a):
    lo = a[0]
    hi = a[0]
    for i in range(a.shape[0]):
        lo = min(lo, a[i])
        hi = max(hi, a[i])
    return lo, hi


def call_chain(x, y):
    return h_sum_squares(x, y) + h_square(x - y)


def call_keywords(x):
    return h_affine(x, shift=1.0) + h_affine(x, scale=3.0, shift=-1.0) + h_affine(shift=2.0, x=x)


def call_defaults(x):
    return h_affine(x) - h_affine(x, 1.0)


def call_tuple_unpack(a, b):
    q, r = h_divmod(a, b)
    pair = h_divmod(b + 10, 3)
    return q * 100 + r, pair[0] - pair[1]


def call_in_loop(a, lo, hi):
    s = 0.0
    for i in range(a.shape[0]):
        s += h_clip(a[i], lo, hi)
    return s


def call_mutating_helper(out):
    h_fill(out, 5.0)
    return out.sum()


def call_returns_array(a):
    b = h_scaled(a, 2.0)
    return h_scaled(b, 0.5) + b


def call_skipping_defaults(x):
    # keywords skip over defaulted parameters and come out of order
    return h_poly(x, c=2) + h_poly(x, 5, c=1) + h_poly(b=3, x=x)


def call_same_helper_two_types(n, x):
    return h_square(n), h_square(x)


def call_helper_tuple_in_loop(m):
    total_lo = 0.0
    total_hi = 0.0
    for i in range(m.shape[0]):
        lo, hi = h_min_max(m[i])
        total_lo += lo
        total_hi += hi
    return total_lo, total_hi


# ---------------------------------------------------------------------------------------------
# 7. Lambdas and nested defs: a lambda in a local, a nested def closing over a local (read-only)
#    called in a loop, a lambda passed to a user helper that calls it.
# ---------------------------------------------------------------------------------------------

def h_apply(f, x):
    return f(x)


def h_map_inplace(f, a):
    for i in range(a.shape[0]):
        a[i] = f(a[i])


def h_count_if(pred, a):
    n = 0
    for i in range(a.shape[0]):
        if pred(a[i]):
            n += 1
    return n


def lambda_local(x):
    f = lambda v: v * 2 + 1  # noqa: E731
    return f(x) + f(x + 1)


def lambda_two_args(x, y):
    dist = lambda p, q: p - q if p > q else q - p  # noqa: E731
    return dist(x, y) + dist(y, 0)


def lambda_closes_over_arg(x, k):
    mul = lambda v: v * k  # noqa: E731
    return mul(x) + mul(1)


def lambda_in_loop(a):
    sq = lambda v: v * v  # noqa: E731
    s = 0.0
    for i in range(a.shape[0]):
        s += sq(a[i])
    return s


def nested_def_closure_in_loop(a, k):
    scale = k * 2

    def bump(v):
        return v * scale + 1.0
    s = 0.0
    for i in range(a.shape[0]):
        s += bump(a[i])
    return s


def nested_def_with_loop(n):
    def tri(m):
        t = 0
        for j in range(m + 1):
            t += j
        return t
    total = 0
    for i in range(n):
        total += tri(i)
    return total


def nested_def_returns_tuple(x, y):
    def split(v):
        return v // 10, v % 10
    a, b = split(x)
    c, d = split(y)
    return a + c, b + d


def nested_def_calls_helper(a):
    def norm_sq(v):
        return h_square(v) + 1.0
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = norm_sq(a[i])
    return out


def lambda_to_helper(x, k):
    return h_apply(lambda v: v + k, x) * 2


def lambda_to_helper_mutates(a):
    h_map_inplace(lambda v: v * 2.0 - 1.0, a)
    return a.sum()


def nested_def_to_helper(a, t):
    def above(v):
        return v > t
    return h_count_if(above, a)


# ---------------------------------------------------------------------------------------------
# 8. Recursion (non-negative ints, small inputs).
# ---------------------------------------------------------------------------------------------

def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


def fibonacci(n):
    if n < 2:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2)


def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def power_rec(x, n):
    if n == 0:
        return 1.0
    half = power_rec(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


def rec_sum_array(a, i):
    if i >= a.shape[0]:
        return 0.0
    return a[i] + rec_sum_array(a, i + 1)


def binary_search_rec(a, target, lo, hi):
    if lo >= hi:
        return -1
    mid = (lo + hi) // 2
    if a[mid] == target:
        return mid
    if a[mid] < target:
        return binary_search_rec(a, target, mid + 1, hi)
    return binary_search_rec(a, target, lo, mid)


def sum_of_factorials(n):
    s = 0
    for i in range(n):
        s += factorial(i)
    return s


def count_digits(n):
    if n < 10:
        return 1
    return 1 + count_digits(n // 10)


# ---------------------------------------------------------------------------------------------
# 9. Objects with static flags: a plain class holding scalars (flags, modes) and arrays;
#    module-level instances read by functions; methods called from functions, a method calling
#    another method.
# ---------------------------------------------------------------------------------------------

class Config:
    KIND = 3

    def __init__(self, mode, use_bias, scale, limit, bias):
        self.mode = mode
        self.use_bias = use_bias
        self.scale = scale
        self.limit = limit
        self.bias = bias


class Model:
    def __init__(self, mode, use_bias, weight, bias):
        self.mode = mode
        self.use_bias = use_bias
        self.weight = weight
        self.bias = bias

    def activate(self, x):
        if self.mode == "relu":
            return np.maximum(x, 0.0)
        if self.mode == "abs":
            return np.abs(x)
        return x

    def linear(self, x):
        y = x * self.weight
        if self.use_bias:
            y = y + self.bias
        return y

    def apply(self, x):
        return self.activate(self.linear(x))

    def scaled(self, x, factor=2.0):
        return self.apply(x) * factor

    def stats(self, x):
        y = self.apply(x)
        return y.min(), y.max()

    def checked(self, x, limit):
        y = self.apply(x)
        for i in range(y.shape[0]):
            if y[i] > limit:
                raise ValueError("activation above limit")
        return y


class Pipeline:
    def __init__(self, first, second):
        self.first = first
        self.second = second

    def run(self, x):
        return self.second.apply(self.first.apply(x))


RELU_CONFIG = Config("relu", True, 2.0, 5, np.array([0.5, -1.0, 2.0]))
PLAIN_CONFIG = Config("linear", False, 0.5, 2, np.array([1.0, 1.0, 1.0]))
RELU_MODEL = Model("relu", True, np.array([1.0, -2.0, 0.5]), np.array([0.25, 0.5, -1.0]))
ABS_MODEL = Model("abs", False, np.array([2.0, 1.0, -1.0]), np.array([9.0, 9.0, 9.0]))
LINEAR_MODEL = Model("linear", True, np.array([1.0, 1.0, 1.0]), np.array([-1.0, 0.0, 1.0]))
PIPELINE = Pipeline(RELU_MODEL, ABS_MODEL)


def config_mode_branch(x):
    if RELU_CONFIG.mode == "relu":
        return np.maximum(x, 0.0)
    return x


def config_mode_elif(x):
    if PLAIN_CONFIG.mode == "relu":
        y = np.maximum(x, 0.0)
    elif PLAIN_CONFIG.mode == "linear":
        y = x * PLAIN_CONFIG.scale
    else:
        y = -x
    return y


def config_use_bias(a):
    out = a * RELU_CONFIG.scale
    if RELU_CONFIG.use_bias:
        out = out + RELU_CONFIG.bias
    if PLAIN_CONFIG.use_bias:
        out = out + PLAIN_CONFIG.bias
    return out


def config_scalar_in_loop(n):
    s = 0.0
    i = 0
    while i < n and i < RELU_CONFIG.limit:
        s += RELU_CONFIG.scale * i
        i += 1
    return s


def config_class_attribute(x):
    return x * RELU_CONFIG.KIND + Config.KIND


def model_apply(x):
    return RELU_MODEL.apply(x)


def model_apply_two_instances(x):
    return ABS_MODEL.apply(x) + LINEAR_MODEL.apply(x)


def model_method_in_loop(x, n):
    for _ in range(n):
        x = LINEAR_MODEL.apply(x)
    return x


def model_method_keyword(x):
    return RELU_MODEL.scaled(x) - RELU_MODEL.scaled(x, factor=0.5)


def model_method_tuple(x):
    lo, hi = ABS_MODEL.stats(x)
    return hi - lo


def pipeline_run(x):
    return PIPELINE.run(x)


# ---------------------------------------------------------------------------------------------
# 10. Lists of sub-objects: module-level lists/tuples of objects iterated directly, with
#     enumerate and zip; transpiler.nn cells called from a function.
# ---------------------------------------------------------------------------------------------

class Layer:
    def __init__(self, weight, bias, act):
        self.weight = np.array(weight, dtype=np.float64)
        self.bias = bias
        self.act = act

    def apply(self, x):
        y = x * self.weight + self.bias
        if self.act:
            y = np.maximum(y, 0.0)
        return y


LAYERS = [Layer([1.0, 2.0], 0.5, True), Layer([-1.0, 1.0], 0.0, False),
          Layer([0.5, 0.5], 2.0, True)]
LAYER_TUPLE = (Layer([2.0, -1.0], -1.0, False), Layer([1.0, 3.0], 1.0, True))
SCALES = (0.5, 2.0, 1.5)

NET = nn.SequentialCell(nn.Dense(3, 4, weight_init="ones", bias_init="zeros"), nn.ReLU(),
                        nn.Dense(4, 2, weight_init="ones", bias_init="zeros"))
DENSE_A = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
DENSE_B = nn.Dense(2, 2, weight_init="ones", bias_init="ones")
RELU = nn.ReLU()
CELL_LIST = [nn.Dense(3, 3, weight_init="ones", bias_init="zeros"), nn.ReLU(),
             nn.Dense(3, 1, weight_init="ones", bias_init="zeros")]
SQUARE_NET = nn.SequentialCell(nn.Dense(3, 3, weight_init="ones", bias_init="zeros"), nn.ReLU())


def run_layers(x):
    for layer in LAYERS:
        x = layer.apply(x)
    return x


def run_layer_tuple(x):
    for layer in LAYER_TUPLE:
        x = layer.apply(x)
    return x


def run_layers_enumerate(x):
    for i, layer in enumerate(LAYERS):
        x = layer.apply(x) * (i + 1)
    return x


def run_layers_enumerate_start(x):
    total = 0
    for i, layer in enumerate(LAYER_TUPLE, 1):
        x = layer.apply(x)
        total += i
    return x, total


def run_layers_zip(x):
    for layer, s in zip(LAYERS, SCALES):
        x = layer.apply(x) * s
    return x


def count_active_layers(x):
    count = 0
    for layer in LAYERS:
        if layer.act:
            count += 1
        x = layer.apply(x)
    return x, count


def run_layers_runtime_break(x, limit):
    used = 0
    for layer in LAYERS:
        if x.sum() > limit:
            break
        x = layer.apply(x)
        used += 1
    return x, used


def layers_by_position(x):
    return LAYERS[-1].apply(LAYERS[1].apply(x)) + LAYER_TUPLE[0].apply(x)


def run_sequential_cell(x):
    return NET(x)


def run_cells_by_hand(x):
    h = DENSE_A(x)
    h = RELU(h)
    return DENSE_B(h)


def run_cell_list(x):
    for cell in CELL_LIST:
        x = cell(x)
    return x


def run_cell_in_loop(x, n):
    for _ in range(n):
        x = SQUARE_NET(x)
    return x


# ---------------------------------------------------------------------------------------------
# 11. Exceptions: ValueError / IndexError / KeyError raised conditionally, inside loops.
# ---------------------------------------------------------------------------------------------

def raise_value_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative element")
        s += a[i]
    return s


def raise_index_check(a, i):
    if i < 0 or i >= a.shape[0]:
        raise IndexError("index out of range")
    return a[i]


def raise_key_unknown(code):
    if code == 1:
        return 10
    elif code == 2:
        return 20
    raise KeyError("unknown code")


def raise_in_nested_loop(m):
    count = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] != m[i, j]:
                raise ValueError("nan in matrix")
            count += 1
    return count


def raise_after_mutation(a):
    for i in range(a.shape[0]):
        if a[i] > 100:
            raise ValueError("too large")
        a[i] = a[i] * 2
    return a


def raise_in_while(n):
    k = n
    steps = 0
    while k != 1:
        if steps > 5:
            raise IndexError("too many steps")
        k = k // 2 if k % 2 == 0 else 3 * k + 1
        steps += 1
    return steps


def h_checked_sqrt(v):
    if v < 0:
        raise ValueError("negative")
    return v ** 0.5


def raise_from_helper_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += h_checked_sqrt(a[i])
    return s


def raise_class_without_call(x):
    for i in range(x):
        if i == 3:
            raise KeyError
    return x


def raise_in_for_else(a, t):
    for i in range(a.shape[0]):
        if a[i] == t:
            break
    else:
        raise KeyError("not found")
    return i


def raise_from_method(x, limit):
    return RELU_MODEL.checked(x, limit)


def raise_key_in_layer_loop(x, limit):
    for layer in LAYERS:
        x = layer.apply(x)
        if x.max() > limit:
            raise KeyError("layer output too large")
    return x


# ---------------------------------------------------------------------------------------------
# Maybe-undefined: a variable read where it may not have been assigned. Each read is marked
# with a "maybe-undefined read" comment (the test finds the line by that marker).
# ---------------------------------------------------------------------------------------------

def undef_if_only(x):
    if x > 0:
        doubled = x * 2
    return doubled + 1  # maybe-undefined read


def undef_elif_no_else(x):
    if x > 0:
        sign_value = 1
    elif x < 0:
        sign_value = -1
    return sign_value * 10  # maybe-undefined read


def undef_loop_body(n):
    for i in range(n):
        last_square = i * i
    return last_square  # maybe-undefined read


def undef_loop_target(n):
    total = 0
    for step_index in range(n):
        total += 1
    return total + step_index  # maybe-undefined read


def undef_while_body(a, t):
    k = 0
    while k < a.shape[0] and a[k] < t:
        latest = a[k]
        k += 1
    return latest  # maybe-undefined read


def undef_after_break(a, t):
    for i in range(a.shape[0]):
        if a[i] > t:
            found_value = a[i]
            break
    return found_value  # maybe-undefined read


def undef_array_in_branch(a, flag):
    if flag:
        scaled = a * 2.0
    return scaled.sum()  # maybe-undefined read


def undef_numpy_scalar_loop(a):
    for i in range(a.shape[0]):
        if a[i] < 0:
            first_negative = a[i]
            break
    return first_negative * np.float64(2)  # maybe-undefined read


def undef_augmented(a):
    for i in range(a.shape[0]):
        if a[i] > 0:
            running = 0.0
    running += a[0]  # maybe-undefined read
    return running


def undef_while_test(n):
    if n > 2:
        limit = n
    count = 0
    while count < limit:  # maybe-undefined read
        count += 1
    return count


def undef_read_twice(a, x):
    for i in range(a.shape[0]):
        v = a[i]
    return x * v - v  # maybe-undefined read, read again after an operation


def undef_tuple_target(a):
    for pair in enumerate(a):
        index, value = pair
    return index + value  # maybe-undefined read


def undef_nested_loops(n, m):
    for i in range(n):
        for j in range(m):
            corner = i * 10 + j
    return corner  # maybe-undefined read


# -- issue 20: NumPy calls Numba lacks or types otherwise, straight-line: NumPy graphs on the CPU

def np_roll_axis(a, k):
    return np.roll(a, k, 1)


def np_tile_rows(a):
    return np.tile(a, (2, 3))


def var_rows_ddof(a):
    return a.var(axis=1, ddof=1)


def std_rows_ddof(a):
    return a.std(axis=1, ddof=1)


def mask_2d_squares(z):
    m = z > 0
    return z[m] ** 2


def abs_of_complex(z):
    return abs(z)


def zeros_python_bool(n, a):
    return np.zeros(n, dtype=bool) | (a > 0)


def ufunc_of_tuple(a):
    return np.add((1.0, 2.0, 3.0), a)


def center_keepdims(a):
    return a - a.mean(axis=0, keepdims=True)


def float16_scale(x):
    return x * 3 + 1


# -- issue 20: Python types as NumPy dtypes in compiled loops

def sieve_bool_dtype(n):
    flags = np.ones(n, dtype=bool)
    flags[0] = False
    for i in range(2, n):
        if flags[i]:
            for j in range(2 * i, n, i):
                flags[j] = False
    return flags


def int_dtype_positional(n):
    c = np.zeros(n, int)
    for i in range(n):
        c[i] = i * 3
    return c


def complex_full(n):
    z = np.full(n, 1.5, dtype=complex)
    for i in range(n):
        z[i] = z[i] * (i + 1j)
    return z


# -- issue 20: sum/any/all of a generator expression, as loops

def gen_sum_of_squares(n):
    return sum(i * i for i in range(n) if i % 3)


def gen_sum_with_start(n):
    return sum((i for i in range(n)), 10)


def gen_any_above(a, t):
    return any(v > t for v in a)


def gen_all_positive(a):
    return all(v > 0 for v in a)


def gen_any_nested(n, m):
    return any(i * j == 6 for i in range(n) for j in range(m))


def gen_all_nested_filtered(n):
    return all(i + j < 7 for i in range(n) for j in range(i) if j % 2)


def gen_sum_in_expression(n, k):
    total = 3
    total += 2 * sum(i for i in range(n)) + k
    return total


def gen_variable_not_leaked(a):
    v = 100.0
    found = any(v > 2.0 for v in a)
    return found, v


def h_bump(arr):
    arr[0] += 1.0
    return 1.0


def gen_effects_before(a):
    # a[0] is read before the generator's items change it (review)
    return a[0], any(h_bump(a) > 5.0 for _ in range(2))


def gen_first_iter_same_name(x):
    return any(x > 2.0 for x in x)    # the first iterable is the enclosing x


def flag_lazy_read(n):
    for i in range(n):
        if i == 2:
            x = i
        y = x if i >= 2 else -1       # x read only where assigned: Python never raises
    return y


def flag_effect_before_read(c, arr):
    if c:
        x = 1.0
    return h_bump(arr) + x            # arr changes before Python raises


def flag_read_order(c):
    if c:
        b = 1
        a = 2
    return b + a                      # Python names b


def gen_sum_float_array(a):
    return sum(x * x for x in a)      # 0 (an int) when empty, else an np.float64: falls back


# -- issue 15: no silent wrong answer (Python ints grow, CPython's round, lists, NumPy's errors)

def int_factorial(n):
    r = 1
    for i in range(1, n + 1):
        r *= i
    return r


def int_double_plus_one(x):
    return x * 2 + 1


def int_overflow_late(n):
    s = 1
    for i in range(n):
        if i == 9999:
            s = s * 2 ** 62 * 4
    return s


def int_shift_left(x, n):
    return x << n


def float_round_digits(x, n):
    return round(x, n)


def list_mixed_append(x):
    values = [42.0]
    values.append(x)
    return values


def list_mixed_concat(x):
    return [1] + [x]


def list_mixed_iadd(x):
    values = [1]
    values += [x]
    return values


def generator_unreachable_yield(n):
    if 0:
        yield n


def raise_with_dict(x):
    if x > 0:
        raise ValueError({"a": x})
    return x


def max_of_one_number(x):
    return max(x)


def clip_without_bounds(a):
    return np.clip(a, None, None)


def arange_zero_step(a, b, s):
    return np.arange(a, b, s)


# -- issue 20: calls of the operator module's functions, as the operators

def op_arith(a, b):
    return operator.add(a, b) * operator.mul(a, 2) - operator.neg(b)


def op_running_sum(a):
    s = a[0]
    for i in range(1, a.shape[0]):
        s = operator.add(s, operator.getitem(a, i))
    return s


def op_compare_pick(a, b):
    if operator.lt(a, b) and operator.ne(a, 0):
        return operator.truediv(b, a)
    return operator.floordiv(a, operator.pos(b) + 1) * 1.0


def op_bits(x, k):
    return operator.xor(operator.lshift(x, k), operator.and_(x, 7)), operator.invert(x)


def op_imported_name(a, b):
    return mul_from_operator(a, b) + sub_from_operator(a, b)


def op_power_mod(x, n):
    acc = 1
    for _ in range(n):
        acc = operator.mod(operator.pow(acc * x, 1), 1009)
    return acc


def op_not_truth(a, t):
    count = 0
    for v in a:
        if operator.not_(operator.gt(v, t)):
            count += 1
    return count


def op_matmul(m, v):
    return operator.matmul(m, v)


OPERATOR_NAME = operator.add


def op_module_level_alias(a, b):
    return OPERATOR_NAME(a, b)


# -- issue 20: assignment expressions (:=), as assignments before their statement

def walrus_if(a):
    total = 0.0
    for x in a:
        if (y := x * 2) > 3:
            total += y
    return total


def walrus_while(n):
    i = 0
    out = 0
    while (k := i * i) < n:
        out += k
        i += 1
    return out, k


def walrus_elif(a, t):
    if (m := a.max()) > t and m < 100:
        return m
    elif (s := a.sum()) > 0:
        return s
    return -1.0


def walrus_nested(x):
    y = (a := (b := x + 1) * 2) + b
    return y, a


def walrus_call_argument(a):
    return abs(n := a.shape[0] - 5) + n


def walrus_for_iter(n):
    total = 0
    for v in (r := range(n)):
        total += v
    return total, len(r)


def walrus_while_continue(a):
    i = 0
    kept = 0.0
    while (i := i + 1) <= a.shape[0]:
        if a[i - 1] < 0:
            continue
        kept += a[i - 1]
    return kept, i


def walrus_read_before(x):
    y = 1
    r = y + (y := x)      # y is read before it is bound: left to Python
    return r, y


# -- issue 20: del of a local nothing reads afterwards

def del_temporary(a):
    t = a * 2
    s = t.sum()
    del t
    return s


def del_two_names(x, y):
    p = x * y
    q = x + y
    r = p - q
    del p, q
    return r


def del_in_loop_body(a):
    total = 0.0
    for i in range(a.shape[0]):
        w = a[i] * 3
        total += w
        del w
    return total


def del_maybe_unbound(n):
    for i in range(n):
        last = i * 2
    del last          # UnboundLocalError when the loop did not run, as in Python
    return n


def del_then_read(x):
    t = x + 1
    del t
    t = 5             # rebound: the read below sees 5
    return t


def del_read_next_iteration(a):
    w = 0.0
    total = 0.0
    for x in a:
        total += w    # UnboundLocalError at the second iteration, in Python too
        w = x
        del w
    return total


# -- issue 20: functools.reduce with an operator function, as a loop

def reduce_add_start(a):
    return functools.reduce(operator.add, a, 0)


def reduce_mul_no_start(a):
    return functools.reduce(operator.mul, a)        # TypeError when a is empty, as in Python


def reduce_max_range(n):
    return functools.reduce(max, range(n), -1) * 2


def reduce_imported(a, t):
    lo = reduce(min, a, t)
    return lo - 1.0


# -- issue 20: imports in the function body (of modules already imported)

def import_in_body(x):
    import math
    return math.sqrt(x) + math.floor(x)


def import_from_in_body(a):
    from numpy import cumsum as running
    import numpy.linalg
    return running(a) * numpy.linalg.norm(a)


def import_after_use(x):
    y = x * 2
    import math       # before every mention: fine; the name is not used above
    return math.fabs(y)


# -- issue 20: match with value, singleton, or-, wildcard and capture patterns

def match_code(n):
    match n:
        case 0:
            return 10.0
        case 1 | 2 | 3:
            return 20.0
        case -1:
            return -10.0
        case _:
            return n * 0.5


def match_capture(x, limit):
    match x * 2:
        case 4:
            y = 1.0
        case _ if limit < 0:        # a guard, no binding
            y = -1.0
        case doubled:
            y = doubled + 0.5
    return y


def match_in_loop(a):
    counts = np.zeros(3)
    for v in a:
        match int(v) % 3:
            case 0:
                counts[0] += 1
            case 1:
                counts[1] += v
            case other:
                counts[2] += other
    return counts


def match_bool_flag(flag, x):
    match flag:
        case True:
            return x + 1
        case False:
            return x - 1
    return x


def match_guard_capture(x):
    match x:
        case n if n > 3:          # binds before the guard: left to Python
            return n
        case _:
            return 0


# -- issue 20: np.errstate blocks that only quiet warnings

def errstate_divide(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / b
    return r


def errstate_in_loop(a):
    total = 0.0
    for i in range(a.shape[0]):
        with np.errstate(all="ignore"):
            total += np.log(a[i])
    return total


def errstate_raise(a, b):
    with np.errstate(divide="raise"):     # FloatingPointError: left to Python
        r = a / b
    return r


# -- issue 20: more of the constructs above, over other types and shapes

def op_getitem_2d(m, i, j):
    return operator.getitem(m, (i, j)) + operator.getitem(operator.getitem(m, i), j)


def op_int_ops(a, b):
    return operator.floordiv(a, b), operator.mod(a, b), operator.rshift(a, 1), operator.or_(a, b)


def op_eq_count(a, v):
    n = 0
    for x in a:
        if operator.eq(x, v) or operator.ge(x, v + 10):
            n = operator.add(n, 1)
    return n


def op_float32_accumulate(a):
    s = np.float32(0.0)
    for x in a:
        s = operator.add(s, operator.mul(x, x))
    return s


def walrus_in_return(a):
    return (n := a.shape[0]) * 2 + n


def walrus_loop_accumulate(a):
    best = -1.0
    for x in a:
        if (d := x * x - 1.0) > best:
            best = d
    return best


def walrus_while_countdown(n):
    steps = 0
    while (n := n - 3) > 0:
        steps += 1
    return steps, n


def walrus_chain_first(a, t):
    if (m := a.min()) < t < 100:
        return m
    return t


def del_after_branch(x):
    if x > 0:
        t = x * 2
    else:
        t = -x
    r = t + 1
    del t
    return r


def del_loop_temporary_int(n):
    acc = 0
    for i in range(n):
        sq = i * i
        acc += sq
        del sq
    return acc


def reduce_or_flags(n):
    return functools.reduce(operator.or_, range(n), 0)


def reduce_floats_max(a):
    return functools.reduce(max, a)


def reduce_sub_int32(a):
    return functools.reduce(operator.sub, a, np.int32(100))


def match_float_values(x):
    match x:
        case 0.5:
            return 1
        case 1.5 | 2.5:
            return 2
        case _:
            return 3


def match_none_or_value(flag, v):
    r = 0.0
    match flag:
        case None:
            r = v
        case True:
            r = v * 2
        case _:
            r = -v
    return r


def match_loop_histogram(a):
    counts = np.zeros(4, dtype=np.int64)
    for x in a:
        match int(x):
            case 0 | 1:
                counts[0] += 1
            case 2:
                counts[1] += 1
            case _ if x < 0:
                counts[2] += 1
            case _:
                counts[3] += 1
    return counts


def import_numpy_in_loop_fn(a):
    import numpy
    total = 0.0
    for x in a:
        total += numpy.sqrt(x)
    return total


def errstate_log_of_zero(a):
    out = np.empty_like(a)
    with np.errstate(divide="ignore"):
        for i in range(a.shape[0]):
            out[i] = np.log(a[i])
    return out


def gen_sum_float32(a):
    return sum((x * x for x in a), np.float32(0.0))


def gen_sum_of_products(a, b):
    return sum((a[i] * b[i] for i in range(a.shape[0])), 0.0)


# ---------------------------------------------------------------------------------------------
# Nested functions: recursion, mutual recursion, results typed from their own code.
# ---------------------------------------------------------------------------------------------

def nested_factorial(n):
    def go(k):
        if k <= 1:
            return 1
        return k * go(k - 1)
    return go(n)


def nested_fib_scaled(n, s):
    def fib(k):
        if k < 2:
            return k * s
        return fib(k - 1) + fib(k - 2)
    return fib(n)


def nested_lambda_recursive(n):
    f = lambda k: 1 if k <= 0 else 2 * f(k - 1)  # noqa: E731
    return f(n)


def nested_mutual_parity(n):
    def even(k):
        return True if k == 0 else odd(k - 1)

    def odd(k):
        return False if k == 0 else even(k - 1)
    return even(n), odd(n)


def nested_mutual_captures(n, y):
    x = y * 2

    def even(k):
        return x if k == 0 else odd(k - 1)

    def odd(k):
        return -x if k == 0 else even(k - 1)
    return even(n)


def nested_sum_of_array_type(a):
    def twice(v):
        return v * 2
    s = a.dtype.type(0)
    for i in range(a.shape[0]):
        s += twice(a[i])
    return s


def nested_float_start_sum(a):
    def twice(v):
        return v * 2
    s = 0.0
    for i in range(a.shape[0]):
        s = s + twice(a[i])
    return s


def nested_closure_scale(a, k):
    off = k + 1

    def scale(v):
        return v * off

    def shifted(v):
        return scale(v) - k
    total = 0.0
    for v in a:
        total += shifted(v)
    return total


def nested_recursive_array_sum(a, i):
    def rest(j):
        if j >= a.shape[0]:
            return a.dtype.type(0)
        return a[j] + rest(j + 1)
    return rest(i)


def nested_default_exponent(x):
    def power(v, e=3):
        return v ** e
    return power(x) + power(x, 2)


def nested_int_or_float_by_path(k, x):
    g = lambda: x * 2.0  # noqa: E731
    r = 1
    if k:
        r = g()
    return r


# ---------------------------------------------------------------------------------------------
# 13. nonlocal (passes/nonlocal_functions: the variables go in and come back) and tuple
#     results of user and nested functions typed item by item (analysis/callee_types).
# ---------------------------------------------------------------------------------------------
def nonlocal_counter(a):
    count = 0

    def bump(k):
        nonlocal count
        count += k
        return count
    for i in range(a.shape[0]):
        if a[i] > 0:
            bump(1)
    last = bump(10)
    return count, last


def nonlocal_int_then_float(x):
    c = 0

    def step(v):
        nonlocal c
        c = c + v
    step(x)
    step(2)
    return c


def nonlocal_two_names(a):
    n = 0
    s = a[0] * 0

    def push(v):
        nonlocal n, s
        n += 1
        s = s + v * v
    for i in range(a.shape[0]):
        push(a[i])
    return n, s


def nonlocal_recursive_depth(m):
    depth = 0

    def down(k):
        nonlocal depth
        depth += 1
        if k > 0:
            down(k - 1)
    down(m)
    return depth


def nonlocal_result_used(a, k):
    total = 0
    seen = 0

    def take(v):
        nonlocal seen
        seen += 1
        return v * 2
    for i in range(a.shape[0]):
        total += take(a[i])
    total += take(k)
    return total, seen


def nonlocal_writer_calls_writer(n):
    steps = 0
    value = n

    def halve():
        nonlocal steps, value
        steps += 1
        value = value // 2

    def collatz():
        nonlocal steps, value
        while value > 1:
            if value % 2 == 0:
                halve()
            else:
                steps += 1
                value = 3 * value + 1
        return steps
    result = collatz()
    return result, value


def nonlocal_seen_by_reader(a):
    scale = 1.0

    def grow():
        nonlocal scale
        scale = scale * 2.0
    read = lambda v: v * scale  # noqa: E731
    total = 0.0
    for i in range(a.shape[0]):
        grow()
        total += read(a[i])
    return total, scale


def h_pair(x):
    return x * 2, x + 1


def tuple_result_in_loop(a):
    total = a[0] * 0
    last = a[0] * 0
    for i in range(a.shape[0]):
        u, v = h_pair(a[i])
        total += u
        last = v
    return total, last


def tuple_result_recursive(n, x):
    def walk(k, y):
        if k == 0:
            return y, 1
        z, c = walk(k - 1, y * 2)
        return z, c + 1
    return walk(n, x)


def tuple_result_item(a):
    return h_pair(a[0])[1] + divmod(a[1], 3)[0]


def divmod_items(a):
    q, r = divmod(a[0], 3)
    return q, r


def nonlocal_call_in_condition(a):
    n = 0

    def push(v):
        nonlocal n
        n += 1
        return v > 1.0
    hits = 0
    for i in range(a.shape[0]):
        if push(a[i]):
            hits += 1
    return n, hits


def nonlocal_bound_later(k):
    def bump():
        nonlocal v
        v += 1
    if k:
        v = 1
    bump()
    return v


def nonlocal_while_test(k):
    left = k

    def take():
        nonlocal left
        left -= 1
        return left > 0
    steps = 0
    while take():
        steps += 1
    return steps, left


def nonlocal_read_before_call(k):
    c = k

    def bump():
        nonlocal c
        c = c * 10
        return 1
    y = c + bump()       # Python reads c before the call: the call cannot move first
    return y, c


def nonlocal_aug_of_own_variable(k):
    count = k

    def bump():
        nonlocal count
        count += 1
        return 100
    count += bump()      # the old count plus the result: Python's order
    return count


# review of stop 30 (nested tuples, bool items, sibling closures, swaps)
def h_nested_pair(y):
    return (y, (y + 1, y * 0.5))


def nested_tuple_target(x):
    a, (b, c) = h_nested_pair(x)
    return a, b, c


def nested_tuple_item(x):
    return h_nested_pair(x)[1][1]


def tuple_result_bool_or_float(k):
    def f(k):
        if k < 2:
            return k, 1
        return k + 0.5, 2
    return f(k)


def tuple_result_through_name(k):
    def f(k):
        if k < 2:
            return k, 1
        return k + 1, 2
    t = f(k)
    return t


def nonlocal_writer_calls_reader(x):
    c = x

    def r():
        return c * 10

    def g():
        nonlocal c
        c += 1
        return r()
    y = g()
    return y, c


def swap_through_helper(x, y):
    def sw(a, b):
        a, b = b, a + b
        return a, b
    a, b = x, y
    a, b = sw(a, b)
    return a, b


def nonlocal_swap(x, y):
    a, b = x, y

    def sw():
        nonlocal a, b
        a, b = b, a + b
        return a * 2
    t = sw()
    t2 = sw()
    return t, t2, a, b


def nonlocal_tuple_result(x):
    c = 0

    def g(v):
        nonlocal c
        c += 1
        return v * 0.5, v + 1
    a, b = g(x)
    return a, b, c


# 14. List arguments of Python numbers of one type (passes/list_arguments: read as an array,
# each element the Python number it is).

def list_polyval(coeffs, x):
    y = 0 * x
    for c in coeffs:
        y = y * x + c
    return y


def list_weighted(ws, a):
    out = np.zeros_like(a)
    for i, w in enumerate(ws):
        out = out + a * w
    return out


def list_histogram(values, n):
    counts = np.zeros(n, dtype=np.int64)
    for v in values:
        if 0 <= v < n:
            counts[v] += 1
    return counts


def list_running_mean(xs):
    s = 0.0
    n = 0
    for v in xs:
        s += v
        n += 1
    return s / n if n else 0.0


def list_first_negative(xs):
    for i in range(len(xs)):
        if xs[i] < 0:
            return i
    return -1


def list_flags_count(flags, x):
    k = 0
    for f in flags:
        if f:
            k += 1
    return k * x


# 15. Lambdas and nested defs made in a loop, called after their definition in that body
# (passes/specialize/local_functions: one function of the same code; its captures are read
# at each call, as Python's closures read them).

def loop_lambda_scale(a):
    total = 0.0
    for k in range(3):
        scale = lambda x: x * k
        total += scale(a[0])
    return total


def loop_def_offset(a, b):
    out = a * 0
    for i in range(len(a)):
        def shifted(v):
            return v + b * i
        out[i] = shifted(a[i])
    return out


def loop_lambda_nested(n, x):
    acc = x
    for i in range(n):
        for j in range(2):
            mix = lambda u: u * 0.5 + i - j
            acc = mix(acc)
    return acc


def loop_lambda_read_before(n):
    total = 0
    for k in range(n):
        if k > 0:
            total += step(k)
        step = lambda v: v + 1
    return total


def loop_lambda_after_loop(n):
    for k in range(n):
        f = lambda v: v * k
    return f(2)


# -- issue 20: *t at a call, t a tuple argument of Python numbers
def h_weighted(a, b, c):
    return a + b * c


def star_tuple_call(t):
    return h_weighted(*t)


def star_tuple_middle(x, t):
    return h_weighted(x, *t) * 2


def star_rest_forward(x, *rest):
    return h_weighted(x, *rest)


def star_tuple_loop(a, t):
    s = 0.0
    for i in range(a.shape[0]):
        s += h_weighted(a[i], *t)
    return s


def star_tuple_builtin(t):
    return max(*t) - min(*t)


# -- issue 20: namedtuples made in the function, read by field
from collections import namedtuple as _namedtuple
from typing import NamedTuple as _NamedTuple

Point = _namedtuple("Point", "x y")
Span = _namedtuple("Span", ["lo", "hi", "step"], defaults=[1])


class Stat(_NamedTuple):
    count: int
    total: float = 0.0


def nt_fields(x, y):
    p = Point(x, y)
    return p.x * p.y + p[0] - p[-1]


def nt_keywords_default(a, b):
    s = Span(hi=b, lo=a)
    n = 0
    for i in range(s.lo, s.hi, s.step):
        n += i
    return n, len(s)


def nt_in_loop(a, b):
    acc = 0.0
    for i in range(a.shape[0]):
        p = Point(a[i], b[i])
        acc += p.x * p.y
    return acc


def nt_unpack_iterate(x, y):
    p = Point(y, x)
    u, v = p
    t = 0.0
    for item in p:
        t = t + item
    return u - v, t


def nt_typing_class(a):
    st = Stat(a.shape[0])
    m = 0.0
    for i in range(st.count):
        m += a[i]
    return m / st.count + st.total



# -- issue 20: min/max of a generator expression, list(<genexp>), as loops
def gen_max_squares(a):
    return max(x * x for x in a)


def gen_min_above(a, t):
    return min(x for x in a if x > t)


def gen_max_nested(n):
    return max(i * j - n for i in range(n) for j in range(i))


def gen_min_in_expression(a, b):
    return min(a[i] - b[i] for i in range(a.shape[0])) * 2.0


def gen_list_of_range(n):
    return list(i * i for i in range(n) if i % 3)



def gen_max_after_index(c, a):
    return c[0] + max(v * v for v in a)


def gen_min_after_division(a, b, x):
    y = x / b - min(v for v in a)
    return y


def gen_max_in_tuple(c, a):
    return (c[3], max(v for v in a))


def gen_max_update(c, a):
    y = 1.0
    y += c[1] * max(v for v in a)
    return y


def gen_sum_after_index(c, b):
    return c[0] + sum(10 // v for v in b)


# -- issue 20: f(*t) of a tuple the function built
def star_local_tuple(x):
    t = (x, 2.0, x * 3)
    return h_weighted(*t)


def star_local_tuple_loop(a, k):
    pair = (k, 0.5)
    s = 0.0
    for i in range(a.shape[0]):
        s += h_weighted(a[i], *pair)
    return s


def star_local_tuple_numpy(a):
    t = (a[0], a[1], np.float32(2.0))
    return h_weighted(*t)
