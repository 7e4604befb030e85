// Closed-loop forward dynamics, method 2 (Featherstone and Orin 2000,
// §3.4, eq. 21): the constraint forces lambda first, with the spanning tree's algorithms,
//   L M^-1 L^T lambda = c - L M^-1 (tau - C),   qdd = M^-1 (tau - C) + M^-1 L^T lambda.
// M^-1 is applied through the tree's sparse factorization M = G^T G (Featherstone, "Efficient
// factorization of the joint-space inertia matrix for branched kinematic trees", 2005; ltl.hpp):
// with lambda(i) < i it has no fill-in, so G^-T L^T costs O(n d) per column (d: the tree's depth)
// and L M^-1 L^T = (G^-T L^T)^T (G^-T L^T). In all O(n d n_c + n n_c^2 + n_c^3): best when n >> n_c.
#pragma once
#include "../algorithms/bias.hpp"
#include "../algorithms/crba.hpp"
#include "../algorithms/ltl.hpp"
#include "loop_constraints.hpp"

namespace dyn {

namespace detail {

// x <- G^-T x for M = G^T G from factorLTL (the first half of solveLTL).
template <class S, class V>
void solveLTLTransposed(const ModelTpl<S>& model, const MatX<S>& G, V&& x) {
  const std::vector<int>& lambda = model.dofParent;
  for (int i = model.nv - 1; i >= 0; --i) {
    x[i] /= G(i, i);
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] -= G(i, j) * x[i];
  }
}

// x <- G^-1 x (the second half of solveLTL).
template <class S, class V>
void solveLTLForward(const ModelTpl<S>& model, const MatX<S>& G, V&& x) {
  const std::vector<int>& lambda = model.dofParent;
  for (int i = 0; i < model.nv; ++i) {
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] -= G(i, j) * x[j];
    x[i] /= G(i, i);
  }
}

// With M = G^T G in data.L and L, c_L (r rows) in ld: Z = G^-T L^T into ld.Y's first r columns
// and A = L M^-1 L^T = Z^T Z factored in ld.A; false when it is singular (the rows lost rank).
template <class S>
bool factorLoopMatrix(const ModelTpl<S>& model, const DataTpl<S>& data, LoopDataTpl<S>& ld, int r) {
  for (int k = 0; k < r; ++k) {
    ld.Y.col(k) = ld.L.row(k).transpose();
    solveLTLTransposed(model, data.L, ld.Y.col(k));
  }
  for (int j = 0; j < r; ++j)  // L M^-1 L^T = Z^T Z, the lower triangle
    for (int i = j; i < r; ++i) ld.A(i, j) = ld.Y.col(i).dot(ld.Y.col(j));
  return choleskyInPlace(ld.A, r, S(1e-14));
}

}  // namespace detail

// qdd (into ld.qdd and returned) and lambda (ld.lambda, the multipliers of ld.rows) for the
// tree-joint forces tau; alpha, beta: Baumgarte gains (0: none). fext as for rnea().
template <class S, class Q, class V, class T>
const VecX<S>& loopForwardDynamicsMultipliers(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                              const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd,
                                              const Eigen::MatrixBase<T>& tau, const S& alpha = S(0),
                                              const S& beta = S(0), const S& rankTol = S(1e-10),
                                              const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau", tau.size(), model.nv);
  loopConstraints(model, data, ld, q, qd, alpha, beta);  // phi, phi', c (eqs. 16-17)
  data.tmp.setZero();
  rnea(model, data, q, qd, data.tmp, fext);  // C = ID(q, qd, 0)
  data.qdd = tau - data.tau;                 // tau - C
  crba(model, data, q);                      // M (Part 2, eqs. 44-48)
  data.L = data.M;
  factorLTL(model, data.L);           // M = G^T G, no fill-in
  solveLTL(model, data.L, data.qdd);  // qdd0 = M^-1 (tau - C)
  for (int attempt = 0;; ++attempt) {
    const bool fresh = attempt > 0 || !ld.rowsKnown;
    const int r = fresh ? selectLoopRows(ld, rankTol) : cachedLoopRows(ld);  // L, c_L (eq. 18)
    const bool regular = detail::factorLoopMatrix(model, data, ld, r);       // L M^-1 L^T
    if (!regular && !fresh) continue;  // the rows chosen earlier lost rank here: choose again
    ld.singular = !regular;
    ld.lambda.head(r).noalias() = ld.cL.head(r) - ld.L.topRows(r) * data.qdd;  // c - L qdd0
    choleskySolveInPlace<S>(ld.A, r, ld.lambda);             // lambda = (L M^-1 L^T)^-1 (c - L qdd0)   (eq. 21)
    ld.t1.noalias() = ld.Y.leftCols(r) * ld.lambda.head(r);  // G^-T L^T lambda
    detail::solveLTLForward(model, data.L, ld.t1);           // M^-1 L^T lambda
    ld.qdd = data.qdd + ld.t1;                               // qdd = qdd0 + M^-1 L^T lambda
    if (fresh || loopRowsHold(ld, ld.qdd)) break;
  }
  if (ld.singular) ld.qdd.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
  data.qdd = ld.qdd;
  return ld.qdd;
}

}  // namespace dyn
