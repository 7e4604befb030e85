// Forward dynamics by the composite-rigid-body method (Part 2, eqs. 35-37):
// solve H(q) qdd = tau - C(q, qd) with H from CRBA and C from RNEA, using the sparse H = L^T L.
#pragma once
#include "bias.hpp"
#include "crba.hpp"
#include "ltl.hpp"

namespace dyn {

template <class S, class Q, class V, class T>
const VecX<S>& forwardDynamicsCrba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                                   const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<T>& tau,
                                   const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau", tau.size(), model.nv);
  data.reserveFactor();                     // M and L: allocated on the first call only
  data.tmp.setZero();
  rnea(model, data, q, qd, data.tmp, fext);  // C = ID(q, qd, 0)
  data.qdd = tau - data.tau;                // tau - C
  crba(model, data, q);                     // H
  data.L = data.M;
  factorLTL(model, data.L);                 // H = L^T L
  solveLTL(model, data.L, data.qdd);        // qdd = H^-1 (tau - C)
  return data.qdd;
}

}  // namespace dyn
