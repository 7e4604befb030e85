#include "scene/scene_ground.hpp"

#include <vtkCaptionActor2D.h>
#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <vtkMatrix4x4.h>
#include <Eigen/Geometry>
#include <cmath>

#include "scene/scene_primitives.hpp"

SceneGround::SceneGround(vtkRenderer* renderer) : renderer_(renderer) {
  worldAxes_ = vtkSmartPointer<vtkAxesActor>::New();
  worldAxes_->SetTotalLength(0.25, 0.25, 0.25);
  worldAxes_->SetShaftTypeToCylinder();
  worldAxes_->SetCylinderRadius(0.02);
  worldAxes_->SetConeRadius(0.5);
  worldAxes_->PickableOff();
  for (vtkCaptionActor2D* cap : {worldAxes_->GetXAxisCaptionActor2D(), worldAxes_->GetYAxisCaptionActor2D(),
                                 worldAxes_->GetZAxisCaptionActor2D()}) {
    cap->GetTextActor()->SetTextScaleModeToNone();
    cap->GetCaptionTextProperty()->SetFontSize(14);
    cap->GetCaptionTextProperty()->SetColor(0.1, 0.1, 0.1);
    cap->GetCaptionTextProperty()->ShadowOff();
    cap->GetCaptionTextProperty()->ItalicOff();
  }
  renderer_->AddActor(worldAxes_);
  setGrid(2.0, 0.0);
}

SceneGround::~SceneGround() {
  if (grid_) renderer_->RemoveActor(grid_);
  renderer_->RemoveActor(worldAxes_);
}

void SceneGround::setGrid(double half, double z) {
  height_ = z;
  if (grid_ && half == half_) return place();
  if (grid_) renderer_->RemoveActor(grid_);
  half_ = half;
  const double step = half <= 2.5 ? 0.1 : (half <= 6 ? 0.25 : 1.0);
  const int n = int(std::lround(half / step));
  vtkNew<vtkPoints> pts;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colors;
  colors->SetName("Colors");
  colors->SetNumberOfComponents(3);
  const unsigned char minor[3] = {172, 177, 186}, major[3] = {110, 115, 125};
  for (int dir = 0; dir < 2; ++dir) {
    for (int k = -n; k <= n; ++k) {
      const double t = k * step;
      const double a[3] = {dir == 0 ? t : -half, dir == 0 ? -half : t, 0};
      const double b[3] = {dir == 0 ? t : half, dir == 0 ? half : t, 0};
      const vtkIdType ids[2] = {pts->InsertNextPoint(a), pts->InsertNextPoint(b)};
      lines->InsertNextCell(2, ids);
      const bool isMajor = std::abs(t - std::round(t)) < 1e-9;
      colors->InsertNextTypedTuple(isMajor ? major : minor);
      colors->InsertNextTypedTuple(isMajor ? major : minor);
    }
  }
  vtkNew<vtkPolyData> poly;
  poly->SetPoints(pts);
  poly->SetLines(lines);
  poly->GetPointData()->SetScalars(colors);
  grid_ = scene::makeActor(poly, true);
  grid_->GetProperty()->LightingOff();
  grid_->GetProperty()->SetLineWidth(1.0);
  grid_->PickableOff();
  grid_->SetVisibility(gridOn_);
  renderer_->AddActor(grid_);
  place();
}

void SceneGround::setHeight(double z) {
  height_ = z;
  place();
}

void SceneGround::setUp(const Eigen::Vector3d& up) {
  up_ = up.normalized();
  place();
}

// The grid drawn in the xy-plane, turned so that its normal is up_ and moved height_ along it.
void SceneGround::place() {
  if (!grid_) return;
  const Eigen::Matrix3d R = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), up_).toRotationMatrix();
  double m[16];
  scene::poseToMatrix(R, height_ * up_, 1.0, m);
  vtkNew<vtkMatrix4x4> matrix;
  matrix->DeepCopy(m);
  grid_->SetUserMatrix(matrix);
}

void SceneGround::setWorldAxesLength(double metres) { worldAxes_->SetTotalLength(metres, metres, metres); }

void SceneGround::showGrid(bool on) {
  gridOn_ = on;
  if (grid_) grid_->SetVisibility(on);
}

void SceneGround::showWorldAxes(bool on) { worldAxes_->SetVisibility(on); }
