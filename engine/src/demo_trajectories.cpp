#include "dynscope/trajectory/demo_trajectories.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "dynscope/trajectory/time_scaling.hpp"

namespace dyn {
namespace {

constexpr double kDeg = std::numbers::pi / 180;

std::string typeList(const std::vector<JointType>& types) {
  std::string s;
  for (JointType t : types) s += std::string(s.empty() ? "" : " ") + (t == JointType::Prismatic ? "P" : "R");
  return s;
}

}  // namespace

const char* demoTrajectoryName(DemoTrajectory demo) {
  return demo == DemoTrajectory::SahaStanford ? "saha-stanford" : "saha-planar3";
}

std::optional<DemoTrajectory> demoTrajectoryByName(std::string_view name) {
  for (DemoTrajectory d : {DemoTrajectory::SahaStanford, DemoTrajectory::SahaPlanar3})
    if (name == demoTrajectoryName(d)) return d;
  return std::nullopt;
}

CycloidDemo demoDefinition(DemoTrajectory demo) {
  using JT = JointType;
  CycloidDemo d;
  d.period = 10.0;  // T = 10 s in both of Saha's examples
  if (demo == DemoTrajectory::SahaStanford) {
    // Saha 1999, Sec. 6.2: theta_i(0) = 0 (i != 2, 3), theta_2(0) = 90°, b_3(0) = 0;
    // theta_i(T) = 60° (i != 3), b_3(T) = 0.1 m.
    d.types = {JT::Revolute, JT::Revolute, JT::Prismatic, JT::Revolute, JT::Revolute, JT::Revolute};
    d.start = {0, 90 * kDeg, 0, 0, 0, 0};
    d.end = {60 * kDeg, 60 * kDeg, 0.1, 60 * kDeg, 60 * kDeg, 60 * kDeg};
  } else {
    // Sec. 6.1 (formula garbled in the seed's text): theta_i from 0 to pi, as in Saha's book / ReDySim.
    d.types = {JT::Revolute, JT::Revolute, JT::Revolute};
    d.start = {0, 0, 0};
    d.end = {std::numbers::pi, std::numbers::pi, std::numbers::pi};
  }
  return d;
}

SampledTrajectory demoTrajectory(const Model& model, DemoTrajectory demo, double rate) {
  const CycloidDemo d = demoDefinition(demo);
  const int joints = int(d.types.size());
  const std::string name = demoTrajectoryName(demo);
  std::vector<JointType> modelTypes;
  for (int i = 1; i <= model.N; ++i) modelTypes.push_back(model.joints[i].type);
  if (model.N != joints || model.nv != joints || model.nq != joints)
    throw std::invalid_argument("demo '" + name + "' is for a " + std::to_string(joints) + "-joint arm (" +
                                typeList(d.types) + "); model '" + model.name + "' has " + std::to_string(model.N) +
                                " joints and nv = " + std::to_string(model.nv));
  for (int i = 1; i <= model.N; ++i) {
    const JointType t = model.joints[i].type;
    const bool matches = d.types[i - 1] == JointType::Prismatic ? t == JointType::Prismatic : t == JointType::Revolute;
    if (!matches)
      throw std::invalid_argument("demo '" + name + "' needs joint " + std::to_string(i) + " ('" + model.jointNames[i] +
                                  "') to be " + (d.types[i - 1] == JointType::Prismatic ? "prismatic" : "revolute") +
                                  ", model '" + model.name + "' has a " + jointTypeName(t) + " joint there");
  }
  if (!(rate > 0) || !std::isfinite(rate) || d.period * rate > 1e7)
    throw std::invalid_argument("demo '" + name +
                                "': the sample rate must be positive (and give at most 10^7 samples)");

  const int n = int(std::floor(d.period * rate + 1e-9)) + 1;
  SampledTrajectory s;
  s.t.resize(n);
  s.q.resize(joints, n);
  s.qd.resize(joints, n);
  s.qdd.resize(joints, n);
  for (int k = 0; k < n; ++k) {
    s.t[k] = k + 1 == n ? d.period : k / rate;
    const ScalingSample c = cycloidScaling(s.t[k], d.period);
    for (int j = 0; j < joints; ++j) {  // the demo's joint j is the model's joint j + 1 (one DOF each)
      const JointModel<double>& J = model.joints[j + 1];
      const double delta = d.end[j] - d.start[j];
      s.q(J.idx_q, k) = d.start[j] + delta * c.s;
      s.qd(J.idx_v, k) = delta * c.sd;
      s.qdd(J.idx_v, k) = delta * c.sdd;
    }
  }
  return s;
}

}  // namespace dyn
