// The simulation dock in the window, driven as a user does: run, pause, step, reset, the torque
// sources (constant torques typed in the joints dock), divergence, and the recorded run becoming
// the trajectory. References: the pendulum's energy, the engine's Simulator run in-process with the
// same settings, and plain physics (gravity compensation holds a pose, τ / I at rest).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QToolButton>
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
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

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

  bool open(const QString& path) { return dyn::testing::openAndWait(*m_window, path, nullptr, 20); }
  void setSource(SimulationDock::Source s) {
    dock()->sourceBox()->setCurrentIndex(dock()->sourceBox()->findData(int(s)));
  }
  // The selected tab of the right dock area's tab bar (the joints, simulation, ... docks).
  QString currentDockTab() const {
    for (QTabBar* bar : m_window->findChildren<QTabBar*>())
      for (int i = 0; i < bar->count(); ++i)
        if (bar->tabText(i) == m_window->jointsDock()->windowTitle()) return bar->tabText(bar->currentIndex());
    return {};
  }
  // Types a value into a spin box as a user does (select the number, type, Enter).
  static void type(QDoubleSpinBox* box, const QString& text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Return);
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
    QVERIFY(m_window->setWorkspace("simulate"));  // the simulation dock with the joints behind it
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

  // While a run goes, the trajectory (what the Plots dock draws) is that run, about once a second:
  // not the previous run until the next pause.
  void plotsFollowARunningSimulation() {
    dock()->reset();
    TrajectoryDocument* traj = m_window->trajectory();
    traj->clear();
    QVERIFY(!traj->hasTrajectory());
    dock()->start();
    QTRY_VERIFY_WITH_TIMEOUT(traj->source() == TrajectoryDocument::Source::Simulation && traj->hasTrajectory(), 5000);
    QVERIFY(dock()->runner()->isRunning());
    const double first = traj->samples().endTime();
    QTRY_VERIFY_WITH_TIMEOUT(traj->samples().endTime() > first, 5000);  // and it keeps following
    QVERIFY(dock()->runner()->isRunning());
    dock()->pause();
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

  // A run's numbers in the status line belong to its robot: loading another clears them.
  void loadingARobotClearsTheStatus() {
    runFor(200);
    auto* status = dock()->findChild<QLabel*>("simulationStatus");
    QVERIFY(status);
    QVERIFY(status->text().startsWith("t = "));
    QVERIFY(open(m_pendulum));
    QVERIFY2(status->text().startsWith("Not started"), qPrintable(status->text()));
    QVERIFY(!status->text().contains("E = "));
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

  // "Constant per joint": the τ column appears in the joints dock (the simulation dock only points
  // there); the torque typed in the pendulum's row is what the run applies, also when changed
  // between steps. Reference: the engine's Simulator with ConstantTorque of the typed values, and
  // the first step from rest by hand (semi-implicit Euler: q1 = h² τ / I, I = m l² + Iyy).
  void constantTorquesAreTypedInTheJointsDock() {
    QVERIFY(open(m_pendulum));  // a fresh run: the next reset starts from the robot's pose
    JointsDock* joints = m_window->jointsDock();
    JointRow* row = joints->row("swing");
    QVERIFY(row);
    auto* toJoints = dock()->findChild<QPushButton*>("simulationEditTorques");
    auto* hint = dock()->findChild<QLabel*>("simulationTorqueHint");
    QVERIFY(toJoints && hint);
    setSource(SimulationDock::Source::Passive);
    dock()->raise();
    settle();
    QVERIFY(!row->torqueBox()->isVisibleTo(joints));
    QVERIFY(!toJoints->isVisible() && !hint->isVisible());

    setSource(SimulationDock::Source::Constant);
    settle();
    QVERIFY(row->torqueBox()->isVisibleTo(joints));
    QVERIFY(toJoints->isVisible() && hint->isVisible());
    QVERIFY2(hint->text().contains("Joints dock"), qPrintable(hint->text()));
    QCOMPARE(currentDockTab(), dock()->windowTitle());  // the joints dock is a tab behind
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      QVERIFY(m_window->grab().save(QDir(dir).filePath("simulation_constant_torques.png")));
    QTest::mouseClick(toJoints, Qt::LeftButton);
    QTRY_COMPARE(currentDockTab(), joints->windowTitle());
    QVERIFY(row->torqueBox()->isVisible());
    QCOMPARE(row->torqueBox()->suffix(), QString(" N·m"));  // revolute

    type(row->torqueBox(), "3.25");
    QCOMPARE(doc()->constantTorques().size(), 1);
    QCOMPARE(doc()->constantTorques()[0], 3.25);
    QVERIFY2(hint->text().contains("1 of 1"), qPrintable(hint->text()));
    const std::optional<dyn::Controller> c = dock()->controller();
    QVERIFY(c && std::holds_alternative<dyn::ConstantTorque>(*c));
    QCOMPARE(std::get<dyn::ConstantTorque>(*c).tau, Eigen::VectorXd::Constant(1, 3.25));

    // The run applies exactly the typed torque.
    QCOMPARE(doc()->q()[0], 0.0);
    dock()->reset();
    QCOMPARE(dock()->runner()->snapshot().q[0], 0.0);
    dock()->stepOnce();
    const double h = dock()->settings().dt;
    QCOMPARE(dock()->settings().integrator, dyn::Integrator::SemiImplicitEuler);
    QVERIFY2(std::abs(doc()->q()[0] - h * h * 3.25 / 2.001) < 1e-12,
             qPrintable(QString::number(doc()->q()[0], 'g', 17)));
    QCOMPARE(dock()->runner()->snapshot().tau[0], 3.25);  // applied (the file has no damping or friction)
    dyn::Simulator ref(m_window->trajectory()->dynamicsModel(), dock()->settings(),
                       dyn::ConstantTorque{Eigen::VectorXd::Constant(1, 3.25)});
    ref.reset(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1));
    ref.step();
    dock()->stepOnce();
    ref.step();
    QCOMPARE(dock()->runner()->snapshot().q[0], ref.q()[0]);
    // A new value applies to the run in progress, from the next step on.
    type(row->torqueBox(), "-1.5");
    QCOMPARE(doc()->constantTorques()[0], -1.5);
    ref.setController(dyn::ConstantTorque{Eigen::VectorXd::Constant(1, -1.5)});
    for (int k = 0; k < 3; ++k) {
      dock()->stepOnce();
      ref.step();
    }
    QCOMPARE(dock()->runner()->snapshot().q[0], ref.q()[0]);
    QCOMPARE(dock()->runner()->snapshot().qd[0], ref.qd()[0]);
    QCOMPARE(dock()->runner()->snapshot().tau[0], -1.5);

    // A reload keeps the torque of an unchanged joint; another robot starts from zero.
    QString error;
    QVERIFY2(doc()->reload(&error), qPrintable(error));
    settle();
    QCOMPARE(doc()->constantTorques()[0], -1.5);
    QCOMPARE(joints->row("swing")->torque(), -1.5);
    QVERIFY(joints->row("swing")->torqueBox()->isVisible());
    joints->row("swing")->torqueBox()->setValue(0);
    QCOMPARE(doc()->constantTorques()[0], 0.0);
    setSource(SimulationDock::Source::Passive);
    QVERIFY(!joints->row("swing")->torqueBox()->isVisibleTo(joints));
    dock()->raise();
  }

  // On a 1366x768 laptop the joints dock with the τ column and the locks still shows every row in
  // full: no sideways scrolling, names, values and torques inside their rows. A floating-base
  // humanoid: the base's six rows carry v (x y z: N) and w (roll pitch yaw: N·m) of its joint.
  void torqueColumnFitsALaptop() {
    const QSize screen = QGuiApplication::primaryScreen()->size();
    if (screen.width() < 1366 || screen.height() < 768) QSKIP("run Xvfb with -screen 0 1920x1080x24");
    MainWindow w(MainWindow::Settings::Ephemeral);
    w.setErrorHandler([](const QString&, const QString&) {});
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.document()->setFloatingBase(true);
    QSignalSpy finished(w.document(), &RobotDocument::loadingFinished);
    QVERIFY(w.openFile(QStringLiteral(DYNSCOPE_ROBOTS_DIR "/humanoid.urdf")));
    QVERIFY(finished.wait(30000) && finished.at(0).at(0).toBool());
    SimulationDock* sim = w.simulationDock();
    sim->sourceBox()->setCurrentIndex(sim->sourceBox()->findData(int(SimulationDock::Source::Constant)));
    sim->findChild<QPushButton*>("simulationEditTorques")->click();
    JointsDock* joints = w.jointsDock();
    JointRow* first = joints->rows().front();
    QCOMPARE(first->coordinate().jointType, QString("floating"));
    first->lockButton()->click();
    const dyn::Model& m = w.document()->model();
    const auto row = [&](const char* label) { return joints->row(first->coordinate().jointName, label); };
    QVERIFY(row("x") && row("yaw"));
    QCOMPARE(row("x")->torqueDof(), m.joints[first->coordinate().body].idx_v + 3);  // v_x
    QCOMPARE(row("roll")->torqueDof(), m.joints[first->coordinate().body].idx_v);   // w_x
    QCOMPARE(row("x")->torqueBox()->suffix(), QString(" N"));
    QCOMPARE(row("roll")->torqueBox()->suffix(), QString(" N·m"));
    QVERIFY(row("z")->isLocked());  // one lock for the whole joint, on each of its rows
    row("yaw")->torqueBox()->setValue(2.5);
    QCOMPARE(w.document()->constantTorques()[row("yaw")->torqueDof()], 2.5);
    QTest::qWait(100);
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      QVERIFY(w.grab().save(QDir(dir).filePath("joints_dock_torques_1366x768.png")));
    auto* scroll = joints->findChild<QScrollArea*>();
    QVERIFY(scroll);
    QTRY_VERIFY2(
        !scroll->horizontalScrollBar()->isVisible(),  // once the widened dock has laid out
        qPrintable(QString("joints dock %1 px wide, needs %2").arg(joints->width()).arg(joints->preferredWidth())));
    for (JointRow* r : joints->rows())
      for (QWidget* part : std::initializer_list<QWidget*>{r->spinBox(), r->torqueBox(), r->lockButton()}) {
        QVERIFY2(part->isVisible(), qPrintable(r->objectName()));
        QVERIFY2(part->geometry().left() >= 0 && part->geometry().right() < r->width(), qPrintable(r->objectName()));
        QVERIFY2(part->width() >= part->minimumSizeHint().width(), qPrintable(r->objectName()));
      }
    QVERIFY(first->slider()->width() >= 40);  // still a usable slider
  }

  // A huge constant torque makes the velocity explode: the run stops by itself with a message,
  // and the robot keeps the last good (finite) state.
  void divergenceStopsWithAMessage() {
    setSource(SimulationDock::Source::Constant);
    JointRow* row = m_window->jointsDock()->row("swing");
    QVERIFY(row);
    row->torqueBox()->setValue(1e9);
    QCOMPARE(doc()->constantTorques()[0], 1e9);
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
    row->torqueBox()->setValue(0);
    setSource(SimulationDock::Source::Passive);
  }
};

QTEST_MAIN(TestSimulationWindow)
#include "test_simulation_window.moc"
