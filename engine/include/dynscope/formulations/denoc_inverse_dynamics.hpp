// DeNOC recursive inverse dynamics: S. K. Saha, "Dynamics of Serial Multibody Systems Using the
// Decoupled Natural Orthogonal Complement Matrices", ASME J. Appl. Mech. 66 (1999), section 5.1 (the
// two-step algorithm), from eqs. 7, 12, 20 and 30; gravity as in eq. 32.
//
//   Forward recursion (i = 1..n):  t_i  = B_{i,i-1} t_{i-1} + p_i th'_i                       (eq. 12)
//                                  t'_i = B_{i,i-1} t'_{i-1} + B'_{i,i-1} t_{i-1} + p_i th''_i + p'_i th'_i
//                                  w_i  = M_i t'_i + W_i M_i E_i t_i                          (eq. 7)
//   Backward recursion (i = n..1): w~_i = w_i + B_{i+1,i}^T w~_{i+1},   tau_i = p_i^T w~_i     (eq. 30)
//
// with t'_0 = [0; -g] (eq. 32: gravity as an acceleration of the base). On a branched tree the
// backward sum runs over the children of link i instead of link i+1. Twists are referred to the
// link origins O_i (see denoc_workspace.hpp), so t'_i is [w'_i; o''_i], the classical acceleration
// of O_i, not Featherstone's spatial acceleration: the two recursions share no arithmetic beyond
// the joint transforms, which makes each a check of the other.
// Revolute and prismatic joints only (the paper's eqs. 13 and 15); other joints are refused.
#pragma once
#include "../algorithms/check.hpp"
#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "denoc_workspace.hpp"

namespace dyn {

// The joint transforms A_i (jcalc, booked apart for operation counts) and the twists t_i (eq. 12).
template <class S, class Q, class V>
void denocTwists(const ModelTpl<S>& model, DenocWorkspaceTpl<S>& ws, const Eigen::MatrixBase<Q>& q,
                 const Eigen::MatrixBase<V>& qd) {
  checkDenocWorkspace(model, ws);
  checkSize("q", q.size(), model.nq);
  checkSize("qd", qd.size(), model.nv);
  ws.t[0].setZero();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      Motion<S> pi;  // (jcalc also returns S_i, which is p_i here)
      jcalcPosition(J, q, model.Xtree[i], ws.A[i], &pi);
    }
    const Transform<S>& A = ws.A[i];
    const Motion<S>& tl = ws.t[model.parent[i]];
    // t_i = B_{i,l} t_l + p_i th'_i: w_i = w_l + e_i th'_i, o'_i = o'_l + w_l x r   (eq. 11-12)
    ws.t[i] = Motion<S>(A.E * tl.w, A.E * (tl.v + cross3(tl.w, A.r)));
    addJointRate(J, ws.t[i], S(qd[J.idx_v]));
  }
}

// tau = ID(q, qd, qdd) by the DeNOC two-step algorithm. Results in ws.tau (returned).
// trace: one step per body in each recursion (trace/trace_policy.hpp; NoTrace compiles away).
template <class S, class Q, class V, class Acc, class Trace = NoTrace>
const VecX<S>& denocInverseDynamics(const ModelTpl<S>& model, DenocWorkspaceTpl<S>& ws, const Eigen::MatrixBase<Q>& q,
                                    const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<Acc>& qdd,
                                    Trace&& trace = Trace{}) {
  requireRevolutePrismatic(model, "DeNOC inverse dynamics");
  checkDenocWorkspace(model, ws);
  checkSize("q", q.size(), model.nq);
  checkSize("qd", qd.size(), model.nv);
  checkSize("qdd", qdd.size(), model.nv);
  trace.begin(TraceAlgorithm::DenocId, q, qd, qdd);
  ws.t[0].setZero();
  ws.tdot[0] = Motion<S>(Vec3<S>::Zero(), -model.gravity.v);  // t'_0 = [0; -g]   (eq. 32)
  // Forward recursion: twists, twist rates and the links' wrenches.
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int l = model.parent[i];
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      Motion<S> pi;
      jcalcPosition(J, q, model.Xtree[i], ws.A[i], &pi);  // A_i: E_i and r_i from th_i
    }
    const Transform<S>& A = ws.A[i];
    const Motion<S>&tl = ws.t[l], &tdl = ws.tdot[l];
    const S thd = S(qd[J.idx_v]), thdd = S(qdd[J.idx_v]);
    const Vec3<S> wl = A.E * tl.w;                          // w_{i-1} in link-i axes
    const Vec3<S> wr = cross3(tl.w, A.r);                   // w_{i-1} x r_i
    const Vec3<S> wlxe(wl.y() * thd, -wl.x() * thd, S(0));  // (w_{i-1} x e_i) th'_i
    Motion<S>& t = ws.t[i];
    Motion<S>& td = ws.tdot[i];
    // t_i = B_{i,i-1} t_{i-1} + p_i th'_i   (eq. 12)
    t = Motion<S>(wl, A.E * (tl.v + wr));
    // t'_i = B t'_{i-1} + B' t_{i-1} + p_i th''_i + p'_i th'_i, with B' t_{i-1} = [0; w x (w x r)] and
    // p'_i = W_i p_i   (time derivative of eq. 12)
    td = Motion<S>(A.E * tdl.w, A.E * (tdl.v + cross3(tdl.w, A.r) + cross3(tl.w, wr)));
    if (J.type == JointType::Revolute) {
      t.w.z() += thd;
      td.w += wlxe;  // p'_i th'_i = [w_i x e_i th'_i; 0]
      td.w.z() += thdd;
    } else {  // prismatic: B'_{i,i-1} and p'_i each add w x e_i th'_i to o''_i (Coriolis)
      t.v.z() += thd;
      td.v += wlxe + wlxe;
      td.v.z() += thdd;
    }
    // w_i = M_i t'_i + W_i M_i E_i t_i = M_i t'_i + [w_i x I_i w_i; w_i x (w_i x m_i d_i)]   (eq. 7)
    const Inertia<S>& M = model.I[i];
    ws.w[i] = M * td + Force<S>(cross3(t.w, M.Ibar * t.w), cross3(t.w, cross3(t.w, M.h)));
    trace.step(StepKind::DenocTwist, i);
  }
  // Backward recursion: composite wrenches and joint torques.
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& J = model.joints[i];
    ws.tau[J.idx_v] = jointComponent(J, ws.w[i]);  // tau_i = p_i^T w~_i   (eq. 30)
    const int l = model.parent[i];
    if (l > 0) ws.w[l] += ws.A[i].applyTranspose(ws.w[i]);  // w~_{i-1} = w_{i-1} + B_{i,i-1}^T w~_i   (eq. 30)
    trace.step(StepKind::DenocWrench, i);
  }
  return ws.tau;
}

}  // namespace dyn
