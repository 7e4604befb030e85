// Spatial motion and force vectors in Plücker coordinates (Featherstone Part 1/2):
// motion m = [w; v] (angular; linear at the origin), force f = [n; f] (moment about the origin; force).
#pragma once
#include "scalar.hpp"

namespace dyn {

template <class S>
struct Force;

template <class S>
struct Motion {
  Vec3<S> w = Vec3<S>::Zero();  // angular part
  Vec3<S> v = Vec3<S>::Zero();  // linear part at the frame origin

  Motion() = default;
  Motion(const Vec3<S>& w_, const Vec3<S>& v_) : w(w_), v(v_) {}
  static Motion Zero() { return Motion(); }
  static Motion fromVector(const Vec6<S>& x) { return Motion(x.template head<3>(), x.template tail<3>()); }
  Vec6<S> toVector() const {
    Vec6<S> x;
    x << w, v;
    return x;
  }

  // The arithmetic is always inlined: out of line (GCC's choice in long loops) a result came back through
  // memory, and whether a product fused into a following addition then depended on the caller.
  DYN_INLINE Motion operator+(const Motion& o) const { return Motion(w + o.w, v + o.v); }
  DYN_INLINE Motion operator-(const Motion& o) const { return Motion(w - o.w, v - o.v); }
  DYN_INLINE Motion operator-() const { return Motion(-w, -v); }
  DYN_INLINE Motion operator*(const S& s) const { return Motion(w * s, v * s); }
  DYN_INLINE Motion& operator+=(const Motion& o) {
    w += o.w;
    v += o.v;
    return *this;
  }
  DYN_INLINE Motion& operator-=(const Motion& o) {
    w -= o.w;
    v -= o.v;
    return *this;
  }
  void setZero() {
    w.setZero();
    v.setZero();
  }

  // crm: m x m2 = [w x w2; w x v2 + v x w2]
  DYN_INLINE Motion cross(const Motion& m2) const { return Motion(cross3(w, m2.w), cross3(w, m2.v) + cross3(v, m2.w)); }
  // crf: m x* f = [w x n + v x f; w x f]
  Force<S> crossForce(const Force<S>& f) const;
  // Scalar product with a force (power).
  S dot(const Force<S>& f) const;

  template <class T>
  Motion<T> cast() const {
    return Motion<T>(w.template cast<T>(), v.template cast<T>());
  }
};

template <class S>
struct Force {
  Vec3<S> n = Vec3<S>::Zero();  // moment about the frame origin
  Vec3<S> f = Vec3<S>::Zero();  // linear force

  Force() = default;
  Force(const Vec3<S>& n_, const Vec3<S>& f_) : n(n_), f(f_) {}
  static Force Zero() { return Force(); }
  static Force fromVector(const Vec6<S>& x) { return Force(x.template head<3>(), x.template tail<3>()); }
  Vec6<S> toVector() const {
    Vec6<S> x;
    x << n, f;
    return x;
  }

  DYN_INLINE Force operator+(const Force& o) const { return Force(n + o.n, f + o.f); }
  DYN_INLINE Force operator-(const Force& o) const { return Force(n - o.n, f - o.f); }
  DYN_INLINE Force operator-() const { return Force(-n, -f); }
  DYN_INLINE Force operator*(const S& s) const { return Force(n * s, f * s); }
  DYN_INLINE Force& operator+=(const Force& o) {
    n += o.n;
    f += o.f;
    return *this;
  }
  DYN_INLINE Force& operator-=(const Force& o) {
    n -= o.n;
    f -= o.f;
    return *this;
  }
  void setZero() {
    n.setZero();
    f.setZero();
  }

  DYN_INLINE S dot(const Motion<S>& m) const { return n.dot(m.w) + f.dot(m.v); }
  template <class T>
  Force<T> cast() const {
    return Force<T>(n.template cast<T>(), f.template cast<T>());
  }
};

template <class S>
DYN_INLINE Force<S> Motion<S>::crossForce(const Force<S>& F) const {
  return Force<S>(cross3(w, F.n) + cross3(v, F.f), cross3(w, F.f));
}
template <class S>
DYN_INLINE S Motion<S>::dot(const Force<S>& F) const {
  return F.dot(*this);
}

// 6x6 matrix forms, for teaching output and tests (never in hot paths).
template <class S>
Mat6<S> crm(const Motion<S>& m) {
  Mat6<S> X = Mat6<S>::Zero();
  X.template topLeftCorner<3, 3>() = skew(m.w);
  X.template bottomLeftCorner<3, 3>() = skew(m.v);
  X.template bottomRightCorner<3, 3>() = skew(m.w);
  return X;
}
template <class S>
Mat6<S> crf(const Motion<S>& m) {
  return -crm(m).transpose();
}

}  // namespace dyn
