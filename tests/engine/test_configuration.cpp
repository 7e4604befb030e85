// Configuration space: integrate/difference are inverse, quaternions stay unit, the floating
// base pose is the configuration's position/quaternion, a constant twist composes (two steps of
// dt = one step of 2 dt), integrate moves bodies along the velocities forward kinematics reports,
// and randomConfiguration respects the limits of every shipped robot.
#include <QDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <random>

#include <Eigen/Geometry>

#include "dynscope/dynscope.hpp"
#include "random_tree.hpp"

using Eigen::VectorXd;
using K = dyn::JointKind;

namespace {

// Random trees with spherical and floating joints among the others.
dyn::Model treeWithQuaternions(unsigned seed, bool floatingBase = false) {
  return dyn::buildModel(dyn::testing::randomTree(seed, 12, {K::Revolute, K::Prismatic, K::Helical, K::Fixed,
                                                             K::Planar, K::Spherical, K::Floating, K::Spherical,
                                                             K::Floating}),
                         dyn::BuildOptions{.floatingBase = floatingBase});
}

bool hasQuaternion(const dyn::Model& m) {
  for (int i = 1; i <= m.N; ++i)
    if (m.joints[i].type == dyn::JointType::Spherical || m.joints[i].type == dyn::JointType::Floating) return true;
  return false;
}

// A velocity with every joint's angular part of norm below maxAngle (< pi).
VectorXd randomVelocity(const dyn::Model& m, std::mt19937& rng, double maxAngle) {
  std::uniform_real_distribution<double> U(-1, 1), A(0, maxAngle);
  VectorXd v(m.nv);
  for (int k = 0; k < m.nv; ++k) v[k] = U(rng);
  for (int i = 1; i <= m.N; ++i) {
    const dyn::JointModel<double>& J = m.joints[i];
    if (J.type == dyn::JointType::Spherical || J.type == dyn::JointType::Floating) {
      Eigen::Vector3d w = v.segment<3>(J.idx_v);
      v.segment<3>(J.idx_v) = w.normalized() * A(rng);
    }
  }
  return v;
}

// Quaternion segments of q (x y z w): their offsets.
std::vector<int> quaternionOffsets(const dyn::Model& m) {
  std::vector<int> off;
  for (int i = 1; i <= m.N; ++i) {
    if (m.joints[i].type == dyn::JointType::Spherical) off.push_back(m.joints[i].idx_q);
    if (m.joints[i].type == dyn::JointType::Floating) off.push_back(m.joints[i].idx_q + 3);
  }
  return off;
}

// Same configuration up to the sign of each quaternion (q and -q are the same rotation).
double configurationDistance(const dyn::Model& m, const VectorXd& a, const VectorXd& b) {
  VectorXd d = a - b;
  for (int o : quaternionOffsets(m)) {
    const double plus = (a.segment<4>(o) - b.segment<4>(o)).cwiseAbs().maxCoeff();
    const double minus = (a.segment<4>(o) + b.segment<4>(o)).cwiseAbs().maxCoeff();
    d.segment<4>(o).setConstant(std::min(plus, minus));
  }
  return d.cwiseAbs().maxCoeff();
}

QStringList shippedRobots() {
  QDir dir(DYNSCOPE_ROBOTS_DIR);
  return dir.entryList({"*.urdf", "*.dh"}, QDir::Files, QDir::Name);
}

#define CHECK_ERR(err, tol, what)                                                                            \
  do {                                                                                                       \
    const double e_ = (err);                                                                                 \
    if (!(e_ <= (tol))) QFAIL(qPrintable(QString("%1: error %2 > %3").arg(what).arg(e_).arg(tol)));          \
  } while (false)

}  // namespace

class TestConfiguration : public QObject {
  Q_OBJECT

 private slots:
  void differenceInvertsIntegrate_data() {
    QTest::addColumn<double>("maxAngle");
    QTest::newRow("|w| < 1") << 1.0;
    QTest::newRow("|w| < 3") << 3.0;
  }
  // difference(q, integrate(q, v, 1)) = v
  void differenceInvertsIntegrate() {
    QFETCH(double, maxAngle);
    std::mt19937 rng(1);
    for (unsigned seed = 1; seed <= 10; ++seed) {
      const dyn::Model m = treeWithQuaternions(seed, seed % 2 == 0);
      QVERIFY(hasQuaternion(m));
      for (int t = 0; t < 20; ++t) {
        const VectorXd q = dyn::randomConfiguration(m, rng);
        const VectorXd v = randomVelocity(m, rng, maxAngle);
        VectorXd q1(m.nq), v1(m.nv);
        dyn::integrate(m, q, v, 1.0, q1);
        dyn::difference(m, q, q1, v1);
        // log is conditioned like 1/sin|w|: at |w| = 3 that is ~7, still far inside 1e-12
        CHECK_ERR((v1 - v).cwiseAbs().maxCoeff(), 1e-12, QString("seed %1: difference(q, integrate(q, v)) - v").arg(seed));
        // and integrate(q, difference(q, q1)) = q1
        VectorXd q2(m.nq);
        dyn::integrate(m, q, v1, 1.0, q2);
        CHECK_ERR(configurationDistance(m, q2, q1), 1e-12, QString("seed %1: integrate(q, difference(q, q1)) - q1").arg(seed));
      }
    }
  }

  void differenceOfEqualIsZero() {
    std::mt19937 rng(2);
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const dyn::Model m = treeWithQuaternions(seed);
      const VectorXd q = dyn::randomConfiguration(m, rng);
      VectorXd v(m.nv);
      dyn::difference(m, q, q, v);
      CHECK_ERR(v.cwiseAbs().maxCoeff(), 1e-14, "difference(q, q)");
    }
  }

  void quaternionsStayUnit() {
    std::mt19937 rng(3);
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const dyn::Model m = treeWithQuaternions(seed, true);
      VectorXd q = dyn::randomConfiguration(m, rng);
      for (int o : quaternionOffsets(m)) CHECK_ERR(std::abs(q.segment<4>(o).norm() - 1), 1e-15, "random quaternion");
      VectorXd qn(m.nq);
      for (int step = 0; step < 1000; ++step) {  // a long integration: no drift
        dyn::integrate(m, q, randomVelocity(m, rng, 3.0), 0.05, qn);
        q = qn;
      }
      for (int o : quaternionOffsets(m)) {
        CHECK_ERR(std::abs(q.segment<4>(o).norm() - 1), 1e-14, "quaternion after 1000 steps");
        QVERIFY(q[o + 3] >= 0);  // canonical sign (w >= 0) as matrixToQuaternion documents
      }
    }
  }

  // The floating base body's world pose is the configuration's (position, quaternion).
  void floatingBasePose() {
    std::vector<dyn::Model> models;
    for (unsigned seed = 1; seed <= 3; ++seed) models.push_back(treeWithQuaternions(seed, true));
    const std::string quad = std::string(DYNSCOPE_ROBOTS_DIR) + "/quadruped.urdf";
    if (std::filesystem::exists(quad)) models.push_back(dyn::loadModel(quad, dyn::BuildOptions{.floatingBase = true}));
    std::mt19937 rng(4);
    for (const dyn::Model& m : models) {
      QVERIFY(m.floatingBase);
      QCOMPARE(m.joints[1].type, dyn::JointType::Floating);
      QCOMPARE(m.parent[1], 0);
      QCOMPARE(m.joints[1].idx_q, 0);
      dyn::Data d(m);
      const int rootFrame = m.frameIndex(m.bodyNames[1]);
      QVERIFY(rootFrame >= 0);
      for (int t = 0; t < 20; ++t) {
        VectorXd q = dyn::randomConfiguration(m, rng);
        const Eigen::Vector3d p = q.head<3>();
        const Eigen::Quaterniond quat(q[6], q[3], q[4], q[5]);  // Eigen: (w, x, y, z)
        const Eigen::Matrix3d R = quat.normalized().toRotationMatrix();
        if (t % 2) q.segment<4>(3) *= 1.7;  // a non-normalised quaternion means the same rotation
        dyn::forwardKinematics(m, d, q);
        dyn::updateFrames(m, d);
        CHECK_ERR((dyn::bodyRotation(d, 1) - R).cwiseAbs().maxCoeff(), 1e-14, "body rotation");
        CHECK_ERR((dyn::bodyPosition(d, 1) - p).cwiseAbs().maxCoeff(), 1e-14, "body position");
        CHECK_ERR((d.oMf[rootFrame].rotation() - R).cwiseAbs().maxCoeff(), 1e-14, "root frame rotation");
        CHECK_ERR((d.oMf[rootFrame].translation() - p).cwiseAbs().maxCoeff(), 1e-14, "root frame position");
      }
    }
  }

  // A constant twist: two steps of dt land where one step of 2 dt does.
  void twoStepsEqualOneDoubleStep() {
    std::mt19937 rng(5);
    for (unsigned seed = 1; seed <= 10; ++seed) {
      const dyn::Model m = treeWithQuaternions(seed, seed % 2 == 1);
      for (int t = 0; t < 10; ++t) {
        const VectorXd q = dyn::randomConfiguration(m, rng);
        const VectorXd v = randomVelocity(m, rng, 1.5);
        for (double dt : {0.01, 0.3, 1.0}) {
          VectorXd qa(m.nq), qb(m.nq), qc(m.nq);
          dyn::integrate(m, q, v, dt, qa);
          dyn::integrate(m, qa, v, dt, qb);
          dyn::integrate(m, q, v, 2 * dt, qc);
          CHECK_ERR(configurationDistance(m, qb, qc), 1e-12,
                    QString("seed %1 dt %2: integrate twice by dt vs once by 2 dt").arg(seed).arg(dt));
        }
      }
    }
  }

  // integrate's tangent convention agrees with the motion subspaces of forward kinematics: for
  // small h, body i moves by h v_i (v_i = body velocity from forwardKinematics(q, v), link coordinates).
  void integrateMatchesBodyVelocities() {
    std::mt19937 rng(6);
    const double h = 1e-6;
    for (unsigned seed = 1; seed <= 6; ++seed) {
      const dyn::Model m = treeWithQuaternions(seed, seed % 2 == 0);
      dyn::Data d0(m), d1(m);
      for (int t = 0; t < 5; ++t) {
        const VectorXd q = dyn::randomConfiguration(m, rng);
        const VectorXd v = randomVelocity(m, rng, 2.0);
        VectorXd qh(m.nq);
        dyn::integrate(m, q, v, h, qh);
        dyn::forwardKinematics(m, d0, q, v);
        dyn::forwardKinematics(m, d1, qh);
        for (int i = 1; i <= m.N; ++i) {
          // displacement of body i from its pose at q to its pose at qh, in its coordinates at q
          const dyn::Motion<double> disp = dyn::XtoV(d1.X0[i] * d0.X0[i].inverse());
          const Eigen::Matrix<double, 6, 1> rate = disp.toVector() / h, vi = d0.v[i].toVector();
          // truncation ~ h |v|^2 * reach ~ 1e-4, roundoff ~ 1e-16 / h = 1e-10; a convention
          // error (world vs body twist, wrong S) would be O(|v|)
          CHECK_ERR((rate - vi).cwiseAbs().maxCoeff(), 1e-3 * std::max(1.0, vi.norm()),
                    QString("seed %1 body %2 (%3): displacement / h vs FK velocity")
                        .arg(seed).arg(i).arg(dyn::jointTypeName(m.joints[i].type)));
        }
      }
    }
  }

  void randomConfigurationRespectsLimits() {
    const QStringList files = shippedRobots();
    if (files.isEmpty()) QSKIP("no robots shipped yet");
    int checked = 0;
    for (const QString& f : files) {
      const std::string path = std::string(DYNSCOPE_ROBOTS_DIR) + "/" + f.toStdString();
      for (bool floating : {false, true}) {
        const dyn::Model m = dyn::loadModel(path, dyn::BuildOptions{.floatingBase = floating});
        QCOMPARE(m.lowerLimit.size(), m.nq);
        QCOMPARE(m.upperLimit.size(), m.nq);
        std::mt19937 rng(7);
        const std::vector<int> quats = quaternionOffsets(m);
        VectorXd lo = VectorXd::Constant(m.nq, INFINITY), hi = VectorXd::Constant(m.nq, -INFINITY);
        for (int s = 0; s < 300; ++s) {
          const VectorXd q = dyn::randomConfiguration(m, rng);
          QCOMPARE(q.size(), m.nq);
          for (int k = 0; k < m.nq; ++k) {
            if (!std::isfinite(q[k]))
              QFAIL(qPrintable(QString("%1: q[%2] not finite").arg(f).arg(k)));
            if (!(q[k] >= m.lowerLimit[k] && q[k] <= m.upperLimit[k]))
              QFAIL(qPrintable(QString("%1%2: q[%3] = %4 outside [%5, %6]").arg(f, floating ? " (floating)" : "")
                                   .arg(k).arg(q[k]).arg(m.lowerLimit[k]).arg(m.upperLimit[k])));
          }
          for (int o : quats) CHECK_ERR(std::abs(q.segment<4>(o).norm() - 1), 1e-15, f + ": quaternion");
          lo = lo.cwiseMin(q);
          hi = hi.cwiseMax(q);
        }
        // the samples spread over each limited range (not stuck at the neutral configuration)
        for (int k = 0; k < m.nq; ++k)
          if (std::isfinite(m.lowerLimit[k]) && std::isfinite(m.upperLimit[k]) && m.upperLimit[k] > m.lowerLimit[k])
            QVERIFY2(hi[k] - lo[k] > 0.8 * (m.upperLimit[k] - m.lowerLimit[k]),
                     qPrintable(QString("%1: q[%2] samples span only [%3, %4]").arg(f).arg(k).arg(lo[k]).arg(hi[k])));
        ++checked;
      }
    }
    QVERIFY(checked >= 2);
  }
};

QTEST_APPLESS_MAIN(TestConfiguration)
#include "test_configuration.moc"
