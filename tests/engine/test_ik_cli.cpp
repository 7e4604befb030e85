// dynscope-cli ik end to end: the printed q puts the link at the target (checked with the
// engine's forward kinematics), pins and locks are honoured, and mistakes are usage errors.
#include <Eigen/Geometry>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>
#include <cstdio>
#include <random>

#include "cli_json.hpp"
#include "dynscope/dynscope.hpp"

using dyn::testing::joined;

namespace {

struct Run {
  int status = -1;
  QJsonObject json;
  QByteArray err;
};

Run runCli(const QStringList& args) {
  QProcess p;
  p.start(DYNSCOPE_CLI, args);
  Run r;
  if (!p.waitForStarted(10000) || !p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) return r;
  r.status = p.exitCode();
  r.json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
  r.err = p.readAllStandardError();
  return r;
}

QString robot(const char* file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

Eigen::VectorXd toVector(const QJsonValue& value) {
  const QJsonArray a = value.toArray();
  Eigen::VectorXd v(a.size());
  for (int k = 0; k < a.size(); ++k) v[k] = a[k].toDouble(std::nan(""));
  return v;
}

dyn::Transform<double> poseAt(const dyn::Model& model, const Eigen::VectorXd& q, int frame) {
  dyn::Data data(model);
  dyn::forwardKinematics(model, data, q);
  dyn::updateFrames(model, data);
  return data.oMf[frame];
}

}  // namespace

class TestIkCli : public QObject {
  Q_OBJECT

 private slots:
  void fullPoseTargets() {
    const dyn::Model model = dyn::loadModel(robot("ur5.urdf").toStdString());
    const int frame = model.frameIndex(model.defaultEndEffector);
    std::mt19937 rng(8);
    for (int c = 0; c < 5; ++c) {
      const dyn::Transform<double> X = poseAt(model, dyn::randomConfiguration(model, rng), frame);
      Eigen::VectorXd target(7);
      target << X.translation(), dyn::matrixToQuaternion<double>(X.rotation());
      const Run r = runCli({"ik", robot("ur5.urdf"), "--target", joined(target)});
      QCOMPARE(r.status, 0);
      QVERIFY(r.json["converged"].toBool());
      const Eigen::VectorXd q = toVector(r.json["q"]);
      QCOMPARE(int(q.size()), model.nq);
      const dyn::Transform<double> Y = poseAt(model, q, frame);
      QVERIFY((Y.translation() - X.translation()).norm() < 1e-9);
      QVERIFY(Eigen::AngleAxisd(X.rotation().transpose() * Y.rotation()).angle() < 1e-9);
      QVERIFY(r.json["residual"].toObject()["position"].toDouble() < 1e-9);
    }
  }

  // Position only, a pinned link and a locked joint on the panda.
  void pinsLocksPositionOnly() {
    const dyn::Model model = dyn::loadModel(robot("panda.urdf").toStdString());
    const int frame = model.frameIndex(model.defaultEndEffector), pin = model.frameIndex("panda_link2");
    Eigen::VectorXd q0(7);
    q0 << 0.1, -0.3, 0.2, -2.0, 0.1, 1.8, 0.5;
    Eigen::VectorXd qt = q0;
    qt.tail<4>() += Eigen::Vector4d(0.2, -0.2, 0.1, 0.0);  // reachable with joints 1-3 and 7 still
    const Eigen::Vector3d p = poseAt(model, qt, frame).translation();
    const Run r = runCli({"ik", robot("panda.urdf"), "--target", joined(p), "--q0", joined(q0), "--pin", "panda_link2",
                          "--lock", "panda_joint7", "--position-only"});
    QCOMPARE(r.status, 0);
    QVERIFY(r.json["converged"].toBool());
    QVERIFY(r.json["position_only"].toBool());
    const Eigen::VectorXd q = toVector(r.json["q"]);
    QVERIFY((poseAt(model, q, frame).translation() - p).norm() < 1e-9);
    QCOMPARE(q[6], q0[6]);
    const dyn::Transform<double> P0 = poseAt(model, q0, pin), P = poseAt(model, q, pin);
    QVERIFY((P0.translation() - P.translation()).norm() < 1e-9);
    QVERIFY(Eigen::AngleAxisd(P0.rotation().transpose() * P.rotation()).angle() < 1e-9);
  }

  void usageErrors() {
    QCOMPARE(runCli({"ik", robot("panda.urdf")}).status, 2);                                   // no --target
    QCOMPARE(runCli({"ik", robot("panda.urdf"), "--target", "1,2"}).status, 2);                // 2 values
    QCOMPARE(runCli({"ik", robot("panda.urdf"), "--target", "0.3,0,0.5,0,0,0,0"}).status, 2);  // zero quaternion
    const Run lock = runCli({"ik", robot("panda.urdf"), "--target", "0.3,0,0.5", "--lock", "elbow"});
    QCOMPARE(lock.status, 2);
    QVERIFY(lock.err.contains("elbow"));
    QCOMPARE(runCli({"ik", robot("panda.urdf"), "--target", "0.3,0,0.5", "--pin", "nolink"}).status, 2);
    QCOMPARE(runCli({"ik", robot("panda.urdf"), "--target", "0.3,0,0.5", "--q0", "1,2"}).status, 2);
    // out of reach: not an error, converged false, finite q
    const Run far = runCli({"ik", robot("panda.urdf"), "--target", "5,0,0"});
    QCOMPARE(far.status, 0);
    QVERIFY(!far.json["converged"].toBool());
    QVERIFY(!far.json["reachable"].toBool());
    QVERIFY(toVector(far.json["q"]).allFinite());
  }
};

QTEST_APPLESS_MAIN(TestIkCli)
#include "test_ik_cli.moc"
