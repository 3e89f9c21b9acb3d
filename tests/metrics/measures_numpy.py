#!/usr/bin/env python3
"""Independent numpy check of alignment, uniformity and the neural-collapse measures.

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
}


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
                got = {k: float(v) for k, v in (line.split() for line in run.stdout.splitlines())}
                expected = numpy_measures(X, labels, predictions, pairs, t)
                for key, tolerance in TOLERANCE.items():
                    a, b = got[key], expected[key]
                    error = abs(a - b) / max(abs(b), 1e-300)
                    ok = np.isfinite(a) and np.isfinite(b) and (error <= tolerance if tolerance else a == b)
                    print(f"{'ok  ' if ok else 'FAIL'} {name}, t={t}: {key} geomsim {a!r} numpy {b!r} "
                          f"(relative difference {error:.1e}, tolerance {tolerance:g})")
                    failures += not ok
    print(f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
