// dynscope-cli simulate end to end: the CSV it writes equals an in-process Simulator run with the
// same settings (17 significant digits: equal to rounding), a diverging run keeps its CSV and
// exits with status 1, and malformed options are usage errors (status 2).
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <string>
#include "run_cli.hpp"

#include "check_close.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/io/trajectory_csv.hpp"

namespace {

using Run = dyn::testing::CliRun;
using dyn::testing::runCli;

QString robot(const QString& file) { return QString(DYNSCOPE_ROBOTS_DIR) + "/" + file; }

// The CSV's columns by name, as a matrix (one row per column).
Eigen::MatrixXd columns(const dyn::CsvTable& table, const std::vector<std::string>& names) {
  Eigen::MatrixXd m(names.size(), table.samples());
  for (size_t k = 0; k < names.size(); ++k) {
    const auto it = std::find(table.header.begin(), table.header.end(), names[k]);
    if (it == table.header.end()) throw std::runtime_error("no column " + names[k]);
    m.row(k) = table.values.row(it - table.header.begin());
  }
  return m;
}

std::vector<std::string> prefixed(const char* prefix, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) out.push_back(prefix + n);
  return out;
}

// Compares every column of the CLI's CSV with the in-process record.
void compareWithRecord(const std::string& csv, const dyn::Model& model, const dyn::SimulationRecord& r) {
  const dyn::CsvTable table = dyn::readCsv(csv);
  QCOMPARE(table.samples(), r.samples());
  const dyn::SampledTrajectory s = r.trajectory();
  const std::vector<std::string> v = dyn::velocityNames(model);
  const double tol = 1e-15;  // 17 digits: bit-exact up to printing
  CHECK_CLOSE(columns(table, {"t"}), s.t.transpose(), tol, 1.0, "t");
  CHECK_CLOSE(columns(table, dyn::configurationNames(model)), s.q, tol, 10.0, "q");
  CHECK_CLOSE(columns(table, prefixed("qd_", v)), s.qd, tol, 10.0 + s.qd.cwiseAbs().maxCoeff(), "qd");
  CHECK_CLOSE(columns(table, prefixed("qdd_", v)), s.qdd, tol, 10.0 + s.qdd.cwiseAbs().maxCoeff(), "qdd");
  CHECK_CLOSE(columns(table, prefixed("tau_", v)), r.torques(), tol, 10.0 + r.torques().cwiseAbs().maxCoeff(), "tau");
  const Eigen::MatrixXd e = columns(table, {"energy"});
  for (int k = 0; k < r.samples(); ++k) QVERIFY(std::abs(e(0, k) - r.energy[k]) <= 1e-14 * (1 + std::abs(r.energy[k])));
}

}  // namespace

class TestSimulationCli : public QObject {
  Q_OBJECT

 private slots:
  void gravityCompensationRunMatchesTheEngine() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("run.csv").toStdString();
    const Run run =
        runCli({"simulate", robot("panda.urdf"), "--duration", "0.2", "--dt", "0.002", "--integrator", "rk4",
                "--controller", "gravity", "--algorithm", "crba", "--compare", "--q0", "0.1,-0.3,0.2,-1.5,0.1,1.2,0.3",
                "--qd0", "0.5,0,0,0,0,0,-0.5", "--out", QString::fromStdString(out)});
    QVERIFY2(run.status == 0 && !run.crashed, run.err.constData());
    const dyn::Model model = dyn::loadModel(robot("panda.urdf").toStdString());
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::Rk4;
    s.dt = 0.002;
    s.algorithm = dyn::ForwardAlgorithm::Crba;
    s.compare = true;
    dyn::Simulator sim(model, s, dyn::GravityCompensation{});
    Eigen::VectorXd q0(7), qd0 = Eigen::VectorXd::Zero(7);
    q0 << 0.1, -0.3, 0.2, -1.5, 0.1, 1.2, 0.3;
    qd0[0] = 0.5, qd0[6] = -0.5;
    sim.reset(q0, qd0);
    sim.advance(0.2);
    QCOMPARE(sim.record().samples(), 101);
    compareWithRecord(out, model, sim.record());
    QVERIFY(dyn::readCsv(out).header.back() == "fd_difference");
    QVERIFY(run.err.contains("max |qdd_aba - qdd_crba|"));
  }

  // --wrench: a constant push on the Panda's hand (world axes, at a point of the link) in the run,
  // the same as the engine's Simulator with that wrench (the point turned into body coordinates).
  void pushedRunMatchesTheEngine() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("run.csv").toStdString();
    const Run run =
        runCli({"simulate", robot("panda.urdf"), "--duration", "0.1", "--dt", "0.002", "--controller", "gravity",
                "--wrench", "panda_link7:0,15,-5,0,0,0.5@0,0,0.1", "--out", QString::fromStdString(out)});
    QVERIFY2(run.status == 0 && !run.crashed, run.err.constData());
    const dyn::Model model = dyn::loadModel(robot("panda.urdf").toStdString());
    const int frame = model.frameIndex("panda_link7");
    dyn::Simulator sim(model, {}, dyn::GravityCompensation{});
    sim.setWrenches(
        {{model.frames[size_t(frame)].body, model.frames[size_t(frame)].placement.pointToA(Eigen::Vector3d(0, 0, 0.1)),
          Eigen::Vector3d(0, 15, -5), Eigen::Vector3d(0, 0, 0.5)}});
    dyn::SimulationSettings s;
    s.dt = 0.002;
    sim.setSettings(s);
    sim.reset();
    sim.advance(0.1);
    compareWithRecord(out, model, sim.record());
    // The push moved the arm (under gravity compensation alone it would stay).
    QVERIFY((sim.q() - model.home()).cwiseAbs().maxCoeff() > 1e-3);
  }

  // simulate --ground: the quadruped lands and stands; the CSV's contact columns show the ground
  // carrying its weight at the end, and the run equals the engine's with the same settings.
  void groundRunCarriesTheWeight() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("run.csv").toStdString();
    const Run run =
        runCli({"simulate", robot("quadruped.urdf"), "--floating-base", "--duration", "1.5", "--ground", "-0.62",
                "--friction", "0.6", "--contact-time", "0.02", "--out", QString::fromStdString(out)});
    QVERIFY2(run.status == 0 && !run.crashed, run.err.constData());
    QVERIFY2(run.err.contains("contact points on the ground"), run.err.constData());
    const dyn::Model model = dyn::loadModel(robot("quadruped.urdf").toStdString(), {.floatingBase = true});
    const dyn::CsvTable table = dyn::readCsv(out);
    const Eigen::MatrixXd contact = columns(table, {"contact_normal", "contact_friction", "penetration"});
    const int last = int(contact.cols()) - 1;
    QVERIFY2(std::abs(contact(0, last) - model.totalMass() * 9.81) < 0.01 * model.totalMass() * 9.81,
             qPrintable(QString("the ground carries %1 N").arg(contact(0, last))));
    QVERIFY(contact.row(2).maxCoeff() > 0 && contact.row(2).maxCoeff() < 0.05);
    dyn::SimulationSettings s;
    s.ground = {.enabled = true, .height = -0.62, .friction = 0.6, .timeConstant = 0.02};
    dyn::Simulator sim(model, s);
    sim.reset();
    sim.advance(1.5);
    compareWithRecord(out, model, sim.record());
    // A spring and damper of one's own per point: the run equals the engine's with them (and the same
    // friction: the settings below keep the first run's 0.6).
    const std::string own = dir.filePath("own.csv").toStdString();
    const Run stiff = runCli({"simulate", robot("quadruped.urdf"), "--floating-base", "--duration", "0.5", "--ground",
                              "-0.62", "--friction", "0.6", "--contact-stiffness", "5e4", "--contact-damping", "800",
                              "--out", QString::fromStdString(own)});
    QVERIFY2(stiff.status == 0 && !stiff.crashed, stiff.err.constData());
    s.ground.stiffness = 5e4;
    s.ground.damping = 800;
    dyn::Simulator simOwn(model, s);
    simOwn.reset();
    simOwn.advance(0.5);
    compareWithRecord(own, model, simOwn.record());
    // A start inside the ground is said, with where the lowest point is.
    const Run inside =
        runCli({"simulate", robot("quadruped.urdf"), "--floating-base", "--duration", "0.001", "--ground", "0"});
    QVERIFY2(inside.err.contains("inside the ground") && inside.err.contains("--ground -0.525"),
             inside.err.constData());
    // Ground options without the ground: a warning, not silence.
    const Run loose = runCli({"simulate", robot("planar3.dh"), "--duration", "0.01", "--friction", "0.5"});
    QVERIFY(loose.status == 0 && loose.err.contains("--ground"));
  }

  // Torque replay from a CSV with the adaptive integrator, to stdout.
  void replayRunMatchesTheEngine() {
    QTemporaryDir dir;
    const std::string tau = dir.filePath("tau.csv").toStdString(), out = dir.filePath("run.csv").toStdString();
    std::ofstream(tau) << "t,tau_j1,tau_j2,tau_j3\n0,1,0,-1\n0.5,-1,2,0\n";
    const Run run = runCli({"simulate", robot("planar3.dh"), "--duration", "1", "--dt", "0.01", "--integrator", "rk45",
                            "--tolerance", "1e-7", "--controller", "replay", "--torques", QString::fromStdString(tau)});
    QVERIFY2(run.status == 0 && !run.crashed, run.err.constData());
    std::ofstream(out) << run.out.constData();
    const dyn::Model model = dyn::loadModel(robot("planar3.dh").toStdString());
    dyn::SimulationSettings s;
    s.integrator = dyn::Integrator::DormandPrince45;
    s.dt = 0.01;
    s.tolerance = 1e-7;
    dyn::Simulator sim(model, s, dyn::readTorqueCsv(model, tau));
    sim.reset();
    sim.advance(1.0);
    compareWithRecord(out, model, sim.record());
  }

  void divergingRunKeepsItsCsv() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("run.csv").toStdString();
    const Run run = runCli({"simulate", robot("panda.urdf"), "--duration", "5", "--dt", "0.5", "--velocity-bound", "10",
                            "--out", QString::fromStdString(out)});
    QCOMPARE(run.status, 1);
    QVERIFY(!run.crashed);
    QVERIFY2(run.err.contains("diverged at t = "), run.err.constData());
    const dyn::CsvTable table = dyn::readCsv(out);
    QVERIFY(table.samples() >= 1);
    QVERIFY(table.values.allFinite());
  }

  void usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString panda = robot("panda.urdf");
    QTest::newRow("no duration") << QStringList{"simulate", panda} << "--duration";
    QTest::newRow("integrator") << QStringList{"simulate", panda, "--duration", "1", "--integrator", "rk5"} << "rk45";
    QTest::newRow("pd without reference")
        << QStringList{"simulate", panda, "--duration", "1", "--controller", "pd"} << "--trajectory";
    QTest::newRow("replay without torques")
        << QStringList{"simulate", panda, "--duration", "1", "--controller", "replay"} << "--torques";
    QTest::newRow("negative dt") << QStringList{"simulate", panda, "--duration", "1", "--dt", "-1"} << "--dt";
    QTest::newRow("tolerance without rk45")
        << QStringList{"simulate", panda, "--duration", "1", "--tolerance", "1e-6"} << "rk45";
    QTest::newRow("q0 size") << QStringList{"simulate", panda, "--duration", "1", "--q0", "1,2"} << "--q0";
    QTest::newRow("kp size") << QStringList{"simulate", panda,   "--duration",    "1",    "--controller",
                                            "constant", "--tau", "1,2,3,4,5,6,7", "--kp", "1"}
                             << "--kp";
  }

  void usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run run = runCli(args);
    QVERIFY(!run.crashed);
    QVERIFY2(run.status == 2, run.err.constData());
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
    QVERIFY(run.out.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestSimulationCli)
#include "test_simulation_cli.moc"
