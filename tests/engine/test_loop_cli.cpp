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
