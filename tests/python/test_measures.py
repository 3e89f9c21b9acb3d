"""Alignment, uniformity and neural collapse on numpy embeddings: values against numpy formulas,
and what the module does with float32, strided, Fortran-ordered and malformed inputs."""
import numpy as np
import pytest
from scipy.special import logsumexp

import geomsim


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    K, N, d = 4, 300, 12
    labels = np.concatenate([np.arange(K), rng.integers(0, K, size=N - K)])
    X = rng.normal(size=(N, d)) + 2.0 * rng.normal(size=(K, d))[labels]
    return X, labels


def numpy_uniformity(X, t=2.0):
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)
    iu = np.triu_indices(len(X), k=1)
    return logsumexp(-t * D2[iu]) - np.log(len(iu[0]))


def test_measures_against_numpy(data):
    # Each measure against its formula in dense numpy; the C++ side is cross-checked more widely
    # by crosscheck.numpy_measures. 1e-12 relative: sums of a few 10^4 terms in other orders.
    X, labels = data
    K = labels.max() + 1
    assert geomsim.uniformity(X) == pytest.approx(numpy_uniformity(X), rel=1e-12)
    assert geomsim.uniformity(X, t=0.5) == pytest.approx(numpy_uniformity(X, 0.5), rel=1e-12)
    assert geomsim.alignment(X[:100], X[100:200]) == pytest.approx(np.mean(np.sum((X[:100] - X[100:200]) ** 2, axis=1)), rel=1e-13)
    pairs = np.array([[0, 5], [7, 7], [299, 1]])
    assert geomsim.pair_alignment(X, pairs) == pytest.approx(np.mean([np.sum((X[i] - X[j]) ** 2) for i, j in pairs]), rel=1e-13)
    means = np.stack([X[labels == k].mean(axis=0) for k in range(K)])
    assert np.allclose(geomsim.class_means(X, labels), means, rtol=0, atol=1e-14)
    nc = geomsim.neural_collapse(X, labels)
    M = means - X.mean(axis=0)
    W = X - means[labels]
    nc1 = np.trace((W.T @ W / len(X)) @ np.linalg.pinv(M.T @ M / K, rcond=1e-10, hermitian=True)) / K
    assert nc["num_classes"] == K and nc["between_rank"] == K - 1
    assert nc["nc1"] == pytest.approx(nc1, rel=1e-11)
    norms = np.linalg.norm(M, axis=1)
    assert nc["equinorm"] == pytest.approx(np.std(norms) / np.mean(norms), rel=1e-13)
    cos = (M @ M.T / np.outer(norms, norms))[np.triu_indices(K, k=1)]
    assert nc["equiangularity"] == pytest.approx(np.mean(np.abs(cos + 1 / (K - 1))), rel=1e-12)
    assert nc["max_cosine_deviation"] == pytest.approx(np.max(np.abs(cos + 1 / (K - 1))), rel=1e-12)
    assert nc["cosine_sd"] == pytest.approx(np.std(cos), rel=1e-12)
    nearest = np.argmin(((X[:, None, :] - means[None]) ** 2).sum(axis=2), axis=1)
    assert np.array_equal(geomsim.nearest_class_mean(X, means), nearest)
    assert geomsim.nearest_class_mean_agreement(X, labels, labels) == np.mean(nearest == labels)


def test_the_simplex_is_collapsed_and_uniform_points_give_log_w():
    K = 5
    simplex = np.eye(K) - 1.0 / K
    simplex /= np.linalg.norm(simplex, axis=1, keepdims=True)
    X = np.repeat(simplex, 6, axis=0)
    labels = np.repeat(np.arange(K), 6)
    nc = geomsim.neural_collapse(X, labels)
    assert nc["nc1"] <= 1e-28 and nc["equiangularity"] <= 1e-15 and nc["equinorm"] <= 1e-15
    assert geomsim.uniformity(simplex) == pytest.approx(-2.0 * 2.0 * K / (K - 1), rel=1e-14)
    # Uniform points on S^9: log W(1/4, 10) within 5 standard errors of the U-statistic
    # (tests/metrics/test_alignment_uniformity.cpp derives it: sqrt(2 Var / (N (N-1))) / W).
    d, N = 10, 2000
    U = np.random.default_rng(3).normal(size=(N, d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    W = np.exp(geomsim.log_wiener_constant(0.25, d))
    se = np.sqrt(2 * (np.exp(geomsim.log_wiener_constant(0.125, d)) - W * W) / (N * (N - 1))) / W
    assert abs(geomsim.uniformity(U) - np.log(W)) < 5 * se


def test_float32_strided_fortran_and_list_inputs_give_the_float64_result(data):
    X, labels = data
    X32 = X.astype(np.float32)
    as64 = X32.astype(np.float64)  # the exact values the module computes with
    assert geomsim.uniformity(X32) == geomsim.uniformity(as64)
    assert geomsim.neural_collapse(X32, labels) == geomsim.neural_collapse(as64, labels)
    wide = np.zeros((X.shape[0], 2 * X.shape[1]))
    wide[:, ::2] = X
    strided = wide[:, ::2]  # not contiguous
    assert not strided.flags.c_contiguous
    assert geomsim.uniformity(strided) == geomsim.uniformity(X)
    fortran = np.asfortranarray(X)
    assert geomsim.neural_collapse(fortran, labels) == geomsim.neural_collapse(X, labels)
    assert geomsim.uniformity(X[::-1]) == pytest.approx(geomsim.uniformity(X), rel=1e-13)  # negative strides
    assert geomsim.same_class_alignment(X.tolist(), labels.tolist()) == geomsim.same_class_alignment(X, labels)
    for dtype in (np.int8, np.uint16, np.int32, np.int64):
        assert geomsim.nearest_class_mean_agreement(X, labels.astype(dtype), labels) == \
            geomsim.nearest_class_mean_agreement(X, labels, labels)


@pytest.mark.parametrize("embeddings, message", [
    (np.zeros((4, 3), dtype=np.complex128), "embeddings must be an array of real numbers (a float or integer dtype), got dtype complex128"),
    (np.array([["a", "b"], ["c", "d"]]), "embeddings must be an array of real numbers"),
    (np.zeros((4, 3), dtype=bool), "embeddings must be an array of real numbers"),
    (np.zeros(5), "embeddings must be a 2-D array of N points by d coordinates (N, d >= 1), got shape (5,)"),
    (np.zeros((2, 3, 4)), "embeddings must be a 2-D array"),
    (np.zeros((0, 3)), "embeddings must be a 2-D array"),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), "embeddings must be finite numbers (found nan or inf)"),
    (np.array([[1.0, np.inf], [0.0, 1.0]], dtype=np.float32), "embeddings must be finite numbers"),
    (np.array([[1.0, 1e200], [0.0, 1.0]]), "embeddings must have coordinates of magnitude at most 1e150"),
    ([[1.0, 2.0], [3.0]], "embeddings must be a numpy array or convertible to one, got a list"),
])
def test_malformed_embeddings_are_refused_by_name(embeddings, message):
    with pytest.raises(ValueError) as error:
        geomsim.uniformity(embeddings)
    assert str(error.value).startswith(message)
    assert error.value.argument == "embeddings"


def test_malformed_labels_are_refused_by_name(data):
    X, labels = data
    cases = [
        (labels.astype(np.float64), "labels must be an array of integer ids (an integer dtype), got dtype float64"),
        (labels[:-1], "labels must have one entry per point (300), got 299"),
        (labels.reshape(-1, 1), "labels must be a 1-D array, got 2 dimensions"),
        (np.where(labels == 1, -1, labels), "labels must be >= 0, got -1"),
        (np.where(labels == 1, 2, labels), "labels must use every id 0..3, 1 has no points"),
        (np.full_like(labels, 2**40), "labels must be ids that fit a 32-bit int"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError) as error:
            geomsim.neural_collapse(X, bad)
        assert str(error.value).startswith(message), str(error.value)
    with pytest.raises(ValueError, match="^predictions must be class ids in 0..3, got 4"):
        geomsim.nearest_class_mean_agreement(X, labels, np.full_like(labels, 4))
    with pytest.raises(ValueError, match="^pairs must be an M x 2 array"):
        geomsim.pair_alignment(X, np.zeros((3, 3), dtype=int))
    with pytest.raises(ValueError, match="^pairs must hold whole point indices"):
        geomsim.pair_alignment(X, np.array([[0.5, 1.0]]))
    with pytest.raises(ValueError, match=r"^pairs must index points 0..299, got \(0, 300\)"):
        geomsim.pair_alignment(X, np.array([[0, 300]]))
    with pytest.raises(ValueError, match="^t must be a finite number > 0"):
        geomsim.uniformity(X, t=-1.0)


def test_inputs_are_not_modified(data):
    X, labels = data
    before = X.copy()
    geomsim.uniformity(X)
    geomsim.neural_collapse(X, labels)
    assert np.array_equal(X, before)


def test_float64_c_contiguous_embeddings_are_read_in_place():
    # numpy reports its allocations to tracemalloc, including the conversion the module asks for
    # when an array is not float64 and C-contiguous: 2 x 10^5 x 64 doubles, 102 MB.
    import tracemalloc
    X = np.random.default_rng(1).normal(size=(200_000, 64))
    labels = np.arange(len(X)) % 10

    def peak_mb(embeddings):
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        geomsim.neural_collapse(embeddings, labels)
        return (tracemalloc.get_traced_memory()[1] - before) / 1e6

    tracemalloc.start()
    try:
        assert peak_mb(X) < 1.0                        # read in place
        assert peak_mb(np.asfortranarray(X)) > 100.0   # converted once: the check sees a copy
        assert peak_mb(X.astype(np.float32)) > 100.0
    finally:
        tracemalloc.stop()
