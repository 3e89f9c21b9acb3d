// The theory's closed forms (theory/wiener_constant, two_class_theory, symmetric_split), as
// `geomsim theory` evaluates them. An undefined value is None, as it is null in the CLI's JSON.
// The functions of numbers are vectorised like numpy's ufuncs: numpy arrays (or lists) broadcast
// against each other and give a float64 array, NaN where the value is undefined; scalars give a
// float, or None.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "bindings.hpp"
#include "numpy_views.hpp"
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

// One element as the core's parameter type: a double as it is, an int only when whole.
template <class T>
T element(double value, const char* name);
template <>
double element<double>(double value, const char*) {
  return value;
}
template <>
int element<int>(double value, const char* name) {
  if (!(value == std::floor(value)) || std::abs(value) > static_cast<double>(std::numeric_limits<int>::max())) {
    throw InvalidArgument(name, "must be a whole number, got " + format_number(value));
  }
  return static_cast<int>(value);
}

py::object scalar_result(double value) { return py::float_(value); }
py::object scalar_result(const std::optional<double>& value) { return value ? py::object(py::float_(*value)) : py::object(py::none()); }
double array_result(double value) { return value; }
double array_result(const std::optional<double>& value) { return value ? *value : std::numeric_limits<double>::quiet_NaN(); }

// A Python number (bool, int, float, or numpy's scalar types), not an array or a sequence.
bool is_number(const py::handle& object) {
  return py::isinstance<py::int_>(object) || py::isinstance<py::float_>(object) ||
         py::isinstance(object, py::module_::import("numpy").attr("number"));
}

// f over its arguments, broadcast like a numpy ufunc (see the file's comment).
template <class R, class... A, std::size_t... I>
py::object broadcast_call(R (*f)(A...), const std::array<py::object, sizeof...(A)>& args,
                          const std::array<const char*, sizeof...(A)>& names, std::index_sequence<I...>) {
  bool scalars = true;
  for (const auto& a : args) scalars = scalars && is_number(a);
  if (scalars) return scalar_result(f(element<A>(args[I].template cast<double>(), names[I])...));
  const py::module_ numpy = py::module_::import("numpy");
  std::array<py::object, sizeof...(A)> arrays;
  for (std::size_t k = 0; k < args.size(); ++k) {
    refuse_tensor(args[k], names[k], "a number or a numpy array");
    const py::object array = numpy.attr("asarray")(args[k]);
    const char kind = array.attr("dtype").attr("kind").cast<std::string>()[0];
    if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') {
      throw py::type_error(std::string(names[k]) + " must be a number or an array of numbers, got a " + type_name(args[k]) +
                           " of dtype " + py::str(array.attr("dtype")).cast<std::string>());
    }
    arrays[k] = array;
  }
  const py::tuple broadcast = numpy.attr("broadcast_arrays")(*py::make_tuple(arrays[I]...));
  const std::array<py::array_t<double, py::array::c_style | py::array::forcecast>, sizeof...(A)> flat = {
      py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(numpy.attr("ascontiguousarray")(broadcast[I]))...};
  py::array_t<double> out(broadcast[0].attr("shape").cast<std::vector<py::ssize_t>>());
  double* values = out.mutable_data();
  for (py::ssize_t k = 0; k < out.size(); ++k) values[k] = array_result(f(element<A>(flat[I].data()[k], names[I])...));
  return out.ndim() == 0 ? py::object(out[py::tuple()]) : py::object(std::move(out));
}

template <class R, class... A, class... Names>
void def_elementwise(py::module_& module, const char* name, R (*f)(A...), const char* doc, Names... names) {
  static_assert(sizeof...(A) == sizeof...(Names), "one name per parameter");
  const std::array<const char*, sizeof...(A)> parameter_names = {names...};
  module.def(
      name,
      [f, parameter_names](std::conditional_t<true, py::object, A>... args) {
        return broadcast_call(f, std::array<py::object, sizeof...(A)>{std::move(args)...}, parameter_names,
                              std::index_sequence_for<A...>{});
      },
      py::arg(names)..., doc);
}

}  // namespace

void bind_theory(py::module_& module) {
  def_elementwise(module, "log_wiener_constant", &log_wiener_constant,
                  "log W_{1/(2 tau)}(S^{d-1}) (seed 004, eq. 21) by its closed form, in log space: W = E exp(-|u-v|^2/(2 tau))\n"
                  "for independent uniform u, v. Needs d >= 2 and tau >= 1/700.",
                  "tau", "d");
  def_elementwise(module, "log_wiener_constant_quadrature", &log_wiener_constant_quadrature,
                  "log W by tanh-sinh quadrature of eq. (21): the independent check of log_wiener_constant.", "tau", "d");
  def_elementwise(module, "c_threshold", &c_threshold,
                  "Theorem 2's c(tau, d) for K = 2, or None where its square root's argument is negative (NaN in an array).",
                  "tau", "d");
  def_elementwise(module, "exact_crossover", &exact_crossover,
                  "The alpha at which L(mu_theta*) = L(sigma) for K = 2 (the exact end of Theorem 2's window), or None\n"
                  "(NaN in an array).",
                  "tau", "d");
  def_elementwise(module, "theta_star", &theta_star,
                  "theta* (radians) for K = 2 when 2/3 < alpha < theta_star_existence_bound(tau), else None (NaN in an array).",
                  "alpha", "tau");
  def_elementwise(module, "spread_star", &spread_star, "Corollary 1's spread sin(theta*), or None (NaN in an array).", "alpha",
                  "tau");
  def_elementwise(module, "theta_star_existence_bound", &theta_star_existence_bound,
                  "(3 e^{2/tau} + 1)/(3 e^{2/tau} + 3): theta* exists only below it.", "tau");
  def_elementwise(module, "mu_theta_loss", &mu_theta_loss, "L(mu_theta, alpha) for K = 2.", "theta", "alpha", "tau");
  def_elementwise(module, "relaxed_window_end", &relaxed_window_end,
                  "c_K(tau, d), the paper's relaxation of the window's end generalised to K classes (c_threshold at K = 2),\n"
                  "or None (NaN in an array).",
                  "K", "tau", "d");
  // Each takes numbers or numpy arrays (broadcast against each other, like numpy's ufuncs) and
  // gives a float (None where undefined) or a float64 array (NaN where undefined).

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
