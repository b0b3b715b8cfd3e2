"""Draw the documentation's pictures (docs/images/*.svg) with ``explain().graph()``'s built-in
layout: a function that does not compile whole (regions, an island) and one that does.
``python tools/docs_pictures.py``; deterministic, no Graphviz needed."""
import os
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "docs", "examples"))


def main():
    import numpy as np
    import pictures
    import transpiler as tp
    out = os.path.join(ROOT, "docs", "images")
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    X = rng.random((200, 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", tp.FallbackWarning)
        norms = tp.jit(pictures.row_norms_with_settings)
        norms(X, {"tag": "docs", "verbose": False})
        kmeans = tp.jit(pictures.kmeans)
        for _ in range(3):
            kmeans(X, X[:3].copy(), 2)
    sys.path.insert(0, os.path.join(ROOT, "samples"))
    from static_graph import JitNetwork
    from transpiler import nn
    nn.set_seed(0)
    network = JitNetwork()
    network(np.ones((64, 1, 28, 28), np.float32))
    for name, fn in (("explain_dict_argument", norms), ("explain_kmeans", kmeans),
                     ("explain_network", JitNetwork.construct)):
        with open(os.path.join(out, name + ".svg"), "w", encoding="utf-8") as handle:
            handle.write(fn.explain().graph().builtin_svg())
        print(f"docs/images/{name}.svg")


if __name__ == "__main__":
    main()
