// Rigid-body spatial inertia stored as 10 numbers: mass m, first moment h = m c and
// rotational inertia Ibar about the frame origin (Featherstone: I = [Ibar [h]x; [h]x^T m 1]).
#pragma once
#include "transform.hpp"

namespace dyn {

template <class S>
struct Inertia {
  S m = S(0);
  Vec3<S> h = Vec3<S>::Zero();
  Mat3<S> Ibar = Mat3<S>::Zero();

  Inertia() = default;
  Inertia(const S& m_, const Vec3<S>& h_, const Mat3<S>& Ibar_) : m(m_), h(h_), Ibar(Ibar_) {}
  static Inertia Zero() { return Inertia(); }

  // mcI: from mass, centre of mass c and rotational inertia Ic about the COM (Table 1).
  static Inertia mcI(const S& m, const Vec3<S>& c, const Mat3<S>& Ic) {
    const Mat3<S> C = skew(c);
    return Inertia(m, c * m, Ic - m * C * C);
  }
  Vec3<S> com() const { return m > S(0) ? Vec3<S>(h / m) : Vec3<S>::Zero(); }
  // Rotational inertia about the centre of mass.
  Mat3<S> inertiaAboutCom() const {
    if (!(m > S(0))) return Ibar;
    const Mat3<S> C = skew(com());
    return Ibar + m * C * C;
  }

  // I v = [Ibar w + h x v; m v - h x w] (always inlined, as Transform's applications)
  DYN_INLINE Force<S> operator*(const Motion<S>& v) const {
    return Force<S>(Ibar * v.w + cross3(h, v.v), m * v.v - cross3(h, v.w));
  }
  Inertia operator+(const Inertia& o) const { return Inertia(m + o.m, h + o.h, Ibar + o.Ibar); }
  Inertia& operator+=(const Inertia& o) {
    m += o.m;
    h += o.h;
    Ibar += o.Ibar;
    return *this;
  }
  void setZero() {
    m = S(0);
    h.setZero();
    Ibar.setZero();
  }

  // The congruence X^T I X with X = B_X_A: this inertia (in B) expressed in A coordinates.
  Inertia transformToA(const Transform<S>& X) const {
    Inertia out;
    transformInto<false>(X, out);
    return out;
  }
  // acc += X^T I X, in place (CRBA's eq. 46): returned by value and then added, the result went through
  // memory written with scalar stores and read back with wide loads, a store-forwarding stall on every
  // link of the chain of composite inertias (CRBA -3 to -8 %, docs/benchmarks.md). Not inlined: faster.
  [[gnu::noinline]] void addTransformedToA(const Transform<S>& X, Inertia& acc) const { transformInto<true>(X, acc); }
  // X* I X^-1: an inertia given in A coordinates expressed in B coordinates.
  Inertia transformToB(const Transform<S>& X) const { return transformToA(X.inverse()); }

  // Kinetic energy 1/2 v.I v.
  S kineticEnergy(const Motion<S>& v) const { return S(0.5) * v.dot((*this) * v); }

  DYN_INLINE Mat6<S> toMatrix() const {
    Mat6<S> I;
    I.template topLeftCorner<3, 3>() = Ibar;
    I.template topRightCorner<3, 3>() << S(0), -h.z(), h.y(), h.z(), S(0), -h.x(), -h.y(), h.x(), S(0);  // [h]x
    I.template bottomLeftCorner<3, 3>() << S(0), h.z(), -h.y(), -h.z(), S(0), h.x(), h.y(), -h.x(), S(0);
    I.template bottomRightCorner<3, 3>() << m, S(0), S(0), S(0), m, S(0), S(0), S(0), m;
    return I;
  }
  template <class T>
  Inertia<T> cast() const {
    return Inertia<T>(T(m), h.template cast<T>(), Ibar.template cast<T>());
  }

 private:
  // out = X^T I X (Add: out += X^T I X), written entry by entry.
  template <bool Add>
  DYN_INLINE void transformInto(const Transform<S>& X, Inertia& out) const {
    const Mat3<S>& E = X.E;
    const Vec3<S> hA = E.transpose() * h;  // first moment, rotated to A axes
    Mat3<S> IE;
    IE.noalias() = Ibar * E;  // E^T Ibar E (about B's origin, A axes) is symmetric: E_i . (Ibar E)_j, i <= j
    // Shift the origin by r: Ibar - [r]x[hA]x - [hA]x[r]x - m [r]x[r]x, with [a]x[b]x = b a^T - (a.b) 1.
    const Vec3<S>& r = X.r;
    const Vec3<S> c = hA + S(0.5) * m * r;  // so the shift is -(r c^T + c r^T) + 2 (r.c) 1
    const S diagonal = S(2) * r.dot(c);
    const auto put = [](S& to, const S& x) {
      if constexpr (Add)
        to += x;
      else
        to = x;
    };
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i <= j; ++i) {
        S x = E.col(i).dot(IE.col(j)) - r[i] * c[j] - c[i] * r[j];
        if (i == j) x += diagonal;
        put(out.Ibar(i, j), x);
        if (i != j) put(out.Ibar(j, i), x);
      }
    put(out.m, m);
    for (int k = 0; k < 3; ++k) put(out.h[k], hA[k] + m * r[k]);
  }
};

// Articulated-body inertia: a general symmetric 6x6 matrix (ABA's IA).
// The second half of a congruence X^T IA X, X = B_X_A: given the blocks [A B; B^T C] of IA already
// rotated to A's axes, shifts the reference point by r = X.r: Xt^T I Xt with Xt = [1 0; -[r]x 1].
template <class S>
Mat6<S> shiftedBlocksToA(const Vec3<S>& r, const Mat3<S>& A, const Mat3<S>& B, const Mat3<S>& C) {
  Mat3<S> BR = B, RBt;  // BR = B + [r]x C, RBt = [r]x B^T (columns crossed with r)
  for (int j = 0; j < 3; ++j) {
    BR.col(j) += cross3(r, C.col(j));
    RBt.col(j) = cross3(r, B.row(j).transpose());
  }
  Mat3<S> TL = A + RBt;  // - BR [r]x: row i of M [r]x is (m_i x r)^T
  for (int i = 0; i < 3; ++i) TL.row(i) -= cross3(BR.row(i), r).transpose();
  Mat6<S> out;
  out.template topLeftCorner<3, 3>() = TL;
  out.template topRightCorner<3, 3>() = BR;
  out.template bottomLeftCorner<3, 3>() = BR.transpose();
  out.template bottomRightCorner<3, 3>() = C;
  return out;
}

// X^T IA X for X = B_X_A with IA in B: returns the matrix in A coordinates (block form, no 6x6 products).
template <class S>
Mat6<S> congruenceToA(const Transform<S>& X, const Mat6<S>& I) {
  const Mat3<S> Et = X.E.transpose();
  const Mat3<S> A = Et * I.template topLeftCorner<3, 3>() * X.E;  // rotate blocks to A axes
  const Mat3<S> B = Et * I.template topRightCorner<3, 3>() * X.E;
  const Mat3<S> C = Et * I.template bottomRightCorner<3, 3>() * X.E;
  return shiftedBlocksToA(X.r, A, B, C);
}

// out += k X^T IA X for an IA whose row and column 2 are zero: the articulated inertia a revolute joint
// passes to its parent (Ia S = 0 with S = e_z, ABA; there IA = D Ia and k = 1/D). The blocks [A B; B^T C] are rotated
// to A's axes (the zero rows skipped: a third of the products of A and B), shifted by r as in shiftedBlocksToA (only
// the upper triangle of the symmetric corners) and added in place. Not inlined: inside ABA's loop it was slower.
template <class S>
[[gnu::noinline]] void addCongruenceToAFreeZ(const Transform<S>& X, const Mat6<S>& I, const S& k, Mat6<S>& out) {
  const Eigen::Matrix<S, 2, 3> E2 = X.E.template topRows<2>();
  Eigen::Matrix<S, 2, 3> T2;
  T2.noalias() = I.template topLeftCorner<2, 2>() * E2;
  Mat3<S> A;
  A.noalias() = E2.transpose() * T2;  // E^T A E
  T2.noalias() = I.template block<2, 3>(0, 3) * X.E;
  Mat3<S> B;
  B.noalias() = E2.transpose() * T2;  // E^T B E
  Mat3<S> T;
  T.noalias() = I.template bottomRightCorner<3, 3>() * X.E;
  Mat3<S> C;
  C.noalias() = X.E.transpose() * T;  // E^T C E
  const S rx = X.r.x(), ry = X.r.y(), rz = X.r.z();
  Mat3<S> BR;  // B + [r]x C, column by column
  for (int j = 0; j < 3; ++j) {
    BR(0, j) = B(0, j) + ry * C(2, j) - rz * C(1, j);
    BR(1, j) = B(1, j) + rz * C(0, j) - rx * C(2, j);
    BR(2, j) = B(2, j) + rx * C(1, j) - ry * C(0, j);
  }
  for (int i = 0; i < 3; ++i)  // A + [r]x B^T - BR [r]x, upper triangle, mirrored
    for (int j = i; j < 3; ++j) {
      const S rBt = i == 0   ? ry * B(j, 2) - rz * B(j, 1)
                    : i == 1 ? rz * B(j, 0) - rx * B(j, 2)
                             : rx * B(j, 1) - ry * B(j, 0);  // ([r]x B^T)(i, j) = (r x B.row(j))_i
      const S BRr = j == 0   ? BR(i, 1) * rz - BR(i, 2) * ry
                    : j == 1 ? BR(i, 2) * rx - BR(i, 0) * rz
                             : BR(i, 0) * ry - BR(i, 1) * rx;  // (BR [r]x)(i, j)
      const S tl = A(i, j) + rBt - BRr;
      out(i, j) += k * tl;
      out(3 + i, 3 + j) += k * C(i, j);
      if (i != j) {
        out(j, i) += k * tl;
        out(3 + j, 3 + i) += k * C(i, j);
      }
    }
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      out(i, 3 + j) += k * BR(i, j);
      out(3 + j, i) += k * BR(i, j);
    }
}

template <class S>
Force<S> operator*(const Mat6<S>& I, const Motion<S>& v) {
  Vec6<S> x;
  x.noalias() = I.template leftCols<3>() * v.w;
  x.noalias() += I.template rightCols<3>() * v.v;
  return Force<S>(x.template head<3>(), x.template tail<3>());
}

}  // namespace dyn
