// What a lecture shows of Hollerbach's recursive Lagrangian formulations (4x4: eqs. 8-14; 3x3:
// eqs. 10, 15-18, B1-B5), as recursive_lagrangian_4x4.hpp and _3x3.hpp run them: base coordinates,
// W_i the pose of link i (W_0 = 1), A_i its transform in the parent (lagrangian_links.hpp).
#include "dynscope/formulations/recursive_lagrangian_3x3.hpp"
#include "dynscope/formulations/recursive_lagrangian_4x4.hpp"
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

using F = TraceFrame;
using R = TraceRole;
using Eigen::MatrixXd;
using Eigen::Vector3d;


std::string eq(const char* which) { return std::string(kHollerbach) + ", " + which; }

TraceTerm withRole(TraceTerm t, TraceRole role) {
  t.role = role;
  t.frame = F::World;
  return t;
}

MatrixXd previousOr(const TraceRecorder& rec, const char* quantity, int index, const MatrixXd& otherwise) {
  const TraceTerm* t = rec.previous(quantity, index);
  return t ? t->value : otherwise;
}

}  // namespace

std::string partialSymbol(const char* of, int j, int i) {
  return "∂" + std::string(of) + "_{" + std::to_string(j) + "}/∂q_{" + std::to_string(i) + "}";
}

RecurrenceTerms lagrangianRecurrences(TraceRecorder& rec, StepBuilder& b, const LagrangianLink& k, bool derivative) {
  const int i = k.i, p = k.parent;
  const std::string I = std::to_string(i);
  RecurrenceTerms out;
  const MatrixXd one = MatrixXd::Identity(k.A.rows(), k.A.cols()), zero = MatrixXd::Zero(k.A.rows(), k.A.cols());
  const MatrixXd Wp = previousOr(rec, "W", p, one), Wdp = previousOr(rec, "Ẇ", p, zero),
                 Wddp = previousOr(rec, "Ẅ", p, zero);
  const int tA = b.show(matrixTerm(indexed("A", i), k.A));
  const int tdA = b.show(matrixTerm(partialSymbol("A", i, i), k.dA));
  const int tWp = b.show(matrixTerm(indexed("W", p), Wp));
  const int tW = out.W = b.write(matrixTerm(indexed("W", i), k.W, "W", i));
  b.line("W_{i} = W_{i−1} A_{i}", eq("eq. 8 (i − 1: the parent λ(i) on a tree)"), {tW, "=", tWp, tA});
  const int tqd = b.show(scalarTerm(indexed("q̇", i), k.qd));
  const int tqdd = b.show(scalarTerm(indexed("q̈", i), k.qdd));
  int tU = -1;
  if (derivative) {
    tU = out.U = b.write(matrixTerm(partialSymbol("W", i, i), k.U, "∂W/∂q", i));
    b.line("∂W_{i}/∂q_{i} = W_{i−1} ∂A_{i}/∂q_{i}", eq("eq. 5 (k = j)"), {tU, "=", tWp, tdA});
  }
  const int tWdp = b.show(matrixTerm(indexed("Ẇ", p), Wdp));
  const int tWd = out.Wd = b.write(withRole(matrixTerm(indexed("Ẇ", i), k.Wd, "Ẇ", i), R::PoseRate));
  if (derivative)
    b.line("Ẇ_{i} = Ẇ_{i−1} A_{i} + ∂W_{i}/∂q_{i} q̇_{i}", eq("eq. 9"), {tWd, "=", tWdp, tA, "+", tU, tqd});
  else
    b.line("Ẇ_{i} = Ẇ_{i−1} A_{i}   (a prismatic joint does not turn the link)", eq("eq. 9"), {tWd, "=", tWdp, tA});
  const int tWddpA = b.show(matrixTerm(indexed("Ẅ", p) + " " + indexed("A", i), Wddp * k.A));
  const int tWdd = out.Wdd = b.write(withRole(matrixTerm(indexed("Ẅ", i), k.Wdd, "Ẅ", i), R::PoseAcceleration));
  if (!derivative) {
    b.line("Ẅ_{i} = Ẅ_{i−1} A_{i}   (a prismatic joint does not turn the link)", eq("eq. 10"), {tWdd, "=", tWddpA});
    return out;
  }
  const int t2 = b.show(matrixTerm("2 " + indexed("Ẇ", p) + " " + partialSymbol("A", i, i) + " " + indexed("q̇", i),
                                   (Wdp * k.dA) * (2 * k.qd)));
  const int t3 = b.show(matrixTerm(indexed("W", p) + " ∂²A_{" + I + "}/∂q_{" + I + "}² " + indexed("q̇", i) + "²",
                                   (Wp * k.d2A) * (k.qd * k.qd)));
  const int t4 = b.show(matrixTerm(partialSymbol("W", i, i) + " " + indexed("q̈", i), k.U * k.qdd));
  b.line(
      "Ẅ_{i} = Ẅ_{i−1} A_{i} + 2 Ẇ_{i−1} ∂A_{i}/∂q_{i} q̇_{i} + W_{i−1} ∂²A_{i}/∂q_{i}² q̇_{i}² + ∂W_{i}/∂q_{i} "
      "q̈_{i}",
      eq("eq. 10"), {tWdd, "=", tWddpA, "+", t2, "\n", "+", t3, "+", t4, "  ", tqdd});
  return out;
}

// 4x4, base to tip for body i: W_i, dW_i/dq_i, W'_i, W''_i (eqs. 8-10), then D_i = J_i W''_i^T and
// c_i = m_i r_i, the own terms of eqs. 12-13.
void lagrange4Forward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const auto& ws = rec.workspace<RecursiveLagrangian4x4Workspace<double>>();
  const JointModel<double>& J = m.joints[i];
  LagrangianLink k{i,
                   m.parent[i],
                   ws.A[i],
                   ws.dA[i],
                   ws.d2A[i],
                   ws.W[i],
                   ws.U[i],
                   ws.Wd[i],
                   ws.Wdd[i],
                   rec.qd()[J.idx_v],
                   rec.accelerationsOrForces()[J.idx_v]};
  const int tWdd = lagrangianRecurrences(rec, b, k, true).Wdd;
  const int tJ = b.show(matrixTerm(indexed("J", i), pseudoInertia(m.I[i])));
  const int tD = b.write(matrixTerm(indexed("D", i), ws.D[i], "D", i));
  b.line("D_{i} = J_{i} Ẅ_{i}^{T} + …   (the children's A D come on the way back)", eq("eq. 12"),
         {tD, "=", tJ, tWdd, "ᵀ"});
  const int tc = b.write(vectorTerm(indexed("c", i), ws.c[i], "c", i));
  b.line("c_{i} = m_{i} ^{i}r_{i} + …   (homogeneous: (m_{i} r^{*}_{i}; m_{i}))", eq("eq. 13"), {tc});
}

// 4x4, tip to base for body i: F_i (eq. 14), then D and c of the parent (eqs. 12-13).
void lagrange4Backward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const auto& ws = rec.workspace<RecursiveLagrangian4x4Workspace<double>>();
  const int p = m.parent[i];
  const Vec4<double> g = gravity4(m);
  const int tU = b.show(matrixTerm(partialSymbol("W", i, i), ws.U[i]));
  const int tD = b.show(matrixTerm(indexed("D", i), ws.D[i]));
  const int tc = b.show(vectorTerm(indexed("c", i), ws.c[i]));
  const int tg = b.show(vectorTerm("g", g));
  const int ttr = b.show(
      scalarTerm("tr(∂W_{" + std::to_string(i) + "}/∂q D)", traceOfProductTransposed(ws.U[i], ws.D[i].transpose())));
  const int tgr = b.show(scalarTerm("g^{T} ∂W/∂q c", g.dot(ws.U[i] * ws.c[i])));
  const int tF = b.write(scalarTerm(indexed("F", i), ws.tau[m.joints[i].idx_v], "tau", i));
  b.line("F_{i} = tr(∂W_{i}/∂q_{i} D_{i}) − g^{T} ∂W_{i}/∂q_{i} c_{i}", eq("eq. 14"),
         {tF, "=", ttr, "−", tgr, "\n", "tr(", tU, tD, ")", "\n", tg, "ᵀ", tU, tc});
  if (p == 0) return;
  const int tA = b.show(matrixTerm(indexed("A", i), ws.A[i]));
  const int tDp0 = b.show(matrixTerm(indexed("D", p) + " (before)", previousOr(rec, "D", p, MatrixXd::Zero(4, 4))));
  const int tDp = b.write(matrixTerm(indexed("D", p), ws.D[p], "D", p));
  b.line("D_{i−1} = J_{i−1} Ẅ_{i−1}^{T} + A_{i} D_{i}", eq("eq. 12 (on a tree: the sum over the children)"),
         {tDp, "=", tDp0, "+", tA, tD});
  const int tcp0 = b.show(vectorTerm(indexed("c", p) + " (before)", previousOr(rec, "c", p, MatrixXd::Zero(4, 1))));
  const int tcp = b.write(vectorTerm(indexed("c", p), ws.c[p], "c", p));
  b.line("c_{i−1} = m_{i−1} ^{i−1}r_{i−1} + A_{i} c_{i}", eq("eq. 13"), {tcp, "=", tcp0, "+", tA, tc});
}

// 3x3, base to tip for body i: W_i, W'_i, W''_i (eqs. 8-10), p''_i (eq. 16), the own terms of D_i,
// e_i (eq. 18, B3-B4) and c_i (eq. 13).
void lagrange3Forward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const auto& ws = rec.workspace<RecursiveLagrangian3x3Workspace<double>>();
  const JointModel<double>& J = m.joints[i];
  const bool revolute = J.type == JointType::Revolute;
  const int p = m.parent[i];
  LagrangianLink k{i,
                   p,
                   ws.R[i],
                   ws.dR[i],
                   ws.d2R[i],
                   ws.W[i],
                   revolute ? ws.U[i] : Mat3<double>::Zero(),
                   ws.Wd[i],
                   ws.Wdd[i],
                   rec.qd()[J.idx_v],
                   rec.accelerationsOrForces()[J.idx_v]};
  const int tWdd = lagrangianRecurrences(rec, b, k, revolute).Wdd;
  const MatrixXd zero3 = MatrixXd::Zero(3, 3);
  const Vector3d pddp = previousOr(rec, "p̈", p, MatrixXd::Zero(3, 1)).col(0);
  const MatrixXd Wddp = previousOr(rec, "Ẅ", p, zero3), Wdp = previousOr(rec, "Ẇ", p, zero3),
                 Wp = previousOr(rec, "W", p, MatrixXd::Identity(3, 3));
  const int tps = b.show(vector3Term(indexed("p^{*}", i), ws.pstar[i], F::None));
  const int tpddp = b.show(vector3Term(indexed("p̈", p), pddp, F::World));
  const int tWddp = b.show(matrixTerm(indexed("Ẅ", p), Wddp));
  const int tpdd = b.write(vector3Term(indexed("p̈", i), ws.pdd[i], F::World, R::OriginAccelerationTrue, "p̈", i));
  if (revolute) {
    b.line("p̈_{i} = p̈_{i−1} + Ẅ_{i−1} ^{i−1}p^{*}_{i}",
           eq("eq. 16 (p^{*}_{i} from origin i − 1 to origin i, fixed in link i − 1 in our frames)"),
           {tpdd, "=", tpddp, "+", tWddp, tps});
  } else {
    const int tu = b.write(vector3Term(partialSymbol("p", i, i), ws.u[i], F::World, R::None, "∂p/∂q", i));
    b.line("∂p_{i}/∂q_{i} = W_{i−1} ∂p^{*}_{i}/∂q_{i}", eq("Appendix B, eq. B1 (prismatic joint)"),
           {tu, "=", b.show(matrixTerm(indexed("W", p), Wp)), b.show(vector3Term("∂p^{*}/∂q", ws.dpstar[i], F::None))});
    const int t2 =
        b.show(vector3Term("2 Ẇ_{" + std::to_string(p) + "} ∂p^{*}/∂q q̇", (Wdp * ws.dpstar[i]) * (2 * k.qd), F::World));
    b.line("p̈_{i} = p̈_{i−1} + Ẅ_{i−1} p^{*}_{i} + 2 Ẇ_{i−1} ∂p^{*}_{i}/∂q_{i} q̇_{i} + ∂p_{i}/∂q_{i} q̈_{i}",
           eq("eq. 16 with the prismatic joint's own motion (docs/formulations.md)"),
           {tpdd, "=", tpddp, "+", tWddp, tps, "+", t2, "+", tu, b.show(scalarTerm(indexed("q̈", i), k.qdd))});
  }
  const Inertia<double>& I = m.I[i];
  const int tn = b.show(vector3Term(indexed("n", i), I.h, F::None));
  const int tJ = b.show(matrixTerm(indexed("J", i), secondMoment(I)));
  const int tD = b.write(matrixTerm(indexed("D", i), ws.D[i], "D", i));
  b.line("D_{i} = ^{i}n_{i} p̈_{i}^{T} + J_{i} Ẅ_{i}^{T} + …", eq("eq. 18; Appendix B, eq. B3 (own terms first)"),
         {tD, "=", tn, tpdd, "ᵀ", "+", tJ, tWdd, "ᵀ"});
  const int tm = b.show(scalarTerm(indexed("m", i), I.m));
  const int te = b.write(vector3Term(indexed("e", i) + "^{T}", ws.e[i], F::None, R::None, "e", i));
  b.line("e_{i}^{T} = m_{i} p̈_{i} + Ẅ_{i} ^{i}n_{i} + …", eq("eq. 18; Appendix B, eq. B4"),
         {te, "=", tm, tpdd, "+", tWdd, tn});
  const int tc = b.write(vector3Term(indexed("c", i), ws.c[i], F::None, R::None, "c", i));
  const int tM = b.write(scalarTerm(indexed("M", i), ws.M[i], "M", i));
  b.line("c_{i} = ^{i}n_{i} + …,   M_{i} = m_{i} + …   (n_{i} = m_{i} r^{*}_{i}; M: the mass outboard)",
         eq("eq. 13 (3×3: the mass moves p^{*} into c)"), {tc, ",", tM});
}

// 3x3, tip to base for body i: F_i (eq. 17 / B5; prismatic: eq. 15 with B1), then D, e, c, M of the
// parent (B3, B4, 13).
void lagrange3Backward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const auto& ws = rec.workspace<RecursiveLagrangian3x3Workspace<double>>();
  const int p = m.parent[i];
  const bool revolute = m.joints[i].type == JointType::Revolute;
  const Vector3d& g = m.gravity.v;
  const int tD = b.show(matrixTerm(indexed("D", i), ws.D[i]));
  const int tc = b.show(vector3Term(indexed("c", i), ws.c[i], F::None));
  const int te = b.show(vector3Term(indexed("e", i) + "^{T}", ws.e[i], F::None));
  const int tg = b.show(vector3Term("g", g, F::World));
  const int tF = b.write(scalarTerm(indexed("F", i), ws.tau[m.joints[i].idx_v], "tau", i));
  if (revolute) {
    const int tU = b.show(matrixTerm(partialSymbol("W", i, i), ws.U[i]));
    const int ttr = b.show(scalarTerm("tr(∂W/∂q D)", traceOfProductTransposed(ws.U[i], ws.D[i].transpose())));
    const int tgr = b.show(scalarTerm("g^{T} ∂W/∂q c", g.dot(ws.U[i] * ws.c[i])));
    b.line("F_{i} = tr(∂W_{i}/∂q_{i} D_{i}) − g^{T} ∂W_{i}/∂q_{i} c_{i}", eq("eq. 17; Appendix B, eq. B5"),
           {tF, "=", ttr, "−", tgr, "\n", "tr(", tU, tD, ")", "\n", tg, "ᵀ", tU, tc});
  } else {
    const int tu = b.show(vector3Term(partialSymbol("p", i, i), ws.u[i], F::World));
    const int tM = b.show(scalarTerm(indexed("M", i), ws.M[i]));
    b.line("F_{i} = (e_{i}^{T} − M_{i} g) · ∂p_{i}/∂q_{i}   (prismatic: ∂W_{j}/∂q_{i} = 0)",
           eq("eq. 15 with Appendix B, eq. B1"), {tF, "=", "(", te, "−", tM, tg, ") ·", tu});
  }
  if (p == 0) return;
  const int tA = b.show(matrixTerm(indexed("A", i), ws.R[i]));
  const int tps = b.show(vector3Term(indexed("p^{*}", i), ws.pstar[i], F::None));
  const int tDp0 = b.show(matrixTerm(indexed("D", p) + " (before)", previousOr(rec, "D", p, MatrixXd::Zero(3, 3))));
  const int tDp = b.write(matrixTerm(indexed("D", p), ws.D[p], "D", p));
  b.line("D_{i−1} = … + A_{i} D_{i} + ^{i−1}p^{*}_{i} e_{i}", eq("eq. 18; Appendix B, eq. B3"),
         {tDp, "=", tDp0, "+", tA, tD, "+", tps, te});
  const int tep0 = b.show(
      vector3Term(indexed("e", p) + "^{T} (before)", previousOr(rec, "e", p, MatrixXd::Zero(3, 1)).col(0), F::None));
  const int tep = b.write(vector3Term(indexed("e", p) + "^{T}", ws.e[p], F::None, R::None, "e", p));
  b.line("e_{i−1} = … + e_{i}", eq("eq. 18; Appendix B, eq. B4"), {tep, "=", tep0, "+", te});
  const int tcp0 =
      b.show(vector3Term(indexed("c", p) + " (before)", previousOr(rec, "c", p, MatrixXd::Zero(3, 1)).col(0), F::None));
  const int tMi = b.show(scalarTerm(indexed("M", i), ws.M[i]));
  const int tcp = b.write(vector3Term(indexed("c", p), ws.c[p], F::None, R::None, "c", p));
  b.line("c_{i−1} = … + A_{i} c_{i} + M_{i} ^{i−1}p^{*}_{i}", eq("eq. 13 (the mass of links i … n at origin i)"),
         {tcp, "=", tcp0, "+", tA, tc, "+", tMi, tps});
  const int tMp = b.write(scalarTerm(indexed("M", p), ws.M[p], "M", p));
  b.line("M_{i−1} = m_{i−1} + M_{i}", eq("eq. 13"), {tMp});
}

}  // namespace dyn::trace_capture
