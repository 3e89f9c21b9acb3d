"""The theory's closed forms against `geomsim theory --json`, bit for bit, and their errors."""
import math

import numpy as np
import pytest

import geomsim

TAUS = [0.05, 0.5, 2.0]
DIMS = [2, 3, 10, 128]


def by_key(rows):
    return {(row["tau"], row["d"]): row for row in rows}


def test_two_class_theory_equals_the_cli(cli):
    alpha = 0.7
    expected = cli.json("theory", "--tau", ",".join(map(str, TAUS)), "--d", ",".join(map(str, DIMS)),
                        "--alpha", str(alpha))
    rows = by_key(expected["rows"])
    assert len(rows) == len(TAUS) * len(DIMS)
    for (tau, d), row in rows.items():
        log_w = geomsim.log_wiener_constant(tau, d)
        assert log_w == row["log_W"]
        assert math.exp(log_w) == row["W"]
        assert geomsim.c_threshold(tau, d) == row["c"]
        assert geomsim.exact_crossover(tau, d) == row["exact_crossover"]
        assert geomsim.theta_star_existence_bound(tau) == row["theta_star_existence_bound"]
        assert geomsim.theta_star(alpha, tau) == row["theta_star"]
        assert geomsim.spread_star(alpha, tau) == row["spread"]
        split = geomsim.symmetric_split(2)
        assert split.min_loss(alpha, tau) == row["min_loss"]
        assert split.threshold() == expected["threshold"] == pytest.approx(2 / 3, abs=1e-16)


def test_symmetric_split_equals_the_cli_for_K_4(cli):
    K, alpha = 4, 0.6
    expected = cli.json("theory", "--K", str(K), "--tau", "0.3,1", "--d", "4,7,20", "--alpha", str(alpha))
    shared = geomsim.symmetric_split(K)
    orthogonal = geomsim.symmetric_split(K, "orthogonal")
    assert shared.threshold() == expected["threshold"] == 4 / 7
    for (tau, d), row in by_key(expected["rows"]).items():
        assert geomsim.relaxed_window_end(K, tau, d) == row["c"]
        assert shared.exact_crossover(tau, d) == row["exact_crossover"]
        assert shared.existence_bound(tau) == row["theta_star_existence_bound"]
        assert shared.theta_star(alpha, tau) == row["theta_star"]
        assert shared.spread(alpha, tau) == row["spread"]
        assert shared.min_loss(alpha, tau) == row["min_loss"]
        if d >= geomsim.min_dimension(K, "orthogonal"):
            assert orthogonal.theta_star(alpha, tau) == row["orthogonal_split"]["theta_star"]
            assert orthogonal.min_loss(alpha, tau) == row["orthogonal_split"]["min_loss"]
        else:
            assert "orthogonal_split" not in row


def test_undefined_values_are_none():
    assert geomsim.theta_star(0.6, 0.5) is None  # below 2/3: collapse
    assert geomsim.spread_star(0.6, 0.5) is None


def test_split_points_are_an_owned_array_with_the_split_geometry():
    split = geomsim.symmetric_split(3)
    theta = split.theta_star(0.7, 0.5)
    points = split.points(4, 3, theta)
    assert points.shape == (12, 3) and points.flags.writeable and points.flags.c_contiguous
    assert np.allclose(np.linalg.norm(points, axis=1), 1.0, atol=1e-15)
    # Each class: two atoms, each at distance sin(theta) from the class mean.
    for y in range(3):
        block = points[4 * y:4 * y + 4]
        assert np.allclose(np.linalg.norm(block - block.mean(axis=0), axis=1), math.sin(theta), atol=1e-15)


def test_theory_errors_are_value_errors_with_the_cli_message(cli):
    """The CLI's sentence, in Python's words: the parameter's name where the CLI has its flag."""
    with pytest.raises(ValueError) as error:
        geomsim.log_wiener_constant(0.0, 3)
    assert str(error.value) == cli.error("theory", "--tau", "0").replace("--tau", "tau", 1)
    assert error.value.argument == "tau"
    with pytest.raises(ValueError) as error:
        geomsim.log_wiener_constant(0.5, 1)
    assert str(error.value) == "d must be >= 2, got 1"
    with pytest.raises(ValueError, match="^K must be >= 2, got 1"):
        geomsim.symmetric_split(1)
    with pytest.raises(ValueError, match="^directions must be shared or orthogonal, got diagonal"):
        geomsim.symmetric_split(3, "diagonal")
    with pytest.raises(ValueError, match="^alpha must be in"):
        geomsim.theta_star(1.5, 0.5)


def test_theory_functions_are_vectorised_like_ufuncs():
    taus = np.array([0.05, 0.5, 2.0])
    got = geomsim.c_threshold(taus, 3)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == (3,)
    assert got.tolist() == [geomsim.c_threshold(float(t), 3) for t in taus]
    # Broadcasting: a column of taus against a row of dimensions, and lists as arrays.
    grid = geomsim.log_wiener_constant(taus[:, None], [2, 3, 10, 128])
    assert grid.shape == (3, 4)
    assert all(grid[i, j] == geomsim.log_wiener_constant(float(taus[i]), d)
               for i in range(3) for j, d in enumerate([2, 3, 10, 128]))
    alphas = np.linspace(0.6, 0.99, 7)
    loss = geomsim.mu_theta_loss(0.3, alphas, 0.5)
    assert loss.tolist() == [geomsim.mu_theta_loss(0.3, float(a), 0.5) for a in alphas]
    assert geomsim.relaxed_window_end(np.array([2, 3, 4]), 0.5, 10).shape == (3,)
    assert geomsim.theta_star_existence_bound(taus).shape == (3,)
    assert geomsim.exact_crossover(taus, np.array([3])).shape == (3,)


def test_undefined_values_are_nan_in_arrays_and_none_for_scalars():
    got = geomsim.theta_star(np.array([0.6, 0.9]), 0.5)
    assert math.isnan(got[0]) and got[1] == geomsim.theta_star(0.9, 0.5)
    assert geomsim.theta_star(0.6, 0.5) is None
    assert math.isnan(geomsim.spread_star([0.6], 0.5)[0])


def test_scalars_stay_scalars():
    assert isinstance(geomsim.c_threshold(0.5, 3), float)
    assert isinstance(geomsim.c_threshold(np.float64(0.5), np.int64(3)), float)
    zero_d = geomsim.c_threshold(np.array(0.5), 3)  # a 0-d array gives a numpy scalar, as a ufunc does
    assert np.ndim(zero_d) == 0 and zero_d == geomsim.c_threshold(0.5, 3)


def test_vectorised_errors_name_the_parameter():
    with pytest.raises(ValueError, match="^tau must be a finite number > 0, got 0"):
        geomsim.log_wiener_constant(np.array([0.5, 0.0]), 3)
    with pytest.raises(ValueError, match="^d must be a whole number, got 2.5"):
        geomsim.c_threshold(np.array([0.5]), np.array([2.5]))
    with pytest.raises(ValueError, match="^d must be a whole number, got 2.5"):
        geomsim.c_threshold(0.5, 2.5)
    with pytest.raises(TypeError, match="^tau must be a number or an array of numbers, got a str"):
        geomsim.c_threshold("0.5", 3)
    with pytest.raises(ValueError, match="shape mismatch"):
        geomsim.c_threshold(np.zeros(3) + 0.5, np.array([3, 4]))
