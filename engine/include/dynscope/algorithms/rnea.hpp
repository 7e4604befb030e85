// Recursive Newton-Euler inverse dynamics (Featherstone Part 2, Fig. 5, eqs. 9-13;
// RNEA reference card). Gravity enters as a fictitious base acceleration a_0 = -a_g.
// Fig. 5's outward pass (lines 3-9) runs as two loops: jcalc and v_i for all bodies first
// (kinematics.hpp), then a_i and f_i; one loop proved 40-60 % slower (helpers no longer inlined).
#pragma once
#include "../trace/trace_policy.hpp"
#include "kinematics.hpp"

namespace dyn {

// tau = ID(model, q, qd, qdd). fext (optional): external force on each body, link coordinates.
// trace: see trace/trace_policy.hpp (one step per body of each pass; NoTrace compiles away).
template <class S, class Q, class V, class A, class Trace = NoTrace>
const VecX<S>& rnea(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                    const Eigen::MatrixBase<V>& qd, const Eigen::MatrixBase<A>& qdd,
                    const std::vector<Force<S>>* fext = nullptr, Trace&& trace = Trace{}) {
  checkSize("qdd", qdd.size(), model.nv);  // qd and q: in jointTransformsAndVelocities
  prefetchInputs(q, qd, qdd);
  trace.begin(TraceAlgorithm::Rnea, q, qd, qdd, fext);
  jointTransformsAndVelocities(model, data, q, qd, trace);  // Xup, S, v, vJ, cJ (Fig. 5 lines 4-6, eq. 9)
  data.a[0] = -model.gravity;                               // a_0 = -a_g
  // Outward pass: accelerations and body forces.
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    // c = S_i qdd_i + cJ + v_i x vJ, the terms that do not depend on a_lambda(i) (summed first: one addition,
    // not three, on the chain from body to body)
    Motion<S> c = crossJointVelocity(J, data.v[i], data.vJ[i]);
    if (J.type == JointType::Revolute) {  // S = e_z, cJ = 0, and v x vJ has no z component
      c.w.z() = S(qdd[J.idx_v]);
    } else {
      for (int k = 0; k < J.nv; ++k) c += data.S[J.idx_v + k] * S(qdd[J.idx_v + k]);
      c += data.cJ[i];
    }
    data.a[i] = data.Xup[i].apply(data.a[model.parent[i]]) + c;  // a_i = i_X_l a_l + S_i qdd_i + cJ + v_i x vJ (eq. 10)
    // f_i = I_i a_i + v_i x* I_i v_i   (eq. 11)
    data.f[i] = model.I[i] * data.a[i] + data.v[i].crossForce(model.I[i] * data.v[i]);
    if (fext) data.f[i] -= (*fext)[i];
    trace.step(StepKind::RneaOutward, i);
  }
  // Inward pass: joint forces.
  for (int i = model.N; i >= 1; --i) {
    const JointModel<S>& J = model.joints[i];
    for (int k = 0; k < J.nv; ++k)
      data.tau[J.idx_v + k] = projectForce(J, data.S[J.idx_v + k], data.f[i]);  // tau_i = S_i^T f_i
    if (model.parent[i] > 0)
      data.f[model.parent[i]] += data.Xup[i].applyTranspose(data.f[i]);  // f_lambda(i) += lambda(i)_X_i^* f_i
    trace.step(StepKind::RneaInward, i);
  }
  // Rotor inertia (armature): tau += diag(armature) qdd, the diagonal CRBA adds to H (model.hpp).
  for (Eigen::Index k = 0; k < model.armature.size(); ++k) data.tau[k] += model.armature[k] * S(qdd[k]);
  return data.tau;
}

}  // namespace dyn
