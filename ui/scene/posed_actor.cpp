#include "scene/posed_actor.hpp"

namespace scene {

PosedActor addPosed(SceneStage& stage, vtkPolyData* poly, int index, bool pointColors) {
  PosedActor p;
  p.actor = makeActor(poly, pointColors);
  p.matrix = vtkSmartPointer<vtkMatrix4x4>::New();
  p.actor->SetUserMatrix(p.matrix);
  p.actor->PickableOff();
  p.actor->VisibilityOff();
  p.index = index;
  stage.addProp(p.actor);
  return p;
}

void rescaleAll(std::vector<PosedActor>& list, double f) {
  for (auto& p : list)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) p.matrix->SetElement(r, c, p.matrix->GetElement(r, c) * f);
}

}  // namespace scene
