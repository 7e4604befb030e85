#include "scene/camera_rig.hpp"

#include <vtkCamera.h>
#include <vtkLight.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkRenderer.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

using namespace scene;

CameraRig::CameraRig(vtkRenderer* renderer) : renderer_(renderer) {
  // One light that follows the camera, above and to the left of it (a single light: every
  // extra light costs a full lighting pass in software OpenGL). Anti-aliasing and depth peeling
  // are the viewport's choice per frame (VtkViewport: adaptive quality).
  renderer->RemoveAllLights();
  renderer->AutomaticLightCreationOff();
  vtkNew<vtkLight> light;
  light->SetLightTypeToCameraLight();
  light->SetPosition(-0.2, 0.35, 1.0);
  light->SetFocalPoint(0, 0, 0);
  light->SetIntensity(1.0);
  renderer->AddLight(light);
  renderer->SetMaximumNumberOfPeels(8);
  renderer->SetOcclusionRatio(0.02);
  renderer->GetActiveCamera()->SetViewUp(0, 0, 1);
  renderer->GetActiveCamera()->SetPosition(2.5, 2.0, 1.6);
  renderer->GetActiveCamera()->SetFocalPoint(0, 0, 0.3);
}

void CameraRig::fit(const std::vector<Vec3>& pts, double margin) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  if (pts.empty()) {
    renderer_->ResetCamera();
    return;
  }
  // Keep the viewing direction; centre the robot's projection and choose the distance so that it
  // fills about 85 % of the limiting image dimension.
  Vec3 dop, up;
  cam->GetDirectionOfProjection(dop.data());
  cam->GetViewUp(up.data());
  up = (up - up.dot(dop) * dop).normalized();
  const Vec3 right = dop.cross(up);
  Vec3 c = Vec3::Zero();
  for (const Vec3& p : pts) c += p;
  c /= double(pts.size());
  double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
  for (const Vec3& p : pts) {
    minX = std::min(minX, (p - c).dot(right));
    maxX = std::max(maxX, (p - c).dot(right));
    minY = std::min(minY, (p - c).dot(up));
    maxY = std::max(maxY, (p - c).dot(up));
  }
  c += 0.5 * (minX + maxX) * right + 0.5 * (minY + maxY) * up;
  const int* size = renderer_->GetSize();
  const double aspect = size && size[0] > 0 && size[1] > 0 ? double(size[0]) / size[1] : 1.0;
  const double tanV = std::tan(vtkMath::RadiansFromDegrees(cam->GetViewAngle() / 2)), tanH = aspect * tanV;
  double dist = 0, halfX = 0, halfY = 0, radius = 0;
  for (const Vec3& p : pts) {
    const Vec3 v = p - c;
    const double x = std::abs(v.dot(right)), y = std::abs(v.dot(up)), z = -v.dot(dop);  // z: towards the camera
    dist = std::max({dist, z + x / (tanH * margin), z + y / (tanV * margin)});
    halfX = std::max(halfX, x);
    halfY = std::max(halfY, y);
    radius = std::max(radius, v.norm());
  }
  if (cam->GetParallelProjection()) {
    cam->SetParallelScale(std::max({halfY, halfX / aspect, 1e-3}) / margin);
    dist = std::max(dist, 3 * radius);
  }
  dist = std::max(dist, 1e-3);
  cam->SetFocalPoint(c.data());
  cam->SetPosition((c - dist * dop).eval().data());
  cam->SetViewUp(up.data());
  renderer_->ResetCameraClippingRange();
  fitPoints_ = pts;
  fitMargin_ = margin;
  fitAspect_ = aspect;
  fitCamera_ = cameraState();
}

bool CameraRig::sees(const std::vector<Vec3>& points) const {
  const int* size = renderer_->GetSize();
  if (!size || size[0] <= 0 || size[1] <= 0) return true;
  // One world-to-normalised-view matrix for all points (WorldToDisplay builds it again per point:
  // this runs on every pose of an untouched view).
  vtkMatrix4x4* M =
      renderer_->GetActiveCamera()->GetCompositeProjectionTransformMatrix(renderer_->GetTiledAspectRatio(), -1, 1);
  const double slackX = 1 + 2.0 / size[0], slackY = 1 + 2.0 / size[1];  // a pixel beyond the edge
  for (const Vec3& p : points) {
    const double world[4] = {p.x(), p.y(), p.z(), 1.0};
    double view[4];
    M->MultiplyPoint(world, view);
    if (view[3] <= 0 || std::abs(view[0]) > slackX * view[3] || std::abs(view[1]) > slackY * view[3]) return false;
  }
  return true;
}

std::array<double, 11> CameraRig::cameraState() const {
  vtkCamera* cam = renderer_->GetActiveCamera();
  std::array<double, 11> s{};
  cam->GetPosition(s.data());
  cam->GetFocalPoint(s.data() + 3);
  cam->GetViewUp(s.data() + 6);
  s[9] = cam->GetViewAngle();
  s[10] = cam->GetParallelScale();
  return s;
}

bool CameraRig::refit() {
  const int* size = renderer_->GetSize();
  if (fitPoints_.empty() || !size || size[0] <= 0 || size[1] <= 0) return false;
  const double aspect = double(size[0]) / size[1];
  if (std::abs(aspect - fitAspect_) < 1e-3 * fitAspect_ || cameraState() != fitCamera_) return false;
  const std::vector<scene::Vec3> pts = fitPoints_;
  fit(pts, fitMargin_);
  return true;
}

void CameraRig::turnTo(View view) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  double dir[3] = {1.0, -1.0, 0.75}, up[3] = {0, 0, 1};
  switch (view) {
    case View::Front:  // from +x, looking back at the robot
      dir[1] = dir[2] = 0;
      break;
    case View::Side:  // from -y: x to the right
      dir[0] = dir[2] = 0;
      break;
    case View::Top:  // x right, y up
      dir[0] = dir[1] = 0;
      dir[2] = 1;
      up[1] = 1;
      up[2] = 0;
      break;
    case View::Iso:
      break;
  }
  // The views are drawn for +z up; a model whose gravity points elsewhere turns them with it.
  const Eigen::Matrix3d R = Eigen::Quaterniond::FromTwoVectors(Vec3::UnitZ(), up_).toRotationMatrix();
  const Vec3 d = R * Vec3(dir[0], dir[1], dir[2]), u = R * Vec3(up[0], up[1], up[2]);
  double fp[3];
  cam->GetFocalPoint(fp);
  cam->SetPosition(fp[0] + d[0], fp[1] + d[1], fp[2] + d[2]);
  cam->SetViewUp(u.data());
}

void CameraRig::setParallelProjection(bool on) {
  vtkCamera* cam = renderer_->GetActiveCamera();
  if (on && !cam->GetParallelProjection())  // keep the apparent size at the focal point
    cam->SetParallelScale(cam->GetDistance() * std::tan(vtkMath::RadiansFromDegrees(cam->GetViewAngle() / 2)));
  cam->SetParallelProjection(on);
  renderer_->ResetCameraClippingRange();
}
