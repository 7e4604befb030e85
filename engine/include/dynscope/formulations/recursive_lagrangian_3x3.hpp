// Hollerbach's recursive Lagrangian inverse dynamics with 3x3 rotation matrices and position vectors: O(n).
// Seed hollerbach-recursive-lagrangian.txt, section "Recursive Lagrangian dynamics with 3x3 matrices", eqs. (15)-(18),
// and Appendix B, eqs. (B1)-(B5). A_i is now the 3x3 rotation R_i of link i in its parent, W_i = W_{i-1} R_i the
// rotation of link i in the base, p_i the base position of origin i, n_i = m_i ^ir_i and J_i = ∫ r rᵀ dm (3x3):
//   Ẅ_i by (10) with 3x3 matrices; p̈_i = p̈_{i-1} + Ẅ_{i-1} ^{i-1}p*_i                                  (16)
//   D_i = A_{i+1} D_{i+1} + ^ip*_{i+1} e_{i+1} + n_i p̈_iᵀ + J_i Ẅ_iᵀ                                   (18), (B3)
//   e_i = e_{i+1} + m_i p̈_iᵀ + n_iᵀ Ẅ_iᵀ                                                               (18), (B4)
//   c_i = n_i + A_{i+1} c_{i+1} + M_{i+1} ^ip*_{i+1}  (M: the mass outboard; the 4x4 c_i of (13) carries it in
//                                                      its homogeneous coordinate)
//   F_i = tr(∂W_i/∂q_i D_i) - gᵀ ∂W_i/∂q_i c_i                                                         (17), (B5)
// Our frames put origin i on joint i's axis and the offset p*_i from origin λ(i) in λ(i) coordinates (Hollerbach's
// DH frames hold it fixed in frame i), so (16) reads Ẅ_{i-1} ^{i-1}p*_i here. A prismatic joint moves p*_i instead
// of R_i: then ∂W_j/∂q_i = 0, ∂p_j/∂q_i = W_{i-1} ∂p*_i/∂q_i for every j outboard (B1), and (15) gives
//   F_i = (e_iᵀ - M_i g) · W_{i-1} ∂p*_i/∂q_i,    p̈_i = p̈_{i-1} + Ẅ_{i-1} p*_i + 2 Ẇ_{i-1} ∂p*_i/∂q_i q̇_i
//                                                             + W_{i-1} ∂p*_i/∂q_i q̈_i.
// On a tree, the terms with index i+1 become sums over the children of i.
// R_i, its derivatives, p*_i and ∂p*_i/∂q_i are booked apart (OpCategory::JointTransforms), as Hollerbach excludes
// the A_j.
#pragma once
#include <vector>

#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "lagrangian_links.hpp"

namespace dyn {

template <class S>
struct RecursiveLagrangian3x3Workspace {
  LagrangianModelShape shape;  // the model it was built for (checked on every call)
  int N = 0;
  std::vector<Mat3<S>> R, dR, d2R;     // A_i (3x3), ∂A_i/∂q_i, ∂²A_i/∂q_i²
  std::vector<Vec3<S>> pstar, dpstar;  // ^{i-1}p*_i and ∂p*_i/∂q_i
  std::vector<Mat3<S>> W, Wd, Wdd;     // W_i, Ẇ_i, Ẅ_i
  std::vector<Mat3<S>> U;              // ∂W_i/∂q_i = W_{i-1} ∂A_i/∂q_i (revolute)
  std::vector<Vec3<S>> u;              // ∂p_i/∂q_i = W_{i-1} ∂p*_i/∂q_i (prismatic)
  std::vector<Vec3<S>> pdd;            // p̈_i
  std::vector<Mat3<S>> D;              // D_i
  std::vector<Vec3<S>> e, c;           // e_iᵀ, c_i
  std::vector<S> M;                    // M_i = Σ m_j outboard of i (inclusive)
  VecX<S> tau;

  explicit RecursiveLagrangian3x3Workspace(const ModelTpl<S>& model)
      : shape(model, "Hollerbach's recursive Lagrangian formulation (3x3)"), N(model.N) {
    const int n1 = N + 1;
    for (auto* v : {&R, &dR, &d2R, &W, &Wd, &Wdd, &U, &D}) v->resize(n1);
    for (auto* v : {&pstar, &dpstar, &u, &pdd, &e, &c}) v->resize(n1);
    M.resize(n1);
    tau = VecX<S>::Zero(model.nv);
  }
};

// trace: one step per body in each direction (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class Vd, class Ad, class Trace = NoTrace>
const VecX<S>& recursiveLagrangian3x3InverseDynamics(const ModelTpl<S>& model, RecursiveLagrangian3x3Workspace<S>& ws,
                                                     const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Vd>& qd,
                                                     const Eigen::MatrixBase<Ad>& qdd, Trace&& trace = Trace{}) {
  checkLagrangianInputs(model, ws.shape, q.size(), qd.size(), qdd.size());
  trace.begin(TraceAlgorithm::RecursiveLagrangian3x3, q, qd, qdd);
  {  // A_i = R_i, ∂A_i/∂q_i, ∂²A_i/∂q_i², p*_i, ∂p*_i/∂q_i (not counted by Hollerbach)
    const OpCountScope<S> jointWork(OpCategory::JointTransforms);
    for (int i = 1; i <= model.N; ++i) {
      linkMatrices3(model.joints[i], model.Xtree[i], S(q[model.joints[i].idx_q]), ws.R[i], ws.dR[i], ws.d2R[i],
                    ws.pstar[i], ws.dpstar[i]);
      trace.ahead(i);
    }
  }
  // Base to tip: W_i, Ẇ_i, Ẅ_i (10) and p̈_i (16); the own terms of D_i, e_i, c_i
  for (int i = 1; i <= model.N; ++i) {
    const int p = model.parent[i];
    const bool revolute = model.joints[i].type == JointType::Revolute;
    const S qdi = S(qd[model.joints[i].idx_v]), qddi = S(qdd[model.joints[i].idx_v]);
    if (p == 0) {  // W_0 = 1, Ẇ_0 = Ẅ_0 = 0, p̈_0 = 0
      ws.W[i] = ws.R[i];
      if (revolute) {
        ws.U[i] = ws.dR[i];
        ws.Wd[i] = ws.U[i] * qdi;
        ws.Wdd[i] = ws.d2R[i] * (qdi * qdi) + ws.U[i] * qddi;
        ws.pdd[i].setZero();
      } else {
        ws.u[i] = ws.dpstar[i];
        ws.Wd[i].setZero();
        ws.Wdd[i].setZero();
        ws.pdd[i] = ws.u[i] * qddi;
      }
    } else {
      // W_i = W_{i-1} A_i (8), Ẇ_i = Ẇ_{i-1} A_i + ... (9), Ẅ_i = Ẅ_{i-1} A_i + ... (10), p̈_i = Ẅ_{i-1} p*_i + ... (16)
      ws.W[i].noalias() = ws.W[p] * ws.R[i];
      ws.Wd[i].noalias() = ws.Wd[p] * ws.R[i];
      ws.Wdd[i].noalias() = ws.Wdd[p] * ws.R[i];
      ws.pdd[i].noalias() = ws.Wdd[p] * ws.pstar[i];
      ws.pdd[i] += ws.pdd[p];
      if (revolute) {
        ws.U[i].noalias() = ws.W[p] * ws.dR[i];  // ∂W_i/∂q_i = W_{i-1} ∂A_i/∂q_i
        ws.Wd[i] += ws.U[i] * qdi;
        ws.Wdd[i] += (ws.Wd[p] * ws.dR[i]) * (S(2) * qdi);  // + 2 Ẇ_{i-1} ∂A_i/∂q_i q̇_i
        ws.Wdd[i] += (ws.W[p] * ws.d2R[i]) * (qdi * qdi);   // + W_{i-1} ∂²A_i/∂q_i² q̇_i²
        ws.Wdd[i] += ws.U[i] * qddi;                        // + W_{i-1} ∂A_i/∂q_i q̈_i
      } else {
        ws.u[i].noalias() = ws.W[p] * ws.dpstar[i];  // ∂p_i/∂q_i = W_{i-1} ∂p*_i/∂q_i
        ws.pdd[i] += (ws.Wd[p] * ws.dpstar[i]) * (S(2) * qdi) + ws.u[i] * qddi;
      }
    }
    // own terms: D_i = n_i p̈_iᵀ + J_i Ẅ_iᵀ + ... (B3), e_iᵀ = m_i p̈_i + Ẅ_i n_i + ... (B4), c_i = n_i + ... (13)
    const Inertia<S>& I = model.I[i];
    ws.D[i].noalias() = I.h * ws.pdd[i].transpose();
    ws.D[i].noalias() += secondMoment(I) * ws.Wdd[i].transpose();
    ws.e[i].noalias() = ws.Wdd[i] * I.h;
    ws.e[i] += I.m * ws.pdd[i];
    ws.c[i] = I.h;
    ws.M[i] = I.m;
    trace.step(StepKind::Lagrange3Forward, i);
  }
  // Tip to base: F_i (B5), then fold i into its parent: D (B3), e (B4), c (13) and M
  const Vec3<S>& g = model.gravity.v;
  for (int i = model.N; i >= 1; --i) {
    S& Fi = ws.tau[model.joints[i].idx_v];
    if (model.joints[i].type == JointType::Revolute)  // F_i = tr(∂W_i/∂q_i D_i) - gᵀ ∂W_i/∂q_i c_i
      Fi = traceOfProductTransposed(ws.U[i], ws.D[i].transpose()) - g.dot(ws.U[i] * ws.c[i]);
    else  // F_i = (e_iᵀ - M_i g) · ∂p_i/∂q_i
      Fi = (ws.e[i] - ws.M[i] * g).dot(ws.u[i]);
    const int p = model.parent[i];
    if (p > 0) {
      ws.D[p].noalias() += ws.R[i] * ws.D[i];  // D_{i-1} += A_i D_i + ^{i-1}p*_i e_i   (B3)
      ws.D[p].noalias() += ws.pstar[i] * ws.e[i].transpose();
      ws.e[p] += ws.e[i];                      // e_{i-1} += e_i                       (B4)
      ws.c[p].noalias() += ws.R[i] * ws.c[i];  // c_{i-1} += A_i c_i + M_i ^{i-1}p*_i
      ws.c[p] += ws.M[i] * ws.pstar[i];
      ws.M[p] += ws.M[i];
    }
    trace.step(StepKind::Lagrange3Backward, i);
  }
  return ws.tau;
}

}  // namespace dyn
