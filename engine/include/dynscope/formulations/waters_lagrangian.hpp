// Waters' Lagrangian inverse dynamics with backward recurrences, 4x4 matrices: O(n²).
// Seed hollerbach-recursive-lagrangian.txt, section "Lagrangian dynamics with backward recursion", eqs. (6)-(10):
//   F_i = Σ_{j≥i} [ tr(∂W_j/∂q_i J_j Ẅ_jᵀ) - m_j gᵀ ∂W_j/∂q_i r_j ]                                        (6)
// with Ẅ_j left unexpanded and computed by the recurrences (8)-(10), base to tip ("backward" in Hollerbach's
// sense of the link numbering). ∂W_j/∂q_i follows the same recurrence, ∂W_j/∂q_i = ∂W_λ(j)/∂q_i A_j and
// ∂W_i/∂q_i = W_λ(i) ∂A_i/∂q_i, so every term costs one 4x4 product: the n² term of Table I.
// On a tree, j ≥ i reads "j a descendant of i" (lagrangian_links.hpp).
// Economy: J_j Ẅ_jᵀ is formed once per j and the trace as an element-wise product (docs/formulations.md).
// The A_j and their derivatives are booked apart (OpCategory::JointTransforms), as Hollerbach excludes them.
#pragma once
#include <vector>

#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "lagrangian_links.hpp"

namespace dyn {

template <class S>
struct WatersWorkspace {
  LagrangianModelShape shape;  // the model it was built for (checked on every call)
  int N = 0;
  TreePaths paths;
  std::vector<Mat4<S>> A, dA, d2A;  // A_j, ∂A_j/∂q_j, ∂²A_j/∂q_j²
  std::vector<Mat4<S>> W, Wd, Wdd;  // W_j, Ẇ_j, Ẅ_j
  std::vector<Mat4<S>> U;           // ∂W_j/∂q_i for i = anc(j)[a]  (offset paths.offset[j])
  VecX<S> tau;

  explicit WatersWorkspace(const ModelTpl<S>& model)
      : shape(model, "Waters' Lagrangian formulation"), N(model.N), paths(model.parent) {
    const int n1 = N + 1;
    for (auto* v : {&A, &dA, &d2A, &W, &Wd, &Wdd}) v->resize(n1);
    U.resize(paths.total);
    tau = VecX<S>::Zero(model.nv);
  }
};

// trace: one step per body j in each of the two loops, the recurrences and the sum of eq. 6
// (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class Vd, class Ad, class Trace = NoTrace>
const VecX<S>& watersInverseDynamics(const ModelTpl<S>& model, WatersWorkspace<S>& ws, const Eigen::MatrixBase<Q>& q,
                                     const Eigen::MatrixBase<Vd>& qd, const Eigen::MatrixBase<Ad>& qdd,
                                     Trace&& trace = Trace{}) {
  checkLagrangianInputs(model, ws.shape, q.size(), qd.size(), qdd.size());
  trace.begin(TraceAlgorithm::Waters, q, qd, qdd);
  const TreePaths& P = ws.paths;
  {  // A_j, ∂A_j/∂q_j, ∂²A_j/∂q_j² (eq. 2; not counted by Hollerbach)
    const OpCountScope<S> jointWork(OpCategory::JointTransforms);
    for (int j = 1; j <= model.N; ++j) {
      linkMatrices4(model.joints[j], model.Xtree[j], S(q[model.joints[j].idx_q]), ws.A[j], ws.dA[j], ws.d2A[j]);
      trace.ahead(j);
    }
  }
  for (int j = 1; j <= model.N; ++j) {
    const int p = model.parent[j], o = P.offset[j], dj = P.depth[j];
    const S qdj = S(qd[model.joints[j].idx_v]), qddj = S(qdd[model.joints[j].idx_v]);
    Mat4<S>& Ujj = ws.U[o + dj - 1];
    if (p == 0) {  // W_0 = 1, Ẇ_0 = Ẅ_0 = 0
      ws.W[j] = ws.A[j];
      Ujj = ws.dA[j];
      ws.Wd[j] = Ujj * qdj;
      ws.Wdd[j] = ws.d2A[j] * (qdj * qdj) + Ujj * qddj;
    } else {
      ws.W[j] = ws.W[p] * ws.A[j];                // W_j = W_{j-1} A_j                       (8)
      Ujj = ws.W[p] * ws.dA[j];                   // ∂W_j/∂q_j = W_{j-1} ∂A_j/∂q_j
      ws.Wd[j] = ws.Wd[p] * ws.A[j] + Ujj * qdj;  // Ẇ_j = Ẇ_{j-1} A_j + W_{j-1} ∂A_j/∂q_j q̇_j  (9)
      // Ẅ_j = Ẅ_{j-1} A_j + 2 Ẇ_{j-1} ∂A_j/∂q_j q̇_j + W_{j-1} ∂²A_j/∂q_j² q̇_j² + W_{j-1} ∂A_j/∂q_j q̈_j   (10)
      ws.Wdd[j] =
          ws.Wdd[p] * ws.A[j] + (ws.Wd[p] * ws.dA[j]) * (S(2) * qdj) + (ws.W[p] * ws.d2A[j]) * (qdj * qdj) + Ujj * qddj;
    }
    // ∂W_j/∂q_i = ∂W_{j-1}/∂q_i A_j for the joints i above j
    for (int a = 0; a + 1 < dj; ++a) ws.U[o + a] = ws.U[P.offset[p] + a] * ws.A[j];
    trace.step(StepKind::WatersRecurrence, j);
  }
  // F_i = Σ_j [ tr(∂W_j/∂q_i J_j Ẅ_jᵀ) - gᵀ ∂W_j/∂q_i m_j r_j ]   (6)
  ws.tau.setZero();
  const Vec4<S> g = gravity4(model);
  for (int j = 1; j <= model.N; ++j) {
    const int o = P.offset[j];
    const Mat4<S> JWddT = pseudoInertia(model.I[j]) * ws.Wdd[j].transpose();  // J_j Ẅ_jᵀ
    const Vec4<S> mr = firstMoment4(model.I[j]);
    for (int a = 0; a < P.depth[j]; ++a) {
      const Mat4<S>& Uji = ws.U[o + a];
      ws.tau[model.joints[P.at(j, a)].idx_v] += traceOfProductTransposed(Uji, JWddT.transpose()) - g.dot(Uji * mr);
    }
    trace.step(StepKind::WatersSum, j);
  }
  return ws.tau;
}

}  // namespace dyn
