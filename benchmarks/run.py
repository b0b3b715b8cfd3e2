"""The benchmark suite behind ``make bench``: ratios measured side by side in one run.

For now it runs the seed demo (samples/static_graph.py), whose table gives first-call and
median times for PYNATIVE, GRAPH_MODE, @jit, jit(run), NumPy by hand and a loop kernel.
"""
import os
import runpy

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    runpy.run_path(os.path.join(here, "..", "samples", "static_graph.py"), run_name="__main__")
