// Sparse factorisation H = L^T L of the joint-space inertia matrix (Featherstone, "Efficient
// factorization of the JSIM for branched kinematic trees", 2005; cited in Part 2): with
// lambda(i) < i the factor has no fill-in, so only ancestor pairs are visited.
#pragma once
#include "../model/model.hpp"
#include "../trace/trace_policy.hpp"
#include "pivot_check.hpp"

namespace dyn {

// In place: the lower triangle of H (ancestor entries) becomes L; the rest is left untouched.
// A pivot H_kk that is not positive (H singular or indefinite) throws ForwardDynamicsError naming
// the joint of dof k (pivot_check.hpp). trace: one step per dof k (trace/trace_policy.hpp).
template <class S, class Trace = NoTrace>
void factorLTL(const ModelTpl<S>& model, MatX<S>& H, Trace&& trace = Trace{}) {
  using std::sqrt;
  const std::vector<int>& lambda = model.dofParent;
  trace.begin(TraceAlgorithm::FactorLTL, H);
  for (int k = model.nv - 1; k >= 0; --k) {
    if (H(k, k) <= S(0)) {  // not positive: no real square root
      const int body = model.dofBody[k];
      refuseNonPositivePivot(model, body, H(k, k), PivotSource::Ltl, k - model.joints[body].idx_v);
    }
    trace.local("H_kk", k, H(k, k));                                    // as the descendants left it
    H(k, k) = sqrt(H(k, k));                                            // L_kk = sqrt(H_kk)
    for (int i = lambda[k]; i >= 0; i = lambda[i]) H(k, i) /= H(k, k);  // L_ki = H_ki / L_kk
    for (int i = lambda[k]; i >= 0; i = lambda[i])
      for (int j = i; j >= 0; j = lambda[j]) H(i, j) -= H(k, i) * H(k, j);  // H_ij -= L_ki L_kj
    trace.local("L", k, H);
    trace.step(StepKind::LtlFactor, k);
  }
}

// Solves (L^T L) x = b in place, given L from factorLTL. trace: one step per dof in each sweep.
template <class S, class B, class Trace = NoTrace>
void solveLTL(const ModelTpl<S>& model, const MatX<S>& L, Eigen::MatrixBase<B>& x, Trace&& trace = Trace{}) {
  const std::vector<int>& lambda = model.dofParent;
  trace.begin(TraceAlgorithm::SolveLTL, L, x);
  for (int i = model.nv - 1; i >= 0; --i) {  // L^T y = b
    x[i] /= L(i, i);
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[j] -= L(i, j) * x[i];
    trace.local("x", i, x);
    trace.step(StepKind::LtlSolveTranspose, i);
  }
  for (int i = 0; i < model.nv; ++i) {  // L x = y
    for (int j = lambda[i]; j >= 0; j = lambda[j]) x[i] -= L(i, j) * x[j];
    x[i] /= L(i, i);
    trace.local("x", i, x);
    trace.step(StepKind::LtlSolve, i);
  }
}

}  // namespace dyn
