// What the bindings share: the Python-side Model (the engine's immutable Model and where it came
// from) and Data (the engine's workspace, tied to the model it was made for).
#pragma once
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dynscope/formulations/registry.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "dynscope/model/model.hpp"

namespace pyd {
namespace py = pybind11;

// dynscope.Model: immutable, shared by every Data and workspace made from it.
struct PyModel {
  std::shared_ptr<const dyn::Model> ptr;
  std::string path;    // the file it was loaded from ("" when loaded from a string)
  std::string source;  // loaded from a string: the text (the Viewer writes it to a file)
  std::string format;  // "urdf", "mjcf" or "dh"
  bool floatingBaseRequested = false;
  std::vector<std::string> fixups;  // applied, by name
  std::vector<std::string> qNames, vNames;
  // The registry's formulations bound to this model (each holds its own workspace), by
  // "problem/name", made on first use by inverse_dynamics, mass_matrix and forward_dynamics.
  std::shared_ptr<std::map<std::string, dyn::BoundFormulation<double>>> bound =
      std::make_shared<std::map<std::string, dyn::BoundFormulation<double>>>();
  // The mimic reduction (bind_loops.cpp), made on first use; gravity does not change it.
  mutable std::shared_ptr<const dyn::MimicCoupling> mimic;
  const dyn::Model& operator*() const { return *ptr; }
  const dyn::Model* operator->() const { return ptr.get(); }
};

// dynscope.Data: one workspace per thread, as in Pinocchio.
struct PyData {
  std::shared_ptr<const dyn::Model> model;
  dyn::Data data;
  explicit PyData(const PyModel& m) : model(m.ptr), data(*m.ptr) {}
};

// Data made for another model: refused (its sizes would not fit).
void requireSameModel(const PyModel& model, const PyData& data);

// The binding groups, one file each (bind_*.cpp).
void bindErrors(py::module_& m);
void bindModel(py::module_& m);
void bindAlgorithms(py::module_& m);
void bindBatch(py::module_& m);
void bindFormulations(py::module_& m);
void bindIk(py::module_& m);
void bindTrace(py::module_& m);
void bindTrajectory(py::module_& m);
void bindSimulation(py::module_& m);
void bindLoops(py::module_& m);  // and the mimic reduction

}  // namespace pyd

namespace pyd {
// A frame given by name or index (bind_model.cpp): ValueError / IndexError naming the valid ones.
int frameIndexArg(const PyModel& model, const py::object& frame);
// A Plücker transform frame_X_A as the 4x4 pose of the frame in A.
Eigen::Matrix4d pose4(const dyn::Transform<double>& X);
}  // namespace pyd
