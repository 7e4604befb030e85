// Dynamics of small robots against references derived independently in this file: a
// pendulum, the classic two-link planar arm, an n-link planar arm by Lagrange's equations
// (written with sin/cos, no spatial algebra), and gravity as a fictitious base acceleration.
#include <QtTest>
#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dynscope/dynscope.hpp"
#include "check_close.hpp"
#include "random_tree.hpp"

using dyn::Data;
using dyn::Model;
using dyn::RobotDescription;
using Eigen::MatrixXd;
using Eigen::Vector2d;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

constexpr double kG = 9.81;


dyn::LinkDesc link(const std::string& name) {
  dyn::LinkDesc l;
  l.name = name;
  return l;
}
dyn::JointDesc joint(const std::string& name, dyn::JointKind kind, const std::string& parent,
                     const std::string& child, const Vector3d& xyz, const Vector3d& axis) {
  dyn::JointDesc j;
  j.name = name;
  j.kind = kind;
  j.parent = parent;
  j.child = child;
  j.origin.xyz = xyz;
  j.axis = axis;
  return j;
}
dyn::InertialDesc inertial(double m, const Vector3d& com, double ixx, double iyy, double izz,
                           const Vector3d& rpy = Vector3d::Zero()) {
  dyn::InertialDesc in;
  in.mass = m;
  in.origin.xyz = com;
  in.origin.rpy = rpy;
  in.ixx = ixx;
  in.iyy = iyy;
  in.izz = izz;
  return in;
}

// ---------------------------------------------------------------------------------------------
// The pendulum. A body hangs from a hinge about the world y axis; its COM sits at distance c
// below the hinge at q = 0 (link coordinates (0, 0, -c)), with moment of inertia Ic about the
// COM for rotation about y. Gravity is (0, 0, -g).
//   Turning by q about +y (vectors: Ry(q) (x, 0, z) = (x cos q + z sin q, 0, -x sin q + z cos q))
//   carries the COM to p(q) = (-c sin q, 0, -c cos q).
//   T = 1/2 (m c^2 + Ic) qd^2,  V = m g p_z = -m g c cos q.
//   Lagrange: d/dt dT/dqd - dT/dq + dV/dq = tau  =>  tau = (m c^2 + Ic) qdd + m g c sin q.
//   Sign check against gravity: at q = pi/2 the COM is at x = -c; the weight (0,0,-mg) there has
//   moment p x F = (-c,0,0) x (0,0,-mg) = (0, -m g c, 0) about the hinge, i.e. it pulls q back
//   towards 0, so the holding torque is +m g c: matches m g c sin(pi/2).
// A point mass on a massless rod of length l: c = l, Ic = 0 (M = m l^2). A uniform rod of length
// l: c = l/2, Ic = m l^2 / 12 (M = m l^2/4 + m l^2/12 = m l^2/3).
RobotDescription pendulumRobot(double m, double c, double Ic) {
  RobotDescription r;
  r.name = r.sourceFile = "pendulum";
  r.gravity = Vector3d(0, 0, -kG);
  r.links.push_back(link("base"));
  dyn::LinkDesc rod = link("rod");
  rod.inertial = inertial(m, Vector3d(0, 0, -c), Ic, Ic, 0);  // slender along z: Ixx = Iyy = Ic, Izz = 0
  r.links.push_back(rod);
  r.joints.push_back(joint("hinge", dyn::JointKind::Continuous, "base", "rod", Vector3d::Zero(), Vector3d::UnitY()));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Planar arm of n revolute joints, all axes along world z, moving in the x-y plane, gravity
// (0, -g, 0). Joint 1 at the origin; link k has length a_k along its x axis, its COM at lc_k on
// that axis, mass m_k and moment of inertia I_k about the COM for rotation about z.
struct PlanarArm {
  std::vector<double> a, lc, m, I;
  double g = kG;
  int n() const { return int(a.size()); }

  // Absolute link angles phi_k = q_1 + ... + q_k.
  std::vector<double> phi(const VectorXd& q) const {
    std::vector<double> p(n());
    double s = 0;
    for (int k = 0; k < n(); ++k) p[k] = (s += q[k]);
    return p;
  }
  // p_k = sum_{i<k} a_i (cos phi_i, sin phi_i) + lc_k (cos phi_k, sin phi_k).
  Vector2d com(const VectorXd& q, int k) const {
    const auto f = phi(q);
    Vector2d p(0, 0);
    for (int i = 0; i < k; ++i) p += a[i] * Vector2d(std::cos(f[i]), std::sin(f[i]));
    return p + lc[k] * Vector2d(std::cos(f[k]), std::sin(f[k]));
  }
  // J_vk = dp_k/dq: phi_i depends on q_j iff j <= i, so for j <= k
  //   column j = sum_{i=j}^{k-1} a_i (-sin phi_i, cos phi_i) + lc_k (-sin phi_k, cos phi_k); zero for j > k.
  Eigen::Matrix<double, 2, Eigen::Dynamic> Jv(const VectorXd& q, int k) const {
    const auto f = phi(q);
    Eigen::Matrix<double, 2, Eigen::Dynamic> J = Eigen::Matrix<double, 2, Eigen::Dynamic>::Zero(2, n());
    for (int j = 0; j <= k; ++j) {
      for (int i = j; i < k; ++i) J.col(j) += a[i] * Vector2d(-std::sin(f[i]), std::cos(f[i]));
      J.col(j) += lc[k] * Vector2d(-std::sin(f[k]), std::cos(f[k]));
    }
    return J;
  }
  // dJ_vk/dq_l: d/dq_l (-sin phi_i, cos phi_i) = -(cos phi_i, sin phi_i) when l <= i, else 0.
  Eigen::Matrix<double, 2, Eigen::Dynamic> dJv(const VectorXd& q, int k, int l) const {
    const auto f = phi(q);
    Eigen::Matrix<double, 2, Eigen::Dynamic> J = Eigen::Matrix<double, 2, Eigen::Dynamic>::Zero(2, n());
    for (int j = 0; j <= k; ++j) {
      for (int i = std::max(j, l); i < k; ++i) J.col(j) -= a[i] * Vector2d(std::cos(f[i]), std::sin(f[i]));
      if (l <= k) J.col(j) -= lc[k] * Vector2d(std::cos(f[k]), std::sin(f[k]));
    }
    return J;
  }
  // J_wk: omega_k = qd_1 + ... + qd_k (about z), so J_wk = [1 ... 1 0 ... 0] (k+1 ones), constant.
  VectorXd Jw(int k) const {
    VectorXd J = VectorXd::Zero(n());
    J.head(k + 1).setOnes();
    return J;
  }
  // T = 1/2 qd^T M qd with M = sum_k m_k J_vk^T J_vk + I_k J_wk J_wk^T.
  MatrixXd M(const VectorXd& q) const {
    MatrixXd H = MatrixXd::Zero(n(), n());
    for (int k = 0; k < n(); ++k) {
      const auto J = Jv(q, k);
      H += m[k] * J.transpose() * J + I[k] * Jw(k) * Jw(k).transpose();
    }
    return H;
  }
  // dM/dq_l = sum_k m_k (dJ^T J + J^T dJ) (J_wk is constant).
  MatrixXd dM(const VectorXd& q, int l) const {
    MatrixXd D = MatrixXd::Zero(n(), n());
    for (int k = 0; k < n(); ++k) {
      const auto J = Jv(q, k), dJ = dJv(q, k, l);
      D += m[k] * (dJ.transpose() * J + J.transpose() * dJ);
    }
    return D;
  }
  // The same derivative by central differences (cross-check of dM; h = 1e-6).
  MatrixXd dMnumeric(const VectorXd& q, int l, double h = 1e-6) const {
    VectorXd qp = q, qm = q;
    qp[l] += h;
    qm[l] -= h;
    return (M(qp) - M(qm)) / (2 * h);
  }
  // Lagrange: M qdd + C(q, qd) qd + g(q) = tau with, by Christoffel symbols of the first kind,
  //   (C qd)_k = sum_{i,j} c_ijk qd_i qd_j,  c_ijk = 1/2 (dM_kj/dq_i + dM_ki/dq_j - dM_ij/dq_k).
  VectorXd Cqd(const VectorXd& q, const VectorXd& qd, bool numeric = false) const {
    std::vector<MatrixXd> D(n());
    for (int l = 0; l < n(); ++l) D[l] = numeric ? dMnumeric(q, l) : dM(q, l);
    VectorXd c = VectorXd::Zero(n());
    for (int k = 0; k < n(); ++k)
      for (int i = 0; i < n(); ++i)
        for (int j = 0; j < n(); ++j) c[k] += 0.5 * (D[i](k, j) + D[j](k, i) - D[k](i, j)) * qd[i] * qd[j];
    return c;
  }
  // V = sum_k m_k g p_k.y  =>  g(q) = dV/dq = sum_k m_k g J_vk^T (0, 1).
  VectorXd gravity(const VectorXd& q) const {
    VectorXd gv = VectorXd::Zero(n());
    for (int k = 0; k < n(); ++k) gv += m[k] * g * Jv(q, k).transpose() * Vector2d(0, 1);
    return gv;
  }
  // The same arm as a RobotDescription: link k's frame on joint k, x along the link; the
  // inertial at (lc_k, 0, 0) with Izz = I_k (Ixx, Iyy chosen physical but irrelevant in the plane).
  RobotDescription description() const {
    RobotDescription r;
    r.name = r.sourceFile = "planar" + std::to_string(n());
    r.gravity = Vector3d(0, -g, 0);
    r.links.push_back(link("base"));
    for (int k = 0; k < n(); ++k) {
      dyn::LinkDesc l = link("link" + std::to_string(k + 1));
      // Ixx, Iyy about axes turned about z by 0.7 rad: Izz is unchanged by that rotation.
      l.inertial = inertial(m[k], Vector3d(lc[k], 0, 0), 0.25 * I[k], 0.9 * I[k], I[k], Vector3d(0, 0, 0.7));
      r.links.push_back(l);
      r.joints.push_back(joint("j" + std::to_string(k + 1), dyn::JointKind::Continuous,
                               k == 0 ? "base" : "link" + std::to_string(k), "link" + std::to_string(k + 1),
                               Vector3d(k == 0 ? 0.0 : a[k - 1], 0, 0), Vector3d::UnitZ()));
    }
    return r;
  }
};

VectorXd randomVector(std::mt19937& rng, int n, double range) {
  std::uniform_real_distribution<double> U(-range, range);
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = U(rng);
  return v;
}

// World COM of body i (after forwardKinematics).
Vector3d bodyCom(const Model& model, const Data& d, int i) { return d.X0[i].pointToA(model.I[i].com()); }

}  // namespace

class TestReferenceDynamics : public QObject {
  Q_OBJECT

 private slots:
  void pendulum_data();
  void pendulum();
  void twoLinkArm();
  void planar3File();
  void planarArmGeneric();
  void gravityAsBaseAcceleration();
  void gravityAsExternalForces();
  void gravityLinearity();
};

void TestReferenceDynamics::pendulum_data() {
  QTest::addColumn<double>("m");
  QTest::addColumn<double>("c");
  QTest::addColumn<double>("Ic");
  const double l = 0.8;
  QTest::newRow("point mass on massless rod") << 2.0 << l << 0.0;
  QTest::newRow("uniform rod") << 1.5 << l / 2 << 1.5 * l * l / 12;
  QTest::newRow("heavy short rod") << 7.0 << 0.05 << 0.02;
}

void TestReferenceDynamics::pendulum() {
  QFETCH(double, m);
  QFETCH(double, c);
  QFETCH(double, Ic);
  const Model model = dyn::buildModel(pendulumRobot(m, c, Ic));
  QCOMPARE(model.nv, 1);
  QCOMPARE(model.nq, 1);
  Data d(model);
  const double Mref = m * c * c + Ic;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1, 1);
  const std::vector<double> qs = {0.0, M_PI / 2, -M_PI / 2, 1.0, -2.5, M_PI, 3.0};
  for (double qv : qs) {
    VectorXd q(1), qd(1), qdd(1), tau(1);
    q << qv;
    qd << 3 * U(rng);
    qdd << 3 * U(rng);
    tau << 20 * U(rng);
    const double grav = m * kG * c * std::sin(qv);
    const double scale = Mref * std::abs(qdd[0]) + m * kG * c + 1e-12;

    // Geometry of the derivation: the COM at (-c sin q, 0, -c cos q).
    dyn::forwardKinematics(model, d, q);
    if (m > 0) CHECK_CLOSE(bodyCom(model, d, 1), Vector3d(-c * std::sin(qv), 0, -c * std::cos(qv)), 1e-14, 1.0, "COM");

    VectorXd tauRef(1);
    tauRef << Mref * qdd[0] + grav;
    CHECK_CLOSE(dyn::rnea(model, d, q, qd, qdd), tauRef, 1e-13, scale, "rnea");
    VectorXd Mr(1);
    Mr << Mref;
    CHECK_CLOSE(dyn::crba(model, d, q), MatrixXd(Mr), 1e-14, Mref, "crba");
    VectorXd g(1);
    g << grav;
    CHECK_CLOSE(dyn::nonLinearEffects(model, d, q, qd), g, 1e-13, scale, "nonLinearEffects (no Coriolis in 1 dof)");
    CHECK_CLOSE(dyn::gravityVector(model, d, q), g, 1e-13, scale, "gravityVector");
    VectorXd qddRef(1);
    qddRef << (tau[0] - grav) / Mref;
    const double aScale = std::abs(qddRef[0]) + 1.0;
    CHECK_CLOSE(dyn::aba(model, d, q, qd, tau), qddRef, 1e-12, aScale, "aba");
    CHECK_CLOSE(dyn::forwardDynamicsCrba(model, d, q, qd, tau), qddRef, 1e-12, aScale, "forwardDynamicsCrba");
    // Energies: T = 1/2 M qd^2, V = -m g c cos q (hinge at height 0).
    dyn::computeEnergy(model, d, q, qd);
    QVERIFY(std::abs(d.kinetic - 0.5 * Mref * qd[0] * qd[0]) <= 1e-13 * (1 + Mref * qd[0] * qd[0]));
    QVERIFY(std::abs(d.potential + m * kG * c * std::cos(qv)) <= 1e-13 * (1 + m * kG * c));
  }
  // Sign against gravity: at q = pi/2 the weight pulls back, so holding needs tau > 0.
  if (m > 0 && c > 0) {
    VectorXd q(1);
    q << 0.5;
    QVERIFY(dyn::gravityVector(model, d, q)[0] > 0);
  }
}

// The classic two-link planar arm (e.g. Spong, Hutchinson & Vidyasagar, Sec. 7.4), angles from
// the x axis, gravity along -y:
//   M11 = m1 lc1^2 + m2 (l1^2 + lc2^2 + 2 l1 lc2 cos q2) + I1 + I2
//   M12 = M21 = m2 (lc2^2 + l1 lc2 cos q2) + I2,   M22 = m2 lc2^2 + I2
//   with h = -m2 l1 lc2 sin q2:  C qd = (h (2 qd1 qd2 + qd2^2), -h qd1^2)
//   g1 = (m1 lc1 + m2 l1) g cos q1 + m2 lc2 g cos(q1 + q2),   g2 = m2 lc2 g cos(q1 + q2).
void TestReferenceDynamics::twoLinkArm() {
  const double l1 = 0.7, lc1 = 0.32, lc2 = 0.41, m1 = 3.1, m2 = 1.7, I1 = 0.13, I2 = 0.061;
  PlanarArm arm{{l1, 0.9}, {lc1, lc2}, {m1, m2}, {I1, I2}};
  const Model model = dyn::buildModel(arm.description());
  QCOMPARE(model.nv, 2);
  Data d(model);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    const VectorXd q = randomVector(rng, 2, M_PI), qd = randomVector(rng, 2, 2.0), qdd = randomVector(rng, 2, 2.0),
                   tau = randomVector(rng, 2, 10.0);
    const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
    MatrixXd M(2, 2);  // dynamic sizes throughout (GCC 12 warns spuriously on mixed fixed/dynamic AVX code)
    M(0, 0) = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + I1 + I2;
    M(0, 1) = M(1, 0) = m2 * (lc2 * lc2 + l1 * lc2 * c2) + I2;
    M(1, 1) = m2 * lc2 * lc2 + I2;
    const double h = -m2 * l1 * lc2 * s2;
    VectorXd C(2), g(2);
    C << h * (2 * qd[0] * qd[1] + qd[1] * qd[1]), -h * qd[0] * qd[0];
    g << (m1 * lc1 + m2 * l1) * kG * std::cos(q[0]) + m2 * lc2 * kG * std::cos(q[0] + q[1]),
        m2 * lc2 * kG * std::cos(q[0] + q[1]);
    const double scale = M.norm() * (1 + qdd.norm() + qd.squaredNorm()) + g.norm();

    CHECK_CLOSE(dyn::crba(model, d, q), MatrixXd(M), 1e-13, M.norm(), "crba");
    CHECK_CLOSE(dyn::rnea(model, d, q, qd, qdd), VectorXd(M * qdd + C + g), 1e-13, scale, "rnea");
    CHECK_CLOSE(dyn::nonLinearEffects(model, d, q, qd), VectorXd(C + g), 1e-13, scale, "nonLinearEffects");
    CHECK_CLOSE(dyn::gravityVector(model, d, q), VectorXd(g), 1e-13, scale, "gravityVector");
    const VectorXd qddRef = M.ldlt().solve(tau - C - g);
    CHECK_CLOSE(dyn::aba(model, d, q, qd, tau), VectorXd(qddRef), 1e-11, 1 + qddRef.norm(), "aba");
    CHECK_CLOSE(dyn::forwardDynamicsCrba(model, d, q, qd, tau), VectorXd(qddRef), 1e-11, 1 + qddRef.norm(),
                "forwardDynamicsCrba");
    // The generic Lagrange arm agrees with the textbook closed form (checks the reference itself).
    CHECK_CLOSE(arm.M(q), MatrixXd(M), 1e-14, M.norm(), "PlanarArm::M vs closed form");
    CHECK_CLOSE(arm.Cqd(q, qd), VectorXd(C), 1e-13, scale, "PlanarArm::Cqd vs closed form");
    CHECK_CLOSE(arm.gravity(q), VectorXd(g), 1e-13, scale, "PlanarArm::gravity vs closed form");
  }
}

// Compares an engine model of a planar arm with the Lagrange reference at random states.
static void checkPlanarArm(const Model& model, const PlanarArm& arm, unsigned seed) {
  Data d(model);
  std::mt19937 rng(seed);
  const int n = arm.n();
  for (int trial = 0; trial < 8; ++trial) {
    const VectorXd q = randomVector(rng, n, M_PI), qd = randomVector(rng, n, 2.0), qdd = randomVector(rng, n, 2.0),
                   tau = randomVector(rng, n, 5.0);
    // The geometry of the reference: each body's world COM is (p_k, 0).
    dyn::forwardKinematics(model, d, q);
    for (int k = 0; k < n; ++k) {
      const Vector2d p = arm.com(q, k);
      CHECK_CLOSE(bodyCom(model, d, k + 1), Vector3d(p.x(), p.y(), 0), 1e-12, 1.0, "COM position");
    }
    const MatrixXd M = arm.M(q);
    const VectorXd C = arm.Cqd(q, qd), g = arm.gravity(q);
    // Reference self-check: analytic dM/dq against central differences (h = 1e-6).
    CHECK_CLOSE(arm.Cqd(q, qd, true), C, 1e-6, 1 + C.norm(), "Christoffel terms: analytic vs numeric dM/dq");
    const double scale = M.norm() * (1 + qdd.norm() + qd.squaredNorm()) + g.norm();
    CHECK_CLOSE(dyn::crba(model, d, q), M, 1e-13, M.norm(), "crba");
    CHECK_CLOSE(dyn::rnea(model, d, q, qd, qdd), VectorXd(M * qdd + C + g), 1e-13, scale, "rnea");
    CHECK_CLOSE(dyn::nonLinearEffects(model, d, q, qd), VectorXd(C + g), 1e-13, scale, "nonLinearEffects");
    CHECK_CLOSE(dyn::gravityVector(model, d, q), g, 1e-13, scale, "gravityVector");
    const VectorXd qddRef = M.llt().solve(tau - C - g);
    CHECK_CLOSE(dyn::aba(model, d, q, qd, tau), qddRef, 1e-10, 1 + qddRef.norm(), "aba");
    CHECK_CLOSE(dyn::forwardDynamicsCrba(model, d, q, qd, tau), qddRef, 1e-10, 1 + qddRef.norm(),
                "forwardDynamicsCrba");
    // Energy: T = 1/2 qd^T M qd, V = sum m_k g p_k.y.
    dyn::computeEnergy(model, d, q, qd);
    double V = 0;
    for (int k = 0; k < n; ++k) V += arm.m[k] * arm.g * arm.com(q, k).y();
    QVERIFY(std::abs(d.kinetic - 0.5 * qd.dot(M * qd)) <= 1e-13 * scale);
    QVERIFY(std::abs(d.potential - V) <= 1e-13 * scale);
  }
}

// robots/planar3.dh: uniform slender rods a = 0.3, 0.25, 0.1 m, m = 0.5, 0.4, 0.2 kg, COM mid-link,
// Izz = m a^2 / 12, gravity (0, -9.81, 0) (the values the file states). The file writes the
// moments rounded (0.0020833333333 differs from 0.4 * 0.25^2 / 12 by 3e-14), so the reference
// takes them as written and checks them against m a^2 / 12 to 1e-12.
void TestReferenceDynamics::planar3File() {
  const std::vector<double> a = {0.3, 0.25, 0.1}, m = {0.5, 0.4, 0.2};
  PlanarArm arm{a, {a[0] / 2, a[1] / 2, a[2] / 2}, m, {0.00375, 0.0020833333333, 0.00016666666667}};
  for (int k = 0; k < 3; ++k) QVERIFY(std::abs(arm.I[k] - m[k] * a[k] * a[k] / 12) < 1e-12);
  const Model model = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/planar3.dh");
  QCOMPARE(model.nv, 3);
  QCOMPARE(model.nq, 3);
  QCOMPARE(model.N, 3);
  CHECK_CLOSE(model.gravity.v, Vector3d(0, -kG, 0), 0, 1, "gravity");
  for (int k = 0; k < 3; ++k) {
    const int i = model.jointIndex("j" + std::to_string(k + 1));
    QCOMPARE(i, k + 1);
    QCOMPARE(model.joints[i].idx_v, k);
    QCOMPARE(model.parent[i], k);
    // The file's physical values, in the coordinates of link<k+1> (joint k+1's frame, x along the
    // rod; the body's own coordinates are the builder's business, so go through the frame).
    QVERIFY(std::abs(model.I[i].m - m[k]) < 1e-15);
    const int f = model.frameIndex("link" + std::to_string(k + 1));
    QVERIFY(f >= 0);
    QCOMPARE(model.frames[f].body, i);
    const dyn::Transform<double>& X = model.frames[f].placement;  // link_X_body
    CHECK_CLOSE(X.pointToB(model.I[i].com()), Vector3d(a[k] / 2, 0, 0), 1e-15, 1, "COM in link coordinates");
    const Eigen::Matrix3d Ic = X.E * model.I[i].inertiaAboutCom() * X.E.transpose();
    QVERIFY(std::abs(Ic(2, 2) - arm.I[k]) < 1e-15);
  }
  checkPlanarArm(model, arm, 3);
}

// The same derivation on arms built in code: COM off the middle, 2..5 links.
void TestReferenceDynamics::planarArmGeneric() {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(0.1, 1.0);
  for (int n = 2; n <= 5; ++n) {
    PlanarArm arm;
    for (int k = 0; k < n; ++k) {
      arm.a.push_back(U(rng));
      arm.lc.push_back(arm.a.back() * U(rng));
      arm.m.push_back(3 * U(rng));
      arm.I.push_back(0.1 * U(rng));
    }
    checkPlanarArm(dyn::buildModel(arm.description()), arm, 100 + n);
  }
}

// Gravity enters the RNEA as the fictitious base acceleration a_0 = -a_g. Physically (Einstein's
// elevator): a robot in gravity g on a fixed base has the same joint forces as the robot without
// gravity on a base accelerating at -g. The test mounts a random tree on three prismatic
// carriages along the world x, y, z axes (no rotation, so their acceleration is exactly
// qdd_xyz in world coordinates) and compares:
//   gravity g,  carriage qdd = 0    with    gravity 0,  carriage qdd = -g
// for every joint force, carriages included.
void TestReferenceDynamics::gravityAsBaseAcceleration() {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    RobotDescription r = dyn::testing::randomTree(seed, 2 + int(seed));
    std::string root;
    for (const auto& l : r.links) {
      bool isChild = false;
      for (const auto& j : r.joints) isChild |= j.child == l.name;
      if (!isChild) root = l.name;
    }
    r.links.push_back(link("world"));
    r.links.push_back(link("carriage_x"));
    r.links.push_back(link("carriage_y"));
    r.joints.push_back(joint("slide_x", dyn::JointKind::Prismatic, "world", "carriage_x", Vector3d::Zero(),
                             Vector3d::UnitX()));
    r.joints.push_back(joint("slide_y", dyn::JointKind::Prismatic, "carriage_x", "carriage_y", Vector3d::Zero(),
                             Vector3d::UnitY()));
    r.joints.push_back(joint("slide_z", dyn::JointKind::Prismatic, "carriage_y", root, Vector3d::Zero(),
                             Vector3d::UnitZ()));
    std::mt19937 rng(seed);
    const Vector3d g = randomVector(rng, 3, 10.0);
    Model withG = dyn::buildModel(r);
    withG.gravity = dyn::Motion<double>(Vector3d::Zero(), g);
    Model noG = withG;
    noG.gravity = dyn::Motion<double>::Zero();
    const int sx = withG.joints[withG.jointIndex("slide_x")].idx_v, sy = withG.joints[withG.jointIndex("slide_y")].idx_v,
              sz = withG.joints[withG.jointIndex("slide_z")].idx_v;
    Data d1(withG), d2(noG);
    for (int trial = 0; trial < 4; ++trial) {
      const VectorXd q = dyn::randomConfiguration(withG, rng), qd = randomVector(rng, withG.nv, 1.0);
      VectorXd qdd = randomVector(rng, withG.nv, 1.0);
      qdd[sx] = qdd[sy] = qdd[sz] = 0;
      const VectorXd tau1 = dyn::rnea(withG, d1, q, qd, qdd);
      qdd[sx] = -g.x();
      qdd[sy] = -g.y();
      qdd[sz] = -g.z();
      const VectorXd tau2 = dyn::rnea(noG, d2, q, qd, qdd);
      CHECK_CLOSE(tau1, tau2, 1e-12, 1 + tau1.norm(), "gravity vs accelerating base");
    }
  }
}

// Equivalently, gravity is the weight m_i g acting at each body's centre of mass: the wrench
// [c_i x m_i g; m_i g] about the world origin, carried into link coordinates. RNEA and ABA with
// gravity equal RNEA and ABA without gravity but with these external forces.
void TestReferenceDynamics::gravityAsExternalForces() {
  std::vector<Model> models = {dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/puma560.dh"),
                               dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/planar3.dh")};
  for (unsigned seed = 20; seed < 26; ++seed) models.push_back(dyn::buildModel(dyn::testing::randomTree(seed, 6)));
  std::mt19937 rng(2);
  for (const Model& withG : models) {
    Model noG = withG;
    noG.gravity = dyn::Motion<double>::Zero();
    Data d1(withG), d2(noG);
    const Vector3d g = withG.gravity.v;
    for (int trial = 0; trial < 3; ++trial) {
      const VectorXd q = dyn::randomConfiguration(withG, rng), qd = randomVector(rng, withG.nv, 1.0),
                     qdd = randomVector(rng, withG.nv, 1.0), tau = randomVector(rng, withG.nv, 1.0);
      dyn::forwardKinematics(withG, d1, q);
      std::vector<dyn::Force<double>> weight(withG.N + 1);
      for (int i = 1; i <= withG.N; ++i) {
        const Vector3d c = bodyCom(withG, d1, i), F = withG.I[i].m * g;
        weight[i] = d1.X0[i].apply(dyn::Force<double>(c.cross(F), F));  // i_X_0^* f (world -> link i)
      }
      const VectorXd tau1 = dyn::rnea(withG, d1, q, qd, qdd);
      const VectorXd tau2 = dyn::rnea(noG, d2, q, qd, qdd, &weight);
      CHECK_CLOSE(tau2, tau1, 1e-12, 1 + tau1.norm(), (withG.name + ": rnea, gravity as weights").c_str());
      const VectorXd a1 = dyn::aba(withG, d1, q, qd, tau);
      const VectorXd a2 = dyn::aba(noG, d2, q, qd, tau, &weight);
      CHECK_CLOSE(a2, a1, 1e-10, 1 + a1.norm(), (withG.name + ": aba, gravity as weights").c_str());
    }
  }
}

// g(q) is linear in the gravity vector: zero without gravity, doubled with doubled gravity, and
// the sum of the contributions of the three components.
void TestReferenceDynamics::gravityLinearity() {
  const Model base = dyn::loadModel(DYNSCOPE_ROBOTS_DIR "/puma560.dh");
  std::mt19937 rng(4);
  Model m0 = base, mx = base, my = base, mz = base, mg = base;
  const Vector3d g(1.5, -2.0, -9.0);
  m0.gravity = dyn::Motion<double>::Zero();
  mx.gravity = dyn::Motion<double>(Vector3d::Zero(), Vector3d(g.x(), 0, 0));
  my.gravity = dyn::Motion<double>(Vector3d::Zero(), Vector3d(0, g.y(), 0));
  mz.gravity = dyn::Motion<double>(Vector3d::Zero(), Vector3d(0, 0, g.z()));
  mg.gravity = dyn::Motion<double>(Vector3d::Zero(), g);
  Data d(base);
  for (int trial = 0; trial < 5; ++trial) {
    const VectorXd q = dyn::randomConfiguration(base, rng);
    const VectorXd zero = VectorXd::Zero(base.nv);
    QCOMPARE(dyn::rnea(m0, d, q, zero, zero).cwiseAbs().maxCoeff(), 0.0);
    const VectorXd gsum = VectorXd(dyn::gravityVector(mx, d, q)) + VectorXd(dyn::gravityVector(my, d, q)) +
                          VectorXd(dyn::gravityVector(mz, d, q));
    const VectorXd gfull = dyn::gravityVector(mg, d, q);
    CHECK_CLOSE(gfull, gsum, 1e-13, 1 + gfull.norm(), "superposition of gravity components");
    Model m2 = mg;
    m2.gravity = mg.gravity * 2.0;
    CHECK_CLOSE(VectorXd(dyn::gravityVector(m2, d, q)), VectorXd(2 * gfull), 1e-13, 1 + gfull.norm(), "doubled gravity");
  }
}

QTEST_APPLESS_MAIN(TestReferenceDynamics)
#include "test_reference_dynamics.moc"
