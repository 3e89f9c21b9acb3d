#!/usr/bin/env python3
"""Peer for the benchmark's large solve (N = K n_y points on S^{d-1}): scipy's L-BFGS-B with
its own defaults (ftol = factr 1e7 x eps = 2.2e-9, gtol 1e-5, maxcor 10) on the free
parametrisation u_i = x_i / |x_i| with the numpy loss and its chain-rule gradient, from one
uniform random start (numpy's generator), stopped at its own test or at --max-seconds.

Prints one JSON object: loss (of the normalised points), seconds (the minimisation's wall
time, without the imports), iterations, evaluations, stop (scipy's message or "max_time")."""
import argparse
import json
import os
import sys
import time

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spread_loss_numpy import loss_and_grad, on_sphere  # noqa: E402


class OutOfTime(Exception):
    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--K", type=int, default=10)
    ap.add_argument("--ny", type=int, default=200)
    ap.add_argument("--d", type=int, default=32)
    ap.add_argument("--alpha", type=float, required=True)
    ap.add_argument("--tau", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=60.0)
    a = ap.parse_args()
    N, d = a.K * a.ny, a.d
    labels = np.repeat(np.arange(a.K), a.ny)
    x0 = np.random.default_rng(a.seed).standard_normal((N, d))
    x0 /= np.linalg.norm(x0, axis=1, keepdims=True)
    state = {"evaluations": 0, "best": np.inf}
    start = time.perf_counter()

    def f(x):
        if time.perf_counter() - start > a.max_seconds:
            raise OutOfTime
        U, norms = on_sphere(x, N, d)
        value, G = loss_and_grad(U, labels, a.K, a.alpha, a.tau)
        # d/dx of u = x / |x|: (I - u u^T) / |x| applied to the gradient in u
        grad = (G - np.einsum("ij,ij->i", G, U)[:, None] * U) / norms
        state["evaluations"] += 1
        state["best"] = min(state["best"], value)
        return value, grad.ravel()

    try:
        res = minimize(f, x0.ravel(), jac=True, method="L-BFGS-B")
        seconds = time.perf_counter() - start
        U, _ = on_sphere(res.x, N, d)
        loss = loss_and_grad(U, labels, a.K, a.alpha, a.tau)[0]
        out = {"loss": loss, "seconds": seconds, "iterations": int(res.nit), "evaluations": state["evaluations"],
               "stop": str(res.message)}
    except OutOfTime:
        out = {"loss": state["best"], "seconds": time.perf_counter() - start, "iterations": None,
               "evaluations": state["evaluations"], "stop": "max_time"}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
