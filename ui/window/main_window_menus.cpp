// MainWindow's menus, toolbar and view settings (the scene toggles and camera controls).
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSlider>
#include <QToolBar>
#include <QToolButton>
#include <iterator>
#include <tuple>

#include "document/robot_document.hpp"
#include "recording/recording_controller.hpp"
#include "scene/robot_scene.hpp"
#include "simulation/simulation_dock.hpp"
#include "simulation/simulation_runner.hpp"
#include "viewport/vtk_viewport.hpp"
#include "window/app_settings.hpp"
#include "window/dock_list.hpp"
#include "window/icons.hpp"
#include "window/joints_dock.hpp"
#include "window/log_dock.hpp"
#include "window/main_window.hpp"
#include "window/model_tree_dock.hpp"
#include "window/properties_dock.hpp"
#include "window/recent_files.hpp"
#include "window/shortcuts_dialog.hpp"

namespace {

struct SceneToggle {
  const char* id;  // action objectName "show_<id>" and settings key "view/<id>"
  const char* text;
  const char* tip;
  const char* icon;  // assets/icons/<icon>.svg
  void (RobotScene::*apply)(bool);
  bool defaultOn;
};

const SceneToggle kSceneToggles[] = {
    {"visual", "Visual", "Visual geometry", "visual", &RobotScene::setShowVisual, true},
    {"collision", "Collision", "Collision geometry", "collision", &RobotScene::setShowCollision, false},
    {"frames", "Frames", "Link frames (size next to it in the toolbar)", "frames", &RobotScene::setShowFrames, false},
    {"jointAxes", "Joint axes", "Joint axes", "joint_axes", &RobotScene::setShowJointAxes, false},
    {"com", "COM", "Centre of mass of each link (sphere sized by mass) and of the robot", "com",
     &RobotScene::setShowCom, false},
    {"inertia", "Inertia", "Equivalent uniform inertia box or ellipsoid of each link (shape: the arrow)", "inertia",
     &RobotScene::setShowInertiaBoxes, false},
    {"names", "Names", "Link names", "names", &RobotScene::setShowLinkNames, false},
    {"grid", "Grid", "Ground grid", "grid", &RobotScene::setShowGrid, true},
    {"worldAxes", "World axes", "World axes", "world_axes", &RobotScene::setShowWorldAxes, true},
};

struct CameraPreset {
  const char* text;
  const char* tip;
  const char* key;
  const char* icon;
  RobotScene::ViewPreset preset;
};

const CameraPreset kCameraPresets[] = {
    {"Front", "Front view: looking along -x", "1", "view_front", RobotScene::ViewPreset::Front},
    {"Side", "Side view: looking along +y", "2", "view_side", RobotScene::ViewPreset::Side},
    {"Top", "Top view: looking down", "3", "view_top", RobotScene::ViewPreset::Top},
    {"Iso", "Isometric view", "4", "view_iso", RobotScene::ViewPreset::Iso},
};

}  // namespace

void MainWindow::createActions() {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  const bool persistent = m_settings == Settings::Persistent;
  for (const SceneToggle& t : kSceneToggles) {
    auto* a = new QAction(dynscopeIcon(t.icon), tr(t.text), this);
    a->setObjectName(QString("show_") + t.id);
    setToolTipWithShortcut(a, tr(t.tip));
    a->setCheckable(true);
    a->setChecked(persistent ? s.value(QString("view/") + t.id, t.defaultOn).toBool() : t.defaultOn);
    const auto apply = t.apply;
    connect(a, &QAction::toggled, this, [this, apply](bool on) {
      (m_scene->*apply)(on);
      restyleIfPresenting();  // the toggle may have created actors
      m_viewport->update();
    });
    m_toggleActions.push_back(a);
  }
  m_openAction = new QAction(dynscopeIcon("open"), tr("&Open…"), this);
  m_openAction->setObjectName("openAction");
  m_openAction->setShortcut(QKeySequence::Open);
  setToolTipWithShortcut(m_openAction, tr("Open a URDF, MuJoCo MJCF or DH file"));
  connect(m_openAction, &QAction::triggered, this, &MainWindow::openWithDialog);

  m_reloadAction = new QAction(dynscopeIcon("reload"), tr("&Reload"), this);
  m_reloadAction->setObjectName("reloadAction");
  m_reloadAction->setShortcut(QKeySequence(Qt::Key_F5));
  setToolTipWithShortcut(m_reloadAction, tr("Read the file again, keeping the joint values"));
  m_reloadAction->setEnabled(false);
  connect(m_reloadAction, &QAction::triggered, this, &MainWindow::reloadFile);

  m_floatingBaseAction = new QAction(tr("Floating &base"), this);
  m_floatingBaseAction->setObjectName("floatingBaseAction");
  m_floatingBaseAction->setToolTip(tr("Add a 6-DOF free joint above the root link (reloads the robot)"));
  m_floatingBaseAction->setCheckable(true);
  // A choice for this robot (kept by its project), not a setting: another file starts fixed.
  m_floatingBaseAction->setChecked(m_doc->floatingBase());
  connect(m_floatingBaseAction, &QAction::toggled, this, [this](bool on) {
    m_doc->setFloatingBase(on);
    reloadFile();
  });

  m_exportAction = new QAction(dynscopeIcon("export_image"), tr("&Export image…"), this);
  m_exportAction->setObjectName("exportAction");
  m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  setToolTipWithShortcut(m_exportAction, tr("Save the 3D view as a PNG image"));
  connect(m_exportAction, &QAction::triggered, this, &MainWindow::exportWithDialog);

  // Record video (Ctrl+R; again to stop): ui/recording/. The docks exist later: looked up when used.
  RecordingSession::Targets recordingTargets{this, m_viewport, [this] { return m_timelineDock; },
                                             [this]() -> std::optional<double> {
                                               if (!m_simulationDock || !m_simulationDock->runner()->isConfigured())
                                                 return std::nullopt;
                                               return m_simulationDock->runner()->snapshot().t;
                                             }};
  auto* recorder = new RecordingController(this, std::move(recordingTargets),
                                           [this] { return m_doc->hasModel() ? m_doc->robotName() : QString(); });
  connect(recorder, &RecordingController::message, this, [this](const QString& text) { m_logDock->append(text); });
  connect(recorder, &RecordingController::error, this, &MainWindow::showError);

  m_orthoAction = new QAction(dynscopeIcon("orthographic"), tr("&Orthographic"), this);
  m_orthoAction->setObjectName("orthographicAction");
  m_orthoAction->setCheckable(true);
  m_orthoAction->setShortcut(QKeySequence(Qt::Key_5));
  setToolTipWithShortcut(m_orthoAction, tr("Orthographic (parallel) projection instead of perspective"));
  connect(m_orthoAction, &QAction::toggled, this, [this](bool on) {
    m_scene->setParallelProjection(on);
    m_viewport->update();
  });

  m_presentationAction = new QAction(dynscopeIcon("presentation"), tr("&Presentation mode"), this);
  m_presentationAction->setObjectName("presentationAction");
  m_presentationAction->setCheckable(true);
  m_presentationAction->setShortcut(QKeySequence(Qt::Key_F11));
  setToolTipWithShortcut(m_presentationAction, tr("Full screen, larger fonts and thicker lines for a projector"));
  connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentationMode);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(m_openAction);
  m_recentMenu = file->addMenu(tr("Recent &files"));
  m_recentMenu->setObjectName("recentMenu");
  connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
  rebuildRecentMenu();
  file->addAction(m_reloadAction);
  file->addAction(m_floatingBaseAction);
  file->addSeparator();
  file->addAction(m_exportAction);
  file->addAction(findChild<QAction*>("recordAction"));
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
  quit->setMenuRole(QAction::QuitRole);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->setObjectName("viewMenu");
  for (QAction* a : m_toggleActions) view->addAction(a);
  // Inertia drawn as the equivalent uniform box or ellipsoid (same mass and inertia about the COM).
  QMenu* inertiaShape = view->addMenu(tr("&Inertia shape"));
  inertiaShape->setObjectName("inertiaShapeMenu");
  auto* shapes = new QActionGroup(this);
  const bool ellipsoid =
      m_settings == Settings::Persistent &&
      QSettings(kSettingsOrganization, kSettingsApplication).value("view/inertiaShape").toString() == "ellipsoid";
  for (const auto& [name, text, tip, shape] :
       {std::tuple{"inertiaBoxAction", tr("Equivalent &box"), tr("Uniform box with the link's mass and inertia"),
                   RobotScene::InertiaShape::Box},
        std::tuple{"inertiaEllipsoidAction", tr("Equivalent &ellipsoid"),
                   tr("Uniform ellipsoid with the link's mass and inertia"), RobotScene::InertiaShape::Ellipsoid}}) {
    QAction* a = inertiaShape->addAction(text);
    a->setObjectName(name);
    a->setToolTip(tip);
    a->setCheckable(true);
    a->setChecked((shape == RobotScene::InertiaShape::Ellipsoid) == ellipsoid);
    shapes->addAction(a);
    connect(a, &QAction::toggled, this, [this, shape = shape](bool on) {
      if (!on) return;
      m_scene->setInertiaShape(shape);
      restyleIfPresenting();
      m_viewport->update();
    });
  }
  QMenu* frameSize = view->addMenu(tr("Frame si&ze"));
  for (double size : {0.05, 0.1, 0.2, 0.3, 0.5})
    frameSize->addAction(tr("%1 m").arg(size), this, [this, size] { m_frameScale->setValue(size); });
  QMenu* transparency = view->addMenu(tr("Link &transparency"));
  for (int percent : {0, 25, 50, 75})
    transparency->addAction(tr("%1 %").arg(percent), this, [this, percent] { m_opacity->setValue(100 - percent); });
  view->addSeparator();
  for (const CameraPreset& c : kCameraPresets) {
    const RobotScene::ViewPreset preset = c.preset;
    QAction* a = view->addAction(dynscopeIcon(c.icon), tr(c.text), this, [this, preset] {
      m_scene->setViewPreset(preset);
      m_viewport->update();
    });
    a->setShortcut(QKeySequence(c.key));
    a->setObjectName(QString("camera") + c.text);
    setToolTipWithShortcut(a, tr(c.tip));
    m_cameraActions.push_back(a);
  }
  QAction* fit = view->addAction(dynscopeIcon("fit"), tr("&Fit to robot"), this, [this] {
    m_scene->fitToRobot();
    m_viewport->update();
  });
  fit->setObjectName("fitAction");
  fit->setShortcut(QKeySequence(Qt::Key_F));
  setToolTipWithShortcut(fit, tr("Fit the robot into the view"));
  m_cameraActions.push_back(fit);
  view->addAction(m_orthoAction);
  view->addSeparator();
  view->addAction(m_presentationAction);
  view->addSeparator();
  for (const docks::Entry& entry : docks::all())  // the docks' toggles, in the table's order
    if (auto* dock = findChild<QDockWidget*>(entry.name); dock && entry.inViewMenu)
      view->addAction(dock->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* keys = help->addAction(tr("&Keyboard and mouse…"), this, [this] {
    auto* dialog = new ShortcutsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  });
  keys->setObjectName("shortcutsAction");
  keys->setShortcut(QKeySequence::HelpContents);  // F1
  addAction(keys);                                // also while the menu bar is hidden (presentation mode)
  help->addAction(tr("&About Dynscope"), this, [this] {
    QMessageBox::about(this, tr("About Dynscope"),
                       tr("<b>Dynscope</b> — a robot-dynamics workbench.<br>"
                          "Mouse: left drag orbits, middle drag pans, wheel zooms; click a link to select it.<br>"
                          "Simulate: Ctrl+right drag pulls a link towards the cursor, Ctrl+left drag twists it.<br>"
                          "Keys: 1/2/3/4 front/side/top/iso, 5 orthographic, F fit, F5 reload, F11 presentation."));
  });
}

void MainWindow::createToolBar() {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  const bool persistent = m_settings == Settings::Persistent;
  m_fileToolBar = addToolBar(tr("File"));
  m_fileToolBar->setObjectName("fileToolBar");
  m_fileToolBar->addAction(m_openAction);
  m_fileToolBar->addAction(m_reloadAction);
  m_fileToolBar->addAction(m_exportAction);
  m_fileToolBar->addAction(findChild<QAction*>("recordAction"));

  m_viewToolBar = addToolBar(tr("View"));
  m_viewToolBar->setObjectName("viewToolBar");
  for (QToolBar* bar : {m_fileToolBar, m_viewToolBar}) {
    bar->setToolButtonStyle(Qt::ToolButtonIconOnly);  // the names are in the tooltips and the menus
    bar->setIconSize(QSize(24, 24));
  }
  for (QAction* a : m_toggleActions) m_viewToolBar->addAction(a);
  // The inertia button's arrow offers box or ellipsoid.
  if (auto* button = qobject_cast<QToolButton*>(m_viewToolBar->widgetForAction(findChild<QAction*>("show_inertia")))) {
    button->setMenu(findChild<QMenu*>("inertiaShapeMenu"));
    button->setPopupMode(QToolButton::MenuButtonPopup);
  }
  m_viewToolBar->addSeparator();

  const auto iconLabel = [this](const char* icon, const QString& tip) {
    auto* label = new QLabel(m_viewToolBar);
    label->setObjectName(QString("iconLabel_") + icon);
    label->setPixmap(dynscopeIcon(icon).pixmap(m_viewToolBar->iconSize(), devicePixelRatioF()));
    label->setToolTip(tip);
    label->setContentsMargins(4, 0, 2, 0);
    // Follows the toolbar's icon size (presentation mode makes it larger).
    connect(m_viewToolBar, &QToolBar::iconSizeChanged, label, [this, label, icon](const QSize& size) {
      label->setPixmap(dynscopeIcon(icon).pixmap(size, devicePixelRatioF()));
    });
    return label;
  };
  m_viewToolBar->addWidget(iconLabel("frame_size", tr("Length of the link-frame axes")));
  m_frameScale = new QDoubleSpinBox(m_viewToolBar);
  m_frameScale->setObjectName("frameScale");
  m_frameScale->setToolTip(tr("Length of the link-frame axes"));
  m_frameScale->setRange(0.01, 2.0);
  m_frameScale->setSingleStep(0.05);
  m_frameScale->setDecimals(2);
  m_frameScale->setSuffix(" m");
  m_frameScale->setValue(persistent ? s.value("view/frameScale", 0.1).toDouble() : 0.1);
  m_viewToolBar->addWidget(m_frameScale);
  connect(m_frameScale, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    m_scene->setFrameScale(v);
    m_viewport->update();
  });

  m_viewToolBar->addWidget(iconLabel("opacity", tr("Opacity of the links")));
  m_opacity = new QSlider(Qt::Horizontal, m_viewToolBar);
  m_opacity->setObjectName("opacitySlider");
  m_opacity->setToolTip(tr("Opacity of the links"));
  m_opacity->setRange(10, 100);
  m_opacity->setMaximumWidth(90);
  m_opacity->setValue(persistent ? s.value("view/opacity", 100).toInt() : 100);
  m_viewToolBar->addWidget(m_opacity);
  connect(m_opacity, &QSlider::valueChanged, this, [this](int v) {
    m_scene->setOpacity(v / 100.0);
    m_viewport->update();
  });
  m_viewToolBar->addSeparator();

  for (QAction* a : m_cameraActions) m_viewToolBar->addAction(a);
  m_viewToolBar->addAction(m_orthoAction);
  m_viewToolBar->addSeparator();
  m_viewToolBar->addAction(m_presentationAction);
}

void MainWindow::applySceneToggles() {
  for (size_t i = 0; i < m_toggleActions.size(); ++i)
    (m_scene->*kSceneToggles[i].apply)(m_toggleActions[i]->isChecked());
  m_scene->setFrameScale(m_frameScale->value());
  m_scene->setOpacity(m_opacity->value() / 100.0);
  if (const QAction* e = findChild<QAction*>("inertiaEllipsoidAction"))
    m_scene->setInertiaShape(e->isChecked() ? RobotScene::InertiaShape::Ellipsoid : RobotScene::InertiaShape::Box);
}

void MainWindow::saveViewSettings() const {
  QSettings s(kSettingsOrganization, kSettingsApplication);
  for (size_t i = 0; i < m_toggleActions.size(); ++i)
    s.setValue(QString("view/") + kSceneToggles[i].id, m_toggleActions[i]->isChecked());
  s.setValue("view/frameScale", m_frameScale->value());
  s.setValue("view/opacity", m_opacity->value());
  if (const QAction* e = findChild<QAction*>("inertiaEllipsoidAction"))
    s.setValue("view/inertiaShape", e->isChecked() ? "ellipsoid" : "box");
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  const QStringList files = m_settings == Settings::Persistent ? recent_files::list() : QStringList();
  for (int i = 0; i < files.size(); ++i) {
    const QString file = files[i];
    QAction* a = m_recentMenu->addAction(QString("&%1  %2").arg((i + 1) % 10).arg(QFileInfo(file).fileName()), this,
                                         [this, file] { openFile(file); });
    a->setToolTip(file);
    a->setStatusTip(file);
  }
  if (files.isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
  m_recentMenu->addSeparator();
  m_recentMenu
      ->addAction(tr("Clear list"), this,
                  [this] {
                    recent_files::clear();
                    rebuildRecentMenu();
                  })
      ->setEnabled(!files.isEmpty());
}
