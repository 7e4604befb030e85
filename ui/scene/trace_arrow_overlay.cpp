#include "scene/trace_arrow_overlay.hpp"

#include "scene/arrow_glyph.hpp"
#include "scene/scene_colours.hpp"
#include "viewport/render_scale.hpp"

#include <vtkAppendPolyData.h>
#include <vtkArrowSource.h>
#include <vtkCamera.h>
#include <vtkConeSource.h>
#include <vtkMath.h>
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

const char* kFontFile = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";  // Greek letters for the legend

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
  applied_.fill(0.1);
  pass_->SetMapper(unitArrowMapper(false, 12, 20));
  pass_->GetProperty()->SetColor(0.98, 0.78, 0.10);
  pass_->GetProperty()->SetOpacity(0.5);
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
    const Eigen::Vector3d b = legendBacking();
    p->SetBackgroundColor(b.x(), b.y(), b.z());
    p->SetBackgroundOpacity(legendBackingOpacity());
    p->SetFrame(true);  // a thin dark edge: the panel stays apart from a white scene too
    p->SetFrameColor(0.55, 0.57, 0.6);
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
  layout();  // the lengths on screen follow the camera
  overlay_->ResetCameraClippingRange();
  placeLegend();
}

// The legend's lines from the top, one font height and a bit apart in pixels (a small picture,
// e.g. a handout's, must not pile them on top of each other). Presentation mode's larger text
// shrinks with the view, down to the normal size, so that its lines stay within a third of it. The
// notes (short arrows, overlaps) come and go while stepping: at the foot, the scales stay put.
// Presenting in a view narrower than 900 px (beside the equations on a laptop, or in a 1920 hall's
// lecture layout), the large legend would cover the robot: its lines keep the paper's symbol and the
// scale and leave out the kind's name.
bool TraceArrowOverlay::wantsCompact() const {
  const int* size = overlay_->GetSize();
  return presentation_ && size && size[0] > 0 && size[0] / viewport::renderScale() < 900;
}

void TraceArrowOverlay::placeLegend() {
  if (wantsCompact() != compact_) return updateLegend();  // the lines' texts first; it places them
  const int* size = overlay_->GetSize();
  const double height = size && size[1] > 0 ? size[1] / viewport::renderScale() : 600;  // on screen
  int font = presentation_ ? std::clamp(int(height / (3 * std::max(legendLines(), 1) * 1.45)), 14, 24) : 14;
  for (const auto& t : legend_) t->GetTextProperty()->SetFontSize(font);
  // Nor wider than the view: the longest line whole (a narrow view beside the equations, presenting).
  const double width = size && size[0] > 0 ? size[0] : 800;
  double widest = 0;
  for (const auto& t : legend_)
    if (t->GetVisibility() && overlay_->GetRenderWindow()) {
      double box[4];
      t->GetBoundingBox(overlay_, box);
      widest = std::max(widest, box[1] - box[0]);
    }
  if (widest > 0.97 * width) {
    font = std::max(10, int(font * 0.97 * width / widest));
    for (const auto& t : legend_) t->GetTextProperty()->SetFontSize(font);
  }
  const double step = font * 1.45 / height;
  int line = 0;
  for (int k = 0; k <= kKinds; ++k)  // the header and the scales from the top
    if (legend_[size_t(k)]->GetVisibility())
      legend_[size_t(k)]->GetPositionCoordinate()->SetValue(0.01, 1 - 0.01 - step * ++line);
  line = 0;
  for (int k = int(legend_.size()) - 1; k > kKinds; --k)  // the notes at the foot of the view
    if (legend_[size_t(k)]->GetVisibility())
      legend_[size_t(k)]->GetPositionCoordinate()->SetValue(0.01, 0.01 + step * line++);
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
    actors_[k]->SetMapper(unitArrowMapper(angular, 12, 20));
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
    vtkActor* actor = actorAt(k, dyn::arrowIsAngular(a.arrow.kind));
    const Eigen::Vector3d c = colour(a.arrow.kind);
    actor->GetProperty()->SetColor(c.x(), c.y(), c.z());
    actor->GetProperty()->SetOpacity(a.current ? 1.0 : kLighterOpacity);
  }
  for (size_t k = arrows_.size(); k < actors_.size(); ++k) actors_[k]->VisibilityOff();
  pass_->SetVisibility(visible_ && pass_->GetVisibility());
  layout();
}

double TraceArrowOverlay::pixelsPerMetre(const Eigen::Vector3d& p) const { return pixelsPerMetreAt(scene_, p); }

namespace {

// The distance of two segments in the plane (zero when they cross).
double segmentDistance(const Eigen::Vector2d& a0, const Eigen::Vector2d& a1, const Eigen::Vector2d& b0,
                       const Eigen::Vector2d& b1) {
  const auto cross = [](const Eigen::Vector2d& u, const Eigen::Vector2d& v) { return u.x() * v.y() - u.y() * v.x(); };
  const Eigen::Vector2d da = a1 - a0, db = b1 - b0;
  const double d1 = cross(da, b0 - a0), d2 = cross(da, b1 - a0), d3 = cross(db, a0 - b0), d4 = cross(db, a1 - b0);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
  const auto pointToSegment = [](const Eigen::Vector2d& p, const Eigen::Vector2d& s0, const Eigen::Vector2d& s1) {
    const Eigen::Vector2d d = s1 - s0;
    const double t = d.squaredNorm() > 0 ? std::clamp((p - s0).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
    return (s0 + t * d - p).norm();
  };
  return std::min(
      {pointToSegment(a0, b0, b1), pointToSegment(a1, b0, b1), pointToSegment(b0, a0, a1), pointToSegment(b1, a0, a1)});
}

// Whether two arrows' outer 85 % come within gap (arrows from nearby points may touch at their feet).
bool outerPartsMeet(const Eigen::Vector2d& a0, const Eigen::Vector2d& a1, const Eigen::Vector2d& b0,
                    const Eigen::Vector2d& b1, double gap) {
  return segmentDistance(a0 + 0.15 * (a1 - a0), a1, b0 + 0.15 * (b1 - b0), b1) < gap;
}

// The next round number below s on the 1-2-5 ladder.
double stepDown125(double s) { return roundDown125(s * (1 - 1e-6)); }

}  // namespace

int TraceArrowOverlay::overlappingPairs(const std::vector<Segment>& segs, double gap) {
  int n = 0;
  for (size_t i = 0; i < segs.size(); ++i)
    for (size_t j = i + 1; j < segs.size(); ++j) {
      const Segment &a = segs[i], &b = segs[j];
      if (a.body == b.body || a.kind != b.kind) continue;
      // Two bodies sharing the point (the Stanford arm's bodies 2 and 3 at b3 = 0): no scale parts them.
      if ((a.from - b.from).norm() < gap) continue;
      if (outerPartsMeet(a.from, a.to, b.from, b.to, gap)) ++n;
    }
  return n;
}

std::vector<TraceArrowOverlay::Segment> TraceArrowOverlay::projectedSegments(int kind) const {
  std::vector<Segment> out;
  for (size_t k = 0; k < arrows_.size() && k < drawn_.size(); ++k) {
    const dyn::TraceArrow& a = arrows_[k].arrow;
    if (drawn_[k] <= 0 || (kind >= 0 && int(a.kind) != kind)) continue;
    out.push_back(segmentOf(k));
  }
  return out;
}

TraceArrowOverlay::Segment TraceArrowOverlay::segmentOf(size_t k) const {
  const dyn::TraceArrow& a = arrows_[k].arrow;
  return {a.body, int(a.kind), toPixels(a.origin), toPixels(a.origin + a.vector.normalized() * drawn_[k])};
}

Eigen::Vector2d TraceArrowOverlay::toPixels(const Eigen::Vector3d& p) const {
  scene_->SetWorldPoint(p.x(), p.y(), p.z(), 1.0);
  scene_->WorldToDisplay();
  const double* d = scene_->GetDisplayPoint();
  return Eigen::Vector2d(d[0], d[1]) / viewport::renderScale();  // screen pixels, as the gaps are
}

void TraceArrowOverlay::layout() {
  drawn_.assign(arrows_.size(), 0.0);
  stretched_.assign(arrows_.size(), 0);
  const bool sized = pixelsPerMetre(Eigen::Vector3d::Zero()) > 0;
  const auto lengths = [&](int kind) {
    for (size_t k = 0; k < arrows_.size(); ++k) {
      const Arrow& a = arrows_[k];
      if (int(a.arrow.kind) != kind) continue;
      const double length = a.arrow.vector.norm() * applied_[size_t(kind)];
      drawn_[k] = 0;
      stretched_[k] = 0;
      if (!(visible_ && kindOn_[size_t(kind)] && length > 1e-4 && std::isfinite(length))) continue;
      drawn_[k] = length;
      const double ppm = sized ? pixelsPerMetre(a.arrow.origin) : 0;
      if (ppm > 0 && length * ppm < kMinPixels) {
        drawn_[k] = kMinPixels / ppm;
        stretched_[k] = 1;
      }
    }
  };
  crowded_ = false;
  for (int kind = 0; kind < kKinds; ++kind) {
    const double stated = base_[size_t(kind)] * factor_;
    applied_[size_t(kind)] = stated;
    lengths(kind);
    if (!sized) continue;
    const auto segments = projectedSegments(kind);
    if (segments.size() > 400) continue;  // pairs: quadratic
    // Down the 1-2-5 ladder (at most to a tenth), to the scale that parts the most arrows of
    // different bodies (arrows drawn at the shortest length do not shrink with it).
    int best = overlappingPairs(segments, overlapGap());
    double bestScale = stated;
    for (int step = 0; step < 3 && best > 0; ++step) {
      applied_[size_t(kind)] = stepDown125(applied_[size_t(kind)]);
      lengths(kind);
      const int now = overlappingPairs(projectedSegments(kind), overlapGap());
      if (now < best) {
        best = now;
        bestScale = applied_[size_t(kind)];
      }
    }
    applied_[size_t(kind)] = bestScale;
    lengths(kind);
  }
  if (sized) yieldToTheStep();
  for (int kind = 0; kind < kKinds && sized; ++kind) {
    const auto segments = projectedSegments(kind);
    crowded_ = crowded_ || (segments.size() <= 400 && overlappingPairs(segments, overlapGap()) > 0);
  }
  for (size_t k = 0; k < arrows_.size(); ++k) {
    vtkActor* actor = actors_[k];
    actor->SetVisibility(drawn_[k] > 0);
    if (drawn_[k] > 0)
      placeArrow(actor, arrows_[k].arrow.origin, arrows_[k].arrow.vector, drawn_[k], thickness_ / kArrowShaft);
  }
  updateLegend();
}

// The step's arrows are what the lecturer talks about: another body's lighter arrow of the same kind
// that would lie on one of them (the Stanford arm's wrist bodies share a point; at rest a vertical
// chain's accelerations line up) is not drawn until its own step.
void TraceArrowOverlay::yieldToTheStep() {
  yielded_ = false;
  const double gap = overlapGap();
  std::vector<Segment> steps;
  for (size_t k = 0; k < arrows_.size(); ++k)
    if (arrows_[k].current && drawn_[k] > 0) steps.push_back(segmentOf(k));
  if (steps.empty() || steps.size() == arrows_.size()) return;
  for (size_t k = 0; k < arrows_.size(); ++k) {
    if (arrows_[k].current || drawn_[k] <= 0) continue;
    const Segment a = segmentOf(k);
    for (const Segment& s : steps)
      if (s.kind == a.kind && s.body != a.body && outerPartsMeet(a.from, a.to, s.from, s.to, gap)) {
        drawn_[k] = 0;
        yielded_ = true;
        break;
      }
  }
}

// Two tip widths (a tip is 3 shaft radii across) and at least 4 pixels: apart enough to tell two
// arrows apart.
double TraceArrowOverlay::overlapGap() const {
  const double ppm = arrows_.empty() ? 0 : pixelsPerMetre(arrows_.front().arrow.origin);
  return std::max(4.0, 6 * thickness_ * ppm);
}

bool TraceArrowOverlay::stretched(int body, dyn::ArrowKind kind) const {
  for (size_t k = 0; k < arrows_.size() && k < stretched_.size(); ++k)
    if (arrows_[k].arrow.body == body && arrows_[k].arrow.kind == kind && drawn_[k] > 0) return stretched_[k];
  return false;
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
  // Thin and translucent: it shows the pass's direction, the step's own arrows stay readable through it.
  if (show) placeArrow(pass_, from, d, d.norm(), 1.4 * thickness_ / kArrowShaft);
}

void TraceArrowOverlay::setPresentation(bool on) {
  presentation_ = on;
  updateLegend();
}

Eigen::Vector3d TraceArrowOverlay::legendBacking() { return {1.0, 1.0, 1.0}; }
double TraceArrowOverlay::legendBackingOpacity() { return 0.92; }

Eigen::Vector3d TraceArrowOverlay::legendTextColour(dyn::ArrowKind kind) {
  const Eigen::Vector3d c = kind == dyn::ArrowKind::Count ? Eigen::Vector3d(0.1, 0.1, 0.12) : colour(kind);
  // The backing at its darkest (over a black scene): the text must read on it, and so on any.
  const Eigen::Vector3d b = legendBacking() * legendBackingOpacity();
  const scene::Rgb r = scene::readableOn({c.x(), c.y(), c.z()}, {b.x(), b.y(), b.z()}, 4.5);
  return {r[0], r[1], r[2]};
}

void TraceArrowOverlay::updateLegend() {
  compact_ = wantsCompact();
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
  put(legend_[0],
      compact_ ? "At each " + point_ + " (world); darker: this step"
               : "Arrows at each body's " + point_ + " (world); darker: this step",
      legendTextColour(dyn::ArrowKind::Count));
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
    const std::string name = compact_ && !symbol.empty() ? std::string() : std::string(description(kind)) + ":  ";
    put(t,
        symbol + name + "1 " + dyn::arrowUnit(kind) + " = " + formatScale(scale(kind)) + " m" +
            (scaleReduced(kind) ? std::string(compact_ ? " (reduced)" : " (reduced: bodies' arrows would overlap)")
                                : std::string()),
        legendTextColour(kind));
  }
  bool anyStretched = false;
  for (size_t k = 0; k < stretched_.size(); ++k) anyStretched = anyStretched || (stretched_[k] && drawn_[k] > 0);
  const Eigen::Vector3d dark = legendTextColour(dyn::ArrowKind::Count);
  if (anyStretched)
    put(legend_[kKinds + 1],
        "Shorter than " + std::to_string(int(kMinPixels)) + " px: drawn that long (direction only)", dark);
  else
    legend_[kKinds + 1]->VisibilityOff();
  if (crowded_)
    put(legend_[kKinds + 2],
        std::string("Some bodies' arrows overlap: zoom in to part them") +
            (yielded_ ? "; those on this step's hidden" : ""),
        dark);
  else if (yielded_)
    put(legend_[kKinds + 2], "Lighter arrows that would lie on this step's: hidden", dark);
  else
    legend_[kKinds + 2]->VisibilityOff();
  // The compact legend's "(reduced)" said in words once, at the foot.
  bool anyReduced = false;
  for (int k = 0; k < kKinds; ++k) anyReduced = anyReduced || (present[k] && scaleReduced(dyn::ArrowKind(k)));
  if (compact_ && anyReduced)
    put(legend_[kKinds + 3], "(reduced): shortened so that neighbouring bodies' arrows do not overlap", dark);
  else
    legend_[kKinds + 3]->VisibilityOff();
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
  for (int k = 0; k <= kKinds; ++k) lines += legend_[size_t(k)]->GetVisibility() ? 1 : 0;
  return lines;
}

std::string TraceArrowOverlay::legendText() const {
  std::string s;
  for (const auto& t : legend_)
    if (t->GetVisibility() && t->GetInput()) s += std::string(t->GetInput()) + "\n";
  return s;
}
