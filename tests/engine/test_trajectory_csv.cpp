// Trajectory CSV: write -> read reproduces every value bit-exact (17 significant digits), a file
// without velocity/acceleration columns gets the spline's derivatives (exact for a cubic in t, also
// across a floating base turning about a fixed axis), and malformed files name file, line, column.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"
#include "random_tree.hpp"

using dyn::Model;
using Eigen::MatrixXd;
using Eigen::VectorXd;
using K = dyn::JointKind;

namespace {

std::string writeText(const QTemporaryDir& dir, const char* name, const std::string& text) {
  const std::string path = dir.filePath(name).toStdString();
  std::ofstream(path) << text;
  return path;
}

}  // namespace

class TestTrajectoryCsv : public QObject {
  Q_OBJECT

 private slots:
  void roundTripIsBitExact() {
    const Model m = dyn::buildModel(
        dyn::testing::randomTree(21, 8, {K::Revolute, K::Spherical, K::Floating, K::Planar, K::Prismatic}),
        {.floatingBase = true});
    std::mt19937 rng(21);
    std::vector<dyn::Waypoint> w;
    for (double t : {0.0, 0.37, 1.0}) w.push_back({t, dyn::randomConfiguration(m, rng)});
    const dyn::SampledTrajectory s = dyn::WaypointTrajectory(m, w, dyn::Interpolation::CubicSpline).sample(73);
    QTemporaryDir dir;
    const std::string path = dir.filePath("traj.csv").toStdString();
    dyn::writeTrajectoryCsv(path, m, s);
    const dyn::TrajectoryCsv r = dyn::readTrajectoryCsv(m, path);
    QVERIFY(!r.velocitiesFromSpline && !r.accelerationsFromSpline);
    QVERIFY(r.ignoredColumns.empty());
    QVERIFY(r.trajectory.t == s.t);
    QVERIFY(r.trajectory.q == s.q);
    QVERIFY(r.trajectory.qd == s.qd);
    QVERIFY(r.trajectory.qdd == s.qdd);
    // Extreme magnitudes survive too.
    dyn::SampledTrajectory odd = s;
    odd.q(0, 3) = 1e-300;
    odd.q(1, 4) = -1.2345678901234567e300;
    odd.qd(0, 5) = 0.1 + 0.2;
    std::ostringstream text;
    dyn::writeTrajectoryCsv(text, m, odd);
    const std::string path2 = writeText(dir, "odd.csv", text.str());
    const dyn::TrajectoryCsv r2 = dyn::readTrajectoryCsv(m, path2);
    QVERIFY(r2.trajectory.q == odd.q && r2.trajectory.qd == odd.qd);
  }

  // Without qd_/qdd_ columns, q̇ and q̈ come from the not-a-knot spline: exact for q cubic in t
  // (uneven steps), on revolute and planar joints.
  void missingDerivativesFromTheSpline() {
    const Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh");
    auto exact = [](double t, int j) {
      const double a = 0.2 * j, b = 1 - j, c = 0.5 + j, d = -0.3 * (j + 1);
      return Eigen::Vector3d(a + b * t + c * t * t + d * t * t * t, b + 2 * c * t + 3 * d * t * t, 2 * c + 6 * d * t);
    };
    std::ostringstream csv;
    csv << "# planar3, q only\nt,j3,j1,j2\n";
    std::vector<double> times;
    for (double t = 0; t < 2; t += 0.05 + 0.03 * std::sin(7 * t)) times.push_back(t);
    for (double t : times) {
      csv << dyn::formatCsvNumber(t);
      for (int j : {2, 0, 1}) csv << "," << dyn::formatCsvNumber(exact(t, j)[0]);
      csv << "\n";
    }
    QTemporaryDir dir;
    const dyn::TrajectoryCsv r = dyn::readTrajectoryCsv(m, writeText(dir, "q.csv", csv.str()));
    QVERIFY(r.velocitiesFromSpline && r.accelerationsFromSpline);
    for (int k = 0; k < r.trajectory.samples(); ++k)
      for (int j = 0; j < 3; ++j) {
        const Eigen::Vector3d e = exact(times[k], j);
        QVERIFY(std::abs(r.trajectory.qd(j, k) - e[1]) < 1e-9);
        QVERIFY(std::abs(r.trajectory.qdd(j, k) - e[2]) < 1e-8);
      }
  }

  // A floating base yawing at a(t) (cubic): body rate (0, 0, a'), its derivative (0, 0, a''), zero
  // linear velocity, all from the spline through the quaternions.
  void splineThroughQuaternions() {
    const Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/quadruped.urdf", {.floatingBase = true});
    dyn::SampledTrajectory s;
    const int n = 40;
    s.t.resize(n);
    s.q.resize(m.nq, n);
    for (int k = 0; k < n; ++k) {
      const double t = 0.05 * k, a = 0.5 * t + 0.2 * t * t - 0.1 * t * t * t;
      s.t[k] = t;
      s.q.col(k) = m.neutral();
      s.q(5, k) = std::sin(a / 2);
      s.q(6, k) = std::cos(a / 2);
    }
    MatrixXd qd, qdd;
    dyn::splineDerivatives(m, s.t, s.q, &qd, &qdd);
    for (int k = 0; k < n; ++k) {
      const double t = s.t[k];
      VectorXd v = VectorXd::Zero(m.nv), a = VectorXd::Zero(m.nv);
      v[2] = 0.5 + 0.4 * t - 0.3 * t * t;
      a[2] = 0.4 - 0.6 * t;
      CHECK_CLOSE(qd.col(k), v, 1e-10, 1.0, "body rate");
      CHECK_CLOSE(qdd.col(k), a, 1e-9, 1.0, "body acceleration");
    }
  }

  void errorsNameFileAndLine_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("not a number") << "t,j1,j2,j3\n0,0,0,0\n0.1,0,x,0\n"
                                  << "bad.csv:3: column 'j2': 'x'";
    QTest::newRow("short row") << "t,j1,j2,j3\n0,0,0,0\n\n0.1,0,0\n"
                               << "bad.csv:4: row has 3 fields";
    QTest::newRow("missing column") << "t,j1,j3\n0,0,0\n"
                                    << "bad.csv:1: missing column j2";
    QTest::newRow("time not increasing") << "t,j1,j2,j3\n0,0,0,0\n0.2,0,0,0\n# c\n0.2,1,1,1\n"
                                         << "bad.csv:5: t = 0.2";
    QTest::newRow("partial qd group") << "t,j1,j2,j3,qd_j1\n0,0,0,0,0\n1,0,0,0,0\n"
                                      << "missing columns qd_j2, qd_j3";
    QTest::newRow("repeated column") << "t,j1,j1,j2,j3\n"
                                     << "bad.csv:1: column 'j1' appears twice";
    QTest::newRow("infinite") << "t,j1,j2,j3\n0,0,inf,0\n"
                              << "bad.csv:2: column 'j2': 'inf'";
  }
  void errorsNameFileAndLine() {
    QFETCH(QString, text);
    QFETCH(QString, fragment);
    const Model m = dyn::loadModel(std::string(DYNSCOPE_ROBOTS_DIR) + "/planar3.dh");
    QTemporaryDir dir;
    const std::string path = writeText(dir, "bad.csv", text.toStdString());
    try {
      dyn::readTrajectoryCsv(m, path);
      QFAIL("no exception");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString(e.what()).contains(fragment), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestTrajectoryCsv)
#include "test_trajectory_csv.moc"
