// Lecture mode's 3D arrows (issue 15): the spatial quantities of each body the algorithm has
// reached (dyn::traceArrows: angular and linear velocity, acceleration, force and moment, the ABA
// bias force), drawn on top of the robot in an overlay renderer (layer 1, its camera copied from
// the scene's), in fixed colours, with a legend stating each scale (metres of arrow per unit).
// Angular quantities have a double head. Arrows of the bodies the current step wrote are opaque,
// those computed earlier lighter; bodies not reached yet have none. A gold arrow along the tree
// shows the direction of the pass. The overlay only draws what it is given.
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
  double scale(dyn::ArrowKind kind) const { return base_[int(kind)] * factor_; }
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
  int legendLines() const;
  static Eigen::Vector3d colour(dyn::ArrowKind kind);
  static constexpr double kLighterOpacity = 0.3;
  vtkRenderer* overlay() const { return overlay_; }

 private:
  static void onStart(vtkObject*, unsigned long, void* self, void*);
  void syncCamera();
  void apply();
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
  std::array<vtkSmartPointer<vtkTextActor>, kKinds + 1> legend_;  // [0]: the header
  std::array<double, kKinds> base_{};
  std::array<bool, kKinds> kindOn_{};
  double factor_ = 1, thickness_ = 0.004;
  bool visible_ = true, presentation_ = false;
  std::string point_ = "COM";
};
