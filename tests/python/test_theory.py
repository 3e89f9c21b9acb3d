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
    with pytest.raises(ValueError) as error:
        geomsim.log_wiener_constant(0.0, 3)
    assert str(error.value) == cli.error("theory", "--tau", "0")
    with pytest.raises(ValueError) as error:
        geomsim.log_wiener_constant(0.5, 1)
    assert str(error.value) == "--d must be >= 2, got 1"
    with pytest.raises(ValueError, match="--K must be >= 2, got 1"):
        geomsim.symmetric_split(1)
    with pytest.raises(ValueError, match="--directions must be shared or orthogonal, got diagonal"):
        geomsim.symmetric_split(3, "diagonal")
    with pytest.raises(ValueError, match="--alpha must be in"):
        geomsim.theta_star(1.5, 0.5)
