// The robot in a vtkRenderer: its geometry (visual and collision) and the teaching aids (link
// frames, joint axes, centres of mass, inertia solids, loop-closure joints, link names, ground
// grid, world axes), each a layer (scene/scene_layer.hpp: scene/geometry_layer.hpp,
// frame_layer.hpp, joint_axis_layer.hpp, com_layer.hpp, inertia_layer.hpp, loop_layer.hpp,
// link_name_layer.hpp; scene_ground.hpp), and the camera (scene/camera_rig.hpp). The scene only
// reads Model and Data: the caller runs the engine's forwardKinematics and then updatePose().
//
// Closed kinematic loops (docs/loops.md) are drawn apart from the tree, in magenta, over the robot
// (scene/loop_layer.hpp).
//
// Every change requests a repaint through the render window's interactor (VtkViewport turns that
// into a Qt update()).
#pragma once
#include <Eigen/Core>
#include <QList>
#include <QObject>
#include <QPoint>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "scene/mesh_loader.hpp"

class ForceArrowLayer;
struct ForceArrow;
class vtkActor;
class vtkPolyData;
class vtkRenderer;
class VtkViewport;

namespace dyn {
template <class S>
struct DataTpl;
using Data = DataTpl<double>;
}  // namespace dyn

class RobotScene : public QObject {
  Q_OBJECT
 public:
  enum ViewPreset { Front, Side, Top, Iso };
  Q_ENUM(ViewPreset)
  // The equivalent uniform solid drawn for each body's inertia (same mass and rotational inertia).
  enum class InertiaShape { Box, Ellipsoid };
  Q_ENUM(InertiaShape)

  explicit RobotScene(vtkRenderer* renderer, QObject* parent = nullptr);
  ~RobotScene() override;

  // Builds the actors (reads and caches meshes; problems go to message() once each).
  void setModel(const dyn::Model& model, const QString& sourceFile);
  // The same with meshes already read (MeshLibrary::load can run on a worker thread).
  void setModel(const dyn::Model& model, const QString& sourceFile, const MeshLibrary& meshes);
  // An edit of the robot shown that kept its tree (RobotDocument::modelKeptTree): the actors are
  // updated in place (inertia solids, COM markers) and kept, so that the edit costs no rebuild; the
  // next updatePose moves them. False when something must be built again (a geometry changed, a body
  // gained or lost its mass): then call setModel.
  bool refreshModel(const dyn::Model& model);
  void clear();
  bool hasModel() const;

  // After forwardKinematics(model, data, q): moves every actor; allocation-free but for a pose that
  // widens the framing. The first call after setModel() also shows the actors, places the ground
  // and (autoFit) fits the camera to the robot as posed (not to scenery: GeometryLayer::isScenery),
  // seen from the iso direction; a later pose that leaves the view widens that framing while the
  // camera is where it left it.
  void updatePose(const dyn::Model& model, const dyn::Data& data);

  // Forces and moments from outside (a push while simulating, contacts): drawn as given, world
  // coordinates (scene/force_arrow_layer.hpp); an empty list removes them.
  void setForceArrows(const std::vector<ForceArrow>& arrows);
  // The steady ones (an external wrench the user set, at the current pose), drawn with those.
  void setSteadyForceArrows(const std::vector<ForceArrow>& arrows);
  const ForceArrowLayer& forceArrows() const;

  // Lookup (tests, selection).
  QList<vtkActor*> actorsOfLink(const QString& link) const;  // visual and collision actors
  QList<vtkActor*> geometryActors() const;                   // index = index in model.geometries
  int bodyOfActor(vtkActor* actor) const;                    // -1 if not a geometry actor
  bool isPlaceholder(vtkActor* actor) const;                 // drawn instead of a missing mesh
  QList<vtkActor*> inertiaActors() const;                    // of the current shape, in body order
  QStringList problems() const;                              // everything reported via message()
  // Closed loops, as drawn: the number of loop-closure joints, the world origins of loop joint k's
  // two frames read back from its markers (F1 then F2), its marker actors, and the dashed lines.
  int loopJointCount() const;
  std::array<double, 6> loopJointEnds(int k) const;
  QList<vtkActor*> loopActors() const;  // per loop joint: ring, ball; then the lines' actor
  vtkPolyData* loopLines() const;       // dashes as line cells (points in world coordinates)

  // Display toggles.
  void setShowVisual(bool on);
  void setShowCollision(bool on);
  void setShowFrames(bool on);        // every model frame (links, merged links, tool frames)
  void setFrameScale(double metres);  // length of the frame arrows (joint axes: 1.5x)
  void setShowJointAxes(bool on);
  void setShowCom(bool on);           // per body (radius ~ cube root of mass) and whole robot
  void setShowInertiaBoxes(bool on);  // equivalent uniform box or ellipsoid about the COM, principal axes
  void setInertiaShape(InertiaShape shape);
  void setShowLinkNames(bool on);
  void setShowGrid(bool on);
  void setShowWorldAxes(bool on);
  void setShowLoopJoints(bool on);  // the loop-closure joints' markers and dashed lines (default on)
  void setOpacity(double opacity);  // visual geometry, 0..1
  void setSelectedBody(int body);   // highlight (-1: none)
  // Bodies drawn in warning red (e.g. whose joint exceeds its effort limit now); the selection
  // highlight wins where both apply. Cheap when the set is unchanged (called every frame).
  void setWarningBodies(const std::vector<int>& bodies);
  void setGroundHeight(double z);              // grid height; default: min(0, lowest point at the first pose)
  void setAutoFit(bool on) { autoFit_ = on; }  // fit the camera to the robot at the first pose after setModel
  // Without autoFit: the camera stays at the first pose after setModel unless the robot would leave
  // a view the user has not moved (an edit that grew it): it then takes the robot in, looking the same way.
  void setKeepInView(bool on) { keepInView_ = on; }
  // While it says so (a drag in the 3D view: IK, a push), a pose leaving the view does not widen the
  // framing: the camera under a dragging mouse stays where it is.
  void setFramingHeld(std::function<bool()> held) { framingHeld_ = std::move(held); }
  bool autoFit() const { return autoFit_; }

  bool showVisual() const { return showVisual_; }
  bool showCollision() const { return showCollision_; }
  bool showFrames() const { return showFrames_; }
  double frameScale() const { return frameScale_; }
  bool showJointAxes() const { return showJointAxes_; }
  bool showCom() const { return showCom_; }
  bool showInertiaBoxes() const { return showInertia_; }
  InertiaShape inertiaShape() const { return inertiaShape_; }
  bool showLinkNames() const { return showNames_; }
  bool showGrid() const { return showGrid_; }
  const Eigen::Vector3d& up() const { return up_; }  // the world's up: against gravity (grid, views)
  vtkActor* gridActor() const;
  bool showWorldAxes() const { return showWorldAxes_; }
  bool showLoopJoints() const { return showLoops_; }
  double opacity() const { return opacity_; }
  int selectedBody() const { return selectedBody_; }
  const std::vector<int>& warningBodies() const { return warningBodies_; }
  double groundHeight() const { return groundZ_; }

  // Picking: the body under a widget position (-1: none). Only visible geometry is pickable.
  int pickBody(const QPoint& widgetPos, VtkViewport* viewport) const;
  // pickBody() and emit picked(body); connect VtkViewport::clicked here.
  void handleClick(const QPoint& widgetPos, VtkViewport* viewport);

  // Camera. fitToRobot (the F key): the robot as posed now.
  void fitToRobot();
  // Frames a motion (a trajectory's samples): the geometry swept over these configurations, when
  // the camera is still where the automatic framing at load left it (never after the user moved
  // it). Before the first pose it replaces the reach envelope of the load's framing. True when it
  // framed (or will frame) them.
  bool fitToMotion(const dyn::Model& model, const std::vector<Eigen::VectorXd>& configurations);
  // After the view changed shape: the last fit again when the camera has not been moved since
  // (CameraRig::refit); true when it refitted.
  bool refitCamera();
  // The diagonal of the visible geometry's bounding box (metres; 0 without geometry).
  double robotExtent() const;
  void setViewPreset(ViewPreset preset);
  void setParallelProjection(bool on);

  vtkRenderer* renderer() const;
  void requestRender();

 signals:
  void message(const QString& text);  // a problem worth logging (e.g. a missing mesh), once each
  void picked(int body);              // from handleClick()
  void changed();                     // something visible changed

 private:
  struct Impl;
  std::unique_ptr<Impl> d_;
  bool showVisual_ = true, showCollision_ = false, showFrames_ = false, showJointAxes_ = false;
  bool showCom_ = false, showInertia_ = false, showNames_ = false, showGrid_ = true, showWorldAxes_ = true;
  std::function<bool()> framingHeld_;
  bool autoFit_ = true, showLoops_ = true, keepInView_ = false;
  InertiaShape inertiaShape_ = InertiaShape::Box;
  double frameScale_ = 0.1, opacity_ = 1.0, groundZ_ = 0.0;
  bool groundFixed_ = false;
  // The world's up: against the model's gravity (planar3 falls along -y), +z without gravity or with
  // the simulation's ground (its plane is z = height). Grid, views, clipping and plumb line follow it.
  Eigen::Vector3d up_ = Eigen::Vector3d::UnitZ();
  void setUp(const Eigen::Vector3d& up);
  double heightOf(const Eigen::Vector3d& p) const { return up_.dot(p); }
  void keepAboveGround(Eigen::Vector3d& p) const { p += std::max(0.0, groundZ_ - heightOf(p)) * up_; }
  int selectedBody_ = -1;
  std::vector<int> warningBodies_;  // sorted
  void applyVisibility();
  void frame(std::vector<Eigen::Vector3d> points);  // the camera fitted to them, clipped at the ground
  void applyMaterials();
  void report(const QString& text);
};
