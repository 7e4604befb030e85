// The workbench window: the VTK viewport in the centre, docks for the model tree, joints,
// properties and log; File / View menus and a view toolbar. Owns the RobotDocument and the scene.
#pragma once
#include <QMainWindow>
#include <QSize>
#include <functional>

#include "window/presentation_style.hpp"

class JointsDock;
class LogDock;
class ModelTreeDock;
class PropertiesDock;
class QAction;
class QActionGroup;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QProgressBar;
class QSlider;
class QToolBar;
class RobotDocument;
class RobotScene;
class VtkViewport;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Ephemeral: neither read nor write QSettings (the --screenshot path must not disturb a user's layout).
  enum class Settings { Persistent, Ephemeral };
  explicit MainWindow(Settings settings = Settings::Persistent, QWidget* parent = nullptr);
  ~MainWindow() override;

  RobotDocument* document() const { return m_doc; }
  VtkViewport* viewport() const { return m_viewport; }
  RobotScene* scene() const { return m_scene; }
  JointsDock* jointsDock() const { return m_jointsDock; }
  ModelTreeDock* modelTreeDock() const { return m_treeDock; }
  PropertiesDock* propertiesDock() const { return m_propertiesDock; }
  LogDock* logDock() const { return m_logDock; }

  // Starts loading (off the GUI thread); false if a load is already running.
  bool openFile(const QString& path);
  void reloadFile();
  // Renders the viewport at `size` (empty: the viewport's size) and saves a PNG.
  bool exportImage(const QString& path, const QSize& size = QSize());
  void setDefaultDirectory(const QString& dir) { m_defaultDir = dir; }

  // Errors go to the log and to this handler; without one, to a non-blocking message box.
  // Tests install a handler to read the text instead of dismissing dialogs.
  using ErrorHandler = std::function<void(const QString& title, const QString& text)>;
  void setErrorHandler(ErrorHandler handler) { m_errorHandler = std::move(handler); }
  QString lastError() const { return m_lastError; }

  // FK + scene update + render of the last pose change (what a slider drag costs per frame).
  double lastFrameMs() const { return m_lastFrameMs; }
  bool presentationMode() const { return m_presentation; }
  void setPresentationMode(bool on);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // main_window_menus.cpp
  void createActions();
  void createMenus();
  void createToolBar();
  void rebuildRecentMenu();
  void applySceneToggles();
  void saveViewSettings() const;
  // main_window.cpp
  void onLoadingStarted(const QString& path);
  void onLoadingFinished(bool ok, const QString& error, bool wasReload);
  void onModelChanged();
  void onPoseChanged();
  void onRendered(double renderMs);
  void onViewportClicked(const QPoint& position);
  void showError(const QString& title, const QString& text);
  void openWithDialog();
  void exportWithDialog();
  void updateStatus();
  void restyleIfPresenting();

  Settings m_settings;
  RobotDocument* m_doc;
  VtkViewport* m_viewport;
  RobotScene* m_scene;
  ModelTreeDock* m_treeDock;
  JointsDock* m_jointsDock;
  PropertiesDock* m_propertiesDock;
  LogDock* m_logDock;
  QToolBar* m_viewToolBar = nullptr;
  QMenu* m_recentMenu = nullptr;
  QAction* m_reloadAction = nullptr;
  QAction* m_floatingBaseAction = nullptr;
  QAction* m_orthoAction = nullptr;
  QAction* m_presentationAction = nullptr;
  std::vector<QAction*> m_toggleActions;  // scene toggles, in kSceneToggles order
  std::vector<QAction*> m_cameraActions;  // presets and fit, shared by the View menu and the toolbar
  QDoubleSpinBox* m_frameScale = nullptr;
  QSlider* m_opacity = nullptr;
  QLabel* m_robotLabel;
  QLabel* m_dofLabel;
  QLabel* m_frameLabel;
  QProgressBar* m_progress;
  QString m_defaultDir;
  QString m_lastError;
  ErrorHandler m_errorHandler;
  double m_lastFrameMs = 0;
  double m_pendingPoseMs = -1;  // FK + updatePose of a pose not rendered yet
  bool m_presentation = false;
  bool m_wasMaximized = false;
  QFont m_normalFont;
  PresentationStyle m_presentationStyle;
};
