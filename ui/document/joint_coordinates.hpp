// The coordinates a user edits to pose a robot, one per slider: single-DOF joints give their
// q entry; planar joints x, y, theta; spherical joints roll-pitch-yaw of their quaternion;
// floating joints x, y, z and roll-pitch-yaw. Shared by the joints dock, the document
// (zero/randomize within limits) and the tests.
#pragma once
#include <Eigen/Core>
#include <QString>
#include <vector>

#include "dynscope/model/model.hpp"

struct JointCoordinate {
  enum class Kind { Scalar, Roll, Pitch, Yaw };  // Scalar: q[qIndex]; RPY: of the quaternion at q[qIndex..+3]
  Kind kind = Kind::Scalar;
  int body = 0;    // body whose joint owns the coordinate
  int qIndex = 0;  // Scalar: the q entry; Roll/Pitch/Yaw: first entry of the quaternion (x y z w)
  QString jointName, jointType;
  QString label;  // "" for single-DOF joints, else "x", "roll", ...
  bool angular = true;
  bool wraps = false;           // continuous joints and roll/yaw: the value lives on a circle
  bool limited = false;         // lower/upper come from the model (else a default editing range); may be equal
  double lower = 0, upper = 0;  // SI units (rad, m)

  bool operator==(const JointCoordinate&) const = default;
};

std::vector<JointCoordinate> jointCoordinates(const dyn::Model& model);

// Angle in (-pi, pi].
double wrapAngle(double a);

// URDF roll-pitch-yaw (R = Rz Ry Rx) <-> the engine's quaternion layout (x y z w).
Eigen::Vector3d quaternionToRpy(const Eigen::Vector4d& xyzw);
Eigen::Vector4d rpyToQuaternion(const Eigen::Vector3d& rpy);

// The value of a coordinate in q (RPY coordinates read their quaternion).
double coordinateValue(const JointCoordinate& c, const Eigen::VectorXd& q);

// The dof (index into v) a coordinate moves: the row's own entry for 1-dof and planar joints; for
// spherical and floating joints, whose velocities are [w; v], roll/pitch/yaw take w and x/y/z take v.
int coordinateDof(const dyn::Model& m, const JointCoordinate& c);
