// Joint models and jcalc (Featherstone Part 2, "Joint models"; RNEA reference card):
// for joint i, XJ = i_X_(joint predecessor frame), the motion subspace S_i (6 x nv_i, in
// link-i coordinates), vJ = S_i qd_i and cJ = (apparent derivative of S_i) qd_i.
#pragma once
#include <Eigen/Geometry>

#include "../spatial/transform.hpp"

namespace dyn {

enum class JointType { Revolute, Prismatic, Helical, Planar, Spherical, Floating };

inline const char* jointTypeName(JointType t) {
  switch (t) {
    case JointType::Revolute: return "revolute";
    case JointType::Prismatic: return "prismatic";
    case JointType::Helical: return "helical";
    case JointType::Planar: return "planar";
    case JointType::Spherical: return "spherical";
    case JointType::Floating: return "floating";
  }
  return "?";
}
inline int jointNq(JointType t) {
  switch (t) {
    case JointType::Planar: return 3;
    case JointType::Spherical: return 4;  // unit quaternion x y z w
    case JointType::Floating: return 7;   // position x y z, quaternion x y z w
    default: return 1;
  }
}
inline int jointNv(JointType t) {
  switch (t) {
    case JointType::Planar: return 3;
    case JointType::Spherical: return 3;  // angular velocity in link coordinates
    case JointType::Floating: return 6;   // [w; v] of the body in link coordinates
    default: return 1;
  }
}

template <class S> struct JointModel {
  JointType type = JointType::Revolute;
  Vec3<S> axis = Vec3<S>(S(0), S(0), S(1));  // unit axis in the joint frame (planar: the normal)
  S pitch = S(0);                            // helical: metres per radian
  bool continuous = false;                   // revolute without position limits (wraps)
  int nq = 1, nv = 1, idx_q = 0, idx_v = 0;

  template <class T> JointModel<T> cast() const {
    JointModel<T> j;
    j.type = type; j.axis = axis.template cast<T>(); j.pitch = T(pitch); j.continuous = continuous;
    j.nq = nq; j.nv = nv; j.idx_q = idx_q; j.idx_v = idx_v;
    return j;
  }
};

// Unit quaternion (x y z w in q) -> vector-rotating matrix; normalised so a drifting q stays valid.
template <class S, class Derived>
Mat3<S> quaternionToMatrix(const Eigen::MatrixBase<Derived>& qv) {
  using std::sqrt;
  const S x = qv[0], y = qv[1], z = qv[2], w = qv[3];
  const S n2 = x * x + y * y + z * z + w * w;
  const S s = S(2) / n2;
  Mat3<S> R;
  R << S(1) - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w),
       s * (x * y + z * w), S(1) - s * (x * x + z * z), s * (y * z - x * w),
       s * (x * z - y * w), s * (y * z + x * w), S(1) - s * (x * x + y * y);
  return R;
}

// Two unit vectors completing a right-handed basis (e1, e2, n).
template <class S> void planeBasis(const Vec3<S>& n, Vec3<S>& e1, Vec3<S>& e2) {
  using std::abs;
  const Vec3<S> t = abs(n.x()) < S(0.9) ? Vec3<S>(S(1), S(0), S(0)) : Vec3<S>(S(0), S(1), S(0));
  e1 = (t - n * n.dot(t)).normalized();
  e2 = n.cross(e1);
}

// jcalc, positions: XJ and the columns of S (written to Scol[0..nv)).
template <class S, class QD>
void jcalcPosition(const JointModel<S>& J, const Eigen::MatrixBase<QD>& q, Transform<S>& XJ, Motion<S>* Scol) {
  const int iq = J.idx_q;
  switch (J.type) {
    case JointType::Revolute:  // XJ = rot(axis, q), S = [axis; 0]
      XJ = Transform<S>(rotAxis(J.axis, S(q[iq])), Vec3<S>::Zero());
      Scol[0] = Motion<S>(J.axis, Vec3<S>::Zero());
      break;
    case JointType::Prismatic:  // XJ = xlt(axis q), S = [0; axis]
      XJ = Transform<S>(Mat3<S>::Identity(), J.axis * S(q[iq]));
      Scol[0] = Motion<S>(Vec3<S>::Zero(), J.axis);
      break;
    case JointType::Helical:  // XJ = rot(axis, q) xlt(axis h q), S = [axis; h axis]
      XJ = Transform<S>(rotAxis(J.axis, S(q[iq])), J.axis * (J.pitch * S(q[iq])));
      Scol[0] = Motion<S>(J.axis, J.axis * J.pitch);
      break;
    case JointType::Planar: {  // q = (x, y, theta): XJ = rot(n, theta) xlt(x e1 + y e2)
      Vec3<S> e1, e2;
      planeBasis(J.axis, e1, e2);
      const Mat3<S> E = rotAxis(J.axis, S(q[iq + 2]));
      XJ = Transform<S>(E, e1 * S(q[iq]) + e2 * S(q[iq + 1]));
      Scol[0] = Motion<S>(Vec3<S>::Zero(), E * e1);
      Scol[1] = Motion<S>(Vec3<S>::Zero(), E * e2);
      Scol[2] = Motion<S>(J.axis, Vec3<S>::Zero());
      break;
    }
    case JointType::Spherical:  // XJ = rot(R(quat)^T), S = [1; 0]
      XJ = Transform<S>(quaternionToMatrix<S>(q.template segment<4>(iq)).transpose(), Vec3<S>::Zero());
      for (int k = 0; k < 3; ++k) {
        Scol[k] = Motion<S>(Vec3<S>::Unit(k), Vec3<S>::Zero());
      }
      break;
    case JointType::Floating:  // XJ = (R^T, p), S = 1 (6x6)
      XJ = Transform<S>(quaternionToMatrix<S>(q.template segment<4>(iq + 3)).transpose(),
                        Vec3<S>(q[iq], q[iq + 1], q[iq + 2]));
      for (int k = 0; k < 3; ++k) {
        Scol[k] = Motion<S>(Vec3<S>::Unit(k), Vec3<S>::Zero());
        Scol[k + 3] = Motion<S>(Vec3<S>::Zero(), Vec3<S>::Unit(k));
      }
      break;
  }
}

// jcalc, velocities: vJ = S qd and cJ = dS/dt qd (non-zero only where S depends on q: planar).
template <class S, class VD>
void jcalcVelocity(const JointModel<S>& J, const Motion<S>* Scol, const Eigen::MatrixBase<VD>& qd, Motion<S>& vJ,
                   Motion<S>& cJ) {
  const int iv = J.idx_v;
  vJ = Scol[0] * S(qd[iv]);
  for (int k = 1; k < J.nv; ++k) vJ += Scol[k] * S(qd[iv + k]);
  cJ.setZero();
  if (J.type == JointType::Planar) {  // d/dt (E e) = -thetadot n x (E e)
    cJ.v = -(J.axis.cross(vJ.v)) * S(qd[iv + 2]);
  }
}

}  // namespace dyn
