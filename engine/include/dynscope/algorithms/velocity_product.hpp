// Velocity-product acceleration (Featherstone Part 2, eqs. 30-33): a_vp = Jdot qd, the body
// acceleration when qdd = 0; with gravity it also carries the fictitious base acceleration -a_g.
#pragma once
#include "kinematics.hpp"

namespace dyn {

template <class S, class Q, class V>
void velocityProductAcceleration(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                                 const Eigen::MatrixBase<V>& qd, bool withGravity = false) {
  jointTransformsAndVelocities(model, data, q, qd);
  data.avp[0] = withGravity ? -model.gravity : Motion<S>::Zero();  // a_vp,0 = 0 or -a_g
  for (int i = 1; i <= model.N; ++i)  // a_vp,i = i_X_l a_vp,l + cJ + v_i x vJ  (eq. 31)
    data.avp[i] = data.Xup[i].apply(data.avp[model.parent[i]]) + data.cJ[i] + data.v[i].cross(data.vJ[i]);
}

// Velocity-product acceleration of a model frame in its Local coordinates (after the call above).
template <class S> Motion<S> frameVelocityProduct(const ModelTpl<S>& model, const DataTpl<S>& data, int frame) {
  const Frame<S>& F = model.frames[frame];
  return F.placement.apply(data.avp[F.body]);
}

}  // namespace dyn
