// The extreme eigenvalues of the joint-space inertia matrix H(q) in O(n) per iteration, without
// forming or factorising H: the recursive algorithms apply H and its inverse to a vector.
//   H x    = ID(q, 0, x) - g(q)         (RNEA, Part 2 eq. 37: at rest the bias is gravity alone)
//   H^-1 x = FD(q, 0, x + g(q))         (ABA, Part 2 Fig. 9: qdd = H^-1 (tau - C), C = g at rest)
// The power method on H gives lambda_max, on H^-1 (inverse iteration) 1 / lambda_min; each stops
// at a Rayleigh quotient that changes by less than `tolerance` (relative) or after `maxSteps`.
// On a 1,000-dof chain this is ~50 ms where a dense eigen solver or Cholesky factor of H is O(n^3).
#pragma once
#include <cmath>

#include "aba.hpp"
#include "bias.hpp"
#include "rnea.hpp"

namespace dyn {

struct MassMatrixSpectrum {
  double lambdaMin = 0, lambdaMax = 0;  // lambdaMin = 0: H is singular (or not positive definite)
  double condition() const { return lambdaMin > 0 ? lambdaMax / lambdaMin : INFINITY; }
};

namespace spectrum_detail {
// Power iteration x <- A x / |A x| from a fixed start; returns the last Rayleigh quotient, NAN when
// A x stops being finite (ABA on a singular articulated inertia).
template <class Apply>
double powerIteration(int n, Apply&& apply, double tolerance, int maxSteps) {
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, 1.0, 2.0).normalized(), y(n);
  double lambda = 0;
  for (int k = 0; k < maxSteps; ++k) {
    apply(x, y);
    const double next = x.dot(y);  // Rayleigh quotient (x has unit length)
    const double norm = y.norm();
    if (!std::isfinite(norm) || !std::isfinite(next)) return NAN;
    if (!(norm > 0)) return next;
    x = y / norm;
    if (k > 2 && std::abs(next - lambda) <= tolerance * std::abs(next)) return next;
    lambda = next;
  }
  return lambda;
}
}  // namespace spectrum_detail

inline MassMatrixSpectrum massMatrixSpectrum(const Model& model, Data& data, const Eigen::VectorXd& q,
                                             double tolerance = 1e-6, int maxSteps = 200) {
  MassMatrixSpectrum s;
  const int n = model.nv;
  if (n == 0) return s;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd g = gravityVector(model, data, q);
  s.lambdaMax = spectrum_detail::powerIteration(
      n, [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = rnea(model, data, q, zero, x) - g; }, tolerance,
      maxSteps);
  double inverse = 0;
  try {
    inverse = spectrum_detail::powerIteration(
        n, [&](const Eigen::VectorXd& x, Eigen::VectorXd& y) { y = aba(model, data, q, zero, x + g); }, tolerance,
        maxSteps);
  } catch (const ForwardDynamicsError&) {  // a pivot of H is not positive: singular (or indefinite)
    inverse = 0;
  }
  s.lambdaMin = inverse > 0 ? 1.0 / inverse : 0;  // NAN or <= 0: singular as far as ABA can tell
  return s;
}

}  // namespace dyn
