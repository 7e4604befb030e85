// What a lecture shows of Saha's DeNOC inverse dynamics (section 5.1) and generalized inertia
// matrix (section 4.1), as denoc_inverse_dynamics.hpp and denoc_generalized_inertia.hpp run them:
// twists and wrenches at the link origins O_i, in link coordinates; B_{i,λ(i)} is applied as the joint
// transform A_i (denoc_workspace.hpp). Displayed intermediate terms are recomputed from the
// workspace; the values written are the workspace's own.
#include "dynscope/formulations/denoc_workspace.hpp"
#include "trace_captures.hpp"

namespace dyn::trace_capture {

using F = TraceFrame;
using R = TraceRole;

std::string denocB(int i, int l, bool transposed) {
  return "**B**_{" + std::to_string(i) + "," + std::to_string(l) + "}" + (transposed ? "^{T}" : "");
}

int showJointRate(StepBuilder& b, const JointModel<double>& J, int i) {
  return b.show(motionTerm(indexed("**p**", i), jointRateVector(J), F::Link));
}

// Section 5.1, forward recursion for link i: t_i (eq. 12), its rate, the link's wrench (eq. 7).
void denocTwist(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const int l = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const Transform<double>& A = ws.A[i];
  const Motion<double>&tl = ws.t[l], &tdl = ws.tdot[l];
  const double thd = rec.qd()[J.idx_v], thdd = rec.accelerationsOrForces()[J.idx_v];
  const bool revolute = J.type == JointType::Revolute;

  const int tA = b.show(transformTerm(denocB(i, l, false), A));
  const int tp = showJointRate(b, J, i);
  b.line(
      "**B**_{i,λ(i)} = ^{i}**X**_{λ(i)},   **p**_{i} = [**e**_{i}; **0**] (revolute) or [**0**; **e**_{i}] "
      "(prismatic)",
      "Saha 1999, eqs. 12–13 and 15, with twists at the link origin O_{i} (the twist propagation matrix as the "
      "joint transform)",
      {tA, ",", tp});

  const int tBt = b.show(motionTerm(denocB(i, l, false) + " " + indexed("**t**", l), A.apply(tl), F::Link));
  const int tqd = b.show(scalarTerm(indexed("θ̇", i), thd));
  const int tt = b.write(motionTerm(indexed("**t**", i), ws.t[i], F::Link, R::Velocity, "t", i));
  b.line("**t**_{i} = **B**_{i,λ(i)} **t**_{λ(i)} + **p**_{i} θ̇_{i}", "Saha 1999, eq. 12",
         {tt, "=", tBt, "+", tp, tqd});

  // B' t_l = [0; w_l x (w_l x r)] (+ w_l x e th' for a prismatic joint, whose r moves), p'_i th'_i = W_i p_i th'_i
  const Eigen::Vector3d wl = A.E * tl.w, e(0, 0, 1);
  const Eigen::Vector3d wlxe = wl.cross(e) * thd;
  const Eigen::Vector3d moving = revolute ? Eigen::Vector3d::Zero() : wlxe;
  const int tBtd = b.show(motionTerm(denocB(i, l, false) + " " + indexed("**ṫ**", l), A.apply(tdl), F::Link));
  const int tBdt =
      b.show(motionTerm("**Ḃ**_{" + std::to_string(i) + "," + std::to_string(l) + "} " + indexed("**t**", l),
                        Motion<double>(Eigen::Vector3d::Zero(), A.E * tl.w.cross(tl.w.cross(A.r)) + moving), F::Link));
  const int tqdd = b.show(scalarTerm(indexed("θ̈", i), thdd));
  const int tpd = b.show(motionTerm(
      indexed("**ṗ**", i) + " " + indexed("θ̇", i),
      revolute ? Motion<double>(wlxe, Eigen::Vector3d::Zero()) : Motion<double>(Eigen::Vector3d::Zero(), wlxe),
      F::Link));
  const int ttd = b.write(motionTerm(indexed("**ṫ**", i), ws.tdot[i], F::Link, R::TwistRate, "ṫ", i));
  b.line(
      "**ṫ**_{i} = **B**_{i,λ(i)} **ṫ**_{λ(i)} + **Ḃ**_{i,λ(i)} **t**_{λ(i)} + **p**_{i} θ̈_{i} + "
      "**ṗ**_{i} θ̇_{i}",
      "Saha 1999, section 5.1, forward recursion (the time derivative of eq. 12; ṗ_{i} = Ω_{i} p_{i})",
      {ttd, "=", tBtd, "+", tBdt, "+", tp, tqdd, "+", tpd});

  const Inertia<double>& M = m.I[i];
  const Motion<double>& t = ws.t[i];
  const int tM = b.show(inertiaTerm(indexed("**M**", i), M.toMatrix(), F::Link));
  const int tgyro = b.show(
      forceTerm(indexed("**W**", i) + " " + indexed("**M**", i) + " " + indexed("**E**", i) + " " + indexed("**t**", i),
                Force<double>(t.w.cross(M.Ibar * t.w), t.w.cross(t.w.cross(M.h))), F::Link));
  const int tw = b.write(forceTerm(indexed("**w**", i), ws.w[i], F::Link, R::Force, "w", i));
  b.line("**w**_{i} = **M**_{i} **ṫ**_{i} + **W**_{i} **M**_{i} **E**_{i} **t**_{i}",
         "Saha 1999, eq. 7 (Ṁ_{i} t_{i} about the link origin: W_{i} = diag(ω_{i}×, ω_{i}×), E_{i} = diag(1, O))",
         {tw, "=", tM, ttd, "+", tgyro});
}

// Section 5.1, backward recursion for link i: tau_i = p_i^T w~_i, then w~ of the parent (eq. 30).
void denocWrench(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const int l = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const int tp = showJointRate(b, J, i);
  const int tw = b.show(forceTerm(indexed("**w̃**", i), ws.w[i], F::Link, R::Force));
  const int ttau = b.write(scalarTerm(indexed("τ", i), ws.tau[J.idx_v], "tau", i));
  b.line("τ_{i} = **p**_{i}^{T} **w̃**_{i}", "Saha 1999, eq. 30", {ttau, "=", tp, "ᵀ", tw});
  if (l == 0) return;
  const TraceTerm* before = rec.previous("w", l);
  const int tBefore =
      b.show(forceTerm(indexed("**w̃**", l) + " (before)",
                       before ? Force<double>::fromVector(before->value) : Force<double>::Zero(), F::Link));
  const int tBw =
      b.show(forceTerm(denocB(i, l, true) + " " + indexed("**w̃**", i), ws.A[i].applyTranspose(ws.w[i]), F::Link));
  const int twl = b.write(forceTerm(indexed("**w̃**", l), ws.w[l], F::Link, R::Force, "w", l));
  b.line("**w̃**_{λ(i)} = **w**_{λ(i)} + **B**_{i,λ(i)}^{T} **w̃**_{i}",
         "Saha 1999, eq. 30 (on a tree: the sum over the children of λ(i))", {twl, "=", tBefore, "+", tBw});
}

// Eq. 23b for body i: the composite body of λ(i) takes in that of i.
void denocComposite(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const int l = m.parent[i];
  const TraceTerm* before = rec.previous("M̃", l);
  const int tBefore = b.show(inertiaTerm(indexed("**M̃**", l) + " (before)",
                                         before ? Mat6<double>(before->value) : Mat6<double>::Zero(), F::Link));
  const int tMoved = b.show(inertiaTerm(denocB(i, l, true) + " " + indexed("**M̃**", i) + " " + denocB(i, l, false),
                                        ws.Mtilde[i].transformToA(ws.A[i]).toMatrix(), F::Link));
  const int tAfter = b.write(inertiaTerm(indexed("**M̃**", l), ws.Mtilde[l].toMatrix(), F::Link, "M̃", l));
  b.line("**M̃**_{λ(i)} = **M̃**_{λ(i)} + **B**_{i,λ(i)}^{T} **M̃**_{i} **B**_{i,λ(i)}",
         "Saha 1999, eq. 23b (the mass matrix of the composite body)", {tAfter, "=", tBefore, "\n", "+", tMoved});
}

// Eq. 24 for body i: column i of the GIM, walking up the tree with psi = B^T M~_i p_i.
void denocGimColumn(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const JointModel<double>& Ji = m.joints[i];
  const int col = Ji.idx_v;
  const auto entrySymbol = [](int r, int c) { return "I_{" + dofLabel(r) + "," + dofLabel(c) + "}"; };
  Force<double> psi = inertiaTimesS(Ji, ws.Mtilde[i], jointRateVector(Ji));  // as the algorithm forms it
  const int tM = b.show(inertiaTerm(indexed("**M̃**", i), ws.Mtilde[i].toMatrix(), F::Link));
  const int tp = showJointRate(b, Ji, i);
  const int tpsi = b.show(forceTerm("**ψ** = " + indexed("**M̃**", i) + " " + indexed("**p**", i), psi, F::Link));
  const int tIii = b.show(scalarTerm(entrySymbol(col, col), ws.I(col, col)));
  b.line("**ψ** = **M̃**_{i} **p**_{i},   I_{ii} = **p**_{i}^{T} **ψ**", "Saha 1999, eq. 24 (j = i)",
         {tpsi, "=", tM, tp, "\n", tIii, "=", tp, "ᵀ", tpsi});
  std::vector<std::pair<int, int>> entries{{col, col}};
  std::vector<StepBuilder::Token> walk;
  int hidden = 0;
  for (int j = i; m.parent[j] > 0;) {
    psi = ws.A[j].applyTranspose(psi);
    j = m.parent[j];
    const int row = m.joints[j].idx_v;
    entries.emplace_back(col, row);
    entries.emplace_back(row, col);
    if (int(entries.size()) / 2 > kShownAtMost) {
      ++hidden;
      continue;
    }
    const int tpsij = b.show(forceTerm("**ψ** (at " + std::to_string(j) + ")", psi, F::Link));
    const int tpj = showJointRate(b, m.joints[j], j);
    const int tIij = b.show(scalarTerm(entrySymbol(col, row) + " = " + entrySymbol(row, col), ws.I(col, row)));
    if (!walk.empty()) walk.push_back("\n");
    walk.insert(walk.end(), {tIij, "=", tpj, "ᵀ", tpsij});
  }
  if (hidden > 0) walk.insert(walk.end(), {"\n", moreAncestors(hidden)});
  if (walk.empty())
    b.line("λ(i) = 0: no link above i, the column is complete", "Saha 1999, eq. 24", {});
  else
    b.line("**ψ** = **B**_{j,λ(j)}^{T} **ψ**,  j = λ(j),   I_{ij} = I_{ji} = **p**_{j}^{T} **ψ**",
           "Saha 1999, eqs. 24 and 14 (B_{ij} = B_{i,i−1} ⋯ B_{j+1,j}: one link at a time)", walk);
  b.write(patchTerm("**I**", "H", -1, std::move(entries), ws.I));
}

}  // namespace dyn::trace_capture
