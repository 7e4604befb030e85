// Inverse-kinematics dragging in the 3D view (issue 6): a gizmo on the dragged link; grabbing an
// arrow, a ring or the centre sphere turns mouse moves into a target pose, each move solves IK
// from the current q (dyn::IkSolver, warm start, bounded step) and sets it on the document. One
// undo command per drag. Pins, locked joints, out-of-reach feedback, manipulability overlays
// (the ellipsoid in metres, at a stated scale). None of the overlays appear in exported images:
// the gizmo's renderer is hidden in the viewport's grabImage().
//
// Wiring into MainWindow (the lead's part, ~15 lines in the constructor after createActions()):
//
//   #include "ik/ik_dock.hpp"
//   #include "ik/ik_drag_controller.hpp"
//   m_ik = new IkDragController(m_doc, m_viewport, m_scene->renderer(), m_undo, this);
//   m_ikDock = new IkDock(m_ik, m_doc, this);       // objectName "ikDock"
//   addDockWidget(Qt::RightDockWidgetArea, m_ikDock);
//   tabifyDockWidget(m_jointsDock, m_ikDock);
//   m_jointsDock->raise();
//   QMenu* ik = menuBar()->addMenu(tr("&IK"));       // or into the Tools/View menu
//   ik->addActions(m_ik->actions());
//   ik->addAction(m_ikDock->toggleViewAction());
//   m_viewToolBar->addAction(m_ik->dragModeAction());
//   connect(m_ik, &IkDragController::message, this,
//           [this](const QString& t) { m_logDock->append(t, LogDock::Level::Warning); });
//   connect(m_ik, &IkDragController::statusText, this,
//           [this](const QString& t) { statusBar()->showMessage(t, 3000); });
//
// (m_undo must exist before, i.e. after createTrajectoryUi(). The controller installs an event
// filter on the viewport: while a gizmo part is grabbed, mouse events never reach VTK's camera
// style. It follows RobotDocument::selectedBodyChanged: the selected link is dragged, the model's
// defaultEndEffector when nothing is selected.)
#pragma once
#include <Eigen/Core>
#include <QList>
#include <QObject>
#include <QPoint>
#include <QPointer>
#include <QString>
#include <memory>
#include <vector>

#include "dynscope/model/data.hpp"
#include "ik/ik_drag_math.hpp"
#include "ik/ik_gizmo.hpp"
#include "viewport/vtk_viewport.hpp"

class QAction;
class QUndoStack;
class RobotDocument;
class vtkRenderer;
namespace dyn {
class IkSolver;
}

class IkDragController : public QObject {
  Q_OBJECT
 public:
  IkDragController(RobotDocument* doc, VtkViewport* viewport, vtkRenderer* sceneRenderer, QUndoStack* undo,
                   QObject* parent = nullptr);
  ~IkDragController() override;

  // Actions (all owned by the controller). Checkable: drag mode (G), position only, local axes,
  // the three overlays.
  QAction* dragModeAction() const { return dragMode_; }
  QAction* positionOnlyAction() const { return positionOnly_; }
  QAction* localAxesAction() const { return localAxes_; }
  QAction* pinSelectedAction() const { return pinSelected_; }
  QAction* clearPinsAction() const { return clearPins_; }
  QAction* ellipsoidAction() const { return ellipsoid_; }
  QAction* forceEllipsoidAction() const { return forceEllipsoid_; }
  QAction* singularityAction() const { return singularity_; }
  QList<QAction*> actions() const;

  bool isActive() const;  // drag mode on and a model with a draggable frame
  bool isDragging() const { return grabbed_ != IkGizmo::None; }
  IkGizmo::Part grabbedPart() const { return grabbed_; }

  // The dragged frame (model frame index; -1 without a model).
  int draggedFrame() const { return frame_; }
  void setDraggedFrame(int frame);
  int frameOfBody(int body) const;  // the frame named like the body (its URDF link), else its first

  // Pins: frames held at their world pose at pin time.
  void togglePin(int frame);
  bool isPinned(int frame) const;
  QList<int> pinnedFrames() const;
  void clearPins();

  // Locked joints (body / joint index 1..N) keep their value in every solve.
  void setJointLocked(int joint, bool locked);
  bool isJointLocked(int joint) const;

  bool outOfReach() const { return gizmo_.outOfReach(); }
  struct Readout {
    bool valid = false;  // a solve ran since the last model change
    double positionError = 0, rotationError = 0, pinError = 0;
    int iterations = 0;
    bool converged = false, reachable = false;
    // A pose drag whose orientation cannot be kept from here (a joint at a limit in the way): the
    // link's position follows with its orientation free, rather than the whole arm standing still.
    bool orientationFreed = false;
    double minSingularValue = 0;  // of the dragged frame's Jv at the current q
    // The ellipsoid overlay as drawn (while it is on): values sigma_k (velocity, m/s per rad/s)
    // or 1/sigma_k (force, N per N m) along the left singular vectors, drawn semi-axes in metres
    // (value x scale, capped), `singular` when a force semi-axis hit the cap.
    bool ellipsoid = false, forceEllipsoid = false, singular = false;
    Eigen::Vector3d ellipsoidValues = Eigen::Vector3d::Zero(), ellipsoidRadii = Eigen::Vector3d::Zero();
    double ellipsoidScale = 0;  // s (velocity) or m/N (force)
    QString overlayText;        // the lines of the 3D view's read-out
  };
  const Readout& readout() const { return readout_; }

  // Ellipsoid scales, fixed while dragging so that a change of size means a change of
  // manipulability. Velocity: semi-axis sigma_k (m/s at |qd| = 1 rad/s) drawn as sigma_k x seconds
  // metres (how far the link gets in that time). Force: semi-axis 1/sigma_k (N at |tau| = 1 N m)
  // drawn as 1/sigma_k x metresPerNewton metres. Both drawn semi-axes are capped at
  // ellipsoidCap() (1/sigma is unbounded near a singularity). A model load resets them: velocity
  // to kVelocitySeconds (sigma grows with the arm's size, so the drawing does too), force to a
  // 1-2-5 value near kForceScalePerReach2 x reach^2 (1/sigma shrinks with the size).
  static constexpr double kVelocitySeconds = 0.2;
  static constexpr double kForceScalePerReach2 = 0.05;
  static constexpr double kCapPerReach = 2.0;
  double velocityEllipsoidScale() const { return velocityScale_; }
  void setVelocityEllipsoidScale(double seconds);
  double forceEllipsoidScale() const { return forceScale_; }
  void setForceEllipsoidScale(double metresPerNewton);
  double reach() const { return reach_; }  // longest chain of link offsets from the base (m)
  double ellipsoidCap() const { return kCapPerReach * reach_; }

  IkGizmo& gizmo() { return gizmo_; }
  // Largest change of any dof one mouse move may cause (rad or m): no jumps.
  static constexpr double kMaxMoveStep = 0.25;
  // Reading as "reached" while dragging: below these the target counts as reached.
  static constexpr double kReachPosition = 1e-4, kReachRotation = 1e-3;

 signals:
  void message(const QString& text);     // e.g. "target out of reach: 0.12 m away"
  void statusText(const QString& text);  // live read-out line (residual, smallest singular value)
  void readoutChanged();
  void draggedFrameChanged(int frame);
  void pinsChanged();
  void locksChanged();
  void dragFinished();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  struct Pin {
    int frame;
    dyn::Transform<double> pose;
  };
  void onModelChanged();
  void lockFingers();               // the joints below the main chain's end (a hand's fingers)
  void unlockSupportOf(int frame);  // the locked joints that move this frame
  void onPoseChanged();
  void onSelectedBodyChanged(int body);
  void updateActions();
  void placeGizmo();
  void updatePins();
  void updateOverlays();
  ikdrag::Ray rayAt(const QPointF& widgetPos) const;
  Eigen::Vector2d displayOf(const QPointF& widgetPos) const;
  bool beginDrag(const QPointF& pos);
  void dragTo(const QPointF& pos);
  void endDrag();
  void solveFor(const Eigen::Matrix3d& R, const Eigen::Vector3d& p);
  Eigen::Matrix3d handleRotation() const;  // world or the link's axes

  QPointer<RobotDocument> doc_;  // the session may go first when the window closes
  QPointer<VtkViewport> viewport_;
  QUndoStack* undo_;
  IkGizmo gizmo_;
  std::unique_ptr<dyn::IkSolver> solver_;
  std::unique_ptr<dyn::Data> data_;  // manipulability's workspace
  QAction *dragMode_, *positionOnly_, *localAxes_, *pinSelected_, *clearPins_, *ellipsoid_, *forceEllipsoid_,
      *singularity_;
  int frame_ = -1;
  std::vector<Pin> pins_;
  std::vector<int> lockedJoints_;
  Readout readout_;
  double reach_ = 1, velocityScale_ = kVelocitySeconds, forceScale_ = kForceScalePerReach2;

  // The drag in progress.
  IkGizmo::Part grabbed_ = IkGizmo::None;
  Eigen::VectorXd qBefore_;
  Eigen::Matrix3d R0_, handleR0_;  // link orientation, handle axes at the grab
  Eigen::Vector3d p0_, start_;     // link origin; the grabbed point (line parameter / plane point)
  double t0_ = 0;
  Eigen::Vector3d planeNormal_;
  bool reported_ = false;       // out-of-reach message sent for this episode
  bool freedReported_ = false;  // orientation-freed message sent for this episode
};
