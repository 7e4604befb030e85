// The trajectory workflow in the whole window, as a lecturer uses it: load a demonstration, scrub
// the timeline (the robot and every plot cursor follow), click a plot to scrub, toggle a joint in
// the legend, see an over-limit joint flagged on the plot and in 3D, edit waypoints with undo,
// export PNG / SVG / CSV, and save and reopen a project. References are the engine's own
// functions called directly (rnea, the sampled trajectory), not values copied from the GUI.
// Runs under Xvfb.
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include <cmath>
#include <memory>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include "document/robot_document.hpp"
#include "dynscope/dynscope.hpp"
#include "dynscope/trajectory/trajectory.hpp"
#include "ik/ik_dock.hpp"
#include "ik/ik_drag_controller.hpp"
#include "plots/plot_canvas.hpp"
#include "plots/plot_legend.hpp"
#include "plots/time_series_plot.hpp"
#include "scene/robot_scene.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/joint_row.hpp"
#include "window/joints_dock.hpp"
#include "window/main_window.hpp"
#include "window_loading.hpp"

namespace {

using dyn::testing::settle;
QString robot(const char* name) { return dyn::testing::robotFile(name); }

QPoint legendEntryPixel(PlotCanvas* view, int entry) {
  PlotLegend* legend = view->plotLegend();
  return view->mapFromScene(legend->mapToScene(legend->entryRect(entry).center()));
}

// The data value under a viewport pixel through QChart's own mapping.
double timeAtPixel(PlotCanvas* view, QAbstractSeries* series, const QPoint& pixel) {
  QChart* chart = view->chart();
  return chart->mapToValue(chart->mapFromScene(view->mapToScene(pixel)), series).x();
}
QPoint pixelOfTime(PlotCanvas* view, QAbstractSeries* series, double t) {
  QChart* chart = view->chart();
  return view->mapFromScene(chart->mapToScene(chart->mapToPosition({t, 0.0}, series)));
}

// World point -> pixel of the window's 3D view (the inverse of the IK controller's mapping).
QPointF project(VtkViewport* view, const Eigen::Vector3d& p) {
  vtkRenderer* r = view->renderer();
  r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  r->WorldToDisplay();
  const double* d = r->GetDisplayPoint();
  const double dpr = view->devicePixelRatioF();
  return {d[0] / dpr, (view->renderWindow()->GetSize()[1] - 1 - d[1]) / dpr};
}

// The IK dock's entry for a joint (body index).
QListWidgetItem* lockItem(QListWidget* list, int joint) {
  for (int i = 0; i < list->count(); ++i)
    if (list->item(i)->data(Qt::UserRole).toInt() == joint) return list->item(i);
  return nullptr;
}

int csvRows(const QString& path, QString* header = nullptr) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return -1;
  const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
  if (header) *header = QString::fromUtf8(lines.value(0));
  return int(lines.size()) - 1;
}

}  // namespace

class TestTrajectoryWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<MainWindow> m_window;
  QTemporaryDir m_tmp;

  RobotDocument* doc() const { return m_window->document(); }
  TrajectoryDocument* traj() const { return m_window->trajectory(); }

  bool open(const QString& path) { return dyn::testing::openAndWait(*m_window, path); }
  // The demo on its own arm (loaded by the demo action when another robot is open).
  bool loadStanfordDemo() {
    QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
    m_window->loadDemo(dyn::DemoTrajectory::SahaStanford, robot("stanford_arm.dh"));
    if (traj()->source() != TrajectoryDocument::Source::Demo && !finished.wait(30000)) return false;
    settle();
    return traj()->source() == TrajectoryDocument::Source::Demo && traj()->hasTrajectory();
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_tmp.isValid());
    m_window = std::make_unique<MainWindow>(MainWindow::Settings::Ephemeral);
    m_window->setDefaultDirectory(QStringLiteral(DYNSCOPE_ROBOTS_DIR));
    m_window->setErrorHandler([](const QString&, const QString&) {});
    m_window->resize(1500, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(open(robot("ur5.urdf")));
  }
  void cleanupTestCase() { m_window.reset(); }

  // The demo action opens the Stanford arm (another robot is loaded) and fills timeline and plots.
  void demoOpensItsRobotAndFillsTimelineAndPlots() {
    QVERIFY(loadStanfordDemo());
    QVERIFY(doc()->sourceFile().endsWith("stanford_arm.dh"));
    const dyn::SampledTrajectory& s = traj()->samples();
    QVERIFY(s.samples() > 100);
    QCOMPARE(m_window->timelineDock()->scrubber()->maximum(), s.samples() - 1);
    m_window->plotsDock()->showTab(PlotsDock::Torque);
    settle();
    TimeSeriesPlot* tau = m_window->plotsDock()->plot(PlotsDock::Torque);
    QCOMPARE(tau->seriesCount(), doc()->model().nv);
    QCOMPARE(tau->sampleCount(), s.samples());
    // The plotted torques are RNEA at every sample (engine called here, independently).
    const dyn::Model& m = traj()->dynamicsModel();
    dyn::Data d(m);
    for (int k = 0; k < s.samples(); k += 37) {
      const Eigen::VectorXd ref = dyn::rnea(m, d, s.q.col(k), s.qd.col(k), s.qdd.col(k));
      for (int j = 0; j < m.nv; ++j)
        QVERIFY(std::abs(tau->seriesValues(j)[k] - ref[j]) <= 1e-9 * (1 + std::abs(ref[j])));
    }
  }

  // Scrubbing the timeline poses the robot at that sample and moves every plot cursor.
  void scrubbingMovesRobotAndPlotCursor() {
    QVERIFY(traj()->hasTrajectory());
    const dyn::SampledTrajectory& s = traj()->samples();
    QSlider* slider = m_window->timelineDock()->scrubber();
    const int k = s.samples() * 2 / 3;
    slider->setSliderPosition(k);  // as a drag does (sliderMoved)
    settle();
    QCOMPARE(m_window->timelineDock()->time(), s.t[k]);
    QCOMPARE(traj()->time(), s.t[k]);
    QVERIFY((doc()->q() - s.q.col(k)).cwiseAbs().maxCoeff() < 1e-12);
    const dyn::Model& m = traj()->dynamicsModel();
    dyn::Data d(m);
    const Eigen::VectorXd ref = dyn::rnea(m, d, s.q.col(k), s.qd.col(k), s.qdd.col(k));
    QVERIFY((traj()->tauAtTime() - ref).cwiseAbs().maxCoeff() < 1e-9);
    PlotsDock* plots = m_window->plotsDock();
    QCOMPARE(plots->plot(PlotsDock::Torque)->cursorTime(), s.t[k]);
    plots->showTab(PlotsDock::Velocity);  // a tab filled later has the cursor too
    settle();
    QCOMPARE(plots->plot(PlotsDock::Velocity)->cursorTime(), s.t[k]);
    plots->showTab(PlotsDock::Torque);
    settle();
  }

  // A click on the τ plot scrubs: timeline, trajectory time and robot follow.
  void clickOnPlotScrubs() {
    TimeSeriesPlot* tau = m_window->plotsDock()->plot(PlotsDock::Torque);
    PlotCanvas* view = tau->canvas();
    const dyn::SampledTrajectory& s = traj()->samples();
    const double target = s.startTime() + 0.3 * (s.endTime() - s.startTime());
    const QPoint pixel = pixelOfTime(view, tau->lineSeries(0), target);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixel);
    settle();
    const double clicked = timeAtPixel(view, tau->lineSeries(0), pixel);
    const double dt = s.t[1] - s.t[0];
    QVERIFY2(std::abs(m_window->timelineDock()->time() - clicked) <= dt,
             qPrintable(QString("timeline %1, clicked %2").arg(m_window->timelineDock()->time()).arg(clicked)));
    QCOMPARE(traj()->time(), m_window->timelineDock()->time());
    const int k = s.nearestSample(traj()->time());
    QVERIFY((doc()->q() - s.q.col(k)).cwiseAbs().maxCoeff() < 1e-9 ||
            std::abs(traj()->time() - s.t[k]) > 1e-12);  // exactly on a sample: the sample's pose
  }

  // Clicking a legend entry hides that joint's series; clicking again shows it.
  void legendTogglesAJoint() {
    TimeSeriesPlot* tau = m_window->plotsDock()->plot(PlotsDock::Torque);
    const QPoint entry = legendEntryPixel(tau->canvas(), 2);
    QVERIFY(tau->canvas()->viewport()->rect().contains(entry));
    QTest::mouseClick(tau->canvas()->viewport(), Qt::LeftButton, {}, entry);
    settle();
    QVERIFY(!tau->isSeriesVisible(2));
    QVERIFY(!tau->lineSeries(2)->isVisible());
    QVERIFY(tau->lineSeries(1)->isVisible());
    QTest::mouseClick(tau->canvas()->viewport(), Qt::LeftButton, {}, entry);
    settle();
    QVERIFY(tau->isSeriesVisible(2));
  }

  // The energy tab plots kinetic + potential = total; kinetic = 1/2 qd^T H(q) qd with H from CRBA.
  void energyTabShowsEnergies() {
    PlotsDock* plots = m_window->plotsDock();
    plots->showTab(PlotsDock::Energy);
    settle();
    TimeSeriesPlot* e = plots->plot(PlotsDock::Energy);
    QCOMPARE(e->seriesCount(), 3);
    const dyn::SampledTrajectory& s = traj()->samples();
    const dyn::Model& m = traj()->dynamicsModel();
    dyn::Data d(m);
    for (int k = 0; k < s.samples(); k += 53) {
      const Eigen::MatrixXd H = dyn::crba(m, d, s.q.col(k));
      const double T = 0.5 * s.qd.col(k).dot(H * s.qd.col(k));
      QVERIFY(std::abs(e->seriesValues(0)[k] - T) <= 1e-9 * (1 + std::abs(T)));
      QVERIFY(std::abs(e->seriesValues(0)[k] + e->seriesValues(1)[k] - e->seriesValues(2)[k]) <= 1e-9);
    }
    plots->showTab(PlotsDock::Torque);
  }

  // Exports: the τ plot as PNG and SVG, its data and the whole dynamics as CSV.
  void exportsWriteValidFiles() {
    TimeSeriesPlot* tau = m_window->plotsDock()->plot(PlotsDock::Torque);
    const QString png = m_tmp.filePath("tau.png"), svg = m_tmp.filePath("tau.svg"), csv = m_tmp.filePath("tau.csv"),
                  all = m_tmp.filePath("dynamics.csv"), trajCsv = m_tmp.filePath("trajectory.csv");
    QString error;
    QVERIFY2(tau->exportPng(png, QSize(1200, 700), &error), qPrintable(error));
    QImage image(png);
    QCOMPARE(image.size(), QSize(1200, 700));
    QVERIFY2(tau->exportSvg(svg, &error), qPrintable(error));
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QVERIFY2(tau->exportCsv(csv, &error), qPrintable(error));
    QString header;
    QCOMPARE(csvRows(csv, &header), traj()->samples().samples());
    QCOMPARE(header.split(',').size(), 1 + doc()->model().nv);
    QVERIFY2(traj()->exportDynamicsCsv(all, &error), qPrintable(error));
    QCOMPARE(csvRows(all, &header), traj()->samples().samples());
    QVERIFY(header.startsWith("t,tau_"));
    QVERIFY(header.contains("inertial_") && header.contains("coriolis_") && header.contains("gravity_") &&
            header.contains("total_energy"));
    // The trajectory CSV reads back as the same trajectory.
    QVERIFY2(traj()->exportCsv(trajCsv, &error), qPrintable(error));
    const dyn::TrajectoryCsv back = dyn::readTrajectoryCsv(doc()->model(), trajCsv.toStdString());
    QVERIFY((back.trajectory.q - traj()->samples().q).cwiseAbs().maxCoeff() < 1e-12);
  }

  // A payload too heavy for the UR5's shoulder: its τ samples are flagged on the plot and, at such
  // an instant, the shoulder link is drawn in warning red.
  void overLimitSampleIsFlaggedOnPlotAnd3D() {
    QVERIFY(open(robot("ur5.urdf")));
    const dyn::Model& m = doc()->model();
    // Two waypoints: the arm stretched out horizontally, and moving a little.
    Eigen::VectorXd q0 = Eigen::VectorXd::Zero(m.nq), q1 = q0;
    q1[0] = 0.5;
    traj()->setWaypoints({{0.0, q0}, {2.0, q1}});
    QString error;
    QVERIFY2(traj()->setPayload(dyn::Payload{"wrist_3_link", 60.0, Eigen::Vector3d(0, 0, 0.1)}, &error),
             qPrintable(error));
    traj()->recomputeNow();
    QVERIFY(traj()->hasTrajectory());
    const dyn::EffortLimitViolations& v = traj()->violations();
    int flaggedDof = -1;
    for (int j = 0; j < int(v.samples.size()); ++j)
      if (!v.samples[j].empty()) flaggedDof = j;
    QVERIFY2(flaggedDof >= 0, "60 kg at the UR5's flange should exceed an effort limit");
    // The flagged samples are exactly those where |τ| > effort limit (checked here from τ).
    const Eigen::MatrixXd& tau = traj()->dynamics().tau;
    int body = -1;
    for (int i = 1; i <= m.N; ++i)
      if (m.joints[i].idx_v == flaggedDof) body = i;
    QVERIFY(body > 0);
    const double limit = m.effortLimit[flaggedDof];
    for (int k = 0; k < tau.cols(); ++k)
      QCOMPARE(std::binary_search(v.samples[flaggedDof].begin(), v.samples[flaggedDof].end(), k),
               std::abs(tau(flaggedDof, k)) > limit);
    m_window->plotsDock()->showTab(PlotsDock::Torque);
    settle();
    TimeSeriesPlot* plot = m_window->plotsDock()->plot(PlotsDock::Torque);
    QCOMPARE(plot->flaggedSamples(flaggedDof), v.samples[flaggedDof]);
    QVERIFY(plot->upperLimitSeries(flaggedDof) != nullptr);
    // Scrub to a flagged sample: the link turns red; to a sample within limits (none here at rest
    // with 60 kg?) the highlight follows the set.
    const int k = v.samples[flaggedDof].front();
    m_window->timelineDock()->setTime(traj()->samples().t[k]);
    settle();
    const std::vector<int>& red = m_window->scene()->warningBodies();
    QVERIFY(std::find(red.begin(), red.end(), body) != red.end());
    // Without the payload nothing is over the limit and nothing is red.
    QVERIFY(traj()->setPayload(std::nullopt));
    traj()->recomputeNow();
    settle();
    QVERIFY(m_window->scene()->warningBodies().empty());
  }

  // Waypoint editing through the dock and the menu action, with undo / redo.
  void addPoseAndUndo() {
    QVERIFY(open(robot("ur5.urdf")));  // the same joints: the previous trajectory stays; start afresh
    QUndoStack* undo = m_window->undoStack();
    undo->clear();
    traj()->clear();
    QAction* add = m_window->findChild<QAction*>("addWaypointAction");
    QVERIFY(add);
    add->trigger();
    Eigen::VectorXd q = doc()->q();
    q[1] = -0.8;
    q[2] = 1.1;
    doc()->setQ(q);
    add->trigger();
    settle();
    QCOMPARE(int(traj()->waypoints().size()), 2);
    QCOMPARE(m_window->trajectoryDock()->table()->rowCount(), 2);
    QVERIFY(traj()->hasTrajectory());
    QCOMPARE(traj()->samples().endTime(), 1.0);
    // The robot shows the pose just added, waypoint 2: the time is its time, on the timeline too.
    QVERIFY((doc()->q() - q).cwiseAbs().maxCoeff() < 1e-12);
    QCOMPARE(traj()->time(), 1.0);
    QCOMPARE(m_window->timelineDock()->time(), 1.0);
    const QString shown = m_window->timelineDock()->findChild<QLabel*>("timeLabel")->text();
    QVERIFY2(shown.startsWith("t = 1.000 / 1.000 s"), qPrintable(shown));
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      QVERIFY(m_window->grab().save(dir + "/waypoint_added_time.png"));
    QCOMPARE(undo->count(), 2);
    undo->undo();
    settle();
    QCOMPARE(int(traj()->waypoints().size()), 1);
    QVERIFY(!traj()->hasTrajectory());
    QCOMPARE(m_window->trajectoryDock()->table()->rowCount(), 1);
    undo->redo();
    settle();
    QCOMPARE(int(traj()->waypoints().size()), 2);
    QVERIFY((traj()->waypoints()[1].q - q).cwiseAbs().maxCoeff() < 1e-15);
    // The interpolation box is undoable too and changes the samples' derivatives, not the ends.
    QComboBox* box = m_window->trajectoryDock()->interpolationBox();
    const int before = box->currentIndex();
    box->setFocus();
    QTest::keyClick(box, before + 1 < box->count() ? Qt::Key_Down : Qt::Key_Up);  // as a user picks one
    settle();
    QVERIFY(box->currentIndex() != before);
    QCOMPARE(undo->count(), 3);
    undo->undo();
    settle();
    QCOMPARE(box->currentIndex(), before);
    // Updating waypoint 1 with a new pose: the time goes to waypoint 1, where the robot now is.
    Eigen::VectorXd q1 = q;
    q1[0] = 0.6;
    doc()->setQ(q1);
    m_window->trajectoryDock()->table()->selectRow(0);
    m_window->trajectoryDock()->updateSelected();
    settle();
    QCOMPARE(traj()->time(), 0.0);
    QCOMPARE(m_window->timelineDock()->time(), 0.0);
    QVERIFY((doc()->q() - q1).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY((traj()->waypoints()[0].q - q1).cwiseAbs().maxCoeff() < 1e-15);
    undo->undo();  // the update
    settle();
    QVERIFY((traj()->waypoints()[0].q - q1).cwiseAbs().maxCoeff() > 0.1);
  }

  // Save a project (robot, waypoints, payload, gravity, view) and open it in a fresh window.
  void projectRoundTrip() {
    QVERIFY(traj()->hasTrajectory());
    QVERIFY(traj()->setPayload(dyn::Payload{"wrist_3_link", 1.5, Eigen::Vector3d(0, 0.01, 0.05)}));
    traj()->setGravity(Eigen::Vector3d(0, 0, -1.62));  // the Moon
    traj()->recomputeNow();
    m_window->timelineDock()->setTime(0.4);
    settle();
    const QString path = m_tmp.filePath("lecture.json");
    QVERIFY(m_window->saveProject(path));
    QCOMPARE(m_window->projectFile(), QFileInfo(path).absoluteFilePath());

    MainWindow other(MainWindow::Settings::Ephemeral);
    other.setErrorHandler([](const QString& title, const QString& text) { QFAIL(qPrintable(title + ": " + text)); });
    other.resize(1200, 800);
    other.show();
    QVERIFY(QTest::qWaitForWindowExposed(&other));
    QSignalSpy finished(other.document(), &RobotDocument::loadingFinished);
    QVERIFY(other.openFile(path));  // by extension: a project
    QVERIFY(finished.wait(30000));
    settle();
    TrajectoryDocument* t2 = other.trajectory();
    QCOMPARE(other.projectFile(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(other.document()->sourceFile(), doc()->sourceFile());
    QCOMPARE(int(t2->waypoints().size()), int(traj()->waypoints().size()));
    for (size_t i = 0; i < t2->waypoints().size(); ++i) {
      QCOMPARE(t2->waypoints()[i].t, traj()->waypoints()[i].t);
      QVERIFY((t2->waypoints()[i].q - traj()->waypoints()[i].q).cwiseAbs().maxCoeff() < 1e-15);
    }
    QVERIFY(t2->payload().has_value());
    QCOMPARE(t2->payload()->mass, 1.5);
    // The dock shows the project's payload and gravity.
    QVERIFY(other.trajectoryDock()->findChild<QCheckBox*>("payloadOn")->isChecked());
    QCOMPARE(other.trajectoryDock()->findChild<QDoubleSpinBox*>("payloadMass")->value(), 1.5);
    QCOMPARE(other.trajectoryDock()->findChild<QComboBox*>("payloadLink")->currentText(), QString("wrist_3_link"));
    QCOMPARE(other.trajectoryDock()->findChild<QDoubleSpinBox*>("gravityz")->value(), -1.62);
    QCOMPARE(t2->gravity(), Eigen::Vector3d(0, 0, -1.62));
    QCOMPARE(t2->interpolation(), traj()->interpolation());
    QVERIFY(std::abs(t2->time() - 0.4) < 1e-12);
    QVERIFY((t2->dynamics().tau - traj()->dynamics().tau).cwiseAbs().maxCoeff() < 1e-12);
  }

  // IK dragging is wired in: its menu holds drag mode and "add pose as waypoint"; its undo stack
  // is the window's (a drag undoes with Ctrl+Z like a waypoint edit).
  void ikIsWiredIntoTheWindow() {
    QMenu* ik = m_window->findChild<QMenu*>("ikMenu");
    QVERIFY(ik);
    QAction* drag = m_window->ikController()->dragModeAction();
    QVERIFY(ik->actions().contains(drag));
    QVERIFY(ik->actions().contains(m_window->findChild<QAction*>("addWaypointAction")));
    QVERIFY(m_window->ikDock());
    drag->setChecked(true);
    settle();
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty()) {
      m_window->ikDock()->raise();
      settle(200);
      QVERIFY(m_window->grab().save(QDir(dir).filePath("ik_window.png")));
    }
    drag->setChecked(false);
  }

  // Issue 6: joints are locked from the joints dock. A row's lock reaches the IK controller and
  // the IK dock's list, and back; a drag of the tool keeps the locked joint's value exactly while
  // the others move; loading a robot clears the locks everywhere.
  void jointsDockLocksJointsForIk() {
    QVERIFY(open(robot("ur5.urdf")));
    const dyn::Model& m = doc()->model();
    IkDragController* ik = m_window->ikController();
    JointsDock* joints = m_window->jointsDock();
    QListWidget* list = m_window->ikDock()->lockList();
    const int pan = m.jointIndex("shoulder_pan_joint"), elbow = m.jointIndex("elbow_joint");
    JointRow* panRow = joints->row("shoulder_pan_joint");
    QVERIFY(pan > 0 && elbow > 0 && panRow && lockItem(list, pan) && lockItem(list, elbow));
    joints->raise();
    settle();
    QVERIFY(panRow->lockButton()->isVisible());
    QVERIFY(panRow->lockButton()->toolTip().contains("IK"));

    QTest::mouseClick(panRow->lockButton(), Qt::LeftButton);
    QVERIFY(panRow->isLocked());
    QVERIFY(ik->isJointLocked(pan));
    QCOMPARE(lockItem(list, pan)->checkState(), Qt::Checked);
    lockItem(list, pan)->setCheckState(Qt::Unchecked);  // unlocked in the IK dock
    QVERIFY(!ik->isJointLocked(pan));
    QVERIFY(!panRow->isLocked());
    lockItem(list, elbow)->setCheckState(Qt::Checked);  // locked in the IK dock
    QVERIFY(joints->row("elbow_joint")->isLocked());
    ik->setJointLocked(elbow, false);
    QVERIFY(!joints->row("elbow_joint")->isLocked());

    // A drag with the base joint locked from its row.
    QTest::mouseClick(panRow->lockButton(), Qt::LeftButton);
    QVERIFY(ik->isJointLocked(pan));
    Eigen::VectorXd q(6);
    q << 0.4, -1.2, 1.5, -1.2, -1.4, 0.3;
    QVERIFY(doc()->setQ(q));
    m_window->scene()->setViewPreset(RobotScene::Iso);
    ik->dragModeAction()->setChecked(true);
    ik->positionOnlyAction()->setChecked(true);
    VtkViewport* view = m_window->viewport();
    view->grabImage();  // one frame: sizes and the handle's scale settle
    const int frame = ik->draggedFrame();
    QVERIFY(frame >= 0);
    const Eigen::Vector3d p0 = doc()->data().oMf[frame].translation();
    const QPointF from = project(view, p0);
    QVERIFY(view->rect().contains(from.toPoint()));
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    QCOMPARE(ik->grabbedPart(), IkGizmo::Centre);
    for (int k = 1; k <= 5; ++k) QTest::mouseMove(view, (from + k * QPointF(6, 4)).toPoint());
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, (from + QPointF(30, 20)).toPoint());
    const int iq = m.joints[pan].idx_q;
    QCOMPARE(doc()->q()[iq], q[iq]);                                       // exactly
    QVERIFY((doc()->data().oMf[frame].translation() - p0).norm() > 1e-3);  // the tool moved
    QVERIFY((doc()->q() - q).cwiseAbs().maxCoeff() > 1e-3);                // by other joints
    QVERIFY2(panRow->isLocked(), "a drag leaves the locks as they are");
    if (const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR"); !dir.isEmpty())
      QVERIFY(m_window->grab().save(QDir(dir).filePath("joints_dock_locked.png")));
    m_window->undoStack()->undo();
    QCOMPARE(doc()->q(), q);
    ik->positionOnlyAction()->setChecked(false);
    ik->dragModeAction()->setChecked(false);

    // Loading a robot clears the locks in the controller, the IK dock and the rows.
    QVERIFY(open(robot("ur5.urdf")));
    QVERIFY(!ik->isJointLocked(pan));
    QCOMPARE(lockItem(list, pan)->checkState(), Qt::Unchecked);
    for (JointRow* r : joints->rows()) QVERIFY2(!r->isLocked(), qPrintable(r->objectName()));
  }

  // With DYNSCOPE_GRAB_DIR set: the window with the Stanford demo mid-way, for a human to look at.
  void grabPicture() {
    const QString dir = qEnvironmentVariable("DYNSCOPE_GRAB_DIR");
    if (dir.isEmpty()) QSKIP("set DYNSCOPE_GRAB_DIR to keep a picture of the window");
    QVERIFY(loadStanfordDemo());
    m_window->timelineDock()->setTime(0.45 * traj()->samples().endTime());
    m_window->plotsDock()->showTab(PlotsDock::Torque);
    settle(200);
    QVERIFY(m_window->grab().save(QDir(dir).filePath("trajectory_window.png")));
    m_window->plotsDock()->showTab(PlotsDock::Decomposition);
    settle(200);
    QVERIFY(m_window->grab().save(QDir(dir).filePath("trajectory_decomposition.png")));
    // The UR5 with a payload beyond its shoulder's rating, at an over-limit instant.
    QVERIFY(open(robot("ur5.urdf")));
    Eigen::VectorXd q0 = Eigen::VectorXd::Zero(doc()->model().nq), q1 = q0;
    q1[0] = 1.0;
    q1[1] = -0.6;
    traj()->setWaypoints({{0.0, q0}, {3.0, q1}});
    QVERIFY(traj()->setPayload(dyn::Payload{"wrist_3_link", 25.0, Eigen::Vector3d(0, 0, 0.1)}));
    traj()->recomputeNow();
    m_window->plotsDock()->showTab(PlotsDock::Torque);
    m_window->timelineDock()->setTime(0.2);
    m_window->trajectoryDock()->raise();
    settle(200);
    QVERIFY(m_window->grab().save(QDir(dir).filePath("trajectory_over_limit.png")));
  }

  // Reload (F5) keeps the trajectory and the payload: the joints are the same.
  void reloadKeepsTrajectoryAndPayload() {
    QVERIFY(open(robot("ur5.urdf")));
    traj()->setWaypoints({{0.0, Eigen::VectorXd::Zero(6)}, {1.0, Eigen::VectorXd::Constant(6, 0.2)}});
    QVERIFY(traj()->setPayload(dyn::Payload{"wrist_3_link", 2.0, Eigen::Vector3d::Zero()}));
    traj()->recomputeNow();
    QSignalSpy finished(doc(), &RobotDocument::loadingFinished);
    m_window->reloadFile();
    QVERIFY(finished.wait(30000));
    settle();
    QCOMPARE(int(traj()->waypoints().size()), 2);
    QVERIFY(traj()->payload().has_value());
    QCOMPARE(traj()->payload()->mass, 2.0);
    QVERIFY(m_window->trajectoryDock()->findChild<QCheckBox*>("payloadOn")->isChecked());
  }

  // Switching robots empties the plots: no stale time cursor stays on them, also when the time
  // moves on (issue 22: "a stale time-cursor line stays on empty plots after switching robots").
  void switchingRobotsLeavesNoCursorOnEmptyPlots() {
    QVERIFY(loadStanfordDemo());
    PlotsDock* plots = m_window->plotsDock();
    plots->showTab(PlotsDock::Torque);
    settle();
    TimeSeriesPlot* tau = plots->plot(PlotsDock::Torque);
    traj()->setTime(0.3 * traj()->samples().endTime());
    settle();
    QVERIFY(!tau->canvas()->cursorLine().isNull());
    QVERIFY(open(robot("ur5.urdf")));
    settle();
    if (traj()->hasTrajectory()) QSKIP("the new robot came with a trajectory");
    QCOMPARE(tau->sampleCount(), 0);
    QVERIFY(tau->canvas()->cursorLine().isNull());
    traj()->setTime(0.5);
    settle();
    QVERIFY(tau->canvas()->cursorLine().isNull());
    // The dock asks for room enough for its plots to be readable.
    const QSize readable = plots->readableSize();
    QVERIFY(readable.width() >= tau->minimumSizeHint().width() && readable.height() > tau->minimumSizeHint().height());
  }

  // A broken project names the file and leaves the current robot loaded.
  void brokenProjectKeepsTheRobot() {
    QString message;
    m_window->setErrorHandler([&](const QString&, const QString& text) { message = text; });
    const QString path = m_tmp.filePath("broken.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{ \"format\": \"dynscope-project\", \"version\": 1,\n  \"robot\": 12 }\n");
    f.close();
    const QString before = doc()->sourceFile();
    QVERIFY(!m_window->openFile(path));
    QVERIFY2(message.contains("broken.json"), qPrintable(message));
    QCOMPARE(doc()->sourceFile(), before);
    m_window->setErrorHandler([](const QString&, const QString&) {});
  }
};

QTEST_MAIN(TestTrajectoryWindow)
#include "test_trajectory_window.moc"
