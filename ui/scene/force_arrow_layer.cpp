#include "scene/force_arrow_layer.hpp"

#include <vtkActor.h>
#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkConeSource.h>
#include <vtkCoordinate.h>
#include <vtkMath.h>
#include <vtkMatrix4x4.h>
#include <vtkNew.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkTextProperty.h>

#include <QFile>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "dynscope/model/model.hpp"
#include "scene/arrow_glyph.hpp"
#include "scene/scene_colours.hpp"

namespace {

constexpr double kShaftPerSize = 0.006;  // the drawn shaft radius, a fraction of the robot's size
const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // the middle dot of "N·m"

std::string magnitude(const ForceArrow& a) {
  const double v = a.vector.norm();
  char buf[48];
  const bool fancy = QFile::exists(kFontFile);
  const char* unit = a.kind == ForceArrow::Kind::Torque ? (fancy ? "N·m" : "N m") : "N";
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, unit);
  return buf;
}

}  // namespace

Eigen::Vector3d ForceArrowLayer::colour(ForceArrow::Kind kind) {
  // Apart from the lecture arrows (red forces, orange moments, blues, greens, purple bias), the
  // loops' magenta and the selection's orange; dark enough for the light background.
  switch (kind) {
    case ForceArrow::Kind::Force:
      return {0.80, 0.02, 0.42};  // crimson
    case ForceArrow::Kind::Torque:
      return {0.36, 0.16, 0.78};  // indigo
    case ForceArrow::Kind::Contact:
      return {0.00, 0.52, 0.48};  // teal
  }
  return {0.3, 0.3, 0.3};
}

void ForceArrowLayer::build(const dyn::Model& model, SceneStage& stage) {
  stage_ = &stage;
  refresh(model, stage);
  // A first size from the joint offsets: the longest chain from the base, twice for a floating
  // robot (its limbs go both ways); the scene gives the geometry's own size at the first pose.
  std::vector<double> depth(size_t(model.N + 1), 0.0);
  double reach = 0;
  for (int i = 1; i <= model.N; ++i) {
    depth[size_t(i)] = depth[size_t(model.parent[i])] + model.Xtree[i].translation().norm();
    reach = std::max(reach, depth[size_t(i)]);
  }
  size_ = std::max(0.1, model.floatingBase ? 2 * reach : reach);
  apply();
}

bool ForceArrowLayer::refresh(const dyn::Model& model, SceneStage&) {
  const double g = model.gravity.v.norm();
  weight_ = std::max(1e-6, model.totalMass() * (g > 0 ? g : 9.81));
  apply();
  return true;
}

void ForceArrowLayer::setRobotSize(double metres) {
  if (!(metres > 0) || !std::isfinite(metres)) return;
  size_ = metres;
  apply();
}

double ForceArrowLayer::metresPerNewton() const { return kWeightLength * size_ / weight_; }
// A moment of M g x size / 10 (the weight at a tenth of the robot's size: a firm twist) -> size / 4.
double ForceArrowLayer::metresPerNewtonMetre() const { return kWeightLength / (kMomentArm * weight_); }

void ForceArrowLayer::show(bool on) {
  on_ = on;
  apply();
}

void ForceArrowLayer::clear() {
  drawn_.clear();  // the scene removed the overlay's props
  stage_ = nullptr;
}

void ForceArrowLayer::setArrows(const std::vector<ForceArrow>& arrows) {
  arrows_ = arrows;
  apply();
}

void ForceArrowLayer::ensure(size_t n) {
  if (!stage_) return;
  while (drawn_.size() < n) {
    Drawn d;
    for (bool two : {false, true}) {
      auto a = vtkSmartPointer<vtkActor>::New();
      a->SetMapper(unitArrowMapper(two, 16, 24));
      a->PickableOff();
      a->VisibilityOff();
      a->GetProperty()->SetAmbient(0.35);
      a->GetProperty()->SetDiffuse(0.7);
      a->GetProperty()->SetSpecular(0.25);
      stage_->addOverlayProp(a);
      (two ? d.twin : d.single) = a;
    }
    d.text = vtkSmartPointer<vtkTextActor>::New();
    d.text->GetPositionCoordinate()->SetCoordinateSystemToWorld();
    d.text->PickableOff();
    d.text->VisibilityOff();
    vtkTextProperty* tp = d.text->GetTextProperty();
    if (QFile::exists(kFontFile)) {
      tp->SetFontFamily(VTK_FONT_FILE);
      tp->SetFontFile(kFontFile);
    }
    tp->SetFontSize(17);
    tp->SetBold(true);
    tp->SetBackgroundColor(1.0, 1.0, 1.0);
    tp->SetBackgroundOpacity(0.85);
    tp->SetFrame(1);
    tp->SetJustificationToLeft();
    tp->SetVerticalJustificationToBottom();
    stage_->addOverlayProp(d.text);
    drawn_.push_back(d);
  }
}

void ForceArrowLayer::apply() {
  ensure(arrows_.size());
  const double width = kShaftPerSize * size_ / kArrowShaft;
  for (size_t k = 0; k < drawn_.size(); ++k) {
    Drawn& d = drawn_[k];
    d.length = 0;
    const bool have = k < arrows_.size();
    const ForceArrow* a = have ? &arrows_[k] : nullptr;
    const double value = have ? a->vector.norm() : 0.0;
    const bool visible = on_ && have && value > 1e-9 && a->vector.allFinite() && a->point.allFinite();
    const bool two = visible && a->kind == ForceArrow::Kind::Torque;
    d.single->SetVisibility(visible && !two);
    d.twin->SetVisibility(two);
    d.text->SetVisibility(visible);
    if (!visible) continue;
    const double scale = two ? metresPerNewtonMetre() : metresPerNewton();
    // At least kMinPixels on screen too (a robot seen from afar, a presenter's small view).
    const double ppm = pixelsPerMetre(a->point);
    const double shortest = std::max(kMinLength * size_, ppm > 0 ? kMinPixels / ppm : 0.0);
    d.length = std::clamp(value * scale, shortest, std::max(kMaxLength * size_, shortest));
    vtkActor* actor = two ? d.twin : d.single;
    // From the point where it acts, along the vector: a pull towards the cursor reads as one.
    const Eigen::Vector3d dir = a->vector / value;
    // Not wider than the arrow is long: a short arrow keeps a pointed head.
    const double thick = std::max(width, ppm > 0 ? kMinShaftPixels / ppm / kArrowShaft : 0.0);
    placeArrow(actor, a->point, dir, d.length, std::min(thick, 2.0 * d.length));
    const Eigen::Vector3d c = colour(a->kind);
    actor->GetProperty()->SetColor(c.x(), c.y(), c.z());
    // The magnitude just beyond the tip, on the side the arrow points to on screen (not over it).
    const Eigen::Vector3d tip = a->point + d.length * dir;
    const Eigen::Vector3d at = tip + 0.02 * size_ * dir;
    d.text->GetPositionCoordinate()->SetValue(at.x(), at.y(), at.z());
    vtkTextProperty* tp = d.text->GetTextProperty();
    if (vtkRenderer* r = stage_ ? stage_->renderer() : nullptr) {
      const auto toDisplay = [r](const Eigen::Vector3d& p) {
        r->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
        r->WorldToDisplay();
        return Eigen::Vector2d(r->GetDisplayPoint()[0], r->GetDisplayPoint()[1]);
      };
      const Eigen::Vector2d s = toDisplay(tip) - toDisplay(a->point);
      if (std::abs(s.x()) >= std::abs(s.y())) {
        s.x() >= 0 ? tp->SetJustificationToLeft() : tp->SetJustificationToRight();
        tp->SetVerticalJustificationToCentered();
      } else {
        tp->SetJustificationToCentered();
        s.y() >= 0 ? tp->SetVerticalJustificationToBottom() : tp->SetVerticalJustificationToTop();
      }
    }
    d.text->SetInput(magnitude(*a).c_str());
    const scene::Rgb t = scene::readableOn({c.x(), c.y(), c.z()}, {1.0, 1.0, 1.0}, 4.5);
    d.text->GetTextProperty()->SetColor(t[0], t[1], t[2]);
    d.text->GetTextProperty()->SetFrameColor(t[0], t[1], t[2]);
  }
}

double ForceArrowLayer::pixelsPerMetre(const Eigen::Vector3d& p) const {
  return pixelsPerMetreAt(stage_ ? stage_->renderer() : nullptr, p);
}

int ForceArrowLayer::visibleCount() const {
  int n = 0;
  for (const Drawn& d : drawn_) n += d.length > 0 ? 1 : 0;
  return n;
}

vtkActor* ForceArrowLayer::actor(int k) const {
  if (k < 0 || size_t(k) >= drawn_.size() || !(drawn_[size_t(k)].length > 0)) return nullptr;
  return drawn_[size_t(k)].twin->GetVisibility() ? drawn_[size_t(k)].twin : drawn_[size_t(k)].single;
}

double ForceArrowLayer::drawnLength(int k) const {
  return k >= 0 && size_t(k) < drawn_.size() ? drawn_[size_t(k)].length : 0.0;
}

std::string ForceArrowLayer::label(int k) const {
  if (k < 0 || size_t(k) >= drawn_.size() || !(drawn_[size_t(k)].length > 0)) return {};
  const char* s = drawn_[size_t(k)].text->GetInput();
  return s ? s : "";
}
