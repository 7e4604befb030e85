#include "scene/inertia_layer.hpp"

#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkTransform.h>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"
#include "scene/inertia_geometry.hpp"

using namespace scene;

namespace {

// The body's equivalent solid of one kind (a box or an ellipsoid) from the stage's shapes; null when
// the inertia has none (massless, or not a physical one).
vtkPolyData* solidOf(const dyn::Inertia<double>& I, bool ellipsoid, SceneStage& stage, Vec3& center, Mat3& R) {
  Vec3 dims;
  if (!(I.m > 1e-9) || !equivalentSolid(I, ellipsoid ? kEllipsoidFactor : kBoxFactor, center, R, dims)) return nullptr;
  if (!ellipsoid)
    return stage.shape(0, dims.x(), dims.y(), dims.z(), [&] { return boxPoly(dims.x(), dims.y(), dims.z()); });
  return stage.shape(3, dims.x(), dims.y(), dims.z(), [&] {
    vtkNew<vtkTransform> t;  // unit sphere stretched to the semi-axes
    t->Scale(dims.x() / 2, dims.y() / 2, dims.z() / 2);
    return transformed(spherePoly(1.0, 32, 19), t);
  });
}

}  // namespace

void InertiaLayer::build(const dyn::Model& model, SceneStage& stage) {
  for (int i = 0; i <= model.N; ++i) {
    Vec3 center;
    Mat3 R;
    if (vtkPolyData* box = solidOf(model.I[i], false, stage, center, R)) {
      PosedActor b = addPosed(stage, box, i, false);
      b.R = R;
      b.p = center;
      vtkProperty* prop = b.actor->GetProperty();
      prop->SetColor(0.85, 0.35, 0.25);
      prop->SetOpacity(0.35);
      prop->EdgeVisibilityOn();
      prop->SetEdgeColor(0.6, 0.15, 0.1);
      prop->SetLineWidth(1.5);
      boxes_.push_back(b);
    }
    if (vtkPolyData* ellipsoid = solidOf(model.I[i], true, stage, center, R)) {
      PosedActor e = addPosed(stage, ellipsoid, i, false);
      e.R = R;
      e.p = center;
      vtkProperty* prop = e.actor->GetProperty();
      prop->SetColor(0.25, 0.45, 0.85);
      prop->SetOpacity(0.4);
      ellipsoids_.push_back(e);
    }
  }
}

bool InertiaLayer::refresh(const dyn::Model& model, SceneStage& stage) {
  for (const bool ellipsoid : {false, true}) {
    std::vector<PosedActor>& list = ellipsoid ? ellipsoids_ : boxes_;
    size_t k = 0;
    for (int i = 0; i <= model.N; ++i) {
      Vec3 center;
      Mat3 R;
      vtkPolyData* solid = solidOf(model.I[i], ellipsoid, stage, center, R);
      if (!solid) continue;
      if (k == list.size() || list[k].index != i) return false;  // a body gained or lost its solid
      vtkPolyDataMapper::SafeDownCast(list[k].actor->GetMapper())->SetInputData(solid);
      list[k].R = R;
      list[k++].p = center;
    }
    if (k != list.size()) return false;
  }
  return true;
}

void InertiaLayer::pose(const dyn::Model&, const dyn::Data& data, const ScenePose&) {
  double m[16];
  for (auto* list : {&boxes_, &ellipsoids_})
    for (auto& b : *list) {
      const Tf& X = data.X0[b.index];
      poseToMatrix(X.E.transpose() * b.R, X.pointToA(b.p), 1.0, m);
      b.matrix->DeepCopy(m);
    }
}

void InertiaLayer::show(bool on) {
  on_ = on;
  showAll(boxes_, on && !ellipsoidsOn_);
  showAll(ellipsoids_, on && ellipsoidsOn_);
}

void InertiaLayer::setEllipsoids(bool on) {
  ellipsoidsOn_ = on;
  show(on_);
}

QList<vtkActor*> InertiaLayer::actors() const {
  QList<vtkActor*> out;
  for (const auto& p : ellipsoidsOn_ ? ellipsoids_ : boxes_) out << p.actor.Get();
  return out;
}

void InertiaLayer::collectProps(std::vector<vtkProp*>& out) const {
  collectAll(boxes_, out);
  collectAll(ellipsoids_, out);
}

void InertiaLayer::clear() {
  boxes_.clear();
  ellipsoids_.clear();
}
