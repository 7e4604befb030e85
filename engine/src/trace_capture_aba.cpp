// What a lecture shows of each ABA step: the three passes in link coordinates, as aba.hpp runs
// them (Featherstone Part 2, Fig. 9, eqs. 54-68).
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

using F = TraceFrame;
using R = TraceRole;

std::string sup(const char* name, const char* upper, int i) {
  return std::string("**") + name + "**^{" + upper + "}_{" + std::to_string(i) + "}";
}

Mat6<double> matrixOf(const TraceTerm* t) { return t ? Mat6<double>(t->value) : Mat6<double>::Zero(); }

// D_i^-1 as aba.hpp has it: stored, except for a free joint (S = 1), which keeps its Cholesky factor.
Eigen::MatrixXd dInverse(const Model& m, const Data& d, int i) {
  const JointModel<double>& J = m.joints[i];
  if (J.type != JointType::Floating) return d.Dinv[i];
  const Mat6<double>& L = d.Lfree[i];
  const Mat6<double> Ll = L.triangularView<Eigen::Lower>();
  return (Ll * Ll.transpose()).inverse();
}

}  // namespace

// Pass 1 for body i: jcalc, v_i, c_i, IA_i = I_i, pA_i (link coordinates).
void abaVelocities(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const int lambda = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const int iv = J.idx_v, nv = J.nv;
  const Eigen::VectorXd qd = rec.qd().segment(iv, nv);
  const Transform<double>& X = d.Xup[i];
  const std::string Xs = transformSymbol(i, lambda);
  const int tX = b.show(transformTerm(Xs, X));
  const int tS = b.show(subspaceTerm(indexed("**S**", i), &d.S[iv], nv, F::Link));
  b.line("[**X**_{J}, **S**_{i}] = jcalc(jtype(i), q_{i}),   ^{i}**X**_{λ(i)} = **X**_{J} **X**_{T}(i)",
         "Featherstone Part 2, Fig. 9 (jcalc, eq. 14); link coordinates: S is e_{z} for revolute joints", {tX, tS});

  const int tXv = b.show(motionTerm(Xs + " " + indexed("**v**", lambda), X.apply(d.v[lambda]), F::Link));
  const int tqd = b.show(vectorTerm(indexed("q̇", i), qd));
  const int tv = b.write(motionTerm(indexed("**v**", i), d.v[i], F::Link, R::Velocity, "v", i));
  b.line("**v**_{i} = ^{i}**X**_{λ(i)} **v**_{λ(i)} + **S**_{i} q̇_{i}", "Featherstone Part 2, eq. 9 (Fig. 9)",
         {tv, "=", tXv, "+", tS, tqd});

  const int tSqd = b.show(motionTerm(indexed("**S**", i) + " " + indexed("q̇", i), combine(&d.S[iv], qd), F::Link));
  const int tc = b.write(motionTerm(indexed("**c**", i), d.c[i], F::Link, R::BiasAcceleration, "c", i));
  b.line("**c**_{i} = **v**_{i} × **S**_{i} q̇_{i}", "Featherstone Part 2, eq. 55 (plus **c**_{J} where S depends on q)",
         {tc, "=", tv, "×", tSqd});

  const int tIA = b.write(inertiaTerm(sup("I", "A", i), d.IA[i], F::Link, "IA", i));
  b.line("**I**^{A}_{i} = **I**_{i}", "Featherstone Part 2, Fig. 9 (pass 2 starts from the rigid body: eq. 64)", {tIA});
  const int tpA = b.write(forceTerm(sup("p", "A", i), d.pA[i], F::Link, R::BiasForce, "pA", i));
  b.line("**p**^{A}_{i} = **p**_{i} = **v**_{i} ×^{*} **I**_{i} **v**_{i}" +
             std::string(rec.externalForces() ? " − **f**^{x}_{i}" : ""),
         "Featherstone Part 2, eq. 54 (and eq. 65 starts from it)", {tpA});
}

// Pass 2 for body i: U_i, D_i, u_i, then Ia_i and pa_i passed to the parent.
void abaInertias(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const int lambda = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const int iv = J.idx_v, nv = J.nv;
  const Mat6<double> IA = matrixOf(rec.previous("IA", i));  // complete: every child has added to it
  const Force<double> pA = forceOf(rec.previous("pA", i));
  const Eigen::MatrixXd S = columns(&d.S[iv], nv), U = columns(&d.U[iv], nv);
  const Eigen::MatrixXd D = S.transpose() * U;
  const Eigen::VectorXd tau = rec.accelerationsOrForces().segment(iv, nv);

  const int tIA = b.show(inertiaTerm(sup("I", "A", i), IA, F::Link));
  const int tS = b.show(subspaceTerm(indexed("**S**", i), &d.S[iv], nv, F::Link));
  const int tU = nv == 1 ? b.write(forceTerm(indexed("**U**", i), d.U[iv], F::Link, R::None, "U", i))
                         : b.write(matrixTerm(indexed("**U**", i), U, "U", i));
  b.line("**U**_{i} = **I**^{A}_{i} **S**_{i}", "Featherstone Part 2, Fig. 9 (there **h**_{i})", {tU, "=", tIA, tS});
  const int tD =
      nv == 1 ? b.write(scalarTerm(indexed("D", i), D(0, 0), "D", i)) : b.write(matrixTerm(indexed("D", i), D, "D", i));
  b.line("D_{i} = **S**_{i}^{T} **U**_{i}", "Featherstone Part 2, Fig. 9 (there d_{i}); eq. 56's denominator",
         {tD, "=", tS, "ᵀ", tU});
  const int ttau = b.show(vectorTerm(indexed("τ", i), tau));
  const int tpA = b.show(forceTerm(sup("p", "A", i), pA, F::Link, R::BiasForce));
  const int tu = b.write(vectorTerm(indexed("u", i), d.u.segment(iv, nv), "u", i));
  b.line("u_{i} = τ_{i} − **S**_{i}^{T} **p**^{A}_{i}", "Featherstone Part 2, eq. 57",
         {tu, "=", ttau, "−", tS, "ᵀ", tpA});
  if (lambda == 0) {
    b.line("λ(i) = 0: nothing is passed on (the base does not move)", "Featherstone Part 2, Fig. 9", {});
    return;
  }
  const Eigen::MatrixXd Dinv = dInverse(m, d, i);
  // eq. 62 from its terms (aba() keeps D Ia for a revolute joint without armature, so not d.IA[i])
  const Mat6<double> Ia = IA - U * Dinv * U.transpose();
  const int tUDU =
      b.show(inertiaTerm(indexed("**U**", i) + " " + indexed("D", i) + "^{−1} " + indexed("**U**", i) + "^{T}",
                         Mat6<double>(U * Dinv * U.transpose()), F::Link));
  const int tIa = b.write(inertiaTerm(sup("I", "a", i), Ia, F::Link, "Ia", i));
  b.line("**I**^{a}_{i} = **I**^{A}_{i} − **U**_{i} D_{i}^{−1} **U**_{i}^{T}", "Featherstone Part 2, eq. 62",
         {tIa, "=", tIA, "\n", "−", tUDU});
  const TraceTerm* paLocal = nullptr;
  for (const TraceTerm& t : rec.locals())
    if (t.quantity == "pa") paLocal = &t;
  const Force<double> pa = forceOf(paLocal);
  const int tIac = b.show(forceTerm(sup("I", "a", i) + " " + indexed("**c**", i), Ia * d.c[i], F::Link));
  const Eigen::VectorXd UDu = U * (Dinv * d.u.segment(iv, nv));
  const int tUDu = b.show(forceTerm(indexed("**U**", i) + " " + indexed("D", i) + "^{−1} " + indexed("u", i),
                                    Force<double>::fromVector(UDu), F::Link));
  const int tpa = b.write(forceTerm(sup("p", "a", i), pa, F::Link, R::BiasForce, "pa", i));
  b.line("**p**^{a}_{i} = **p**^{A}_{i} + **I**^{a}_{i} **c**_{i} + **U**_{i} D_{i}^{−1} u_{i}",
         "Featherstone Part 2, eq. 63", {tpa, "=", tpA, "+", tIac, "+", tUDu});
  const std::string Xs = transformSymbol(lambda, i, true);
  const int tXpa = b.show(forceTerm(Xs + " " + sup("p", "a", i), d.Xup[i].applyTranspose(pa), F::Link));
  const int tpAlBefore =
      b.show(forceTerm(sup("p", "A", lambda) + " (before)", forceOf(rec.previous("pA", lambda)), F::Link));
  const int tpAl = b.write(forceTerm(sup("p", "A", lambda), d.pA[lambda], F::Link, R::BiasForce, "pA", lambda));
  b.line("**p**^{A}_{λ(i)} = **p**^{A}_{λ(i)} + ^{λ(i)}**X**_{i}^{*} **p**^{a}_{i}",
         "Featherstone Part 2, eq. 65 (Fig. 9)", {tpAl, "=", tpAlBefore, "+", tXpa});
  const int tIAl = b.write(inertiaTerm(sup("I", "A", lambda), d.IA[lambda], F::Link, "IA", lambda));
  b.line("**I**^{A}_{λ(i)} = **I**^{A}_{λ(i)} + ^{λ(i)}**X**_{i}^{*} **I**^{a}_{i} ^{i}**X**_{λ(i)}",
         "Featherstone Part 2, eq. 64 (Fig. 9)", {tIAl});
}

// Pass 3 for body i: a'_i, qdd_i, a_i.
void abaAccelerations(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const Data& d = rec.data();
  const int lambda = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const int iv = J.idx_v, nv = J.nv;
  Motion<double> ap;
  for (const TraceTerm& t : rec.locals())
    if (t.quantity == "a'") ap = Motion<double>::fromVector(t.value);
  const std::string Xs = transformSymbol(i, lambda);
  const int tXa =
      b.show(motionTerm(Xs + " " + indexed("**a**", lambda), d.Xup[i].apply(d.a[lambda]), F::Link, R::Acceleration));
  const int tc = b.show(motionTerm(indexed("**c**", i), d.c[i], F::Link, R::BiasAcceleration));
  const int tap = b.show(motionTerm("**a**'_{" + std::to_string(i) + "}", ap, F::Link));
  b.line("**a**'_{i} = ^{i}**X**_{λ(i)} **a**_{λ(i)} + **c**_{i}   (**a**_{0} = −**a**_{g})",
         "Featherstone Part 2, eq. 66 (Fig. 9)", {tap, "=", tXa, "+", tc});
  const int tDinv = b.show(nv == 1 ? scalarTerm(indexed("D", i) + "^{−1}", d.Dinv[i](0, 0))
                                   : matrixTerm(indexed("D", i) + "^{−1}", dInverse(m, d, i)));
  const int tu = b.show(vectorTerm(indexed("u", i), d.u.segment(iv, nv)));
  const int tU = nv == 1 ? b.show(forceTerm(indexed("**U**", i), d.U[iv], F::Link))
                         : b.show(matrixTerm(indexed("**U**", i), columns(&d.U[iv], nv)));
  const int tqdd = b.write(vectorTerm(indexed("q̈", i), d.qdd.segment(iv, nv), "qdd", i));
  b.line("q̈_{i} = D_{i}^{−1} (u_{i} − **U**_{i}^{T} **a**'_{i})", "Featherstone Part 2, eq. 67",
         {tqdd, "=", tDinv, "(", tu, "−", tU, "ᵀ", tap, ")"});
  const int tS = b.show(subspaceTerm(indexed("**S**", i), &d.S[iv], nv, F::Link));
  const int ta = b.write(motionTerm(indexed("**a**", i), d.a[i], F::Link, R::Acceleration, "a", i));
  b.line("**a**_{i} = **a**'_{i} + **S**_{i} q̈_{i}", "Featherstone Part 2, eq. 68", {ta, "=", tap, "+", tS, tqdd});
}

}  // namespace dyn::trace_capture
