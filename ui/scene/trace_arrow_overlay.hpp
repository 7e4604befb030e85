// Lecture mode's 3D arrows (issue 15): the spatial quantities of each body the algorithm has
// reached (dyn::traceArrows: angular and linear velocity, acceleration, force and moment, the ABA
// bias force), drawn on top of the robot in an overlay renderer (layer 1, its camera copied from
// the scene's), in fixed colours, with a legend stating each scale (metres of arrow per unit).
// Angular quantities have a double head. Arrows of the bodies the current step wrote are opaque,
// those computed earlier lighter; bodies not reached yet have none. A gold arrow along the tree
// shows the direction of the pass. The overlay only draws what it is given.
//
// Readable at a glance (issue 22): an arrow shorter than kMinPixels on screen (at its depth) is drawn
// kMinPixels long, and the legend says so (its direction only counts); when arrows of one kind from
// different bodies would overlap in the view, that kind's scale steps down the 1-2-5 ladder (at most
// to a tenth) as far as that parts them, and the legend states the scale applied and why; overlaps
// that no scale parts (bodies a few pixels apart) make the legend say to zoom in. Both follow the
// camera (they are redone before each render). The legend is set on a white backing (92 % opaque,
// framed), each kind's colour darkened until it reads at 4.5:1 (WCAG AA) whatever the view's
// background.
#pragma once
#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

#include "dynscope/trace/trace_arrows.hpp"

class TraceArrowOverlay {
 public:
  static constexpr int kKinds = int(dyn::ArrowKind::Count);

  explicit TraceArrowOverlay(vtkRenderer* scene);
  ~TraceArrowOverlay();
  TraceArrowOverlay(const TraceArrowOverlay&) = delete;
  TraceArrowOverlay& operator=(const TraceArrowOverlay&) = delete;

  struct Arrow {
    dyn::TraceArrow arrow;
    bool current = false;  // written by the step shown: drawn opaque
  };
  void setArrows(const std::vector<Arrow>& arrows);
  void clear();
  void setVisible(bool on);
  bool visible() const { return visible_; }

  // Scales: metres of arrow per unit of the quantity (m/s, N, ...). autoScale picks round numbers
  // (1, 2 or 5 times a power of ten) so that the longest arrow of each kind in `all` is about
  // `length` metres; the size factor multiplies them all (the legend states the product).
  void autoScale(const std::vector<dyn::TraceArrow>& all, double length);
  void setSizeFactor(double factor);
  double sizeFactor() const { return factor_; }
  // The scale applied (the legend's): base x size factor, stepped down where bodies' arrows overlap.
  double scale(dyn::ArrowKind kind) const { return applied_[int(kind)]; }
  bool scaleReduced(dyn::ArrowKind kind) const { return applied_[int(kind)] < base_[int(kind)] * factor_ * (1 - 1e-9); }
  void setThickness(double metres);  // shaft radius of the arrows (the robot's size decides)
  void setKindVisible(dyn::ArrowKind kind, bool on);
  bool kindVisible(dyn::ArrowKind kind) const { return kindOn_[int(kind)]; }
  void setPointLabel(const std::string& label);  // "COM" or "frame origin", for the legend

  // The pass direction: an arrow from `from` to `to` (hidden when off or shorter than 1 mm).
  void setPassArrow(bool on, const Eigen::Vector3d& from = Eigen::Vector3d::Zero(),
                    const Eigen::Vector3d& to = Eigen::Vector3d::Zero());
  vtkActor* passArrow() const { return pass_; }

  void setPresentation(bool on);  // larger legend text

  // Read back (tests, handout): the actor of an arrow, visible ones only; the legend.
  vtkActor* actorFor(int body, dyn::ArrowKind kind) const;
  int visibleArrowCount() const;
  std::string legendText() const;
  int legendFontSize() const;  // pixels
  int legendLines() const;     // the header and the scales (not the notes at the foot)
  static Eigen::Vector3d colour(dyn::ArrowKind kind);
  static constexpr double kLighterOpacity = 0.3;
  static constexpr double kMinPixels = 18;  // the shortest arrow on screen (device pixels)
  // Drawn kMinPixels long instead of to scale (read back: tests).
  bool stretched(int body, dyn::ArrowKind kind) const;
  // Device pixels per metre at the depth of world point p (0 before the view has a size).
  double pixelsPerMetre(const Eigen::Vector3d& p) const;
  // The legend's backing and the colour of its line for `kind` (the header's for Count).
  static Eigen::Vector3d legendBacking();
  static double legendBackingOpacity();
  static Eigen::Vector3d legendTextColour(dyn::ArrowKind kind);
  vtkRenderer* overlay() const { return overlay_; }

  // The arrows as drawn, projected to the view (display pixels, y up): of one kind, or all (-1).
  struct Segment {
    int body = 0, kind = 0;
    Eigen::Vector2d from, to;
  };
  std::vector<Segment> projectedSegments(int kind = -1) const;
  Segment segmentOf(size_t k) const;  // arrow k as drawn, in screen pixels
  // Pairs of arrows of one kind from different bodies closer than `gap` pixels (their outer 85 %;
  // bodies whose arrows start less than `gap` apart share the point and are not counted).
  static int overlappingPairs(const std::vector<Segment>& segments, double gap);
  bool crowded() const { return crowded_; }  // some overlap remains: the legend says to zoom in
  bool yielded() const { return yielded_; }  // lighter arrows hidden where they would lie on the step's
  double overlapGap() const;                 // the gap layout() keeps (pixels)

 private:
  static void onStart(vtkObject*, unsigned long, void* self, void*);
  void syncCamera();
  void apply();
  void layout();          // drawn lengths, scales stepped down, matrices: from the current camera
  void yieldToTheStep();  // lighter arrows lying on the step's not drawn
  Eigen::Vector2d toPixels(const Eigen::Vector3d& p) const;
  void updateLegend();
  void placeLegend();
  vtkActor* actorAt(size_t k, bool angular);

  vtkRenderer* scene_;
  vtkNew<vtkRenderer> overlay_;
  vtkNew<vtkCallbackCommand> startCallback_;
  std::vector<vtkSmartPointer<vtkActor>> actors_;  // pooled; actors_[k] shows arrows_[k]
  std::vector<bool> actorAngular_;
  std::vector<Arrow> arrows_;
  vtkNew<vtkActor> pass_;
  // The header and the kinds (top left), then two notes (bottom left: short arrows, overlaps).
  std::array<vtkSmartPointer<vtkTextActor>, kKinds + 4> legend_;  // title, kinds, notes (stretched, crowded, reduced)
  std::array<double, kKinds> base_{}, applied_{};
  std::vector<double> drawn_;  // per arrow: the length drawn (m), 0 when hidden
  std::vector<char> stretched_;
  std::array<bool, kKinds> kindOn_{};
  double factor_ = 1, thickness_ = 0.004;
  bool visible_ = true, presentation_ = false, crowded_ = false;
  bool yielded_ = false;  // some lighter arrows not drawn: they would lie on the step's (yieldToTheStep)
  bool compact_ = false;  // the legend's lines without the kinds' names (presenting in a narrow view)
  bool wantsCompact() const;
  std::string point_ = "COM";
};
