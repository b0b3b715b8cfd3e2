"""The functions behind the documentation's pictures (tools/docs_pictures.py draws them)."""
import numpy as np


def row_norms_with_settings(X, settings):
    """A loop over an array beside a dict argument: the loop compiles, the dict stays Python."""
    out = np.empty(X.shape[0])
    for i in range(X.shape[0]):
        total = 0.0
        for j in range(X.shape[1]):
            total += X[i, j] * X[i, j]
        out[i] = np.sqrt(total)
    if settings["verbose"]:
        print(f"{settings['tag']}: {out.shape[0]} rows")
    return out


def kmeans(X, C, iterations):
    """A k-means whose centre update needs Python (an island); its distance loops compile."""
    labels = np.zeros(X.shape[0], np.int64)
    for _ in range(iterations):
        for i in range(X.shape[0]):
            best, best_d = 0, np.inf
            for j in range(C.shape[0]):
                d = 0.0
                for k in range(X.shape[1]):
                    t = X[i, k] - C[j, k]
                    d += t * t
                if d < best_d:
                    best, best_d = j, d
            labels[i] = best
        for j in range(C.shape[0]):
            members = labels == j
            if members.any():
                C[j] = X[members].mean(axis=0)
    return labels
