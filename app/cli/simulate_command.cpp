// simulate: the engine's Simulator from the command line. Builds the settings and the controller
// from the options, runs with progress on stderr, writes the record as CSV and notes limit hits.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "commands.hpp"
#include "dynscope/algorithms/kinematics.hpp"
#include "dynscope/io/readable_number.hpp"
#include "dynscope/io/trajectory_csv.hpp"
#include "dynscope/simulation/simulator.hpp"
#include "dynscope/simulation/start_beyond_limits.hpp"
#include "messages.hpp"

namespace cli {
namespace {

// One value for every dof, or nv values.
Eigen::VectorXd gains(const Session& s, const std::vector<double>& given, const char* option) {
  if (given.size() == 1) return Eigen::VectorXd::Constant(s.model.nv, given[0]);
  if (int(given.size()) != s.model.nv)
    throw UsageError(std::string(option) + " needs 1 or " + std::to_string(s.model.nv) + " values (nv), got " +
                     std::to_string(given.size()));
  return Eigen::Map<const Eigen::VectorXd>(given.data(), given.size());
}

dyn::SimulationSettings settingsFrom(const Options& o) {
  dyn::SimulationSettings st;
  st.integrator = *dyn::integratorByName(o.integrator);
  st.algorithm = o.algorithm == "crba" ? dyn::ForwardAlgorithm::Crba : dyn::ForwardAlgorithm::Aba;
  st.compare = o.compare;
  if (o.dt) st.dt = *o.dt;
  if (o.tolerance) st.tolerance = *o.tolerance;
  if (o.limitStiffness) st.limitStiffness = *o.limitStiffness;
  if (o.limitDamping) st.limitDamping = *o.limitDamping;
  if (o.velocityBound) st.velocityBound = *o.velocityBound;
  if (o.recordEvery) st.recordEvery = *o.recordEvery;
  if (o.loopMethod) st.loopMethod = *dyn::loopMethodByName(*o.loopMethod);
  if (o.baumgarte) {
    st.baumgarteAlpha = (*o.baumgarte)[0];
    st.baumgarteBeta = (*o.baumgarte)[1];
    st.baumgarte = st.baumgarteAlpha > 0 || st.baumgarteBeta > 0;
  }
  st.projection = !o.noProjection;
  if (o.ground) {
    st.ground.enabled = true;
    st.ground.height = *o.ground;
  }
  if (o.friction) st.ground.friction = *o.friction;
  if (o.contactTime) st.ground.timeConstant = *o.contactTime;
  if (o.contactStiffness) st.ground.stiffness = *o.contactStiffness;
  if (o.contactDamping) st.ground.damping = *o.contactDamping;
  return st;
}

dyn::Controller controllerFrom(const Session& s) {
  const Options& o = s.options;
  if (o.controller == "gravity") return dyn::GravityCompensation{};
  if (o.controller == "constant") return dyn::ConstantTorque{velocityInput(s, o.tau, "--tau")};
  if (o.controller == "replay") return dyn::readTorqueCsv(s.model, *o.torques);
  if (o.controller == "pd" || o.controller == "computed-torque") {
    dyn::TrajectoryCsv csv = dyn::readTrajectoryCsv(s.model, *o.trajectory, {.accelerations = true});
    if (!csv.ignoredColumns.empty())
      std::fprintf(stderr, "dynscope-cli: warning: %s: ignoring columns %s\n", o.trajectory->c_str(),
                   joinNames(csv.ignoredColumns).c_str());
    return dyn::PdTracking{std::move(csv.trajectory), gains(s, *o.kp, "--kp"), gains(s, *o.kd, "--kd"),
                           o.controller == "pd" ? dyn::PdTracking::Mode::Pd : dyn::PdTracking::Mode::ComputedTorque};
  }
  return dyn::PassiveController{};
}

// The options that a tree or a closed-loop mechanism has no use for: a warning each.
void warnUnusedOptions(const Session& s) {
  const Options& o = s.options;
  if (s.model.hasLoops()) {
    if (o.algorithmGiven)
      warn("--algorithm " + o.algorithm + " is ignored: " + s.model.name +
           " has closed loops, whose forward dynamics is the loop method (--loop-method, here " +
           o.loopMethod.value_or("2") + ")");
    return;
  }
  std::string unused;
  for (const auto& [given, name] : {std::pair{o.loopMethod.has_value(), "--loop-method"},
                                    {o.baumgarte.has_value(), "--baumgarte"},
                                    {o.noProjection, "--no-projection"}})
    if (given) unused += (unused.empty() ? "" : ", ") + std::string(name);
  if (!unused.empty())
    warn(unused + " ignored: " + s.model.name + " has no closed loops (these options act on loop constraints)");
}

// A start beyond a joint's limit: its limit spring pushes it back (and hands the energy it holds to
// the motion), which the user should know before reading the run.
void warnStartBeyondLimits(const dyn::Model& model, const Eigen::VectorXd& q0) {
  std::vector<std::string> beyond;
  for (const dyn::BeyondLimit& b : dyn::startBeyondLimits(model, q0))
    beyond.push_back("'" + model.jointNames[b.joint] + "' at " + dyn::readableNumber(b.value) + " outside [" +
                     dyn::readableNumber(b.lower) + ", " + dyn::readableNumber(b.upper) + "]");
  if (beyond.empty()) return;
  std::string list;
  for (size_t k = 0; k < beyond.size() && k < 3; ++k) list += (k ? ", " : "") + beyond[k];
  if (beyond.size() > 3) list += " and " + std::to_string(beyond.size() - 3) + " more";
  warn("the start is beyond joint limits (" + list +
       "): their limit springs push the joints back; the energy column counts what the springs hold" +
       " (start inside with --q0, or --limit-stiffness 0 to ignore the limits)");
}

}  // namespace

int runSimulation(const Session& s) {
  const Options& o = s.options;
  requireRegularInertia(s.model);
  warnUnusedOptions(s);
  const Eigen::VectorXd q0 = configurationInput(s, o.q0, "--q0");
  const Eigen::VectorXd qd0 = velocityInput(s, o.qd0, "--qd0");
  if ((o.friction || o.contactTime || o.contactStiffness || o.contactDamping) && !o.ground)
    warn("--friction and the --contact-* options act on the ground: give --ground H");
  if (o.contactDamping && !o.contactStiffness)
    warn("--contact-damping goes with --contact-stiffness (the time constant's rule sets its own damping)");
  if (o.contactTime && o.contactStiffness) warn("--contact-stiffness replaces the rule of --contact-time");
  dyn::Simulator sim(s.model, settingsFrom(o), controllerFrom(s));
  for (const std::string& n : sim.contactPoints().notes) warn(n);
  if (o.ground) {
    note(std::to_string(sim.contactPoints().points.size()) +
         " contact points on the ground z = " + dyn::readableNumber(*o.ground));
    // A start inside the ground (a robot's neutral pose below the plane) is launched out of it:
    // say where the lowest point is, so that the plane or --q0 can be put right.
    dyn::Data data(s.model);
    dyn::forwardKinematics(s.model, data, q0);
    double lowest = std::numeric_limits<double>::infinity();
    for (const dyn::ContactPoint& c : sim.contactPoints().points)
      lowest = std::min(lowest, data.X0[c.body].pointToA(c.point).z() - c.radius);
    const auto mm = [](double x) {  // to the millimetre
      char text[32];
      std::snprintf(text, sizeof text, "%.3f", x);
      return std::string(text);
    };
    if (lowest < *o.ground - 1e-3)
      warn("the robot starts " + mm(*o.ground - lowest) +
           " m inside the ground: its lowest contact point is at z = " + mm(lowest) + " (--ground " +
           mm(std::floor(lowest * 1e3) / 1e3) + " puts the plane under it; or lift it with --q0)");
  }
  if (sim.settings().limits && sim.settings().limitStiffness > 0) warnStartBeyondLimits(s.model, q0);
  sim.setWrenches(wrenchesOf(s, externalForceInputs(s)));  // --wrench: constant pushes, world axes
  sim.reset(q0, qd0);                                      // records the first state with them
  const long steps = std::lround(*o.duration / sim.settings().dt);
  sim.record().reserve(int(std::min(steps / sim.settings().recordEvery + 2, 1'000'000L)));

  // "\rdynscope-cli: 45% (t = 4.5 of 10 s)" on stderr, like the trajectory commands' progress.
  const bool progress = o.progress || (steps > 20000 && isatty(fileno(stderr)));
  int shown = -1;
  const auto report = [&](double fraction) {
    const int percent = int(100 * fraction);
    if (!progress || percent == shown) return;
    shown = percent;
    std::fprintf(stderr, "\rdynscope-cli: %d%% (t = %.6g of %.6g s)", percent, sim.time(), *o.duration);
    std::fflush(stderr);
  };
  const dyn::SimulationStatus status = sim.advance(*o.duration, nullptr, report);
  if (progress) {
    report(1.0);
    std::fputc('\n', stderr);
  }

  writeOutput(o.out, [&](std::ostream& out) { dyn::writeSimulationCsv(out, s.model, sim.record()); });

  const auto& events = sim.record().limitEvents;
  const size_t shownEvents = std::min<size_t>(events.size(), 20);
  for (const dyn::LimitEvent& e : std::vector(events.begin(), events.begin() + shownEvents))
    note("t = " + dyn::readableNumber(e.t) + ": joint '" + s.model.jointNames[e.joint] + "' hit its " +
         (e.upper ? "upper" : "lower") + " limit " + dyn::readableNumber(e.limit));
  if (events.size() > shownEvents)
    note("... and " + std::to_string(events.size() - shownEvents) + " more joint-limit hits");
  if (o.compare)
    note((s.model.hasLoops() ? "max |qdd difference| of two loop methods = " : "max |qdd_aba - qdd_crba| = ") +
         dyn::readableNumber(sim.record().maxFdDifference()));
  if (o.ground)
    note("deepest penetration into the ground: " + dyn::readableNumber(sim.record().maxPenetration()) + " m");
  if (s.model.hasLoops())
    note("max |phi| = " + dyn::readableNumber(sim.record().maxConstraintError()) +
         ", max |phi' qd| = " + dyn::readableNumber(sim.record().maxConstraintRateError()));
  if (const dyn::SimulationStats& st = sim.stats(); st.projectionFailures > 0)
    warn("the projection onto the loop constraints did not reach max |phi| <= " +
         dyn::readableNumber(sim.settings().projectionTolerance) + " in " + std::to_string(st.projectionFailures) +
         " of " + std::to_string(st.subSteps) +
         " steps (max |phi| left: " + dyn::readableNumber(st.worstProjectionResidual) + "); try a smaller --dt");
  if (status == dyn::SimulationStatus::Diverged) {
    std::fprintf(stderr, "dynscope-cli: error: %s (the CSV ends at the last good state, t = %s)\n",
                 sim.lastError().c_str(), dyn::readableNumber(sim.time()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace cli
