// Closed-loop forward dynamics, method 1 (Featherstone and Orin 2000,
// §3.4, eq. 20): the augmented system solved directly for qdd and lambda,
//   [ M   L^T ] [  qdd    ]   [ tau - C ]
//   [ L   0   ] [ -lambda ] = [    c    ],
// M by the composite-rigid-body algorithm, C by the RNEA, and one LU factorization with partial
// pivoting of the (n + n_c)-square matrix: O((n + n_c)^3). The simplest and the slowest method.
#pragma once
#include "../algorithms/crba.hpp"
#include "../algorithms/rnea.hpp"
#include "loop_constraints.hpp"
#include "loop_motion_without_mass.hpp"

namespace dyn {

template <class S, class Q, class V, class T>
const VecX<S>& loopForwardDynamicsAugmented(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                            const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd,
                                            const Eigen::MatrixBase<T>& tau, const S& alpha = S(0),
                                            const S& beta = S(0), const S& rankTol = S(1e-10),
                                            const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau", tau.size(), model.nv);
  loopConstraints(model, data, ld, q, qd, alpha, beta);  // phi, phi', c (eqs. 16-17)
  const int n = model.nv;
  data.tmp.setZero();
  rnea(model, data, q, qd, data.tmp, fext);  // C = ID(q, qd, 0)
  crba(model, data, q);                      // M (Part 2, eqs. 44-48)
  for (int attempt = 0;; ++attempt) {
    const bool fresh = attempt > 0 || !ld.rowsKnown;
    const int r = fresh ? selectLoopRows(ld, rankTol) : cachedLoopRows(ld);  // L, c_L (eq. 18)
    auto K = ld.KKT.topLeftCorner(n + r, n + r);
    K.topLeftCorner(n, n) = data.M;
    K.topRightCorner(n, r) = ld.L.topRows(r).transpose();
    K.bottomLeftCorner(r, n) = ld.L.topRows(r);
    K.bottomRightCorner(r, r).setZero();
    ld.rhs.head(n) = tau - data.tau;  // tau - C
    ld.rhs.segment(n, r) = ld.cL.head(r);
    const bool regular = luInPlace(K, n + r, ld.piv, S(1e-14));
    if (!regular && !fresh) continue;  // the rows chosen earlier lost rank here: choose again
    ld.singular = !regular;
    luSolveInPlace<S>(K, n + r, ld.piv, ld.rhs);  // (eq. 20)
    ld.qdd = ld.rhs.head(n);
    ld.lambda.head(r) = -ld.rhs.segment(n, r);
    if (fresh || loopRowsHold(ld, ld.qdd)) break;
  }
  if (ld.singular) refuseMotionWithoutMass(model, data.M, ld);  // names the joint, when a motion moves no mass
  if (ld.singular) ld.qdd.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
  data.qdd = ld.qdd;
  return ld.qdd;
}

}  // namespace dyn
