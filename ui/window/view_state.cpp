#include "window/view_state.hpp"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <QJsonArray>
#include <cmath>

#include "scene/robot_scene.hpp"

namespace {

QJsonArray vec(const std::array<double, 3>& v) { return QJsonArray{v[0], v[1], v[2]}; }

bool readVec(const QJsonValue& value, std::array<double, 3>& out) {
  const QJsonArray a = value.toArray();
  if (a.size() != 3) return false;
  for (int i = 0; i < 3; ++i) {
    if (!a[i].isDouble() || !std::isfinite(a[i].toDouble())) return false;
    out[i] = a[i].toDouble();
  }
  return true;
}

}  // namespace

ViewState captureViewState(const RobotScene* scene, vtkRenderer* renderer) {
  ViewState v;
  v.toggles = {{"visual", scene->showVisual()},
               {"collision", scene->showCollision()},
               {"frames", scene->showFrames()},
               {"jointAxes", scene->showJointAxes()},
               {"com", scene->showCom()},
               {"inertia", scene->showInertiaBoxes()},
               {"names", scene->showLinkNames()},
               {"grid", scene->showGrid()},
               {"worldAxes", scene->showWorldAxes()}};
  v.frameScale = scene->frameScale();
  v.opacity = scene->opacity();
  vtkCamera* c = renderer->GetActiveCamera();
  v.camera.valid = true;
  v.camera.parallel = c->GetParallelProjection();
  c->GetPosition(v.camera.position.data());
  c->GetFocalPoint(v.camera.focalPoint.data());
  c->GetViewUp(v.camera.viewUp.data());
  v.camera.viewAngle = c->GetViewAngle();
  v.camera.parallelScale = c->GetParallelScale();
  return v;
}

void restoreCamera(const ViewState& v, vtkRenderer* renderer) {
  if (!v.camera.valid) return;
  vtkCamera* c = renderer->GetActiveCamera();
  c->SetPosition(v.camera.position.data());
  c->SetFocalPoint(v.camera.focalPoint.data());
  c->SetViewUp(v.camera.viewUp.data());
  c->SetViewAngle(v.camera.viewAngle);
  c->SetParallelScale(v.camera.parallelScale);
  c->SetParallelProjection(v.camera.parallel);
  renderer->ResetCameraClippingRange();
}

QJsonObject toJson(const ViewState& v) {
  QJsonObject toggles;
  for (auto it = v.toggles.begin(); it != v.toggles.end(); ++it) toggles[it.key()] = it.value();
  QJsonObject json{{"show", toggles}, {"frame_scale", v.frameScale}, {"opacity", v.opacity}};
  if (v.camera.valid)
    json["camera"] = QJsonObject{{"position", vec(v.camera.position)}, {"focal_point", vec(v.camera.focalPoint)},
                                 {"view_up", vec(v.camera.viewUp)},    {"view_angle", v.camera.viewAngle},
                                 {"parallel", v.camera.parallel},      {"parallel_scale", v.camera.parallelScale}};
  if (v.plotTab >= 0) json["plot_tab"] = v.plotTab;
  if (v.time) json["time"] = *v.time;
  return json;
}

ViewState fromJson(const QJsonObject& json) {
  ViewState v;
  const QJsonObject toggles = json["show"].toObject();
  for (auto it = toggles.begin(); it != toggles.end(); ++it)
    if (it.value().isBool()) v.toggles[it.key()] = it.value().toBool();
  const double scale = json["frame_scale"].toDouble(0), opacity = json["opacity"].toDouble(0);
  if (scale > 0 && std::isfinite(scale)) v.frameScale = scale;
  if (opacity > 0 && opacity <= 1) v.opacity = opacity;
  const QJsonObject c = json["camera"].toObject();
  ViewState::Camera cam;
  if (readVec(c["position"], cam.position) && readVec(c["focal_point"], cam.focalPoint) &&
      readVec(c["view_up"], cam.viewUp)) {
    cam.valid = true;
    cam.parallel = c["parallel"].toBool(false);
    const double angle = c["view_angle"].toDouble(30), ps = c["parallel_scale"].toDouble(1);
    cam.viewAngle = angle > 1 && angle < 179 ? angle : 30;
    cam.parallelScale = ps > 0 && std::isfinite(ps) ? ps : 1;
    v.camera = cam;
  }
  v.plotTab = json["plot_tab"].toInt(-1);
  if (json["time"].isDouble() && std::isfinite(json["time"].toDouble())) v.time = json["time"].toDouble();
  return v;
}
