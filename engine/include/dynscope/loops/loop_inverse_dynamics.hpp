// Inverse dynamics of a closed-loop mechanism (Featherstone and Orin 2000,
// §3.4, eqs. 15, 17 and 19): the actuator torques, and the constraint forces, that make the
// independent coordinates move with given accelerations.
//   1. The dependent accelerations from phi' qdd = c (eq. 17): phi'_d qdd_d = c - phi'_y qdd_y.
//   2. The spanning tree's inverse dynamics, tau_tree = RNEA(q, qd, qdd) = M qdd + C (eq. 15).
//   3. tau_tree = B tau_a + phi'^T lambda (eqs. 15 and 19 with tau = B tau_a, B selecting the
//      actuated dofs), solved for (tau_a, lambda) by the rank-revealing QR: the unique solution when
//      the actuated joints match the mobility, the minimum-norm one when they are redundant, and
//      the least-squares one with residual > 0 when too few joints are actuated for this motion.
// q must be assembled and qd consistent (phi' qd = 0); only the independent entries of qdd are read.
#pragma once
#include "../algorithms/rnea.hpp"
#include "loop_constraints.hpp"

namespace dyn {

// Returns ld.tau (nv, zero on the passive dofs); ld.qdd holds the full consistent qdd, ld.lambdaAll
// the constraint force of every row of phi, ld.residual the part of tau_tree the actuators and
// constraints cannot supply.
template <class S, class Q, class V, class A>
const VecX<S>& loopInverseDynamics(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                   const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd,
                                   const Eigen::MatrixBase<A>& qddIndependent,
                                   const std::vector<Force<S>>* fext = nullptr) {
  using std::sqrt;
  checkSize("qdd", qddIndependent.size(), model.nv);
  loopConstraints(model, data, ld, q, qd);  // phi', c (eq. 17)
  const int m = model.constraintRows, na = int(ld.actuated.size()), nd = int(ld.dependent.size());
  // 1. qdd_d: phi'_d qdd_d = c - phi'_y qdd_y, minimum-norm least squares.
  ld.t3 = ld.c;
  for (int v : ld.independent) {
    ld.qdd[v] = S(qddIndependent[v]);
    ld.t3 -= ld.Jc.col(v) * ld.qdd[v];
  }
  for (int k = 0; k < nd; ++k) ld.JdepT.row(k) = ld.Jc.col(ld.dependent[size_t(k)]).transpose();
  ld.qrDep.compute(ld.JdepT, S(1e-10));
  ld.qrDep.solveTransposedMinNorm(ld.t3, ld.td);
  for (int k = 0; k < nd; ++k) ld.qdd[ld.dependent[size_t(k)]] = ld.td[k];
  // 2. tau_tree = RNEA(q, qd, qdd)   (eq. 15: M qdd + C)
  rnea(model, data, q, qd, ld.qdd, fext);
  // 3. [B phi'^T] (tau_a, lambda) = tau_tree   (eq. 19)
  ld.Bphi.topRows(na).setZero();
  for (int k = 0; k < na; ++k) ld.Bphi(k, ld.actuated[size_t(k)]) = S(1);
  ld.Bphi.bottomRows(m) = ld.Jc;
  ld.qrId.compute(ld.Bphi, S(1e-10));
  ld.qrId.solveTransposedMinNorm(data.tau, ld.x);
  ld.tau.setZero();
  for (int k = 0; k < na; ++k) ld.tau[ld.actuated[size_t(k)]] = ld.x[k];
  ld.lambdaAll = ld.x.tail(m);
  ld.t1 = data.tau - ld.tau;  // the residual tau_tree - B tau_a - phi'^T lambda
  ld.t1.noalias() -= ld.Jc.transpose() * ld.lambdaAll;
  ld.residual = sqrt(ld.t1.squaredNorm());
  return ld.tau;
}

// The velocity consistent with the constraints (phi' qd = 0) that has qd's independent entries:
// its dependent entries (model.dependentDofs) are solved from phi'_d qd_d = -phi'_y qd_y (minimum
// norm, least squares at a singular configuration), in place. Returns max |phi' qd| afterwards.
template <class S, class Q, class V>
S loopDependentVelocities(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld, const Eigen::MatrixBase<Q>& q,
                          Eigen::MatrixBase<V>& qd) {
  checkSize("qd", qd.size(), model.nv);
  loopConstraints(model, data, ld, q);  // phi'
  const int nd = int(ld.dependent.size());
  ld.t3.setZero();
  for (int v : ld.independent) ld.t3 -= ld.Jc.col(v) * S(qd[v]);
  for (int k = 0; k < nd; ++k) ld.JdepT.row(k) = ld.Jc.col(ld.dependent[size_t(k)]).transpose();
  ld.qrDep.compute(ld.JdepT, S(1e-10));
  ld.qrDep.solveTransposedMinNorm(ld.t3, ld.td);
  for (int k = 0; k < nd; ++k) qd[ld.dependent[size_t(k)]] = ld.td[k];
  ld.t3.noalias() = ld.Jc * qd;
  return maxAbs(ld.t3);
}

}  // namespace dyn
