// Articulated-body algorithm (Featherstone Part 2, Fig. 9, eqs. 49-68): forward dynamics
// qdd = FD(q, qd, tau) in O(N), three passes. Written in world (absolute) coordinates, as the
// review gives it (Featherstone and Orin 2000, eqs. 3, 4, 12-14) and as
// Pinocchio does: spatial vectors are coordinate-free, so the equations hold unchanged in frame 0;
// then i_X_lambda(i) is the identity, and IA and pA pass to the parent by plain addition instead
// of the congruence X^T Ia X (the cost of the link-coordinate version).
#pragma once
#include <Eigen/LU>

#include "../trace/trace_policy.hpp"
#include "kinematics.hpp"
#include "pivot_check.hpp"

namespace dyn {

// trace: see trace/trace_policy.hpp (one step per body in each of the three passes).
template <class S, class Q, class V, class T, class Trace = NoTrace>
const VecX<S>& aba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                   const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<T>& tau,
                   const std::vector<Force<S>>* fext = nullptr, Trace&& trace = Trace{}) {
  checkSize("q", q.size(), model.nq);
  checkSize("qd", qd.size(), model.nv);
  checkSize("tau", tau.size(), model.nv);
  trace.begin(TraceAlgorithm::Aba, q, qd, tau, fext);
  data.X0[0] = Transform<S>::Identity();
  data.ov[0].setZero();
  for (int i = 1; i <= model.N; ++i) {  // pass 1: kinematics and rigid-body terms, world coordinates
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v, lambda = model.parent[i];
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      jcalcPosition(J, q, model.Xtree[i], data.Xup[i], &data.S[iv]);  // i_X_l = XJ X_T (eq. 14)
    }
    const Transform<S>& X0 = data.X0[i] = data.Xup[i] * data.X0[lambda];  // i_X_0 = i_X_l l_X_0
    Motion<S> vJ;                                                         // S_i qd_i, with S_i = 0_X_i S_i(link)
    if (J.type == JointType::Revolute) {  // 0_X_i [e_z; 0] = [z; r x z], z = the axis in world
      const Vec3<S> z = X0.E.row(2).transpose();
      data.oS[iv] = Motion<S>(z, cross3(X0.r, z));
      vJ = data.oS[iv] * S(qd[iv]);
    } else {
      for (int k = 0; k < J.nv; ++k) data.oS[iv + k] = X0.applyInverse(data.S[iv + k]);
      vJ = data.oS[iv] * S(qd[iv]);
      for (int k = 1; k < J.nv; ++k) vJ += data.oS[iv + k] * S(qd[iv + k]);
    }
    data.ov[i] = data.ov[lambda] + vJ;  // v_i = v_l + S_i qd_i   (review eq. 3)
    data.oc[i] = data.ov[i].cross(vJ);  // c_i = Sdot_i qd_i = v_i x S_i qd_i   (review eq. 4)
    if (J.type == JointType::Planar) {  // plus the apparent derivative cJ of a q-dependent S
      jcalcVelocity(J, &data.S[iv], qd, data.vJ[i], data.cJ[i]);
      data.oc[i] += X0.applyInverse(data.cJ[i]);
    }
    const Inertia<S> I0 = model.I[i].transformToA(X0);      // I_i in world: 0_X_i^* I_i i_X_0
    data.IA[i] = I0.toMatrix();                             // IA_i = I_i
    data.pA[i] = data.ov[i].crossForce(I0 * data.ov[i]);    // pA_i = v_i x* I_i v_i
    if (fext) data.pA[i] -= X0.applyTranspose((*fext)[i]);  // - 0_X_i^* f_ext,i
    trace.step(StepKind::AbaVelocities, i);
  }
  for (int i = model.N; i >= 1; --i) {  // pass 2: articulated inertias and bias forces (review eqs. 12-13)
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v, lambda = model.parent[i];
    Mat6<S>& Ia = data.IA[i];  // IA_i, then Ia_i in place
    Force<S> pa;
    if (J.nv == 1) {
      const Force<S> U = data.U[iv] = Ia * data.oS[iv];  // U_i = IA_i S_i
      S D = data.oS[iv].dot(U);                          // D_i = S_i^T U_i (+ the rotor's armature)
      if (model.armature.size()) D += model.armature[iv];
      if (D <= S(0))  // H(q) singular or indefinite (rare: the floor is computed only then)
        refuseNonPositivePivot(model, i, pivotUpToRounding(D, pivotFloor(Ia, data.oS[iv])), PivotSource::Aba);
      const S dinv = data.Dinv[i](0, 0) = S(1) / D;                       // D_i^-1
      const S u = data.u[iv] = S(tau[iv]) - data.oS[iv].dot(data.pA[i]);  // u_i = tau_i - S_i^T pA_i
      if (lambda == 0) {
        trace.step(StepKind::AbaInertias, i);
        continue;
      }
      const Vec6<S> Uv = U.toVector();
      Ia.noalias() -= (Uv * dinv) * Uv.transpose();        // Ia = IA - U D^-1 U^T
      pa = data.pA[i] + Ia * data.oc[i] + U * (u * dinv);  // pa = pA + Ia c + U D^-1 u
    } else {
      Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> Um(6, J.nv);
      SmallMat<S> D(J.nv, J.nv);
      for (int k = 0; k < J.nv; ++k) {
        data.U[iv + k] = Ia * data.oS[iv + k];  // U_i = IA_i S_i
        Um.col(k) = data.U[iv + k].toVector();
        data.u[iv + k] = S(tau[iv + k]) - data.oS[iv + k].dot(data.pA[i]);  // u_i = tau_i - S_i^T pA_i
      }
      for (int k = 0; k < J.nv; ++k)
        for (int l = 0; l < J.nv; ++l) D(k, l) = data.oS[iv + k].dot(data.U[iv + l]);  // D_i = S_i^T U_i
      if (model.armature.size())
        for (int k = 0; k < J.nv; ++k) D(k, k) += model.armature[iv + k];
      SmallVec<S> floor(J.nv);
      for (int k = 0; k < J.nv; ++k) floor[k] = pivotFloor(Ia, data.oS[iv + k]);
      S pivot;
      if (const int k = firstNonPositivePivot(D, floor, &pivot); k >= 0)  // D_i singular or not positive definite
        refuseNonPositivePivot(model, i, pivotUpToRounding(pivot, floor[k]), PivotSource::Aba, k);
      data.Dinv[i] = D.inverse();
      if (lambda == 0) {
        trace.step(StepKind::AbaInertias, i);
        continue;
      }
      const Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> UD = Um * data.Dinv[i];
      Ia -= UD * Um.transpose();  // Ia = IA - U D^-1 U^T
      pa = data.pA[i] + Ia * data.oc[i] + Force<S>::fromVector(UD * data.u.segment(iv, J.nv));
    }
    trace.local("pa", i, pa);
    data.IA[lambda] += Ia;  // IA_l += Ia_i   (the same coordinates: no transform)
    data.pA[lambda] += pa;  // pA_l += pa_i
    trace.step(StepKind::AbaInertias, i);
  }
  data.oa[0] = -model.gravity;  // pass 3: a_0 = -a_g
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v;
    const Motion<S> ap = data.oa[model.parent[i]] + data.oc[i];  // a'_i = a_l + c_i
    trace.local("a'", i, ap);
    if (J.nv == 1) {
      data.qdd[iv] = (data.u[iv] - data.U[iv].dot(ap)) * data.Dinv[i](0, 0);  // qdd_i = D^-1 (u_i - U_i^T a'_i)
      data.oa[i] = ap + data.oS[iv] * data.qdd[iv];                           // a_i = a'_i + S_i qdd_i
    } else {
      SmallVec<S> r(J.nv);
      for (int k = 0; k < J.nv; ++k) r[k] = data.u[iv + k] - data.U[iv + k].dot(ap);
      data.qdd.segment(iv, J.nv) = data.Dinv[i] * r;
      data.oa[i] = ap;
      for (int k = 0; k < J.nv; ++k) data.oa[i] += data.oS[iv + k] * data.qdd[iv + k];
    }
    trace.step(StepKind::AbaAccelerations, i);
  }
  return data.qdd;
}

}  // namespace dyn
