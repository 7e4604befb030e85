// Saha's two examples (Saha 1999, section 6) through the DeNOC
// algorithms, against references derived independently here:
//  * the 3-link planar arm (Fig. 4, robots/planar3.dh): the joint torques in closed form by
//    Lagrange's equations (derived below by hand: M(th), its partial derivatives, the potential),
//    at random states and along the cycloidal trajectory of the Fig. 5 plot; and the free fall of
//    Fig. 6 ("due to gravity the first joint angle th_1 will increase initially in the negative
//    direction ... the system behaves as a triple pendulum") with the DeNOC forward dynamics;
//  * the Stanford arm (Table 3, robots/stanford_arm.dh) with the cycloids of eq. 39: the torque
//    curves of Figs. 8(a)-(f) from DeNOC, Newton-Euler and RNEA at every plotted sample, their end
//    values (at rest) against the static gravity torques of our own Denavit-Hartenberg kinematics,
//    and the free fall of Fig. 9 ("the motion of joint 3 should sharply increase once the joint 2
//    turns ..." away from its 90 degree start).
// The seed's text carries no numbers read off the figures (its plots are images), so peak values
// cannot be compared; the statements the text makes about the figures are what is checked.
#include <Eigen/Geometry>
#include <QtTest>
#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"

using dyn::Model;
using Eigen::Matrix3d;
using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

Model robot(const char* file) { return dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/" + file); }

double relErr(const MatrixXd& a, const MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  const double e = (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
  return std::isfinite(e) ? e : INFINITY;
}

#define CHECK_REL(a, b, tol, what)                                                                           \
  do {                                                                                                       \
    const double e_ = relErr((a), (b));                                                                      \
    if (!(e_ <= (tol))) QFAIL(qPrintable(QString("%1: relative error %2 > %3").arg(what).arg(e_).arg(tol))); \
  } while (false)

// ---- The planar arm in closed form (Lagrange) ----------------------------------------------------
// robots/planar3.dh: link lengths a_i, masses m_i, uniform rods (mass centre at a_i / 2, inertia
// m_i a_i^2 / 12 about it), joint axes along z, gravity -Y, th = 0 along +X.
struct PlanarArm {
  double a[3] = {0.3, 0.25, 0.1};
  double m[3] = {0.5, 0.4, 0.2};
  double lc(int i) const { return a[i] / 2; }
  double I(int i) const { return m[i] * a[i] * a[i] / 12; }

  // M(th): M_ij = sum over links k >= max(i, j) of m_k J_vk,i . J_vk,j + I_k.
  Eigen::Matrix3d M(const Vector3d& th) const {
    const double c2 = std::cos(th[1]), c3 = std::cos(th[2]), c23 = std::cos(th[1] + th[2]);
    const double a1 = a[0], a2 = a[1], l1 = lc(0), l2 = lc(1), l3 = lc(2);
    Matrix3d M;
    M(0, 0) = I(0) + I(1) + I(2) + m[0] * l1 * l1 + m[1] * (a1 * a1 + l2 * l2 + 2 * a1 * l2 * c2) +
              m[2] * (a1 * a1 + a2 * a2 + l3 * l3 + 2 * a1 * a2 * c2 + 2 * a1 * l3 * c23 + 2 * a2 * l3 * c3);
    M(0, 1) = I(1) + I(2) + m[1] * (l2 * l2 + a1 * l2 * c2) +
              m[2] * (a2 * a2 + l3 * l3 + a1 * a2 * c2 + a1 * l3 * c23 + 2 * a2 * l3 * c3);
    M(0, 2) = I(2) + m[2] * (l3 * l3 + a1 * l3 * c23 + a2 * l3 * c3);
    M(1, 1) = I(1) + I(2) + m[1] * l2 * l2 + m[2] * (a2 * a2 + l3 * l3 + 2 * a2 * l3 * c3);
    M(1, 2) = I(2) + m[2] * (l3 * l3 + a2 * l3 * c3);
    M(2, 2) = I(2) + m[2] * l3 * l3;
    M(1, 0) = M(0, 1);
    M(2, 0) = M(0, 2);
    M(2, 1) = M(1, 2);
    return M;
  }
  // dM/dth_k (M depends on th_2 and th_3 only).
  Eigen::Matrix3d dM(const Vector3d& th, int k) const {
    const double s2 = std::sin(th[1]), s3 = std::sin(th[2]), s23 = std::sin(th[1] + th[2]);
    const double a1 = a[0], a2 = a[1], l2 = lc(1), l3 = lc(2);
    Matrix3d D = Matrix3d::Zero();
    if (k == 1) {
      D(0, 0) = -2 * m[1] * a1 * l2 * s2 - m[2] * (2 * a1 * a2 * s2 + 2 * a1 * l3 * s23);
      D(0, 1) = -m[1] * a1 * l2 * s2 - m[2] * (a1 * a2 * s2 + a1 * l3 * s23);
      D(0, 2) = -m[2] * a1 * l3 * s23;
    } else if (k == 2) {
      D(0, 0) = -m[2] * (2 * a1 * l3 * s23 + 2 * a2 * l3 * s3);
      D(0, 1) = -m[2] * (a1 * l3 * s23 + 2 * a2 * l3 * s3);
      D(0, 2) = -m[2] * (a1 * l3 * s23 + a2 * l3 * s3);
      D(1, 1) = -2 * m[2] * a2 * l3 * s3;
      D(1, 2) = -m[2] * a2 * l3 * s3;
    }
    D(1, 0) = D(0, 1);
    D(2, 0) = D(0, 2);
    D(2, 1) = D(1, 2);
    return D;
  }
  // dV/dth with V = g sum m_k y_ck, y_c1 = l1 s1, y_c2 = a1 s1 + l2 s12, y_c3 = a1 s1 + a2 s12 + l3 s123.
  Vector3d gravity(const Vector3d& th) const {
    const double c1 = std::cos(th[0]), c12 = std::cos(th[0] + th[1]), c123 = std::cos(th[0] + th[1] + th[2]);
    const double g3 = kG * m[2] * lc(2) * c123;
    const double g2 = kG * (m[1] * lc(1) * c12 + m[2] * a[1] * c12) + g3;
    const double g1 = kG * (m[0] * lc(0) * c1 + (m[1] + m[2]) * a[0] * c1) + g2;
    return Vector3d(g1, g2, g3);
  }
  // Lagrange: tau = d/dt(dT/dthd) - dT/dth + dV/dth = M thdd + Mdot thd - 1/2 [thd^T dM/dth_k thd]_k + g.
  Vector3d torque(const Vector3d& th, const Vector3d& thd, const Vector3d& thdd) const {
    const Matrix3d Mdot = dM(th, 1) * thd[1] + dM(th, 2) * thd[2];
    Vector3d half;
    for (int k = 0; k < 3; ++k) half[k] = 0.5 * thd.dot(dM(th, k) * thd);
    return M(th) * thdd + Mdot * thd - half + gravity(th);
  }
};

// ---- The Stanford arm: our own standard Denavit-Hartenberg chain (Table 3) -----------------------
// a_i = 0; d = 0.2, 0.1, b_3 (prismatic), 0.6, 0, 0; alpha = -90, -90, 0, 90, -90, 0 degrees;
// masses 9, 6, 4, 1, 0.6, 0.5 kg; mass centres in link frames (robots/stanford_arm.dh, adjustment 1:
// com = -r of Table 3): (0, 0.1, 0) for links 1 and 4, the origin for the others.
struct StanfordArm {
  double d[6] = {0.2, 0.1, 0, 0.6, 0, 0};
  double alpha[6] = {-kPi / 2, -kPi / 2, 0, kPi / 2, -kPi / 2, 0};
  double mass[6] = {9, 6, 4, 1, 0.6, 0.5};
  Vector3d com[6] = {{0, 0.1, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0.1, 0}, {0, 0, 0}, {0, 0, 0}};

  // Static joint torques holding q against gravity (0, 0, -g): tau_i = -sum_k m_k g . dc_k/dq_i,
  // dc_k/dq_i = z_(i-1) x (c_k - o_(i-1)) for a revolute joint, z_(i-1) for the prismatic joint 3.
  VectorXd gravityTorques(const VectorXd& q) const {
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    Vector3d z[6], o[6], c[6];
    for (int i = 0; i < 6; ++i) {
      z[i] = T.linear().col(2);  // axis of joint i + 1
      o[i] = T.translation();
      const double theta = i == 2 ? 0 : q[i], di = i == 2 ? q[i] : d[i];
      T = T * Eigen::AngleAxisd(theta, Vector3d::UnitZ()) * Eigen::Translation3d(0, 0, di) *
          Eigen::AngleAxisd(alpha[i], Vector3d::UnitX());
      c[i] = T * com[i];
    }
    const Vector3d g(0, 0, -kG);
    VectorXd tau = VectorXd::Zero(6);
    for (int i = 0; i < 6; ++i)
      for (int k = i; k < 6; ++k) {
        const Vector3d dc = i == 2 ? z[i] : Vector3d(z[i].cross(c[k] - o[i]));
        tau[i] -= mass[k] * g.dot(dc);
      }
    return tau;
  }
};

// One RK4 step of qdd = FD(q, qd, 0).
template <class FD>
void rk4(FD&& fd, VectorXd& q, VectorXd& qd, double h) {
  const VectorXd k1q = qd, k1v = fd(q, qd);
  const VectorXd k2q = qd + 0.5 * h * k1v, k2v = fd(q + 0.5 * h * k1q, k2q);
  const VectorXd k3q = qd + 0.5 * h * k2v, k3v = fd(q + 0.5 * h * k2q, k3q);
  const VectorXd k4q = qd + h * k3v, k4v = fd(q + h * k3q, k4q);
  q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
  qd += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
}

}  // namespace

class TestSahaExamples : public QObject {
  Q_OBJECT

 private slots:
  // The closed form is self-consistent (M from the kinetic energy matches its derivatives) and the
  // model file holds the arm it describes.
  void planarClosedFormIsSound() {
    const PlanarArm arm;
    const Vector3d th(0.3, -1.1, 0.7);
    for (int k = 1; k < 3; ++k) {
      Vector3d p = th, m = th;
      p[k] += 1e-6;
      m[k] -= 1e-6;
      QVERIFY(((arm.M(p) - arm.M(m)) / 2e-6 - arm.dM(th, k)).cwiseAbs().maxCoeff() < 1e-8);
    }
    QVERIFY(arm.M(th).llt().info() == Eigen::Success);
    const Model m = robot("planar3.dh");
    QCOMPARE(m.nv, 3);
    for (int i = 0; i < 3; ++i) QVERIFY(std::abs(m.I[i + 1].m - arm.m[i]) < 1e-12);
  }

  // Fig. 5's torques: DeNOC (and Newton-Euler) equal the closed form, along the plotted
  // trajectory and at random states.
  void planarTorquesEqualClosedForm() {
    const Model m = robot("planar3.dh");
    const PlanarArm arm;
    dyn::DenocWorkspace ws(m);
    dyn::NewtonEuler3Workspace ne(m);
    const dyn::SampledTrajectory traj = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaPlanar3, 100);
    QCOMPARE(traj.samples(), 1001);
    double peak = 0;
    for (int k = 0; k < traj.samples(); ++k) {
      const Vector3d th = traj.q.col(k), thd = traj.qd.col(k), thdd = traj.qdd.col(k);
      const Vector3d ref = arm.torque(th, thd, thdd);
      peak = std::max(peak, ref.cwiseAbs().maxCoeff());
      CHECK_REL(dyn::denocInverseDynamics(m, ws, th, thd, thdd), ref, 1e-10, QString("DeNOC at sample %1").arg(k));
      CHECK_REL(dyn::newtonEuler3(m, ne, th, thd, thdd), ref, 1e-10, QString("Newton-Euler at sample %1").arg(k));
    }
    QVERIFY(peak > 0.5);  // the arm does work against gravity (N m)
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> U(-3, 3);
    for (int k = 0; k < 50; ++k) {
      const Vector3d th(U(rng), U(rng), U(rng)), thd(U(rng), U(rng), U(rng)), thdd(U(rng), U(rng), U(rng));
      CHECK_REL(dyn::denocInverseDynamics(m, ws, th, thd, thdd), arm.torque(th, thd, thdd), 1e-10, "DeNOC");
      CHECK_REL(dyn::denocGeneralizedInertia(m, ws, th), arm.M(th), 1e-10, "DeNOC GIM");
      const Vector3d Cqd = dyn::denocConvectiveInertia(m, ws, th, thd) * thd;
      const Vector3d lagrange = arm.torque(th, thd, Vector3d::Zero()) - arm.gravity(th);
      CHECK_REL(Cqd, lagrange, 1e-10, "DeNOC C qd = Coriolis and centrifugal terms");
    }
  }

  // Fig. 5's axes, as far as the seed's text carries them: time from 0 to 10 s (tick labels 2, 6, 8, 10
  // survive) and torque from -2 to 5 N m (tick labels 5, 4, ..., -2). The seed gives neither the link
  // lengths nor the masses (robots/planar3.dh holds our choice), nor any value read off the curves, so
  // the curves themselves cannot be compared. What can: the trajectory lasts the plotted 10 s, all
  // three torques stay inside the plotted window over the whole of it, within plotting accuracy (0.1 N m,
  // a seventieth of the axis), and they span more than half of it (the window is drawn around curves
  // of this size, not around ones ten times larger or smaller).
  void planarTorquesWithinFig5Axes() {
    const Model m = robot("planar3.dh");
    dyn::DenocWorkspace ws(m);
    const dyn::SampledTrajectory traj = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaPlanar3, 100);
    QCOMPARE(traj.startTime(), 0.0);
    QCOMPARE(traj.endTime(), 10.0);
    constexpr double kAxisLow = -2, kAxisHigh = 5, kPlotting = 0.1;
    double low = INFINITY, high = -INFINITY;
    for (int k = 0; k < traj.samples(); ++k) {
      const Vector3d tau = dyn::denocInverseDynamics(m, ws, traj.q.col(k), traj.qd.col(k), traj.qdd.col(k));
      low = std::min(low, tau.minCoeff());
      high = std::max(high, tau.maxCoeff());
    }
    qDebug("Fig. 5: the torques span %.3f to %.3f N m (axis: %g to %g)", low, high, kAxisLow, kAxisHigh);
    QVERIFY2(low >= kAxisLow - kPlotting && high <= kAxisHigh + kPlotting,
             qPrintable(QString("torques from %1 to %2 N m leave Fig. 5's window").arg(low).arg(high)));
    QVERIFY2(high - low > 0.5 * (kAxisHigh - kAxisLow),
             qPrintable(QString("torques span only %1 N m of Fig. 5's 7").arg(high - low)));
  }

  // Fig. 6: free fall from th = 0 (links along +X, gravity -Y) at rest, by the DeNOC forward dynamics.
  void planarFreeFall() {
    const Model m = robot("planar3.dh");
    dyn::DenocWorkspace ws(m);
    dyn::Data d(m);
    const VectorXd zero = VectorXd::Zero(3);
    const auto denoc = [&](const VectorXd& q, const VectorXd& qd) -> VectorXd {
      return dyn::denocForwardDynamics(m, ws, q, qd, zero);
    };
    const auto aba = [&](const VectorXd& q, const VectorXd& qd) -> VectorXd { return dyn::aba(m, d, q, qd, zero); };
    VectorXd q = zero, qd = zero, qa = zero, qda = zero;
    QVERIFY(denoc(q, qd)[0] < 0);  // th_1 starts into the negative direction
    dyn::computeEnergy(m, d, q, qd);
    const double e0 = d.kinetic + d.potential;
    const double scale = m.totalMass() * kG * 0.65;  // potential energy range ~ m g (arm length)
    const double h = 5e-4;
    int reversals = 0;
    double previous = 0, lowest = 0;
    for (int k = 1; k <= 4000; ++k) {  // 2 s
      rk4(denoc, q, qd, h);
      if (k <= 2000) rk4(aba, qa, qda, h);
      if (k <= 600) QVERIFY2(q[0] < 0, qPrintable(QString("th_1 = %1 at t = %2 s").arg(q[0]).arg(k * h)));
      if (k == 2000) QVERIFY2((q - qa).cwiseAbs().maxCoeff() < 1e-7, "DeNOC and ABA runs part within 1 s");
      reversals += k > 1 && (qd[0] > 0) != (previous > 0);
      previous = qd[0];
      lowest = std::min(lowest, q[0]);
    }
    // a triple pendulum: th_1 swings down and back (its rate changes sign), energy is conserved
    QVERIFY2(reversals >= 1, "th_1 never swings back");
    QVERIFY(lowest < -kPi / 2);
    dyn::computeEnergy(m, d, q, qd);
    QVERIFY2(std::abs(d.kinetic + d.potential - e0) < 1e-6 * scale,
             qPrintable(QString("energy drift %1 J").arg(d.kinetic + d.potential - e0)));
  }

  // Figs. 8(a)-(f): the torques along eq. 39 (T = 10 s, plotted at 100 Hz).
  void stanfordTorqueCurves() {
    const Model m = robot("stanford_arm.dh");
    QCOMPARE(m.joints[3].type, dyn::JointType::Prismatic);
    dyn::DenocWorkspace ws(m);
    dyn::NewtonEuler3Workspace ne(m);
    dyn::Data d(m);
    const dyn::SampledTrajectory traj = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaStanford, 100);
    const int n = traj.samples();
    MatrixXd tau(6, n);
    for (int k = 0; k < n; ++k) {
      const VectorXd q = traj.q.col(k), qd = traj.qd.col(k), qdd = traj.qdd.col(k);
      tau.col(k) = dyn::denocInverseDynamics(m, ws, q, qd, qdd);
      CHECK_REL(dyn::rnea(m, d, q, qd, qdd), VectorXd(tau.col(k)), 1e-10, QString("RNEA at sample %1").arg(k));
      CHECK_REL(dyn::newtonEuler3(m, ne, q, qd, qdd), VectorXd(tau.col(k)), 1e-10,
                QString("Newton-Euler at sample %1").arg(k));
    }
    // eq. 39's end points: th(0) = (0, 90, b3 = 0, 0, 0, 0), th(T) = (60, 60, 0.1 m, 60, 60, 60) degrees
    QVERIFY(std::abs(traj.q(1, 0) - kPi / 2) < 1e-15 && std::abs(traj.q(2, n - 1) - 0.1) < 1e-15);
    // the cycloids start and end at rest: the curves end at the static gravity torques
    const StanfordArm arm;
    CHECK_REL(VectorXd(tau.col(0)), arm.gravityTorques(traj.q.col(0)), 1e-12, "tau(0) = static gravity torques");
    CHECK_REL(VectorXd(tau.col(n - 1)), arm.gravityTorques(traj.q.col(n - 1)), 1e-12,
              "tau(T) = static gravity torques");
    // at the start the boom (joint 3's axis) is horizontal: no force holds it
    QVERIFY(std::abs(tau(2, 0)) < 1e-12);
    QVERIFY(tau.col(n - 1).cwiseAbs().maxCoeff() > 1);
    // the plotted curves are smooth: no jump between samples larger than 2 % of the curve's range
    for (int j = 0; j < 6; ++j) {
      const double range = tau.row(j).maxCoeff() - tau.row(j).minCoeff();
      for (int k = 1; k < n; ++k)
        QVERIFY2(std::abs(tau(j, k) - tau(j, k - 1)) <= 0.02 * range + 1e-12,
                 qPrintable(QString("tau_%1 jumps at sample %2").arg(j + 1).arg(k)));
    }
  }

  // Fig. 9: the arm released at rest at eq. 39's start falls under gravity (DeNOC forward dynamics):
  // joint 3 (the boom) hardly moves while joint 2 is near 90 degrees, then slides out sharply.
  void stanfordFreeFall() {
    const Model m = robot("stanford_arm.dh");
    dyn::DenocWorkspace ws(m);
    dyn::Data d(m);
    const VectorXd zero = VectorXd::Zero(6);
    const auto denoc = [&](const VectorXd& q, const VectorXd& qd) -> VectorXd {
      return dyn::denocForwardDynamics(m, ws, q, qd, zero);
    };
    const auto aba = [&](const VectorXd& q, const VectorXd& qd) -> VectorXd { return dyn::aba(m, d, q, qd, zero); };
    VectorXd q = zero, qd = zero;
    q[1] = kPi / 2;
    VectorXd qa = q, qda = qd;
    const double h = 1e-3;
    double b3At10 = -1, b3At60 = -1, lastB3 = 0;
    for (int k = 1; k <= 800 && b3At60 < 0; ++k) {
      rk4(denoc, q, qd, h);
      rk4(aba, qa, qda, h);
      QVERIFY2((q - qa).cwiseAbs().maxCoeff() < 1e-8, "DeNOC and ABA falls part");
      QVERIFY2(q[2] >= lastB3 - 1e-12, "the boom slides back");
      lastB3 = q[2];
      const double turned = std::abs(q[1] - kPi / 2) * 180 / kPi;
      if (b3At10 < 0 && turned >= 10) b3At10 = q[2];
      if (turned >= 60) b3At60 = q[2];
    }
    QVERIFY2(b3At10 >= 0 && b3At60 >= 0, "joint 2 did not turn 60 degrees in 0.8 s");
    QVERIFY2(b3At10 < 0.01, qPrintable(QString("b3 = %1 m after 10 degrees").arg(b3At10)));
    QVERIFY2(b3At60 > 20 * b3At10 && b3At60 > 0.2, qPrintable(QString("b3 = %1 m after 60 degrees").arg(b3At60)));
  }
};

QTEST_GUILESS_MAIN(TestSahaExamples)
#include "test_saha_examples.moc"
