// What stays when the robot changes: the ground grid (0.1, 0.25 or 1 m squares, whole metres darker)
// and the world axes at the origin, both sized to the robot when it is first posed.
#pragma once
#include <vtkActor.h>
#include <vtkAxesActor.h>
#include <vtkSmartPointer.h>

class vtkRenderer;

class SceneGround {
 public:
  explicit SceneGround(vtkRenderer* renderer);
  ~SceneGround();
  SceneGround(const SceneGround&) = delete;
  SceneGround& operator=(const SceneGround&) = delete;

  // The grid (half its side `half` metres; rebuilt only when that changes) at height z.
  void setGrid(double half, double z);
  void setHeight(double z);
  void setWorldAxesLength(double metres);
  void showGrid(bool on);
  void showWorldAxes(bool on);

 private:
  vtkRenderer* renderer_;
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkAxesActor> worldAxes_;
  double half_ = 0;
  bool gridOn_ = true;
};
