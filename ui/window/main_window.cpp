#include "window/main_window.hpp"

#include "dh/dh_table_dock.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <algorithm>

#include "algorithms/algorithms_dock.hpp"
#include "document/robot_document.hpp"
#include "document/save_file.hpp"
#include "ik/ik_dock.hpp"
#include "ik/ik_drag_controller.hpp"
#include "lecture/algorithm_inspector_dock.hpp"
#include "lecture/equations_dock.hpp"
#include "lecture/lecture_document.hpp"
#include "massmatrix/mass_matrix_dock.hpp"
#include "scene/robot_scene.hpp"
#include "scene/trace_arrow_overlay.hpp"
#include "session/workbench_session.hpp"
#include "simulation/ground_box.hpp"
#include "simulation/perturbation_drag.hpp"
#include "simulation/simulation_dock.hpp"
#include "timeline/timeline_dock.hpp"
#include "trajectory/plots_dock.hpp"
#include "trajectory/trajectory_dock.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/app_settings.hpp"
#include "window/dock_list.hpp"
#include "window/export_image_dialog.hpp"
#include "window/icons.hpp"
#include "window/joints_dock.hpp"
#include "window/log_dock.hpp"
#include "window/model_check_dock.hpp"
#include "window/model_tree_dock.hpp"
#include "window/properties_dock.hpp"
#include "window/recent_files.hpp"
#include "window/workspaces.hpp"

MainWindow::MainWindow(Settings settings, QWidget* parent) : QMainWindow(parent), m_settings(settings) {
  setObjectName("mainWindow");
  setWindowIcon(dynscopeIcon("dynscope"));
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
  // At most the screen's free area: a 1366x768 lecture laptop must show the whole window.
  const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1400, 900);
  resize(QSize(1400, 900).boundedTo(available));

  m_session = new WorkbenchSession(this);
  m_doc = m_session->robot();
  m_undo = m_session->undoStack();
  m_traj = m_session->trajectory();
  m_lecture = m_session->lecture();
  m_doc->setReadMeshes(true);  // meshes are read on the loading thread, actors built on this one
  m_viewport = new VtkViewport(this);
  m_viewport->setObjectName("viewport");
  m_viewport->setMinimumSize(320, 240);
  setCentralWidget(m_viewport);
  m_scene = new RobotScene(m_viewport->renderer(), this);

  m_ik = new IkDragController(m_doc, m_viewport, m_scene->renderer(), m_undo, this);
  createDocks();
  // The right-hand docks (joints, trajectory, simulation, IK) run the full height: a 38-dof robot's
  // rows need it more than the plots need the last third of the width.
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

  m_robotLabel = new QLabel(tr("no robot"), this);
  m_dofLabel = new QLabel(this);
  m_frameLabel = new QLabel(this);
  m_frameLabel->setObjectName("frameTimeLabel");
  m_frameLabel->setToolTip(tr("Frame time of the last pose changes: move a joint"));
  m_frameLabelTimer = new QTimer(this);
  m_frameLabelTimer->setSingleShot(true);
  connect(m_frameLabelTimer, &QTimer::timeout, this, &MainWindow::showFrameTime);
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 0);  // busy indicator: the parse reports no progress
  m_progress->setMaximumWidth(120);
  m_progress->hide();
  statusBar()->addPermanentWidget(m_progress);
  statusBar()->addPermanentWidget(m_robotLabel);
  statusBar()->addPermanentWidget(m_dofLabel);
  statusBar()->addPermanentWidget(m_frameLabel);

  createActions();
  createMenus();
  createToolBar();
  createTrajectoryUi();
  createTrajectoryMenus();
  createIkUi();
  createModelCheckUi();
  createAlgorithmsUi();
  createLectureUi();
  createSafetyNet();
  createWorkspaceUi();
  // Pushing a link while simulating: Ctrl+drags in the 3D view of the Simulate workspace.
  m_perturbation = new PerturbationDrag(m_doc, m_viewport, m_scene, m_simulationDock, this);
  m_perturbation->setEnabledWhen([this] { return m_workspace == QLatin1String("simulate"); });
  m_scene->setFramingHeld([ik = QPointer<IkDragController>(m_ik), push = QPointer<PerturbationDrag>(m_perturbation)] {
    return (ik && ik->isDragging()) || (push && push->isDragging());
  });
  connect(m_simulationDock, &SimulationDock::stateShown, m_perturbation, &PerturbationDrag::showForces);
  connect(m_simulationDock, &SimulationDock::groundChanged, this, [this](bool on, double height) {
    if (on) m_scene->setGroundHeight(height);  // the grid where the robot stands
  });
  if (m_simulationDock->groundBox()->isChecked())
    m_scene->setGroundHeight(m_simulationDock->groundBox()->settings().height);
  connect(m_perturbation, &PerturbationDrag::statusText, this, [this](const QString& text) {
    if (text.isEmpty())
      statusBar()->clearMessage();
    else
      statusBar()->showMessage(text);
  });
  if (m_settings == Settings::Persistent) {
    QSettings s(kSettingsOrganization, kSettingsApplication);
    restoreGeometry(s.value("window/geometry").toByteArray());
    // Dock sizes saved on a screen of another size: the designed layout instead (see createWorkspaceUi).
    if (s.value("workspace/screen").toSize() == savedScreenSize())
      m_layoutRestored = restoreState(s.value("window/state").toByteArray());
  }
  if (!m_layoutRestored) workspaces::apply(this, currentWorkspace().desk);  // sized at the first show
  applySceneToggles();

  connect(m_doc, &RobotDocument::loadingStarted, this, &MainWindow::onLoadingStarted);
  connect(m_session, &WorkbenchSession::loadEnded, this, &MainWindow::onLoadingFinished);
  connect(m_doc, &RobotDocument::loadingProgress, this, [this](int done, int total) {
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(tr("meshes %v/%m"));
  });
  connect(m_doc, &RobotDocument::modelChanged, this, &MainWindow::onModelChanged);
  connect(m_doc, &RobotDocument::poseChanged, this, &MainWindow::onPoseChanged);
  connect(m_doc, &RobotDocument::selectedBodyChanged, this, [this](int body) {
    m_scene->setSelectedBody(body);
    m_viewport->update();
  });
  // Closed loops: a move refused because a loop cannot close there says why; logged once per
  // refused stretch of a drag (the status bar shows each).
  connect(m_doc, &RobotDocument::loopClosureFailed, this, [this](const QString& why) {
    statusBar()->showMessage(why, 8000);
    if (!m_loopRefused) m_logDock->append(why, LogDock::Level::Warning);
    m_loopRefused = true;
  });
  connect(m_doc, &RobotDocument::poseChanged, this, [this] { m_loopRefused = false; });
  connect(m_scene, &RobotScene::message, this,
          [this](const QString& text) { m_logDock->append(text, LogDock::Level::Warning); });
  connect(m_viewport, &VtkViewport::clicked, this, &MainWindow::onViewportClicked);
  // A view made narrower (presentation mode, a workspace) keeps the robot whole while the lecturer
  // has not moved the camera since it was fitted.
  connect(m_viewport, &VtkViewport::resized, m_scene, &RobotScene::refitCamera);
  connect(m_viewport, &VtkViewport::rendered, this, &MainWindow::onRendered);
  connect(m_viewport, &QOpenGLWidget::frameSwapped, this, &MainWindow::onFrameSwapped);
  updateStatus();
}

// Every dock of the table (window/dock_list.cpp), placed later by the workspace; the window keeps
// typed pointers to connect them to its menus, status bar and log.
void MainWindow::createDocks() {
  const docks::Sources sources{m_session, m_ik, this};
  for (const docks::Entry& entry : docks::all()) addDockWidget(Qt::RightDockWidgetArea, entry.make(sources));
  m_treeDock = findChild<ModelTreeDock*>();
  m_jointsDock = findChild<JointsDock*>();
  m_propertiesDock = findChild<PropertiesDock*>();
  m_logDock = findChild<LogDock*>();
  m_trajectoryDock = findChild<TrajectoryDock*>();
  m_timelineDock = findChild<TimelineDock*>();
  m_plotsDock = findChild<PlotsDock*>();
  m_simulationDock = findChild<SimulationDock*>();
  m_massDock = findChild<MassMatrixDock*>();
  m_ikDock = findChild<IkDock*>();
  m_checkDock = findChild<ModelCheckDock*>();
  m_algorithmsDock = findChild<AlgorithmsDock*>();
  m_inspectorDock = findChild<AlgorithmInspectorDock*>();
  m_equationsDock = findChild<EquationsDock*>();
}

MainWindow::~MainWindow() {
  // QWidget's destructor closes the window and hides the docks after our members are gone: the
  // inspector's visibilityChanged must not reach lecture mode (and its arrows) any more.
  if (m_inspectorDock && m_lecture) QObject::disconnect(m_inspectorDock, nullptr, m_lecture, nullptr);
  if (m_lecture) m_lecture->disconnect(this);
  // The views go before the documents they show: Qt deletes children in creation order, and the
  // session (with the documents) is the first. The docks and the IK controller hold and connect to
  // the documents; the viewport and scene only receive what the window hands them.
  m_session->disconnect(this);
  delete m_perturbation;  // it drives the simulation dock
  for (QDockWidget* dock : findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) delete dock;
  delete m_ik;
}

bool MainWindow::openFile(const QString& path) { return m_session->openFile(path); }

void MainWindow::setDefaultDirectory(const QString& dir) {
  m_defaultDir = dir;
  if (auto* dh = findChild<DhTableDock*>()) dh->setExamplesDirectory(dir);
}

void MainWindow::reloadFile() {
  if (m_session->reload()) return;
  const bool loaded = m_doc->model().floatingBase;  // a cancelled floating-base toggle goes back
  const QSignalBlocker block(m_floatingBaseAction);
  m_floatingBaseAction->setChecked(loaded);
  m_doc->setFloatingBase(loaded);
}

bool MainWindow::exportImage(const QString& path, const QSize& size) {
  const QImage image = size.isEmpty() ? m_viewport->grabImage() : m_viewport->grabImage(size.width(), size.height());
  QString error;
  if (!savePngAtomically(path, image, &error)) {
    showError(tr("Export image"), error);
    return false;
  }
  m_logDock->append(tr("Saved %1 (%2 × %3)").arg(path).arg(image.width()).arg(image.height()));
  return true;
}

void MainWindow::onLoadingStarted(const QString& path) {
  m_progress->setRange(0, 0);  // busy until meshes report progress
  m_progress->show();
  statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
  m_logDock->append(tr("Loading %1").arg(path));
  setCursor(Qt::BusyCursor);
}

// The session reports the outcome (an error, or robotLoaded and the project applied); here only
// the progress display ends.
void MainWindow::onLoadingFinished() {
  m_progress->hide();
  unsetCursor();
  statusBar()->clearMessage();
  m_viewport->update();
}

void MainWindow::onModelChanged() {
  // A reload, an edit or its undo keeps the lecturer's camera, widened only if the robot would leave
  // the view (rows added to a DH table); another file is fitted again, and so is a robot whose size
  // changed much (a DH table's lengths typed in): the sum of the joint offsets.
  double extent = 0;
  for (const auto& X : m_doc->model().Xtree) extent += X.translation().norm();
  for (const auto& f : m_doc->model().frames) extent += f.placement.translation().norm();
  const bool resized = extent > 1.5 * m_shownExtent + 1e-3 || extent < m_shownExtent / 1.5 - 1e-3;
  m_scene->setAutoFit(!m_doc->lastLoadWasReload() || resized);
  m_scene->setKeepInView(true);
  m_shownExtent = extent;
  if (m_doc->modelKeptTree() && !m_scene->autoFit() && m_scene->refreshModel(m_doc->model())) {
    // an edit of numbers: the actors stay
  } else if (m_doc->meshes()) {
    m_scene->setModel(m_doc->model(), m_doc->sourceFile(), *m_doc->meshes());
  } else {
    m_scene->setModel(m_doc->model(), m_doc->sourceFile());
  }
  m_scene->setSelectedBody(m_doc->selectedBody());  // new actors: the selection drawn on them again
  restyleIfPresenting();
  // The joint rows in full (no sideways scrolling), up to 40 % of the window: the 3D view stays the
  // largest part. Queued: the dock's rows know their size once the rebuild's layout has run.
  QMetaObject::invokeMethod(
      this,
      [this] {
        const int wanted = std::min(m_jointsDock->preferredWidth(), width() * 40 / 100);
        if (!m_presentation && m_jointsDock->isVisible() && m_jointsDock->width() < wanted)
          resizeDocks({m_jointsDock}, {wanted}, Qt::Horizontal);
      },
      Qt::QueuedConnection);
  updateTitle();
  followRobotKind();
  setWindowFilePath(m_doc->sourceFile());
  m_reloadAction->setEnabled(true);
  updateStatus();
  updateModelCheckBadge();
}

void MainWindow::onPoseChanged() {
  // The interactive path a slider drives: FK (timed by the document) + scene update here; the
  // render and Qt's composition follow (onRendered, onFrameSwapped). Rendering stays coalesced by
  // Qt, so a fast drag never queues more frames than the screen shows; the clock runs from the
  // first pose change that is not on screen yet.
  QElapsedTimer timer;
  timer.start();
  m_scene->updatePose(m_doc->model(), m_doc->data());
  const double sceneMs = timer.nsecsElapsed() / 1e6;
  FrameClock& c = m_clock;
  if (!c.pending || c.sincePose.elapsed() > 2000) {  // 2 s: that frame never came (hidden window)
    c.pending = true;
    c.rendered = false;
    c.sincePose.start();
    c.kinematicsMs = m_doc->lastKinematicsMs();
    c.sceneMs = sceneMs;
  }
  m_viewport->requestRender();
}

void MainWindow::onRendered(double renderMs) {
  if (!m_clock.pending) return;  // a camera move or a still frame, not a pose change
  m_clock.rendered = true;
  m_clock.renderMs = renderMs;
}

void MainWindow::onFrameSwapped() {
  FrameClock& c = m_clock;
  if (!c.pending || !c.rendered) return;
  c.pending = false;
  const double frameMs = c.kinematicsMs + c.sincePose.nsecsElapsed() / 1e6;
  if (!c.sinceFrame.isValid() || c.sinceFrame.elapsed() > 1000) c.count = 0;  // a new drag
  c.sinceFrame.start();
  c.recent[c.count % c.recent.size()] = frameMs;
  ++c.count;
  const int n = std::min<int>(c.count, int(c.recent.size()));
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += c.recent[i];
  m_lastFrameMs = sum / n;
  c.lastFrameMs = frameMs;
  c.averaged = n;
  // The label is redrawn at most every kFrameLabelMs: each redraw of a widget makes Qt compose the
  // whole window once more, which in software OpenGL costs as much as the 3D frame itself.
  if (m_frameLabelTimer->isActive()) return;
  const qint64 sinceShown = c.labelShown.isValid() ? c.labelShown.elapsed() : kFrameLabelMs;
  m_frameLabelTimer->start(int(std::max<qint64>(0, kFrameLabelMs - sinceShown)));
}

void MainWindow::showFrameTime() {
  const FrameClock& c = m_clock;
  if (c.averaged == 0) return;
  m_clock.labelShown.start();
  m_frameLabel->setText(
      tr("frame %1 ms · %2 fps").arg(m_lastFrameMs, 0, 'f', 1).arg(1000.0 / m_lastFrameMs, 0, 'f', 0));
  const double scale = m_viewport->lastRenderScale();
  m_frameLabel->setToolTip(
      tr("<p>Time from a joint change until the new pose is on screen, mean of the last %1 frames; "
         "fps = 1000 / frame time.</p>"
         "<p>Last frame: %2 ms: kinematics %3 ms, scene update %4 ms, 3D render %5 ms%6, window composition "
         "and the rest %7 ms.</p><p>OpenGL: %8%9</p>")
          .arg(c.averaged)
          .arg(c.lastFrameMs, 0, 'f', 1)
          .arg(c.kinematicsMs, 0, 'f', 2)
          .arg(c.sceneMs, 0, 'f', 2)
          .arg(c.renderMs, 0, 'f', 1)
          .arg(scale < 1 ? tr(" (at %1 % resolution while moving)").arg(qRound(scale * 100)) : QString())
          .arg(std::max(0.0, c.lastFrameMs - c.kinematicsMs - c.sceneMs - c.renderMs), 0, 'f', 1)
          .arg(m_viewport->glRenderer().toHtmlEscaped())
          .arg(m_viewport->softwareRendering() ? tr(" (software rendering: anti-aliasing only in still frames)")
                                               : QString()));
}

void MainWindow::onViewportClicked(const QPoint& position) {
  if (!m_doc->hasModel()) return;
  m_doc->setSelectedBody(m_scene->pickBody(position, m_viewport));
}

void MainWindow::showError(const QString& title, const QString& text) {
  m_lastError = text;
  m_logDock->append(title + ": " + text, LogDock::Level::Error);
  if (m_errorHandler) {
    m_errorHandler(title, text);
    return;
  }
  // Window-modal but not exec(): no nested event loop while a load or a render is in flight.
  auto* box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);
  box->open();
}

void MainWindow::openWithDialog() {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  QString dir = m_settings == Settings::Persistent ? s.value("lastDirectory").toString() : QString();
  if (dir.isEmpty()) dir = m_defaultDir;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open robot"), dir,
      tr("Robots and projects (*.urdf *.xml *.mjcf *.dh *.json *.dynscope);;All files (*)"));
  if (path.isEmpty()) return;
  if (m_settings == Settings::Persistent) s.setValue("lastDirectory", QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::exportWithDialog() {
  ExportImageDialog dialog(m_viewport->size() * m_viewport->devicePixelRatioF(), this);
  if (dialog.exec() != QDialog::Accepted) return;
  const QString base = m_doc->hasModel() ? m_doc->robotName() : QStringLiteral("dynscope");
  const QString path = QFileDialog::getSaveFileName(this, tr("Export image"), QDir::home().filePath(base + ".png"),
                                                    tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  exportImage(path.endsWith(".png", Qt::CaseInsensitive) ? path : path + ".png", dialog.chosenSize());
}

void MainWindow::updateStatus() {
  if (!m_doc->hasModel() || (m_doc->sourceFile().isEmpty() && !m_doc->dhTable())) {  // (a new DH table has no file)
    m_robotLabel->setText(tr("no robot"));
    m_dofLabel->clear();
    return;
  }
  const dyn::Model& m = m_doc->model();
  m_robotLabel->setText(m_doc->robotName());
  m_dofLabel->setText(tr("%1 DOF").arg(m.nv));
}

void MainWindow::restyleIfPresenting() {
  if (!m_presentation) return;
  m_presentationStyle.restore();  // props of the previous model are gone; scale the new ones
  m_presentationStyle.apply(m_viewport->renderer());
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (m_docksSized || m_layoutRestored) return;
  m_docksSized = true;
  // The first layout in proportion to the window (workspaces.cpp), so that on a 1366x768 laptop the
  // 3D view stays the largest part; again once the docks' contents have their sizes.
  layOut(currentWorkspace().desk);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave(tr("closing"))) {
    event->ignore();
    return;
  }
  m_session->finishRecovery();
  if (m_settings == Settings::Persistent) {
    if (m_presentation) setPresentationMode(false);  // store the normal layout, not the full-screen one
    QSettings s(kSettingsOrganization, kSettingsApplication);
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    saveViewSettings();
    saveWorkspaceSettings();
  }
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  event->acceptProposedAction();
  openFile(urls.first().toLocalFile());
}
