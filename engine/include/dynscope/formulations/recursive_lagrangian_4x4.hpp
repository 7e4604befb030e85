// Hollerbach's recursive Lagrangian inverse dynamics with 4x4 matrices: O(n).
// Seed hollerbach-recursive-lagrangian.txt, section "Forward recursive Lagrangian dynamics", eqs. (8)-(14):
// "First all the Ẅ_i terms are computed starting from i = 1 to i = n using the recurrence relations (8)-(10).
// Then the D_i and c_i terms are computed in the other direction, from i = n to i = 1":
//   D_i = J_i Ẅ_iᵀ + A_{i+1} D_{i+1}      (12)      c_i = m_i ^ir_i + A_{i+1} c_{i+1}      (13)
//   F_i = tr(∂W_i/∂q_i D_i) - gᵀ ∂W_i/∂q_i c_i                                           (14)
// On a tree, A_{i+1} D_{i+1} becomes the sum over the children c of i of A_c D_c (and likewise for c_i).
// The A_j and their derivatives are booked apart (OpCategory::JointTransforms), as Hollerbach excludes them.
#pragma once
#include <vector>

#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "lagrangian_links.hpp"

namespace dyn {

template <class S>
struct RecursiveLagrangian4x4Workspace {
  LagrangianModelShape shape;  // the model it was built for (checked on every call)
  int N = 0;
  std::vector<Mat4<S>> A, dA, d2A;  // A_i, ∂A_i/∂q_i, ∂²A_i/∂q_i²
  std::vector<Mat4<S>> W, Wd, Wdd;  // W_i, Ẇ_i, Ẅ_i
  std::vector<Mat4<S>> U;           // ∂W_i/∂q_i = W_{i-1} ∂A_i/∂q_i
  std::vector<Mat4<S>> D;           // D_i (12)
  std::vector<Vec4<S>> c;           // c_i (13), homogeneous: (Σ n_j; Σ m_j) in i coordinates
  VecX<S> tau;

  explicit RecursiveLagrangian4x4Workspace(const ModelTpl<S>& model)
      : shape(model, "Hollerbach's recursive Lagrangian formulation (4x4)"), N(model.N) {
    const int n1 = N + 1;
    for (auto* v : {&A, &dA, &d2A, &W, &Wd, &Wdd, &U, &D}) v->resize(n1);
    c.resize(n1);
    tau = VecX<S>::Zero(model.nv);
  }
};

// trace: one step per body in each direction (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class Vd, class Ad, class Trace = NoTrace>
const VecX<S>& recursiveLagrangian4x4InverseDynamics(const ModelTpl<S>& model, RecursiveLagrangian4x4Workspace<S>& ws,
                                                     const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Vd>& qd,
                                                     const Eigen::MatrixBase<Ad>& qdd, Trace&& trace = Trace{}) {
  checkLagrangianInputs(model, ws.shape, q.size(), qd.size(), qdd.size());
  trace.begin(TraceAlgorithm::RecursiveLagrangian4x4, q, qd, qdd);
  {  // A_i, ∂A_i/∂q_i, ∂²A_i/∂q_i² (eq. 2; not counted by Hollerbach)
    const OpCountScope<S> jointWork(OpCategory::JointTransforms);
    for (int i = 1; i <= model.N; ++i) {
      linkMatrices4(model.joints[i], model.Xtree[i], S(q[model.joints[i].idx_q]), ws.A[i], ws.dA[i], ws.d2A[i]);
      trace.ahead(i);
    }
  }
  // Base to tip: W_i, Ẇ_i, Ẅ_i and ∂W_i/∂q_i; the own terms of D_i and c_i
  for (int i = 1; i <= model.N; ++i) {
    const int p = model.parent[i];
    const S qdi = S(qd[model.joints[i].idx_v]), qddi = S(qdd[model.joints[i].idx_v]);
    if (p == 0) {  // W_0 = 1, Ẇ_0 = Ẅ_0 = 0
      ws.W[i] = ws.A[i];
      ws.U[i] = ws.dA[i];
      ws.Wd[i] = ws.U[i] * qdi;
      ws.Wdd[i] = ws.d2A[i] * (qdi * qdi) + ws.U[i] * qddi;
    } else {
      ws.W[i].noalias() = ws.W[p] * ws.A[i];    // W_i = W_{i-1} A_i                          (8)
      ws.U[i].noalias() = ws.W[p] * ws.dA[i];   // ∂W_i/∂q_i = W_{i-1} ∂A_i/∂q_i
      ws.Wd[i].noalias() = ws.Wd[p] * ws.A[i];  // Ẇ_i = Ẇ_{i-1} A_i + W_{i-1} ∂A_i/∂q_i q̇_i   (9)
      ws.Wd[i] += ws.U[i] * qdi;
      // Ẅ_i = Ẅ_{i-1} A_i + 2 Ẇ_{i-1} ∂A_i/∂q_i q̇_i + W_{i-1} ∂²A_i/∂q_i² q̇_i² + W_{i-1} ∂A_i/∂q_i q̈_i   (10)
      ws.Wdd[i].noalias() = ws.Wdd[p] * ws.A[i];
      ws.Wdd[i] += (ws.Wd[p] * ws.dA[i]) * (S(2) * qdi);
      ws.Wdd[i] += (ws.W[p] * ws.d2A[i]) * (qdi * qdi);
      ws.Wdd[i] += ws.U[i] * qddi;
    }
    ws.D[i].noalias() = pseudoInertia(model.I[i]) * ws.Wdd[i].transpose();  // D_i = J_i Ẅ_iᵀ + ...  (12)
    ws.c[i] = firstMoment4(model.I[i]);                                     // c_i = m_i ^ir_i + ...  (13)
    trace.step(StepKind::Lagrange4Forward, i);
  }
  // Tip to base: F_i (14), then D_λ(i) += A_i D_i (12) and c_λ(i) += A_i c_i (13)
  const Vec4<S> g = gravity4(model);
  for (int i = model.N; i >= 1; --i) {
    ws.tau[model.joints[i].idx_v] = traceOfProductTransposed(ws.U[i], ws.D[i].transpose()) - g.dot(ws.U[i] * ws.c[i]);
    const int p = model.parent[i];
    if (p > 0) {
      ws.D[p].noalias() += ws.A[i] * ws.D[i];
      ws.c[p].noalias() += ws.A[i] * ws.c[i];
    }
    trace.step(StepKind::Lagrange4Backward, i);
  }
  return ws.tau;
}

}  // namespace dyn
