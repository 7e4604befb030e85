// Closed kinematic loops (docs/loops.md): each loop-closure joint drawn apart from the tree, in
// magenta: a ring about its axis at the frame F1 on its predecessor, a ball at the frame F2 on its
// successor (they coincide when the loop is closed), dashed lines from both bodies' origins to those
// frames (the cut edges of the joint graph), a dashed axis line and, red, the gap F1-F2 when the loop
// is open. They are drawn over the robot (the stage's overlay): a piston or a parallelogram's bar
// would hide them.
#pragma once
#include <QList>
#include <array>

#include "scene/posed_actor.hpp"

class LoopLayer : public SceneLayer {
 public:
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model& model, SceneStage& stage) override;
  void show(bool on) override;
  void collectProps(std::vector<vtkProp*>&) const override {}  // all in the overlay
  void clear() override;

  int count() const { return int(loops_.size()); }
  std::array<double, 6> ends(int k) const;  // world origins of F1 and F2 as drawn
  QList<vtkActor*> actors() const;          // per loop joint: ring, ball; then the lines' actor
  vtkPolyData* lines() const { return lines_.Get(); }

 private:
  struct Mark {  // a loop-closure joint: F1 on body p, F2 on body s
    int p = 0, s = 0;
    scene::Tf Xp, Xs;  // F1_X_p, F2_X_s
    vtkSmartPointer<vtkActor> ring, ball;
    vtkSmartPointer<vtkMatrix4x4> ringMatrix, ballMatrix;
  };
  std::vector<Mark> loops_;
  vtkSmartPointer<vtkPolyData> lines_;  // kLoopSegments dashed segments per loop joint
  vtkSmartPointer<vtkActor> linesActor_;
  double size_ = 0.02;  // marker radius (m), from the robot's size
};
