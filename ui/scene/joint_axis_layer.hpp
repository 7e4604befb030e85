// Joint axes: a thick arrow along z of the body frame (the canonical joint frame) of every
// revolute, prismatic or helical joint, 1.5 x ScenePose::frameScale long; prismatic ones magenta,
// the others amber.
#pragma once
#include "scene/posed_actor.hpp"

class JointAxisLayer : public SceneLayer {
 public:
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model&, SceneStage&) override { return true; }  // drawn from the tree alone
  void show(bool on) override { scene::showAll(axes_, on); }
  void collectProps(std::vector<vtkProp*>& out) const override { scene::collectAll(axes_, out); }
  void clear() override { axes_.clear(); }
  void rescale(double f) { scene::rescaleAll(axes_, f); }

 private:
  vtkSmartPointer<vtkPolyData> arrow_;
  std::vector<scene::PosedActor> axes_;
};
