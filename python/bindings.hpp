#pragma once
// The parts of the geomsim module, each registered on it by module.cpp.
#include <pybind11/pybind11.h>

namespace geomsim::python {

void bind_solve(pybind11::module_& module);     // solve() and its Solution
void bind_theory(pybind11::module_& module);    // the closed forms of theory/
void bind_measures(pybind11::module_& module);  // the measures of metrics/ on numpy embeddings

}  // namespace geomsim::python
