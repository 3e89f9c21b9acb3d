#include "numpy_views.hpp"

#include <limits>
#include <string>

#include "geomsim/manifold/point_magnitude.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::python {
namespace {

std::string dtype_name(const py::array& array) { return py::str(array.dtype()).cast<std::string>(); }

py::array as_array(const py::handle& object, const char* argument) {
  if (!py::isinstance<py::array>(object)) {
    refuse_tensor(object, argument, "a numpy array");  // the bindings pass their parameters' names
    // Lists and other sequences become arrays by numpy's own rules.
    try {
      return py::module_::import("numpy").attr("asarray")(object);
    } catch (const py::error_already_set&) {
      throw InvalidArgument(argument, "must be a numpy array or convertible to one, got a " + type_name(object));
    }
  }
  return py::reinterpret_borrow<py::array>(object);
}

}  // namespace

std::string type_name(const py::handle& object) {
  const py::handle type = py::type::handle_of(object);
  const std::string module = py::str(type.attr("__module__"));
  const std::string name = py::str(type.attr("__qualname__"));
  return module == "builtins" ? name : module + "." + name;
}

void refuse_tensor(const py::handle& object, const std::string& name, const std::string& expected) {
  if (py::hasattr(object, "detach") || py::hasattr(object, "requires_grad")) {
    throw py::type_error(name + " must be " + expected + ", got a " + type_name(object) + "; pass " + name + ".detach().cpu().numpy()");
  }
}

PointsArgument points_argument(const py::handle& object, const char* argument) {
  const py::array array = as_array(object, argument);
  const char kind = array.dtype().kind();
  if (kind != 'f' && kind != 'i' && kind != 'u') {
    throw InvalidArgument(argument, "must be an array of real numbers (a float or integer dtype), got dtype " + dtype_name(array));
  }
  if (array.ndim() != 2 || array.shape(0) < 1 || array.shape(1) < 1) {
    throw InvalidArgument(argument, "must be a 2-D array of N points by d coordinates (N, d >= 1), got shape " +
                                        py::str(array.attr("shape")).cast<std::string>());
  }
  PointsArgument out;
  // No copy when it is already float64 and C-contiguous; one conversion otherwise.
  out.array = py::array_t<double, py::array::c_style>::ensure(array);
  if (!out.array) throw py::error_already_set();
  if (!out.view().allFinite()) throw InvalidArgument(argument, "must be finite numbers (found nan or inf)");
  require_moderate_points(out.view(), argument);
  return out;
}

std::vector<int> labels_argument(const py::handle& object, const char* argument, py::ssize_t expected_size) {
  const py::array array = as_array(object, argument);
  const char kind = array.dtype().kind();
  if (kind != 'i' && kind != 'u') {
    throw InvalidArgument(argument, "must be an array of integer ids (an integer dtype), got dtype " + dtype_name(array));
  }
  if (array.ndim() != 1) {
    throw InvalidArgument(argument, "must be a 1-D array, got " + std::to_string(array.ndim()) + " dimensions");
  }
  if (expected_size >= 0 && array.shape(0) != expected_size) {
    throw InvalidArgument(argument, "must have one entry per point (" + std::to_string(expected_size) + "), got " +
                                        std::to_string(array.shape(0)));
  }
  const auto values = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(array);
  if (!values) throw py::error_already_set();
  std::vector<int> out(static_cast<std::size_t>(values.size()));
  for (py::ssize_t i = 0; i < values.size(); ++i) {
    const long long v = values.data()[i];
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
      throw InvalidArgument(argument, "must be ids that fit a 32-bit int, got " + std::to_string(v));
    }
    out[static_cast<std::size_t>(i)] = static_cast<int>(v);
  }
  return out;
}

namespace {
// An N x d array over the d x N column-major matrix, keeping `owner` alive.
py::array transposed_view(const Matrix& points, const py::handle& owner) {
  constexpr auto size = static_cast<py::ssize_t>(sizeof(double));
  return py::array(py::dtype::of<double>(), {static_cast<py::ssize_t>(points.cols()), static_cast<py::ssize_t>(points.rows())},
                   {static_cast<py::ssize_t>(points.rows()) * size, size}, points.data(), owner);
}
}  // namespace

py::array points_view(const Matrix& points, const py::handle& owner) {
  py::array view = transposed_view(points, owner);
  view.attr("setflags")(py::arg("write") = false);
  return view;
}

py::array points_array(Matrix&& points) {
  auto* owned = new Matrix(std::move(points));
  const py::capsule owner(owned, [](void* p) { delete static_cast<Matrix*>(p); });
  return transposed_view(*owned, owner);
}

py::array labels_view(const std::vector<int>& values, const py::handle& owner) {
  py::array view(py::dtype::of<int>(), {static_cast<py::ssize_t>(values.size())}, {static_cast<py::ssize_t>(sizeof(int))},
                 values.data(), owner);
  view.attr("setflags")(py::arg("write") = false);
  return view;
}

}  // namespace geomsim::python
