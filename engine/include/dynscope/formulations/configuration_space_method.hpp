// The configuration-space method of Horn & Raibert ("Configuration space control", The Industrial Robot, 1978), as
// Hollerbach presents and counts it. Seed hollerbach-recursive-lagrangian.txt, section "Configuration space method":
//   F_i = G_i(q) + Σ_j J_ij(q) q̈_j + Σ_j Σ_k C_ijk(q) q̇_j q̇_k
// "The gravity compensation G_i, inertial terms J_ij, and Coriolis coefficients C_ijk are tabulated": the tables
// depend on the configuration only; what Tables I-II count (2n³ + n² multiplications) is the evaluation. So the
// two steps are separate here: configurationSpaceTabulate (off-line, booked under OpCategory::Tabulation by the
// counting scalar) and configurationSpaceEvaluate (the counted part; no sines or cosines at all).
//
// How the tables are filled (Horn & Raibert filled theirs from the Lagrangian dynamics; we use our own RNEA,
// rnea.hpp, so that J and G are independent of CRBA and can be checked against it):
//   G_i   = ID(q, 0, 0)_i                                                  (the gravity vector g(q))
//   J_·k  = ID(q, 0, e_k) - G                                              (unit vectors: Walker & Orin's method 1)
//   C_·jj = ID(q, e_j, 0) - G,   C_·jk = C_·kj = ½ (ID(q, e_j + e_k, 0) - G - C_·jj - C_·kk)   (j ≠ k)
// The velocity terms of ID are exactly a quadratic form in q̇, so polarization recovers its symmetric coefficients
// (the Christoffel symbols of the first kind, ½(∂J_ij/∂q_k + ∂J_ik/∂q_j - ∂J_jk/∂q_i)) without approximation:
// (n² + 3n + 2)/2 RNEA calls, O(n³). The method needs nothing but ID, so it runs on every model, floating bases
// and multi-degree-of-freedom joints included (q̇, q̈ are then the velocity coordinates v, v̇).
#pragma once
#include <stdexcept>
#include <string>

#include "../algorithms/rnea.hpp"
#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"

namespace dyn {

template <class S>
struct ConfigurationSpaceWorkspace {
  using RowMatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  static constexpr long maxTableEntries = 16l << 20;  // 16 Mi scalars (128 MB of doubles): n <= 256

  int n = 0;
  DataTpl<S> data;  // for the RNEA calls of the tabulation
  VecX<S> zero, unit;
  VecX<S> G;     // G_i
  RowMatX J;     // J_ij
  RowMatX C;     // C_ijk at (i, j n + k)
  VecX<S> qdqd;  // q̇_j q̇_k at j n + k
  VecX<S> tau;

  explicit ConfigurationSpaceWorkspace(const ModelTpl<S>& model) : n(model.nv) {
    if (long(n) * n * n > maxTableEntries)
      throw std::invalid_argument("the configuration-space method tabulates n^3 Coriolis coefficients: " +
                                  std::to_string(n) + " degrees of freedom are too many (at most 256)");
    data = DataTpl<S>(model);
    zero = VecX<S>::Zero(n);
    unit = VecX<S>::Zero(n);
    G = VecX<S>::Zero(n);
    J = RowMatX::Zero(n, n);
    C = RowMatX::Zero(n, long(n) * n);
    qdqd = VecX<S>::Zero(long(n) * n);
    tau = VecX<S>::Zero(n);
  }
};

// Fills G(q), J(q) and C(q) at configuration q (off-line work: OpCategory::Tabulation).
template <class S, class Q>
void configurationSpaceTabulate(const ModelTpl<S>& model, ConfigurationSpaceWorkspace<S>& ws,
                                const Eigen::MatrixBase<Q>& q) {
  checkSize("the configuration-space workspace (degrees of freedom)", ws.n, model.nv);
  checkSize("q", q.size(), model.nq);
  const OpCountScope<S> offline(OpCategory::Tabulation);
  const int n = ws.n;
  ws.G = rnea(model, ws.data, q, ws.zero, ws.zero);  // G = ID(q, 0, 0)
  for (int k = 0; k < n; ++k) {                      // J e_k = ID(q, 0, e_k) - G
    ws.unit[k] = S(1);
    ws.J.col(k) = rnea(model, ws.data, q, ws.zero, ws.unit) - ws.G;
    ws.unit[k] = S(0);
  }
  for (int j = 0; j < n; ++j) {  // C_·jj = ID(q, e_j, 0) - G
    ws.unit[j] = S(1);
    ws.C.col(long(j) * n + j) = rnea(model, ws.data, q, ws.unit, ws.zero) - ws.G;
    ws.unit[j] = S(0);
  }
  for (int j = 0; j < n; ++j)
    for (int k = j + 1; k < n; ++k) {  // C_·jk = C_·kj = ½ (ID(q, e_j + e_k, 0) - G - C_·jj - C_·kk)
      ws.unit[j] = ws.unit[k] = S(1);
      ws.C.col(long(j) * n + k) = S(0.5) * (rnea(model, ws.data, q, ws.unit, ws.zero) - ws.G -
                                            ws.C.col(long(j) * n + j) - ws.C.col(long(k) * n + k));
      ws.C.col(long(k) * n + j) = ws.C.col(long(j) * n + k);
      ws.unit[j] = ws.unit[k] = S(0);
    }
}

// F = G + J q̈ + q̇ᵀ C q̇ from the tables of the last configurationSpaceTabulate (the cost Hollerbach counts).
// trace: the products q̇_j q̇_k, then one step per row i (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Vd, class Ad, class Trace = NoTrace>
const VecX<S>& configurationSpaceEvaluate(const ModelTpl<S>& model, ConfigurationSpaceWorkspace<S>& ws,
                                          const Eigen::MatrixBase<Vd>& qd, const Eigen::MatrixBase<Ad>& qdd,
                                          Trace&& trace = Trace{}) {
  checkSize("the configuration-space workspace (degrees of freedom)", ws.n, model.nv);
  checkSize("qd", qd.size(), model.nv);
  checkSize("qdd", qdd.size(), model.nv);
  const int n = ws.n;
  for (int j = 0; j < n; ++j)  // q̇_j q̇_k, formed once for all i
    for (int k = 0; k < n; ++k) ws.qdqd[long(j) * n + k] = S(qd[j]) * S(qd[k]);
  trace.step(StepKind::CsVelocityProducts, 0);
  for (int i = 0; i < n; ++i) {  // F_i = G_i + Σ_j J_ij q̈_j + Σ_j Σ_k C_ijk q̇_j q̇_k
    ws.tau[i] = ws.G[i] + ws.J.row(i).dot(qdd.template cast<S>()) + ws.C.row(i).dot(ws.qdqd);
    trace.step(StepKind::CsRow, i);
  }
  return ws.tau;
}

// Inverse dynamics by the method: tabulate at q, then evaluate (only the evaluation is the method's counted cost).
// trace: the tabulation as one step, then the evaluation's.
template <class S, class Q, class Vd, class Ad, class Trace = NoTrace>
const VecX<S>& configurationSpaceInverseDynamics(const ModelTpl<S>& model, ConfigurationSpaceWorkspace<S>& ws,
                                                 const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Vd>& qd,
                                                 const Eigen::MatrixBase<Ad>& qdd, Trace&& trace = Trace{}) {
  trace.begin(TraceAlgorithm::ConfigurationSpace, q, qd, qdd);
  configurationSpaceTabulate(model, ws, q);
  trace.step(StepKind::CsTabulate, 0);
  return configurationSpaceEvaluate(model, ws, qd, qdd, trace);
}

}  // namespace dyn
