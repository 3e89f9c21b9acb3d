#!/usr/bin/env python3
"""Independent numpy check of alignment, uniformity, the neural-collapse measures and seed 000's
mean-classifier errors with the lambdas of its Lemmas 1-2 (the labels as strata, z % 2 their class).

Draws embeddings with numpy's own generator (several shapes: Gaussian clouds, unit vectors,
a nearly collapsed simplex, far-apart points), computes every measure here from its formula
with dense numpy (pair differences, d x d covariances, numpy's pseudo-inverse, scipy's
logsumexp), runs geomsim's measures_driver on the same numbers, and requires agreement within
the tolerances stated at each comparison. Exit 1 on any disagreement, a NaN, or a driver failure.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.special import logsumexp


def lse_minus(S, target):
    """logsumexp(S[i]) - S[i, target[i]] per row; log1p of the rest where the target is the row's
    largest, so that a loss of 1e-8 keeps its digits."""
    own = S[np.arange(len(S)), target]
    shifted = np.exp(S - own[:, None])
    shifted[np.arange(len(S)), target] = 0.0
    on_top = own >= S.max(axis=1)
    return np.where(on_top, np.log1p(np.where(on_top[:, None], shifted, 0.0).sum(axis=1)),
                    logsumexp(S - own[:, None], axis=1))


def numpy_measures(X, labels, predictions, pairs, t):
    """X is N x d (rows are points)."""
    N, d = X.shape
    K = labels.max() + 1
    out = {}
    out["alignment"] = np.mean(np.sum((X[pairs[:, 0]] - X[pairs[:, 1]]) ** 2, axis=1))
    diff = X[:, None, :] - X[None, :, :]
    D2 = np.einsum("ijk,ijk->ij", diff, diff)
    same = (labels[:, None] == labels[None, :]) & ~np.eye(N, dtype=bool)
    out["same_class_alignment"] = D2[same].mean()
    iu = np.triu_indices(N, k=1)
    out["uniformity"] = logsumexp(-t * D2[iu]) - np.log(len(iu[0]))

    means = np.stack([X[labels == k].mean(axis=0) for k in range(K)])   # K x d
    mu_G = X.mean(axis=0)
    M = means - mu_G
    W = X - means[labels]
    Sigma_W = W.T @ W / N
    Sigma_B = M.T @ M / K
    # The test data have clean ranks: nonzero eigenvalues of Sigma_B are O(1e-3) or more,
    # rounding's are O(1e-17), so a relative cut at 1e-10 separates them.
    out["nc1"] = np.trace(Sigma_W @ np.linalg.pinv(Sigma_B, rcond=1e-10, hermitian=True)) / K
    out["between_rank"] = float(np.linalg.matrix_rank(Sigma_B, tol=1e-10 * np.linalg.norm(Sigma_B, 2)))
    norms = np.linalg.norm(M, axis=1)
    out["equinorm"] = np.std(norms) / np.mean(norms)
    cos = (M @ M.T) / np.outer(norms, norms)
    c = cos[np.triu_indices(K, k=1)]
    out["equiangularity"] = np.mean(np.abs(c + 1.0 / (K - 1)))
    out["max_cosine_deviation"] = np.max(np.abs(c + 1.0 / (K - 1)))
    out["cosine_sd"] = np.std(c)
    ncc = np.argmin(((X[:, None, :] - means[None, :, :]) ** 2).sum(axis=2), axis=1)
    out["nc4"] = np.mean(ncc == predictions)

    # Seed 000 §4.3.1: strata z = labels, classes z % 2; W_z, W_y the means; p(z) frequencies.
    classes = labels % 2
    class_means = np.stack([X[classes == y].mean(axis=0) for y in range(2)])
    out["transfer_loss"] = np.mean(lse_minus(X @ means.T, labels))
    out["original_loss"] = np.mean(lse_minus(X @ class_means.T, classes))
    p = np.bincount(labels, minlength=K) / N
    gram = means @ means.T
    delta2 = np.sum((means[:, None, :] - means[None, :, :]) ** 2, axis=2)
    to_class = np.zeros((K, 2))  # p(z'|y) in column y
    to_class[np.arange(K), np.arange(K) % 2] = p
    to_class /= to_class.sum(axis=0, keepdims=True)
    out["bounds"] = {}
    for form, c in (("", gram), ("_printed", 1.0 - delta2 / 2.0)):
        for lemma, A, target, loss in (("lemma1", c, np.arange(K), out["transfer_loss"]),
                                       ("lemma2", c @ to_class, np.arange(K) % 2, out["original_loss"])):
            def bound(lam, A=A, target=target):
                return np.sum(p * (lse_minus(lam * A, target) + (lam - 1.0) * A[np.arange(K), target]))
            # B's slope as lambda -> infinity: B has no crossing when it is negative
            final_slope = np.sum(p * A.max(axis=1))
            out["bounds"][lemma + "_lambda" + form] = (bound, loss, final_slope)
    return out


# Relative tolerances, each from the size of the computation it compares (the differences
# seen are all below 5e-15; the margins allow other compilers and BLAS orderings):
TOLERANCE = {
    "alignment": 1e-13,             # a mean of squared differences formed the same way
    "same_class_alignment": 1e-13,  # scatter about the mean vs every pair: different sums
    "uniformity": 1e-12,            # Gram identity vs direct differences inside exp, ~10^5 terms
    "nc1": 1e-11,                   # SVD of d x K vs pinv of d x d: rounding times the condition
                                    # number of the kept eigenvalues (<= 1e3 here)
    "between_rank": 0.0,
    "equinorm": 1e-13,
    "equiangularity": 1e-12,        # absolute deviations of cosines from -1/(K-1), some ~1e-3
    "max_cosine_deviation": 1e-12,
    "cosine_sd": 1e-12,
    "nc4": 0.0,                     # a count; ties have probability 0 with these draws
    "transfer_loss": 1e-12,         # log-sum-exp over N x C scores: scipy's vs geomsim's blocks
    "original_loss": 1e-12,
}
# Each lambda geomsim reports is checked through numpy's own bound B (eqs. (4)-(6), exact form
# and as printed): B(lambda (1 - 1e-9)) < numpy's loss <= B(lambda (1 + 1e-9)), so lambda is the
# crossing to 1e-9 relative (B is convex: the last one), unless lambda is 0 (then B is above the
# loss everywhere); where geomsim reports none, numpy's B falls to -infinity (its slope tends to a
# negative number), so no lambda has the bound hold for every larger one.
LAMBDA_TOLERANCE = 1e-9


def case(rng, name, N, d, K, kind):
    labels = rng.integers(0, K, size=N)
    labels[:K] = np.arange(K)  # every class present, sizes unequal
    if kind == "gaussian":
        X = rng.normal(size=(N, d)) + 2.0 * rng.normal(size=(K, d))[labels]
    elif kind == "sphere":
        X = rng.normal(size=(N, d)) + 3.0 * rng.normal(size=(K, d))[labels]
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    elif kind == "near_collapse":  # unit simplex vertices e_k - 1/K (padded to d >= K), noise 1e-3
        V = np.zeros((K, d))
        V[:, :K] = np.eye(K) - 1.0 / K
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        X = V[labels] + 1e-3 * rng.normal(size=(N, d))
    elif kind == "far":  # exp(-2 |x - y|^2) underflows a double for most pairs
        X = 30.0 * rng.normal(size=(N, d))
    else:
        raise ValueError(kind)
    flip = rng.random(N) < 0.2
    predictions = np.where(flip, rng.integers(0, K, size=N), labels)
    pairs = rng.integers(0, N, size=(3 * N, 2))
    return name, X, labels, predictions, pairs


def main():
    if len(sys.argv) != 2:
        print("usage: measures_numpy.py MEASURES_DRIVER", file=sys.stderr)
        return 2
    driver = sys.argv[1]
    rng = np.random.default_rng(20240516)
    cases = [case(rng, "gaussian N=600 d=16 K=5", 600, 16, 5, "gaussian"),
             case(rng, "sphere N=700 d=8 K=10", 700, 8, 10, "sphere"),
             case(rng, "near collapse N=400 d=12 K=4", 400, 12, 4, "near_collapse"),
             case(rng, "far apart N=300 d=5 K=3", 300, 5, 3, "far")]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, X, labels, predictions, pairs in cases:
            for t in (2.0, 0.5):
                files = {}
                for key, array, fmt in (("points", X, "%.17g"), ("labels", labels, "%d"),
                                        ("predictions", predictions, "%d"), ("pairs", pairs, "%d")):
                    files[key] = os.path.join(tmp, key + ".txt")
                    np.savetxt(files[key], array, fmt=fmt)
                run = subprocess.run([driver, files["points"], files["labels"], files["predictions"],
                                      files["pairs"], repr(t)], capture_output=True, text=True)
                if run.returncode != 0:
                    print(f"FAIL {name}, t={t}: driver exited {run.returncode}: {run.stderr}")
                    failures += 1
                    continue
                got = {k: None if v == "null" else float(v) for k, v in (line.split() for line in run.stdout.splitlines())}
                expected = numpy_measures(X, labels, predictions, pairs, t)
                for key, tolerance in TOLERANCE.items():
                    a, b = got[key], expected[key]
                    error = abs(a - b) / max(abs(b), 1e-300)
                    ok = np.isfinite(a) and np.isfinite(b) and (error <= tolerance if tolerance else a == b)
                    print(f"{'ok  ' if ok else 'FAIL'} {name}, t={t}: {key} geomsim {a!r} numpy {b!r} "
                          f"(relative difference {error:.1e}, tolerance {tolerance:g})")
                    failures += not ok
                for key, (bound, loss, final_slope) in expected["bounds"].items():
                    lam = got[key]
                    if lam is None:  # none: B falls below the loss for every large lambda, to -infinity
                        ok = final_slope < 0
                        print(f"{'ok  ' if ok else 'FAIL'} {name}, t={t}: {key} geomsim: none; numpy's bound ends "
                              f"with slope {final_slope:.3g}")
                        failures += not ok
                        continue
                    eps = LAMBDA_TOLERANCE
                    if lam == 0.0:
                        ok = all(bound(x) >= loss for x in np.geomspace(1e-6, 1e6, 61))
                    else:
                        ok = np.isfinite(lam) and bound(lam * (1 - eps)) < loss <= bound(lam * (1 + eps))
                    print(f"{'ok  ' if ok else 'FAIL'} {name}, t={t}: {key} geomsim {lam!r}: numpy's bound crosses its "
                          f"loss within {eps:g} of it (relative), from below: {ok}")
                    failures += not ok
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
