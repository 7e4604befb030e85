// Shared by the MJCF reader's files (private to the engine): the reading context (compiler settings,
// <default> classes, included documents, findings) and MuJoCo's frame and inertia rules.
#pragma once
#include <tinyxml2.h>

#include <Eigen/Geometry>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dynscope/io/load_error.hpp"
#include "dynscope/io/robot_description.hpp"

namespace dyn::mjcf {

using tinyxml2::XMLElement;
using Iso = Eigen::Isometry3d;

// Attribute values by name, as a <default> class gives them for one element kind.
using AttributeMap = std::map<std::string, std::string>;

// A <default> class: the attributes it gives each element kind (joint, geom, site, mesh, material,
// general for every actuator kind), its own and those inherited from its parent class.
struct DefaultClass {
  std::map<std::string, AttributeMap> byTag;
};

struct Compiler {
  bool degrees = true;  // angle="degree" is MuJoCo's default
  std::string eulerseq = "xyz";
  std::string meshdir;            // relative to the model file's folder
  bool autolimits = true;         // MuJoCo 3's default
  bool exactMeshInertia = false;  // MuJoCo 2.x's exactmeshinertia (removed in 3.3)
  enum class FromGeom { False, True, Auto } inertiaFromGeom = FromGeom::Auto;
  int groupMin = 0, groupMax = 5;              // inertiagrouprange
  double boundmass = 0, boundinertia = 0;      // lower bounds of the bodies' mass and principal moments
  bool balanceinertia = false;                 // principal moments violating A + B >= C replaced by their mean
  const XMLElement* boundsAt = nullptr;        // the <compiler> that sets one of the three
  double settotalmass = -1;                    // > 0: every body's mass and inertia scaled to this total
  const XMLElement* settotalmassAt = nullptr;  // the <compiler> that sets it
};

class Reader {
 public:
  Reader(RobotDescription& robot, std::string mainFile) : robot_(robot), mainFile_(std::move(mainFile)) {}

  RobotDescription& robot() { return robot_; }
  Compiler compiler;
  std::map<std::string, DefaultClass> defaults;  // "main" is the top-level <default>

  // The file an element was read from (the main file or an <include>d one).
  std::string fileOf(const XMLElement* el) const;
  const std::string& mainFile() const { return mainFile_; }
  // Keeps an included document alive and remembers its file name.
  tinyxml2::XMLDocument& addDocument(const std::string& file);
  void nameDocument(const tinyxml2::XMLDocument* doc, const std::string& file) { files_[doc] = file; }

  [[noreturn]] void fail(const XMLElement* el, const std::string& element, const std::string& message) const;

  // An attribute of el, else the value its <default> class gives (class: el's own `class`, else
  // the inherited childclass, else "main"); tag: the default bucket ("joint", "geom", ..., "general").
  const char* get(const XMLElement* el, const char* name, const std::string& tag, const std::string& childclass);
  // Marks an attribute as read, so it is not reported as ignored.
  void markRead(const XMLElement* el, const char* name) { read_[el].insert(name); }

  // Parsed numbers (exactly `count`, or between min and max when max > 0) of a value; fails naming el.
  std::vector<double> numbers(const XMLElement* el, const char* name, const char* value, size_t count,
                              size_t max = 0) const;
  // Parsed whole numbers (exactly `count`) that fit an int; fails naming el otherwise.
  std::vector<int> integers(const XMLElement* el, const char* name, const char* value, size_t count) const;

  // Findings, grouped: one per (code, element kind) with the first line and a count.
  void note(Severity severity, const std::string& code, const XMLElement* el, const std::string& element,
            const std::string& message, const std::string& hint);
  // Reports every attribute of el not marked read (info, grouped by element kind and attribute).
  void noteUnreadAttributes(const XMLElement* el);
  void flushFindings();

 private:
  RobotDescription& robot_;
  std::string mainFile_;
  std::vector<std::unique_ptr<tinyxml2::XMLDocument>> included_;
  std::map<const tinyxml2::XMLDocument*, std::string> files_;
  std::map<const XMLElement*, std::set<std::string>> read_;
  struct Group {
    Finding finding;
    int count = 0;
  };
  std::vector<Group> groups_;
  std::map<std::string, size_t> groupIndex_;
};

// ---- Frames (mjcf_frames.cpp) ----------------------------------------------------------------

// The rotation an element's orientation attributes give (quat, axisangle, euler, xyaxes, zaxis;
// MuJoCo's rules: quaternions normalised, angles in the compiler's unit, euler in eulerseq order).
// tag/childclass: where defaults may supply them (geoms and sites); empty tag: own attributes only.
Eigen::Matrix3d orientation(Reader& reader, const XMLElement* el, const std::string& tag = "",
                            const std::string& childclass = "");
// The rotation of euler angles e (in the compiler's angle unit and eulerseq order).
Eigen::Matrix3d eulerRotation(const Reader& reader, const Eigen::Vector3d& e);
// pos and orientation of an element as a pose in its parent's frame.
Iso framePose(Reader& reader, const XMLElement* el, const std::string& tag = "", const std::string& childclass = "");
// The rotation taking z to v by the shortest arc (MuJoCo's zaxis and fromto rule).
Eigen::Matrix3d rotationZTo(const Eigen::Vector3d& v);
// A pose as the description stores it (xyz, URDF rpy).
Pose toPose(const Iso& T);
Iso fromPose(const Pose& p);

// ---- Geom inertia (mjcf_inertia.cpp) ---------------------------------------------------------

enum class GeomType { Plane, Hfield, Sphere, Capsule, Ellipsoid, Cylinder, Box, Mesh, Sdf, Unknown };
GeomType geomType(const std::string& name);
// Volume and the inertia per unit mass about the centre, in the geom frame (MuJoCo's compiler
// formulas; size as MuJoCo's: radii and half-lengths). nullopt for types without a formula here.
struct UnitInertia {
  double volume = 0;
  Eigen::Vector3d diagonalPerMass = Eigen::Vector3d::Zero();
};
std::optional<UnitInertia> primitiveInertia(GeomType type, const Eigen::Vector3d& size);

// A mesh geom's volume, centre and inertia per unit mass (about the centre, in the mesh's frame) by
// one of MuJoCo's rules (mjcf_mesh_inertia.cpp): volume is what the geom's density multiplies (a
// surface area for Shell). nullopt (and *error) when the mesh encloses no volume.
struct MeshInertia {
  double volume = 0;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertiaPerMass = Eigen::Matrix3d::Zero();
};
// Legacy2: MuJoCo 2.x's default (<compiler exactmeshinertia="false">, also 3.0-3.2): |tetrahedra|,
// the mass from the equivalent inertia box's volume. Exact: signed tetrahedra (exactmeshinertia="true",
// <mesh inertia="exact">). Legacy3: MuJoCo 3.3's <mesh inertia="legacy">: |tetrahedra|, their volume.
// Convex: the convex hull's solid (<mesh inertia="convex">). Shell: the surface (inertia="shell",
// <geom shellinertia="true">).
enum class MeshRule { Legacy2, Exact, Legacy3, Convex, Shell };
const char* meshRuleName(MeshRule rule);
std::optional<MeshInertia> meshInertia(std::vector<std::array<Eigen::Vector3d, 3>> triangles, MeshRule rule,
                                       std::string* error);
// The convex hull of points as outward-wound triangles; empty when they span no volume.
std::vector<std::array<Eigen::Vector3d, 3>> convexHull(const std::vector<Eigen::Vector3d>& points);

}  // namespace dyn::mjcf
