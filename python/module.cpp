// The geomsim Python module: a thin face over the C++ library, like the CLI. numpy arrays go in
// and out (numpy_views.hpp), invalid arguments raise geomsim.InvalidArgument, a ValueError whose
// message is the CLI's ("--alpha must be in [0, 1], got 1.5"), and long computations release
// the GIL.
#include <pybind11/pybind11.h>

#include <string>

#include "bindings.hpp"
#include "geomsim/support/errors.hpp"

namespace py = pybind11;

PYBIND11_MODULE(geomsim, module) {
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
      // sentence, and the argument's name as .argument.
      py::object instance = invalid_argument("--" + e.argument() + " " + e.requirement());
      instance.attr("argument") = e.argument();
      PyErr_SetObject(invalid_argument.ptr(), instance.ptr());
    }
  });

  geomsim::python::bind_solve(module);
  geomsim::python::bind_theory(module);
  geomsim::python::bind_measures(module);
}
