// A seeded random state for the engine suites: q on the configuration manifold (dyn::randomConfiguration), q̇ and
// q̈ uniform in [-qdScale, qdScale] and [-qddScale, qddScale].
#pragma once
#include <Eigen/Core>
#include <random>

#include "dynscope/algorithms/configuration.hpp"

namespace dyn::testing {

struct RandomState {
  Eigen::VectorXd q, qd, qdd;
};

inline RandomState randomState(const Model& m, unsigned seed, double qdScale = 1, double qddScale = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  RandomState s{randomConfiguration(m, rng), Eigen::VectorXd(m.nv), Eigen::VectorXd(m.nv)};
  for (int k = 0; k < m.nv; ++k) {
    s.qd[k] = qdScale * U(rng);
    s.qdd[k] = qddScale * U(rng);
  }
  return s;
}

}  // namespace dyn::testing
