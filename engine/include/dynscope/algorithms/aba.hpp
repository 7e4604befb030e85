// Articulated-body algorithm (Featherstone Part 2, Fig. 9, eqs. 49-68): forward dynamics
// qdd = FD(q, qd, tau) in O(N), three passes, link coordinates.
#pragma once
#include <Eigen/LU>

#include "kinematics.hpp"

namespace dyn {

template <class S, class Q, class V, class T>
const VecX<S>& aba(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                   const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<T>& tau,
                   const std::vector<Force<S>>* fext = nullptr) {
  checkSize("tau", tau.size(), model.nv);
  jointTransformsAndVelocities(model, data, q, qd);  // pass 1: Xup, S, v_i, vJ, cJ
  for (int i = 1; i <= model.N; ++i) {
    data.cJ[i] += crossJointVelocity(model.joints[i], data.v[i], data.vJ[i]);  // c_i = cJ + v_i x S_i qd_i
    data.IA[i] = model.I[i].toMatrix();                                         // IA_i = I_i
    data.pA[i] = data.v[i].crossForce(model.I[i] * data.v[i]);                  // pA_i = v_i x* I_i v_i
    if (fext) data.pA[i] -= (*fext)[i];
  }
  for (int i = model.N; i >= 1; --i) {  // pass 2: articulated inertias and bias forces
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v, lambda = model.parent[i];
    Mat6<S> Ia;
    Force<S> pa;
    if (J.nv == 1) {
      const Force<S> U = inertiaTimesS(J, data.IA[i], data.S[iv]);              // U_i = IA_i S_i
      const S d = projectForce(J, data.S[iv], U);                               // d_i = S_i^T U_i
      data.U[iv] = U;
      data.u[iv] = S(tau[iv]) - projectForce(J, data.S[iv], data.pA[i]);        // u_i = tau_i - S_i^T pA_i
      data.Dinv[i](0, 0) = S(1) / d;
      if (lambda == 0) continue;
      const Vec6<S> Uv = U.toVector();
      Ia = data.IA[i] - Uv * Uv.transpose() / d;                               // Ia = IA - U U^T / d
      pa = data.pA[i] + Ia * data.cJ[i] + U * (data.u[iv] / d);                // pa = pA + Ia c + U u / d
    } else {
      Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> Um(6, J.nv);
      SmallMat<S> D(J.nv, J.nv);
      for (int k = 0; k < J.nv; ++k) {
        data.U[iv + k] = data.IA[i] * data.S[iv + k];                          // U_i = IA_i S_i
        Um.col(k) = data.U[iv + k].toVector();
        data.u[iv + k] = S(tau[iv + k]) - data.S[iv + k].dot(data.pA[i]);      // u_i = tau_i - S_i^T pA_i
      }
      for (int k = 0; k < J.nv; ++k)
        for (int l = 0; l < J.nv; ++l) D(k, l) = data.S[iv + k].dot(data.U[iv + l]);  // D_i = S_i^T U_i
      data.Dinv[i] = D.inverse();
      if (lambda == 0) continue;
      const Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6> UD = Um * data.Dinv[i];
      Ia = data.IA[i] - UD * Um.transpose();                                   // Ia = IA - U D^-1 U^T
      pa = data.pA[i] + Ia * data.cJ[i] + Force<S>::fromVector(UD * data.u.segment(iv, J.nv));
    }
    data.IA[lambda] += congruenceToA(data.Xup[i], Ia);                          // IA_l += l_X_i^* Ia i_X_l
    data.pA[lambda] += data.Xup[i].applyTranspose(pa);                          // pA_l += l_X_i^* pa
  }
  data.a[0] = -model.gravity;  // pass 3: a_0 = -a_g
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v;
    const Motion<S> ap = data.Xup[i].apply(data.a[model.parent[i]]) + data.cJ[i];  // a'_i = i_X_l a_l + c_i
    if (J.nv == 1) {
      data.qdd[iv] = (data.u[iv] - data.U[iv].dot(ap)) * data.Dinv[i](0, 0);     // qdd_i = (u_i - U_i^T a'_i)/d_i
      data.a[i] = ap + data.S[iv] * data.qdd[iv];                                // a_i = a'_i + S_i qdd_i
    } else {
      SmallVec<S> r(J.nv);
      for (int k = 0; k < J.nv; ++k) r[k] = data.u[iv + k] - data.U[iv + k].dot(ap);
      data.qdd.segment(iv, J.nv) = data.Dinv[i] * r;
      data.a[i] = ap;
      for (int k = 0; k < J.nv; ++k) data.a[i] += data.S[iv + k] * data.qdd[iv + k];
    }
  }
  return data.qdd;
}

}  // namespace dyn
