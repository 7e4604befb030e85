// Closed-loop forward dynamics, method 2 (seeds/orin-featherstone-review-robot-dynamics.txt,
// §3.4, eq. 21): the constraint forces lambda first, with the tree's O(n) algorithms,
//   L M^-1 L^T lambda = c - L M^-1 (tau - C),   qdd = M^-1 (tau - C) + M^-1 L^T lambda,
// M^-1 (tau - C) by the articulated-body algorithm and M^-1 L^T by one articulated-body solve per
// independent row (algorithms/aba_inverse_inertia.hpp): O(n n_c) for M^-1 L^T, O(n n_c^2) for
// L M^-1 L^T and O(n_c^3) for its Cholesky factor. Best when n >> n_c.
#pragma once
#include "../algorithms/aba_inverse_inertia.hpp"
#include "loop_constraints.hpp"

namespace dyn {

// qdd (into ld.qdd and returned) and lambda (ld.lambda, the multipliers of ld.rows) for the
// tree-joint forces tau; alpha, beta: Baumgarte gains (0: none). fext as for aba().
template <class S, class Q, class V, class T>
const VecX<S>& loopForwardDynamicsMultipliers(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                              const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd,
                                              const Eigen::MatrixBase<T>& tau, const S& alpha = S(0),
                                              const S& beta = S(0), const S& rankTol = S(1e-10),
                                              const std::vector<Force<S>>* fext = nullptr) {
  loopConstraints(model, data, ld, q, qd, alpha, beta);  // phi, phi', c (eqs. 16-17)
  const int r = selectLoopRows(ld, rankTol);             // L, c_L (eq. 18)
  aba(model, data, q, qd, tau, fext);                    // qdd0 = M^-1 (tau - C)   (O(n))
  for (int k = 0; k < r; ++k)                            // Y = M^-1 L^T, one O(n) solve per row
    abaInverseInertia(model, data, ld.L.row(k).transpose(), ld.Y.col(k), ld.pInv, ld.aInv);
  for (int i = 0; i < r; ++i)  // A = L M^-1 L^T (symmetric positive definite; lower triangle)
    for (int j = 0; j <= i; ++j) ld.A(i, j) = ld.L.row(i).dot(ld.Y.col(j));
  for (int i = 0; i < r; ++i) ld.lambda[i] = ld.cL[i] - ld.L.row(i).dot(data.qdd);  // c - L qdd0
  ld.singular = !choleskyInPlace(ld.A, r, S(1e-14));
  choleskySolveInPlace<S>(ld.A, r, ld.lambda);  // lambda = (L M^-1 L^T)^-1 (c - L qdd0)   (eq. 21)
  ld.qdd = data.qdd;
  for (int k = 0; k < r; ++k) ld.qdd += ld.Y.col(k) * ld.lambda[k];  // qdd = qdd0 + M^-1 L^T lambda
  if (ld.singular) ld.qdd.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
  return ld.qdd;
}

}  // namespace dyn
