// Forces and moments acting on the robot from outside (issue 25): a push with the mouse while
// simulating, later contact forces. The layer draws the list it is given (world points, world
// vectors) and computes nothing: set it with setArrows(), clear it with an empty list.
//
// Drawn over the robot (the scene's overlay: a push on a link's surface is not hidden inside it).
// Length in proportion to the magnitude, at one scale per robot: its weight M g is drawn a quarter
// of its size long (a moment of M g x size / 10 likewise: a firm twist), so a push that could lift the robot reads
// as big and one that turns a finger as small; each arrow carries its magnitude as text at its tip.
// Between kMinLength and kMaxLength of the robot's size whatever the magnitude, and at least
// kMinPixels long on screen for the camera at the time they are set: a push on a light link or a
// robot seen from afar still shows its direction, a large push stays in the picture. Forces have one head, moments
// two (the screw convention of the lecture's arrows), contact forces their own colour. Each starts
// at the point where it acts.
#pragma once
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>
#include <Eigen/Core>

#include "scene/scene_layer.hpp"

class vtkActor;

struct ForceArrow {
  enum class Kind { Force, Torque, Contact };
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   // where it acts (world, m)
  Eigen::Vector3d vector = Eigen::Vector3d::Zero();  // world axes: N (Force, Contact) or N m (Torque)
  Kind kind = Kind::Force;
};

class ForceArrowLayer : public SceneLayer {
 public:
  static constexpr double kWeightLength = 0.25;  // the robot's weight: this fraction of its size
  static constexpr double kMomentArm = 0.1;      // moments: M g x this fraction of the size, drawn as the weight
  static constexpr double kMinLength = 0.1, kMaxLength = 0.8;      // fractions of the robot's size
  static constexpr double kMinPixels = 48, kMinShaftPixels = 2.5;  // and on screen (device pixels)

  // The scale from the model's weight and a size from its joint offsets (the scene gives the
  // geometry's size at the first pose, setRobotSize).
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model&, const dyn::Data&, const ScenePose&) override {}  // world arrows: set from outside
  bool refresh(const dyn::Model& model, SceneStage& stage) override;
  void show(bool on) override;
  void collectProps(std::vector<vtkProp*>& out) const override {}  // in the overlay, removed with it
  void clear() override;

  void setArrows(const std::vector<ForceArrow>& arrows);
  const std::vector<ForceArrow>& arrows() const { return arrows_; }
  void setRobotSize(double metres);
  double robotSize() const { return size_; }
  double metresPerNewton() const;       // Force and Contact
  double metresPerNewtonMetre() const;  // Torque
  static Eigen::Vector3d colour(ForceArrow::Kind kind);

  // As drawn (tests): the visible arrows, arrow k's actor, its length (m) and its label.
  int visibleCount() const;
  vtkActor* actor(int k) const;
  double drawnLength(int k) const;
  std::string label(int k) const;
  double pixelsPerMetre(const Eigen::Vector3d& p) const;  // at p's depth; 0 before the view has a size

 private:
  struct Drawn {
    vtkSmartPointer<vtkActor> single, twin;  // one head, two heads
    vtkSmartPointer<vtkTextActor> text;
    double length = 0;
  };
  void ensure(size_t n);
  void apply();

  SceneStage* stage_ = nullptr;
  std::vector<ForceArrow> arrows_;
  std::vector<Drawn> drawn_;
  double weight_ = 9.81, size_ = 1.0;
  bool on_ = true;
};
