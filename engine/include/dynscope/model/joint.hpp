// Joint models and jcalc (Featherstone Part 2, "Joint models"; RNEA reference card):
// for joint i, XJ = i_X_(joint predecessor frame), the motion subspace S_i (6 x nv_i, in
// link-i coordinates), vJ = S_i qd_i and cJ = (apparent derivative of S_i) qd_i.
#pragma once
#include <Eigen/Geometry>

#include "../spatial/inertia.hpp"
#include "../spatial/sincos.hpp"

namespace dyn {

enum class JointType { Revolute, Prismatic, Helical, Planar, Spherical, Floating };

inline const char* jointTypeName(JointType t) {
  switch (t) {
    case JointType::Revolute:
      return "revolute";
    case JointType::Prismatic:
      return "prismatic";
    case JointType::Helical:
      return "helical";
    case JointType::Planar:
      return "planar";
    case JointType::Spherical:
      return "spherical";
    case JointType::Floating:
      return "floating";
  }
  return "?";
}
inline int jointNq(JointType t) {
  switch (t) {
    case JointType::Planar:
      return 3;
    case JointType::Spherical:
      return 4;  // unit quaternion x y z w
    case JointType::Floating:
      return 7;  // position x y z, quaternion x y z w
    default:
      return 1;
  }
}
inline int jointNv(JointType t) {
  switch (t) {
    case JointType::Planar:
      return 3;
    case JointType::Spherical:
      return 3;  // angular velocity in link coordinates
    case JointType::Floating:
      return 6;  // [w; v] of the body in link coordinates
    default:
      return 1;
  }
}

// Joint frames are canonical (Featherstone Part 2, "Geometry", rule 2): revolute, prismatic
// and helical joints act about / along the z axis of their frame; the builder rotates each
// body frame so. Planar joints keep their normal in `axis`.
template <class S>
struct JointModel {
  JointType type = JointType::Revolute;
  Vec3<S> axis = Vec3<S>(S(0), S(0), S(1));  // z for revolute/prismatic/helical; planar: the normal
  S pitch = S(0);                            // helical: metres per radian
  bool continuous = false;                   // revolute without position limits (wraps)
  int nq = 1, nv = 1, idx_q = 0, idx_v = 0;

  template <class T>
  JointModel<T> cast() const {
    JointModel<T> j;
    j.type = type;
    j.axis = axis.template cast<T>();
    j.pitch = T(pitch);
    j.continuous = continuous;
    j.nq = nq;
    j.nv = nv;
    j.idx_q = idx_q;
    j.idx_v = idx_v;
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
  R << S(1) - s * (y * y + z * z), s * (x * y - z * w), s * (x * z + y * w), s * (x * y + z * w),
      S(1) - s * (x * x + z * z), s * (y * z - x * w), s * (x * z - y * w), s * (y * z + x * w),
      S(1) - s * (x * x + y * y);
  return R;
}

// Two unit vectors completing a right-handed basis (e1, e2, n).
template <class S>
void planeBasis(const Vec3<S>& n, Vec3<S>& e1, Vec3<S>& e2) {
  using std::abs;
  const Vec3<S> t = abs(n.x()) < S(0.9) ? Vec3<S>(S(1), S(0), S(0)) : Vec3<S>(S(0), S(1), S(0));
  e1 = (t - n * n.dot(t)).normalized();
  e2 = cross3(n, e1);
}

// jcalc, positions, composed with the tree transform: Xup = XJ X_T and the columns of S
// (written to Scol[0..nv)). The canonical z-axis joints need only two rows mixed.
template <class S, class QD>
DYN_INLINE void jcalcPosition(const JointModel<S>& J, const Eigen::MatrixBase<QD>& q, const Transform<S>& XT,
                              Transform<S>& Xup, Motion<S>* Scol) {
  const int iq = J.idx_q;
  const Vec3<S> ez(S(0), S(0), S(1));
  switch (J.type) {
    case JointType::Revolute:   // XJ = rotz(q), S = [e_z; 0]
    case JointType::Helical: {  // XJ = rotz(q) xlt(e_z h q), S = [e_z; h e_z]
      const S qi = S(q[iq]);
      S s, c;
      sinCos(qi, s, c);
      Xup.E.row(0) = c * XT.E.row(0) + s * XT.E.row(1);
      Xup.E.row(1) = c * XT.E.row(1) - s * XT.E.row(0);
      Xup.E.row(2) = XT.E.row(2);
      Xup.r = XT.r;
      if (J.type == JointType::Helical) Xup.r += XT.E.row(2).transpose() * (J.pitch * qi);
      Scol[0] = Motion<S>(ez, J.type == JointType::Helical ? Vec3<S>(ez * J.pitch) : Vec3<S>::Zero());
      break;
    }
    case JointType::Prismatic:  // XJ = xlt(e_z q), S = [0; e_z]
      Xup.E = XT.E;
      Xup.r = XT.r + XT.E.row(2).transpose() * S(q[iq]);
      Scol[0] = Motion<S>(Vec3<S>::Zero(), ez);
      break;
    case JointType::Planar: {  // q = (x, y, theta): XJ = rot(n, theta) xlt(x e1 + y e2)
      Vec3<S> e1, e2;
      planeBasis(J.axis, e1, e2);
      const Mat3<S> E = rotAxis(J.axis, S(q[iq + 2]));
      Xup = Transform<S>(E, e1 * S(q[iq]) + e2 * S(q[iq + 1])) * XT;
      Scol[0] = Motion<S>(Vec3<S>::Zero(), E * e1);
      Scol[1] = Motion<S>(Vec3<S>::Zero(), E * e2);
      Scol[2] = Motion<S>(J.axis, Vec3<S>::Zero());
      break;
    }
    case JointType::Spherical:  // XJ = rot(R(quat)^T), S = [1; 0]
      Xup = Transform<S>(quaternionToMatrix<S>(q.template segment<4>(iq)).transpose(), Vec3<S>::Zero()) * XT;
      for (int k = 0; k < 3; ++k) Scol[k] = Motion<S>(Vec3<S>::Unit(k), Vec3<S>::Zero());
      break;
    case JointType::Floating:  // XJ = (R^T, p), S = 1 (6x6)
      Xup = Transform<S>(quaternionToMatrix<S>(q.template segment<4>(iq + 3)).transpose(),
                         Vec3<S>(q[iq], q[iq + 1], q[iq + 2])) *
            XT;
      for (int k = 0; k < 3; ++k) {
        Scol[k] = Motion<S>(Vec3<S>::Unit(k), Vec3<S>::Zero());
        Scol[k + 3] = Motion<S>(Vec3<S>::Zero(), Vec3<S>::Unit(k));
      }
      break;
  }
}

// jcalc, velocities: vJ = S qd and cJ = dS/dt qd (non-zero only where S depends on q: planar).
template <class S, class VD>
DYN_INLINE void jcalcVelocity(const JointModel<S>& J, const Motion<S>* Scol, const Eigen::MatrixBase<VD>& qd,
                              Motion<S>& vJ, Motion<S>& cJ) {
  const int iv = J.idx_v;
  vJ = Scol[0] * S(qd[iv]);
  for (int k = 1; k < J.nv; ++k) vJ += Scol[k] * S(qd[iv + k]);
  cJ.setZero();
  if (J.type == JointType::Planar) {  // d/dt (E e) = -thetadot n x (E e)
    cJ.v = -cross3(J.axis, vJ.v) * S(qd[iv + 2]);
  }
}

// Products with the motion subspace. For the canonical z-axis joints S is a unit vector, so
// these pick one component instead of a 6-vector product (the generic path is the definition).

// S_k^T f: joint force of column k.
template <class S>
DYN_INLINE S projectForce(const JointModel<S>& J, const Motion<S>& Sk, const Force<S>& f) {
  if (J.type == JointType::Revolute) return f.n.z();
  if (J.type == JointType::Prismatic) return f.f.z();
  return Sk.dot(f);
}

// v x vJ (the velocity-product term of eq. 10 and eq. 55).
template <class S>
DYN_INLINE Motion<S> crossJointVelocity(const JointModel<S>& J, const Motion<S>& v, const Motion<S>& vJ) {
  if (J.type == JointType::Revolute) {  // v x [0 0 qd; 0 0 0]
    const S qd = vJ.w.z();
    return Motion<S>(Vec3<S>(v.w.y() * qd, -v.w.x() * qd, S(0)), Vec3<S>(v.v.y() * qd, -v.v.x() * qd, S(0)));
  }
  if (J.type == JointType::Prismatic) {  // v x [0; 0 0 qd]
    const S qd = vJ.v.z();
    return Motion<S>(Vec3<S>::Zero(), Vec3<S>(v.w.y() * qd, -v.w.x() * qd, S(0)));
  }
  return v.cross(vJ);
}

// I S_k for a rigid-body inertia.
template <class S>
DYN_INLINE Force<S> inertiaTimesS(const JointModel<S>& J, const Inertia<S>& I, const Motion<S>& Sk) {
  if (J.type == JointType::Revolute)  // [Ibar e_z; -h x e_z]
    return Force<S>(I.Ibar.col(2), Vec3<S>(-I.h.y(), I.h.x(), S(0)));
  if (J.type == JointType::Prismatic)  // [h x e_z; m e_z]
    return Force<S>(Vec3<S>(I.h.y(), -I.h.x(), S(0)), Vec3<S>(S(0), S(0), I.m));
  return I * Sk;
}

// IA S_k for an articulated-body inertia (a column of IA for the z-axis joints).
template <class S>
DYN_INLINE Force<S> inertiaTimesS(const JointModel<S>& J, const Mat6<S>& IA, const Motion<S>& Sk) {
  if (J.type == JointType::Revolute) return Force<S>::fromVector(IA.col(2));
  if (J.type == JointType::Prismatic) return Force<S>::fromVector(IA.col(5));
  return Force<S>::fromVector(IA * Sk.toVector());
}

}  // namespace dyn
