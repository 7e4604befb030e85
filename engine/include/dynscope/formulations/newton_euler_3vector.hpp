// Recursive Newton-Euler inverse dynamics with 3x3 rotation matrices and 3-vectors in link
// coordinates: J. Luh, M. Walker and R. Paul, "On-line computational scheme for mechanical
// manipulators" (1979/1980), as presented and counted by J. M. Hollerbach, "A Recursive Lagrangian
// Formulation of Manipulator Dynamics and a Comparative Study of Dynamics Formulation Complexity",
// IEEE Trans. SMC 10 (1980): section "Recursive Newton-Euler Dynamics" and "... Referred to Link
// Coordinates", the row "Newton-Euler" of Tables I-II.
//
// Hollerbach's equations (base coordinates, joint i between links i-1 and i, revolute):
//   w_i = w_{i-1} + z_{i-1} q'_i,   w'_i = w'_{i-1} + z_{i-1} q''_i + w_{i-1} x z_{i-1} q'_i
//   p''_i = w'_i x p*_i + w_i x (w_i x p*_i) + p''_{i-1},   r''_i = w_i x (w_i x r*_i) + w'_i x r*_i + p''_i
//   F_i = m_i r''_i,   N_i = I_i w'_i + w_i x (I_i w_i)
//   f_i = F_i + f_{i+1},   n_i = n_{i+1} + N_i + (p*_i + r*_i) x F_i + p*_i x f_{i+1},   tau_i = z_{i-1} . n_i
// referred to link coordinates as Luh et al. do: each vector of link i in link-i axes, carried
// between links by the rotation matrix A_i (^i w_i = A_i^T (^{i-1} w_{i-1} + z q'_i), Hollerbach's
// three examples), so the inertia tensor I_i about the mass centre stays constant.
// Our link frames sit on their own joint (z_i = the axis of joint i, origin O_i on it), not at the
// distal end as in Luh's Denavit-Hartenberg frames; so p*_i = O_{i-1} -> O_i is fixed in link i-1
// and the acceleration of O_i is formed in link i-1's axes before the rotation, and the joint axis
// is z of link i's own frame. Prismatic joints add z q''_i + 2 w_i x z q'_i to the acceleration
// (Luh et al.). On a branched tree f_{i+1} and n_{i+1} are summed over the children of link i.
// Gravity: p''_0 = -g. Revolute and prismatic joints only.
#pragma once
#include <vector>

#include "../algorithms/check.hpp"
#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "joint_requirements.hpp"

namespace dyn {

template <class S>
struct NewtonEuler3WorkspaceTpl {
  int N = 0, nv = 0;
  // Link parameters, Luh's inputs (from model.I when the workspace is built): mass m_i, mass centre
  // s_i (= r*_i, from O_i, link-i axes) and inertia tensor I_i about the mass centre (link-i axes).
  std::vector<S> m;
  std::vector<Vec3<S>> s;
  std::vector<Mat3<S>> Ic;
  // Per link 0..N, link-i axes: A_i (E rotates link-(i-1) axes into link-i axes, r = p*_i in link-(i-1) axes).
  std::vector<Transform<S>> A;
  std::vector<Vec3<S>> w, wd, pdd;  // w_i, w'_i, p''_i (acceleration of O_i)
  std::vector<Vec3<S>> f, n;        // F_i and N_i (about O_i), then f_i and n_i
  VecX<S> tau;

  NewtonEuler3WorkspaceTpl() = default;
  // Throws std::invalid_argument naming the first joint that is not revolute or prismatic.
  explicit NewtonEuler3WorkspaceTpl(const ModelTpl<S>& model) {
    requireRevolutePrismatic(model, "the Newton-Euler (3-vector) formulation");
    N = model.N;
    nv = model.nv;
    const int n1 = N + 1;
    m.resize(n1, S(0));
    s.resize(n1, Vec3<S>::Zero());
    Ic.resize(n1, Mat3<S>::Zero());
    for (int i = 1; i <= N; ++i) {
      m[i] = model.I[i].m;
      s[i] = model.I[i].com();  // zero for a massless link
      Ic[i] = model.I[i].inertiaAboutCom();
    }
    A.resize(n1);
    for (auto* v : {&w, &wd, &pdd, &f, &n}) v->resize(n1, Vec3<S>::Zero());
    tau = VecX<S>::Zero(nv);
  }
};

using NewtonEuler3Workspace = NewtonEuler3WorkspaceTpl<double>;

// tau = ID(q, qd, qdd). The workspace must have been built from this model (its link parameters).
// trace: one step per link in each recursion (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class V, class Acc, class Trace = NoTrace>
const VecX<S>& newtonEuler3(const ModelTpl<S>& model, NewtonEuler3WorkspaceTpl<S>& ws, const Eigen::MatrixBase<Q>& q,
                            const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<Acc>& qdd,
                            Trace&& trace = Trace{}) {
  requireRevolutePrismatic(model, "the Newton-Euler (3-vector) formulation");
  if (ws.N != model.N || ws.nv != model.nv)
    throw std::invalid_argument("the Newton-Euler workspace was built for another model");
  checkSize("q", q.size(), model.nq);
  checkSize("qd", qd.size(), model.nv);
  checkSize("qdd", qdd.size(), model.nv);
  trace.begin(TraceAlgorithm::NewtonEuler3, q, qd, qdd);
  ws.w[0].setZero();
  ws.wd[0].setZero();
  ws.pdd[0] = -model.gravity.v;  // p''_0 = -g: gravity as an acceleration of the base
  // Forward recursion, link 1 to n.
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int l = model.parent[i];
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      Motion<S> unused;
      jcalcPosition(J, q, model.Xtree[i], ws.A[i], &unused);  // A_i: rotation and p*_i from q_i
    }
    const Mat3<S>& E = ws.A[i].E;
    const Vec3<S>& ps = ws.A[i].r;
    const S qdi = S(qd[J.idx_v]), qddi = S(qdd[J.idx_v]);
    const Vec3<S>&wl = ws.w[l], &wdl = ws.wd[l];
    Vec3<S>& w = ws.w[i];
    Vec3<S>& wd = ws.wd[i];
    Vec3<S>& pdd = ws.pdd[i];
    w = E * wl;                                          // ^i w_{i-1}
    wd = E * wdl;                                        // ^i w'_{i-1}
    const Vec3<S> zxw(w.y() * qdi, -w.x() * qdi, S(0));  // w_{i-1} x z q'_i
    // p''_i = A_i^T (w'_{i-1} x p*_i + w_{i-1} x (w_{i-1} x p*_i) + p''_{i-1})
    pdd = E * Vec3<S>(cross3(wdl, ps) + cross3(wl, cross3(wl, ps)) + ws.pdd[l]);
    if (J.type == JointType::Revolute) {
      w.z() += qdi;  // w_i = w_{i-1} + z q'_i
      wd += zxw;     // w'_i = w'_{i-1} + z q''_i + w_{i-1} x z q'_i
      wd.z() += qddi;
    } else {             // prismatic: w_i = w_{i-1}, w'_i = w'_{i-1}
      pdd += zxw + zxw;  // p''_i += z q''_i + 2 w_i x z q'_i
      pdd.z() += qddi;
    }
    // r''_i = w'_i x r*_i + w_i x (w_i x r*_i) + p''_i,   F_i = m_i r''_i
    const Vec3<S>& s = ws.s[i];
    ws.f[i] = ws.m[i] * Vec3<S>(cross3(wd, s) + cross3(w, cross3(w, s)) + pdd);
    // N_i = I_i w'_i + w_i x (I_i w_i), then the moment about O_i: N_i + r*_i x F_i
    const Mat3<S>& I = ws.Ic[i];
    ws.n[i] = Vec3<S>(I * wd) + cross3(w, Vec3<S>(I * w)) + cross3(s, ws.f[i]);
    trace.step(StepKind::NeForward, i);
  }
  // Backward recursion, link n to 1.
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& J = model.joints[i];
    // tau_i = z . n_i (revolute) or z . f_i (prismatic)
    ws.tau[J.idx_v] = J.type == JointType::Revolute ? ws.n[i].z() : ws.f[i].z();
    const int l = model.parent[i];
    if (l == 0) {  // (the step ends here for a root: the same code as without the hook)
      trace.step(StepKind::NeBackward, i);
      continue;
    }
    const Mat3<S>& E = ws.A[i].E;
    const Vec3<S> fi = E.transpose() * ws.f[i];  // f_{i+1} in link-(i-1) axes
    ws.f[l] += fi;                               // f_i = F_i + f_{i+1}
    ws.n[l] +=
        Vec3<S>(E.transpose() * ws.n[i]) + cross3(ws.A[i].r, fi);  // n_i = N_i + ... + n_{i+1} + p*_{i+1} x f_{i+1}
    trace.step(StepKind::NeBackward, i);
  }
  return ws.tau;
}

}  // namespace dyn
