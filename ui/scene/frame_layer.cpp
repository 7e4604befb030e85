#include "scene/frame_layer.hpp"

#include <vtkPolyData.h>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

using namespace scene;

void FrameLayer::build(const dyn::Model& model, SceneStage& stage) {
  if (!triad_) triad_ = triadPoly();
  for (size_t k = 0; k < model.frames.size(); ++k) frames_.push_back(addPosed(stage, triad_, int(k), true));
}

void FrameLayer::pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) {
  double m[16];
  for (auto& f : frames_) {
    const dyn::Frame<double>& fr = model.frames[f.index];
    const Tf X = fr.placement * data.X0[fr.body];
    poseToMatrix(X.E.transpose(), X.r, pose.frameScale, m);
    f.matrix->DeepCopy(m);
  }
}
