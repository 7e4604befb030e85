// The robot itself: one actor per GeometryObject of the model (visual and collision). Primitive
// shapes come from the stage's cache, meshes from a MeshLibrary (or are read now); a mesh that
// cannot be read is drawn as a translucent placeholder (the body's equivalent inertia box when the
// link is the body's own, else a 5 cm cube) and reported once. An actor's user matrix is the world
// pose of `placement * X0[body]` (engine composition, exactly); shape details (URDF mesh scale, the
// cylinder's z axis) are baked into its polydata.
//
// Materials: the link's colour and the scene's opacity; the selected body highlighted, bodies over
// a limit in warning red; collision geometry translucent green.
#pragma once
#include <QHash>
#include <QList>
#include <QString>
#include <array>
#include <functional>

#include "scene/mesh_loader.hpp"
#include "scene/posed_actor.hpp"
#include "scene/scene_colours.hpp"

class GeometryLayer : public SceneLayer {
 public:
  // Where meshes come from for the next build(); problems go to `report`.
  void setSource(const QString& sourceFile, const MeshLibrary* meshes, std::function<void(const QString&)> report);
  void build(const dyn::Model& model, SceneStage& stage) override;
  void pose(const dyn::Model& model, const dyn::Data& data, const ScenePose& pose) override;
  bool refresh(const dyn::Model& model, SceneStage& stage) override;
  void show(bool on) override { show(on, on); }
  void show(bool visual, bool collision);
  void collectProps(std::vector<vtkProp*>& out) const override;
  void clear() override;

  struct Look {
    double opacity = 1;
    int selected = -1;
    const std::vector<int>* warnings = nullptr;  // sorted
  };
  void applyMaterials(const Look& look);
  // The colour the selected body is drawn in (scene_colours.hpp: highlightFor the robot's colours).
  scene::Rgb highlightOf(int body) const;

  QList<vtkActor*> actorsOfLink(const QString& link) const;
  QList<vtkActor*> actors() const;  // index = index in model.geometries
  int bodyOfActor(vtkActor* actor) const;
  bool isPlaceholder(vtkActor* actor) const;
  size_t size() const { return geoms_.size(); }
  // The framing, the ground and the grid follow the robot, not scenery: world geometry (body 0)
  // more than three times the size of what moves (an MJCF floor plane, a room) would make the
  // robot a dot. bounds(), corners() and boxes() leave scenery out (nothing is scenery when
  // nothing moves).
  bool isScenery(int geom) const;
  // Bounds of the actors (visible ones only when asked); false without any.
  bool bounds(double b[6], bool visibleOnly) const;
  // World corners of every actor's own (oriented) bounding box: the visible actors', or all when
  // none is visible.
  std::vector<scene::Vec3> corners() const;
  void corners(std::vector<scene::Vec3>& out) const;  // into `out` (no allocation once it has grown)
  // Per actor: its body, its geometry_X_body placement and its polydata's local bounds (for the
  // reach envelope: the same boxes at other poses).
  struct Box {
    int body = 0;
    scene::Tf placement;
    std::array<double, 6> local{};
  };
  std::vector<Box> boxes(bool visibleOnly) const;

 private:
  struct Geom {
    vtkSmartPointer<vtkActor> actor;
    vtkSmartPointer<vtkMatrix4x4> matrix;
    scene::Tf placement;  // geometry_X_body
    int body = 0;
    bool collision = false, placeholder = false, meshColors = false;
    QString link;
    QString shapeKey;  // the shape as built (kind, sizes, mesh, scale): refresh() tells a changed one
    std::array<double, 4> rgba{0.7, 0.7, 0.7, 1.0};
    scene::Rgb shown{0.7, 0.7, 0.7};  // the colour it shows: rgba, or the mean of a mesh's own colours
  };
  std::vector<Geom> geoms_;
  std::vector<char> scenery_;  // per geom, as of the last pose()
  void findScenery();
  QHash<vtkActor*, int> geomOfActor_;
  scene::Rgb highlight_ = scene::kHighlightOrange;
  QString sourceFile_;
  const MeshLibrary* meshes_ = nullptr;
  std::function<void(const QString&)> report_;
};
