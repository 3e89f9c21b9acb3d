#pragma once
// The parts of the geomsim module, each registered on it by module.cpp.
#include <pybind11/pybind11.h>

#include <optional>

namespace geomsim::python {

void bind_solve(pybind11::module_& module);     // solve() and its Solution
void bind_theory(pybind11::module_& module);    // the closed forms of theory/
void bind_measures(pybind11::module_& module);  // the measures of metrics/ on numpy embeddings

// A value, or None where there is none.
inline pybind11::object optional_float(const std::optional<double>& value) {
  return value ? pybind11::object(pybind11::float_(*value)) : pybind11::none();
}

}  // namespace geomsim::python
