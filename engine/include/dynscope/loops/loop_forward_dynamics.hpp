// Forward dynamics of a closed-loop mechanism by the method the caller selects (review §3.4):
// 1 the augmented system (eq. 20), 2 the constraint forces first (eq. 21, the default), 3 the
// null-space projection (eq. 22). They agree to rounding; docs/loops.md compares them. On a tree
// (no loops) they reduce to M qdd = tau - C solved by LU, by the ABA and by Cholesky.
#pragma once
#include "loop_method.hpp"
#include "loop_method1_augmented.hpp"
#include "loop_method2_multipliers.hpp"
#include "loop_method3_null_space.hpp"

namespace dyn {

template <class S, class Q, class V, class T>
const VecX<S>& loopForwardDynamics(const ModelTpl<S>& model, DataTpl<S>& data, LoopDataTpl<S>& ld,
                                   const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& qd,
                                   const Eigen::MatrixBase<T>& tau, const LoopSettings& settings,
                                   const std::vector<Force<S>>* fext = nullptr) {
  const S a = S(settings.baumgarteAlpha), b = S(settings.baumgarteBeta), tol = S(settings.rankTolerance);
  switch (settings.method) {
    case LoopMethod::Augmented:
      return loopForwardDynamicsAugmented(model, data, ld, q, qd, tau, a, b, tol, fext);
    case LoopMethod::NullSpace:
      return loopForwardDynamicsNullSpace(model, data, ld, q, qd, tau, a, b, tol, fext);
    case LoopMethod::Multipliers:
      break;
  }
  return loopForwardDynamicsMultipliers(model, data, ld, q, qd, tau, a, b, tol, fext);
}

}  // namespace dyn
