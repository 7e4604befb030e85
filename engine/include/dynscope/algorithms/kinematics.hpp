// Forward kinematics (Featherstone Part 2, eq. 14): i_X_lambda(i) = XJ X_T(i) and
// i_X_0 = i_X_lambda(i) lambda(i)_X_0; with velocities, eq. 9: v_i = i_X_lambda(i) v_lambda(i) + vJ.
#pragma once
#include "../model/data.hpp"
#include "../opcount/op_count_scope.hpp"
#include "../trace/trace_policy.hpp"
#include "check.hpp"

namespace dyn {

// Joint transforms only: Xup and the motion subspaces S (what the dynamics algorithms need).
// trace: the work for body i is done ahead of the algorithm's step for it (trace_policy.hpp).
// The first cache line of each input requested at entry: the passes read q, qd and qdd one after another,
// and when the inputs are not in cache (samples streamed from a trajectory, a caller that has just run
// something larger) their misses would otherwise come one at a time (docs/benchmarks.md).
template <class V>
DYN_INLINE void prefetchVector(const Eigen::MatrixBase<V>& v) {
  if constexpr (bool(Eigen::internal::traits<V>::Flags & Eigen::DirectAccessBit))
    if (v.size() > 0) __builtin_prefetch(v.derived().data());
}
template <class... V>
DYN_INLINE void prefetchInputs(const Eigen::MatrixBase<V>&... v) {
  (prefetchVector(v), ...);
}

template <class S, class Q, class Trace = NoTrace>
void jointTransforms(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                     Trace&& trace = Trace{}) {
  checkSize("q", q.size(), model.nq);
  const OpCountScope<S> jointWork(OpCategory::JointTransforms);  // counted apart (Hollerbach excludes A_j)
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    // [XJ, S_i] = jcalc(jtype(i), q_i);  i_X_lambda(i) = XJ X_T(i)
    jcalcPosition(J, q, model.Xtree[i], data.Xup[i], &data.S[J.idx_v]);
    trace.ahead(i);
  }
}

// Joint transforms and velocities: v_i, vJ_i and cJ_i (eq. 9), without the world transforms.
template <class S, class Q, class V, class Trace = NoTrace>
void jointTransformsAndVelocities(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                                  const Eigen::MatrixBase<V>& qd, Trace&& trace = Trace{}) {
  checkSize("qd", qd.size(), model.nv);
  jointTransforms(model, data, q, trace);
  data.v[0].setZero();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    jcalcVelocity(J, &data.S[J.idx_v], qd, data.vJ[i], data.cJ[i]);       // vJ = S_i qd_i
    data.v[i] = data.Xup[i].apply(data.v[model.parent[i]]) + data.vJ[i];  // eq. 9
    trace.ahead(i);
  }
}

// Positions in world coordinates (the world-frame CRBA and ABA): Xup, S, the world transforms X0
// (eq. 14) and the columns of S in world coordinates, oS = 0_X_i S_i.
template <class S, class Q>
void worldJointTransforms(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q) {
  checkSize("q", q.size(), model.nq);
  data.X0[0] = Transform<S>::Identity();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iv = J.idx_v;
    {
      const OpCountScope<S> jointWork(OpCategory::JointTransforms);
      jcalcPosition(J, q, model.Xtree[i], data.Xup[i], &data.S[iv]);
    }
    const Transform<S>& X0 = data.X0[i] = data.Xup[i] * data.X0[model.parent[i]];  // i_X_0
    if (J.type == JointType::Revolute) {  // 0_X_i [e_z; 0] = [z; r x z], z = the joint axis in world
      const Vec3<S> z = X0.E.row(2).transpose();
      data.oS[iv] = Motion<S>(z, cross3(X0.r, z));
    } else {
      for (int k = 0; k < J.nv; ++k) data.oS[iv + k] = X0.applyInverse(data.S[iv + k]);
    }
  }
}

// Positions: Xup, S and the world transforms X0 of every body (eq. 14).
template <class S, class Q>
void forwardKinematics(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q) {
  jointTransforms(model, data, q);
  data.X0[0] = Transform<S>::Identity();
  for (int i = 1; i <= model.N; ++i) data.X0[i] = data.Xup[i] * data.X0[model.parent[i]];  // i_X_0
}

// Positions and velocities: also v_i, vJ_i and cJ_i.
template <class S, class Q, class V>
void forwardKinematics(const ModelTpl<S>& model, DataTpl<S>& data, const Eigen::MatrixBase<Q>& q,
                       const Eigen::MatrixBase<V>& qd) {
  jointTransformsAndVelocities(model, data, q, qd);
  data.X0[0] = Transform<S>::Identity();
  for (int i = 1; i <= model.N; ++i) data.X0[i] = data.Xup[i] * data.X0[model.parent[i]];  // i_X_0
}

// World poses of all model frames (frame_X_0), after forwardKinematics.
template <class S>
void updateFrames(const ModelTpl<S>& model, DataTpl<S>& data) {
  for (size_t k = 0; k < model.frames.size(); ++k)
    data.oMf[k] = model.frames[k].placement * data.X0[model.frames[k].body];
}

// World pose of a body: rotation (vector-rotating) and position of its origin.
template <class S>
Mat3<S> bodyRotation(const DataTpl<S>& data, int i) {
  return data.X0[i].E.transpose();
}
template <class S>
Vec3<S> bodyPosition(const DataTpl<S>& data, int i) {
  return data.X0[i].r;
}

}  // namespace dyn
