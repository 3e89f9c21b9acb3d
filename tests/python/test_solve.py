"""geomsim.solve against `geomsim --json`: the same problem gives the same numbers, bit for bit."""
import csv
import io
import threading
import time

import numpy as np
import pytest

import geomsim

# (K, n_y, d, alpha, tau, seeds, solver): the paper's K = 3 example, Figure 4's K = 2 on S^1 with
# Riemannian L-BFGS, and a mid-size problem with trust regions.
SETTINGS = [
    (3, 8, 3, 0.64, 0.5, "0:4", "auto"),
    (2, 20, 2, 0.7, 0.5, "0:2", "rlbfgs"),
    (4, 6, 5, 0.6, 0.3, "1,5", "rtr"),
]


def cli_args(K, n_y, d, alpha, tau, seeds, solver):
    return ["--K", str(K), "--ny", str(n_y), "--d", str(d), "--alpha", repr(alpha), "--tau", repr(tau),
            "--seeds", seeds, "--solver", solver]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: f"K{s[0]}_ny{s[1]}_d{s[2]}_{s[6]}")
def test_solve_equals_the_cli_json_bit_for_bit(cli, setting):
    K, n_y, d, alpha, tau, seeds, solver = setting
    expected = cli.json(*cli_args(*setting))
    r = geomsim.solve(K, n_y, d, alpha, tau, seeds=seeds, solver=solver)
    result = expected["result"]
    # == on floats parsed from the JSON's 17 significant digits: equal to the last bit.
    assert r.loss == result["loss"]
    assert r.components == result["components"]
    assert r.spread == result["spread"]
    assert r.geometry == result["geometry"]
    assert r.collapsed_simplex_loss == result["collapsed_simplex_loss"]
    assert r.best_seed == result["best_seed"]
    assert r.best_restart == result["best_restart"]
    assert r.starts == result["starts"] == len([run for run in r.runs if not run["polish"]])
    assert r.runs == result["runs"]
    parameters = expected["parameters"]
    assert (r.K, r.n_y, r.d, r.alpha, r.tau, r.seeds) == (parameters["K"], parameters["ny"], parameters["d"],
                                                          parameters["alpha"], parameters["tau"], parameters["seeds"])
    assert r.solver == expected["solver"]["name"]
    assert r.restart_solver == expected["solver"]["restart_solver"]
    assert r.restart_gradient_tolerance == expected["solver"]["restart_gradient_tolerance"]
    assert r.solver_settings == {k: v for k, v in expected["solver"].items()
                                 if k not in ("name", "restart_solver", "restart_gradient_tolerance")}


def test_restarts_equal_the_cli_and_are_counted(cli):
    # K = 2, n_y = 8, d = 2, alpha = 0.81: a restart beats every seed (tests/cli/cli_test.sh)
    for restarts in (0, 12):
        expected = cli.json("--K", "2", "--ny", "8", "--d", "2", "--alpha", "0.81", "--restarts", str(restarts))
        r = geomsim.solve(2, 8, 2, 0.81, 0.5, restarts=restarts)
        assert r.loss == expected["result"]["loss"]
        assert r.runs == expected["result"]["runs"]
        assert r.starts == 5 + restarts and expected["parameters"]["restarts"] == restarts
        starts = [run for run in r.runs if not run["polish"]]
        assert [run["restart"] for run in starts] == [None] * 5 + list(range(restarts))
        # each restart that lowers the loss is followed by the seeds' solver's polish of it
        polished = [run["restart"] for run in r.runs if run["polish"]]
        assert polished == [later["restart"] for later, run in zip(r.runs, r.runs[1:]) if run["polish"]]
        assert (r.best_restart is not None) == (len(polished) > 0)
        assert r.restart_solver == (None if restarts == 0 else "rlbfgs")
        assert r.restart_gradient_tolerance == (None if restarts == 0 else 1e-4)
    assert geomsim.solve(2, 8, 2, 0.81, 0.5).starts == 105  # the default for N d <= 256


def test_points_equal_the_cli_points_file(cli):
    status, stderr, files = cli.run(*cli_args(*SETTINGS[0]), "--points", "{tmp}/points.csv", "--quiet",
                                    files=["points.csv"])
    assert status == 0, stderr
    rows = list(csv.reader(io.StringIO(files["points.csv"])))
    assert rows[0] == ["x1", "x2", "x3", "class"]
    expected = np.array([[float(v) for v in row[:-1]] for row in rows[1:]])
    labels = np.array([int(row[-1]) for row in rows[1:]])
    r = geomsim.solve(*SETTINGS[0][:5], seeds=SETTINGS[0][5], solver=SETTINGS[0][6])
    assert r.points.shape == (24, 3)
    assert np.array_equal(r.points, expected)  # the CSV holds 17 significant digits: exact
    assert np.array_equal(r.labels, labels)


def test_points_are_a_read_only_view_that_keeps_its_solution_alive():
    r = geomsim.solve(2, 4, 3, 0.7, 0.5, seeds=[0])
    points = r.points
    assert points.dtype == np.float64 and points.flags.c_contiguous
    assert not points.flags.writeable
    assert np.shares_memory(points, r.points)  # a view of the solution, not a copy per access
    expected = points.copy()
    del r
    assert np.array_equal(points, expected)  # still valid: the view holds the solution
    with pytest.raises(ValueError):
        points[0, 0] = 1.0
    assert np.allclose(np.linalg.norm(points, axis=1), 1.0, atol=1e-15)


def test_seeds_as_text_range_or_list_are_the_same_solve():
    a = geomsim.solve(3, 4, 3, 0.7, 0.5, seeds="0:2")
    b = geomsim.solve(3, 4, 3, 0.7, 0.5, seeds=range(3))
    c = geomsim.solve(3, 4, 3, 0.7, 0.5, seeds=[0, 1, 2])
    assert a.runs == b.runs == c.runs
    assert np.array_equal(a.points, b.points) and np.array_equal(a.points, c.points)
    assert geomsim.solve(3, 4, 3, 0.7, 0.5, seeds=2).seeds == [2]


@pytest.mark.parametrize("kwargs, flags", [
    ({"alpha": 1.5}, ["--alpha", "1.5"]),
    ({"tau": 0.0}, ["--tau", "0"]),
    ({"tau": float("nan")}, ["--tau", "nan"]),
    ({"K": 1}, ["--K", "1"]),
    ({"n_y": 0}, ["--ny", "0"]),
    ({"d": 1}, ["--d", "1"]),
    ({"solver": "newton"}, ["--solver", "newton"]),
    ({"max_seconds": -1.0}, ["--max-seconds", "-1"]),
    ({"cluster_tol": 0.0}, ["--cluster-tol", "0"]),
    ({"restarts": -1}, ["--restarts", "-1"]),
    ({"seeds": "3:1"}, ["--seeds", "3:1"]),
    ({"seeds": [-1]}, ["--seeds=-1"]),
])
def test_errors_are_value_errors_with_the_cli_message_in_python_words(cli, kwargs, flags):
    with pytest.raises(ValueError) as error:
        geomsim.solve(**kwargs)
    assert isinstance(error.value, geomsim.InvalidArgument)
    # The CLI's sentence, with the Python parameter where the CLI names its flag.
    parameter = next(iter(kwargs))
    flag = flags[0].split("=")[0]
    assert str(error.value) == cli.error(*flags).replace(flag, parameter, 1)
    assert error.value.argument == parameter and "--" not in str(error.value)


def test_seeds_of_the_wrong_type_are_refused_by_name():
    for seeds in ([0.5], [True], object()):
        with pytest.raises(ValueError, match="^seeds must be integers >= 0"):
            geomsim.solve(seeds=seeds)


def test_solve_releases_the_gil():
    # This thread wakes every millisecond while another one solves. Waking needs the GIL, so if
    # the solve held it, this thread's timeline would have a gap as long as the solve itself;
    # released, its gaps are the scheduler's (milliseconds, tens under heavy load).
    # The solve must be long against those gaps: 1000 seeds, about 0.25 s (20 seeds took 17 ms).
    span = {}

    def work():
        span["start"] = time.perf_counter()
        span["solution"] = geomsim.solve(3, 8, 3, 0.64, 0.5, seeds="0:999")
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    stamps = []
    worker.start()
    while worker.is_alive():
        stamps.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    timeline = [span["start"]] + [t for t in stamps if span["start"] < t < span["end"]] + [span["end"]]
    longest_gap = max(b - a for a, b in zip(timeline, timeline[1:]))
    duration = span["end"] - span["start"]
    assert span["solution"].loss < 0
    assert longest_gap < 0.25 * duration, f"this thread stood still {longest_gap:.3f} s of a {duration:.3f} s solve"
