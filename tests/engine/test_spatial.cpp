// Spatial algebra against dense 6x6 formulas written here from Featherstone's definitions
// ("Rigid Body Dynamics Algorithms" / Part 2, Table 1):
//   X = [E 0; -E rx E],  X* = [E -E rx; 0 E] = X^-T,  crm(v) = [wx 0; vx wx],  crf(v) = -crm(v)^T,
//   I = [Ibar hx; hx^T m1],  mcI: Ibar = Ic - m cx cx, h = m c.
// Every check uses seeded random inputs of order 1 and an absolute tolerance of 1e-12.
#include <QtTest>
#include <cmath>
#include <random>

#include <Eigen/Geometry>

#include "dynscope/spatial/inertia.hpp"

using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Motion = dyn::Motion<double>;
using Force = dyn::Force<double>;
using Transform = dyn::Transform<double>;
using Inertia = dyn::Inertia<double>;

namespace {

constexpr double kTol = 1e-12;
constexpr int kTrials = 200;

// ---- Dense reference formulas (written independently of the engine) -------------------------
Mat3 cx(const Vec3& a) {  // [a]x
  Mat3 m;
  m << 0, -a.z(), a.y(), a.z(), 0, -a.x(), -a.y(), a.x(), 0;
  return m;
}
Mat6 denseX(const Mat3& E, const Vec3& r) {  // X = [E 0; -E rx E]
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.bottomLeftCorner<3, 3>() = -E * cx(r);
  X.bottomRightCorner<3, 3>() = E;
  return X;
}
Mat6 denseXstar(const Mat3& E, const Vec3& r) {  // X* = [E -E rx; 0 E]
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = E;
  X.topRightCorner<3, 3>() = -E * cx(r);
  X.bottomRightCorner<3, 3>() = E;
  return X;
}
Mat6 denseX(const Transform& T) { return denseX(T.E, T.r); }
Mat6 denseCrm(const Vec6& v) {  // [wx 0; vx wx]
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = cx(v.head<3>());
  m.bottomLeftCorner<3, 3>() = cx(v.tail<3>());
  m.bottomRightCorner<3, 3>() = cx(v.head<3>());
  return m;
}
Mat6 denseCrf(const Vec6& v) { return -denseCrm(v).transpose(); }
Mat6 denseI(double m, const Vec3& h, const Mat3& Ibar) {  // [Ibar hx; hx^T m1]
  Mat6 I;
  I << Ibar, cx(h), cx(h).transpose(), m * Mat3::Identity();
  return I;
}
Mat6 denseI(const Inertia& I) { return denseI(I.m, I.h, I.Ibar); }

// Vector-rotating elementary rotations (the engine's rotx etc. are their transposes).
Mat3 Rx(double t) { return Eigen::AngleAxisd(t, Vec3::UnitX()).toRotationMatrix(); }
Mat3 Ry(double t) { return Eigen::AngleAxisd(t, Vec3::UnitY()).toRotationMatrix(); }
Mat3 Rz(double t) { return Eigen::AngleAxisd(t, Vec3::UnitZ()).toRotationMatrix(); }

// ---- Random inputs -----------------------------------------------------------------------------
struct Rand {
  std::mt19937 rng;
  std::uniform_real_distribution<double> U{-1.0, 1.0};
  explicit Rand(unsigned seed) : rng(seed) {}
  double u() { return U(rng); }
  Vec3 v3() { return Vec3(u(), u(), u()); }
  Vec6 v6() {
    Vec6 x;
    for (int k = 0; k < 6; ++k) x[k] = u();
    return x;
  }
  Vec3 unit() {
    Vec3 a;
    do a = v3();
    while (a.norm() < 0.1);
    return a.normalized();
  }
  Mat3 rotation() { return Eigen::AngleAxisd(M_PI * u(), unit()).toRotationMatrix(); }
  Transform transform() { return Transform(rotation(), v3()); }
  Motion motion() { return Motion(v3(), v3()); }
  Force force() { return Force(v3(), v3()); }
  Mat3 inertiaAboutCom() {  // symmetric positive definite, principal moments obeying a + b >= c
    const double a = 0.5 + 0.5 * std::abs(u()), b = 0.5 + 0.5 * std::abs(u()), c = 0.5 + 0.5 * std::abs(u());
    const Mat3 R = rotation();
    return R * Vec3(a, b, c).asDiagonal() * R.transpose();
  }
  Inertia inertia() { return Inertia::mcI(1.0 + std::abs(u()), v3(), inertiaAboutCom()); }
};

template <class D>
double maxAbs(const Eigen::MatrixBase<D>& a) {
  return a.cwiseAbs().maxCoeff();
}

#define EXPECT_NEAR_TOL(err, what)                                                                  \
  do {                                                                                              \
    const double e_ = (err);                                                                        \
    if (!(e_ <= kTol)) QFAIL(qPrintable(QString("%1: error %2 > %3").arg(what).arg(e_).arg(kTol))); \
  } while (false)

}  // namespace

class TestSpatial : public QObject {
  Q_OBJECT

 private slots:
  // The reference formulas themselves: X* = X^-T, crf = -crm^T consistent with X*, dense
  // matrices of the engine agree with the definitions.
  void referenceFormulasConsistent() {
    Rand R(1);
    for (int t = 0; t < kTrials; ++t) {
      const Transform X = R.transform();
      const Mat6 D = denseX(X);
      EXPECT_NEAR_TOL(maxAbs(denseXstar(X.E, X.r) - Mat6(D.inverse().transpose())), "X* = X^-T");
      EXPECT_NEAR_TOL(maxAbs(X.toMatrix() - D), "Transform::toMatrix");
      const Motion v = R.motion();
      EXPECT_NEAR_TOL(maxAbs(dyn::crm(v) - denseCrm(v.toVector())), "crm()");
      EXPECT_NEAR_TOL(maxAbs(dyn::crf(v) - denseCrf(v.toVector())), "crf()");
      const Inertia I = R.inertia();
      EXPECT_NEAR_TOL(maxAbs(I.toMatrix() - denseI(I)), "Inertia::toMatrix");
      // vector round trips
      EXPECT_NEAR_TOL(maxAbs(Vec6(Motion::fromVector(v.toVector()).toVector() - v.toVector())), "Motion vector");
    }
  }

  void transformApplyMotionAndForce() {
    Rand R(2);
    for (int t = 0; t < kTrials; ++t) {
      const Transform X = R.transform();
      const Motion m = R.motion();
      const Force f = R.force();
      EXPECT_NEAR_TOL(maxAbs(Vec6(X.apply(m).toVector() - denseX(X.E, X.r) * m.toVector())), "X m");
      EXPECT_NEAR_TOL(maxAbs(Vec6(X.apply(f).toVector() - denseXstar(X.E, X.r) * f.toVector())), "X* f");
      const Mat6 Xinv = denseX(X.E, X.r).inverse();
      EXPECT_NEAR_TOL(maxAbs(Vec6(X.applyInverse(m).toVector() - Xinv * m.toVector())), "X^-1 m");
      EXPECT_NEAR_TOL(maxAbs(Vec6(X.applyTranspose(f).toVector() - denseX(X.E, X.r).transpose() * f.toVector())),
                      "X^T f");
      // round trips
      EXPECT_NEAR_TOL(maxAbs(Vec6(X.applyInverse(X.apply(m)).toVector() - m.toVector())), "X^-1 X m");
      EXPECT_NEAR_TOL(maxAbs(Vec6(X.applyTranspose(X.apply(f)).toVector() - f.toVector())), "X^T X* f");
      // points: pointToB(p) is B's coordinates of the A point p; pointToA inverts it
      const Vec3 p = R.v3();
      EXPECT_NEAR_TOL(maxAbs(Vec3(X.pointToB(p) - X.E * (p - X.r))), "pointToB");
      EXPECT_NEAR_TOL(maxAbs(Vec3(X.pointToA(X.pointToB(p)) - p)), "pointToA(pointToB)");
      // pose accessors
      EXPECT_NEAR_TOL(maxAbs(Mat3(X.rotation() - X.E.transpose())), "rotation()");
      EXPECT_NEAR_TOL(maxAbs(Vec3(X.translation() - X.r)), "translation()");
    }
  }

  void transformCompositionAndInverse() {
    Rand R(3);
    for (int t = 0; t < kTrials; ++t) {
      const Transform X1 = R.transform(), X2 = R.transform();
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseX(X1 * X2) - denseX(X1) * denseX(X2))), "X1 * X2");
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseX(X1.inverse()) - denseX(X1).inverse())), "inverse()");
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseX(X1 * X1.inverse()) - Mat6::Identity())), "X X^-1");
      // fromPose: R is B's orientation in A (vector-rotating), p its origin
      const Mat3 Rot = R.rotation();
      const Vec3 p = R.v3();
      const Transform P = Transform::fromPose(Rot, p);
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseX(P) - denseX(Rot.transpose(), p))), "fromPose");
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseX(Transform::rot(Rot)) - denseX(Rot, Vec3::Zero()))), "rot()");
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseX(Transform::xlt(p)) - denseX(Mat3::Identity(), p))), "xlt()");
    }
  }

  void inertiaTimesMotion() {
    Rand R(4);
    for (int t = 0; t < kTrials; ++t) {
      const Inertia I = R.inertia();
      const Motion v = R.motion();
      EXPECT_NEAR_TOL(maxAbs(Vec6((I * v).toVector() - denseI(I) * v.toVector())), "I v");
      const Inertia I2 = R.inertia();
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseI(I + I2) - denseI(I) - denseI(I2))), "I1 + I2");
      Inertia I3 = I;
      I3 += I2;
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseI(I3) - denseI(I) - denseI(I2))), "I1 += I2");
      // kinetic energy 1/2 v^T I v
      const double T = 0.5 * v.toVector().dot(denseI(I) * v.toVector());
      EXPECT_NEAR_TOL(std::abs(I.kineticEnergy(v) - T), "kineticEnergy");
      // dense 6x6 times motion
      EXPECT_NEAR_TOL(maxAbs(Vec6((denseI(I) * v).toVector() - denseI(I) * v.toVector())), "Mat6 * Motion");
    }
  }

  void inertiaTransformToA() {
    Rand R(5);
    for (int t = 0; t < kTrials; ++t) {
      const Inertia I = R.inertia();
      const Transform X = R.transform();
      const Mat6 D = denseX(X);
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseI(I.transformToA(X)) - D.transpose() * denseI(I) * D)), "X^T I X");
      // transformToB is X* I X^-1
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseI(I.transformToB(X)) - denseXstar(X.E, X.r) * denseI(I) * D.inverse())),
                      "X* I X^-1");
    }
  }

  void inertiaMcIComAndAboutCom() {
    Rand R(6);
    for (int t = 0; t < kTrials; ++t) {
      const double m = 0.5 + std::abs(R.u());
      const Vec3 c = R.v3();
      const Mat3 Ic = R.inertiaAboutCom();
      const Inertia I = Inertia::mcI(m, c, Ic);
      // Featherstone: I = [Ic + m cx cx^T, m cx; m cx^T, m 1]   (parallel-axis theorem)
      Mat6 ref;
      ref << Ic + m * cx(c) * cx(c).transpose(), m * cx(c), m * cx(c).transpose(), m * Mat3::Identity();
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseI(I) - ref)), "mcI");
      EXPECT_NEAR_TOL(maxAbs(Mat3(I.Ibar - (Ic - m * cx(c) * cx(c)))), "mcI Ibar = Ic - m cx cx");
      EXPECT_NEAR_TOL(maxAbs(Vec3(I.h - m * c)), "mcI h = m c");
      EXPECT_NEAR_TOL(maxAbs(Vec3(I.com() - c)), "com()");
      EXPECT_NEAR_TOL(maxAbs(Mat3(I.inertiaAboutCom() - Ic)), "inertiaAboutCom()");
      // the inertia about the COM of a transformed body: rotated Ic, COM moved as a point
      const Transform X = R.transform();
      const Inertia IA = I.transformToA(X);
      EXPECT_NEAR_TOL(maxAbs(Vec3(IA.com() - X.pointToA(c))), "com() after transformToA");
      EXPECT_NEAR_TOL(maxAbs(Mat3(IA.inertiaAboutCom() - X.E.transpose() * Ic * X.E)),
                      "inertiaAboutCom() after transformToA");
    }
    // massless: com() and inertiaAboutCom() are defined (zero / Ibar)
    const Inertia Z(0.0, Vec3::Zero(), Mat3::Identity());
    QCOMPARE(Z.com(), Vec3::Zero().eval());
    QCOMPARE(Z.inertiaAboutCom(), Mat3::Identity().eval());
  }

  void congruenceOfSymmetricMatrix() {
    Rand R(7);
    for (int t = 0; t < kTrials; ++t) {
      Mat6 A;
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) A(i, j) = R.u();
      A = (A + A.transpose()).eval();
      const Transform X = R.transform();
      const Mat6 D = denseX(X);
      const Mat6 out = dyn::congruenceToA(X, A);
      EXPECT_NEAR_TOL(maxAbs(Mat6(out - D.transpose() * A * D)), "congruenceToA");
      EXPECT_NEAR_TOL(maxAbs(Mat6(out - out.transpose())), "congruenceToA symmetric");
      // on a rigid-body inertia it agrees with Inertia::transformToA
      const Inertia I = R.inertia();
      EXPECT_NEAR_TOL(maxAbs(Mat6(dyn::congruenceToA(X, denseI(I)) - denseI(I.transformToA(X)))),
                      "congruenceToA = transformToA");
      // ABA's revolute case: row and column 2 zero, added in place to what is there
      Mat6 Z = A;
      Z.row(2).setZero();
      Z.col(2).setZero();
      Mat6 acc = A;
      const double k = 0.5 + R.u() * R.u();
      dyn::addCongruenceToAFreeZ(X, Z, k, acc);
      EXPECT_NEAR_TOL(maxAbs(Mat6(acc - A - k * D.transpose() * Z * D)), "addCongruenceToAFreeZ");
      // and Inertia::addTransformedToA adds transformToA in place
      Inertia acc2 = R.inertia();
      const Inertia before = acc2;
      I.addTransformedToA(X, acc2);
      EXPECT_NEAR_TOL(maxAbs(Mat6(denseI(acc2) - denseI(before) - denseI(I.transformToA(X)))), "addTransformedToA");
    }
  }

  void crossProducts() {
    Rand R(8);
    for (int t = 0; t < kTrials; ++t) {
      const Motion v = R.motion(), m = R.motion();
      const Force f = R.force();
      EXPECT_NEAR_TOL(maxAbs(Vec6(v.cross(m).toVector() - denseCrm(v.toVector()) * m.toVector())), "v x m");
      EXPECT_NEAR_TOL(maxAbs(Vec6(v.crossForce(f).toVector() - denseCrf(v.toVector()) * f.toVector())), "v x* f");
      // v x v = 0; power of a cross product: (v x m).f = -m.(v x* f)
      EXPECT_NEAR_TOL(maxAbs(v.cross(v).toVector()), "v x v");
      EXPECT_NEAR_TOL(std::abs(v.cross(m).dot(f) + m.dot(v.crossForce(f))), "(v x m).f = -m.(v x* f)");
      // crm transforms as X crm(v) X^-1 = crm(X v)
      const Transform X = R.transform();
      const Mat6 D = denseX(X);
      EXPECT_NEAR_TOL(maxAbs(Mat6(D * denseCrm(v.toVector()) * D.inverse() - denseCrm(X.apply(v).toVector()))),
                      "X crm(v) X^-1 = crm(X v)");
      // dot products
      EXPECT_NEAR_TOL(std::abs(m.dot(f) - m.toVector().dot(f.toVector())), "m.f");
      EXPECT_NEAR_TOL(std::abs(f.dot(m) - m.toVector().dot(f.toVector())), "f.m");
    }
  }

  void powerInvariance() {
    Rand R(9);
    for (int t = 0; t < kTrials; ++t) {
      const Transform X = R.transform();
      const Motion m = R.motion();
      const Force f = R.force();
      EXPECT_NEAR_TOL(std::abs(X.apply(m).dot(X.apply(f)) - m.dot(f)), "(X m).(X* f) = m.f");
      // the transpose carries a force back so that power is preserved the other way too
      const Motion mB = R.motion();
      EXPECT_NEAR_TOL(std::abs(X.applyInverse(mB).dot(X.applyTranspose(f)) - mB.dot(f)), "(X^-1 m).(X^T f) = m.f");
    }
  }

  // XtoV: for X carrying A onto B displaced by the small motion eps*[u; p] the result is that
  // displacement up to O(eps^2), and it is invariant: X v = v.
  void xtoV() {
    Rand R(10);
    for (int t = 0; t < kTrials; ++t) {
      const Vec3 u = R.unit(), p = R.v3();
      double prevErr = -1;
      for (double eps : {1e-2, 1e-3, 1e-4, 1e-5}) {
        // B's pose in A: rotated by eps about u, origin at eps*p (a screw displacement to first order)
        const Transform X = Transform::fromPose(Eigen::AngleAxisd(eps, u).toRotationMatrix(), eps * p);
        const Motion v = dyn::XtoV(X);
        Vec6 want;
        want << eps * u, eps * p;
        const double err = maxAbs(Vec6(v.toVector() - want));
        if (!(err <= 2.0 * eps * eps))
          QFAIL(qPrintable(QString("XtoV not first-order accurate: eps %1 error %2").arg(eps).arg(err)));
        if (prevErr > 1e-12) {  // second order: the error falls ~100x per decade of eps
          const double ratio = prevErr / err;
          if (!(ratio > 50 && ratio < 200))
            QFAIL(qPrintable(QString("XtoV error ratio %1 at eps %2").arg(ratio).arg(eps)));
        }
        prevErr = err;
      }
      // invariance X v = v for small and large transforms
      for (const Transform& X :
           {Transform::fromPose(Eigen::AngleAxisd(1e-3, u).toRotationMatrix(), 1e-3 * p), R.transform()}) {
        const Motion v = dyn::XtoV(X);
        EXPECT_NEAR_TOL(maxAbs(Vec6(X.apply(v).toVector() - v.toVector())), "XtoV invariance X v = v");
      }
    }
  }

  void elementaryRotations() {
    Rand R(11);
    for (int t = 0; t < kTrials; ++t) {
      const double a = M_PI * R.u();
      // coordinate rotations = transposes of vector rotations
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rotx(a) - Rx(a).transpose())), "rotx");
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::roty(a) - Ry(a).transpose())), "roty");
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rotz(a) - Rz(a).transpose())), "rotz");
      Mat3 ex;
      ex << 1, 0, 0, 0, std::cos(a), std::sin(a), 0, -std::sin(a), std::cos(a);  // Featherstone's rx(a)
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rotx(a) - ex)), "rotx = Table 1 rx");
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rotAxis(Vec3(Vec3::UnitX()), a) - dyn::rotx(a))), "rotAxis(x) = rotx");
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rotAxis(Vec3(Vec3::UnitY()), a) - dyn::roty(a))), "rotAxis(y) = roty");
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rotAxis(Vec3(Vec3::UnitZ()), a) - dyn::rotz(a))), "rotAxis(z) = rotz");
      const Vec3 u = R.unit();
      const Mat3 E = dyn::rotAxis(u, a);
      // Rodrigues (vector rotation) written here: 1 + sin a [u]x + (1 - cos a) [u]x^2
      const Mat3 rod = Mat3::Identity() + std::sin(a) * cx(u) + (1 - std::cos(a)) * cx(u) * cx(u);
      EXPECT_NEAR_TOL(maxAbs(Mat3(E - rod.transpose())), "rotAxis = Rodrigues^T");
      EXPECT_NEAR_TOL(maxAbs(Mat3(E * E.transpose() - Mat3::Identity())), "rotAxis orthonormal");
      EXPECT_NEAR_TOL(std::abs(E.determinant() - 1), "rotAxis det");
      EXPECT_NEAR_TOL(maxAbs(Vec3(E * u - u)), "rotAxis fixes its axis");
      EXPECT_NEAR_TOL(maxAbs(dyn::skew(u) - cx(u)), "skew");
    }
  }

  void rpy() {
    Rand R(12);
    for (int t = 0; t < kTrials; ++t) {
      const double roll = M_PI * R.u(), pitch = 0.5 * M_PI * R.u() * 0.999, yaw = M_PI * R.u();
      const Mat3 M = dyn::rpyToMatrix(roll, pitch, yaw);
      EXPECT_NEAR_TOL(maxAbs(Mat3(M - Rz(yaw) * Ry(pitch) * Rx(roll))), "rpyToMatrix = Rz Ry Rx");
      EXPECT_NEAR_TOL(maxAbs(Mat3(M - (dyn::rotx(roll) * dyn::roty(pitch) * dyn::rotz(yaw)).transpose())),
                      "rpyToMatrix = (rx ry rz)^T of coordinate rotations");
      const Vec3 back = dyn::matrixToRpy(M);
      EXPECT_NEAR_TOL(maxAbs(Vec3(back - Vec3(roll, pitch, yaw))), "rpy round trip");
      // matrix round trip for an arbitrary rotation
      const Mat3 Q = R.rotation();
      const Vec3 e = dyn::matrixToRpy(Q);
      EXPECT_NEAR_TOL(maxAbs(Mat3(dyn::rpyToMatrix(e.x(), e.y(), e.z()) - Q)), "matrixToRpy -> rpyToMatrix");
      QVERIFY(std::abs(e.y()) <= M_PI / 2 && std::abs(e.x()) <= M_PI && std::abs(e.z()) <= M_PI);
    }
  }
};

QTEST_APPLESS_MAIN(TestSpatial)
#include "test_spatial.moc"
