// The theory's closed forms (theory/wiener_constant, two_class_theory, symmetric_split), as
// `geomsim theory` evaluates them. An undefined value is None, as it is null in the CLI's JSON.
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/theory/symmetric_split.hpp"
#include "geomsim/theory/two_class_theory.hpp"
#include "geomsim/theory/wiener_constant.hpp"
#include "numpy_views.hpp"

namespace geomsim::python {
namespace {

SplitDirections directions_argument(const std::string& name) {
  if (name == to_string(SplitDirections::shared)) return SplitDirections::shared;
  if (name == to_string(SplitDirections::orthogonal)) return SplitDirections::orthogonal;
  throw InvalidArgument("directions", "must be shared or orthogonal, got " + name);
}

}  // namespace

void bind_theory(py::module_& module) {
  module.def("log_wiener_constant", &log_wiener_constant, py::arg("tau"), py::arg("d"),
             "log W_{1/(2 tau)}(S^{d-1}) (seed 004, eq. 21) by its closed form, in log space: W = E exp(-|u-v|^2/(2 tau))\n"
             "for independent uniform u, v. Needs d >= 2 and tau >= 1/700.");
  module.def("log_wiener_constant_quadrature", &log_wiener_constant_quadrature, py::arg("tau"), py::arg("d"),
             "log W by tanh-sinh quadrature of eq. (21): the independent check of log_wiener_constant.");
  module.def("c_threshold", &c_threshold, py::arg("tau"), py::arg("d"),
             "Theorem 2's c(tau, d) for K = 2, or None where its square root's argument is negative.");
  module.def("exact_crossover", &exact_crossover, py::arg("tau"), py::arg("d"),
             "The alpha at which L(mu_theta*) = L(sigma) for K = 2 (the exact end of Theorem 2's window), or None.");
  module.def("theta_star", &theta_star, py::arg("alpha"), py::arg("tau"),
             "theta* (radians) for K = 2 when 2/3 < alpha < theta_star_existence_bound(tau), else None.");
  module.def("spread_star", &spread_star, py::arg("alpha"), py::arg("tau"), "Corollary 1's spread sin(theta*), or None.");
  module.def("theta_star_existence_bound", &theta_star_existence_bound, py::arg("tau"),
             "(3 e^{2/tau} + 1)/(3 e^{2/tau} + 3): theta* exists only below it.");
  module.def("mu_theta_loss", &mu_theta_loss, py::arg("theta"), py::arg("alpha"), py::arg("tau"),
             "L(mu_theta, alpha) for K = 2.");
  module.def("relaxed_window_end", &relaxed_window_end, py::arg("K"), py::arg("tau"), py::arg("d"),
             "c_K(tau, d), the paper's relaxation of the window's end generalised to K classes (c_threshold at K = 2).");

  py::class_<SymmetricSplit>(module, "SymmetricSplit",
                             "The symmetric split of K classes (theory/general-k-symmetric-split.md): each class two atoms\n"
                             "at cos(theta) v_y +- sin(theta) w_y, with w_y shared or mutually orthogonal.")
      .def_property_readonly("K", &SymmetricSplit::num_classes)
      .def_property_readonly("directions", [](const SymmetricSplit& s) { return std::string(to_string(s.directions())); })
      .def("loss", &SymmetricSplit::loss, py::arg("theta"), py::arg("alpha"), py::arg("tau"))
      .def("threshold", &SymmetricSplit::threshold, "K/(2K-1)")
      .def("existence_bound", &SymmetricSplit::existence_bound, py::arg("tau"))
      .def("theta_star", &SymmetricSplit::theta_star, py::arg("alpha"), py::arg("tau"))
      .def("spread", &SymmetricSplit::spread, py::arg("alpha"), py::arg("tau"))
      .def("min_loss", &SymmetricSplit::min_loss, py::arg("alpha"), py::arg("tau"))
      .def("exact_crossover", &SymmetricSplit::exact_crossover, py::arg("tau"), py::arg("d"))
      .def(
          "points", [](const SymmetricSplit& s, int n_y, int d, double theta) { return points_array(s.points(n_y, d, theta)); },
          py::arg("n_y"), py::arg("d"), py::arg("theta"), "the family's K n_y points as an N x d array, class by class")
      .def("__repr__", [](const SymmetricSplit& s) {
        return "<geomsim.SymmetricSplit K=" + std::to_string(s.num_classes()) + " directions=" + to_string(s.directions()) + ">";
      });
  module.def(
      "symmetric_split",
      [](int K, const std::string& directions) { return SymmetricSplit(K, directions_argument(directions)); },
      py::arg("K"), py::arg("directions") = "shared",
      "The symmetric split of K classes; directions 'shared' (d >= K; Theorem 2's mu_theta at K = 2) or 'orthogonal'.");
  module.def("min_dimension", [](int K, const std::string& directions) { return min_dimension(K, directions_argument(directions)); },
             py::arg("K"), py::arg("directions") = "shared");
}

}  // namespace geomsim::python
