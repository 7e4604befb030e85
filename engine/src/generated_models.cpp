// A general revolute chain: random but physically valid links (see generated_models.hpp).
#include "dynscope/io/generated_models.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "dynscope/io/model_builder.hpp"

namespace dyn {

RobotDescription generalChainDescription(int n, unsigned seed) {
  if (n < 1 || n > 100000)
    throw std::invalid_argument("a generated chain has 1 to 100000 links, not " + std::to_string(n));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(0.1, 1.0), V(-1, 1);
  RobotDescription r;
  r.name = "general_chain_" + std::to_string(n);
  r.sourceFile = "<generated " + std::to_string(n) + "-link chain>";
  for (int l = 0; l <= n; ++l) {
    LinkDesc link;
    link.name = "link" + std::to_string(l);
    InertialDesc in;
    in.mass = 0.5 + U(rng);
    in.origin.xyz = Vec3<double>(V(rng), V(rng), V(rng)) * 0.1;
    double m[3] = {U(rng), U(rng), U(rng)};  // principal moments a <= b <= c, a + b > c
    std::sort(m, m + 3);
    m[2] = std::min(m[2], 0.95 * (m[0] + m[1]));
    const Mat3<double> R = rpyToMatrix(3 * V(rng), 3 * V(rng), 3 * V(rng));
    const Mat3<double> I = R * Vec3<double>(m[0], m[1], m[2]).asDiagonal() * R.transpose() * 0.01;
    in.ixx = I(0, 0), in.iyy = I(1, 1), in.izz = I(2, 2), in.ixy = I(0, 1), in.ixz = I(0, 2), in.iyz = I(1, 2);
    link.inertial = in;
    r.links.push_back(link);
  }
  for (int j = 1; j <= n; ++j) {
    JointDesc joint;
    joint.name = "joint" + std::to_string(j);
    joint.kind = JointKind::Continuous;
    joint.parent = "link" + std::to_string(j - 1);
    joint.child = "link" + std::to_string(j);
    joint.origin.xyz = Vec3<double>(0.3 + 0.2 * U(rng), 0.1 * V(rng), 0.1 + 0.1 * U(rng));  // a_i, d_i != 0
    joint.origin.rpy = Vec3<double>(1.0 + 0.5 * V(rng), 0.3 * V(rng), 0.3 * V(rng));        // twist alpha_i != 0
    joint.axis = Vec3<double>(0.2 * V(rng), 0.2 * V(rng), 1.0).normalized();
    r.joints.push_back(joint);
  }
  return r;
}

Model generalChain(int n, unsigned seed) { return buildModel(generalChainDescription(n, seed)); }

}  // namespace dyn
