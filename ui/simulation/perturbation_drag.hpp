// Pushing a body with the mouse while simulating (issue 25), in the 3D view of the Simulate
// workspace:
//   Ctrl + right drag on a link pulls the point grabbed towards the cursor with a spring-damper;
//   Ctrl + left drag on a link twists it: a rotational spring towards the orientation at the grab
//     turned by the drag (trackball-like: the front of the link follows the mouse, 1 rad per
//     kPixelsPerRadian pixels).
// The physics is simulation/perturbation.hpp; the runner computes the wrench from its current state
// before every step (SimulationRunner::setPerturbation). The arrow (scene/force_arrow_layer.hpp) is
// the runner's, from its snapshot, while the drag lasts; release removes the push.
//
// The point keeps its place on the link (body coordinates at the grab); the target is where the
// mouse ray meets the plane through the grab point facing the camera (fixed at the grab).
//
// Paused: with gravity compensation as the torque source the simulation runs while the drag lasts
// (the pose follows the push and settles where the spring balances it) and pauses again at release;
// with another source (the robot would fall) the drag only shows the arrow of the push at the
// pose shown. Running: the push acts on the run. A pull also draws its spring, a thin line from the
// point to the target with a dot there.
#pragma once
#include <vtkSmartPointer.h>
#include <Eigen/Core>
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <functional>

#include "simulation/perturbation.hpp"

class QTimer;
class vtkActor;
class vtkLineSource;
class vtkSphereSource;
class RobotDocument;
class RobotScene;
class SimulationDock;
class VtkViewport;

class PerturbationDrag : public QObject {
  Q_OBJECT
 public:
  static constexpr double kPixelsPerRadian = 120;

  PerturbationDrag(RobotDocument* robot, VtkViewport* viewport, RobotScene* scene, SimulationDock* dock,
                   QObject* parent = nullptr);
  ~PerturbationDrag() override;
  // When pushing is offered (the window: in the Simulate workspace); elsewhere Ctrl+drags stay the camera's.
  void setEnabledWhen(std::function<bool()> enabled) { enabled_ = std::move(enabled); }

  bool isDragging() const { return dragging_; }
  // The forces on the robot now: the push while dragging, and the ground's contact forces (per body,
  // at its centre of pressure) whenever the run's state is the pose shown. At the display rate.
  void showForces();
  const perturb::Perturbation& perturbation() const { return p_; }  // the push in progress
  bool runsWhileDragging() const { return started_; }               // paused, gravity compensation

 signals:
  void statusText(const QString& text);  // what the push does, for the status bar

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool begin(const QPointF& pos, perturb::Perturbation::Kind kind);
  void moveTo(const QPointF& pos);
  void end();
  void showArrows();  // from the runner's snapshot, or at the pose shown when it has none
  // The pull's spring: a thin line from the point to the target and a dot at the target (the
  // cursor is in no exported picture or recording). Hidden for a twist and after the drag.
  void showTether(bool on, const Eigen::Vector3d& from = {}, const Eigen::Vector3d& to = {});
  struct Ray {
    Eigen::Vector3d origin, dir;
  };
  Ray rayAt(const QPointF& widgetPos) const;

  QPointer<RobotDocument> robot_;
  QPointer<VtkViewport> viewport_;
  RobotScene* scene_;
  QPointer<SimulationDock> dock_;
  std::function<bool()> enabled_;
  QTimer* timer_;  // the arrow follows the run at the display rate while dragging

  bool dragging_ = false, started_ = false;
  perturb::Perturbation p_;
  QPointF pressPos_;
  Eigen::Vector3d grab_ = Eigen::Vector3d::Zero(), normal_ = Eigen::Vector3d::UnitX();
  Eigen::Matrix3d R0_ = Eigen::Matrix3d::Identity();
  vtkSmartPointer<vtkLineSource> line_;
  vtkSmartPointer<vtkSphereSource> dot_;
  vtkSmartPointer<vtkActor> tether_, target_;
};
