// dynscope-cli end to end: run the built binary on the shipped robots and compare every JSON
// number with a direct engine call (printed with 17 digits, so they must agree to rounding);
// the CSV trajectory round trip, id --project (--decompose) and the trajectory command; and the
// error paths (status, message, never a crash).
#include <Eigen/Geometry>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>
#include "cli_json.hpp"
#include "csv_rows.hpp"
#include "run_cli.hpp"

#include "dynscope/dynscope.hpp"
#include "dynscope/model/names.hpp"
#include "dynscope/trajectory/trajectory.hpp"

using dyn::testing::joined;

namespace {

constexpr double kRelTol = 1e-12;

using Run = dyn::testing::CliRun;
using dyn::testing::runCli;

// Absolute: project files written here name their robot relative to themselves.
QString robot(const QString& file) { return QFileInfo(QString(DYNSCOPE_ROBOTS_DIR) + "/" + file).absoluteFilePath(); }

dyn::Model load(const QString& file, bool floating) {
  return dyn::loadModel(robot(file).toStdString(), dyn::BuildOptions{.floatingBase = floating});
}

Eigen::VectorXd randomVector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Eigen::VectorXd v(n);
  for (int k = 0; k < n; ++k) v[k] = U(rng);
  return v;
}

Eigen::VectorXd toVector(const QJsonValue& value) {
  const QJsonArray a = value.toArray();
  Eigen::VectorXd v(a.size());
  for (int k = 0; k < a.size(); ++k) v[k] = a[k].toDouble(std::nan(""));
  return v;
}

Eigen::MatrixXd toMatrix(const QJsonValue& value) {
  const QJsonArray rows = value.toArray();
  const int cols = rows.isEmpty() ? 0 : int(rows[0].toArray().size());
  Eigen::MatrixXd m(rows.size(), cols);
  for (int r = 0; r < rows.size(); ++r) m.row(r) = toVector(rows[r]).transpose();
  return m;
}

// Empty when a equals b to kRelTol relative to b's largest entry (at least 1); else what differs.
QString mismatch(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol = kRelTol) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    return QString("size %1x%2, expected %3x%4").arg(a.rows()).arg(a.cols()).arg(b.rows()).arg(b.cols());
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  for (Eigen::Index r = 0; r < a.rows(); ++r)
    for (Eigen::Index c = 0; c < a.cols(); ++c)
      if (!(std::abs(a(r, c) - b(r, c)) <= tol * scale))
        return QString("entry (%1,%2): %3 vs %4").arg(r).arg(c).arg(a(r, c), 0, 'g', 17).arg(b(r, c), 0, 'g', 17);
  return {};
}

#define COMPARE_NUMBERS(actual, expected)                               \
  do {                                                                  \
    const QString why = mismatch((actual), (expected));                 \
    if (!why.isEmpty()) QFAIL(qPrintable(QString(#actual ": ") + why)); \
  } while (0)

// Runs the CLI expecting success and a JSON object.
QJsonObject runJson(const QStringList& args) {
  const Run r = runCli(args);
  if (r.crashed || r.status != 0) {
    qWarning("dynscope-cli %s: status %d: %s", qPrintable(args.join(' ')), r.status, r.err.constData());
    return {};
  }
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
  if (error.error != QJsonParseError::NoError) qWarning("bad JSON: %s", qPrintable(error.errorString()));
  return doc.object();
}

QStringList modelArgs(const QString& command, const QString& file, bool floating) {
  QStringList args{command, robot(file)};
  if (floating) args << "--floating-base";
  return args;
}

void addRobotRows() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<bool>("floating");
  for (const char* f :
       {"ur5.urdf", "panda.urdf", "humanoid.urdf", "quadruped.urdf", "stanford_arm.dh", "planar3.dh", "puma560.dh"})
    QTest::newRow(f) << QString(f) << false;
  QTest::newRow("humanoid.urdf floating") << QString("humanoid.urdf") << true;
  QTest::newRow("quadruped.urdf floating") << QString("quadruped.urdf") << true;
}

std::string writeFile(const QTemporaryDir& dir, const QString& name, const std::string& text) {
  const std::string path = dir.filePath(name).toStdString();
  std::ofstream(path) << text;
  return path;
}

// CSV text -> rows of numbers (header skipped), for the trajectory outputs.
using dyn::testing::parseCsv;

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

 private slots:
  void infoListsJointsInOrder_data() { addRobotRows(); }
  void infoListsJointsInOrder() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const dyn::Model m = load(file, floating);
    const QJsonObject j = runJson(modelArgs("info", file, floating));
    QCOMPARE(j["command"].toString(), QString("info"));
    QCOMPARE(j["model"].toString(), QString::fromStdString(m.name));
    QCOMPARE(j["nq"].toInt(), m.nq);
    QCOMPARE(j["nv"].toInt(), m.nv);
    QCOMPARE(j["bodies"].toInt(), m.N);
    QCOMPARE(j["floating_base"].toBool(), floating);
    QVERIFY(std::abs(j["total_mass"].toDouble() - m.totalMass()) <= kRelTol * m.totalMass());
    const QJsonArray joints = j["joints"].toArray();
    QCOMPARE(int(joints.size()), m.N);
    const std::vector<std::string> qNames = dyn::configurationNames(m), vNames = dyn::velocityNames(m);
    for (int i = 1; i <= m.N; ++i) {
      const QJsonObject J = joints[i - 1].toObject();
      QCOMPARE(J["name"].toString(), QString::fromStdString(m.jointNames[i]));
      QCOMPARE(J["type"].toString(), QString(dyn::jointTypeName(m.joints[i].type)));
      QCOMPARE(J["parent"].toString(), QString::fromStdString(m.bodyNames[m.parent[i]]));
      QCOMPARE(J["child"].toString(), QString::fromStdString(m.bodyNames[i]));
      QCOMPARE(J["idx_q"].toInt(), m.joints[i].idx_q);
      QCOMPARE(J["nq"].toInt(), m.joints[i].nq);
      QCOMPARE(J["idx_v"].toInt(), m.joints[i].idx_v);
      QCOMPARE(J["nv"].toInt(), m.joints[i].nv);
      const QJsonArray jq = J["q_names"].toArray();
      QCOMPARE(int(jq.size()), m.joints[i].nq);
      for (int k = 0; k < m.joints[i].nq; ++k)
        QCOMPARE(jq[k].toString(), QString::fromStdString(qNames[m.joints[i].idx_q + k]));
      const Eigen::VectorXd lower = toVector(J["limits"].toObject()["lower"]);
      for (int k = 0; k < m.joints[i].nq; ++k) {
        const double expected = m.lowerLimit[m.joints[i].idx_q + k];
        if (std::isfinite(expected))
          QCOMPARE(lower[k], expected);
        else
          QVERIFY(J["limits"].toObject()["lower"].toArray()[k].isNull());
      }
    }
    // Every q/v entry named exactly once.
    QCOMPARE(int(j["q_names"].toArray().size()), m.nq);
    QCOMPARE(int(j["v_names"].toArray().size()), m.nv);
    const QJsonArray frames = j["frames"].toArray();
    QCOMPARE(size_t(frames.size()), m.frames.size());
    for (size_t k = 0; k < m.frames.size(); ++k)
      QCOMPARE(frames[int(k)].toObject()["name"].toString(), QString::fromStdString(m.frames[k].name));
    QCOMPARE(size_t(j["mimics"].toArray().size()), m.mimics.size());
  }

  void dynamicsMatchEngine_data() { addRobotRows(); }
  void dynamicsMatchEngine() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const dyn::Model m = load(file, floating);
    std::mt19937 rng(42);
    const Eigen::VectorXd q = dyn::randomConfiguration(m, rng);
    const Eigen::VectorXd qd = randomVector(m.nv, rng), qdd = randomVector(m.nv, rng), tau = randomVector(m.nv, rng);
    dyn::Data d(m);

    QJsonObject j = runJson(modelArgs("id", file, floating)
                            << "--q" << joined(q) << "--qd" << joined(qd) << "--qdd" << joined(qdd));
    QCOMPARE(j["command"].toString(), QString("id"));
    QVERIFY(toVector(j["q"]) == q);  // echoed inputs read back bit-exact (the shortest text that reads back)
    COMPARE_NUMBERS(toVector(j["qdd"]), qdd);
    COMPARE_NUMBERS(toVector(j["tau"]), dyn::rnea(m, d, q, qd, qdd));

    j = runJson(modelArgs("mass", file, floating) << "--q" << joined(q));
    COMPARE_NUMBERS(toMatrix(j["mass_matrix"]), dyn::crba(m, d, q));
    int nonZeros = 0;
    const QJsonArray pattern = j["sparsity"].toArray();
    for (int r = 0; r < m.nv; ++r)
      for (int c = 0; c < m.nv; ++c) {
        const bool structural = pattern[r].toArray()[c].toBool();
        nonZeros += structural;
        if (!structural) QCOMPARE(d.M(r, c), 0.0);  // a structural zero really is zero
      }
    QCOMPARE(j["structural_nonzeros"].toInt(), nonZeros);

    j = runJson(modelArgs("bias", file, floating) << "--q" << joined(q) << "--qd" << joined(qd));
    COMPARE_NUMBERS(toVector(j["nonlinear_effects"]), dyn::nonLinearEffects(m, d, q, qd));
    COMPARE_NUMBERS(toVector(j["gravity_vector"]), dyn::gravityVector(m, d, q));

    for (const char* algorithm : {"aba", "crba"}) {
      j = runJson(modelArgs("fd", file, floating) << "--q" << joined(q) << "--qd" << joined(qd) << "--tau"
                                                  << joined(tau) << "--algorithm" << algorithm);
      const Eigen::VectorXd expected =
          QByteArray(algorithm) == "aba" ? dyn::aba(m, d, q, qd, tau) : dyn::forwardDynamicsCrba(m, d, q, qd, tau);
      COMPARE_NUMBERS(toVector(j["qdd"]), expected);
    }

    j = runJson(modelArgs("energy", file, floating) << "--q" << joined(q) << "--qd" << joined(qd));
    dyn::computeEnergy(m, d, q, qd);
    COMPARE_NUMBERS(Eigen::VectorXd::Constant(1, j["kinetic"].toDouble()), Eigen::VectorXd::Constant(1, d.kinetic));
    COMPARE_NUMBERS(Eigen::VectorXd::Constant(1, j["potential"].toDouble()), Eigen::VectorXd::Constant(1, d.potential));
    COMPARE_NUMBERS(toVector(j["com"]), d.com);
    QCOMPARE(j["total_mass"].toDouble(), m.totalMass());
  }

  void kinematicsMatchEngine_data() { addRobotRows(); }
  void kinematicsMatchEngine() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const dyn::Model m = load(file, floating);
    std::mt19937 rng(7);
    const Eigen::VectorXd q = dyn::randomConfiguration(m, rng);
    dyn::Data d(m);
    dyn::forwardKinematics(m, d, q);
    dyn::updateFrames(m, d);

    const QJsonObject j = runJson(modelArgs("fk", file, floating) << "--q" << joined(q));
    const QJsonArray frames = j["frames"].toArray();
    QCOMPARE(size_t(frames.size()), m.frames.size());
    for (size_t k = 0; k < m.frames.size(); ++k) {
      const QJsonObject f = frames[int(k)].toObject();
      QCOMPARE(f["name"].toString(), QString::fromStdString(m.frames[k].name));
      COMPARE_NUMBERS(toVector(f["position"]), d.oMf[k].translation());
      const Eigen::Matrix3d R = d.oMf[k].rotation();
      COMPARE_NUMBERS(toMatrix(f["rotation"]), R);
      // The quaternion and rpy describe the same rotation.
      const Eigen::Vector4d xyzw = toVector(f["quaternion"]);
      const Eigen::Quaterniond quat(xyzw[3], xyzw[0], xyzw[1], xyzw[2]);
      COMPARE_NUMBERS(quat.toRotationMatrix(), R);
      const Eigen::Vector3d rpy = toVector(f["rpy"]);
      const Eigen::Matrix3d fromRpy =
          (Eigen::AngleAxisd(rpy[2], Eigen::Vector3d::UnitZ()) *  // URDF: Rz Ry Rx
           Eigen::AngleAxisd(rpy[1], Eigen::Vector3d::UnitY()) * Eigen::AngleAxisd(rpy[0], Eigen::Vector3d::UnitX()))
              .toRotationMatrix();
      COMPARE_NUMBERS(fromRpy, R);
    }
    COMPARE_NUMBERS(toVector(j["com"]), dyn::centerOfMass(m, d));

    const int last = int(m.frames.size()) - 1;  // deepest frames are the interesting ones
    const std::string link = m.frames[last].name;
    for (const auto& [name, ref] : {std::pair{"local", dyn::ReferenceFrame::Local},
                                    {"world", dyn::ReferenceFrame::World},
                                    {"local-world-aligned", dyn::ReferenceFrame::LocalWorldAligned}}) {
      const QJsonObject jj =
          runJson(modelArgs("jacobian", file, floating)
                  << "--q" << joined(q) << "--link" << QString::fromStdString(link) << "--frame" << name);
      QCOMPARE(jj["link"].toString(), QString::fromStdString(link));
      COMPARE_NUMBERS(toMatrix(jj["jacobian"]), dyn::frameJacobian(m, d, q, last, ref));
    }
  }

  // A wrench w on a frame enters inverse dynamics as -J^T w (virtual work), J the frame's local Jacobian.
  void externalForceIsJacobianTranspose() {
    const dyn::Model m = load("ur5.urdf", false);
    std::mt19937 rng(3);
    const Eigen::VectorXd q = dyn::randomConfiguration(m, rng), qd = randomVector(m.nv, rng),
                          qdd = randomVector(m.nv, rng);
    const int frame = m.frameIndex("tool0");
    QVERIFY(frame >= 0);
    dyn::Data d(m);
    const Eigen::VectorXd tau0 = dyn::rnea(m, d, q, qd, qdd);
    Eigen::Matrix<double, 6, 1> wrench;  // [n; f] for the Jacobian rows [w; v]
    wrench << 0.4, -0.5, 0.6, 1.0, -2.0, 3.0;
    const Eigen::VectorXd expected =
        tau0 - dyn::frameJacobian(m, d, q, frame, dyn::ReferenceFrame::Local).transpose() * wrench;
    const QJsonObject j = runJson(modelArgs("id", "ur5.urdf", false)
                                  << "--q" << joined(q) << "--qd" << joined(qd) << "--qdd" << joined(qdd) << "--fext"
                                  << "tool0:1,-2,3,0.4,-0.5,0.6");
    const QString why = mismatch(toVector(j["tau"]), expected, 1e-10);
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }

  // --wrench: a force in world axes at a point of a link, and a moment (issue 25). id gives
  // ID - J^T f with J the body's world Jacobian and f the wrench at the world origin, and the J^T f it
  // took off (external_tau); fd with that tau and the same wrench gives qdd back. On the floating
  // humanoid, whose free base the push also moves.
  void worldWrenchAtAPoint() {
    const dyn::Model m = load("humanoid.urdf", true);
    std::mt19937 rng(8);
    const Eigen::VectorXd q = dyn::randomConfiguration(m, rng), qd = randomVector(m.nv, rng),
                          qdd = randomVector(m.nv, rng);
    const int frame = m.frameIndex(m.bodyNames[3]);
    QVERIFY(frame >= 0 && m.frames[size_t(frame)].body == 3);
    dyn::Data d(m);
    const Eigen::VectorXd tau0 = dyn::rnea(m, d, q, qd, qdd);
    const Eigen::Vector3d point(0.05, -0.02, 0.1), force(3, -4, 5), moment(0.2, 0.1, -0.3);
    const Eigen::MatrixXd J = dyn::frameJacobian(m, d, q, frame, dyn::ReferenceFrame::World);  // FK at q first
    // The point is in the link's coordinates: the link frame sits on body 3 at its placement (the
    // body's own frame has its joint axis along z).
    const Eigen::Vector3d p = (m.frames[size_t(frame)].placement * d.X0[3]).pointToA(point);
    Eigen::Matrix<double, 6, 1> f;
    f << moment + p.cross(force), force;
    const Eigen::VectorXd JtF = J.transpose() * f;
    const QString spec = QString::fromStdString(m.bodyNames[3]) + ":3,-4,5,0.2,0.1,-0.3@0.05,-0.02,0.1";
    const QJsonObject j =
        runJson(modelArgs("id", "humanoid.urdf", true)
                << "--q" << joined(q) << "--qd" << joined(qd) << "--qdd" << joined(qdd) << "--wrench" << spec);
    QString why = mismatch(toVector(j["external_tau"]), JtF, 1e-10);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    why = mismatch(toVector(j["tau"]), tau0 - JtF, 1e-10);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QCOMPARE(j["fext"].toArray()[0].toObject()["axes"].toString(), QString("world"));
    const QJsonObject fd =
        runJson(modelArgs("fd", "humanoid.urdf", true) << "--q" << joined(q) << "--qd" << joined(qd) << "--tau"
                                                       << joined(toVector(j["tau"])) << "--wrench" << spec);
    why = mismatch(toVector(fd["qdd"]), qdd, 1e-8);
    QVERIFY2(why.isEmpty(), qPrintable(why));
  }

  void gravityOverride() {
    dyn::Model m = load("panda.urdf", false);
    m.gravity.v = Eigen::Vector3d(1.5, 0, -3);
    std::mt19937 rng(5);
    const Eigen::VectorXd q = dyn::randomConfiguration(m, rng);
    dyn::Data d(m);
    const QJsonObject j = runJson(modelArgs("bias", "panda.urdf", false) << "--q" << joined(q) << "--gravity"
                                                                         << "1.5,0,-3");
    COMPARE_NUMBERS(toVector(j["gravity"]), m.gravity.v);
    COMPARE_NUMBERS(toVector(j["gravity_vector"]), dyn::gravityVector(m, d, q));
    // Numbers as a person writes them, and still bit-exact: the shortest text that reads back.
    const Run r = runCli(modelArgs("info", "panda.urdf", false));
    QVERIFY2(r.out.contains("-9.81]") && !r.out.contains("9.8100000"), r.out.left(400).constData());
    QVERIFY(!r.out.contains("99999999") && !r.out.contains("00000001"));
    // (Bit-exact: dynamicsMatchEngine reads the echoed random inputs back.)
  }

  // id and fd over a CSV whose columns come in a shuffled order, each row against the engine.
  void trajectoryRoundTrip_data() { addRobotRows(); }
  void trajectoryRoundTrip() {
    QFETCH(QString, file);
    QFETCH(bool, floating);
    const dyn::Model m = load(file, floating);
    const std::vector<std::string> qn = dyn::configurationNames(m), vn = dyn::velocityNames(m);
    // Columns: qdd, then q reversed, t, qd, tau (any order is allowed).
    std::vector<std::string> header;
    for (const auto& n : vn) header.push_back("qdd_" + n);
    for (auto it = qn.rbegin(); it != qn.rend(); ++it) header.push_back(*it);
    header.push_back("t");
    for (const auto& n : vn) header.push_back("qd_" + n);
    for (const auto& n : vn) header.push_back("tau_" + n);
    std::ostringstream csv;
    for (size_t c = 0; c < header.size(); ++c) csv << (c ? "," : "") << header[c];
    csv << "\n";
    std::mt19937 rng(11);
    const int samples = 5;
    std::vector<Eigen::VectorXd> Q, QD, QDD, TAU;
    for (int k = 0; k < samples; ++k) {
      Q.push_back(dyn::randomConfiguration(m, rng));
      QD.push_back(randomVector(m.nv, rng));
      QDD.push_back(randomVector(m.nv, rng));
      TAU.push_back(randomVector(m.nv, rng));
      Eigen::VectorXd row(header.size());  // in header order
      row << QDD[k], Q[k].reverse(), 0.1 * k, QD[k], TAU[k];
      csv << "# comment lines are skipped\n" << joined(row).toStdString() << "\n";
    }
    QTemporaryDir dir;
    const std::string in = writeFile(dir, "in.csv", csv.str());
    const QString out = dir.filePath("out.csv");
    dyn::Data d(m);

    // id to a file
    Run r = runCli(modelArgs("id", file, floating) << "--trajectory" << QString::fromStdString(in) << "--out" << out);
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QStringList outHeader;
    auto rows = parseCsv(f.readAll(), &outHeader);
    QCOMPARE(outHeader.size(), m.nv + 1);
    QCOMPARE(outHeader[0], QString("t"));
    for (int i = 0; i < m.nv; ++i) QCOMPARE(outHeader[i + 1], QString::fromStdString("tau_" + vn[i]));
    QCOMPARE(int(rows.size()), samples);
    for (int k = 0; k < samples; ++k) {
      QCOMPARE(rows[k][0], 0.1 * k);
      const Eigen::VectorXd tau = Eigen::Map<Eigen::VectorXd>(rows[k].data() + 1, m.nv);
      COMPARE_NUMBERS(tau, dyn::rnea(m, d, Q[k], QD[k], QDD[k]));
    }

    // fd to stdout
    r = runCli(modelArgs("fd", file, floating) << "--trajectory" << QString::fromStdString(in));
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    outHeader.clear();
    rows = parseCsv(r.out, &outHeader);
    QCOMPARE(outHeader[1], QString::fromStdString("qdd_" + vn[0]));
    QCOMPARE(int(rows.size()), samples);
    for (int k = 0; k < samples; ++k) {
      const Eigen::VectorXd qdd = Eigen::Map<Eigen::VectorXd>(rows[k].data() + 1, m.nv);
      COMPARE_NUMBERS(qdd, dyn::aba(m, d, Q[k], QD[k], TAU[k]));
    }
  }

  // Without qd/qdd columns, id differentiates the cubic spline through q: close to the analytic
  // derivatives on every row, the first and last included.
  void trajectorySplineDerivatives() {
    const dyn::Model m = load("planar3.dh", false);
    std::ostringstream csv;
    csv << "t,j1,j2,j3\n";
    const double h = 1e-3;
    const int samples = 201;
    for (int k = 0; k < samples; ++k) {
      const double t = h * k;
      char buf[128];
      std::snprintf(buf, sizeof buf, "%.17g,%.17g,%.17g,%.17g\n", t, std::sin(t), 0.5 * t * t, std::cos(2 * t));
      csv << buf;
    }
    QTemporaryDir dir;
    const std::string in = writeFile(dir, "fd.csv", csv.str());
    const Run r = runCli({"id", robot("planar3.dh"), "--trajectory", QString::fromStdString(in)});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QVERIFY2(r.err.contains("cubic spline"), r.err.constData());  // the user is told
    QStringList header;
    const auto rows = parseCsv(r.out, &header);
    QCOMPARE(int(rows.size()), samples);
    dyn::Data d(m);
    for (int k = 0; k < samples; ++k) {
      const double t = h * k;
      const Eigen::Vector3d q(std::sin(t), 0.5 * t * t, std::cos(2 * t));
      const Eigen::Vector3d qd(std::cos(t), t, -2 * std::sin(2 * t));
      const Eigen::Vector3d qdd(-std::sin(t), 1, -4 * std::cos(2 * t));
      const Eigen::VectorXd tau = Eigen::Map<const Eigen::VectorXd>(rows[k].data() + 1, 3);
      const QString why = mismatch(tau, dyn::rnea(m, d, q, qd, qdd), 1e-4);
      QVERIFY2(why.isEmpty(), qPrintable(QString("row %1: ").arg(k) + why));
    }
  }

  // The spline across a floating base runs through dyn::difference: a base yawing at a(t) must give
  // the body rate (0, 0, a') and zero linear velocity.
  void trajectorySplineDerivativesOnQuaternions() {
    const dyn::Model m = load("quadruped.urdf", true);
    const std::vector<std::string> qn = dyn::configurationNames(m);
    QCOMPARE(QString::fromStdString(qn[6]), QString("root_joint_qw"));
    std::ostringstream csv;
    csv << "t";
    for (const auto& n : qn) csv << "," << n;
    csv << "\n";
    const double h = 1e-3;
    const int samples = 101;
    auto state = [&](double t, Eigen::VectorXd& q, Eigen::VectorXd& qd, Eigen::VectorXd& qdd) {
      const double a = 0.5 * t + 0.2 * t * t;
      q = m.neutral();
      qd = Eigen::VectorXd::Zero(m.nv);
      qdd = Eigen::VectorXd::Zero(m.nv);
      q[5] = std::sin(a / 2);
      q[6] = std::cos(a / 2);
      qd[2] = 0.5 + 0.4 * t;
      qdd[2] = 0.4;
      for (int k = 7; k < m.nq; ++k) {
        q[k] = 0.3 * std::sin(t + k);
        qd[k - 1] = 0.3 * std::cos(t + k);
        qdd[k - 1] = -0.3 * std::sin(t + k);
      }
    };
    Eigen::VectorXd q, qd, qdd;
    for (int k = 0; k < samples; ++k) {
      state(h * k, q, qd, qdd);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", h * k);
      csv << buf;
      for (int i = 0; i < m.nq; ++i) {
        std::snprintf(buf, sizeof buf, ",%.17g", q[i]);
        csv << buf;
      }
      csv << "\n";
    }
    QTemporaryDir dir;
    const std::string in = writeFile(dir, "base.csv", csv.str());
    const Run r =
        runCli({"id", robot("quadruped.urdf"), "--floating-base", "--trajectory", QString::fromStdString(in)});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QStringList header;
    const auto rows = parseCsv(r.out, &header);
    QCOMPARE(int(rows.size()), samples);
    dyn::Data d(m);
    for (int k = 0; k < samples; ++k) {
      state(h * k, q, qd, qdd);
      const Eigen::VectorXd tau = Eigen::Map<const Eigen::VectorXd>(rows[k].data() + 1, m.nv);
      const QString why = mismatch(tau, dyn::rnea(m, d, q, qd, qdd), 1e-4);
      QVERIFY2(why.isEmpty(), qPrintable(QString("row %1: ").arg(k) + why));
    }
  }

  // id --project: the robot, payload and gravity from the project, its waypoints (given by joint
  // name, in any order) interpolated and sampled at its rate; --decompose adds M q̈, c and g, each
  // checked against an independent engine computation (CRBA for M q̈).
  void idWithProject() {
    QTemporaryDir dir;
    const QString project = dir.filePath("arm.json");
    auto q = [](double j1, double j2, double j3, double j4, double j5, double j6) {
      return QJsonObject{{"j6", j6}, {"j5", j5}, {"j4", j4}, {"j3", j3}, {"j2", j2}, {"j1", j1}};
    };
    const QJsonObject json{
        {"format", "dynscope-project"},
        {"version", 1},
        {"robot", QJsonObject{{"path", QDir(dir.path()).relativeFilePath(robot("stanford_arm.dh"))}}},
        {"gravity", QJsonArray{0.5, 0, -9.7}},
        {"payload", QJsonObject{{"link", "tool"}, {"mass", 1.5}, {"com", QJsonArray{0, 0.02, 0.1}}}},
        {"trajectory",
         QJsonObject{{"source", "waypoints"},
                     {"interpolation", "cubic-spline"},
                     {"sample_rate", 40},
                     {"waypoints", QJsonArray{QJsonObject{{"t", 0}, {"q", q(0, 1.5, 0, 0, 0, 0)}},
                                              QJsonObject{{"t", 0.6}, {"q", q(0.4, 1.1, 0.05, -0.3, 0.7, 0.2)}},
                                              QJsonObject{{"t", 1.5}, {"q", q(-0.2, 0.9, 0.1, 0.3, 0.1, -0.5)}}}}}}};
    const QByteArray text = QJsonDocument(json).toJson();
    {
      QFile f(project);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text);
    }
    dyn::Model m = load("stanford_arm.dh", false);
    m.gravity.v = Eigen::Vector3d(0.5, 0, -9.7);
    m = dyn::withPayload(m, {.link = "tool", .mass = 1.5, .com = Eigen::Vector3d(0, 0.02, 0.1)});
    Eigen::VectorXd q0(6), q1(6), q2(6);  // in the model's order j1..j6
    q0 << 0, 1.5, 0, 0, 0, 0;
    q1 << 0.4, 1.1, 0.05, -0.3, 0.7, 0.2;
    q2 << -0.2, 0.9, 0.1, 0.3, 0.1, -0.5;
    const dyn::SampledTrajectory s =
        dyn::WaypointTrajectory(m, {{0, q0}, {0.6, q1}, {1.5, q2}}, dyn::Interpolation::CubicSpline).sample(40);
    QCOMPARE(s.samples(), 61);

    const QString out = dir.filePath("tau.csv");
    Run r = runCli({"id", "--project", project, "--decompose", "--out", out});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());  // no progress text unless asked or on a terminal
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray written = f.readAll();
    QStringList header;
    const auto rows = parseCsv(written, &header);
    QCOMPARE(header.size(), 1 + 4 * 6);
    QCOMPARE(header[1], QString("tau_j1"));
    QCOMPARE(header[7], QString("inertial_j1"));
    QCOMPARE(header[13], QString("coriolis_j1"));
    QCOMPARE(header[24], QString("gravity_j6"));
    QCOMPARE(int(rows.size()), s.samples());
    dyn::Data d(m);
    for (int k = 0; k < s.samples(); ++k) {
      QCOMPARE(rows[k][0], s.t[k]);
      const Eigen::VectorXd q = s.q.col(k), qd = s.qd.col(k), qdd = s.qdd.col(k);
      auto block = [&](int b) { return Eigen::Map<const Eigen::VectorXd>(rows[k].data() + 1 + 6 * b, 6); };
      const Eigen::VectorXd tau = dyn::rnea(m, d, q, qd, qdd);
      COMPARE_NUMBERS(block(0), tau);
      const Eigen::MatrixXd M = dyn::crba(m, d, q);
      QVERIFY(mismatch(block(1), M * qdd, 1e-10).isEmpty());
      COMPARE_NUMBERS(block(3), dyn::gravityVector(m, d, q));
      COMPARE_NUMBERS(Eigen::VectorXd(block(2) + block(3)), dyn::nonLinearEffects(m, d, q, qd));
      COMPARE_NUMBERS(Eigen::VectorXd(block(1) + block(2) + block(3)), tau);
    }
    // The same with MODEL given explicitly, and to stdout.
    r = runCli({"id", robot("stanford_arm.dh"), "--project", project, "--decompose"});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QCOMPARE(r.out, written);
    // --progress draws on stderr, the CSV stays clean.
    r = runCli({"id", "--project", project, "--progress"});
    QVERIFY2(r.err.contains("100% (61/61 samples)"), r.err.constData());
    QVERIFY(!r.out.contains('%'));
  }

  // trajectory --demo writes Saha's cycloids (t, q, qd_, qdd_); id reads them back and gives τ = RNEA
  // at every sample. trajectory --project samples the project's waypoints.
  void trajectoryCommand() {
    const dyn::Model m = load("stanford_arm.dh", false);
    QTemporaryDir dir;
    const QString csv = dir.filePath("saha.csv");
    Run r = runCli({"trajectory", robot("stanford_arm.dh"), "--demo", "saha-stanford", "--rate", "20", "--out", csv});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QStringList header;
    const auto rows = parseCsv(f.readAll(), &header);
    QCOMPARE(header.size(), 1 + 3 * 6);
    QCOMPARE(header[7], QString("qd_j1"));
    QCOMPARE(header[13], QString("qdd_j1"));
    const dyn::SampledTrajectory s = dyn::demoTrajectory(m, dyn::DemoTrajectory::SahaStanford, 20);
    QCOMPARE(int(rows.size()), 201);
    for (int k = 0; k < s.samples(); ++k) {
      Eigen::VectorXd expected(19);
      expected << s.t[k], s.q.col(k), s.qd.col(k), s.qdd.col(k);
      COMPARE_NUMBERS(Eigen::Map<const Eigen::VectorXd>(rows[k].data(), 19), expected);
    }
    r = runCli({"id", robot("stanford_arm.dh"), "--trajectory", csv});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    header.clear();
    const auto tau = parseCsv(r.out, &header);
    dyn::Data d(m);
    for (int k = 0; k < s.samples(); ++k)
      COMPARE_NUMBERS(Eigen::Map<const Eigen::VectorXd>(tau[k].data() + 1, 6),
                      dyn::rnea(m, d, s.q.col(k), s.qd.col(k), s.qdd.col(k)));

    // A project with quintic waypoints, resampled with --rate.
    const QString project = dir.filePath("p.json");
    QFile p(project);
    QVERIFY(p.open(QIODevice::WriteOnly));
    const QJsonObject zero{{"j1", 0}, {"j2", 0}, {"j3", 0}}, end{{"j1", 1}, {"j2", -1}, {"j3", 3}};
    p.write(QJsonDocument(
                QJsonObject{{"format", "dynscope-project"},
                            {"version", 1},
                            {"robot", QJsonObject{{"path", robot("planar3.dh")}}},
                            {"trajectory", QJsonObject{{"source", "waypoints"},
                                                       {"sample_rate", 1000},
                                                       {"waypoints", QJsonArray{QJsonObject{{"t", 0}, {"q", zero}},
                                                                                QJsonObject{{"t", 2}, {"q", end}}}}}}})
                .toJson());
    p.close();
    r = runCli({"trajectory", "--project", project, "--rate", "10"});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    header.clear();
    const auto sampled = parseCsv(r.out, &header);
    QCOMPARE(int(sampled.size()), 21);
    for (int k = 0; k <= 20; ++k) {  // closed form: q = s(t) (1, -1, 3), s the quintic
      const dyn::ScalingSample sc = dyn::quinticScaling(0.1 * k, 2);
      Eigen::VectorXd expected(10);
      expected << 0.1 * k, sc.s, -sc.s, 3 * sc.s, sc.sd, -sc.sd, 3 * sc.sd, sc.sdd, -sc.sdd, 3 * sc.sdd;
      COMPARE_NUMBERS(Eigen::Map<const Eigen::VectorXd>(sampled[k].data(), 10), expected);
    }
  }

  void malformedProjectNamesFileLineAndKey() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "bad.json",
                                       "{\"format\": \"dynscope-project\", \"version\": 1,\n"
                                       "  \"robot\": {\"path\": \"x.urdf\",\n"
                                       "             \"floating_base\": \"yes\"}}\n");
    const Run r = runCli({"id", "--project", QString::fromStdString(path)});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("bad.json:3: robot.floating_base: expected true or false"), r.err.constData());
  }

  void usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("fragment");  // the message must contain it
    const QString ur5 = robot("ur5.urdf");
    QTest::newRow("unknown command") << QStringList{"dance", ur5} << 2 << "unknown command 'dance'";
    QTest::newRow("no command") << QStringList{} << 2 << "no command";
    QTest::newRow("no model") << QStringList{"fk"} << 2 << "MODEL";
    QTest::newRow("wrong q size") << QStringList{"fk", ur5, "--q", "1,2,3,4,5"} << 2 << "nq = 6";
    QTest::newRow("wrong qd size") << QStringList{"id", ur5, "--qd", "1"} << 2 << "nv = 6";
    QTest::newRow("not a number") << QStringList{"fk", ur5, "--q", "1,2,x,4,5,6"} << 2 << "'x' is not a number";
    QTest::newRow("nan") << QStringList{"fk", ur5, "--q", "1,2,nan,4,5,6"} << 2 << "finite";
    QTest::newRow("inf") << QStringList{"fk", ur5, "--q", "1,2,inf,4,5,6"} << 2 << "finite";
    QTest::newRow("missing value") << QStringList{"fk", ur5, "--q"} << 2 << "--q needs a value";
    QTest::newRow("unknown option") << QStringList{"fk", ur5, "--frobnicate"} << 2 << "--frobnicate";
    QTest::newRow("option of another command") << QStringList{"mass", ur5, "--tau", "1"} << 2 << "--tau";
    QTest::newRow("unknown link") << QStringList{"jacobian", ur5, "--link", "tool1"} << 2 << "tool0";
    QTest::newRow("bad frame") << QStringList{"jacobian", ur5, "--frame", "body"} << 2 << "--frame";
    QTest::newRow("bad fext") << QStringList{"id", ur5, "--fext", "tool0:1,2"} << 2 << "needs 6";
    QTest::newRow("bad wrench") << QStringList{"id", ur5, "--wrench", "tool0:1,2,3"} << 2 << "needs 6";
    QTest::newRow("bad wrench point") << QStringList{"id", ur5, "--wrench", "tool0:1,2,3,4,5,6@1,2"} << 2
                                      << "needs 3 values";
    QTest::newRow("wrench on an unknown link")
        << QStringList{"fd", ur5, "--wrench", "hand:1,2,3,4,5,6"} << 2 << "unknown link 'hand'";
    QTest::newRow("wrench along a trajectory")
        << QStringList{"id", ur5, "--trajectory", "in.csv", "--wrench", "tool0:1,2,3,4,5,6"} << 2 << "--fext";
    QTest::newRow("wrench with another algorithm")
        << QStringList{"fd", ur5, "--algorithm", "denoc", "--wrench", "tool0:1,2,3,4,5,6"} << 2 << "aba and crba";
    QTest::newRow("missing file") << QStringList{"info", "/nonexistent/robot.urdf"} << 1 << "robot.urdf";
    QTest::newRow("missing csv") << QStringList{"id", ur5, "--trajectory", "/nonexistent/in.csv"} << 1 << "in.csv";
    const QString stanford = robot("stanford_arm.dh");
    QTest::newRow("trajectory without source") << QStringList{"trajectory", stanford} << 2 << "exactly one of";
    QTest::newRow("trajectory with two sources")
        << QStringList{"trajectory", stanford, "--demo", "saha-stanford", "--project", "p.json"} << 2
        << "exactly one of";
    QTest::newRow("demo without model") << QStringList{"trajectory", "--demo", "saha-stanford"} << 2 << "MODEL";
    QTest::newRow("unknown demo") << QStringList{"trajectory", stanford, "--demo", "kuka"} << 2 << "--demo must be";
    QTest::newRow("demo on the wrong arm")
        << QStringList{"trajectory", ur5, "--demo", "saha-stanford"} << 1 << "joint 3 ('elbow_joint') to be prismatic";
    QTest::newRow("zero rate") << QStringList{"trajectory", stanford, "--demo", "saha-stanford", "--rate", "0"} << 2
                               << "--rate";
    QTest::newRow("decompose without trajectory") << QStringList{"id", ur5, "--decompose"} << 2 << "--decompose";
    QTest::newRow("decompose with fext") << QStringList{"id",          ur5,      "--trajectory",     "in.csv",
                                                        "--decompose", "--fext", "tool0:1,2,3,4,5,6"}
                                         << 2 << "--fext";
    QTest::newRow("project for fd") << QStringList{"fd", ur5, "--project", "p.json"} << 2
                                    << "--project is not an option of fd";
    QTest::newRow("missing project") << QStringList{"id", "--project", "/nonexistent/p.json"} << 1
                                     << "/nonexistent/p.json: cannot open";
  }
  void usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, fragment);
    const Run r = runCli(args);
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, status);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.startsWith("dynscope-cli: error: "), r.err.constData());
    QVERIFY2(QString(r.err).contains(fragment), r.err.constData());
  }

  void malformedUrdfNamesFileAndLine() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "broken.urdf",
                                       "<robot name=\"b\">\n  <link name=\"a\"/>\n"
                                       "  <joint name=\"j\" type=\"revolute\">\n    <parent link=\"a\"/>\n"
                                       "    <child link=\"missing\"/>\n  </joint>\n</robot>\n");
    const Run r = runCli({"info", QString::fromStdString(path)});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("broken.urdf:3:"), r.err.constData());  // the <joint> line
    QVERIFY2(r.err.contains("missing"), r.err.constData());
  }

  // A joint moving no mass makes H singular: fd refuses and names the joint; id still works.
  void singularInertiaNamesTheJoint() {
    QTemporaryDir dir;
    const std::string path =
        writeFile(dir, "massless.urdf",
                  "<robot name=\"m\">\n  <link name=\"base\"/>\n"
                  "  <link name=\"arm\"><inertial><mass value=\"1\"/><origin xyz=\"0.5 0 0\"/>"
                  "<inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
                  "  <link name=\"finger\"/>\n"
                  "  <joint name=\"shoulder\" type=\"continuous\"><parent link=\"base\"/><child link=\"arm\"/>"
                  "<axis xyz=\"0 0 1\"/></joint>\n"
                  "  <joint name=\"finger_joint\" type=\"continuous\"><parent link=\"arm\"/><child link=\"finger\"/>"
                  "<axis xyz=\"0 0 1\"/></joint>\n</robot>\n");
    Run r = runCli({"fd", QString::fromStdString(path)});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("finger_joint") && r.err.contains("singular"), r.err.constData());
    r = runCli({"id", QString::fromStdString(path), "--qdd", "1,1"});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.err.contains("warning") && r.err.contains("finger_joint"), r.err.constData());
  }

  void malformedCsvNamesFileAndLine() {
    QTemporaryDir dir;
    const std::string badNumber = writeFile(dir, "bad.csv", "t,j1,j2,j3\n0,0,0,0\n0.1,0,zero,0\n");
    Run r = runCli({"id", robot("planar3.dh"), "--trajectory", QString::fromStdString(badNumber)});
    QVERIFY(!r.crashed);
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("bad.csv:3:") && r.err.contains("zero"), r.err.constData());
    const std::string shortRow = writeFile(dir, "short.csv", "t,j1,j2,j3\n0,0,0,0\n0.1,0,0\n");
    r = runCli({"id", robot("planar3.dh"), "--trajectory", QString::fromStdString(shortRow)});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("short.csv:3:"), r.err.constData());
    const std::string missing = writeFile(dir, "missing.csv", "t,j1,j3\n0,0,0\n0.1,0,0\n");
    r = runCli({"id", robot("planar3.dh"), "--trajectory", QString::fromStdString(missing)});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("missing.csv:1:") && r.err.contains("j2"), r.err.constData());
  }

  void helpAndVersion() {
    for (const QStringList& args : {QStringList{"--help"}, QStringList{"--version"}, QStringList{"fd", "--help"}}) {
      const Run r = runCli(args);
      QVERIFY(!r.crashed);
      QCOMPARE(r.status, 0);
      QVERIFY(!r.out.isEmpty());
    }
    QVERIFY(runCli({"jacobian", "--help"}).out.contains("--frame"));
    QVERIFY(runCli({"trajectory", "--help"}).out.contains("--demo"));
    QVERIFY(runCli({"id", "--help"}).out.contains("--decompose"));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
