// Uicker/Kahn Lagrangian inverse dynamics with 4x4 matrices: O(n⁴).
// Seed hollerbach-recursive-lagrangian.txt, section "Uicker/Kahn Lagrangian formulation", eqs. (3)-(5):
//   F_i = Σ_{j≥i} [ Σ_{k≤j} tr(U_ji J_j U_jkᵀ) q̈_k + Σ_{k≤j} Σ_{l≤j} tr(U_ji J_j U_jklᵀ) q̇_k q̇_l - m_j gᵀ U_ji r_j ]
// with U_ji = ∂W_j/∂q_i and U_jkl = ∂²W_j/∂q_k∂q_l formed as in eq. (5) and stored, after the ^kW_j ("The terms
// ^kW_j were computed first and stored. Then the ∂W_j/∂q_k and ∂²W_j/∂q_k∂q_l terms were computed and their results
// also stored"). On a tree, j ≥ i reads "j a descendant of i" and k ≤ j "k on the path to j" (lagrangian_links.hpp).
//
// Economies, as Hollerbach allows "a few reasonable" ones: U_ji J_j is formed once per (i, j) and each trace as
// Σ_rc (U_ji J_j)_rc (U_jkl)_rc instead of a full 4x4 product (Hollerbach's count forms both products per term,
// which is most of the difference to his Table I; docs/formulations.md). No sparsity of the matrices is used.
// The A_j and their derivatives are booked apart (OpCategory::JointTransforms), as Hollerbach excludes them.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "lagrangian_links.hpp"

namespace dyn {

template <class S>
struct UickerKahnWorkspace {
  LagrangianModelShape shape;  // the model it was built for (checked on every call)
  int N = 0;
  TreePaths paths;
  std::vector<Mat4<S>> A, dA, d2A;  // A_j, ∂A_j/∂q_j, ∂²A_j/∂q_j² (per body)
  std::vector<Mat4<S>> W;           // W_j = ^0W_j
  std::vector<Mat4<S>> kW;          // ^kW_j for k = anc(j)[a], a < depth(j) - 1  (offset paths.offset[j])
  std::vector<Mat4<S>> U;           // U_jk = ∂W_j/∂q_k for k = anc(j)[a]      (offset paths.offset[j])
  std::vector<Mat4<S>> H;           // ∂W_λ(l)/∂q_k ∂A_l/∂q_l for k = anc(l)[a], a < depth(l) - 1
  std::vector<Mat4<S>> G2;          // W_λ(k) ∂²A_k/∂q_k² (per body)
  std::vector<Mat4<S>> V;           // U_jkl = ∂²W_j/∂q_k∂q_l, d_j x d_j per body (offset vOffset[j])
  std::vector<int> vOffset;
  VecX<S> tau;
  static constexpr long maxSecondDerivatives = 4l << 20;  // 4 Mi stored 4x4 matrices (512 MB of doubles)

  explicit UickerKahnWorkspace(const ModelTpl<S>& model)
      : shape(model, "the Uicker/Kahn Lagrangian formulation"), N(model.N), paths(model.parent) {
    const int n1 = N + 1;
    A.resize(n1);
    dA.resize(n1);
    d2A.resize(n1);
    W.resize(n1);
    G2.resize(n1);
    kW.resize(paths.total);
    U.resize(paths.total);
    H.resize(paths.total);
    vOffset.assign(n1, 0);
    int v = 0;
    for (int j = 1; j <= N; ++j) {
      vOffset[j] = v;
      v += paths.depth[j] * paths.depth[j];
    }
    if (v > maxSecondDerivatives)
      throw std::invalid_argument("the Uicker/Kahn formulation stores every d2W_j/dq_k dq_l: " + std::to_string(v) +
                                  " 4x4 matrices for this model, more than its limit of " +
                                  std::to_string(maxSecondDerivatives));
    V.resize(v);
    tau = VecX<S>::Zero(model.nv);
  }
};

// trace: one step per body in each of the five loops: ^kW_j, U_jk, the factors of U_jkl, U_jkl, and
// body j's terms of eq. 4 (the outer sum over j; trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class Vd, class Ad, class Trace = NoTrace>
const VecX<S>& uickerKahnInverseDynamics(const ModelTpl<S>& model, UickerKahnWorkspace<S>& ws,
                                         const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Vd>& qd,
                                         const Eigen::MatrixBase<Ad>& qdd, Trace&& trace = Trace{}) {
  checkLagrangianInputs(model, ws.shape, q.size(), qd.size(), qdd.size());
  trace.begin(TraceAlgorithm::UickerKahn, q, qd, qdd);
  const TreePaths& P = ws.paths;
  auto qdOf = [&](int k) { return S(qd[model.joints[k].idx_v]); };
  auto qddOf = [&](int k) { return S(qdd[model.joints[k].idx_v]); };
  {  // A_j, ∂A_j/∂q_j, ∂²A_j/∂q_j² (eq. 2; not counted by Hollerbach)
    const OpCountScope<S> jointWork(OpCategory::JointTransforms);
    for (int j = 1; j <= model.N; ++j) {
      linkMatrices4(model.joints[j], model.Xtree[j], S(q[model.joints[j].idx_q]), ws.A[j], ws.dA[j], ws.d2A[j]);
      trace.ahead(j);
    }
  }
  // ^kW_j = ^kW_λ(j) A_j and W_j = W_λ(j) A_j (eq. 3), computed first and stored
  for (int j = 1; j <= model.N; ++j) {
    const int p = model.parent[j], o = P.offset[j], op = P.offset[p];
    ws.W[j] = p == 0 ? ws.A[j] : Mat4<S>(ws.W[p] * ws.A[j]);
    for (int a = 0; a + 1 < P.depth[j]; ++a)
      ws.kW[o + a] = a + 1 == P.depth[p] ? ws.A[j] : Mat4<S>(ws.kW[op + a] * ws.A[j]);  // ^pW_j = A_j
    trace.step(StepKind::UkPoses, j);
  }
  // U_jk = W_λ(k) ∂A_k/∂q_k ^kW_j (eq. 5, first line); U_kk = W_λ(k) ∂A_k/∂q_k
  for (int j = 1; j <= model.N; ++j) {
    const int p = model.parent[j], o = P.offset[j], dj = P.depth[j];
    ws.U[o + dj - 1] = p == 0 ? ws.dA[j] : Mat4<S>(ws.W[p] * ws.dA[j]);
    for (int a = 0; a + 1 < dj; ++a) {
      const int k = P.at(j, a);
      ws.U[o + a] = ws.U[P.offset[k] + P.depth[k] - 1] * ws.kW[o + a];
    }
    trace.step(StepKind::UkFirstDerivatives, j);
  }
  // H_kl = ∂W_λ(l)/∂q_k ∂A_l/∂q_l = W_λ(k) ∂A_k/∂q_k ^kW_λ(l) ∂A_l/∂q_l (k above l), and W_λ(k) ∂²A_k/∂q_k²
  for (int l = 1; l <= model.N; ++l) {
    const int p = model.parent[l];
    ws.G2[l] = p == 0 ? ws.d2A[l] : Mat4<S>(ws.W[p] * ws.d2A[l]);
    for (int a = 0; a + 1 < P.depth[l]; ++a) ws.H[P.offset[l] + a] = ws.U[P.offset[p] + a] * ws.dA[l];
    trace.step(StepKind::UkSecondFactors, l);
  }
  // U_jkl = H_kl ^lW_j (k < l), W_λ(k) ∂²A_k/∂q_k² ^kW_j (k = l) (eq. 5, second and third lines), symmetric
  for (int j = 1; j <= model.N; ++j) {
    const int o = P.offset[j], dj = P.depth[j], ov = ws.vOffset[j];
    for (int b = 0; b < dj; ++b) {
      const int l = P.at(j, b);
      for (int a = 0; a < b; ++a) {
        const Mat4<S>& Hkl = ws.H[P.offset[l] + a];
        ws.V[ov + a * dj + b] = l == j ? Hkl : Mat4<S>(Hkl * ws.kW[o + b]);
        ws.V[ov + b * dj + a] = ws.V[ov + a * dj + b];
      }
      ws.V[ov + b * dj + b] = l == j ? ws.G2[l] : Mat4<S>(ws.G2[l] * ws.kW[o + b]);
    }
    trace.step(StepKind::UkSecondDerivatives, j);
  }
  // F_i = Σ_j [ Σ_k tr(U_ji J_j U_jkᵀ) q̈_k + Σ_k Σ_l tr(U_ji J_j U_jklᵀ) q̇_k q̇_l - gᵀ U_ji m_j r_j ]   (eq. 4)
  ws.tau.setZero();
  const Vec4<S> g = gravity4(model);
  for (int j = 1; j <= model.N; ++j) {
    const int o = P.offset[j], dj = P.depth[j], ov = ws.vOffset[j];
    const Mat4<S> Jj = pseudoInertia(model.I[j]);
    const Vec4<S> mr = firstMoment4(model.I[j]);
    for (int a = 0; a < dj; ++a) {
      const int i = P.at(j, a);
      const Mat4<S> UJ = ws.U[o + a] * Jj;  // U_ji J_j, once per (i, j)
      S Fi = S(0);
      for (int b = 0; b < dj; ++b) {
        const int k = P.at(j, b);
        Fi += traceOfProductTransposed(UJ, ws.U[o + b]) * qddOf(k);  // tr(U_ji J_j U_jkᵀ) q̈_k
        for (int c = 0; c < dj; ++c)                                 // tr(U_ji J_j U_jklᵀ) q̇_k q̇_l
          Fi += traceOfProductTransposed(UJ, ws.V[ov + b * dj + c]) * qdOf(k) * qdOf(P.at(j, c));
      }
      Fi -= g.dot(ws.U[o + a] * mr);  // m_j gᵀ U_ji r_j
      ws.tau[model.joints[i].idx_v] += Fi;
    }
    trace.step(StepKind::UkSum, j);
  }
  return ws.tau;
}

}  // namespace dyn
