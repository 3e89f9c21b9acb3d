// The geomsim Python module: a thin face over the C++ library, like the CLI. numpy arrays go in
// and out (numpy_views.hpp), invalid arguments raise geomsim.InvalidArgument, a ValueError whose
// message is the CLI's in Python's words ("alpha must be in [0, 1], got 1.5": the parameter's
// name where the CLI has its flag), and long computations release the GIL.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>

#include "bindings.hpp"
#include "geomsim/support/errors.hpp"

namespace py = pybind11;

namespace {

// The Python parameter that an argument name of the core stands for. The core names arguments as
// the CLI's flags (--ny, --max-seconds, --reference-subclasses) or, in metrics/, by their role
// (points, subclass_labels); the module's functions take embeddings, subclasses, n_y, max_seconds.
// Every binding's errors pass through here, so no check is written twice in other words.
std::string python_name(const std::string& argument) {
  static const std::map<std::string, std::string> renamed = {
      {"ny", "n_y"}, {"points", "embeddings"}, {"subclass_labels", "subclasses"}};
  const auto found = renamed.find(argument);
  if (found != renamed.end()) return found->second;
  std::string name = argument;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// A requirement's own mentions of flags ("... but --embeddings has 39 rows", "and
// --reference-subclasses go together") in the same words.
std::string python_words(const std::string& text) {
  std::string out;
  std::size_t k = 0;
  while (k < text.size()) {
    const bool flag = text.compare(k, 2, "--") == 0 && k + 2 < text.size() && std::isalpha(static_cast<unsigned char>(text[k + 2])) &&
                      (k == 0 || text[k - 1] == ' ' || text[k - 1] == '(');
    if (!flag) {
      out += text[k++];
      continue;
    }
    std::size_t end = k + 2;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-' || text[end] == '_')) ++end;
    while (end > k + 2 && text[end - 1] == '-') --end;
    out += python_name(text.substr(k + 2, end - k - 2));
    k = end;
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, module) {
#if PYBIND11_VERSION_MAJOR == 2 && PYBIND11_VERSION_MINOR < 12
  // Built with a pybind11 that reads numpy 1's array layout: under numpy 2 its arrays would be
  // read wrongly, without an error (CMakeLists.txt refuses that build; numpy may be upgraded later).
  const std::string numpy_version = py::module_::import("numpy").attr("__version__").cast<std::string>();
  if (std::atoi(numpy_version.c_str()) >= 2) {
    throw py::import_error("geomsim was built with pybind11 " + std::to_string(PYBIND11_VERSION_MAJOR) + "." +
                           std::to_string(PYBIND11_VERSION_MINOR) + ", which cannot read numpy " + numpy_version +
                           "'s arrays: rebuild it with pybind11 >= 2.12 (pip install .), or use numpy 1");
  }
#endif
  module.doc() =
      "geomsim: the geometry of supervised contrastive learning (the C++ library's Python face).\n\n"
      "solve() finds the optimal points of L_spread (seed 004, eq. 39-40); log_wiener_constant, c_threshold,\n"
      "exact_crossover, theta_star and symmetric_split are the theory's closed forms; measure() gives the\n"
      "Section 4 geometry of embeddings, and alignment, uniformity, neural_collapse and\n"
      "nearest_class_mean_agreement the measures of Wang & Isola and Papyan et al.\n"
      "Point sets are N x d numpy arrays (rows are points).";
  module.attr("__version__") = GEOMSIM_VERSION;

  // A handle, not an object: the module keeps the class alive, and a static object would
  // decrement its count after the interpreter has finalised.
  static const py::handle invalid_argument =
      py::exception<geomsim::InvalidArgument>(module, "InvalidArgument", PyExc_ValueError).release();
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const geomsim::InvalidArgument& e) {
      // The CLI prints "geomsim: error: --ARGUMENT REQUIREMENT"; the exception carries the same
      // sentence with Python's names for the flags, and the parameter's name as .argument.
      const std::string argument = python_name(e.argument());
      py::object instance = invalid_argument(argument + " " + python_words(e.requirement()));
      instance.attr("argument") = argument;
      PyErr_SetObject(invalid_argument.ptr(), instance.ptr());
    }
  });

  // geomsim.torch's options are checked by its operators, which report a failure as the
  // argument and the requirement; raised here, it reads as every other binding's error.
  module.def(
      "_raise_invalid_argument",
      [](const std::string& argument, const std::string& requirement) {
        throw geomsim::InvalidArgument(argument, requirement);
      },
      py::arg("argument"), py::arg("requirement"));

  geomsim::python::bind_solve(module);
  geomsim::python::bind_theory(module);
  geomsim::python::bind_measures(module);
}
