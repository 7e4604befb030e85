// Configuration space: q has nq entries (unit quaternions for spherical and floating joints),
// velocities nv. integrate(q, v, dt) moves along v on the joint manifolds; difference is its inverse.
#pragma once
#include <random>

#include "../model/model.hpp"
#include "check.hpp"

namespace dyn {

// exp of an angular displacement w (vector-rotating rotation matrix).
template <class S> Mat3<S> expSO3(const Vec3<S>& w) {
  using std::cos, std::sin, std::sqrt;
  const S t2 = w.squaredNorm();
  const Mat3<S> W = skew(w);
  S a, b;
  if (t2 < S(1e-12)) { a = S(1) - t2 / S(6); b = S(0.5) - t2 / S(24); }
  else { const S t = sqrt(t2); a = sin(t) / t; b = (S(1) - cos(t)) / t2; }
  return Mat3<S>::Identity() + a * W + b * W * W;
}

// log of a rotation matrix: the angular displacement w with expSO3(w) = R.
template <class S> Vec3<S> logSO3(const Mat3<S>& R) {
  using std::acos, std::sin, std::sqrt, std::min, std::max;
  const Vec3<S> v(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));
  const S c = max(S(-1), min(S(1), S((R.trace() - S(1)) / S(2))));  // S(): an expression type (autodiff) is ambiguous in min
  const S t = acos(c);
  if (t < S(1e-6)) return v / S(2);
  if (t > S(3.14159265358979) - S(1e-6)) {  // near pi: axis from the symmetric part
    const Mat3<S> B = (R + Mat3<S>::Identity()) / S(2);
    int k; B.diagonal().maxCoeff(&k);
    Vec3<S> axis = B.col(k) / sqrt(B(k, k));
    if (axis.dot(v) < S(0)) axis = -axis;
    return axis * t;
  }
  return v * (t / (S(2) * sin(t)));
}

// The left Jacobian of SO(3), V(w): translation of an SE(3) exp is V(w) v.
template <class S> Mat3<S> leftJacobianSO3(const Vec3<S>& w) {
  using std::cos, std::sin, std::sqrt;
  const S t2 = w.squaredNorm();
  const Mat3<S> W = skew(w);
  S b, c;
  if (t2 < S(1e-12)) { b = S(0.5); c = S(1) / S(6); }
  else { const S t = sqrt(t2); b = (S(1) - cos(t)) / t2; c = (t - sin(t)) / (t2 * t); }
  return Mat3<S>::Identity() + b * W + c * W * W;
}

template <class S> Eigen::Matrix<S, 4, 1> matrixToQuaternion(const Mat3<S>& R) {
  Eigen::Quaternion<S> qt(R);
  qt.normalize();
  if (qt.w() < S(0)) qt.coeffs() = -qt.coeffs();
  return qt.coeffs();  // x y z w
}

template <class S, class Q, class V, class Out>
void integrate(const ModelTpl<S>& model, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<V>& v, const S& dt,
               Eigen::MatrixBase<Out>& qout) {
  checkSize("q", q.size(), model.nq);
  checkSize("v", v.size(), model.nv);
  qout = q;
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iq = J.idx_q, iv = J.idx_v;
    if (J.type == JointType::Spherical) {  // R <- R exp(w dt), w in link coordinates
      const Mat3<S> R = quaternionToMatrix<S>(q.template segment<4>(iq)) * expSO3<S>(v.template segment<3>(iv) * dt);
      qout.template segment<4>(iq) = matrixToQuaternion(R);
    } else if (J.type == JointType::Floating) {  // (R, p) <- (R, p) exp([w; v] dt), body twist
      const Mat3<S> R = quaternionToMatrix<S>(q.template segment<4>(iq + 3));
      const Vec3<S> w = v.template segment<3>(iv) * dt, u = v.template segment<3>(iv + 3) * dt;
      qout.template segment<3>(iq) = q.template segment<3>(iq) + R * (leftJacobianSO3(w) * u);
      qout.template segment<4>(iq + 3) = matrixToQuaternion<S>(R * expSO3(w));
    } else {
      for (int k = 0; k < J.nv; ++k) qout[iq + k] = q[iq + k] + v[iv + k] * dt;
    }
  }
}

// v such that integrate(q0, v, 1) = q1.
template <class S, class Q0, class Q1, class Out>
void difference(const ModelTpl<S>& model, const Eigen::MatrixBase<Q0>& q0, const Eigen::MatrixBase<Q1>& q1,
                Eigen::MatrixBase<Out>& vout) {
  checkSize("q0", q0.size(), model.nq);
  checkSize("q1", q1.size(), model.nq);
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    const int iq = J.idx_q, iv = J.idx_v;
    if (J.type == JointType::Spherical) {
      const Mat3<S> R0 = quaternionToMatrix<S>(q0.template segment<4>(iq));
      const Mat3<S> R1 = quaternionToMatrix<S>(q1.template segment<4>(iq));
      vout.template segment<3>(iv) = logSO3<S>(R0.transpose() * R1);
    } else if (J.type == JointType::Floating) {
      const Mat3<S> R0 = quaternionToMatrix<S>(q0.template segment<4>(iq + 3));
      const Mat3<S> R1 = quaternionToMatrix<S>(q1.template segment<4>(iq + 3));
      const Vec3<S> w = logSO3<S>(R0.transpose() * R1);
      const Vec3<S> dp = R0.transpose() * (q1.template segment<3>(iq) - q0.template segment<3>(iq));
      vout.template segment<3>(iv) = w;
      vout.template segment<3>(iv + 3) = leftJacobianSO3(w).inverse() * dp;
    } else {
      for (int k = 0; k < J.nv; ++k) vout[iv + k] = q1[iq + k] - q0[iq + k];
    }
  }
}

// A random configuration within the position limits (a default range where a joint has none).
template <class S, class Rng> VecX<S> randomConfiguration(const ModelTpl<S>& model, Rng& rng, double range = 3.14159) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  VecX<S> q = model.neutral();
  for (int i = 1; i <= model.N; ++i) {
    const JointModel<S>& J = model.joints[i];
    if (J.type == JointType::Spherical || J.type == JointType::Floating) {
      Eigen::Matrix<S, 4, 1> quat(S(U(rng)), S(U(rng)), S(U(rng)), S(U(rng)));
      quat.normalize();
      const int off = J.type == JointType::Floating ? 3 : 0;
      q.template segment<4>(J.idx_q + off) = quat;
      for (int k = 0; k < off; ++k) q[J.idx_q + k] = S(U(rng));
      continue;
    }
    for (int k = 0; k < J.nq; ++k) {
      const int iq = J.idx_q + k;
      const double lo = std::isfinite(double(model.lowerLimit[iq])) ? double(model.lowerLimit[iq]) : -range;
      const double hi = std::isfinite(double(model.upperLimit[iq])) ? double(model.upperLimit[iq]) : range;
      q[iq] = S(lo + (hi - lo) * 0.5 * (U(rng) + 1.0));
    }
  }
  return q;
}

}  // namespace dyn
