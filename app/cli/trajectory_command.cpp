// Trajectories, CSV out: id / fd over a CSV file or a project's trajectory (id runs the engine's
// parallel batch inverse dynamics, with --decompose the lecture decomposition), and the
// `trajectory` command that samples a project's waypoints or a demo.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "dynscope/trajectory/trajectory_dynamics.hpp"
#include "messages.hpp"
#include "project/project_setup.hpp"

namespace cli {
namespace {

// "\rdynscope-cli: 45% (4500/10000 samples)" on stderr, redrawn when the percentage changes.
class Progress {
 public:
  Progress(int total, bool enabled) : total_(total), enabled_(enabled) {}
  void update(int done) {
    if (!enabled_) return;
    const int percent = total_ > 0 ? int(100.0 * done / total_) : 100;
    if (percent == shown_) return;
    shown_ = percent;
    std::fprintf(stderr, "\rdynscope-cli: %d%% (%d/%d samples)", percent, done, total_);
    std::fflush(stderr);
  }
  void finish() {
    update(total_);
    if (enabled_) std::fputc('\n', stderr);
  }

 private:
  int total_;
  bool enabled_;
  int shown_ = -1;
};

bool progressWanted(const Session& s, int samples) {
  return s.options.progress || (samples > 2000 && isatty(fileno(stderr)));
}

// Writes the CSV to --out (atomically: a failed run leaves the old file) or stdout.
void writeCsvOutput(const Session& s, const std::vector<std::string>& header, const Eigen::MatrixXd& values) {
  cli::writeOutput(s.options.out, [&](std::ostream& out) { dyn::writeCsv(out, header, values); });
}

// The CSV's trajectory (with its notes and warnings), or the project's.
dyn::TrajectoryCsv inputTrajectory(const Session& s, bool inverse) {
  if (!s.options.trajectory) {
    dyn::TrajectoryCsv fromProject;
    fromProject.trajectory = dyn::projectTrajectory(*s.project, s.model);
    return fromProject;
  }
  dyn::TrajectoryCsv csv =
      dyn::readTrajectoryCsv(s.model, *s.options.trajectory, {.accelerations = inverse, .torques = !inverse});
  const std::string& file = *s.options.trajectory;
  if (!csv.ignoredColumns.empty())
    std::fprintf(stderr, "dynscope-cli: warning: %s: ignoring columns %s\n", file.c_str(),
                 joinNames(csv.ignoredColumns).c_str());
  if (csv.velocitiesFromSpline)
    note(file + " has no qd_ columns: velocities" + (csv.accelerationsFromSpline ? " and accelerations" : "") +
         " are derivatives of the C2 cubic spline through q (not-a-knot ends)");
  else if (csv.accelerationsFromSpline)
    note(file + " has no qdd_ columns: accelerations are the derivative of the C2 cubic spline through qd");
  return csv;
}

// id --algorithm NAME (not rnea) over a trajectory: the registry's formulation, sample by sample.
void runInverseDynamicsWith(const Session& s, const dyn::SampledTrajectory& traj) {
  const int n = traj.samples();
  const dyn::BoundFormulation<double> f =
      dyn::formulation(dyn::Problem::InverseDynamics, s.options.algorithm).bind(s.model);
  Progress progress(n, progressWanted(s, n));
  Eigen::MatrixXd values(1 + s.model.nv, n);
  values.row(0) = traj.t.transpose();
  Eigen::VectorXd q, qd, qdd;
  for (int k = 0; k < n; ++k) {
    q = traj.q.col(k);
    qd = traj.qd.col(k);
    qdd = traj.qdd.col(k);
    values.col(k).tail(s.model.nv) = f.inverseDynamics(q, qd, qdd);
    progress.update(k + 1);
  }
  progress.finish();
  std::vector<std::string> header{"t"};
  for (const auto& name : s.vNames) header.push_back("tau_" + name);
  writeCsvOutput(s, header, values);
}

void runInverseDynamics(const Session& s, const dyn::SampledTrajectory& traj) {
  if (s.options.algorithm != "rnea") return runInverseDynamicsWith(s, traj);
  const int n = traj.samples();
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces);
  Progress progress(n, progressWanted(s, n));
  dyn::TrajectoryDynamicsOptions options;
  options.decompose = s.options.decompose;
  options.energy = false;
  options.fext = forces.empty() ? nullptr : &fext;
  options.progress = [&](double fraction) { progress.update(int(fraction * n)); };
  const dyn::TrajectoryDynamics r = dyn::computeTrajectoryDynamics(s.model, traj, options);
  progress.finish();

  std::vector<std::string> header{"t"};
  std::vector<const Eigen::MatrixXd*> blocks{&r.tau};
  std::vector<std::string> prefixes{"tau_"};
  if (s.options.decompose) {
    blocks.insert(blocks.end(), {&r.inertial, &r.coriolis, &r.gravity});
    prefixes.insert(prefixes.end(), {"inertial_", "coriolis_", "gravity_"});
  }
  Eigen::MatrixXd values(1 + blocks.size() * s.model.nv, n);
  values.row(0) = traj.t.transpose();
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (const auto& name : s.vNames) header.push_back(prefixes[b] + name);
    values.middleRows(1 + b * s.model.nv, s.model.nv) = *blocks[b];
  }
  writeCsvOutput(s, header, values);
}

void runForwardDynamics(const Session& s, const dyn::SampledTrajectory& traj, const Eigen::MatrixXd& tau) {
  const int n = traj.samples();
  const std::vector<ExternalForce> forces = externalForceInputs(s);
  const std::vector<dyn::Force<double>> fext = bodyForces(s, forces);
  const auto* fextPtr = forces.empty() ? nullptr : &fext;
  requireRegularInertia(s.model);
  Progress progress(n, progressWanted(s, n));
  dyn::Data data(s.model);
  const std::string& algorithm = s.options.algorithm;
  dyn::BoundFormulation<double> other;  // a registry formulation other than aba and crba
  if (algorithm != "aba" && algorithm != "crba")
    other = dyn::formulation(dyn::Problem::ForwardDynamics, algorithm).bind(s.model);
  Eigen::MatrixXd values(1 + s.model.nv, n);
  values.row(0) = traj.t.transpose();
  Eigen::VectorXd q, qd, tauk;
  for (int k = 0; k < n; ++k) {
    q = traj.q.col(k);
    qd = traj.qd.col(k);
    tauk = tau.col(k);
    const Eigen::VectorXd& qdd = algorithm == "crba"  ? dyn::forwardDynamicsCrba(s.model, data, q, qd, tauk, fextPtr)
                                 : algorithm == "aba" ? dyn::aba(s.model, data, q, qd, tauk, fextPtr)
                                                      : other.forwardDynamics(q, qd, tauk);
    requireFinite(s.model, qdd, "forward dynamics at t = " + dyn::formatCsvNumber(traj.t[k]));
    values.col(k).tail(s.model.nv) = qdd;
    progress.update(k + 1);
  }
  progress.finish();
  std::vector<std::string> header{"t"};
  for (const auto& name : s.vNames) header.push_back("qdd_" + name);
  writeCsvOutput(s, header, values);
}

}  // namespace

void runTrajectory(const Session& s) {
  const bool inverse = s.options.command == Command::Id;
  const dyn::TrajectoryCsv input = inputTrajectory(s, inverse);
  if (inverse)
    runInverseDynamics(s, input.trajectory);
  else
    runForwardDynamics(s, input.trajectory, input.tau);
}

void runSampling(const Session& s) {
  dyn::SampledTrajectory traj;
  if (s.options.demo) {
    traj = dyn::demoTrajectory(s.model, *dyn::demoTrajectoryByName(*s.options.demo), s.options.rate.value_or(100.0));
  } else {
    dyn::ProjectFile project = *s.project;
    if (s.options.rate) {
      if (project.trajectory.source == dyn::TrajectorySource::Csv)
        throw std::runtime_error(project.file + ": the trajectory is the CSV file " + project.trajectory.csvPath +
                                 "; --rate does not resample it");
      project.trajectory.sampleRate = *s.options.rate;
    }
    traj = dyn::projectTrajectory(project, s.model);
  }
  writeOutput(s.options.out, [&](std::ostream& out) { dyn::writeTrajectoryCsv(out, s.model, traj); });
}

}  // namespace cli
