// What a project stores of the view: scene toggles, frame size, link opacity, the camera, the
// plot tab and the trajectory time. JSON in the project's opaque "view" object; unknown or
// missing keys fall back to the window's current settings.
#pragma once
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <array>
#include <optional>

class RobotScene;
class vtkRenderer;

struct ViewState {
  QMap<QString, bool> toggles;         // "visual", "frames", ... (MainWindow's scene toggles)
  double frameScale = 0, opacity = 0;  // 0: not given
  struct Camera {
    bool valid = false, parallel = false;
    std::array<double, 3> position{}, focalPoint{}, viewUp{};
    double viewAngle = 30, parallelScale = 1;
  } camera;
  int plotTab = -1;
  std::optional<double> time;
};

ViewState captureViewState(const RobotScene* scene, vtkRenderer* renderer);
void restoreCamera(const ViewState& view, vtkRenderer* renderer);
QJsonObject toJson(const ViewState& view);
ViewState fromJson(const QJsonObject& json);
