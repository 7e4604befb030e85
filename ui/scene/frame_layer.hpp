// Link frames: a red-green-blue triad at every model frame (links, links merged by fixed joints,
// tool frames), ScenePose::frameScale long.
#pragma once
#include "scene/posed_actor.hpp"

class FrameLayer : public SceneLayer {
 public:
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model&, SceneStage&) override { return true; }  // drawn from the tree alone
  void show(bool on) override { scene::showAll(frames_, on); }
  void collectProps(std::vector<vtkProp*>& out) const override { scene::collectAll(frames_, out); }
  void clear() override { frames_.clear(); }
  void rescale(double f) { scene::rescaleAll(frames_, f); }
  size_t size() const { return frames_.size(); }

 private:
  vtkSmartPointer<vtkPolyData> triad_;
  std::vector<scene::PosedActor> frames_;
};
