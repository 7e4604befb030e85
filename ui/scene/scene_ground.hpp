// What stays when the robot changes: the ground grid (0.1, 0.25 or 1 m squares, whole metres darker)
// and the world axes at the origin, both sized to the robot when it is first posed.
#pragma once
#include <vtkActor.h>
#include <vtkAxesActor.h>
#include <vtkSmartPointer.h>

#include <Eigen/Core>

class vtkRenderer;

class SceneGround {
 public:
  explicit SceneGround(vtkRenderer* renderer);
  ~SceneGround();
  SceneGround(const SceneGround&) = delete;
  SceneGround& operator=(const SceneGround&) = delete;

  // The grid (half its side `half` metres; rebuilt only when that changes) across `up` (the
  // world's up, against gravity), at height z along it.
  void setGrid(double half, double z);
  void setHeight(double z);
  void setUp(const Eigen::Vector3d& up);
  void setWorldAxesLength(double metres);
  void showGrid(bool on);
  void showWorldAxes(bool on);
  vtkActor* grid() const { return grid_; }

 private:
  vtkRenderer* renderer_;
  vtkSmartPointer<vtkActor> grid_;
  vtkSmartPointer<vtkAxesActor> worldAxes_;
  void place();  // the grid's matrix from up_ and height_
  double half_ = 0, height_ = 0;
  Eigen::Vector3d up_ = Eigen::Vector3d::UnitZ();
  bool gridOn_ = true;
};
