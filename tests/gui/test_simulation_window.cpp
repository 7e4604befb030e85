// The simulation dock in the window, driven as a user does: run, pause, step, reset, the torque
// sources, divergence, and the recorded run becoming the trajectory. References: the pendulum's
// energy, the engine's Simulator run in-process with the same settings, and plain physics (gravity
// compensation holds a pose).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <cmath>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/simulation/simulator.hpp"
#include "plots/time_series_plot.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "window/main_window.hpp"

namespace {

// A 1 m pendulum about y: 2 kg at the end of a massless-looking rod (a thin box for the view).
const char* kPendulum = R"(<?xml version="1.0"?>
<robot name="pendulum">
  <link name="base"/>
  <link name="bob">
    <inertial><origin xyz="0 0 -1"/><mass value="2"/><inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0 0 -0.5"/><geometry><box size="0.02 0.02 1"/></geometry></visual>
    <visual><origin xyz="0 0 -1"/><geometry><sphere radius="0.06"/></geometry></visual>
  </link>
  <joint name="swing" type="continuous">
    <parent link="base"/><child link="bob"/><axis xyz="0 1 0"/>
  </joint>
</robot>
)";

void settle(int ms = 20) {
  QCoreApplication::processEvents();
  QTest::qWait(ms);
}

}  // namespace

class TestSimulationWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;
  QString m_pendulum;

  RobotDocument* doc() const { return m_window->document(); }
  SimulationDock* dock() const { return m_window->simulationDock(); }

  bool open(const QString& path) {
    QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
    if (!m_window->openFile(path)) return false;
    if (!finished.wait(30000)) return false;
    settle();
    return finished.at(0).at(0).toBool();
  }
  void setSource(SimulationDock::Source s) {
    dock()->sourceBox()->setCurrentIndex(dock()->sourceBox()->findData(int(s)));
  }
  // Runs for about `ms` of wall time, then pauses.
  void runFor(int ms) {
    dock()->start();
    QTRY_VERIFY_WITH_TIMEOUT(dock()->runner()->snapshot().t > 0, 5000);
    QTest::qWait(ms);
    dock()->pause();
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_pendulum = m_tmp.filePath("pendulum.urdf");
    QFile f(m_pendulum);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kPendulum);
    f.close();
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    m_window->setErrorHandler([](const QString&, const QString&) {});
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(open(m_pendulum));
    dock()->raise();
  }
  void cleanupTestCase() { m_window.reset(); }

  // Passive: the pendulum released at 1 rad swings; the run is recorded and becomes the
  // trajectory; the symplectic integrator keeps the energy (drift small and bounded).
  void passiveRunSwingsAndIsRecorded() {
    setSource(SimulationDock::Source::Passive);
    Eigen::VectorXd q(1);
    q << 1.0;
    doc()->setQ(q);
    runFor(400);
    const SimulationRunner::Snapshot s = dock()->runner()->snapshot();
    QVERIFY2(s.t > 0.1, qPrintable(QString("simulated only %1 s").arg(s.t)));
    QVERIFY(std::abs(doc()->q()[0] - 1.0) > 1e-3);  // it moved
    QCOMPARE(doc()->q()[0], s.q[0]);                // the view shows the simulation's state
    // Energy: m g l (1 - cos q0) relative to the bottom; E = T + V with V = -m g . c = m g z.
    const double E0 = 2 * 9.81 * (-std::cos(1.0));
    QVERIFY2(std::abs(s.energy - E0) < 1e-2 * std::abs(E0), qPrintable(QString("E %1 vs %2").arg(s.energy).arg(E0)));
    // The recorded run is now the trajectory, at its end (= the current state).
    TrajectoryDocument* traj = m_window->trajectory();
    QCOMPARE(traj->source(), TrajectoryDocument::Source::Simulation);
    QVERIFY(traj->samples().samples() > 10);
    // It ends at the last recorded step: at most recordEvery steps before the state.
    const dyn::SimulationSettings set = dock()->settings();
    QVERIFY(traj->samples().endTime() <= s.t + 1e-12);
    QVERIFY(s.t - traj->samples().endTime() < set.recordEvery * set.dt + 1e-12);
    QVERIFY(dock()->energyPlot()->sampleCount() > 10);
    QCOMPARE(m_window->timelineDock()->time(), traj->samples().endTime());  // the timeline shows where it stopped
    QVERIFY(dock()->statusLabel()->text().contains("t = "));
  }

  // Step advances by exactly one time step; continuing after a pause keeps the state.
  void stepAdvancesOneTimeStep() {
    dock()->reset();
    dock()->stepBox()->setValue(2.0);  // ms
    const double t0 = dock()->runner()->snapshot().t;
    QCOMPARE(t0, 0.0);
    dock()->stepOnce();
    QVERIFY(std::abs(dock()->runner()->snapshot().t - 0.002) < 1e-15);
    dock()->stepOnce();
    QVERIFY(std::abs(dock()->runner()->snapshot().t - 0.004) < 1e-15);
    dock()->stepBox()->setValue(1.0);
  }

  // The GUI's run equals the engine's Simulator run in-process and dynscope-cli simulate with the
  // same settings, sample by sample (same integrator, same steps; only the wall-clock pacing differs).
  void guiRunEqualsEngineRun() {
    dock()->integratorBox()->setCurrentIndex(dock()->integratorBox()->findData(int(dyn::Integrator::Rk4)));
    Eigen::VectorXd q(1);
    q << 0.7;
    doc()->setQ(q);
    runFor(300);
    const dyn::SimulationRecord gui = dock()->runner()->record();
    QVERIFY(gui.samples() > 5);
    dyn::Simulator sim(m_window->trajectory()->dynamicsModel(), dock()->settings(), dyn::PassiveController{});
    sim.reset(q, Eigen::VectorXd::Zero(1));
    sim.advance(gui.t.back());
    const dyn::SimulationRecord& ref = sim.record();
    QCOMPARE(ref.samples(), gui.samples());
    for (int k = 0; k < gui.samples(); ++k) {
      QCOMPARE(gui.t[k], ref.t[k]);
      QCOMPARE(gui.q[k], ref.q[k]);
    }
    // And dynscope-cli simulate with the same settings writes the same run (17 digits: exact).
    const dyn::SimulationSettings set = dock()->settings();
    const QString out = m_tmp.filePath("run.csv");
    QProcess cli;
    cli.start(QStringLiteral(DYNSCOPE_CLI),
              {"simulate", m_pendulum, "--duration", QString::number(gui.t.back(), 'g', 17), "--dt",
               QString::number(set.dt, 'g', 17), "--integrator", "rk4", "--controller", "passive", "--q0", "0.7",
               "--record-every", QString::number(set.recordEvery), "--out", out});
    QVERIFY(cli.waitForFinished(30000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QFile csv(out);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    const QList<QByteArray> header = lines[0].split(',');
    QCOMPARE(header[0], QByteArray("t"));
    QCOMPARE(header[1], QByteArray("swing"));
    QCOMPARE(int(lines.size()) - 1, gui.samples());
    for (int k = 0; k < gui.samples(); ++k) {
      const QList<QByteArray> row = lines[k + 1].split(',');
      QCOMPARE(row[0].toDouble(), gui.t[k]);
      QCOMPARE(row[1].toDouble(), gui.q[k]);
    }
    dock()->integratorBox()->setCurrentIndex(0);
  }

  // Gravity compensation holds the pose.
  void gravityCompensationHolds() {
    setSource(SimulationDock::Source::Gravity);
    Eigen::VectorXd q(1);
    q << 0.8;
    doc()->setQ(q);
    runFor(250);
    QVERIFY(dock()->runner()->snapshot().t > 0.05);
    QVERIFY2(std::abs(doc()->q()[0] - 0.8) < 1e-6, qPrintable(QString::number(doc()->q()[0], 'g', 12)));
    setSource(SimulationDock::Source::Passive);
  }

  // Reset goes back to where the run started, at rest.
  void resetReturnsToTheStart() {
    Eigen::VectorXd q(1);
    q << 0.5;
    doc()->setQ(q);
    runFor(200);
    QVERIFY(std::abs(doc()->q()[0] - 0.5) > 1e-4);
    dock()->reset();
    QCOMPARE(doc()->q()[0], 0.5);
    QCOMPARE(dock()->runner()->snapshot().t, 0.0);
  }

  // ABA and CRBA agree at every recorded step.
  void compareShowsTinyDifferences() {
    dock()->compareBox()->setChecked(true);
    runFor(200);
    const SimulationRunner::History h = dock()->runner()->history();
    QVERIFY(h.fdDifference.size() > 3);
    double worst = 0;
    for (double d : h.fdDifference)
      if (std::isfinite(d)) worst = std::max(worst, d);
    QVERIFY2(worst < 1e-9, qPrintable(QString::number(worst)));
    QVERIFY(dock()->differencePlot()->sampleCount() > 3);
    dock()->compareBox()->setChecked(false);
  }

  // With DYNSCOPE_GRAB_DIR set: the humanoid after a passive second, for a human to look at.
  void grabPicture() {
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (dir.isEmpty()) QSKIP("set DYNSCOPE_GRAB_DIR to keep a picture of the window");
    QVERIFY(open(QStringLiteral(DYNSCOPE_ROBOTS_DIR "/humanoid.urdf")));
    setSource(SimulationDock::Source::Passive);
    dock()->raise();
    runFor(1500);
    settle(200);
    QVERIFY(m_window->grab().save(QDir(dir).filePath("simulation_window.png")));
    m_window->findChild<QDockWidget*>("massMatrixDock")->raise();
    settle(300);
    QVERIFY(m_window->grab().save(QDir(dir).filePath("mass_matrix_window.png")));
    QVERIFY(open(m_pendulum));
  }

  // A huge constant torque makes the velocity explode: the run stops by itself with a message,
  // and the robot keeps the last good (finite) state.
  void divergenceStopsWithAMessage() {
    setSource(SimulationDock::Source::Constant);
    QTableWidget* table = dock()->findChild<QTableWidget*>("simulationTorques");
    QVERIFY(table && table->rowCount() == 1);
    table->item(0, 0)->setText("1e9");
    QSignalSpy stopped(dock(), &SimulationDock::runningChanged);
    QStringList messages;
    connect(dock(), &SimulationDock::message, this, [&](const QString& text, bool) { messages << text; });
    dock()->reset();
    dock()->start();
    QTRY_VERIFY_WITH_TIMEOUT(!dock()->isRunning(), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!messages.isEmpty(), 5000);  // queued from the worker thread
    QVERIFY2(messages.join('\n').contains("stopped", Qt::CaseInsensitive), qPrintable(messages.join('\n')));
    QVERIFY(std::isfinite(doc()->q()[0]));
    QCOMPARE(dock()->runner()->snapshot().status, dyn::SimulationStatus::Diverged);
    table->item(0, 0)->setText("0");
    setSource(SimulationDock::Source::Passive);
  }
};

QTEST_MAIN(TestSimulationWindow)
#include "test_simulation_window.moc"
