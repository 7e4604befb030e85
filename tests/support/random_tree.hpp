// Seeded random kinematic trees with every joint type, for identity tests: random parents,
// origins, axes and physically valid inertias (random principal moments obeying the
// triangle inequality, rotated by a random rotation).
#pragma once
#include <algorithm>
#include <random>
#include <string>

#include "dynscope/io/model_builder.hpp"

namespace dyn::testing {

inline Pose randomPose(std::mt19937& rng, double reach = 0.5) {
  std::uniform_real_distribution<double> U(-1, 1);
  Pose p;
  p.xyz = Vec3<double>(U(rng), U(rng), U(rng)) * reach;
  p.rpy = Vec3<double>(U(rng), U(rng), U(rng)) * 3.0;
  return p;
}

inline InertialDesc randomInertial(std::mt19937& rng) {
  std::uniform_real_distribution<double> U(0.1, 1.0), V(-1, 1);
  InertialDesc in;
  in.mass = 0.5 + 2.0 * U(rng);
  in.origin.xyz = Vec3<double>(V(rng), V(rng), V(rng)) * 0.2;
  // principal moments a <= b <= c with a + b >= c, then rotated
  double m[3] = {U(rng), U(rng), U(rng)};
  std::sort(m, m + 3);
  const double a = m[0], b = m[1], c = std::min(m[2], 0.95 * (a + b));
  const Mat3<double> R = rpyToMatrix(3 * V(rng), 3 * V(rng), 3 * V(rng));
  const Mat3<double> I = R * Vec3<double>(a, b, c).asDiagonal() * R.transpose() * 0.1;
  in.ixx = I(0, 0); in.iyy = I(1, 1); in.izz = I(2, 2);
  in.ixy = I(0, 1); in.ixz = I(0, 2); in.iyz = I(1, 2);
  return in;
}

// A tree of `links` links (link 0 is the root). kinds: the joint kinds to draw from. serial: every link's
// parent is the previous link (a chain; the same random numbers are drawn either way).
inline RobotDescription randomTree(unsigned seed, int links,
                                   std::vector<JointKind> kinds = {JointKind::Revolute, JointKind::Continuous,
                                                                   JointKind::Prismatic, JointKind::Helical,
                                                                   JointKind::Fixed, JointKind::Planar,
                                                                   JointKind::Spherical, JointKind::Floating},
                                   bool serial = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> V(-1, 1);
  RobotDescription r;
  r.name = "random" + std::to_string(seed);
  r.sourceFile = r.name;
  for (int l = 0; l < links; ++l) {
    LinkDesc ld;
    ld.name = "link" + std::to_string(l);
    ld.inertial = randomInertial(rng);
    r.links.push_back(ld);
  }
  for (int l = 1; l < links; ++l) {
    JointDesc jd;
    jd.name = "joint" + std::to_string(l);
    jd.kind = kinds[std::uniform_int_distribution<int>(0, (int)kinds.size() - 1)(rng)];
    const int parent = std::uniform_int_distribution<int>(0, l - 1)(rng);
    jd.parent = "link" + std::to_string(serial ? l - 1 : parent);
    jd.child = "link" + std::to_string(l);
    jd.origin = randomPose(rng);
    jd.axis = Vec3<double>(V(rng), V(rng), V(rng)).normalized();
    jd.pitch = 0.1 * V(rng);
    if (jd.kind == JointKind::Revolute || jd.kind == JointKind::Prismatic) {
      jd.hasLimits = true;
      jd.lower = -2.0;
      jd.upper = 2.0;
    }
    r.joints.push_back(jd);
  }
  // Shuffle the file order: the builder must number the tree itself.
  std::shuffle(r.links.begin(), r.links.end(), rng);
  std::shuffle(r.joints.begin(), r.joints.end(), rng);
  return r;
}

// A serial chain of `links` links with the joint kinds drawn from `kinds`.
inline RobotDescription randomChain(unsigned seed, int links, std::vector<JointKind> kinds) {
  return randomTree(seed, links, std::move(kinds), true);
}

}  // namespace dyn::testing
