#include "project/project_setup.hpp"

#include <stdexcept>
#include <unordered_map>

#include "dynscope/algorithms/check.hpp"
#include "dynscope/io/model_builder.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "dynscope/trajectory/payload.hpp"

namespace dyn {
namespace {

[[noreturn]] void fail(const ProjectFile& p, int line, const std::string& message) {
  throw ProjectError(p.file + (line > 0 ? ":" + std::to_string(line) : "") + ": " + message);
}

}  // namespace

Model loadProjectModel(const ProjectFile& project) {
  return applyProjectSettings(
      loadModel(project.robotPath, BuildOptions{.floatingBase = project.floatingBase, .fixups = project.fixups}),
      project);
}

Model applyProjectSettings(Model model, const ProjectFile& project) {
  if (project.gravity) model.gravity.v = *project.gravity;
  if (project.payload) {
    try {
      model = withPayload(model, *project.payload);
    } catch (const std::invalid_argument& e) {
      fail(project, 0, e.what());
    }
  }
  return model;
}

std::vector<Waypoint> projectWaypoints(const ProjectFile& project, const Model& model) {
  std::vector<Waypoint> out;
  const auto& points = project.trajectory.waypoints;
  std::unordered_map<std::string, int> bodyOf;  // by name: Model::jointIndex scans (waypoints x joints x N)
  for (int i = 1; i <= model.N; ++i) bodyOf.emplace(model.jointNames[i], i);
  for (size_t k = 0; k < points.size(); ++k) {
    const ProjectWaypoint& w = points[k];
    const std::string at = "waypoint " + std::to_string(k + 1) + ": ";
    Waypoint wp{w.t, model.neutral()};
    for (const auto& [name, values] : w.joints) {
      const auto found = bodyOf.find(name);
      const int i = found == bodyOf.end() ? -1 : found->second;
      if (i < 0) fail(project, w.line, at + "model '" + model.name + "' has no joint '" + name + "'");
      const JointModel<double>& J = model.joints[i];
      if (int(values.size()) != J.nq)
        fail(project, w.line,
             at + "joint '" + name + "' needs " + std::to_string(J.nq) + " number" + (J.nq > 1 ? "s" : "") +
                 " (its q entries), got " + std::to_string(values.size()));
      for (int c = 0; c < J.nq; ++c) wp.q[J.idx_q + c] = values[c];
    }
    for (int i = 1; i <= model.N; ++i)
      if (!w.joints.count(model.jointNames[i]))
        fail(project, w.line, at + "no value for joint '" + model.jointNames[i] + "'");
    out.push_back(std::move(wp));
  }
  return out;
}

ProjectWaypoint makeProjectWaypoint(const Model& model, double t, const Eigen::VectorXd& q) {
  checkSize("q", q.size(), model.nq);
  ProjectWaypoint w;
  w.t = t;
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<double>& J = model.joints[i];
    w.joints[model.jointNames[i]] = std::vector<double>(q.data() + J.idx_q, q.data() + J.idx_q + J.nq);
  }
  return w;
}

SampledTrajectory projectTrajectory(const ProjectFile& project, const Model& model) {
  const ProjectTrajectory& t = project.trajectory;
  try {
    switch (t.source) {
      case TrajectorySource::None:
        break;
      case TrajectorySource::Waypoints:
        return WaypointTrajectory(model, projectWaypoints(project, model), t.interpolation, t.trapezoidFraction)
            .sample(t.sampleRate);
      case TrajectorySource::Csv:
        return readTrajectoryCsv(model, t.csvPath).trajectory;
      case TrajectorySource::Demo:
        if (const auto demo = demoTrajectoryByName(t.demo)) return demoTrajectory(model, *demo, t.sampleRate);
        fail(project, 0, "trajectory: '" + t.demo + "' is not a demo (saha-stanford, saha-planar3)");
    }
  } catch (const std::invalid_argument& e) {  // the engine's checks: name the project
    fail(project, 0, std::string("trajectory: ") + e.what());
  }
  fail(project, 0, "the project has no trajectory (trajectory.source is none)");
}

}  // namespace dyn
