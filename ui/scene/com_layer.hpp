// Centres of mass: per body the classic black-and-white marker (radius ~ cube root of the mass),
// and for the whole robot a larger gold-and-red one with its plumb line down to the ground.
#pragma once
#include "scene/posed_actor.hpp"

class ComLayer : public SceneLayer {
 public:
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model& model, SceneStage& stage) override;
  void show(bool on) override;
  void collectProps(std::vector<vtkProp*>& out) const override;
  void clear() override;

 private:
  vtkSmartPointer<vtkPolyData> marker_, robotMarker_;
  std::vector<scene::PosedActor> coms_;
  vtkSmartPointer<vtkActor> robotCom_, robotComLine_;
  vtkSmartPointer<vtkMatrix4x4> robotComMatrix_, robotComLineMatrix_;
};
