// dynscope-cli on models with mimic joints: info names the independent coordinates and who follows
// whom; id, mass, bias and fd take and print the independent coordinates, equal to the engine's reduced
// algorithms and to G^T (full result) with a dense G; --no-mimic keeps every joint free; --q (and
// --qd, --qdd, --tau) may give every joint's values or the independent ones, and q_given says which.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include "dynscope/dynscope.hpp"
#include "dynscope/ik/ik_solver.hpp"
#include "dynscope/model/mimic_coupling.hpp"
#include "run_cli.hpp"

using dyn::testing::CliRun;
using dyn::testing::runCli;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

QString data(const char* name) { return QString(DYNSCOPE_TEST_DATA_DIR) + "/mimic/" + name; }

QJsonObject json(const CliRun& r) { return QJsonDocument::fromJson(r.out).object(); }

VectorXd vec(const QJsonValue& v) {
  const QJsonArray a = v.toArray();
  VectorXd x(a.size());
  for (int i = 0; i < a.size(); ++i) x[i] = a[i].toDouble();
  return x;
}
MatrixXd mat(const QJsonValue& v) {
  const QJsonArray rows = v.toArray();
  MatrixXd m(rows.size(), rows.size());
  for (int i = 0; i < rows.size(); ++i) m.row(i) = vec(rows[i]).transpose();
  return m;
}

}  // namespace

class TestMimicCli : public QObject {
  Q_OBJECT
 private slots:
  void infoNamesTheIndependentCoordinates() {
    const CliRun r = runCli({"info", data("four_finger_hand.urdf")});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    const QJsonObject j = json(r);
    QCOMPARE(j["coordinates"].toString(), QString("independent"));
    QCOMPARE(j["nv_independent"].toInt(), 5);
    QCOMPARE(j["independent_v_names"].toArray().first().toString(), QString("wrist"));
    // One name for the independent coordinates: the masters; the loops' "independent" (which would
    // list the followers too) only in models with loops.
    QVERIFY(!j.contains("independent") && !j.contains("dependent"));
    QCOMPARE(j["independent_q_names"].toArray().size(), 5);
    const QJsonArray followers = j["followers"].toArray();
    QCOMPARE(followers.size(), 8);
    for (const QJsonValue& f : followers)
      if (f["joint"].toString() == "f2_distal_joint") {
        QCOMPARE(f["follows"].toString(), QString("f2_proximal_joint"));  // through f2_middle_joint
        QVERIFY(std::abs(f["multiplier"].toDouble() - 0.5) < 1e-15);      // 0.5 * (0.8 + 0.2)
        QCOMPARE(f["offset"].toDouble(), 0.05);
      }
    const CliRun full = runCli({"info", data("four_finger_hand.urdf"), "--no-mimic"});
    QCOMPARE(json(full)["coordinates"].toString(), QString("full"));
    QVERIFY(!json(full).contains("followers"));
  }

  void dynamicsOnTheIndependentCoordinates() {
    const dyn::Model model = dyn::loadModel(data("parallel_gripper.urdf").toStdString());
    const dyn::MimicCoupling c = dyn::mimicCoupling(model);
    const MatrixXd G = c.denseG();
    const QString file = data("parallel_gripper.urdf");
    // mass: G^T H_full G, H_full from --no-mimic at the expanded q.
    const CliRun m = runCli({"mass", file, "--q", "0.3,0.012"});
    QVERIFY2(m.status == 0, m.err.constData());
    const VectorXd qFull = vec(json(m)["q_full"]);
    QVERIFY(std::abs(qFull[2] - (-0.012 + 0.01)) < 1e-15);
    QStringList qArg;
    for (double x : qFull) qArg << QString::number(x, 'g', 17);
    const CliRun mFull = runCli({"mass", file, "--no-mimic", "--q", qArg.join(',')});
    QVERIFY2(mFull.status == 0, mFull.err.constData());
    const MatrixXd H = mat(json(mFull)["mass_matrix"]);
    QCOMPARE(H.rows(), 3);
    QVERIFY((G.transpose() * H * G - mat(json(m)["mass_matrix"])).cwiseAbs().maxCoeff() < 1e-14);
    // id: tau_y = G^T tau_full (the full run at G qd, G qdd).
    const CliRun id = runCli({"id", file, "--q", "0.3,0.012", "--qd", "0.5,-0.2", "--qdd", "1.5,0.3"});
    QVERIFY2(id.status == 0, id.err.constData());
    const CliRun idFull =
        runCli({"id", file, "--no-mimic", "--q", qArg.join(','), "--qd", "0.5,-0.2,0.2", "--qdd", "1.5,0.3,-0.3"});
    QVERIFY2(idFull.status == 0, idFull.err.constData());
    QVERIFY((G.transpose() * vec(json(idFull)["tau"]) - vec(json(id)["tau"])).cwiseAbs().maxCoeff() < 1e-13);
    // fd inverts id.
    const VectorXd tau = vec(json(id)["tau"]);
    const CliRun fd = runCli({"fd", file, "--q", "0.3,0.012", "--qd", "0.5,-0.2", "--tau",
                              QString("%1,%2").arg(tau[0], 0, 'g', 17).arg(tau[1], 0, 'g', 17)});
    QVERIFY2(fd.status == 0, fd.err.constData());
    QVERIFY((vec(json(fd)["qdd"]) - VectorXd((VectorXd(2) << 1.5, 0.3).finished())).cwiseAbs().maxCoeff() < 1e-9);
    QVERIFY(std::abs(vec(json(fd)["qdd_full"])[2] + vec(json(fd)["qdd"])[1]) < 1e-15);
    // bias: G^T C and G^T g.
    const CliRun bias = runCli({"bias", file, "--q", "0.3,0.012", "--qd", "0.5,-0.2"});
    const CliRun biasFull = runCli({"bias", file, "--no-mimic", "--q", qArg.join(','), "--qd", "0.5,-0.2,0.2"});
    QVERIFY2(bias.status == 0 && biasFull.status == 0, bias.err.constData());
    for (const char* key : {"nonlinear_effects", "gravity_vector"})
      QVERIFY((G.transpose() * vec(json(biasFull)[key]) - vec(json(bias)[key])).cwiseAbs().maxCoeff() < 1e-13);
  }

  // One rule for q everywhere: every joint's values or only the independent ones, and q_given says
  // which. A full q for id gives the independent run's tau (the follower's value from its master, a
  // note when it differed); a full tau for fd is reduced by G^T; an independent q for fk is expanded.
  void bothLengthsOfQAreAccepted() {
    const QString file = data("parallel_gripper.urdf");
    const dyn::Model model = dyn::loadModel(file.toStdString());
    const dyn::MimicCoupling c = dyn::mimicCoupling(model);
    const CliRun y = runCli({"id", file, "--q", "0.3,0.012", "--qd", "0.5,-0.2", "--qdd", "1.5,0.3"});
    const CliRun all = runCli({"id", file, "--q", "0.3,0.012,-0.002", "--qd", "0.5,-0.2,0.2", "--qdd", "1.5,0.3,-0.3"});
    QVERIFY2(y.status == 0 && all.status == 0, all.err.constData());
    QCOMPARE(json(y)["q_given"].toString(), QString("independent"));
    QCOMPARE(json(all)["q_given"].toString(), QString("all joints"));
    QVERIFY(!all.err.contains("replaced"));
    QVERIFY((vec(json(all)["tau"]) - vec(json(y)["tau"])).cwiseAbs().maxCoeff() < 1e-14);
    const CliRun off = runCli({"id", file, "--q", "0.3,0.012,0.5"});  // a follower value that breaks the relation
    QCOMPARE(off.status, 0);
    QVERIFY2(off.err.contains("replaced by what their masters give them"), off.err.constData());
    QVERIFY(std::abs(vec(json(off)["q_full"])[2] - (-0.012 + 0.01)) < 1e-15);
    // fd with every joint's tau: tau_y = G^T tau.
    const VectorXd tauFull = (VectorXd(3) << 0.7, 2.0, -1.0).finished();
    const VectorXd tauY = c.denseG().transpose() * tauFull;
    const CliRun fdAll = runCli({"fd", file, "--q", "0.3,0.012", "--tau", "0.7,2,-1"});
    const CliRun fdY = runCli(
        {"fd", file, "--q", "0.3,0.012", "--tau", QString("%1,%2").arg(tauY[0], 0, 'g', 17).arg(tauY[1], 0, 'g', 17)});
    QVERIFY2(fdAll.status == 0 && fdY.status == 0, fdAll.err.constData());
    QVERIFY((vec(json(fdAll)["qdd"]) - vec(json(fdY)["qdd"])).cwiseAbs().maxCoeff() < 1e-12);
    // fk and energy with the independent q: the same as with the expanded one.
    const CliRun fkY = runCli({"fk", file, "--q", "0.3,0.012"});
    const QString follower = QString::number(-0.012 + 0.01, 'g', 17);  // as the relation gives it
    const CliRun fkAll = runCli({"fk", file, "--q", "0.3,0.012," + follower});
    QVERIFY2(fkY.status == 0 && fkAll.status == 0, fkY.err.constData());
    QCOMPARE(json(fkY)["frames"], json(fkAll)["frames"]);
    const CliRun eY = runCli({"energy", file, "--q", "0.3,0.012", "--qd", "0.5,-0.2"});
    const CliRun eAll = runCli({"energy", file, "--q", "0.3,0.012," + follower, "--qd", "0.5,-0.2,0.2"});
    QVERIFY2(eY.status == 0 && eAll.status == 0, eY.err.constData());
    QCOMPARE(json(eY)["total"].toDouble(), json(eAll)["total"].toDouble());
    // Any other length: a usage error naming both.
    const CliRun r = runCli({"id", file, "--q", "0,0,0,0"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("2 independent q entries") && r.err.contains("wrist, left_finger_joint") &&
                 r.err.contains("every joint's"),
             r.err.constData());
    // Commands that do not enforce the relations say so.
    const CliRun fk = runCli({"fk", data("parallel_gripper.urdf")});
    QCOMPARE(fk.status, 0);
    QVERIFY2(fk.err.contains("does not enforce them"), fk.err.constData());
    QVERIFY(!runCli({"fk", data("parallel_gripper.urdf"), "--no-mimic"}).err.contains("mimic"));
  }

  // ik and simulate keep the relations on all joints' coordinates (and say so); --no-mimic frees them.
  void ikAndSimulateKeepTheRelations() {
    const QString file = data("four_finger_hand.urdf");
    const dyn::Model m = dyn::loadModel(file.toStdString());
    const auto relationError = [&](const QJsonArray& q) {
      double worst = 0;
      for (const dyn::MimicInfo& mi : m.mimics)
        worst =
            std::max(worst, std::abs(q[m.joints[size_t(mi.joint)].idx_q].toDouble() -
                                     (mi.multiplier * q[m.joints[size_t(mi.mimicked)].idx_q].toDouble() + mi.offset)));
      return worst;
    };
    // A reachable target: where a configuration on the relations puts the fingertip.
    const dyn::MimicCoupling c = dyn::mimicCoupling(m);
    Eigen::VectorXd qGoal(m.nq);
    dyn::expandPositions(c, Eigen::VectorXd::Constant(c.nqy, 0.3), qGoal);
    dyn::IkSolver probe(m);
    const Eigen::Vector3d p = probe.framePose(m.frameIndex("f1_distal"), qGoal).translation();
    const QStringList target{"--target",
                             QString("%1,%2,%3").arg(p.x(), 0, 'g', 17).arg(p.y(), 0, 'g', 17).arg(p.z(), 0, 'g', 17),
                             "--link", "f1_distal"};
    const CliRun ik = runCli(QStringList{"ik", file} + target);
    QCOMPARE(ik.status, 0);
    QVERIFY2(ik.err.contains("keeps the relations"), ik.err.constData());
    QVERIFY(relationError(json(ik)["q"].toArray()) < 1e-12);
    const CliRun ikFree = runCli(QStringList{"ik", file, "--no-mimic"} + target);
    QCOMPARE(ikFree.status, 0);
    QVERIFY(relationError(json(ikFree)["q"].toArray()) > 1e-6);
    // simulate: CSV rows t, q..., the followers on the relations at every row.
    const CliRun sim = runCli({"simulate", file, "--duration", "0.2", "--integrator", "rk4"});
    QCOMPARE(sim.status, 0);
    const QList<QByteArray> rows = sim.out.trimmed().split('\n');
    QVERIFY(rows.size() > 100);
    double worst = 0;
    for (int k = 1; k < rows.size(); ++k) {
      const QList<QByteArray> cells = rows[k].split(',');
      QJsonArray q;
      for (int i = 0; i < m.nq; ++i) q.append(cells[1 + i].toDouble());
      worst = std::max(worst, relationError(q));
    }
    QVERIFY2(worst < 1e-12, qPrintable(QString::number(worst)));
  }
};

QTEST_GUILESS_MAIN(TestMimicCli)
#include "test_mimic_cli.moc"
