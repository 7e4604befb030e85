// Kinetic energy T = sum 1/2 v_i . I_i v_i (Part 2, eq. 39) + 1/2 sum armature_k qd_k^2 (the rotors'
// energy: MuJoCo's armature, on H's diagonal, so that T = 1/2 qd^T H qd), potential energy
// V = -sum m_i g . c_i + 1/2 sum stiffness_k (q_k - springref_k)^2 (joint springs, as MuJoCo counts
// them), centre of mass and total mass.
#pragma once
#include "kinematics.hpp"

namespace dyn {

// Centre of mass of the whole robot in world coordinates (after forwardKinematics).
template <class S>
Vec3<S> centerOfMass(const ModelTpl<S>& model, const DataTpl<S>& data) {
  Vec3<S> mc = Vec3<S>::Zero();
  S m = S(0);
  for (int i = 1; i <= model.N; ++i) {
    mc += model.I[i].m * data.X0[i].pointToA(model.I[i].com());  // m_i c_i in world
    m += model.I[i].m;
  }
  return m > S(0) ? Vec3<S>(mc / m) : Vec3<S>::Zero();
}

template <class S, class Q, class V>
void computeEnergy(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                   const Eigen::MatrixBase<V>& qd) {
  forwardKinematics(model, data, q, qd);
  data.kinetic = S(0);
  data.potential = S(0);
  for (int i = 1; i <= model.N; ++i) {
    data.kinetic += model.I[i].kineticEnergy(data.v[i]);      // 1/2 v_i . I_i v_i
    const Vec3<S> c = data.X0[i].pointToA(model.I[i].com());  // COM of body i in world
    data.potential -= model.I[i].m * model.gravity.v.dot(c);  // -m_i g . c_i
  }
  if (model.armature.size() == model.nv)
    for (int k = 0; k < model.nv; ++k) data.kinetic += S(0.5) * model.armature[k] * qd[k] * qd[k];
  if (model.stiffness.size() == model.nv)
    for (int i = 1; i <= model.N; ++i) {
      const JointModel<S>& J = model.joints[i];
      if (J.nv != 1 || J.nq != 1 || model.stiffness[J.idx_v] == S(0)) continue;
      const S x = q[J.idx_q] - model.springref[J.idx_v];
      data.potential += S(0.5) * model.stiffness[J.idx_v] * x * x;
    }
  data.com = centerOfMass(model, data);
}

}  // namespace dyn
