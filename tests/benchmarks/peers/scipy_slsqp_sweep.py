#!/usr/bin/env python3
"""Peer for the benchmark's small-problem sweep: seed 004's method (Appendix H: "We use
scipy.minimize and the Sequential Least Squares Programming (SLSQP) option ... the lowest loss
over 5 runs with random initializations"), from its own random starts (numpy's generator),
with an analytic gradient and the unit-norm equality constraints, at every point of a K, n_y,
d, alpha grid. Each SLSQP run is restarted from its end point while it keeps improving (scipy's
SLSQP, like NLopt's, can stop after a null step), with ftol 1e-15: the strongest form of the
method, so that geomsim is compared with its best answers.

Writes one CSV line per point: d,alpha,loss,seconds (seconds: that point's wall time)."""
import argparse
import os
import sys
import time

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spread_loss_numpy import loss_and_grad  # noqa: E402


def best_of(K, ny, d, alpha, tau, starts, ftol, maxiter, restarts):
    labels = np.repeat(np.arange(K), ny)
    N = K * ny

    def f(x):
        value, grad = loss_and_grad(x.reshape(N, d), labels, K, alpha, tau)
        return value, grad.ravel()

    def jac(x):
        J = np.zeros((N, N * d))
        for i in range(N):
            J[i, i * d:(i + 1) * d] = 2 * x[i * d:(i + 1) * d]
        return J

    cons = {"type": "eq", "fun": lambda x: np.sum(x.reshape(N, d) ** 2, axis=1) - 1.0, "jac": jac}
    best = np.inf
    for seed in range(starts):
        x = np.random.default_rng(seed).standard_normal((N, d))
        x = (x / np.linalg.norm(x, axis=1, keepdims=True)).ravel()
        previous = np.inf
        for _ in range(restarts):
            res = minimize(f, x, jac=True, method="SLSQP", constraints=[cons],
                           options={"ftol": ftol, "maxiter": maxiter})
            x = res.x.reshape(N, d)
            x = (x / np.linalg.norm(x, axis=1, keepdims=True)).ravel()
            value = f(x)[0]
            if not previous - value > 1e-12:
                break
            previous = value
        if np.isfinite(value):
            best = min(best, value)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--K", type=int, default=2)
    ap.add_argument("--ny", type=int, default=8)
    ap.add_argument("--d", default="2,5")
    ap.add_argument("--alpha-start", type=float, default=0.7)
    ap.add_argument("--alpha-step", type=float, default=0.005)
    ap.add_argument("--alpha-count", type=int, default=50)
    ap.add_argument("--tau", type=float, default=0.5)
    ap.add_argument("--starts", type=int, default=5)
    # The seed says only "We use scipy.minimize and the Sequential Least Squares Programming
    # (SLSQP) option" (seed 004, Appendix H): it names no tolerance, iteration limit, gradient or
    # restart. --scipy-defaults is our assumption of what such a call used (scipy's defaults),
    # not a setting the paper states. --paper-defaults is its former name, kept working.
    ap.add_argument("--scipy-defaults", "--paper-defaults", dest="scipy_defaults", action="store_true",
                    help="scipy's own SLSQP defaults (ftol 1e-6, maxiter 100, no restarts) instead: our assumption "
                         "of the paper's call, whose settings the paper does not state (--paper-defaults: former name)")
    a = ap.parse_args()
    ftol, maxiter, restarts = (1e-6, 100, 1) if a.scipy_defaults else (1e-15, 5000, 10)
    print("d,alpha,loss,seconds")
    for d in [int(v) for v in a.d.split(",")]:
        for k in range(a.alpha_count):
            alpha = round(a.alpha_start + k * a.alpha_step, 10)
            start = time.perf_counter()
            loss = best_of(a.K, a.ny, d, alpha, a.tau, a.starts, ftol, maxiter, restarts)
            print(f"{d},{alpha!r},{loss!r},{time.perf_counter() - start!r}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
