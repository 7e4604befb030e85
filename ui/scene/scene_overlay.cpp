#include "scene/scene_overlay.hpp"

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>

SceneOverlay::SceneOverlay(vtkRenderer* scene) : scene_(scene) {
  overlay_->SetLayer(1);
  overlay_->InteractiveOff();  // the camera style keeps moving the scene's camera
  overlay_->SetPreserveDepthBuffer(false);
  window_ = scene_->GetRenderWindow();
  if (window_) {
    window_->SetNumberOfLayers(std::max(2, window_->GetNumberOfLayers()));
    window_->AddRenderer(overlay_);
  }
  start_->SetClientData(this);
  start_->SetCallback(&SceneOverlay::onStart);
  overlay_->AddObserver(vtkCommand::StartEvent, start_);
}

SceneOverlay::~SceneOverlay() {
  overlay_->RemoveObserver(start_);
  if (window_) window_->RemoveRenderer(overlay_);
}

vtkRenderer* SceneOverlay::renderer() const { return overlay_; }

void SceneOverlay::onStart(vtkObject*, unsigned long, void* self, void*) {
  auto* o = static_cast<SceneOverlay*>(self);
  o->overlay_->GetActiveCamera()->DeepCopy(o->scene_->GetActiveCamera());
  o->overlay_->ResetCameraClippingRange();
}
