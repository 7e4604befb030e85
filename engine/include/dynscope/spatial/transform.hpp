// Plücker coordinate transform B_X_A stored as (E, r): E rotates A coordinates into B
// coordinates and r is the position of B's origin in A coordinates, so
// X = [E 0; -E[r]x E]  (Featherstone Part 2, Table 1; never formed densely in hot paths).
#pragma once
#include "motion.hpp"

namespace dyn {

template <class S>
struct Transform {
  Mat3<S> E = Mat3<S>::Identity();
  Vec3<S> r = Vec3<S>::Zero();

  Transform() = default;
  Transform(const Mat3<S>& E_, const Vec3<S>& r_) : E(E_), r(r_) {}
  static Transform Identity() { return Transform(); }
  static Transform rot(const Mat3<S>& E) { return Transform(E, Vec3<S>::Zero()); }
  static Transform xlt(const Vec3<S>& r) { return Transform(Mat3<S>::Identity(), r); }
  // From a frame pose: B's orientation R (vector-rotating, columns = B axes in A) and origin p in A.
  static Transform fromPose(const Mat3<S>& R, const Vec3<S>& p) { return Transform(R.transpose(), p); }

  // Pose of B in A: rotation (vector-rotating) and origin.
  Mat3<S> rotation() const { return E.transpose(); }
  const Vec3<S>& translation() const { return r; }

  // The applications are always inlined: called out of line from a long loop (GCC's choice in ABA), their
  // results came back through memory, written in halves and read whole: a store-forwarding stall each.
  // X m = [E w; E (v - r x w)]
  DYN_INLINE Motion<S> apply(const Motion<S>& m) const { return Motion<S>(E * m.w, E * (m.v - cross3(r, m.w))); }
  // X* f = [E (n - r x f); E f]
  DYN_INLINE Force<S> apply(const Force<S>& f) const { return Force<S>(E * (f.n - cross3(r, f.f)), E * f.f); }
  // X^-1 m = [E^T w; E^T v + r x E^T w]
  DYN_INLINE Motion<S> applyInverse(const Motion<S>& m) const {
    const Vec3<S> w = E.transpose() * m.w;
    return Motion<S>(w, E.transpose() * m.v + cross3(r, w));
  }
  // X^T f = (X*)^-1 f = [E^T n + r x E^T f; E^T f]: carries a force from B back to A.
  DYN_INLINE Force<S> applyTranspose(const Force<S>& f) const {
    const Vec3<S> ff = E.transpose() * f.f;
    return Force<S>(E.transpose() * f.n + cross3(r, ff), ff);
  }
  // Composition C_X_A = C_X_B * B_X_A.
  Transform operator*(const Transform& BA) const { return Transform(E * BA.E, BA.r + BA.E.transpose() * r); }
  // A_X_B from B_X_A.
  Transform inverse() const { return Transform(E.transpose(), -(E * r)); }
  // A point given in A coordinates expressed in B coordinates.
  Vec3<S> pointToB(const Vec3<S>& p) const { return E * (p - r); }
  // A point given in B coordinates expressed in A coordinates.
  Vec3<S> pointToA(const Vec3<S>& p) const { return E.transpose() * p + r; }

  // Dense 6x6 motion transform (tests and teaching output only).
  Mat6<S> toMatrix() const {
    Mat6<S> X = Mat6<S>::Zero();
    X.template topLeftCorner<3, 3>() = E;
    X.template bottomRightCorner<3, 3>() = E;
    X.template bottomLeftCorner<3, 3>() = -E * skew(r);
    return X;
  }
  template <class T>
  Transform<T> cast() const {
    return Transform<T>(E.template cast<T>(), r.template cast<T>());
  }
};

// XtoV (Featherstone Part 2, Table 1): the small motion that carries frame A onto B in unit time.
template <class S>
Motion<S> XtoV(const Transform<S>& X) {
  const Mat6<S> M = X.toMatrix();
  Vec6<S> v;
  v << M(1, 2) - M(2, 1), M(2, 0) - M(0, 2), M(0, 1) - M(1, 0), M(4, 2) - M(5, 1), M(5, 0) - M(3, 2), M(3, 1) - M(4, 0);
  return Motion<S>::fromVector(v * S(0.5));
}

}  // namespace dyn
