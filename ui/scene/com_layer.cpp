#include "scene/com_layer.hpp"

#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>

#include <algorithm>

#include "dynscope/algorithms/energy.hpp"
#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"
#include "scene/inertia_geometry.hpp"

using namespace scene;

void ComLayer::build(const dyn::Model& model, SceneStage& stage) {
  if (!marker_) marker_ = comMarkerPoly({0.95, 0.95, 0.95}, {0.05, 0.05, 0.05});
  if (!robotMarker_) robotMarker_ = comMarkerPoly({1.0, 0.85, 0.1}, {0.75, 0.05, 0.05});
  double maxComRadius = 0;
  for (int i = 0; i <= model.N; ++i) {
    const auto& I = model.I[i];
    if (!(I.m > 1e-9)) continue;
    PosedActor c = addPosed(stage, marker_, i, true);
    c.p = I.com();
    c.scale = comRadius(I.m);
    maxComRadius = std::max(maxComRadius, c.scale);
    coms_.push_back(c);
  }
  if (!(model.totalMass() > 0)) return;
  robotComMatrix_ = vtkSmartPointer<vtkMatrix4x4>::New();
  robotCom_ = makeActor(robotMarker_, true);
  robotCom_->SetUserMatrix(robotComMatrix_);
  robotCom_->PickableOff();
  robotCom_->SetScale(std::clamp(1.3 * maxComRadius, 0.02, 0.06));
  stage.addProp(robotCom_);
  // Vertical line from the robot's COM down to the ground (its projection).
  vtkNew<vtkPolyData> line;
  vtkNew<vtkPoints> pts;
  pts->InsertNextPoint(0, 0, 0);
  pts->InsertNextPoint(0, 0, -1);
  vtkNew<vtkCellArray> cells;
  const vtkIdType ids[2] = {0, 1};
  cells->InsertNextCell(2, ids);
  line->SetPoints(pts);
  line->SetLines(cells);
  robotComLineMatrix_ = vtkSmartPointer<vtkMatrix4x4>::New();
  robotComLine_ = makeActor(line);
  robotComLine_->SetUserMatrix(robotComLineMatrix_);
  robotComLine_->PickableOff();
  robotComLine_->GetProperty()->SetColor(0.75, 0.05, 0.05);
  robotComLine_->GetProperty()->SetLineWidth(2.0);
  robotComLine_->GetProperty()->LightingOff();
  stage.addProp(robotComLine_);
}

bool ComLayer::refresh(const dyn::Model& model, SceneStage&) {
  size_t k = 0;
  double maxComRadius = 0;
  for (int i = 0; i <= model.N; ++i) {
    const auto& I = model.I[i];
    if (!(I.m > 1e-9)) continue;
    if (k == coms_.size() || coms_[k].index != i) return false;  // a body gained or lost its mass
    coms_[k].p = I.com();
    coms_[k].scale = comRadius(I.m);
    maxComRadius = std::max(maxComRadius, coms_[k++].scale);
  }
  if (k != coms_.size() || bool(robotCom_) != (model.totalMass() > 0)) return false;
  if (robotCom_) robotCom_->SetScale(std::clamp(1.3 * maxComRadius, 0.02, 0.06));
  return true;
}

void ComLayer::pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) {
  double m[16];
  for (auto& c : coms_) {
    const Tf& X = data.X0[c.index];
    poseToMatrix(X.E.transpose(), X.pointToA(c.p), c.scale, m);
    c.matrix->DeepCopy(m);
  }
  if (!robotCom_) return;
  const Vec3 c = dyn::centerOfMass(model, data);
  poseToMatrix(Mat3::Identity(), c, 1.0, m);
  robotComMatrix_->DeepCopy(m);
  // The unit line (0,0,0)-(0,0,-1) turned to -up and stretched down to the ground.
  const double drop = std::max(pose.up.dot(c) - pose.groundZ, 1e-6);
  for (int r = 0; r < 3; ++r) m[4 * r + 2] = pose.up[r] * drop;
  robotComLineMatrix_->DeepCopy(m);
}

void ComLayer::show(bool on) {
  showAll(coms_, on);
  if (robotCom_) robotCom_->SetVisibility(on);
  if (robotComLine_) robotComLine_->SetVisibility(on);
}

void ComLayer::collectProps(std::vector<vtkProp*>& out) const {
  collectAll(coms_, out);
  if (robotCom_) out.push_back(robotCom_);
  if (robotComLine_) out.push_back(robotComLine_);
}

void ComLayer::clear() {
  coms_.clear();
  robotCom_ = robotComLine_ = nullptr;
}
