#include "scene/robot_scene.hpp"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellPicker.h>
#include <vtkRenderWindow.h>
#include <vtkRenderWindowInteractor.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Geometry>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"
#include "scene/camera_rig.hpp"
#include "scene/com_layer.hpp"
#include "scene/force_arrow_layer.hpp"
#include "scene/frame_layer.hpp"
#include "scene/geometry_layer.hpp"
#include "scene/inertia_layer.hpp"
#include "scene/joint_axis_layer.hpp"
#include "scene/link_name_layer.hpp"
#include "scene/loop_layer.hpp"
#include "scene/scene_ground.hpp"
#include "scene/swept_corners.hpp"
#include "viewport/vtk_viewport.hpp"

struct RobotScene::Impl {
  explicit Impl(vtkRenderer* r) : renderer(r), stage(r), camera(r), ground(r) {}

  vtkSmartPointer<vtkRenderer> renderer;
  SceneStage stage;
  CameraRig camera;  // before the ground: the light and the first camera, as before
  SceneGround ground;
  vtkSmartPointer<vtkCellPicker> picker;

  GeometryLayer geometry;
  std::vector<ForceArrow> passingArrows, steadyArrows;  // setForceArrows's and setSteadyForceArrows's
  std::vector<Eigen::VectorXd> pendingMotion;           // fitToMotion's before the first pose
  std::vector<scene::Vec3> poseCorners;                 // updatePose's, kept (no allocation per pose)
  // The boxes the automatic framing uses: the collision geometry's, else the visual's.
  std::vector<GeometryLayer::Box> fitBoxes() const {
    auto boxes = geometry.boxes(true);
    return boxes.empty() ? geometry.boxes(false) : boxes;
  }
  FrameLayer frames;
  JointAxisLayer jointAxes;
  ComLayer coms;
  InertiaLayer inertia;
  LoopLayer loops;
  LinkNameLayer names;
  ForceArrowLayer forces;
  // In the order their actors go into the renderer.
  std::array<SceneLayer*, 8> layers() {
    return {&geometry, &frames, &jointAxes, &coms, &inertia, &loops, &names, &forces};
  }

  int nBodies = 0;
  bool built = false, posed = false;
  QStringList problems;

  void removeAll() {
    std::vector<vtkProp*> ours;
    for (SceneLayer* l : layers()) l->collectProps(ours);
    stage.removeAll(ours);
    for (SceneLayer* l : layers()) l->clear();
    built = posed = false;
    pendingMotion.clear();
    nBodies = 0;
    problems.clear();
  }
};

RobotScene::RobotScene(vtkRenderer* renderer, QObject* parent) : QObject(parent), d_(new Impl(renderer)) {
  d_->picker = vtkSmartPointer<vtkCellPicker>::New();
  d_->picker->SetTolerance(0.0005);
  d_->picker->PickFromListOn();
  applyVisibility();
}

RobotScene::~RobotScene() { d_->removeAll(); }

vtkRenderer* RobotScene::renderer() const { return d_->renderer; }
bool RobotScene::hasModel() const { return d_->built; }
QStringList RobotScene::problems() const { return d_->problems; }

void RobotScene::requestRender() {
  emit changed();
  if (auto* rw = d_->renderer->GetRenderWindow())
    if (auto* iren = rw->GetInteractor()) iren->Render();  // VtkViewport: schedules a repaint
}

void RobotScene::report(const QString& text) {
  d_->problems << text;
  emit message(text);
}

void RobotScene::clear() {
  d_->removeAll();
  requestRender();
}

void RobotScene::setModel(const dyn::Model& model, const QString& sourceFile) {
  setModel(model, sourceFile, MeshLibrary::load(model, sourceFile));
}

bool RobotScene::refreshModel(const dyn::Model& model) {
  if (!d_->built || model.N + 1 != d_->nBodies) return false;
  for (SceneLayer* l : d_->layers())
    if (!l->refresh(model, d_->stage)) return false;
  applyMaterials();  // the limits may have changed, and with them the bodies drawn in warning red
  requestRender();
  return true;
}

void RobotScene::setModel(const dyn::Model& model, const QString& sourceFile, const MeshLibrary& meshes) {
  d_->removeAll();
  d_->nBodies = model.N + 1;
  selectedBody_ = -1;
  d_->geometry.setSource(sourceFile, &meshes, [this](const QString& text) { report(text); });
  for (SceneLayer* l : d_->layers()) l->build(model, d_->stage);
  d_->geometry.setSource(sourceFile, nullptr, nullptr);  // the library is the caller's
  d_->inertia.setEllipsoids(inertiaShape_ == InertiaShape::Ellipsoid);
  d_->built = true;
  if (!groundFixed_) groundZ_ = 0.0;
  const Eigen::Vector3d g = model.gravity.v;
  setUp(groundFixed_ || !(g.norm() > 1e-9) ? Eigen::Vector3d::UnitZ() : Eigen::Vector3d(-g.normalized()));
  applyMaterials();
  applyVisibility();
  requestRender();
}

void RobotScene::updatePose(const dyn::Model& model, const dyn::Data& data) {
  if (!d_->built || int(data.X0.size()) != d_->nBodies || model.geometries.size() != d_->geometry.size() ||
      model.frames.size() != d_->frames.size())
    return;
  ScenePose pose{frameScale_, groundZ_, up_};
  d_->geometry.pose(model, data, pose);
  const bool first = !d_->posed;
  if (first) {  // first pose of this model: ground, grid (the COM's plumb line ends on that ground)
    double b[6];
    if (d_->geometry.bounds(b, false)) {
      // Heights along up, and how far the robot reaches across it from the origin.
      double low = std::numeric_limits<double>::infinity(), high = -low, across = 0;
      for (const auto& p : d_->geometry.corners()) {
        low = std::min(low, heightOf(p));
        high = std::max(high, heightOf(p));
        across = std::max(across, (p - heightOf(p) * up_).norm());
      }
      if (!groundFixed_) groundZ_ = std::min(0.0, low) - 0.001;
      const double reach = std::max(across, high - low);
      d_->ground.setGrid(std::max(1.0, std::ceil(reach * 1.5 + 0.25)), groundZ_);
      d_->ground.setWorldAxesLength(std::clamp(0.15 * std::max(high - low, reach), 0.1, 0.5));
      d_->forces.setRobotSize(std::max({b[1] - b[0], b[3] - b[2], b[5] - b[4]}));  // its largest extent
    }
    pose.groundZ = groundZ_;
  }
  for (SceneLayer* l : d_->layers())
    if (l != &d_->geometry) l->pose(model, data, pose);
  if (first) {  // camera: the robot as it stands, large (its whole reach made it small); a motion, as it sweeps
    d_->posed = true;
    applyVisibility();
    if (autoFit_) {
      d_->camera.turnTo(CameraRig::View::Iso);
      // A motion given before this first pose (fitToMotion) is framed instead of the pose.
      frame(d_->pendingMotion.empty() ? d_->geometry.corners()
                                      : scene::sweptCorners(model, d_->fitBoxes(), d_->pendingMotion));
      d_->pendingMotion.clear();
    } else if (keepInView_ && d_->camera.untouchedSinceFit()) {
      d_->geometry.corners(d_->poseCorners);
      for (auto& p : d_->poseCorners) keepAboveGround(p);
      if (!d_->camera.sees(d_->poseCorners)) frame(d_->poseCorners);
    }
  } else if (autoFit_ && d_->camera.untouchedSinceFit() && !(framingHeld_ && framingHeld_())) {
    // A pose that leaves the view (an arm raised by its slider, an IK drag) widens the framing to
    // take it in, as long as the user has not moved the camera: the reach, when a motion needs it.
    d_->geometry.corners(d_->poseCorners);
    for (auto& p : d_->poseCorners) keepAboveGround(p);
    if (!d_->camera.sees(d_->poseCorners)) {
      std::vector<scene::Vec3> both = d_->camera.fitPoints();
      both.insert(both.end(), d_->poseCorners.begin(), d_->poseCorners.end());
      if (both.size() > 4096) {  // a long walk: the box around them, not an ever longer list
        Eigen::AlignedBox3d box;
        for (const auto& p : both) box.extend(p);
        both.clear();
        for (int k = 0; k < 8; ++k) both.push_back(box.corner(Eigen::AlignedBox3d::CornerType(k)));
      }
      frame(std::move(both));
    }
  }
  requestRender();
}

void RobotScene::setForceArrows(const std::vector<ForceArrow>& arrows) {
  if (arrows.empty() && d_->forces.arrows().empty()) return;
  d_->passingArrows = arrows;
  std::vector<ForceArrow> all = arrows;
  all.insert(all.end(), d_->steadyArrows.begin(), d_->steadyArrows.end());
  d_->forces.setArrows(all);
  requestRender();
}

void RobotScene::setSteadyForceArrows(const std::vector<ForceArrow>& arrows) {
  if (arrows.empty() && d_->steadyArrows.empty()) return;
  d_->steadyArrows = arrows;
  std::vector<ForceArrow> all = d_->passingArrows;
  all.insert(all.end(), arrows.begin(), arrows.end());
  d_->forces.setArrows(all);
  requestRender();
}

const ForceArrowLayer& RobotScene::forceArrows() const { return d_->forces; }

// ---- lookup -----------------------------------------------------------------------------------

QList<vtkActor*> RobotScene::actorsOfLink(const QString& link) const { return d_->geometry.actorsOfLink(link); }
int RobotScene::loopJointCount() const { return d_->loops.count(); }
std::array<double, 6> RobotScene::loopJointEnds(int k) const { return d_->loops.ends(k); }
QList<vtkActor*> RobotScene::loopActors() const { return d_->loops.actors(); }
vtkPolyData* RobotScene::loopLines() const { return d_->loops.lines(); }
QList<vtkActor*> RobotScene::geometryActors() const { return d_->geometry.actors(); }
int RobotScene::bodyOfActor(vtkActor* actor) const { return d_->geometry.bodyOfActor(actor); }
bool RobotScene::isPlaceholder(vtkActor* actor) const { return d_->geometry.isPlaceholder(actor); }
QList<vtkActor*> RobotScene::inertiaActors() const { return d_->inertia.actors(); }

// ---- appearance -------------------------------------------------------------------------------

void RobotScene::applyVisibility() {
  const bool posed = d_->posed;
  d_->geometry.show(posed && showVisual_, posed && showCollision_);
  d_->frames.show(posed && showFrames_);
  d_->jointAxes.show(posed && showJointAxes_);
  d_->coms.show(posed && showCom_);
  d_->inertia.show(posed && showInertia_);
  d_->names.show(posed && showNames_);
  d_->loops.show(posed && showLoops_);
  d_->forces.show(posed);
  d_->ground.showGrid(showGrid_);
  d_->ground.showWorldAxes(showWorldAxes_);
}

void RobotScene::applyMaterials() { d_->geometry.applyMaterials({opacity_, selectedBody_, &warningBodies_}); }

void RobotScene::setShowVisual(bool on) {
  showVisual_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowCollision(bool on) {
  showCollision_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowFrames(bool on) {
  showFrames_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowJointAxes(bool on) {
  showJointAxes_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowCom(bool on) {
  showCom_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowInertiaBoxes(bool on) {
  showInertia_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setInertiaShape(InertiaShape shape) {
  inertiaShape_ = shape;
  d_->inertia.setEllipsoids(shape == InertiaShape::Ellipsoid);
  applyVisibility();
  requestRender();
}
void RobotScene::setShowLinkNames(bool on) {
  showNames_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowGrid(bool on) {
  showGrid_ = on;
  applyVisibility();
  requestRender();
}
void RobotScene::setShowWorldAxes(bool on) {
  showWorldAxes_ = on;
  applyVisibility();
  requestRender();
}

void RobotScene::setShowLoopJoints(bool on) {
  showLoops_ = on;
  applyVisibility();
  requestRender();
}

void RobotScene::setFrameScale(double metres) {
  if (!(metres > 0) || !std::isfinite(metres)) return;
  // Rescale the current matrices in place (no new pose needed).
  const double f = metres / frameScale_;
  frameScale_ = metres;
  d_->frames.rescale(f);
  d_->jointAxes.rescale(f);
  requestRender();
}

void RobotScene::setOpacity(double opacity) {
  opacity_ = std::clamp(opacity, 0.0, 1.0);
  applyMaterials();
  requestRender();
}

void RobotScene::setSelectedBody(int body) {
  selectedBody_ = body;
  applyMaterials();
  requestRender();
}

void RobotScene::setWarningBodies(const std::vector<int>& bodies) {
  std::vector<int> sorted = bodies;
  std::sort(sorted.begin(), sorted.end());
  if (sorted == warningBodies_) return;
  warningBodies_ = std::move(sorted);
  applyMaterials();
  requestRender();
}

void RobotScene::setGroundHeight(double z) {
  groundFixed_ = true;
  groundZ_ = z;
  setUp(Eigen::Vector3d::UnitZ());  // the simulation's ground is the plane z = height
  d_->ground.setHeight(z);
  requestRender();
}

vtkActor* RobotScene::gridActor() const { return d_->ground.grid(); }

void RobotScene::setUp(const Eigen::Vector3d& up) {
  if (up.isApprox(up_)) return;
  up_ = up;
  d_->ground.setUp(up);
  d_->camera.setUp(up);
}

// ---- picking and camera -----------------------------------------------------------------------

int RobotScene::pickBody(const QPoint& pos, VtkViewport* viewport) const {
  vtkRenderWindow* rw = d_->renderer->GetRenderWindow();
  if (!rw || !d_->posed) return -1;
  const double dpr = viewport ? viewport->devicePixelRatioF() : 1.0;
  const int height = rw->GetSize()[1];
  d_->picker->InitializePickList();
  for (vtkActor* a : d_->geometry.actors())
    if (a->GetVisibility()) d_->picker->AddPickList(a);
  if (!d_->picker->Pick(pos.x() * dpr, height - 1 - pos.y() * dpr, 0.0, d_->renderer)) return -1;
  return bodyOfActor(d_->picker->GetActor());
}

void RobotScene::handleClick(const QPoint& pos, VtkViewport* viewport) { emit picked(pickBody(pos, viewport)); }

double RobotScene::robotExtent() const {
  double b[6];
  if (!d_->geometry.bounds(b, true)) return 0;
  return scene::boundsDiagonal(b);
}

void RobotScene::fitToRobot() {
  // The corners of every geometry's own (oriented) bounding box: much tighter than the robot's
  // axis-aligned box for a diagonal arm.
  const std::vector<scene::Vec3> pts = d_->posed ? d_->geometry.corners() : std::vector<scene::Vec3>{};
  d_->camera.fit(pts);
  requestRender();
}

bool RobotScene::fitToMotion(const dyn::Model& model, const std::vector<Eigen::VectorXd>& configurations) {
  if (configurations.empty() || !autoFit_) return false;
  if (!d_->posed) {  // the load's framing is still to come: it frames the motion instead
    d_->pendingMotion = configurations;
    return true;
  }
  if (!d_->camera.untouchedSinceFit()) return false;  // the user's view stays
  std::vector<scene::Vec3> swept = scene::sweptCorners(model, d_->fitBoxes(), configurations);
  if (swept.empty()) return false;
  frame(std::move(swept));
  requestRender();
  return true;
}

void RobotScene::frame(std::vector<Eigen::Vector3d> points) {
  for (auto& p : points) keepAboveGround(p);  // a pose through the floor is no part of the picture
  d_->camera.fit(points, 0.9);
}

bool RobotScene::refitCamera() {
  if (!d_->camera.refit()) return false;
  requestRender();
  return true;
}

void RobotScene::setViewPreset(ViewPreset preset) {
  d_->camera.turnTo(CameraRig::View(int(preset)));
  fitToRobot();
}

void RobotScene::setParallelProjection(bool on) {
  d_->camera.setParallelProjection(on);
  requestRender();
}
