// The IK drag handle drawn in 3D: three translation arrows (x red, y green, z blue), three rotation
// rings and a free-drag centre sphere, plus the markers that go with dragging (magenta cubes on
// pinned links, the manipulability ellipsoid, a text read-out). Everything lives in an overlay
// vtkRenderer on layer 1 of the scene's render window: it has its own camera, copied from the
// scene's before every frame, so the handle draws on top of the robot and keeps a constant size
// on screen, and the trackball style never moves it (the overlay is not interactive).
#pragma once
#include <Eigen/Core>
#include <string>
#include <vector>

#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCellPicker.h>
#include <vtkNew.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTextActor.h>

class IkGizmo {
 public:
  enum Part { None = -1, ArrowX, ArrowY, ArrowZ, RingX, RingY, RingZ, Centre, PartCount };

  // Adds the overlay renderer to `scene`'s render window (raising its layer count to 2).
  explicit IkGizmo(vtkRenderer* scene);
  ~IkGizmo();
  IkGizmo(const IkGizmo&) = delete;
  IkGizmo& operator=(const IkGizmo&) = delete;

  static constexpr double kScreenSize = 110;  // arrow length in pixels

  void setVisible(bool on);
  bool visible() const { return visible_; }
  void setShowRings(bool on);  // off for position-only targets
  // Pose: orientation R (columns = the handle's axes in world) and origin p.
  void setPose(const Eigen::Matrix3d& R, const Eigen::Vector3d& p);
  const Eigen::Matrix3d& rotation() const { return R_; }
  const Eigen::Vector3d& origin() const { return p_; }
  Eigen::Vector3d axis(int k) const { return R_.col(k); }
  // World length of the arrows: kScreenSize pixels at the origin's depth (from the scene camera).
  double scale() const { return scale_; }
  void updateScale();
  void setOutOfReach(bool on);  // every part red
  bool outOfReach() const { return outOfReach_; }
  void setHighlight(Part part);  // the grabbed (or hovered) part drawn brighter
  Part highlight() const { return highlight_; }

  // Markers at pinned frames' origins.
  void setPins(const std::vector<Eigen::Vector3d>& origins);
  int pinMarkerCount() const { return int(pinActors_.size()); }
  // The manipulability ellipsoid: semi-axes radii[k] along axes.col(k), centred at c; hidden when
  // `on` is false.
  void setEllipsoid(bool on, const Eigen::Vector3d& c, const Eigen::Matrix3d& axes, const Eigen::Vector3d& radii);
  bool ellipsoidVisible() const;
  vtkActor* ellipsoidActor() const { return ellipsoid_; }
  void setText(const char* text);  // lower-left read-out ("" hides it)
  std::string text() const;

  // The part under display pixel (x, y) (VTK display coordinates, origin bottom-left).
  Part pick(double x, double y);

  vtkActor* actor(Part part) const { return parts_[part]; }
  Eigen::Vector3d color(Part part) const;
  vtkRenderer* overlay() const { return overlay_; }
  vtkRenderer* scene() const { return scene_; }
  void syncCamera();  // copies the scene camera, refits the scale and the overlay's clipping range

 private:
  static void onStart(vtkObject*, unsigned long, void* self, void*);
  void applyTransforms();
  void applyColors();

  vtkRenderer* scene_;
  vtkNew<vtkRenderer> overlay_;
  vtkNew<vtkCellPicker> picker_;
  vtkNew<vtkCallbackCommand> startCallback_;
  vtkSmartPointer<vtkActor> parts_[PartCount];
  vtkNew<vtkActor> ellipsoid_;
  vtkNew<vtkTextActor> text_;
  std::vector<vtkSmartPointer<vtkActor>> pinActors_;
  std::vector<Eigen::Vector3d> pinOrigins_;
  Eigen::Matrix3d R_ = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p_ = Eigen::Vector3d::Zero();
  double scale_ = 0.1;
  bool visible_ = false, rings_ = true, outOfReach_ = false;
  Part highlight_ = None;
};
