// From a project file to what the engine computes with: the model (robot file, floating base,
// gravity override, payload) and the sampled trajectory (waypoints by joint name, a CSV file or a
// demo). Shared by the CLI and the GUI.
#pragma once
#include "dynscope/model/model.hpp"
#include "dynscope/trajectory/sampled_trajectory.hpp"
#include "project/project_file.hpp"

namespace dyn {

// Loads the project's robot with its fix-ups (dyn::LoadError on failure) and applies applyProjectSettings.
Model loadProjectModel(const ProjectFile& project);
// The project's gravity override and payload on a model loaded elsewhere; ProjectError naming the
// project file for a payload the model cannot carry (unknown link, ...).
Model applyProjectSettings(Model model, const ProjectFile& project);

// The waypoints in the model's q order. Every joint must be given exactly once per waypoint, with
// as many numbers as its nq; ProjectError naming the file, line, waypoint and joint otherwise.
std::vector<Waypoint> projectWaypoints(const ProjectFile& project, const Model& model);
// A waypoint holding configuration q at time t, by joint name (what "add the current pose" stores).
ProjectWaypoint makeProjectWaypoint(const Model& model, double t, const Eigen::VectorXd& q);

// The project's trajectory for the model: the waypoints interpolated and sampled at the project's
// rate, the CSV file as read (readTrajectoryCsv), or the demo. ProjectError when the project has
// no trajectory or it does not fit the model; CSV errors keep their file:line messages.
SampledTrajectory projectTrajectory(const ProjectFile& project, const Model& model);

}  // namespace dyn
