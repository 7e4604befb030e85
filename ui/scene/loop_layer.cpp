#include "scene/loop_layer.hpp"

#include <vtkCellArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

using namespace scene;

namespace {

// Loop-closure joints: per joint, four dashed segments (predecessor origin to F1, successor origin
// to F2, the joint axis through F1, the gap F1-F2) of kDashes dashes each.
constexpr int kLoopSegments = 4, kDashes = 9;
constexpr std::array<double, 3> kLoopColor{0.85, 0.1, 0.75}, kGapColor{0.95, 0.1, 0.1};

// Dashes of the segment a-b into points [first, first + 2 kDashes): dash j covers [j, j + 0.55] / kDashes.
void setDashes(vtkPoints* pts, vtkIdType first, const Vec3& a, const Vec3& b) {
  for (int j = 0; j < kDashes; ++j) {
    const Vec3 p0 = a + (b - a) * (j / double(kDashes)), p1 = a + (b - a) * ((j + 0.55) / kDashes);
    pts->SetPoint(first + 2 * j, p0.x(), p0.y(), p0.z());
    pts->SetPoint(first + 2 * j + 1, p1.x(), p1.y(), p1.z());
  }
}

}  // namespace

// Loop joints' pins and bars are sized from the mechanism: built again (a model with loops is small).
bool LoopLayer::refresh(const dyn::Model& model, SceneStage&) { return loops_.empty() && model.loops.empty(); }

void LoopLayer::build(const dyn::Model& model, SceneStage& stage) {
  if (model.loops.empty()) return;
  double reach = 0.05;  // marker size from the robot's size: its largest joint offset
  for (int i = 1; i <= model.N; ++i) reach = std::max(reach, model.Xtree[i].r.norm());
  size_ = std::clamp(0.035 * reach, 0.006, 0.03);
  auto ring = cylinderPoly(1.0, 0.7), ball = spherePoly(0.6, 24, 16);
  for (const auto& J : model.loops) {
    Mark l;
    l.p = J.predecessor;
    l.s = J.successor;
    l.Xp = J.Xp;
    l.Xs = J.Xs;
    for (auto* which : {&l.ring, &l.ball}) {
      *which = makeActor(which == &l.ring ? ring.Get() : ball.Get());
      auto matrix = vtkSmartPointer<vtkMatrix4x4>::New();
      (*which)->SetUserMatrix(matrix);
      (which == &l.ring ? l.ringMatrix : l.ballMatrix) = matrix;
      (*which)->PickableOff();
      (*which)->VisibilityOff();
      vtkProperty* prop = (*which)->GetProperty();
      prop->SetColor(kLoopColor[0], kLoopColor[1], kLoopColor[2]);
      prop->SetAmbient(0.35);
      prop->SetOpacity(which == &l.ring ? 0.55 : 0.9);
      stage.addOverlayProp(*which);
    }
    loops_.push_back(l);
  }
  const vtkIdType n = vtkIdType(model.loops.size()) * kLoopSegments * kDashes * 2;
  vtkNew<vtkPoints> pts;
  pts->SetDataTypeToDouble();  // the drawn points are the engine's, to the digit (tests read them back)
  pts->SetNumberOfPoints(n);
  for (vtkIdType k = 0; k < n; ++k) pts->SetPoint(k, 0, 0, 0);
  vtkNew<vtkCellArray> cells;
  for (vtkIdType k = 0; k < n; k += 2) {
    const vtkIdType ids[2] = {k, k + 1};
    cells->InsertNextCell(2, ids);
  }
  lines_ = vtkSmartPointer<vtkPolyData>::New();
  lines_->SetPoints(pts);
  lines_->SetLines(cells);
  setPointColor(lines_, kLoopColor);
  auto* colors = lines_->GetPointData()->GetScalars();
  const unsigned char red[3] = {static_cast<unsigned char>(kGapColor[0] * 255),
                                static_cast<unsigned char>(kGapColor[1] * 255),
                                static_cast<unsigned char>(kGapColor[2] * 255)};
  for (size_t k = 0; k < model.loops.size(); ++k)  // the gap segment (the last of each joint) in red
    for (int j = 0; j < 2 * kDashes; ++j)
      static_cast<vtkUnsignedCharArray*>(colors)->SetTypedTuple(
          vtkIdType(k) * kLoopSegments * kDashes * 2 + (kLoopSegments - 1) * kDashes * 2 + j, red);
  linesActor_ = makeActor(lines_, true);
  linesActor_->PickableOff();
  linesActor_->VisibilityOff();
  vtkProperty* prop = linesActor_->GetProperty();
  prop->SetLineWidth(3.0);
  prop->LightingOff();
  stage.addOverlayProp(linesActor_);
}

void LoopLayer::pose(const dyn::Model& model, const dyn::Data& data, const ScenePose&) {
  if (loops_.empty() || loops_.size() != model.loops.size()) return;
  double m[16];
  vtkPoints* pts = lines_->GetPoints();
  vtkIdType first = 0;
  for (auto& l : loops_) {
    const Tf X1 = l.Xp * data.X0[l.p], X2 = l.Xs * data.X0[l.s];  // F1_X_0, F2_X_0
    poseToMatrix(X1.E.transpose(), X1.r, size_, m);
    l.ringMatrix->DeepCopy(m);
    poseToMatrix(X2.E.transpose(), X2.r, size_, m);
    l.ballMatrix->DeepCopy(m);
    const Vec3 axis = X1.E.row(2).transpose() * (3.0 * size_);  // F1's z in world coordinates
    setDashes(pts, first, data.X0[l.p].r, X1.r);
    setDashes(pts, first + 2 * kDashes, data.X0[l.s].r, X2.r);
    setDashes(pts, first + 4 * kDashes, X1.r - axis, X1.r + axis);
    setDashes(pts, first + 6 * kDashes, X1.r, X2.r);
    first += kLoopSegments * kDashes * 2;
  }
  pts->Modified();
  lines_->Modified();
}

void LoopLayer::show(bool on) {
  for (auto& l : loops_) {
    l.ring->SetVisibility(on);
    l.ball->SetVisibility(on);
  }
  if (linesActor_) linesActor_->SetVisibility(on);
}

void LoopLayer::clear() {
  loops_.clear();
  lines_ = nullptr;
  linesActor_ = nullptr;
}

std::array<double, 6> LoopLayer::ends(int k) const {
  std::array<double, 6> out{};
  if (k < 0 || k >= int(loops_.size())) return out;
  for (int e = 0; e < 2; ++e) {
    vtkMatrix4x4* m = e == 0 ? loops_[size_t(k)].ringMatrix : loops_[size_t(k)].ballMatrix;
    for (int r = 0; r < 3; ++r) out[size_t(3 * e + r)] = m->GetElement(r, 3);
  }
  return out;
}

QList<vtkActor*> LoopLayer::actors() const {
  QList<vtkActor*> out;
  for (const auto& l : loops_) out << l.ring.Get() << l.ball.Get();
  if (linesActor_) out << linesActor_.Get();
  return out;
}
