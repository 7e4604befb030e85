#include "ik/ik_gizmo.hpp"
#include "viewport/render_scale.hpp"

#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkCubeSource.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRegularPolygonSource.h>
#include <vtkRenderWindow.h>
#include <vtkSphereSource.h>
#include <vtkTextProperty.h>
#include <vtkTransform.h>
#include <vtkTransformPolyDataFilter.h>
#include <vtkTubeFilter.h>

#include <algorithm>
#include <cmath>

namespace {

const double kAxisColor[3][3] = {{0.90, 0.16, 0.16}, {0.20, 0.75, 0.22}, {0.20, 0.38, 0.95}};
const double kCentreColor[3] = {0.98, 0.85, 0.25};
const double kOutOfReach[3] = {1.0, 0.0, 0.0};
const double kPinColor[3] = {0.95, 0.10, 0.95};

vtkSmartPointer<vtkActor> actorOf(vtkAlgorithm* source) {
  vtkNew<vtkPolyDataMapper> mapper;
  mapper->SetInputConnection(source->GetOutputPort());
  auto actor = vtkSmartPointer<vtkActor>::New();
  actor->SetMapper(mapper);
  actor->GetProperty()->SetAmbient(0.35);
  actor->GetProperty()->SetDiffuse(0.7);
  actor->GetProperty()->SetSpecular(0.2);
  return actor;
}

// Geometry of unit length along +x, turned onto axis k (x -> y: +90 about z, x -> z: -90 about y).
vtkSmartPointer<vtkTransformPolyDataFilter> ontoAxis(vtkAlgorithm* source, int k) {
  vtkNew<vtkTransform> t;
  if (k == 1) t->RotateZ(90);
  if (k == 2) t->RotateY(-90);
  auto f = vtkSmartPointer<vtkTransformPolyDataFilter>::New();
  f->SetTransform(t);
  f->SetInputConnection(source->GetOutputPort());
  return f;
}

void setMatrix(vtkActor* actor, const Eigen::Matrix3d& M, const Eigen::Vector3d& p) {
  vtkNew<vtkMatrix4x4> m;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m->SetElement(r, c, M(r, c));
    m->SetElement(r, 3, p[r]);
  }
  actor->SetUserMatrix(m);
}

}  // namespace

IkGizmo::IkGizmo(vtkRenderer* scene) : scene_(scene) {
  overlay_->SetLayer(2);       // over the scene's teaching aids too (layer 1: loop marks, trace arrows)
  overlay_->InteractiveOff();  // the trackball style must keep moving the scene's camera
  overlay_->SetPreserveDepthBuffer(false);
  if (vtkRenderWindow* w = scene_->GetRenderWindow()) {
    w->SetNumberOfLayers(std::max(3, w->GetNumberOfLayers()));
    w->AddRenderer(overlay_);
  }
  for (int k = 0; k < 3; ++k) {
    vtkNew<vtkArrowSource> arrow;  // unit length along +x
    arrow->SetShaftRadius(0.035);
    arrow->SetTipRadius(0.09);
    arrow->SetTipLength(0.25);
    arrow->SetShaftResolution(12);
    arrow->SetTipResolution(20);
    parts_[ArrowX + k] = actorOf(ontoAxis(arrow, k));

    vtkNew<vtkRegularPolygonSource> circle;  // in the plane normal to axis k
    circle->SetNumberOfSides(72);
    circle->SetRadius(0.72);
    circle->SetNormal(k == 0, k == 1, k == 2);
    circle->GeneratePolygonOff();
    circle->GeneratePolylineOn();
    vtkNew<vtkTubeFilter> tube;
    tube->SetInputConnection(circle->GetOutputPort());
    tube->SetRadius(0.025);
    tube->SetNumberOfSides(10);
    parts_[RingX + k] = actorOf(tube);
  }
  vtkNew<vtkSphereSource> ball;
  ball->SetRadius(0.13);
  ball->SetThetaResolution(24);
  ball->SetPhiResolution(16);
  parts_[Centre] = actorOf(ball);

  picker_->PickFromListOn();
  picker_->SetTolerance(0.002);
  for (auto& a : parts_) {
    overlay_->AddActor(a);
    picker_->AddPickList(a);
  }

  vtkNew<vtkSphereSource> unit;
  unit->SetRadius(1.0);  // (VTK's default is 0.5) the user matrix's columns are the semi-axes
  unit->SetThetaResolution(32);
  unit->SetPhiResolution(20);
  vtkNew<vtkPolyDataMapper> em;
  em->SetInputConnection(unit->GetOutputPort());
  ellipsoid_->SetMapper(em);
  ellipsoid_->GetProperty()->SetColor(0.25, 0.75, 0.95);
  ellipsoid_->GetProperty()->SetOpacity(0.35);
  ellipsoid_->PickableOff();
  ellipsoid_->VisibilityOff();
  overlay_->AddActor(ellipsoid_);

  text_->GetTextProperty()->SetFontSize(15);
  text_->GetTextProperty()->SetColor(0.1, 0.1, 0.12);
  text_->SetDisplayPosition(12, 12);
  text_->VisibilityOff();
  overlay_->AddViewProp(text_);

  startCallback_->SetClientData(this);
  startCallback_->SetCallback(&IkGizmo::onStart);
  overlay_->AddObserver(vtkCommand::StartEvent, startCallback_);
  applyColors();
  setVisible(false);
}

IkGizmo::~IkGizmo() {
  overlay_->RemoveObserver(startCallback_);
  if (vtkRenderWindow* w = overlay_->GetRenderWindow()) w->RemoveRenderer(overlay_);
}

void IkGizmo::onStart(vtkObject*, unsigned long, void* self, void*) { static_cast<IkGizmo*>(self)->syncCamera(); }

void IkGizmo::syncCamera() {
  overlay_->GetActiveCamera()->DeepCopy(scene_->GetActiveCamera());
  updateScale();
  overlay_->ResetCameraClippingRange();
}

void IkGizmo::updateScale() {
  vtkCamera* cam = scene_->GetActiveCamera();
  const int* size = scene_->GetSize();
  const double h = std::max(1, size[1]) / viewport::renderScale();  // screen pixels, also while moving
  double worldPerPixel;
  if (cam->GetParallelProjection()) {
    worldPerPixel = 2 * cam->GetParallelScale() / h;
  } else {
    const Eigen::Vector3d eye(cam->GetPosition()), dir(cam->GetDirectionOfProjection());
    const double depth = std::max(1e-6, (p_ - eye).dot(dir));
    worldPerPixel = 2 * depth * std::tan(vtkMath::RadiansFromDegrees(cam->GetViewAngle()) / 2) / h;
  }
  const double s = kScreenSize * worldPerPixel;
  if (std::abs(s - scale_) > 1e-12 * std::max(1.0, s)) {
    scale_ = s;
    applyTransforms();
  }
}

void IkGizmo::setVisible(bool on) {
  visible_ = on;
  for (int k = 0; k < PartCount; ++k) parts_[k]->SetVisibility(on && (rings_ || k < RingX || k > RingZ));
  for (auto& a : pinActors_) a->SetVisibility(true);  // pins stay marked in any mode
  if (!on) ellipsoid_->VisibilityOff();
}

void IkGizmo::setShowRings(bool on) {
  rings_ = on;
  setVisible(visible_);
}

void IkGizmo::setPose(const Eigen::Matrix3d& R, const Eigen::Vector3d& p) {
  R_ = R;
  p_ = p;
  updateScale();
  applyTransforms();
}

void IkGizmo::applyTransforms() {
  const Eigen::Matrix3d M = R_ * scale_;
  for (auto& a : parts_) setMatrix(a, M, p_);
  const double cube = 0.18 * scale_;
  for (size_t i = 0; i < pinActors_.size(); ++i)
    setMatrix(pinActors_[i], Eigen::Matrix3d::Identity() * cube, pinOrigins_[i]);
}

void IkGizmo::setOutOfReach(bool on) {
  if (on == outOfReach_) return;
  outOfReach_ = on;
  applyColors();
}

void IkGizmo::setHighlight(Part part) {
  if (part == highlight_) return;
  highlight_ = part;
  applyColors();
}

void IkGizmo::applyColors() {
  for (int k = 0; k < PartCount; ++k) {
    const double* c = outOfReach_ ? kOutOfReach : k == Centre ? kCentreColor : kAxisColor[k % 3];
    vtkProperty* p = parts_[k]->GetProperty();
    p->SetColor(c[0], c[1], c[2]);
    p->SetAmbient(k == highlight_ ? 0.8 : 0.35);  // brighter while grabbed
  }
}

Eigen::Vector3d IkGizmo::color(Part part) const {
  double c[3];
  parts_[part]->GetProperty()->GetColor(c);
  return Eigen::Vector3d(c[0], c[1], c[2]);
}

void IkGizmo::setPins(const std::vector<Eigen::Vector3d>& origins) {
  while (pinActors_.size() < origins.size()) {
    vtkNew<vtkCubeSource> cube;  // unit cube, scaled in applyTransforms
    auto a = actorOf(cube);
    a->GetProperty()->SetColor(kPinColor[0], kPinColor[1], kPinColor[2]);
    a->PickableOff();
    overlay_->AddActor(a);
    pinActors_.push_back(a);
  }
  while (pinActors_.size() > origins.size()) {
    overlay_->RemoveActor(pinActors_.back());
    pinActors_.pop_back();
  }
  pinOrigins_ = origins;
  applyTransforms();
}

void IkGizmo::setEllipsoid(bool on, const Eigen::Vector3d& c, const Eigen::Matrix3d& axes,
                           const Eigen::Vector3d& radii) {
  ellipsoid_->SetVisibility(on && visible_);
  if (!on) return;
  // Unit sphere -> x = c + U diag(r) s: semi-axis r_k along column u_k.
  setMatrix(ellipsoid_, axes * radii.asDiagonal(), c);
}

bool IkGizmo::ellipsoidVisible() const { return ellipsoid_->GetVisibility() != 0; }

void IkGizmo::setText(const char* text) {
  text_->SetInput(text);
  text_->SetVisibility(text && *text);
}

std::string IkGizmo::text() const {
  const char* t = text_->GetInput();
  return t ? t : "";
}

IkGizmo::Part IkGizmo::pick(double x, double y) {
  if (!visible_) return None;
  syncCamera();
  if (!picker_->Pick(x, y, 0, overlay_)) return None;
  vtkActor* hit = picker_->GetActor();
  for (int k = 0; k < PartCount; ++k)
    if (parts_[k] == hit) return Part(k);
  return None;
}
