#include "scene/link_name_layer.hpp"

#include <vtkCoordinate.h>
#include <vtkTextProperty.h>

#include "dynscope/model/data.hpp"
#include "dynscope/model/model.hpp"

using namespace scene;

void LinkNameLayer::build(const dyn::Model& model, SceneStage& stage) {
  for (int i = model.floatingBase ? 1 : 0; i <= model.N; ++i) {
    Label l;
    l.body = i;
    l.frame = model.frameIndex(model.bodyNames[i]);
    l.actor = vtkSmartPointer<vtkTextActor>::New();
    l.actor->SetInput(model.bodyNames[i].c_str());
    l.actor->GetPositionCoordinate()->SetCoordinateSystemToWorld();
    l.actor->PickableOff();
    l.actor->VisibilityOff();
    vtkTextProperty* tp = l.actor->GetTextProperty();
    tp->SetFontSize(13);
    tp->SetColor(0.08, 0.08, 0.1);
    tp->SetBackgroundColor(1.0, 1.0, 0.92);
    tp->SetBackgroundOpacity(0.8);
    tp->SetFrame(1);
    tp->SetFrameColor(0.5, 0.5, 0.5);
    tp->SetJustificationToLeft();
    tp->SetVerticalJustificationToBottom();
    stage.addProp(l.actor);
    labels_.push_back(l);
  }
}

void LinkNameLayer::pose(const dyn::Model& model, const dyn::Data& data, const ScenePose&) {
  for (auto& l : labels_) {
    const Vec3 p =
        l.frame >= 0 ? (model.frames[l.frame].placement * data.X0[model.frames[l.frame].body]).r : data.X0[l.body].r;
    l.actor->GetPositionCoordinate()->SetValue(p.x(), p.y(), p.z());
  }
}

void LinkNameLayer::show(bool on) {
  for (auto& l : labels_) l.actor->SetVisibility(on);
}

void LinkNameLayer::collectProps(std::vector<vtkProp*>& out) const {
  for (const auto& l : labels_) out.push_back(l.actor);
}
