// dynscope.Trajectory (bind_trajectory.cpp), shared with the simulation bindings (a reference for PD
// and computed-torque tracking; a simulation's record as a trajectory).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "dynscope/trajectory/sampled_trajectory.hpp"
#include "py_types.hpp"

namespace pyd {

// A sampled trajectory and the model it was made for (its sizes and names).
struct PyTrajectory {
  std::shared_ptr<const dyn::Model> model;
  std::vector<std::string> qNames, vNames;
  dyn::SampledTrajectory traj;  // t (n), q (nq x n), qd, qdd (nv x n)
  bool velocitiesFromSpline = false, accelerationsFromSpline = false;
  std::vector<std::string> ignoredColumns;  // read from a CSV: the columns that were not used
};

// A trajectory made for `model` (the same model object, or one with the same nq and nv): else a
// ValueError naming the argument and the sizes.
void requireFits(const PyModel& model, const PyTrajectory& trajectory, const char* name);

// A k x n engine matrix (one column per sample) as an n x k numpy array (one row per sample).
py::array_t<double> samplesOut(const Eigen::MatrixXd& m);

}  // namespace pyd
