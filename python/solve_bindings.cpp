// solve(): the Appendix H problem through experiments/spread_problem, as `geomsim --K ...` runs
// it, with the Solution's fields named as in the CLI's --json "result".
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"
#include "numpy_views.hpp"

namespace geomsim::python {
namespace {

// seeds as the CLI takes them ("0:4", "1,5,7") or as Python integers (range(5), [1, 5, 7]);
// either way parse_seed_list validates them, with the CLI's messages.
std::vector<std::uint64_t> seeds_argument(const py::handle& seeds) {
  if (py::isinstance<py::str>(seeds)) return parse_seed_list(seeds.cast<std::string>(), "seeds");
  if (py::isinstance<py::int_>(seeds) && !py::isinstance<py::bool_>(seeds)) {
    return parse_seed_list(py::str(seeds).cast<std::string>(), "seeds");
  }
  if (!py::isinstance<py::iterable>(seeds)) {
    throw InvalidArgument("seeds", "must be integers >= 0 (a list or range) or a list like \"0:4\"");
  }
  std::string text;
  for (const py::handle seed : seeds) {
    if (!py::isinstance<py::int_>(seed) || py::isinstance<py::bool_>(seed)) {
      throw InvalidArgument("seeds", "must be integers >= 0 (a list or range) or a list like \"0:4\"");
    }
    text += (text.empty() ? "" : ",") + py::str(seed).cast<std::string>();
  }
  return parse_seed_list(text, "seeds");
}

py::dict run_dict(const MultiStartRun& run) {
  const SolveSummary& s = run.summary;
  py::dict out;
  out["loss"] = s.loss;
  out["iterations"] = s.iterations;
  out["evaluations"] = s.evaluations;
  out["constraint_violation"] = s.constraint_violation;
  out["stationarity"] = s.stationarity;
  out["restarts"] = s.restarts;
  out["status"] = to_string(s.status);
  out["converged"] = s.converged();
  out["message"] = s.message;
  out["seed"] = run.seed;
  out["restart"] = run.restart >= 0 ? py::object(py::int_(run.restart)) : py::object(py::none());
  out["polish"] = run.polish;
  return out;
}

}  // namespace

void bind_solve(py::module_& module) {
  py::class_<SpreadSolution>(module, "Solution",
                             "The best of several seeded solves of L_spread: its points, loss, spread, geometry and runs.")
      .def_property_readonly("K", [](const SpreadSolution& s) { return s.problem.K; })
      .def_property_readonly("n_y", [](const SpreadSolution& s) { return s.problem.ny; })
      .def_property_readonly("d", [](const SpreadSolution& s) { return s.problem.d; }, "the ambient dimension used")
      .def_property_readonly("alpha", [](const SpreadSolution& s) { return s.problem.alpha; })
      .def_property_readonly("tau", [](const SpreadSolution& s) { return s.problem.tau; })
      .def_property_readonly("seeds", [](const SpreadSolution& s) { return s.settings.seeds; })
      .def_property_readonly("solver", [](const SpreadSolution& s) { return s.solver; }, "the solver that ran (auto resolved)")
      .def_property_readonly("solver_settings",
                             [](const SpreadSolution& s) {
                               py::dict out;
                               for (const auto& [key, value] : s.solver_settings) out[key.c_str()] = value;
                               return out;
                             })
      .def_property_readonly(
          "points", [](const py::object& self) { return points_view(self.cast<const SpreadSolution&>().points.points, self); },
          "N x d read-only view of the best run's points (rows, unit vectors), class by class")
      .def_property_readonly(
          "labels", [](const py::object& self) { return labels_view(self.cast<const SpreadSolution&>().points.labels, self); },
          "the class of each point, 0..K-1")
      .def_property_readonly("loss", [](const SpreadSolution& s) { return s.loss; }, "L_spread at the best run")
      .def_property_readonly("components",
                             [](const SpreadSolution& s) {
                               py::dict out;
                               out["different_class"] = s.components.different_class;
                               out["same_class"] = s.components.same_class;
                               out["alignment"] = s.components.alignment;
                               return out;
                             })
      .def_property_readonly("spread",
                             [](const SpreadSolution& s) {
                               py::dict out;
                               out["mean"] = s.spread.mean;
                               out["per_class"] = s.spread.per_class;
                               return out;
                             },
                             "s(y) per class and its mean over classes")
      .def_property_readonly("geometry",
                             [](const SpreadSolution& s) {
                               py::list classes;
                               for (const auto& c : s.geometry.classes) {
                                 py::dict entry;
                                 entry["class"] = c.label;
                                 entry["atom_sizes"] = c.atom_sizes;
                                 classes.append(entry);
                               }
                               py::dict out;
                               out["kind"] = to_string(s.geometry.kind);
                               out["description"] = s.geometry.describe();
                               out["classes"] = classes;
                               return out;
                             },
                             "collapsed, atoms or spread, with the atoms' sizes per class")
      .def_property_readonly("collapsed_simplex_loss",
                             [](const SpreadSolution& s) { return optional_float(s.collapsed_simplex_loss); },
                             "L(delta_v), or None when K > d + 1")
      .def_property_readonly("best_seed", [](const SpreadSolution& s) { return s.runs[s.best_run].seed; })
      .def_property_readonly("best_restart",
                             [](const SpreadSolution& s) {
                               const int r = s.runs[s.best_run].restart;
                               return r >= 0 ? py::object(py::int_(r)) : py::object(py::none());
                             },
                             "the number of the restart that won, or None when a seed's start won")
      .def_property_readonly("starts", [](const SpreadSolution& s) { return count_starts(s.runs); },
                             "how many starts the solve used: the seeds and the restarts")
      .def_property_readonly("restart_solver",
                             [](const SpreadSolution& s) {
                               return s.restart_solver.empty() ? py::object(py::none()) : py::object(py::str(s.restart_solver));
                             },
                             "the restarts' solver, or None without restarts")
      .def_property_readonly("restart_gradient_tolerance",
                             [](const SpreadSolution& s) {
                               return s.restart_gradient_tolerance > 0.0 ? py::object(py::float_(s.restart_gradient_tolerance))
                                                                         : py::object(py::none());
                             },
                             "where the restarts stop when they screen (RLBFGS: the first-order check, 1e-4; each "
                             "restart that lowers the loss is then finished by the seeds' solver), or None")
      .def_property_readonly("runs",
                             [](const SpreadSolution& s) {
                               py::list out;
                               for (const auto& run : s.runs) out.append(run_dict(run));
                               return out;
                             },
                             "one dict per start (the seeds, then the restarts): loss, iterations, evaluations, "
                             "constraint_violation, stationarity, restarts, status, converged, message, seed, restart, polish (the seeds'\n"
                             "solver run from a winning restart's end, last)")
      .def_property_readonly("seconds", [](const SpreadSolution& s) { return s.seconds; })
      .def("__repr__", [](const SpreadSolution& s) {
        return "<geomsim.Solution K=" + std::to_string(s.problem.K) + " n_y=" + std::to_string(s.problem.ny) +
               " d=" + std::to_string(s.problem.d) + " loss=" + format_number(s.loss) + " (" + s.geometry.describe() + ")>";
      });

  module.def(
      "solve",
      [](int K, int n_y, const std::optional<int>& d, double alpha, double tau, const py::object& seeds,
         const std::string& solver, double max_seconds, double cluster_tol, const std::optional<int>& restarts) {
        SpreadProblem problem;
        problem.K = K;
        problem.ny = n_y;
        problem.d = d.value_or(0);
        problem.alpha = alpha;
        problem.tau = tau;
        SolveSettings settings;
        settings.seeds = seeds_argument(seeds);
        settings.solver = solver;
        settings.max_seconds = max_seconds;
        settings.cluster_tolerance = cluster_tol;
        if (restarts) {
          require_at_least("restarts", *restarts, 0);
          settings.restarts = *restarts;
        }
        const py::gil_scoped_release release;
        return solve_spread_problem(problem, settings);
      },
      py::arg("K") = 3, py::arg("n_y") = 8, py::arg("d") = py::none(), py::arg("alpha") = 0.64, py::arg("tau") = 0.5,
      py::arg("seeds") = "0:4", py::arg("solver") = "auto", py::arg("max_seconds") = 0.0,
      py::arg("cluster_tol") = kDefaultAtomTolerance, py::arg("restarts") = py::none(),
      ("Minimises L_spread (seed 004, eq. 39-40) for K classes of n_y points on S^{d-1} (d defaults to max(K, 2)) from\n"
       "one random start per seed, and returns the best run as a Solution. The same as `geomsim --K K --ny n_y --d d\n"
       "--alpha alpha --tau tau --seeds seeds --solver solver --restarts restarts`, bit for bit.\nsolver: " +
       solver_name_list(" or ") + ". restarts: None for the CLI's default.\n"
       "Releases the GIL while it solves.")
          .c_str());
}

}  // namespace geomsim::python
