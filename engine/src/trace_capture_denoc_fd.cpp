// What a lecture shows of Saha's DeNOC forward dynamics (section 5.2, Appendix B) after its inverse
// dynamics for phi: step 1 with the reverse Gaussian elimination (UDU^T) from the last link, step 2
// (D^-1), step 3 from the first link; as denoc_forward_dynamics.hpp runs them, link coordinates.
#include "dynscope/formulations/denoc_forward_dynamics.hpp"
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

using F = TraceFrame;


}  // namespace

// Section 5.2's input: phi = tau - (C th' + gravity), the inverse dynamics of section 5.1 at th'' = 0.
void denocPhi(TraceRecorder& rec, StepBuilder& b, int) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const Eigen::MatrixXd& tau = rec.argument(TraceAlgorithm::DenocFd, 2);
  const int ttau = b.show(vectorTerm("**τ**", tau.col(0)));
  const int tC = b.show(vectorTerm("**C** θ̇ + **g** = ID(θ, θ̇, **0**)", ws.tau));
  const int tphi = b.show(vectorTerm("**φ**", ws.phi));
  for (int i = 1; i <= m.N; ++i) b.write(scalarTerm(indexed("φ", i), ws.phi[m.joints[i].idx_v], "φ", i));
  b.line("**φ** = **τ** − **C** θ̇ − **g**",
         "Saha 1999, section 5.2 (φ from the inverse dynamics of section 5.1 with θ̈ = 0)", {tphi, "=", ttau, "−", tC});
}

// Step 1 for link i (last link first): the articulated mass M^_i is complete; psi, m^, psi^ (eqs.
// 47-48), tau^_i (eq. 34), eta_i (eq. 35), then M^ and eta of the parent (eqs. 50, 35).
void denocStep1(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const JointModel<double>& J = m.joints[i];
  const int k = J.idx_v, l = m.parent[i];
  const bool revolute = J.type == JointType::Revolute;
  const Mat6<double>& Mh = ws.Mhat[i];
  const Vec6<double> psi = Mh.col(revolute ? 2 : 5);
  const int tMh = b.show(inertiaTerm(indexed("**M̂**", i), Mh, F::Link));
  const int tp = showJointRate(b, J, i);
  const int tpsi = b.show(forceTerm(indexed("**ψ**", i), Force<double>::fromVector(psi), F::Link));
  const int tmh = b.write(scalarTerm(indexed("m̂", i), ws.mhat[k], "m̂", i));
  const int tpsiHat = b.write(forceTerm(indexed("**ψ̂**", i), ws.psiHat[i], F::Link, TraceRole::None, "ψ̂", i));
  b.line("**ψ**_{i} = **M̂**_{i} **p**_{i},   m̂_{i} = **p**_{i}^{T} **ψ**_{i},   **ψ̂**_{i} = **ψ**_{i} / m̂_{i}",
         "Saha 1999, Appendix B, eqs. 47–48 (m̂_{i}: the articulated body's inertia about joint i)",
         {tpsi, "=", tMh, tp, "\n", tmh, "=", tp, "ᵀ", tpsi, "\n", tpsiHat, "=", tpsi, "/", tmh});

  const Force<double> etaBefore = forceOf(rec.previous("η", i));  // eta_{i,i+1}: what the children added
  const int tphi = b.show(scalarTerm(indexed("φ", i), ws.phi[k]));
  const int tpEta = b.show(
      scalarTerm("**p**_{" + std::to_string(i) + "}^{T} **η**_{" + std::to_string(i) + "," + std::to_string(i) + "+1}",
                 jointComponent(J, etaBefore)));
  const int tth = b.write(scalarTerm(indexed("τ̂", i), ws.tauHat[k], "τ̂", i));
  b.line("τ̂_{i} = φ_{i} − **p**_{i}^{T} **η**_{i,i+1}", "Saha 1999, eq. 34 (step 1: τ̂ = U^{−1} φ)",
         {tth, "=", tphi, "−", tpEta});
  const int tEtaBefore =
      b.show(forceTerm("**η**_{" + std::to_string(i) + "," + std::to_string(i) + "+1}", etaBefore, F::Link));
  const int teta = b.write(forceTerm(indexed("**η**", i), ws.eta[i], F::Link, TraceRole::None, "η", i));
  b.line("**η**_{i} = **ψ̂**_{i} τ̂_{i} + **η**_{i,i+1}", "Saha 1999, eq. 35",
         {teta, "=", tpsiHat, tth, "+", tEtaBefore});
  if (l == 0) {
    b.line("λ(i) = 0: nothing is passed on (the base)", "", {});
    return;
  }
  const TraceTerm* MlBefore = rec.previous("M̂", l);
  const int tMlBefore = b.show(inertiaTerm(indexed("**M̂**", l) + " (before)",
                                           MlBefore ? Mat6<double>(MlBefore->value) : Mat6<double>::Zero(), F::Link));
  const int tMbar = b.show(inertiaTerm(denocB(i, l, true) + " " + indexed("**M̄**", i) + " " + denocB(i, l, false),
                                       articulatedToParent(J, ws.A[i], Mh, psi, ws.psiHat[i].toVector()), F::Link));
  const int tMl = b.write(inertiaTerm(indexed("**M̂**", l), ws.Mhat[l], F::Link, "M̂", l));
  b.line(
      "**M̂**_{λ(i)} = **M̂**_{λ(i)} + **B**_{i,λ(i)}^{T} **M̄**_{i} **B**_{i,λ(i)},   **M̄**_{i} = **M̂**_{i} − "
      "**ψ**_{i} **ψ̂**_{i}^{T}",
      "Saha 1999, Appendix B, eq. 50 (the articulated body of λ(i) takes in that of i)",
      {tMl, "=", tMlBefore, "\n", "+", tMbar});
  const int tetalBefore = b.show(forceTerm(indexed("**η**", l) + " (before)", forceOf(rec.previous("η", l)), F::Link));
  const int tBeta =
      b.show(forceTerm(denocB(i, l, true) + " " + indexed("**η**", i), ws.A[i].applyTranspose(ws.eta[i]), F::Link));
  const int tetal = b.write(forceTerm(indexed("**η**", l), ws.eta[l], F::Link, TraceRole::None, "η", l));
  b.line("**η**_{λ(i)} = **η**_{λ(i)} + **B**_{i,λ(i)}^{T} **η**_{i}",
         "Saha 1999, eq. 35 (η_{λ(i),i}; on a tree the children of λ(i) add up)",
         {tetal, "=", tetalBefore, "+", tBeta});
}

// Step 2 for dof k: taubar = D^-1 tau^.
void denocStep2(TraceRecorder& rec, StepBuilder& b, int k) {
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const int i = rec.model().dofBody[k];
  const int tth = b.show(scalarTerm(indexed("τ̂", i), ws.tauHat[k]));
  const int tmh = b.show(scalarTerm(indexed("m̂", i), ws.mhat[k]));
  const int tbar = b.write(scalarTerm(indexed("τ̄", i), ws.tauBar[k], "τ̄", i));
  b.line("τ̄_{i} = τ̂_{i} / m̂_{i}", "Saha 1999, section 5.2, step 2 (τ̄ = D^{−1} τ̂, D = diag(m̂_{i}): eq. 54)",
         {tbar, "=", tth, "/", tmh});
}

// Step 3 for link i (first link first): mu_{i,i-1} (eq. 37), th''_i (eq. 36), mu_i (eq. 37).
void denocStep3(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const DenocWorkspace& ws = rec.workspace<DenocWorkspace>();
  const JointModel<double>& J = m.joints[i];
  const int k = J.idx_v, l = m.parent[i];
  const Motion<double> mul = ws.A[i].apply(ws.mu[l]);
  const int tmul = b.show(motionTerm(indexed("**μ**", l), ws.mu[l], F::Link));
  const int tBmu = b.show(motionTerm("**μ**_{" + std::to_string(i) + "," + std::to_string(l) +
                                         "} = " + denocB(i, l, false) + " " + indexed("**μ**", l),
                                     mul, F::Link));
  b.line("**μ**_{i,λ(i)} = **B**_{i,λ(i)} **μ**_{λ(i)}", "Saha 1999, eq. 37 (μ_{0} = 0)",
         {tBmu, "=", denocB(i, l, false), tmul});
  const int tbar = b.show(scalarTerm(indexed("τ̄", i), ws.tauBar[k]));
  const int tpsiHat = b.show(forceTerm(indexed("**ψ̂**", i), ws.psiHat[i], F::Link));
  const int tqdd = b.write(scalarTerm(indexed("θ̈", i), ws.qdd[k], "qdd", i));
  b.line("θ̈_{i} = τ̄_{i} − **ψ̂**_{i}^{T} **μ**_{i,λ(i)}", "Saha 1999, eq. 36 (step 3: θ̈ = U^{−T} τ̄)",
         {tqdd, "=", tbar, "−", tpsiHat, "ᵀ", tBmu});
  const int tp = showJointRate(b, J, i);
  const int tmu = b.write(motionTerm(indexed("**μ**", i), ws.mu[i], F::Link, TraceRole::None, "μ", i));
  b.line("**μ**_{i} = **p**_{i} θ̈_{i} + **μ**_{i,λ(i)}", "Saha 1999, eq. 37", {tmu, "=", tp, tqdd, "+", tBmu});
}

}  // namespace dyn::trace_capture
