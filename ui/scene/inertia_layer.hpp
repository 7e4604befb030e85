// Inertias: per body with mass, the equivalent uniform box (translucent red, edged) and ellipsoid
// (translucent blue) about its centre of mass on the principal axes (scene/inertia_geometry.hpp);
// one of the two shapes is shown.
#pragma once
#include <QList>

#include "scene/posed_actor.hpp"

class InertiaLayer : public SceneLayer {
 public:
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model& model, SceneStage& stage) override;
  void show(bool on) override;
  void collectProps(std::vector<vtkProp*>& out) const override;
  void clear() override;

  void setEllipsoids(bool on);      // else boxes
  QList<vtkActor*> actors() const;  // of the current shape, in body order

 private:
  std::vector<scene::PosedActor> boxes_, ellipsoids_;
  bool on_ = false, ellipsoidsOn_ = false;
};
