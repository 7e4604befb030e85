// dynscope-cli on closed-loop mechanisms (docs/loops.md): info lists the loops, the actuated,
// independent and dependent coordinates; fd --loop-method 1|2|3|global prints what the engine computes
// and the methods agree; id gives the actuator torques of closed-loop inverse dynamics; assemble
// closes the loops around held coordinates; simulate adds phi_norm and phi_dot_norm; mistakes are
// refused with messages that name the option or the loop joint.
#include <QtTest>
#include <random>

#include "cli_json.hpp"
#include "csv_rows.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/loops/loop_forward_dynamics.hpp"
#include "loop_states.hpp"

using dyn::testing::joined;
using dyn::testing::robotPath;
using dyn::testing::runCli;
using dyn::testing::runJson;
using dyn::testing::toVector;
using Eigen::VectorXd;

namespace {

QStringList names(const QJsonValue& v) {
  QStringList out;
  for (const QJsonValue& x : v.toArray()) out << x.toString();
  return out;
}

}  // namespace

class TestLoopCli : public QObject {
  Q_OBJECT

 private slots:
  void infoListsLoopsAndCoordinates() {
    const QJsonObject o = runJson({"info", robotPath("fourbar.urdf")});
    const QJsonArray loops = o["loops"].toArray();
    QCOMPARE(loops.size(), 1);
    QCOMPARE(loops[0].toObject()["name"].toString(), QString("coupler_rocker_joint"));
    QCOMPARE(names(o["actuated"]), QStringList{"crank_joint"});
    QCOMPARE(names(o["independent"]), QStringList{"crank_joint"});
    QCOMPARE(names(o["dependent"]), (QStringList{"coupler_joint", "rocker_joint"}));
    const QJsonObject delta = runJson({"info", robotPath("delta.urdf")});
    QCOMPARE(delta["loops"].toArray().size(), 3);
    QCOMPARE(names(o["cut_joints"]), QStringList{});  // a <loop_joint>: nothing cut
  }

  // The joints cut from a file's cycles, as the files' headers say: the slider-crank's piston pin,
  // and each delta leg's last joint onto the plate (the plate hangs from the base by its floating joint).
  void infoListsCutJoints() {
    QCOMPARE(names(runJson({"info", robotPath("slider_crank.urdf")})["cut_joints"]), QStringList{"piston_pin"});
    const QJsonObject delta = runJson({"info", robotPath("delta.urdf")});
    QCOMPARE(names(delta["cut_joints"]), (QStringList{"wrist1_u", "wrist2_u", "wrist3_u"}));
    for (const QJsonValue& l : delta["loops"].toArray()) {
      QVERIFY(l.toObject()["cut"].toBool());
      QVERIFY(l.toObject()["line"].toInt() > 0);
      QCOMPARE(l.toObject()["link2"].toString(), QString("plate"));
    }
  }

  // ik on the delta robot: the plate reaches the target through the motors, the loops closed.
  void ikMovesTheMechanism() {
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    const Eigen::Vector3d target(0.1, 0.05, -1.1);
    const QJsonObject o = runJson({"ik", robotPath("delta.urdf"), "--link", "plate", "--target", "0.1,0.05,-1.1"});
    QVERIFY(o["converged"].toBool());
    const VectorXd q = toVector(o["q"]);
    QCOMPARE(int(q.size()), m.nq);
    dyn::Data data(m);
    dyn::LoopData ld(m);
    dyn::loopConstraints(m, data, ld, q);
    QVERIFY(dyn::maxAbs(ld.phi) < 1e-10);
    QVERIFY(o["residual"].toObject()["loops"].toDouble(1) < 1e-10);
    dyn::updateFrames(m, data);
    QVERIFY((data.oMf[size_t(m.frameIndex("plate"))].translation() - target).norm() < 1e-9);
    for (const char* motor : {"motor1", "motor2", "motor3"})
      QVERIFY(std::abs(q[m.joints[size_t(m.jointIndex(motor))].idx_q]) > 1e-3);  // the motors turned
  }

  // Options a command has no use for are not ignored in silence: a warning on stderr and, for
  // JSON output, in its "warnings" array.
  void ignoredOptionsAreWarned_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    const QString fb = robotPath("fourbar.urdf"), ur5 = robotPath("ur5.urdf");
    QTest::newRow("fd loops --algorithm")
        << QStringList{"fd", fb, "--algorithm", "aba"} << "--algorithm aba is ignored: fourbar has closed loops";
    QTest::newRow("fd tree --baumgarte") << QStringList{"fd", ur5, "--baumgarte", "5,5"} << "--baumgarte is ignored";
    QTest::newRow("id loops --algorithm")
        << QStringList{"id", fb, "--algorithm", "denoc"} << "--algorithm denoc is ignored";
    QTest::newRow("id loops --qd") << QStringList{"id", fb, "--qd", "1,0.5,0.5"} << "--qd: the dependent";
    QTest::newRow("id loops --qdd") << QStringList{"id", fb, "--qdd", "0,1,1"} << "--qdd: the dependent";
    QTest::newRow("simulate loops --algorithm")
        << QStringList{"simulate", fb, "--duration", "0.01", "--algorithm", "crba"} << "--algorithm crba is ignored";
    QTest::newRow("simulate tree loop options")
        << QStringList{"simulate", ur5,           "--duration", "0.01",           "--loop-method",
                       "3",        "--baumgarte", "1,1",        "--no-projection"}
        << "--loop-method, --baumgarte, --no-projection ignored: ur5 has no closed loops";
  }
  void ignoredOptionsAreWarned() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const dyn::testing::CliRun r = runCli(args);
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QVERIFY2(QString(r.err).contains("warning: " + fragment), r.err.constData());
    if (args[0] == "simulate") return;  // CSV on stdout
    const QJsonArray warnings = QJsonDocument::fromJson(r.out).object()["warnings"].toArray();
    QVERIFY(std::any_of(warnings.begin(), warnings.end(),
                        [&](const QJsonValue& w) { return w.toString().startsWith(fragment); }));
  }

  // The dependent entries that id replaces are named with the values used, which are those the
  // constraints give: phi' qd = 0 with the crank's velocity as given.
  void idNamesTheReplacedVelocities() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    VectorXd qd = VectorXd::Zero(m.nv);
    qd[0] = 1;
    dyn::Data data(m);
    dyn::LoopData ld(m);
    dyn::loopDependentVelocities(m, data, ld, m.home(), qd);
    const dyn::testing::CliRun given = runCli({"id", robotPath("fourbar.urdf"), "--qd", "1,0.5,0.5"});
    QVERIFY(QString(given.err).contains("coupler_joint 0.5 -> ") &&
            QString(given.err).contains("rocker_joint 0.5 -> "));
    QVERIFY(dyn::testing::sameNumbers(toVector(QJsonDocument::fromJson(given.out).object()["qd"]), qd));
    // Consistent values (and the default rnea) draw no warning.
    const dyn::testing::CliRun consistent =
        runCli({"id", robotPath("fourbar.urdf"), "--qd", joined(qd), "--algorithm", "rnea"});
    QVERIFY2(!QString(consistent.err).contains("warning"), consistent.err.constData());
    QVERIFY(!QJsonDocument::fromJson(consistent.out).object().contains("warnings"));
  }

  void forwardDynamicsMethodsAgreeWithTheEngine() {
    const dyn::Model m = dyn::testing::loadRobot("delta.urdf");
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> U(-1, 1);
    VectorXd q, qd;
    QVERIFY(dyn::testing::randomAssembledState(m, rng, q, qd));
    const VectorXd tau = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
    dyn::Data data(m);
    dyn::LoopData ld(m);
    const VectorXd ref = dyn::loopForwardDynamics(m, data, ld, q, qd, tau, dyn::LoopSettings{});
    for (const char* method : {"1", "2", "3", "global", "global-26", "global-28"}) {
      const QJsonObject o = runJson({"fd", robotPath("delta.urdf"), "--q", joined(q), "--qd", joined(qd), "--tau",
                                     joined(tau), "--loop-method", method});
      const VectorXd qdd = toVector(o["qdd"]);
      QCOMPARE(qdd.size(), ref.size());
      const double d = (qdd - ref).cwiseAbs().maxCoeff() / (1 + ref.cwiseAbs().maxCoeff());
      QVERIFY2(d < 1e-9, qPrintable(QString("--loop-method %1: off by %2").arg(method).arg(d)));
      QVERIFY(o["phi_norm"].toDouble(1) < 1e-9);
    }
  }

  // fd --loop-method on a tree (no loops): every method is the tree's forward dynamics, ABA's q̈.
  void loopMethodsOnATreeGiveAbasAcceleration() {
    const dyn::Model m = dyn::testing::loadRobot("ur5.urdf");
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> U(-1, 1);
    const VectorXd q = dyn::randomConfiguration(m, rng);
    const VectorXd qd = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
    const VectorXd tau = VectorXd::NullaryExpr(m.nv, [&] { return U(rng); });
    dyn::Data data(m);
    const VectorXd ref = dyn::aba(m, data, q, qd, tau);
    const QStringList state{"--q", joined(q), "--qd", joined(qd), "--tau", joined(tau)};
    QVERIFY(dyn::testing::sameNumbers(toVector(runJson(QStringList{"fd", robotPath("ur5.urdf")} + state)["qdd"]), ref));
    for (const char* method : {"1", "2", "3", "global", "global-26", "global-28"}) {
      const VectorXd qdd =
          toVector(runJson(QStringList{"fd", robotPath("ur5.urdf"), "--loop-method", method} + state)["qdd"]);
      QCOMPARE(qdd.size(), ref.size());
      const double d = (qdd - ref).cwiseAbs().maxCoeff() / (1 + ref.cwiseAbs().maxCoeff());
      QVERIFY2(d < 1e-9, qPrintable(QString("--loop-method %1 on a tree: off by %2").arg(method).arg(d)));
    }
  }

  void inverseDynamicsGivesTheActuatorTorques() {
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    const VectorXd q = dyn::assemble(m, m.home()).q;
    const QJsonObject o = runJson({"id", robotPath("fourbar.urdf"), "--q", joined(q)});
    const VectorXd tau = toVector(o["tau"]);
    dyn::Data data(m);
    dyn::LoopData ld(m);
    const VectorXd zero = VectorXd::Zero(m.nv);
    const VectorXd ref = dyn::loopInverseDynamics(m, data, ld, q, zero, zero);
    QVERIFY(dyn::testing::sameNumbers(tau, ref));
    QVERIFY(std::abs(tau[0]) > 1e-3);           // gravity loads the crank
    QCOMPARE(tau[1], 0.0);                      // passive joints carry no actuator torque
    QVERIFY(o["residual"].toDouble(1) < 1e-9);  // the actuators can hold it
  }

  void assembleClosesAroundHeldJoints() {
    const QJsonObject o = runJson({"assemble", robotPath("fourbar.urdf"), "--q", "1,0,0", "--hold", "crank_joint"});
    QVERIFY(o["converged"].toBool());
    const VectorXd q = toVector(o["q"]);
    QVERIFY(std::abs(q[0] - 1.0) < 1e-12);  // the held crank stays
    const dyn::Model m = dyn::testing::loadRobot("fourbar.urdf");
    dyn::Data data(m);
    dyn::LoopData ld(m);
    dyn::loopConstraints(m, data, ld, q);
    QVERIFY(ld.phi.cwiseAbs().maxCoeff() < 1e-10);  // and the loop is closed at the printed q
    QVERIFY(std::abs(q[1]) > 0.1);                  // by moving the coupler and rocker
  }

  void simulateRecordsTheConstraintViolation() {
    const dyn::testing::CliRun r =
        runCli({"simulate", robotPath("slider_crank.urdf"), "--duration", "0.2", "--loop-method", "3"});
    QVERIFY2(!r.crashed && r.status == 0, r.err.constData());
    QStringList header;
    const auto rows = dyn::testing::parseCsv(r.out, &header);
    const int phi = int(header.indexOf("phi_norm")), phiDot = int(header.indexOf("phi_dot_norm"));
    QVERIFY(phi > 0 && phiDot > 0 && header.contains("energy"));
    QVERIFY(rows.size() > 100);
    for (const auto& row : rows) QVERIFY(row[size_t(phi)] < 1e-8 && row[size_t(phiDot)] < 1e-8);
  }

  void mistakesAreExplained_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    const QString fb = robotPath("fourbar.urdf");
    QTest::newRow("unknown method") << QStringList{"fd", fb, "--loop-method", "4"} << "--loop-method must be";
    QTest::newRow("hold and hold-independent")
        << QStringList{"assemble", fb, "--hold", "crank_joint", "--hold-independent"} << "cannot be combined";
    QTest::newRow("cannot close") << QStringList{"assemble",      fb,       "--q",         "0,0,3", "--hold",
                                                 "coupler_joint", "--hold", "rocker_joint"}
                                  << "coupler_rocker_joint";
  }
  void mistakesAreExplained() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const dyn::testing::CliRun r = runCli(args);
    QVERIFY(!r.crashed);
    QVERIFY2(r.status != 0, r.out.constData());
    QVERIFY2(QString(r.err).contains(fragment) || QString(r.out).contains(fragment), r.err.constData());
  }
};

QTEST_GUILESS_MAIN(TestLoopCli)
#include "test_loop_cli.moc"
