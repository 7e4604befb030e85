// Body Jacobians (Featherstone Part 2, eqs. 17-25): column block i of J_b is e_bi S_i,
// non-zero only for the joints on the path kappa(b) from the base to body b; a Jacobian
// changes coordinates like a motion vector (eq. 25: B_J_b = B_X_A A_J_b).
#pragma once
#include "kinematics.hpp"

namespace dyn {

enum class ReferenceFrame {
  Local,              // the frame's own coordinates (Part 2's b_J_b)
  World,              // Plücker coordinates of F_0 (0_J_b)
  LocalWorldAligned,  // axes of F_0, origin at the frame: [w; v of the frame origin] (the eq. 26 convention)
};

// Jacobian of model frame `frame` into J (6 x nv); call forwardKinematics(q) first.
template <class S>
void frameJacobian(const ModelTpl<S>& model, DataTpl<S>& data, int frame, ReferenceFrame ref, Mat6X<S>& J) {
  J.setZero();
  const Frame<S>& F = model.frames[frame];
  const Transform<S> X = F.placement * data.X0[F.body];  // frame_X_0
  for (int i = F.body; i > 0; i = model.parent[i]) {     // i in kappa(b)
    const JointModel<S>& Ji = model.joints[i];
    for (int k = 0; k < Ji.nv; ++k) {
      Motion<S> s = data.X0[i].applyInverse(data.S[Ji.idx_v + k]);  // 0_S_i = 0_X_i S_i
      if (ref == ReferenceFrame::Local)
        s = X.apply(s);  // b_S_i = b_X_0 0_S_i
      else if (ref == ReferenceFrame::LocalWorldAligned)
        s.v += cross3(s.w, X.r);  // linear velocity at the frame origin
      J.col(Ji.idx_v + k) = s.toVector();
    }
  }
}

// Convenience: FK then the Jacobian of a frame, into data.J.
template <class S, class Q>
const Mat6X<S>& frameJacobian(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q, int frame,
                              ReferenceFrame ref) {
  forwardKinematics(model, data, q);
  frameJacobian(model, data, frame, ref, data.J);
  return data.J;
}

}  // namespace dyn
