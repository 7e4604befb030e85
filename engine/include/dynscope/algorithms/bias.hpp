// The bias vector C(q, qd) = ID(q, qd, 0) (Part 2, eq. 37: Coriolis, centrifugal and gravity)
// and the gravity vector g(q) = ID(q, 0, 0).
#pragma once
#include "rnea.hpp"

namespace dyn {

template <class S, class Q, class V>
const VecX<S>& nonLinearEffects(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                                const Eigen::MatrixBase<V>& qd) {
  data.tmp.setZero();
  rnea(model, data, q, qd, data.tmp);
  data.nle = data.tau;
  return data.nle;
}

template <class S, class Q>
const VecX<S>& gravityVector(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q) {
  data.tmp.setZero();
  rnea(model, data, q, data.tmp, data.tmp);
  data.g = data.tau;
  return data.g;
}

}  // namespace dyn
