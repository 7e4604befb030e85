// A robot as the files describe it (URDF-shaped: links and joints by name, in file order),
// before it is numbered into a kinematic tree. Both loaders produce this; buildModel()
// turns it into a Model. Every element keeps its source line for error messages.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "../spatial/inertia.hpp"
#include "finding.hpp"

namespace dyn {

struct Pose {  // a frame relative to its parent: URDF <origin xyz rpy>
  Vec3<double> xyz = Vec3<double>::Zero();
  Vec3<double> rpy = Vec3<double>::Zero();
  Mat3<double> rotation() const { return rpyToMatrix(rpy.x(), rpy.y(), rpy.z()); }
  // The Plücker transform child_X_parent of the frame this pose places.
  Transform<double> transform() const { return Transform<double>::fromPose(rotation(), xyz); }
};

struct Material {
  std::string name;
  std::array<double, 4> rgba{0.7, 0.7, 0.7, 1.0};
  bool hasColor = false;
  std::string texture;
};
// Whether a material says anything (a colour or a texture), and whether two say the same.
inline bool definesMaterial(const Material& m) { return m.hasColor || !m.texture.empty(); }
inline bool sameMaterial(const Material& a, const Material& b) {
  return a.hasColor == b.hasColor && a.rgba == b.rgba && a.texture == b.texture;
}

struct Shape {
  enum class Kind { Box, Cylinder, Sphere, Mesh };
  Kind kind = Kind::Box;
  Vec3<double> size = Vec3<double>::Zero();  // box
  double radius = 0, length = 0;             // cylinder (along z), sphere
  std::string meshUri;                       // mesh filename as written (may be package://)
  Vec3<double> scale = Vec3<double>::Ones();
};

struct Geometry {
  std::string name;
  Pose origin;  // relative to the link frame
  Shape shape;
  Material material;
  int line = 0;
  int shapeLine = 0;  // the shape element (<mesh>, <box>, ...)
};

struct InertialDesc {
  Pose origin;  // frame of the COM and inertia axes, relative to the link frame
  double mass = 0;
  double ixx = 0, ixy = 0, ixz = 0, iyy = 0, iyz = 0, izz = 0;
  int line = 0;
  int inertiaLine = 0;  // the <inertia> element (URDF; a DH table's row line)
};

struct LinkDesc {
  std::string name;
  std::optional<InertialDesc> inertial;
  std::vector<Geometry> visuals, collisions;
  int line = 0;
};

enum class JointKind { Revolute, Continuous, Prismatic, Helical, Fixed, Planar, Spherical, Floating };
// "revolute", "continuous", "prismatic", "helical", "fixed", "planar", "spherical", "floating".
const char* jointKindName(JointKind kind);

struct JointDesc {
  std::string name;
  JointKind kind = JointKind::Fixed;
  std::string parent, child;  // link names
  Pose origin;                // joint frame relative to the parent link frame
  Vec3<double> axis = Vec3<double>(1, 0, 0);
  double pitch = 0;  // helical: translation per radian (m/rad)
  bool hasLimits = false;
  double lower = 0, upper = 0;      // position limits (single-DOF joints)
  double velocity = 0, effort = 0;  // 0 = not given
  int limitLine = 0;                // the <limit> element (URDF); 0 when there is none
  double damping = 0, friction = 0;
  double armature = 0;  // rotor inertia on H's diagonal, per dof (MJCF <joint armature>)
  // A joint spring (MJCF stiffness, springref; hinge and slide joints): tau = -stiffness (q - springref).
  double stiffness = 0, springref = 0;
  struct Mimic {
    std::string joint;  // the master (empty when the element names none: dropped with a warning)
    double multiplier = 1, offset = 0;
    int line = 0;  // the <mimic> element
  };
  std::optional<Mimic> mimic;
  bool actuated = false;  // marked <dynscope:actuated/> (or listed on a .dh `actuated` line)
  int line = 0;
};

// A loop-closure joint as the file writes it (docs/loops.md): a URDF <loop_joint> (Drake's form) or
// a .dh `loop` line. It makes a frame on link1 and a frame on link2 coincide up to the joint's motion.
struct LoopJointDesc {
  std::string name;
  JointKind kind = JointKind::Revolute;  // Revolute, Continuous, Prismatic, Fixed or Spherical
  std::string link1, link2;
  Pose origin1, origin2;                      // the joint frame in link1's and in link2's frame
  Vec3<double> axis = Vec3<double>(1, 0, 0);  // revolute/prismatic: in the joint frame (unit)
  int line = 0;
};

// Extra frames that are not links (e.g. a DH tool frame): a name, the link it is fixed to, a pose.
struct FrameDesc {
  std::string name, link;
  Pose origin;
  int line = 0;  // where the file defines it (0: not written, e.g. a default tool frame)
};

// A named configuration the file gives (MJCF <keyframe><key>): each joint's q entries by joint name
// (a quaternion as x y z w). buildModel turns it into a Model::NamedPose.
struct NamedPoseDesc {
  std::string name;
  std::vector<std::pair<std::string, std::vector<double>>> joints;
  int line = 0;
};

struct RobotDescription {
  std::string name;
  std::string sourceFile;  // for error messages and resolving relative mesh paths
  std::vector<LinkDesc> links;
  std::vector<JointDesc> joints;
  std::vector<FrameDesc> frames;
  std::vector<LoopJointDesc> loopJoints;  // explicit loop closures; cycles among `joints` are cut at build
  std::vector<Material> materials;        // top-level named materials
  Vec3<double> gravity = Vec3<double>(0, 0, -9.81);
  std::string defaultEndEffector;    // a suggested link for IK / --link defaults (may be empty)
  std::vector<NamedPoseDesc> poses;  // named configurations (MJCF keyframes)
  // The configuration the file describes when it is not the neutral one (MJCF: qpos0, a free body at
  // its written pose, a hinge or slide at its ref); the model starts there (Model::home()).
  std::optional<NamedPoseDesc> initialPose;
  // What the parser noticed without refusing the file (ignored elements, a missing <limit>, ...)
  // and the changes of the fix-ups applied to it; checkModel() starts its list with these.
  std::vector<Finding> findings;
};

}  // namespace dyn
