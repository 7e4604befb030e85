// The workbench window: the VTK viewport in the centre, the docks, menus and workspaces. What is
// not a widget (documents, projects, demonstrations, unsaved work, autosave) is the
// WorkbenchSession's (session/workbench_session.hpp); the window shows it and answers its questions.
#pragma once
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QMainWindow>
#include <QMessageBox>
#include <QRect>
#include <QSize>
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "project/project_file.hpp"
#include "window/presentation_style.hpp"

namespace workspaces {
struct Layout;
struct Workspace;
}  // namespace workspaces

class AlgorithmInspectorDock;
class EquationsDock;
class AlgorithmsDock;
class JointsDock;
class LectureDocument;
class IkDock;
class IkDragController;
class LogDock;
class MassMatrixDock;
class ModelCheckDock;
class ModelTreeDock;
class PlotsDock;
class PropertiesDock;
class QAction;
class QActionGroup;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QProgressBar;
class QSlider;
class QTimer;
class QToolBar;
class QToolButton;
class QUndoStack;
class RobotDocument;
class RobotScene;
class ScriptLink;
class SimulationDock;
class PerturbationDrag;
class TimelineDock;
class TraceArrowOverlay;
class TrajectoryDock;
class TrajectoryDocument;
class VtkViewport;
class WorkbenchSession;
namespace dyn {
enum class DemoTrajectory;
}

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Ephemeral: neither read nor write QSettings (the --screenshot path must not disturb a user's layout).
  enum class Settings { Persistent, Ephemeral };
  explicit MainWindow(Settings settings = Settings::Persistent, QWidget* parent = nullptr);
  ~MainWindow() override;

  WorkbenchSession* session() const { return m_session; }
  RobotDocument* document() const { return m_doc; }
  VtkViewport* viewport() const { return m_viewport; }
  RobotScene* scene() const { return m_scene; }
  JointsDock* jointsDock() const { return m_jointsDock; }
  ModelTreeDock* modelTreeDock() const { return m_treeDock; }
  PropertiesDock* propertiesDock() const { return m_propertiesDock; }
  LogDock* logDock() const { return m_logDock; }
  TrajectoryDocument* trajectory() const { return m_traj; }
  TrajectoryDock* trajectoryDock() const { return m_trajectoryDock; }
  TimelineDock* timelineDock() const { return m_timelineDock; }
  PlotsDock* plotsDock() const { return m_plotsDock; }
  SimulationDock* simulationDock() const { return m_simulationDock; }
  MassMatrixDock* massMatrixDock() const { return m_massDock; }
  ModelCheckDock* modelCheckDock() const { return m_checkDock; }
  QToolButton* modelCheckBadge() const { return m_checkBadge; }  // the status bar's count of warnings
  IkDragController* ikController() const { return m_ik; }
  PerturbationDrag* perturbationDrag() const { return m_perturbation; }  // Ctrl+drags that push a link
  IkDock* ikDock() const { return m_ikDock; }
  QUndoStack* undoStack() const { return m_undo; }
  LectureDocument* lectureDocument() const { return m_lecture; }
  AlgorithmInspectorDock* inspectorDock() const { return m_inspectorDock; }
  EquationsDock* equationsDock() const { return m_equationsDock; }
  AlgorithmsDock* algorithmsDock() const { return m_algorithmsDock; }
  TraceArrowOverlay* arrowOverlay() const { return m_arrows.get(); }

  // Starts loading (off the GUI thread); false if a load is already running. A project file
  // (.json, .dynscope) opens as a project.
  bool openFile(const QString& path);
  // Reads the project, loads its robot, then applies payload, gravity, trajectory and view.
  bool openProject(const QString& path);
  bool saveProject(const QString& path);
  QString projectFile() const;
  static bool isProjectFile(const QString& path);
  // A built-in demonstration; opens `robotFile` first when the loaded robot does not fit it.
  void loadDemo(dyn::DemoTrajectory demo, const QString& robotFile);
  void reloadFile();
  // Renders the viewport at `size` (empty: the viewport's size) and saves a PNG.
  bool exportImage(const QString& path, const QSize& size = QSize());
  void setDefaultDirectory(const QString& dir);  // file dialogs start there; the DH examples are there
  // Lecture mode: the walk-through of the inspector's algorithm as HTML or PDF (by the suffix),
  // with a picture of the 3D view at every step.
  bool exportHandout(const QString& path, const QSize& pictureSize = QSize(960, 540));
  // The Equations of motion view in the Lecture workspace, showing `part` (--equations: all, M, c,
  // g, tau, christoffel, symbols); an error message for an unknown part.
  QString showEquations(const QString& part);

  // Errors go to the log and to this handler; without one, to a non-blocking message box.
  // Tests install a handler to read the text instead of dismissing dialogs.
  using ErrorHandler = std::function<void(const QString& title, const QString& text)>;
  void setErrorHandler(ErrorHandler handler) { m_errorHandler = std::move(handler); }
  QString lastError() const { return m_lastError; }

  // Unsaved work, projects and autosave are the session's (WorkbenchSession); these forward to it
  // (main_window_session.cpp). The title shows [*] while the documents hold work that is not on
  // disk; the session asks before anything drops it. Its questions go to the prompt handler: a modal
  // QMessageBox in a Persistent window; an Ephemeral window (screenshots, tests) belongs to no user
  // session and answers Discard / No unless a handler is installed.
  using PromptHandler = std::function<QMessageBox::StandardButton(const QString& title, const QString& text,
                                                                  QMessageBox::StandardButtons buttons)>;
  void setPromptHandler(PromptHandler handler) { m_promptHandler = std::move(handler); }
  PromptHandler messageBoxPrompt();  // the modal QMessageBox (object name "unsavedWorkPrompt")
  bool hasUnsavedWork() const;
  bool maybeSave(const QString& action);
  void enableRecovery(const QString& dir, int intervalMs = 60000);
  bool autosaveNow();
  QString autosaveFile() const;
  bool offerRestore();

  // The frame time in the status bar: from a pose change (the joint value set, FK started) until
  // the frame showing it is on screen (QOpenGLWidget::frameSwapped), i.e. FK + scene update +
  // render + Qt's composition of the window; the mean of the last frames of the current drag.
  double lastFrameMs() const { return m_lastFrameMs; }
  bool presentationMode() const { return m_presentation; }
  // Presentation mode (F11): full screen, fonts x1.5 at 1080 lines (scaled to the screen:
  // widgets/presentation_scale.hpp), the workspace's presentation layout; off again, the exact
  // layout and geometry of before (main_window_workspaces.cpp).
  void setPresentationMode(bool on);
  // Presentation mode as on a screen of `screen` pixels at the screen's corner (the suites: a
  // 1366x768 laptop on their 1920x1080 display).
  void presentOnScreenOfSize(QSize screen);

  // Workspaces (window/workspaces.hpp): "explore", "trajectory", "simulate", "massmatrix", "lecture".
  // Each keeps the user's changes to its layout; resetLayout() lays it out as designed again.
  QString workspace() const { return m_workspace; }
  bool setWorkspace(const QString& id);  // false for an unknown id
  void resetLayout();

  // A Python script's requests (session/script_link.hpp) played, plotted and pictured by this
  // window (main_window_script.cpp). The link stays the caller's.
  void connectScriptLink(ScriptLink* link);

 signals:
  void workspaceChanged(const QString& id);

 public:
 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // main_window.cpp
  void createDocks();
  // main_window_menus.cpp
  void createActions();
  void createMenus();
  void createToolBar();
  void rebuildRecentMenu();
  void applySceneToggles();
  void saveViewSettings() const;
  // main_window.cpp
  void onLoadingStarted(const QString& path);
  void onLoadingFinished();
  void onModelChanged();
  void onPoseChanged();
  void onRendered(double renderMs);
  void onFrameSwapped();
  void showFrameTime();
  void onViewportClicked(const QPoint& position);
  void showError(const QString& title, const QString& text);
  void openWithDialog();
  void exportWithDialog();
  void updateStatus();
  void restyleIfPresenting();
  // main_window_session.cpp
  void createSafetyNet();
  void updateTitle();
  // main_window_trajectory.cpp
  void createTrajectoryUi();
  // The trajectory's samples framed as they sweep, unless the user has moved the camera.
  void frameMotion();
  void createTrajectoryMenus();
  void createIkUi();
  void updateLimitHighlight();
  void importTrajectoryWithDialog();
  void exportCsvWithDialog(bool dynamics);
  bool saveProjectWithDialog();
  QJsonObject viewState() const;
  void applyViewState(const QJsonObject& json);
  // main_window_model_check.cpp
  void createModelCheckUi();
  void showModelCheck();
  void updateModelCheckBadge();
  // The load's line for the log (with its findings' counts) and the fix-ups' changes, after a load.
  void logLoad(bool wasReload);
  void setFixupEnabled(dyn::Fixup fixup, bool on);
  // main_window_algorithms.cpp
  void createAlgorithmsUi();
  // main_window_workspaces.cpp
  void createWorkspaceUi();
  const workspaces::Workspace& currentWorkspace() const;
  // `keepTabsInFront`: the same workspace again (presentation mode): the tabs in front stay.
  void layOut(const workspaces::Layout& layout,
              bool keepTabsInFront = false);  // now and again once the window has settled
  // After a load: a DH robot brings its table forward (a tab at the desk; its own place when
  // presenting, where a URDF after it gives the place back).
  void followRobotKind();
  std::vector<QDockWidget*> m_laidOut;  // the docks the last layOut showed
  void saveWorkspaceSettings() const;
  QSize savedScreenSize() const;  // the screen's available size, kept with the saved dock layouts
  // main_window_lecture.cpp
  void createLectureUi();
  void updateLectureView();
  void exportHandoutWithDialog();
  // The body of the step shown, selected in the 3D view and the model tree; -1: the user's own
  // selection again (at the start, and when lecture mode ends).
  void showLectureBody(int body);

  Settings m_settings;
  WorkbenchSession* m_session;
  RobotDocument* m_doc;  // the session's documents, for short
  VtkViewport* m_viewport;
  RobotScene* m_scene;
  ModelTreeDock* m_treeDock;
  JointsDock* m_jointsDock;
  PropertiesDock* m_propertiesDock;
  LogDock* m_logDock;
  QUndoStack* m_undo = nullptr;
  TrajectoryDocument* m_traj = nullptr;
  TrajectoryDock* m_trajectoryDock = nullptr;
  TimelineDock* m_timelineDock = nullptr;
  PlotsDock* m_plotsDock = nullptr;
  SimulationDock* m_simulationDock = nullptr;
  MassMatrixDock* m_massDock = nullptr;
  IkDragController* m_ik = nullptr;
  PerturbationDrag* m_perturbation = nullptr;
  IkDock* m_ikDock = nullptr;
  ModelCheckDock* m_checkDock = nullptr;
  QToolButton* m_checkBadge = nullptr;
  std::vector<QAction*> m_fixupActions;  // in dyn::kAllFixups order
  LectureDocument* m_lecture = nullptr;
  AlgorithmInspectorDock* m_inspectorDock = nullptr;
  EquationsDock* m_equationsDock = nullptr;
  AlgorithmsDock* m_algorithmsDock = nullptr;
  std::unique_ptr<TraceArrowOverlay> m_arrows;
  int m_userSelectedBody = -1;      // the user's latest choice (not lecture mode's)
  bool m_lectureSelecting = false;  // lecture mode is selecting a step's body
  QAction* m_saveProjectAction = nullptr;
  QToolBar* m_fileToolBar = nullptr;
  QToolBar* m_viewToolBar = nullptr;
  QMenu* m_recentMenu = nullptr;
  QAction* m_openAction = nullptr;
  QAction* m_reloadAction = nullptr;
  QAction* m_exportAction = nullptr;
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
  QTimer* m_frameLabelTimer;
  static constexpr int kFrameLabelMs = 500;  // the frame-time label is redrawn at most this often
  QProgressBar* m_progress;
  QString m_defaultDir;
  QString m_lastError;
  ErrorHandler m_errorHandler;
  PromptHandler m_promptHandler;
  double m_lastFrameMs = 0;
  // Frame-time measurement (onPoseChanged -> onRendered -> onFrameSwapped).
  struct FrameClock {
    QElapsedTimer sincePose;   // started at the first pose change not yet on screen
    QElapsedTimer sinceFrame;  // since the last measured frame: a pause starts a new average
    bool pending = false, rendered = false;
    double kinematicsMs = 0, sceneMs = 0, renderMs = 0;
    std::array<double, 12> recent{};
    int count = 0;
    double lastFrameMs = 0;  // shown in the label's tooltip
    int averaged = 0;        // frames in m_lastFrameMs
    QElapsedTimer labelShown;
  } m_clock;
  bool m_presentation = false;
  QSize m_presentScreen;       // presentOnScreenOfSize's, else empty: the window's screen
  QString m_framedMotion;      // the loaded trajectory the camera last framed (main_window_trajectory.cpp)
  double m_shownExtent = 0;    // and its size (the sum of its joint offsets; a large change refits too)
  bool m_loopRefused = false;  // the last pose change was refused: the loops cannot close there
  struct PresentationReturn {  // what presentation mode gives back when it ends
    QByteArray state;          // saveState(): every dock, tab and splitter
    QRect geometry;            // restored ourselves when no window manager does it
    bool maximized = false;
    QString workspace;
  } m_beforePresenting;
  QString m_workspace = QStringLiteral("explore");
  QHash<QString, QByteArray> m_workspaceStates;  // the user's layout of each workspace left
  QToolBar* m_workspaceToolBar = nullptr;
  QActionGroup* m_workspaceGroup = nullptr;
  bool m_layoutRestored = false;  // the user's dock layout from QSettings
  bool m_docksSized = false;      // dock sizes fitted to the window at the first show
  QFont m_normalFont;
  PresentationStyle m_presentationStyle;
};
