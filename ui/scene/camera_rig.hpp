// The scene's camera and light: one light that follows the camera; views from the front, the side,
// above or the iso direction; perspective or parallel projection; and fitting a set of world points
// (the corners of the robot's geometry boxes) into the view, keeping the viewing direction.
#pragma once
#include <array>
#include <vector>

#include "scene/scene_primitives.hpp"

class vtkRenderer;

class CameraRig {
 public:
  enum class View { Front, Side, Top, Iso };

  explicit CameraRig(vtkRenderer* renderer);  // the light and a first camera
  // Keeps the viewing direction; centres the points' projection and chooses the distance (or the
  // parallel scale) so that they fill about `margin` of the limiting image dimension. Without
  // points: VTK's ResetCamera.
  void fit(const std::vector<scene::Vec3>& points, double margin = 0.85);
  // The view changed shape (presentation mode, another workspace, a dock resized): when the camera
  // is still where the last fit() left it (not turned, zoomed or panned since), fit the same points
  // again, so that a narrower view still shows the whole robot. True when it did.
  bool refit();
  // Whether the camera is still where the last fit() left it (a later automatic framing may move it).
  bool untouchedSinceFit() const { return !fitPoints_.empty() && cameraState() == fitCamera_; }
  const std::vector<scene::Vec3>& fitPoints() const { return fitPoints_; }
  // Whether every point projects inside the view (no allocation).
  bool sees(const std::vector<scene::Vec3>& points) const;
  // Turns the camera to look from `view`'s direction at the focal point (then fit() frames).
  void turnTo(View view);
  // The world's up (against gravity): the views turn with it, the camera keeps it up.
  void setUp(const scene::Vec3& up) { up_ = up.normalized(); }
  void setParallelProjection(bool on);

 private:
  std::array<double, 11> cameraState() const;  // position, focal point, view up, angle, parallel scale

  vtkRenderer* renderer_;
  std::vector<scene::Vec3> fitPoints_;  // of the last fit()
  scene::Vec3 up_ = scene::Vec3::UnitZ();
  double fitMargin_ = 0.85, fitAspect_ = 0;
  std::array<double, 11> fitCamera_{};  // the camera fit() left
};
