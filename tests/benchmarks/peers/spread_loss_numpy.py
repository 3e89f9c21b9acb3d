"""The Appendix H loss (seed 004, eq. 39-40) for the benchmark's scipy peers: the formula
written with numpy (pairwise differences through the Gram matrix, scipy's logsumexp), shared
by the peer scripts beside this file. The cross-check in tests/experiments has its own copy
on purpose (it must stay independent of geomsim and of the benchmark)."""
import numpy as np
from scipy.special import logsumexp


def loss_and_grad(U, labels, K, alpha, tau):
    """U: N x d, rows are points (not necessarily unit). Returns the loss and its gradient."""
    N = U.shape[0]
    counts = np.bincount(labels, minlength=K).astype(float)
    sq = np.einsum("ij,ij->i", U, U)
    D = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (U @ U.T), 0.0)
    same = labels[:, None] == labels[None, :]
    A = -D / (2 * tau)
    neg = np.where(same, -np.inf, A)
    pos = np.where(same, A, -np.inf)
    lneg = logsumexp(neg, axis=1)
    lpos = logsumexp(pos, axis=1)
    ny = counts[labels]
    align = np.where(same, D, 0.0).sum(axis=1) / (2 * tau) / (K * ny * ny)
    value = ((1 - alpha) * np.mean(lneg - np.log(N - ny)) + alpha * np.mean(lpos - np.log(ny))
             + (1 - alpha) * align.sum())
    wneg = np.exp(neg - lneg[:, None])
    wpos = np.exp(pos - lpos[:, None])
    C = (-(1 - alpha) * wneg / N - alpha * wpos / N) / (2 * tau) + np.where(
        same, (1 - alpha) / (2 * tau * K * ny[:, None] ** 2), 0.0)
    S = C + C.T
    grad = 2 * (S.sum(axis=1)[:, None] * U - S @ U)
    return value, grad


def on_sphere(x, N, d):
    """The normalised rows U of x (free variables) and their norms: the unconstrained
    parametrisation u_i = x_i / |x_i| a Euclidean L-BFGS-B can minimise; the gradient in x is
    (G - <G, U> U) / norms row by row (scipy_lbfgsb_large.py)."""
    X = x.reshape(N, d)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    U = X / norms
    return U, norms


def read_points(path):
    """geomsim's --points CSV (x1..xd, class): points (N x d) and labels."""
    table = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return table[:, :-1], table[:, -1].astype(int)
