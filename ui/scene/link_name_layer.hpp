// Link names: 2D text anchored at each body's link frame, on a pale backing with a frame: always
// readable, never hidden by links.
#pragma once
#include <vtkTextActor.h>

#include "scene/posed_actor.hpp"

class LinkNameLayer : public SceneLayer {
 public:
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model&, SceneStage&) override { return true; }  // drawn from the tree alone
  void show(bool on) override;
  void collectProps(std::vector<vtkProp*>& out) const override;
  void clear() override { labels_.clear(); }

 private:
  struct Label {
    vtkSmartPointer<vtkTextActor> actor;
    int body = 0;
    int frame = -1;
  };
  std::vector<Label> labels_;
};
