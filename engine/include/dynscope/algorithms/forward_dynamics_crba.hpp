// Forward dynamics by the composite-rigid-body method (Part 2, eqs. 35-37):
// solve H(q) qdd = tau - C(q, qd) with H from CRBA and C from RNEA, using the sparse H = L^T L.
#pragma once
#include "bias.hpp"
#include "crba.hpp"
#include "ltl.hpp"

namespace dyn {

// trace: the steps of RNEA, CRBA, the factorisation and the solve, and the right-hand side.
template <class S, class Q, class V, class T, class Trace = NoTrace>
const VecX<S>& forwardDynamicsCrba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                                   const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<T>& tau,
                                   const std::vector<Force<S>>* fext = nullptr, Trace&& trace = Trace{}) {
  checkSize("tau", tau.size(), model.nv);
  trace.begin(TraceAlgorithm::ForwardDynamicsCrba, q, qd, tau, fext);
  data.reserveFactor();                     // M and L: allocated on the first call only
  data.tmp.setZero();
  rnea(model, data, q, qd, data.tmp, fext, trace);  // C = ID(q, qd, 0)
  data.qdd = tau - data.tau;                       // tau - C
  trace.step(StepKind::FdRightHandSide, 0);
  crba(model, data, q, trace);                     // H
  data.L = data.M;
  factorLTL(model, data.L, trace);                 // H = L^T L
  solveLTL(model, data.L, data.qdd, trace);        // qdd = H^-1 (tau - C)
  return data.qdd;
}

}  // namespace dyn
