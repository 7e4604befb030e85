// One layer of the 3D scene (the robot's geometry, its link frames, joint axes, centres of mass,
// inertia solids, loop-closure joints, link names): it builds its actors for a model, moves them to
// a pose, and shows or hides them. RobotScene owns one of each and forwards its toggles; a new 3D aid
// is a new SceneLayer (one .hpp/.cpp pair) and a toggle on RobotScene.
//
// The stage is what the layers share: the renderer, the overlay drawn over the robot, the cache of
// primitive shapes.
#pragma once
#include <vtkSmartPointer.h>

#include <Eigen/Core>
#include <array>
#include <map>
#include <memory>
#include <vector>

#include "scene/scene_overlay.hpp"

class vtkPolyData;
class vtkProp;
class vtkRenderer;

namespace dyn {
template <class S>
struct DataTpl;
using Data = DataTpl<double>;
template <class S>
struct ModelTpl;
using Model = ModelTpl<double>;
}  // namespace dyn

class SceneStage {
 public:
  explicit SceneStage(vtkRenderer* renderer) : renderer_(renderer) {}
  vtkRenderer* renderer() const { return renderer_; }

  // vtkRenderer::AddActor and RemoveActor search the renderer's whole prop list each time
  // (vtkCollection::IsItemPresent, RemoveItem): quadratic over the thousands of props of a 1,000-body
  // robot, 25 s of its loading. Every prop a layer adds is new, so it is appended directly; the
  // layers' props are removed in one pass that keeps everything else (grid, world axes).
  void addProp(vtkProp* prop);
  // Aids drawn over the robot (scene/scene_overlay.hpp): a pin inside a piston or a parallelogram's
  // bar would hide them. The overlay is made on first use.
  void addOverlayProp(vtkProp* prop);
  // Removes `props` from the renderer and everything from the overlay; forgets the shapes.
  void removeAll(const std::vector<vtkProp*>& props);

  // Primitive shapes by kind and size, shared by every actor of that shape: a generated chain of
  // 1,000 equal links builds one cylinder, not 1,000 (geometry generation was a third of loading).
  template <class Make>
  vtkPolyData* shape(double kind, double a, double b, double c, Make make) {
    auto& slot = shapes_[{kind, a, b, c}];
    if (!slot) slot = make();
    return slot;
  }

 private:
  vtkRenderer* renderer_;
  std::unique_ptr<SceneOverlay> overlay_;
  std::map<std::array<double, 4>, vtkSmartPointer<vtkPolyData>> shapes_;
};

// What a pose update needs besides the model and its kinematics.
struct ScenePose {
  double frameScale = 0.1;  // length of the frame arrows (m)
  double groundZ = 0;       // the ground's height along `up` (the robot COM's plumb line ends there)
  Eigen::Vector3d up = Eigen::Vector3d::UnitZ();  // the world's up (against gravity)
};

class SceneLayer {
 public:
  virtual ~SceneLayer() = default;
  // The actors for `model` (after clear()), hidden until show(); added through the stage.
  virtual void build(const dyn::Model& model, SceneStage& stage) = 0;
  // After forwardKinematics: moves every actor. Allocation-free.
  virtual void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) = 0;
  // For a model with the same tree as the one built (an edit of numbers: RobotDocument::modelKeptTree):
  // brings the actors up to date in place and returns true, or returns false when they must be built
  // again (a body gained or lost its mass, a geometry changed). Makes no actor.
  virtual bool refresh(const dyn::Model& model, SceneStage& stage) = 0;
  virtual void show(bool on) = 0;
  // The props build() added to the renderer (not the overlay's): removed by the scene in one pass.
  virtual void collectProps(std::vector<vtkProp*>& out) const = 0;
  virtual void clear() = 0;  // forgets the actors (after the scene removed them)
};
