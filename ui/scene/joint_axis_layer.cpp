#include "scene/joint_axis_layer.hpp"

#include <vtkPolyData.h>
#include <vtkProperty.h>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

using namespace scene;

void JointAxisLayer::build(const dyn::Model& model, SceneStage& stage) {
  if (!arrow_) arrow_ = jointAxisPoly();
  for (int i = 1; i <= model.N; ++i) {
    const dyn::JointType t = model.joints[i].type;
    if (t != dyn::JointType::Revolute && t != dyn::JointType::Prismatic && t != dyn::JointType::Helical) continue;
    PosedActor p = addPosed(stage, arrow_, i, false);
    vtkProperty* prop = p.actor->GetProperty();
    if (t == dyn::JointType::Prismatic)
      prop->SetColor(0.85, 0.2, 0.85);
    else
      prop->SetColor(1.0, 0.72, 0.0);
    prop->SetAmbient(0.3);
    axes_.push_back(p);
  }
}

void JointAxisLayer::pose(const dyn::Model&, const dyn::Data& data, const ScenePose& pose) {
  double m[16];
  for (auto& a : axes_) {
    const Tf& X = data.X0[a.index];
    poseToMatrix(X.E.transpose(), X.r, 1.5 * pose.frameScale, m);
    a.matrix->DeepCopy(m);
  }
}
