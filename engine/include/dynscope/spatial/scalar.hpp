// Scalar-generic helpers: every engine type is templated on the scalar S so an
// operation-counting scalar and autodiff run exactly the same code as double.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross products
#include <cmath>

// Small hot functions GCC would otherwise leave out of line in the algorithms' loops.
#if defined(__GNUC__)
#define DYN_INLINE [[gnu::always_inline]] inline
#else
#define DYN_INLINE inline
#endif

namespace dyn {

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3 = Eigen::Matrix<S, 3, 3>;
template <class S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S>
using Mat6 = Eigen::Matrix<S, 6, 6>;
template <class S>
using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <class S>
using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using Mat6X = Eigen::Matrix<S, 6, Eigen::Dynamic>;
// Small dynamic matrices (joint blocks, nv_i <= 6) that never touch the heap.
template <class S>
using SmallMat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
template <class S>
using SmallVec = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 6, 1>;

// [a]x : the 3x3 cross-product matrix, a x b = skew(a) b.
template <class S>
Mat3<S> skew(const Vec3<S>& a) {
  Mat3<S> m;
  m << S(0), -a.z(), a.y(), a.z(), S(0), -a.x(), -a.y(), a.x(), S(0);
  return m;
}

// Coordinate rotations (Featherstone Table 1: rx, ry, rz rotate the frame, not the vector).
template <class S>
Mat3<S> rotx(const S& t) {
  using std::cos, std::sin;
  const S c = cos(t), s = sin(t);
  Mat3<S> E;
  E << S(1), S(0), S(0), S(0), c, s, S(0), -s, c;
  return E;
}
template <class S>
Mat3<S> roty(const S& t) {
  using std::cos, std::sin;
  const S c = cos(t), s = sin(t);
  Mat3<S> E;
  E << c, S(0), -s, S(0), S(1), S(0), s, S(0), c;
  return E;
}
template <class S>
Mat3<S> rotz(const S& t) {
  using std::cos, std::sin;
  const S c = cos(t), s = sin(t);
  Mat3<S> E;
  E << c, s, S(0), -s, c, S(0), S(0), S(0), S(1);
  return E;
}

// Coordinate rotation about a unit axis by angle t: the transpose of Rodrigues' rotation.
template <class S>
Mat3<S> rotAxis(const Vec3<S>& u, const S& t) {
  using std::cos, std::sin;
  // Every product is stored as S, so that each operation sees two plain scalars: Eigen's
  // AutoDiffScalar only reconciles an empty derivative (a model constant such as u) with a sized
  // one (from q) between plain scalars, not inside an expression.
  const S c = cos(t), s = sin(t), C = S(1) - c;
  const S x = u.x(), y = u.y(), z = u.z();
  const S xC = x * C, yC = y * C, zC = z * C, xs = x * s, ys = y * s, zs = z * s;
  const S xx = x * xC, yy = y * yC, zz = z * zC, xy = x * yC, xz = x * zC, yz = y * zC;
  Mat3<S> R;                      // rotates vectors: R = c 1 + s [u]x + C u u^T
  R << c + xx, xy - zs, xz + ys,  //
      xy + zs, c + yy, yz - xs,   //
      xz - ys, yz + xs, c + zz;
  return R.transpose();
}

// a x b with each coefficient and each product stored as the scalar, as in rotAxis. Eigen's cross
// writes a1 b2 - a2 b1 as one expression; with autodiff, a product of two model constants (empty
// derivatives) and one that involves q (sized derivatives) then meet inside it, which AutoDiffScalar
// cannot reconcile (an assertion; with NDEBUG a read past the empty vector). For double (and the
// operation-counting scalar) the same six products and three differences as Eigen's. The engine
// uses it for every 3-vector cross product.
template <class A, class B>
Vec3<typename A::Scalar> cross3(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  using S = typename A::Scalar;
  const S a0 = a(0), a1 = a(1), a2 = a(2), b0 = b(0), b1 = b(1), b2 = b(2);
  const S a1b2 = a1 * b2, a2b1 = a2 * b1, a2b0 = a2 * b0, a0b2 = a0 * b2, a0b1 = a0 * b1, a1b0 = a1 * b0;
  return Vec3<S>(a1b2 - a2b1, a2b0 - a0b2, a0b1 - a1b0);
}

// Rotation matrix (vector-rotating) from URDF roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll).
template <class S>
Mat3<S> rpyToMatrix(const S& roll, const S& pitch, const S& yaw) {
  return (rotx(roll) * roty(pitch) * rotz(yaw)).transpose();  // (Cx Cy Cz)^T = Rz Ry Rx
}

// The inverse of rpyToMatrix (yaw in (-pi, pi], pitch in [-pi/2, pi/2]).
template <class S>
Vec3<S> matrixToRpy(const Mat3<S>& R) {
  using std::atan2, std::sqrt;
  const S pitch = atan2(-R(2, 0), sqrt(R(0, 0) * R(0, 0) + R(1, 0) * R(1, 0)));
  const S roll = atan2(R(2, 1), R(2, 2));
  const S yaw = atan2(R(1, 0), R(0, 0));
  return Vec3<S>(roll, pitch, yaw);
}

}  // namespace dyn
