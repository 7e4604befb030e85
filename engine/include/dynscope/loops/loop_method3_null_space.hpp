// Closed-loop forward dynamics, method 3 (Featherstone and Orin 2000,
// §3.4, eq. 22): eliminate the constraint forces. The column-pivoted QR of phi'^T (the "procedure
// equipped with a numerical rank test" the review asks for) gives both L qdd = c's minimum-norm
// solution qdd0 and K = Q's last n - n_c columns, an orthonormal basis of L's null space (L K = 0).
// With qdd = K y + qdd0,
//   K^T M K y = K^T (tau - C - M qdd0),
// of size n - n_c: O(n^3) overall, the cheapest when n - n_c (the mobility) is small.
#pragma once
#include "../algorithms/crba.hpp"
#include "../algorithms/rnea.hpp"
#include "loop_constraints.hpp"
#include "loop_motion_without_mass.hpp"

namespace dyn {

namespace detail {

// The null-space solve of eq. 22 for a mass matrix M and tau - C (rhs), with the QR of phi'^T and
// c already in ld: qdd = K y + qdd0 with K^T M K y = K^T (rhs - M qdd0); then lambda from
// L^T lambda = M qdd - rhs. Shared with the global form, eq. 26 (global_analysis.hpp).
template <class S, class M, class R>
void nullSpaceSolve(LoopDataTpl<S>& ld, const M& mass, const R& rhs) {
  const int n = int(mass.rows()), r = ld.rank, f = n - r;
  ld.qr.solveTransposedMinNorm(ld.c, ld.t1);  // qdd0: the minimum-norm solution of L qdd = c
  auto K = ld.K.leftCols(f);                  // K = Q [0; 1]: L's null space, orthonormal columns
  K.setZero();
  for (int j = 0; j < f; ++j) {
    K(r + j, j) = S(1);
    ld.qr.applyQ(K.col(j));
  }
  auto MK = ld.W.leftCols(f);
  MK.noalias() = mass * K;
  auto KMK = ld.KKT.topLeftCorner(f, f);
  KMK.noalias() = K.transpose() * MK;  // K^T M K
  ld.t2 = rhs;                         // K^T (tau - C - M qdd0)
  ld.t2.noalias() -= mass * ld.t1;
  auto y = ld.rhs.head(f);
  y.noalias() = K.transpose() * ld.t2;
  ld.singular = !choleskyInPlace(KMK, f, S(1e-14));
  choleskySolveInPlace<S>(KMK, f, y);  // y   (eq. 22)
  ld.qdd = ld.t1;
  ld.qdd.noalias() += K * y;  // qdd = K y + qdd0
  // The constraint forces, for comparison with methods 1 and 2: L^T lambda = M qdd - (tau - C).
  ld.t2.noalias() = mass * ld.qdd;
  ld.t2 -= rhs;
  ld.qr.solveSelectedColumns(ld.t2, ld.lambda);
  if (ld.singular) ld.qdd.setConstant(S(std::numeric_limits<double>::quiet_NaN()));
}

}  // namespace detail

template <class S, class Q, class V, class T>
const VecX<S>& loopForwardDynamicsNullSpace(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                            const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd,
                                            const Eigen::MatrixBase<T>& tau, const S& alpha = S(0),
                                            const S& beta = S(0), const S& rankTol = S(1e-10),
                                            const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau", tau.size(), model.nv);
  loopConstraints(model, data, ld, q, qd, alpha, beta);  // phi, phi', c (eqs. 16-17)
  selectLoopRows(ld, rankTol);                           // Q, R of phi'^T (eq. 18)
  data.tmp.setZero();
  rnea(model, data, q, qd, data.tmp, fext);  // C = ID(q, qd, 0)
  crba(model, data, q);                      // M
  data.tmp = tau - data.tau;                 // tau - C
  detail::nullSpaceSolve(ld, data.M, data.tmp);
  if (ld.singular) refuseMotionWithoutMass(model, data.M, ld);  // names the joint, when a motion moves no mass
  data.qdd = ld.qdd;
  return ld.qdd;
}

}  // namespace dyn
