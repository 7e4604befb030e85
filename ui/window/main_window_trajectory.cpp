// MainWindow's trajectory side: the trajectory, timeline and plots docks and how they are wired
// (timeline -> trajectory time -> robot pose, plot cursors, over-limit highlight; plot click ->
// timeline), the Trajectory and Edit menus, and the project dialogs (the session opens and saves;
// the window gives it the view state to store and applies the one it reads).
#include <QAction>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <algorithm>
#include <memory>

#include "document/robot_document.hpp"
#include "dynscope/trajectory/demo_trajectories.hpp"
#include "ik/ik_dock.hpp"
#include "ik/ik_drag_controller.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "scene/force_arrow_layer.hpp"
#include "scene/robot_scene.hpp"
#include "session/workbench_session.hpp"
#include "simulation/simulation_dock.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_dock.hpp"
#include "trajectory/trajectory_document.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/app_settings.hpp"
#include "window/icons.hpp"
#include "window/joints_dock.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window/recent_files.hpp"
#include "window/view_state.hpp"

namespace {

struct DemoEntry {
  const char* text;
  dyn::DemoTrajectory demo;
  const char* robot;  // in the robots folder
};

const DemoEntry kDemos[] = {
    {"Saha: &Stanford arm (cycloidal, eq. 39)", dyn::DemoTrajectory::SahaStanford, "stanford_arm.dh"},
    {"Saha: 3-link &planar arm (cycloidal)", dyn::DemoTrajectory::SahaPlanar3, "planar3.dh"},
};

QString demoKey(dyn::DemoTrajectory d) { return QString::fromLatin1(dyn::demoTrajectoryName(d)); }

}  // namespace

bool MainWindow::isProjectFile(const QString& path) { return WorkbenchSession::isProjectFile(path); }

void MainWindow::frameMotion() {
  const dyn::SampledTrajectory& s = m_traj->samples();
  if (s.samples() == 0) return;
  std::vector<Eigen::VectorXd> qs;
  const int n = s.samples(), every = std::max(1, n / 60);  // about 60 poses
  for (int k = 0; k < n; k += every) qs.push_back(s.q.col(k));
  qs.push_back(s.q.col(n - 1));
  m_scene->fitToMotion(m_doc->model(), qs);
}

void MainWindow::createTrajectoryUi() {
  connect(m_massDock, &MassMatrixDock::jointClicked, this, [this](int dof) {
    if (dof >= 0 && dof < m_doc->model().nv) m_doc->setSelectedBody(m_doc->model().dofBody[dof]);
  });

  // Time: the timeline drives the trajectory, which poses the robot; a plot click asks the timeline.
  connect(m_timelineDock, &TimelineDock::timeChanged, m_traj, &TrajectoryDocument::setTime);
  connect(m_plotsDock, &PlotsDock::timeRequested, m_timelineDock, &TimelineDock::setTime);
  connect(m_traj, &TrajectoryDocument::trajectoryChanged, this,
          [this] { m_timelineDock->setSampleTimes(m_traj->sampleTimes()); });
  // A motion loaded (a demonstration, a CSV) is framed as it sweeps, while the camera is where the
  // load's framing left it (the pose at load may show little of where the motion goes).
  connect(m_traj, &TrajectoryDocument::trajectoryChanged, this, [this] {
    const bool loaded =
        m_traj->source() == TrajectoryDocument::Source::Demo || m_traj->source() == TrajectoryDocument::Source::Csv;
    const QString what = loaded && m_traj->hasTrajectory() ? m_traj->sourceDescription() : QString();
    if (what == m_framedMotion) return;
    m_framedMotion = what;
    if (!what.isEmpty()) frameMotion();
  });
  connect(m_traj, &TrajectoryDocument::timeChanged, this, &MainWindow::updateLimitHighlight);
  // The document may move the time itself (a recorded run opens at its end): the timeline follows.
  connect(m_traj, &TrajectoryDocument::timeChanged, m_timelineDock, &TimelineDock::setTime);
  connect(m_traj, &TrajectoryDocument::dynamicsChanged, this, [this] {
    updateLimitHighlight();
    if (!m_traj->hasTrajectory()) return;
    statusBar()->showMessage(
        tr("τ for %1 samples in %2 ms").arg(m_traj->samples().samples()).arg(m_traj->lastComputeMs(), 0, 'f', 1), 4000);
  });
  // The steady external wrench (Trajectory dock) drawn where it acts, at the pose shown.
  const auto showWrench = [this] {
    std::vector<ForceArrow> arrows;
    if (m_doc->hasModel())
      for (const dyn::ExternalWrench& w : m_traj->engineWrenches()) {
        const Eigen::Vector3d at = m_doc->data().X0[w.body].pointToA(w.point);
        if (w.force.norm() > 0) arrows.push_back({at, w.force, ForceArrow::Kind::Force});
        if (w.moment.norm() > 0) arrows.push_back({at, w.moment, ForceArrow::Kind::Torque});
      }
    m_scene->setSteadyForceArrows(arrows);
  };
  connect(m_traj, &TrajectoryDocument::dynamicsChanged, this, showWrench);
  connect(m_doc, &RobotDocument::poseChanged, this, showWrench);
  connect(m_traj, &TrajectoryDocument::problemChanged, this, [this](const QString& problem) {
    if (!problem.isEmpty()) m_logDock->append(tr("Trajectory: %1").arg(problem), LogDock::Level::Warning);
  });
  m_timelineDock->setSampleTimes(m_traj->sampleTimes());

  // Simulation: the timeline pauses while it runs; its messages go to the log.
  connect(m_simulationDock, &SimulationDock::runningChanged, this, [this](bool running) {
    if (running) m_timelineDock->pause();
  });
  connect(m_simulationDock, &SimulationDock::message, this, [this](const QString& text, bool warning) {
    m_logDock->append(text, warning ? LogDock::Level::Warning : LogDock::Level::Info);
    if (warning) statusBar()->showMessage(text, 6000);
  });
  // Constant torques are typed in the joints dock (the document holds them): its τ column shows
  // while the simulation uses them, and the simulation dock's button brings that dock forward.
  // The column needs room: the dock widens (up to 40 % of the window, as the workspaces allow, so the 3D view stays the
  // largest part) rather than scroll sideways, and gives the room back when the column goes.
  const auto widthBefore = std::make_shared<int>(0);  // of the joints dock, while widened
  const auto showTorques = [this, widthBefore](SimulationDock::Source s) {
    const bool on = s == SimulationDock::Source::Constant;
    if (on == m_jointsDock->torqueColumnVisible()) return;
    m_jointsDock->setTorqueColumnVisible(on);
    if (!on && *widthBefore > 0) {
      resizeDocks({m_jointsDock}, {*widthBefore}, Qt::Horizontal);
      *widthBefore = 0;
    }
    if (!on) return;
    // Queued: the rows know their width with the column once their layouts have run.
    QMetaObject::invokeMethod(
        this,
        [this, widthBefore] {
          if (!m_jointsDock->torqueColumnVisible()) return;
          const int current = m_jointsDock->width();
          const int wanted = std::min(m_jointsDock->preferredWidth(), width() * 40 / 100);
          if (current >= wanted) return;
          if (*widthBefore == 0) *widthBefore = current;
          resizeDocks({m_jointsDock}, {wanted}, Qt::Horizontal);
        },
        Qt::QueuedConnection);
  };
  connect(m_simulationDock, &SimulationDock::torqueSourceChanged, this, showTorques);
  showTorques(m_simulationDock->torqueSource());
  connect(m_simulationDock, &SimulationDock::jointTorquesRequested, this, [this] {
    m_jointsDock->show();
    m_jointsDock->raise();
  });
}

void MainWindow::createTrajectoryMenus() {
  QAction* undo = m_undo->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  undo->setObjectName("undoAction");
  QAction* redo = m_undo->createRedoAction(this, tr("&Redo"));
  redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
  redo->setObjectName("redoAction");
  QMenu* edit = new QMenu(tr("&Edit"), this);
  menuBar()->insertMenu(menuBar()->actions().value(1), edit);  // after File
  edit->addAction(undo);
  edit->addAction(redo);

  QMenu* traj = new QMenu(tr("&Trajectory"), this);
  traj->setObjectName("trajectoryMenu");
  menuBar()->insertMenu(menuBar()->actions().value(menuBar()->actions().size() - 1), traj);  // before Help
  QAction* add = traj->addAction(tr("&Add pose as waypoint"), m_trajectoryDock, &TrajectoryDock::addCurrentPose);
  add->setObjectName("addWaypointAction");
  add->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
  setToolTipWithShortcut(add, tr("Append the robot's current pose to the waypoints, 1 s after the last"));
  traj->addSeparator();
  QAction* import = traj->addAction(tr("&Import CSV…"), this, &MainWindow::importTrajectoryWithDialog);
  import->setObjectName("importTrajectoryAction");
  import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
  traj->addAction(tr("&Export trajectory CSV…"), this, [this] { exportCsvWithDialog(false); })
      ->setObjectName("exportTrajectoryAction");
  traj->addAction(tr("Export &torques CSV…"), this, [this] { exportCsvWithDialog(true); })
      ->setObjectName("exportTorquesAction");
  QMenu* demos = traj->addMenu(tr("&Demonstrations"));
  for (const DemoEntry& d : kDemos) {
    const DemoEntry entry = d;
    demos
        ->addAction(tr(d.text), this, [this, entry] { loadDemo(entry.demo, QDir(m_defaultDir).filePath(entry.robot)); })
        ->setObjectName("demo_" + demoKey(d.demo));
  }
  traj->addAction(tr("&Clear trajectory"), this, [this] { m_session->clearTrajectory(); });
  traj->addSeparator();
  for (QAction* a : m_timelineDock->playbackActions()) traj->addAction(a);

  QMenu* sim = new QMenu(tr("&Simulation"), this);
  sim->setObjectName("simulationMenu");
  menuBar()->insertMenu(menuBar()->actions().value(menuBar()->actions().size() - 1), sim);  // before Help
  for (QAction* a : m_simulationDock->actions()) sim->addAction(a);

  // File menu: projects, before "Export image".
  QMenu* file = qobject_cast<QMenu*>(menuBar()->actions().value(0)->menu());
  QAction* before = m_exportAction;
  QAction* openProjectAction = new QAction(tr("Open &project…"), this);
  openProjectAction->setObjectName("openProjectAction");
  openProjectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  connect(openProjectAction, &QAction::triggered, this, [this] {
    QSettings s(kSettingsOrganization, kSettingsApplication);
    QString dir = m_settings == Settings::Persistent ? s.value("lastDirectory").toString() : QString();
    if (dir.isEmpty()) dir = m_defaultDir;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project"), dir,
                                                      tr("Dynscope projects (*.json *.dynscope);;All files (*)"));
    if (!path.isEmpty()) openProject(path);
  });
  m_saveProjectAction = new QAction(tr("&Save project"), this);
  m_saveProjectAction->setObjectName("saveProjectAction");
  m_saveProjectAction->setShortcut(QKeySequence::Save);
  connect(m_saveProjectAction, &QAction::triggered, m_session, &WorkbenchSession::saveProjectOrAsk);
  QAction* saveAs = new QAction(tr("Save project &as…"), this);
  saveAs->setObjectName("saveProjectAsAction");
  saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  connect(saveAs, &QAction::triggered, this, &MainWindow::saveProjectWithDialog);
  QAction* saveRobot = new QAction(tr("Save &robot as…"), this);
  saveRobot->setObjectName("saveRobotAsAction");
  saveRobot->setToolTip(tr("The robot with its edits as a URDF or a DH table (the opened file is not changed)"));
  connect(saveRobot, &QAction::triggered, this, [this] {
    if (!m_doc->hasModel()) return;
    const QString suffix = m_doc->dhTable() ? ".dh" : ".urdf";
    const QString base = m_doc->sourceFile().isEmpty()
                             ? QDir::home().filePath(m_doc->robotName() + suffix)
                             : QFileInfo(m_doc->sourceFile()).dir().filePath(m_doc->robotName() + "_edited" + suffix);
    QString filter = m_doc->dhTable() ? tr("DH table (*.dh)") : tr("URDF (*.urdf)");
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save robot as"), base, tr("URDF (*.urdf);;DH table (*.dh)"), &filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += suffix;
    m_session->saveRobot(path);
  });
  file->insertActions(before, {openProjectAction, m_saveProjectAction, saveAs, saveRobot});
  file->insertSeparator(before);
}

void MainWindow::updateLimitHighlight() {
  std::vector<int> bodies;
  const dyn::Model& m = m_doc->model();
  for (int dof : m_traj->overLimitDofsAtTime()) bodies.push_back(m.dofBody[dof]);
  m_scene->setWarningBodies(bodies);
}

void MainWindow::importTrajectoryWithDialog() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Import trajectory"), m_defaultDir, tr("CSV files (*.csv);;All files (*)"));
  if (!path.isEmpty()) m_session->importTrajectory(path);
}

void MainWindow::exportCsvWithDialog(bool dynamics) {
  const QString base = (m_doc->hasModel() ? m_doc->robotName() : QStringLiteral("dynscope")) +
                       (dynamics ? "_torques.csv" : "_trajectory.csv");
  const QString path = QFileDialog::getSaveFileName(this, dynamics ? tr("Export torques") : tr("Export trajectory"),
                                                    QDir::home().filePath(base), tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  QString error;
  const bool ok = dynamics ? m_traj->exportDynamicsCsv(path, &error) : m_traj->exportCsv(path, &error);
  if (!ok)
    showError(tr("Export CSV"), error);
  else
    m_logDock->append(tr("Saved %1").arg(path));
}

void MainWindow::loadDemo(dyn::DemoTrajectory demo, const QString& robotFile) { m_session->loadDemo(demo, robotFile); }

bool MainWindow::openProject(const QString& path) { return m_session->openProject(path); }

bool MainWindow::saveProject(const QString& path) { return m_session->saveProject(path); }

QString MainWindow::projectFile() const { return m_session->projectFile(); }

bool MainWindow::saveProjectWithDialog() {
  const QString base =
      projectFile().isEmpty()
          ? QDir::home().filePath((m_doc->hasModel() ? m_doc->robotName() : QStringLiteral("dynscope")) + ".json")
          : projectFile();
  QString path = QFileDialog::getSaveFileName(this, tr("Save project"), base, tr("Dynscope projects (*.json)"));
  if (path.isEmpty()) return false;
  if (!isProjectFile(path)) path += ".json";
  return saveProject(path);
}

QJsonObject MainWindow::viewState() const {
  ViewState v = captureViewState(m_scene, m_viewport->renderer());
  v.plotTab = m_plotsDock->tabs()->currentIndex();
  v.time = m_traj->time();
  return toJson(v);
}

void MainWindow::applyViewState(const QJsonObject& json) {
  const ViewState v = fromJson(json);
  for (QAction* a : m_toggleActions) {
    const QString id = a->objectName().mid(5);  // "show_<id>"
    if (v.toggles.contains(id)) a->setChecked(v.toggles.value(id));
  }
  if (v.frameScale > 0) m_frameScale->setValue(v.frameScale);
  if (v.opacity > 0) m_opacity->setValue(qRound(v.opacity * 100));
  m_orthoAction->setChecked(v.camera.parallel);
  restoreCamera(v, m_viewport->renderer());
  if (v.plotTab >= 0 && v.plotTab < m_plotsDock->tabs()->count()) m_plotsDock->tabs()->setCurrentIndex(v.plotTab);
  if (v.time) m_timelineDock->setTime(*v.time);
}

// Inverse-kinematics dragging: the controller on the viewport, its dock next to the joints, an IK
// menu and the drag-mode button on the view toolbar.
void MainWindow::createIkUi() {
  QMenu* ik = new QMenu(tr("&IK"), this);
  ik->setObjectName("ikMenu");
  menuBar()->insertMenu(menuBar()->actions().value(menuBar()->actions().size() - 1), ik);  // before Help
  ik->addActions(m_ik->actions());
  ik->addSeparator();
  if (QAction* add = findChild<QAction*>("addWaypointAction")) ik->addAction(add);  // feed the trajectory editor
  m_viewToolBar->addSeparator();
  m_viewToolBar->addAction(m_ik->dragModeAction());
  connect(m_ik, &IkDragController::message, this,
          [this](const QString& t) { m_logDock->append(t, LogDock::Level::Warning); });
  connect(m_ik, &IkDragController::statusText, this, [this](const QString& t) { statusBar()->showMessage(t, 3000); });

  // Locks: the joints dock's toggles and the IK dock's list both go through the controller, and
  // both show what it holds (it may refuse, e.g. without a model; it clears them on a load).
  const auto showLocks = [this] {
    for (int j = 1; j <= m_doc->model().N; ++j) m_jointsDock->setJointLocked(j, m_ik->isJointLocked(j));
  };
  connect(m_jointsDock, &JointsDock::jointLockToggled, this, [this, showLocks](int joint, bool locked) {
    m_ik->setJointLocked(joint, locked);
    showLocks();
  });
  connect(m_ik, &IkDragController::locksChanged, this, showLocks);
  connect(m_doc, &RobotDocument::modelChanged, this, showLocks);  // after the dock's rows are rebuilt
  showLocks();
}
