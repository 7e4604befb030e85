#include "scene/scene_layer.hpp"

#include <vtkPolyData.h>
#include <vtkProp.h>
#include <vtkPropCollection.h>
#include <vtkRenderer.h>

#include <unordered_set>

void SceneStage::addProp(vtkProp* prop) {
  renderer_->GetViewProps()->AddItem(prop);
  prop->AddConsumer(renderer_);
}

void SceneStage::addOverlayProp(vtkProp* prop) {
  if (!overlay_) overlay_ = std::make_unique<SceneOverlay>(renderer_);
  overlay_->renderer()->AddViewProp(prop);
}

void SceneStage::removeAll(const std::vector<vtkProp*>& props) {
  if (overlay_) overlay_->renderer()->RemoveAllViewProps();
  shapes_.clear();
  if (props.empty()) return;
  const std::unordered_set<vtkProp*> ours(props.begin(), props.end());
  std::vector<vtkSmartPointer<vtkProp>> keep;
  vtkPropCollection* all = renderer_->GetViewProps();
  all->InitTraversal();
  for (vtkProp* p = all->GetNextProp(); p; p = all->GetNextProp())
    if (!ours.count(p)) keep.emplace_back(p);
  renderer_->RemoveAllViewProps();
  for (auto& p : keep) addProp(p);
}
