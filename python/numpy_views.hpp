#pragma once
// numpy arrays in and out of the core, without copies where Eigen allows.
//
// The core's point sets are d x N column-major (sphere.hpp), which is exactly the memory of a
// C-contiguous N x d numpy array of float64: such an array is read in place, and results go out
// as N x d views of the core's own matrices. Any other real array (float32, int, strided,
// Fortran-ordered) is converted once to that layout; anything else is refused with the
// argument's name, as the CLI would.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim::python {

namespace py = pybind11;

// An N x d array read as the core's d x N point set: view() maps the memory of `array` (the
// caller's own array when it was float64 and C-contiguous, else its one converted copy).
struct PointsArgument {
  py::array_t<double, py::array::c_style> array;
  Eigen::Map<const Matrix> view() const { return {array.data(), array.shape(1), array.shape(0)}; }
};

// "torch.Tensor", "list": an object's type by its module (but builtins) and name.
std::string type_name(const py::handle& object);

// Throws TypeError when `object` is a tensor (torch's, or anything with .detach or
// .requires_grad): "NAME must be EXPECTED, got a torch.Tensor; pass NAME.detach().cpu().numpy()".
// numpy cannot read one that needs a gradient or lives on a GPU, and the copy it would take
// otherwise should be the caller's decision.
void refuse_tensor(const py::handle& object, const std::string& name, const std::string& expected);

// Throws InvalidArgument(argument) unless `object` is a 2-D real array (float or integer
// dtype) of finite numbers with at least one row and one column.
PointsArgument points_argument(const py::handle& object, const char* argument);

// A 1-D integer array (any integer dtype) as class ids; with `expected_size` >= 0 its length
// must be that. Throws InvalidArgument(argument) otherwise, or when a value does not fit an int.
std::vector<int> labels_argument(const py::handle& object, const char* argument, py::ssize_t expected_size = -1);

// The d x N matrix as a read-only N x d numpy view that keeps `owner` alive.
py::array points_view(const Matrix& points, const py::handle& owner);

// The matrix moved into a writable N x d array that owns it (no copy of the entries).
py::array points_array(Matrix&& points);

// A read-only 1-D int32 view of `values` that keeps `owner` alive.
py::array labels_view(const std::vector<int>& values, const py::handle& owner);

}  // namespace geomsim::python
