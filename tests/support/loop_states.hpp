// Closed-loop mechanisms for the loop suites: the shipped ones, random assembled states on their
// constraint manifolds, and seeded random serial chains closed by a loop joint of a chosen type.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "dynscope/io/model_builder.hpp"
#include "dynscope/loops/assembly.hpp"
#include "dynscope/loops/loop_inverse_dynamics.hpp"

namespace dyn::testing {

inline const std::vector<const char*>& loopRobots() {
  static const std::vector<const char*> files = {"fourbar.urdf", "fourbar.dh", "slider_crank.urdf", "palletizer.urdf",
                                                 "delta.urdf"};
  return files;
}

inline Model loadRobot(const std::string& file) { return loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file); }

// A random state on the constraint manifold: the independent coordinates moved by up to `spread`
// from home() (inside the limits), the loops assembled around them, independent velocities of up to
// `speed` and the dependent ones from phi' qd = 0. False when the loops do not close there.
inline bool randomAssembledState(const Model& model, std::mt19937& rng, Eigen::VectorXd& q, Eigen::VectorXd& qd,
                                 double spread = 0.3, double speed = 1.0) {
  std::uniform_real_distribution<double> U(-1, 1);
  q = model.home();
  for (int v : model.independentDofs()) {
    const JointModel<double>& J = model.joints[size_t(model.dofBody[size_t(v)])];
    if (J.nq != J.nv) continue;  // quaternion joints keep their orientation
    const int iq = J.idx_q + (v - J.idx_v);
    const double lo = std::max(model.lowerLimit[iq], q[iq] - spread),
                 hi = std::min(model.upperLimit[iq], q[iq] + spread);
    q[iq] = lo + (hi - lo) * 0.5 * (U(rng) + 1);
  }
  const AssemblyResult a = assemble(model, q, {model.independentDofs(), 1e-13, 100});
  if (!a.converged) return false;
  q = a.q;
  qd = Eigen::VectorXd::Zero(model.nv);
  for (int v : model.independentDofs()) qd[v] = speed * U(rng);
  Data data(model);
  LoopData ld(model);
  return loopDependentVelocities(model, data, ld, q, qd) < 1e-10;
}

// A serial chain of `links` revolute joints (random axes and origins) from link "l0", closed by a
// loop joint of `kind` between the last link and l0, placed so that the random configuration
// `qStar` (returned) is assembled.
inline RobotDescription closedChain(unsigned seed, int links, JointKind kind, Eigen::VectorXd& qStar) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  RobotDescription r;
  r.name = "chain" + std::to_string(seed);
  r.sourceFile = r.name + ".urdf";
  for (int l = 0; l <= links; ++l) {
    LinkDesc ld;
    ld.name = "l" + std::to_string(l);
    InertialDesc in;
    in.mass = 1 + U(rng) * 0.5;
    in.origin.xyz = Vec3<double>(0.15, 0.02 * U(rng), 0.02 * U(rng));
    in.ixx = 0.002 + 0.001 * U(rng);
    in.iyy = in.izz = 0.01 + 0.002 * U(rng);
    if (l > 0) ld.inertial = in;
    r.links.push_back(ld);
  }
  for (int l = 1; l <= links; ++l) {
    JointDesc jd;
    jd.name = "j" + std::to_string(l);
    jd.kind = JointKind::Revolute;
    jd.parent = "l" + std::to_string(l - 1);
    jd.child = "l" + std::to_string(l);
    jd.origin.xyz = l == 1 ? Vec3<double>::Zero() : Vec3<double>(0.3, 0.05 * U(rng), 0.05 * U(rng));
    jd.origin.rpy = Vec3<double>(U(rng), U(rng), U(rng)) * 0.6;
    jd.axis = Vec3<double>(U(rng), U(rng), 1.0).normalized();
    jd.line = l;
    r.joints.push_back(jd);
  }
  Model tree = buildModel(r);
  qStar = Eigen::VectorXd::Zero(tree.nq);
  for (int i = 0; i < tree.nq; ++i) qStar[i] = 0.3 * U(rng);
  Data data(tree);
  forwardKinematics(tree, data, qStar);
  updateFrames(tree, data);
  LoopJointDesc loop;
  loop.name = "close";
  loop.kind = kind;
  loop.link1 = "l" + std::to_string(links);
  loop.origin1.xyz = Vec3<double>(0.25, 0.03, -0.02);
  loop.origin1.rpy = Vec3<double>(0.3, -0.2, 0.5);
  loop.link2 = "l0";
  loop.axis = Vec3<double>(0.2, 1.0, -0.3).normalized();
  // link2's frame is the world: origin2 = F1's world pose at qStar.
  const Transform<double> F1 = loop.origin1.transform() * data.oMf[size_t(tree.frameIndex(loop.link1))];
  loop.origin2.xyz = F1.translation();
  loop.origin2.rpy = matrixToRpy(F1.rotation());
  loop.line = links + 1;
  r.loopJoints.push_back(loop);
  return r;
}

}  // namespace dyn::testing
