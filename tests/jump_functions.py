"""Loops with break and continue for tests/test_native_jumps.py (jit needs their source)."""


def first_index(values, target):
    found = -1
    for i in range(values.shape[0]):
        if values[i] == target:
            found = i
            break
    return found


def sum_skip_negative(values):
    total = 0.0
    for i in range(values.shape[0]):
        if values[i] < 0:
            continue
        total += values[i]
    return total


def skip_and_stop(values, limit):
    total = 0.0
    count = 0
    for i in range(values.shape[0]):
        v = values[i]
        if v < 0:
            continue
        if total + v > limit:
            break
        total += v
        count += 1
    return total, count


def while_jumps(n):
    i = 0
    acc = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if acc > 50:
            break
        acc += i
    return acc, i


def nested(values):
    hits = 0
    for i in range(values.shape[0]):
        if values[i] < 0:
            continue
        for j in range(i, values.shape[0]):
            if values[j] > values[i] * 2:
                hits += j - i
                break
            if values[j] == 0:
                break
    return hits


def elif_break(values):
    last = 0.0
    for i in range(values.shape[0]):
        v = values[i]
        if v > 5:
            last = v
        elif v < -5:
            last = -v
            break
        else:
            last = last + v
    return last


def for_else(values, target):
    for i in range(values.shape[0]):
        if values[i] == target:
            where = i
            break
    else:
        where = -1
    return where


def last_before_stop(values):
    x = 0.0
    for v in values:
        x = v
        if v > 3:
            break
    return x


def newton(v, tol):
    x = v if v > 1.0 else 1.0
    for _ in range(100):
        nxt = 0.5 * (x + v / x)
        if abs(nxt - x) <= tol * nxt:
            x = nxt
            break
        x = nxt
    return x


def dead_after_jumps(n, k):
    s = 0
    for i in range(n):
        if i == k:
            break
        else:
            continue
        while s < n:
            return -1
    return s


# Loops over static sequences (unrolled by the specializer) and their variable after the loop.

def static_after_loop(n):
    for v in (1, 4):
        n += v
    return n, v

def static_after_loop_prior(n):
    v = -1
    for v in (1, 4):
        n += v
    return n, v

def static_after_break(n):
    v = -1
    for v in (1, 4, 9):
        if v > n:
            break
    return v

def static_else_continue(n):
    s = 0
    for i in range(n):
        for a in (1, 2):
            for b in (3,):
                if b > i:
                    break
            else:
                continue
            s += 100
        s += 1
    return s

def static_no_read_break(n):
    t = 0
    for v in (1, 4, 9):
        if v > n:
            break
        t += v
    return t


def static_cond_rebind(c):
    v = -1
    for v in (1, 4):
        pass
    if c:
        v = 10
    return v

def static_loop_rebind(n):
    for v in (1, 4):
        pass
    for i in range(n):
        v = v + i
    return v

def static_rebind_in_loop_after(n):
    t = 0
    for v in (2, 3):
        t += v
    while n > 0:
        t += v
        v = n
        n -= 1
    return t, v

def static_reuse(n, x):
    t = 0.0
    for i in (0, 1):
        t += x[i]
    for i in range(n):
        t += x[i]
    return t, i

def static_reuse_while(n):
    t = 0
    for k in (3, 5):
        t += k
    k = 0
    while k < n:
        t += k
        k += 1
    return t
