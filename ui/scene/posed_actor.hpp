// A decoration fixed to a body or a model frame (a frame triad, a joint axis, a COM marker, an
// inertia solid): its actor, the actor's user matrix, and where it sits on that body.
#pragma once
#include <vtkActor.h>
#include <vtkMatrix4x4.h>
#include <vtkSmartPointer.h>

#include <vector>

#include "scene/scene_layer.hpp"
#include "scene/scene_primitives.hpp"

namespace scene {

struct PosedActor {
  vtkSmartPointer<vtkActor> actor;
  vtkSmartPointer<vtkMatrix4x4> matrix;
  int index = 0;  // body or frame
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();  // in body coordinates
  double scale = 1;
};

// A hidden, unpickable actor of `poly` with its own user matrix, added to the stage.
PosedActor addPosed(SceneStage& stage, vtkPolyData* poly, int index, bool pointColors);

inline void showAll(std::vector<PosedActor>& list, bool on) {
  for (auto& p : list) p.actor->SetVisibility(on);
}
inline void collectAll(const std::vector<PosedActor>& list, std::vector<vtkProp*>& out) {
  for (const auto& p : list) out.push_back(p.actor);
}
// Multiplies the rotation part of every matrix by f (a new arrow length without a new pose).
void rescaleAll(std::vector<PosedActor>& list, double f);

}  // namespace scene
