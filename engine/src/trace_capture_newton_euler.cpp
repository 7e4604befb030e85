// What a lecture shows of the recursive Newton-Euler formulation with 3-vectors (Luh, Walker and
// Paul, as Hollerbach 1980 presents it; newton_euler_3vector.hpp): every vector of link i in link-i
// axes, A_i^T = E rotating link-λ(i) axes into link-i axes, p*_i = O_λ(i) -> O_i in λ(i) axes.
// Hollerbach's equations carry no numbers: the references name his section.
#include "dynscope/formulations/newton_euler_3vector.hpp"
#include "trace_captures.hpp"

namespace dyn::trace_capture {
namespace {

using F = TraceFrame;
using R = TraceRole;
using Eigen::Vector3d;

const char* kSection = "Hollerbach 1980, 'Recursive Newton-Euler dynamics referred to link coordinates' (Luh et al.)";

int vec(StepBuilder& b, const std::string& symbol, const Vector3d& x) {
  return b.show(vector3Term(symbol, x, F::Link));
}

Vector3d previousVectorOr(const TraceRecorder& rec, const char* quantity, int index, const Vector3d& otherwise) {
  const TraceTerm* t = rec.previous(quantity, index);
  return t ? Vector3d(t->value.col(0)) : otherwise;
}

}  // namespace

// Forward recursion for link i: w_i, w'_i, p''_i, then F_i and the moment about O_i.
void newtonEulerForward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const NewtonEuler3Workspace& ws = rec.workspace<NewtonEuler3Workspace>();
  const int l = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const bool revolute = J.type == JointType::Revolute;
  const Mat3<double>& E = ws.A[i].E;
  const Vector3d& ps = ws.A[i].r;
  const double qd = rec.qd()[J.idx_v], qdd = rec.accelerationsOrForces()[J.idx_v];
  const Vector3d &wl = ws.w[l], &wdl = ws.wd[l], z(0, 0, 1);
  const std::string L = std::to_string(l);

  const int tAT = b.show(matrixTerm(indexed("A", i) + "^{T}", E));
  const int tqd = b.show(scalarTerm(indexed("q̇", i), qd));
  const int twl = vec(b, indexed("ω", l), wl);
  const int tw = b.write(vector3Term(indexed("ω", i), ws.w[i], F::Link, R::AngularVelocity, "ω", i));
  if (revolute)
    b.line("ω_{i} = A_{i}^{T} ω_{λ(i)} + z q̇_{i}", std::string(kSection) + "; z: joint i's axis in link i",
           {tw, "=", tAT, twl, "+", "z", tqd});
  else
    b.line("ω_{i} = A_{i}^{T} ω_{λ(i)}   (prismatic joint)", kSection, {tw, "=", tAT, twl});

  const Vector3d wli = E * wl;  // w_{λ(i)} in link-i axes
  const int tEwd = vec(b, indexed("A", i) + "^{T} " + indexed("ω̇", l), E * wdl);
  const int tqdd = b.show(scalarTerm(indexed("q̈", i), qdd));
  const int tcor =
      vec(b, "(A_{" + std::to_string(i) + "}^{T} ω_{" + L + "}) × z q̇_{" + std::to_string(i) + "}", wli.cross(z) * qd);
  const int twd = b.write(vector3Term(indexed("ω̇", i), ws.wd[i], F::Link, R::AngularAcceleration, "ω̇", i));
  if (revolute)
    b.line("ω̇_{i} = A_{i}^{T} ω̇_{λ(i)} + z q̈_{i} + (A_{i}^{T} ω_{λ(i)}) × z q̇_{i}", kSection,
           {twd, "=", tEwd, "+", "z", tqdd, "+", tcor});
  else
    b.line("ω̇_{i} = A_{i}^{T} ω̇_{λ(i)}   (prismatic joint)", kSection, {twd, "=", tEwd});

  const int tps = vec(b, indexed("p^{*}", i), ps);
  const int tpddl = vec(b, indexed("p̈", l), previousVectorOr(rec, "p̈", l, ws.pdd[l]));
  const int tinner = vec(b,
                         "ω̇_{" + L + "} × p^{*}_{" + std::to_string(i) + "} + ω_{" + L + "} × (ω_{" + L +
                             "} × p^{*}_{" + std::to_string(i) + "})",
                         wdl.cross(ps) + wl.cross(wl.cross(ps)));
  const int tpdd = b.write(vector3Term(indexed("p̈", i), ws.pdd[i], F::Link, R::OriginAcceleration, "p̈", i));
  if (revolute)
    b.line("p̈_{i} = A_{i}^{T} (ω̇_{λ(i)} × p^{*}_{i} + ω_{λ(i)} × (ω_{λ(i)} × p^{*}_{i}) + p̈_{λ(i)})",
           std::string(kSection) + "; p^{*}_{i}: origin λ(i) to origin i (fixed in link λ(i) here)",
           {tpdd, "=", tAT, "(", tinner, "+", tpddl, ")", "\n", tps});
  else
    b.line(
        "p̈_{i} = A_{i}^{T} (ω̇_{λ(i)} × p^{*}_{i} + ω_{λ(i)} × (ω_{λ(i)} × p^{*}_{i}) + p̈_{λ(i)}) + z q̈_{i} + 2 ω_{i} "
        "× z q̇_{i}",
        std::string(kSection) + " (prismatic joint: Luh et al.)",
        {tpdd, "=", tAT, "(", tinner, "+", tpddl, ")", "+", "z", tqdd, "+", "2", tcor, "\n", tps});

  const Vector3d& s = ws.s[i];
  const Vector3d rdd = ws.wd[i].cross(s) + ws.w[i].cross(ws.w[i].cross(s)) + ws.pdd[i];
  const int tmass = b.show(scalarTerm(indexed("m", i), ws.m[i]));
  const int trs = vec(b, indexed("r^{*}", i), s);
  const int trdd = vec(b, indexed("r̈", i), rdd);
  const int tF = b.write(vector3Term(indexed("F", i), ws.f[i], F::Link, R::LinearForce, "f", i));
  b.line("r̈_{i} = ω̇_{i} × r^{*}_{i} + ω_{i} × (ω_{i} × r^{*}_{i}) + p̈_{i},   F_{i} = m_{i} r̈_{i}",
         std::string(kSection) + "; r^{*}_{i}: origin i to the mass centre",
         {trdd, "=", "ω̇ ×", trs, "+ ω × (ω ×", trs, ") +", tpdd, "\n", tF, "=", tmass, trdd});

  const Mat3<double>& I = ws.Ic[i];
  const int tI = b.show(matrixTerm(indexed("I", i), I));
  const int tN = vec(b, indexed("N", i), I * ws.wd[i] + ws.w[i].cross(I * ws.w[i]));
  const int tn = b.write(vector3Term(indexed("n", i), ws.n[i], F::Link, R::MomentAboutOrigin, "n", i));
  b.line("N_{i} = I_{i} ω̇_{i} + ω_{i} × (I_{i} ω_{i}),   n_{i} = N_{i} + r^{*}_{i} × F_{i}  (about O_{i})",
         std::string(kSection) + "; I_{i} about the mass centre, fixed in link i",
         {tN, "=", tI, twd, "+", tw, "× (", tI, tw, ")", "\n", tn, "=", tN, "+", trs, "×", tF});
}

// Backward recursion for link i: tau_i, then f and n of the parent.
void newtonEulerBackward(TraceRecorder& rec, StepBuilder& b, int i) {
  const Model& m = rec.model();
  const NewtonEuler3Workspace& ws = rec.workspace<NewtonEuler3Workspace>();
  const int l = m.parent[i];
  const JointModel<double>& J = m.joints[i];
  const bool revolute = J.type == JointType::Revolute;
  const int tf = vec(b, indexed("f", i), ws.f[i]);
  const int tn = vec(b, indexed("n", i), ws.n[i]);
  const int ttau = b.write(scalarTerm(indexed("τ", i), ws.tau[J.idx_v], "tau", i));
  if (revolute)
    b.line("τ_{i} = z · n_{i}", std::string(kSection) + " (τ_{i} = z_{i−1} · n_{i} in DH frames)",
           {ttau, "=", "z ·", tn});
  else
    b.line("τ_{i} = z · f_{i}   (prismatic joint)", kSection, {ttau, "=", "z ·", tf});
  if (l == 0) return;
  const Mat3<double>& E = ws.A[i].E;
  const Vector3d fi = E.transpose() * ws.f[i];
  const int tA = b.show(matrixTerm(indexed("A", i), Mat3<double>(E.transpose())));
  const int tfBefore = vec(b, indexed("f", l) + " (before)", previousVectorOr(rec, "f", l, Vector3d::Zero()));
  const int tfl = b.write(vector3Term(indexed("f", l), ws.f[l], F::Link, R::LinearForce, "f", l));
  b.line("f_{λ(i)} = f_{λ(i)} + A_{i} f_{i}",
         std::string(kSection) + " (f_{i} = F_{i} + f_{i+1}; on a tree: the children)",
         {tfl, "=", tfBefore, "+", tA, tf});
  const int tnBefore = vec(b, indexed("n", l) + " (before)", previousVectorOr(rec, "n", l, Vector3d::Zero()));
  const int tps = vec(b, indexed("p^{*}", i), ws.A[i].r);
  const int tAf = vec(b, indexed("A", i) + " " + indexed("f", i), fi);
  const int tnl = b.write(vector3Term(indexed("n", l), ws.n[l], F::Link, R::MomentAboutOrigin, "n", l));
  b.line("n_{λ(i)} = n_{λ(i)} + A_{i} n_{i} + p^{*}_{i} × A_{i} f_{i}",
         std::string(kSection) +
             " (n_{i} = n_{i+1} + N_{i} + (p^{*}_{i} + r^{*}_{i}) × F_{i} + p^{*}_{i} × f_{i+1}, about O_{i})",
         {tnl, "=", tnBefore, "+", tA, tn, "+", tps, "×", tAf});
}

}  // namespace dyn::trace_capture
