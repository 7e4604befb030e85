// What a lecture shows of each RNEA step (Featherstone Part 2, Fig. 5, eqs. 9-13), link coordinates.
#include "trace_captures.hpp"

namespace dyn::trace_capture {

using F = TraceFrame;
using R = TraceRole;

// Fig. 5 lines 4-8 for body i: jcalc, v_i (eq. 9), a_i (eq. 10), f_i (eq. 11).
void rneaOutward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const int lambda = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const int iv = J.idx_v, nv = J.nv;
  const Transform<double>& X = d.Xup[i];
  const Eigen::VectorXd qdd = rec.accelerationsOrForces().segment(iv, nv);
  const std::string Xs = transformSymbol(i, lambda);

  const int tX = b.show(transformTerm(Xs, X));
  const int tS = b.show(subspaceTerm(indexed("**S**", i), &d.S[iv], nv, F::Link));
  const int tvJ = b.show(motionTerm("**v**_{J}", d.vJ[i], F::Link));
  const int tcJ = b.show(motionTerm("**c**_{J}", d.cJ[i], F::Link));
  b.line(
      "[**X**_{J}, **S**_{i}, **v**_{J}, **c**_{J}] = jcalc(jtype(i), q_{i}, q̇_{i}),   ^{i}**X**_{λ(i)} = **X**_{J} "
      "**X**_{T}(i)",
      "Featherstone Part 2, Fig. 5 lines 4–5 (jcalc, eq. 14)", {tX, tS, tvJ, tcJ});

  const int tXv = b.show(motionTerm(Xs + " " + indexed("**v**", lambda), X.apply(d.v[lambda]), F::Link));
  const int tv = b.write(motionTerm(indexed("**v**", i), d.v[i], F::Link, R::Velocity, "v", i));
  b.line("**v**_{i} = ^{i}**X**_{λ(i)} **v**_{λ(i)} + **v**_{J}", "Featherstone Part 2, eq. 9 (Fig. 5 line 6)",
         {tv, "=", tXv, "+", tvJ});

  const int tXa = b.show(motionTerm(Xs + " " + indexed("**a**", lambda), X.apply(d.a[lambda]), F::Link));
  const int tqdd = b.show(vectorTerm(indexed("q̈", i), qdd));
  const int tvxvJ = b.show(motionTerm(indexed("**v**", i) + " × **v**_{J}", d.v[i].cross(d.vJ[i]), F::Link));
  const int ta = b.write(motionTerm(indexed("**a**", i), d.a[i], F::Link, R::Acceleration, "a", i));
  b.line("**a**_{i} = ^{i}**X**_{λ(i)} **a**_{λ(i)} + **S**_{i} q̈_{i} + **c**_{J} + **v**_{i} × **v**_{J}",
         "Featherstone Part 2, eq. 10 (Fig. 5 line 7)", {ta, "=", tXa, "+", tS, tqdd, "+", tcJ, "+", tvxvJ});

  const Inertia<double>& I = m.I[i];
  const int tI = b.show(inertiaTerm(indexed("**I**", i), I.toMatrix(), F::Link));
  const int tbias = b.show(forceTerm(indexed("**v**", i) + " ×^{*} " + indexed("**I**", i) + " " + indexed("**v**", i),
                                     d.v[i].crossForce(I * d.v[i]), F::Link));
  const int tf = b.write(forceTerm(indexed("**f**", i), d.f[i], F::Link, R::Force, "f", i));
  if (const auto* fext = rec.externalForces()) {
    const int te = b.show(forceTerm(indexed("**f**^{x}", i), (*fext)[i], F::Link));
    b.line("**f**_{i} = **I**_{i} **a**_{i} + **v**_{i} ×^{*} **I**_{i} **v**_{i} − **f**^{x}_{i}",
           "Featherstone Part 2, eq. 11 (Fig. 5 line 8; RNEA reference card: external force)",
           {tf, "=", tI, ta, "+", tbias, "−", te});
  } else {
    b.line("**f**_{i} = **I**_{i} **a**_{i} + **v**_{i} ×^{*} **I**_{i} **v**_{i}",
           "Featherstone Part 2, eq. 11 (Fig. 5 line 8)", {tf, "=", tI, ta, "+", tbias});
  }
}

// Fig. 5 lines 11-13 for body i: tau_i (eq. 13) and the joint force passed to the parent (eq. 12).
void rneaInward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const int lambda = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const int iv = J.idx_v, nv = J.nv;
  const int tS = b.show(subspaceTerm(indexed("**S**", i), &d.S[iv], nv, F::Link));
  const int tf = b.show(forceTerm(indexed("**f**", i), d.f[i], F::Link, R::Force));
  const int ttau = b.write(vectorTerm(indexed("τ", i), d.tau.segment(iv, nv), "tau", i));
  b.line("τ_{i} = **S**_{i}^{T} **f**_{i}", "Featherstone Part 2, eq. 13 (Fig. 5 line 11)", {ttau, "=", tS, "ᵀ", tf});
  if (lambda == 0) return;
  const TraceTerm* before = rec.previous("f", lambda);
  const int tBefore =
      b.show(forceTerm(indexed("**f**", lambda) + " (before)",
                       before ? Force<double>::fromVector(before->value) : Force<double>::Zero(), F::Link));
  const int tXf = b.show(forceTerm(transformSymbol(lambda, i, true) + " " + indexed("**f**", i),
                                   d.Xup[i].applyTranspose(d.f[i]), F::Link));
  const int tfl = b.write(forceTerm(indexed("**f**", lambda), d.f[lambda], F::Link, R::Force, "f", lambda));
  b.line("**f**_{λ(i)} = **f**_{λ(i)} + ^{λ(i)}**X**_{i}^{*} **f**_{i}",
         "Featherstone Part 2, eq. 12 (Fig. 5 line 13: the sum over the children μ(λ(i)))",
         {tfl, "=", tBefore, "+", tXf});
}

}  // namespace dyn::trace_capture
