#include "scene/trace_arrow_overlay.hpp"

#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkConeSource.h>
#include <vtkMatrix4x4.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderWindow.h>
#include <vtkTextProperty.h>

#include <QFile>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace {

constexpr double kShaft = 0.03;  // vtkArrowSource's shaft radius for unit length

const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // Greek letters for the legend

vtkSmartPointer<vtkPolyDataMapper> arrowMapper(bool doubleHead) {
  vtkNew<vtkArrowSource> arrow;  // unit length along +x
  arrow->SetShaftRadius(kShaft);
  arrow->SetTipRadius(0.09);
  arrow->SetTipLength(0.22);
  arrow->SetShaftResolution(12);
  arrow->SetTipResolution(20);
  auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
  if (!doubleHead) {
    mapper->SetInputConnection(arrow->GetOutputPort());
    return mapper;
  }
  vtkNew<vtkConeSource> cone;  // the second head of an angular quantity (the screw convention)
  cone->SetHeight(0.22);
  cone->SetRadius(0.09);
  cone->SetResolution(20);
  cone->SetCenter(0.67, 0, 0);
  cone->SetDirection(1, 0, 0);
  vtkNew<vtkAppendPolyData> both;
  both->AddInputConnection(arrow->GetOutputPort());
  both->AddInputConnection(cone->GetOutputPort());
  mapper->SetInputConnection(both->GetOutputPort());
  return mapper;
}

// Unit-length geometry along +x turned onto `vector`, `length` long, `width` times as thick.
void place(vtkActor* actor, const Eigen::Vector3d& origin, const Eigen::Vector3d& direction, double length,
           double width) {
  const Eigen::Vector3d d = direction.normalized();
  const Eigen::Vector3d helper = std::abs(d.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  const Eigen::Vector3d e1 = d.cross(helper).normalized(), e2 = d.cross(e1);
  vtkNew<vtkMatrix4x4> m;
  for (int r = 0; r < 3; ++r) {
    m->SetElement(r, 0, d[r] * length);
    m->SetElement(r, 1, e1[r] * width);
    m->SetElement(r, 2, e2[r] * width);
    m->SetElement(r, 3, origin[r]);
  }
  actor->SetUserMatrix(m);
}

// Magnitudes below this (in SI units) are round-off, not motion or force.
constexpr double kNegligible = 1e-9;

// The largest of 1, 2, 5 x 10^k not above x.
double roundDown125(double x) {
  if (!(x > 0) || !std::isfinite(x)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double f : {5.0, 2.0, 1.0})
    if (f * p <= x * (1 + 1e-12)) return f * p;
  return p;
}

std::string formatScale(double s) {
  std::ostringstream o;
  o.precision(3);
  o << s;
  return o.str();
}

const char* description(dyn::ArrowKind k) {
  switch (k) {
    case dyn::ArrowKind::AngularVelocity:
      return "angular velocity";
    case dyn::ArrowKind::Velocity:
      return "velocity";
    case dyn::ArrowKind::AngularAcceleration:
      return "angular acceleration";
    case dyn::ArrowKind::Acceleration:
      return "acceleration";
    case dyn::ArrowKind::Moment:
      return "moment";
    case dyn::ArrowKind::Force:
      return "force";
    case dyn::ArrowKind::BiasForce:
      return "bias force";
    case dyn::ArrowKind::BiasMoment:
      return "bias moment";
    case dyn::ArrowKind::Count:
      break;
  }
  return "";
}

}  // namespace

TraceArrowOverlay::TraceArrowOverlay(vtkRenderer* scene) : scene_(scene) {
  overlay_->SetLayer(1);
  overlay_->InteractiveOff();
  overlay_->SetPreserveDepthBuffer(false);  // on top of the robot
  if (vtkRenderWindow* w = scene_->GetRenderWindow()) {
    w->SetNumberOfLayers(std::max(2, w->GetNumberOfLayers()));
    w->AddRenderer(overlay_);
  }
  kindOn_.fill(true);
  base_.fill(0.1);
  pass_->SetMapper(arrowMapper(false));
  pass_->GetProperty()->SetColor(0.98, 0.78, 0.10);
  pass_->GetProperty()->SetOpacity(0.85);
  pass_->GetProperty()->SetAmbient(0.4);
  pass_->VisibilityOff();
  overlay_->AddActor(pass_);
  const bool greek = QFile::exists(kFontFile);
  for (size_t k = 0; k < legend_.size(); ++k) {
    legend_[k] = vtkSmartPointer<vtkTextActor>::New();
    vtkTextProperty* p = legend_[k]->GetTextProperty();
    if (greek) {
      p->SetFontFamily(VTK_FONT_FILE);
      p->SetFontFile(kFontFile);
    }
    p->SetBold(k == 0);
    p->SetShadow(false);
    p->SetBackgroundColor(1, 1, 1);
    p->SetBackgroundOpacity(0.75);
    legend_[k]->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
    legend_[k]->VisibilityOff();
    overlay_->AddViewProp(legend_[k]);
  }
  startCallback_->SetClientData(this);
  startCallback_->SetCallback(&TraceArrowOverlay::onStart);
  overlay_->AddObserver(vtkCommand::StartEvent, startCallback_);
}

TraceArrowOverlay::~TraceArrowOverlay() {
  overlay_->RemoveObserver(startCallback_);
  if (vtkRenderWindow* w = overlay_->GetRenderWindow()) w->RemoveRenderer(overlay_);
}

void TraceArrowOverlay::onStart(vtkObject*, unsigned long, void* self, void*) {
  static_cast<TraceArrowOverlay*>(self)->syncCamera();
}

void TraceArrowOverlay::syncCamera() {
  overlay_->GetActiveCamera()->DeepCopy(scene_->GetActiveCamera());
  overlay_->ResetCameraClippingRange();
  placeLegend();
}

// The legend's lines from the top, one font height and a bit apart in pixels (a small picture,
// e.g. a handout's, must not pile them on top of each other). Presentation mode's larger text
// shrinks with the view, down to the normal size, so that its lines stay within a third of it.
void TraceArrowOverlay::placeLegend() {
  const int* size = overlay_->GetSize();
  const double height = size && size[1] > 0 ? size[1] : 600;
  const int font = presentation_ ? std::clamp(int(height / (3 * std::max(legendLines(), 1) * 1.45)), 14, 24) : 14;
  for (const auto& t : legend_) t->GetTextProperty()->SetFontSize(font);
  const double step = font * 1.45 / height;
  int line = 0;
  for (const auto& t : legend_)
    if (t->GetVisibility()) t->GetPositionCoordinate()->SetValue(0.01, 1 - 0.01 - step * ++line);
}

Eigen::Vector3d TraceArrowOverlay::colour(dyn::ArrowKind kind) {
  switch (kind) {
    case dyn::ArrowKind::Velocity:
      return {0.12, 0.38, 0.95};
    case dyn::ArrowKind::AngularVelocity:
      return {0.25, 0.75, 1.00};
    case dyn::ArrowKind::Acceleration:
      return {0.10, 0.60, 0.16};
    case dyn::ArrowKind::AngularAcceleration:
      return {0.55, 0.85, 0.20};
    case dyn::ArrowKind::Force:
      return {0.88, 0.12, 0.10};
    case dyn::ArrowKind::Moment:
      return {1.00, 0.55, 0.05};
    case dyn::ArrowKind::BiasForce:
      return {0.58, 0.20, 0.82};
    case dyn::ArrowKind::BiasMoment:
      return {0.92, 0.45, 0.92};
    case dyn::ArrowKind::Count:
      break;
  }
  return {0.5, 0.5, 0.5};
}

vtkActor* TraceArrowOverlay::actorAt(size_t k, bool angular) {
  while (actors_.size() <= k) {
    auto a = vtkSmartPointer<vtkActor>::New();
    a->PickableOff();
    a->GetProperty()->SetAmbient(0.35);
    a->GetProperty()->SetDiffuse(0.7);
    a->GetProperty()->SetSpecular(0.2);
    overlay_->AddActor(a);
    actors_.push_back(a);
    actorAngular_.push_back(!angular);  // forces a mapper below
  }
  if (actorAngular_[k] != angular) {
    actors_[k]->SetMapper(arrowMapper(angular));
    actorAngular_[k] = angular;
  }
  return actors_[k];
}

void TraceArrowOverlay::setArrows(const std::vector<Arrow>& arrows) {
  arrows_ = arrows;
  apply();
}

void TraceArrowOverlay::clear() {
  arrows_.clear();
  setPassArrow(false);
  apply();
}

void TraceArrowOverlay::apply() {
  for (size_t k = 0; k < arrows_.size(); ++k) {
    const Arrow& a = arrows_[k];
    const int kind = int(a.arrow.kind);
    vtkActor* actor = actorAt(k, dyn::arrowIsAngular(a.arrow.kind));
    const double length = a.arrow.vector.norm() * scale(a.arrow.kind);
    const bool show = visible_ && kindOn_[kind] && length > 1e-4 && std::isfinite(length);
    actor->SetVisibility(show);
    if (!show) continue;
    place(actor, a.arrow.origin, a.arrow.vector, length, thickness_ / kShaft);
    const Eigen::Vector3d c = colour(a.arrow.kind);
    actor->GetProperty()->SetColor(c.x(), c.y(), c.z());
    actor->GetProperty()->SetOpacity(a.current ? 1.0 : kLighterOpacity);
  }
  for (size_t k = arrows_.size(); k < actors_.size(); ++k) actors_[k]->VisibilityOff();
  pass_->SetVisibility(visible_ && pass_->GetVisibility());
  updateLegend();
}

void TraceArrowOverlay::setVisible(bool on) {
  visible_ = on;
  apply();
}

void TraceArrowOverlay::autoScale(const std::vector<dyn::TraceArrow>& all, double length) {
  std::array<double, kKinds> largest{};
  for (const auto& a : all) largest[int(a.kind)] = std::max(largest[int(a.kind)], a.vector.norm());
  for (int k = 0; k < kKinds; ++k)
    // Round-off (a body at rest: a - a_g + a_g ~ 1e-15) is no magnitude to scale to.
    base_[k] = largest[k] > kNegligible && std::isfinite(largest[k]) ? roundDown125(length / largest[k])
                                                                     : roundDown125(length);
  apply();
}

void TraceArrowOverlay::setSizeFactor(double factor) {
  factor_ = std::clamp(factor, 0.01, 100.0);
  apply();
}

void TraceArrowOverlay::setThickness(double metres) {
  thickness_ = std::max(1e-4, metres);
  apply();
}

void TraceArrowOverlay::setKindVisible(dyn::ArrowKind kind, bool on) {
  kindOn_[int(kind)] = on;
  apply();
}

void TraceArrowOverlay::setPointLabel(const std::string& label) {
  point_ = label;
  updateLegend();
}

void TraceArrowOverlay::setPassArrow(bool on, const Eigen::Vector3d& from, const Eigen::Vector3d& to) {
  const Eigen::Vector3d d = to - from;
  const bool show = on && visible_ && d.norm() > 1e-3;
  pass_->SetVisibility(show);
  if (show) place(pass_, from, d, d.norm(), 2.2 * thickness_ / kShaft);
}

void TraceArrowOverlay::setPresentation(bool on) {
  presentation_ = on;
  updateLegend();
}

void TraceArrowOverlay::updateLegend() {
  // Only the kinds that have arrows.
  std::array<bool, kKinds> present{};
  for (const Arrow& a : arrows_) present[int(a.arrow.kind)] = present[int(a.arrow.kind)] || kindOn_[int(a.arrow.kind)];
  const auto put = [&](vtkTextActor* t, const std::string& text, const Eigen::Vector3d& c) {
    t->SetInput(text.c_str());  // the font size: placeLegend, from the view's height
    t->GetTextProperty()->SetColor(c.x(), c.y(), c.z());
    t->SetVisibility(visible_);
  };
  bool any = false;
  for (bool p : present) any = any || p;
  if (!any) {
    for (auto& t : legend_) t->VisibilityOff();
    return;
  }
  put(legend_[0], "Arrows at each body's " + point_ + " (world); darker: this step", Eigen::Vector3d(0.1, 0.1, 0.12));
  for (int k = 0; k < kKinds; ++k) {
    vtkTextActor* t = legend_[k + 1];
    if (!present[k]) {
      t->VisibilityOff();
      continue;
    }
    const auto kind = dyn::ArrowKind(k);
    // With a font that has them, the paper's symbols (the angular ones double-headed, ⇉).
    const std::string symbol = QFile::exists(kFontFile)
                                   ? std::string(dyn::arrowIsAngular(kind) ? "⇉ " : "→ ") + dyn::arrowName(kind) + "  "
                                   : std::string();
    put(t, symbol + description(kind) + ":  1 " + dyn::arrowUnit(kind) + " = " + formatScale(scale(kind)) + " m",
        colour(kind));
  }
  placeLegend();
}

vtkActor* TraceArrowOverlay::actorFor(int body, dyn::ArrowKind kind) const {
  for (size_t k = 0; k < arrows_.size() && k < actors_.size(); ++k)
    if (arrows_[k].arrow.body == body && arrows_[k].arrow.kind == kind && actors_[k]->GetVisibility())
      return actors_[k];
  return nullptr;
}

int TraceArrowOverlay::visibleArrowCount() const {
  int n = 0;
  for (const auto& a : actors_) n += a->GetVisibility() ? 1 : 0;
  return n;
}

int TraceArrowOverlay::legendFontSize() const { return legend_[0]->GetTextProperty()->GetFontSize(); }

int TraceArrowOverlay::legendLines() const {
  int lines = 0;
  for (const auto& t : legend_) lines += t->GetVisibility() ? 1 : 0;
  return lines;
}

std::string TraceArrowOverlay::legendText() const {
  std::string s;
  for (const auto& t : legend_)
    if (t->GetVisibility() && t->GetInput()) s += std::string(t->GetInput()) + "\n";
  return s;
}
