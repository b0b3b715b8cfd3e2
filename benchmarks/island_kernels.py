"""Functions that do not compile whole, for section 9 of ``make bench`` (issue #48): one
statement needs Python, the loops hold the time. Written as a user would write them."""
import numpy as np


def row_norms_with_settings(X, settings):
    """A loop over arrays beside a dict argument read after it (the regression of bda88a1)."""
    n = X.shape[0]
    out = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(X.shape[1]):
            s += X[i, j] * X[i, j]
        out[i] = s
    report = {"n": n, "total": float(out.sum())}
    if settings.get("verbose"):
        print(f"{settings['tag']}: {report}")
    return out


def kmeans(X, C, iters):
    """Lloyd's iterations: the distance loops hold the time, the centers' update is NumPy's
    mean along an axis (pairwise order: a Python island)."""
    n, d = X.shape
    k = C.shape[0]
    labels = np.zeros(n, dtype=np.int64)
    for it in range(iters):
        for i in range(n):
            best = 0
            bd = np.inf
            for j in range(k):
                dist = 0.0
                for t in range(d):
                    diff = X[i, t] - C[j, t]
                    dist += diff * diff
                if dist < bd:
                    bd = dist
                    best = j
            labels[i] = best
        for j in range(k):
            m = labels == j
            if m.any():
                C[j] = X[m].mean(axis=0)
    return labels, C


def logged_scan(a, log):
    """A scan that logs a line every 1000 elements into a list of str (a Python island)."""
    best = 0
    for i in range(1, a.shape[0]):
        if a[i] > a[best]:
            best = i
        if i % 1000 == 0:
            log.append(f"at {i}: best {best}")
    return best


def stencil_exp(a, steps):
    """NumPy's exp of the interior of an argument (non-contiguous: NumPy's own call)."""
    for _ in range(steps):
        a[1:-1, 1:-1] = np.exp(a[1:-1, 1:-1] * 0.5) - 1.0
    return a


def standardize_groups(X, labels, k):
    """Per group, NumPy's mean and std along an axis (value islands: the compiled loop reads
    what they give), then each row of the group standardized in a compiled loop."""
    n, d = X.shape
    out = np.zeros_like(X)
    for g in range(k):
        mu = X[labels == g].mean(axis=0)
        sd = X[labels == g].std(axis=0)
        for i in range(n):
            if labels[i] == g:
                for t in range(d):
                    out[i, t] = (X[i, t] - mu[t]) / sd[t]
    return out
