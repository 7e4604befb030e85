// The coordinates of a start pose that lie beyond their joint's limits: the simulation's limit springs
// push them back and hand the energy they hold to the motion (the CLI and the Simulation dock say so).
#pragma once
#include <vector>

#include "../model/model.hpp"

namespace dyn {

struct BeyondLimit {
  int joint = 0;  // body index of the joint
  int q = 0;      // its coordinate in q
  double value = 0, lower = 0, upper = 0;
};

// The limited coordinates (not quaternions) of q outside [lower, upper], in joint order.
inline std::vector<BeyondLimit> startBeyondLimits(const Model& model, const Eigen::VectorXd& q) {
  std::vector<BeyondLimit> out;
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<double>& J = model.joints[i];
    if (J.type == JointType::Spherical || J.type == JointType::Floating) continue;
    for (int k = 0; k < J.nq; ++k) {
      const int iq = J.idx_q + k;
      if (q[iq] < model.lowerLimit[iq] || q[iq] > model.upperLimit[iq])
        out.push_back({i, iq, q[iq], model.lowerLimit[iq], model.upperLimit[iq]});
    }
  }
  return out;
}

}  // namespace dyn
