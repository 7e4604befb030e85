// Small vectors and poses the engine suites and benchmarks share.
#pragma once
#include <Eigen/Core>
#include <cmath>
#include <initializer_list>

#include "dynscope/model/model.hpp"

namespace dyn::testing {

inline Eigen::VectorXd vec(std::initializer_list<double> x) {
  Eigen::VectorXd v(Eigen::Index(x.size()));
  Eigen::Index k = 0;
  for (double d : x) v[k++] = d;
  return v;
}

// Mid-range of every limited joint (the neutral value of the others).
inline Eigen::VectorXd midRange(const dyn::Model& model) {
  Eigen::VectorXd q = model.neutral();
  for (int i = 0; i < model.nq; ++i)
    if (std::isfinite(model.lowerLimit[i]) && std::isfinite(model.upperLimit[i]))
      q[i] = 0.5 * (model.lowerLimit[i] + model.upperLimit[i]);
  return q;
}

}  // namespace dyn::testing
