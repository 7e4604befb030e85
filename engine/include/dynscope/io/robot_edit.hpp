// Edits of a robot's parameters made in the window (issue 24): a list applied, in order, over the
// description read from the file, so that the file itself is never touched unless the user saves the
// robot. Each edit names its element (a link or a joint, by name), one field and the field's values
// in SI units and radians. checkEdit says why an edit cannot be applied ("" when it can); applyEdit
// applies it or throws std::invalid_argument with that reason. Refused: values that are not finite,
// a negative mass, velocity, effort, damping or friction, a zero axis, a lower limit above the upper
// one (or only one of them infinite), an unknown element, a field the element does not have. Physically implausible but
// usable values (an inertia that breaks the triangle inequality) are not refused: the model check reports them, as for
// a file.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "robot_description.hpp"

namespace dyn {

enum class EditField {
  // Link (its <inertial>; created when the link has none)
  Mass,         // 1 value, kg
  Com,          // 3: the inertial frame's origin in the link frame, m
  InertialRpy,  // 3: the inertial frame's orientation (URDF rpy), rad
  Inertia,      // 6: Ixx Iyy Izz Ixy Ixz Iyz about the COM in the inertial frame, kg m^2
  // Joint
  Kind,       // 1: the joint's type as a JointKind value (revolute, continuous, prismatic, fixed only:
              //    the kinds that keep the joint's frame and axis meaning); a joint made fixed merges its
              //    child into the parent body, as a fixed joint of the file would
  OriginXyz,  // 3: the joint frame in the parent link's frame, m
  OriginRpy,  // 3: rad
  Axis,       // 3: in the joint frame (normalised on apply)
  Limits,     // 2: lower, upper position limits, rad or m; both infinite = no limits (revolute, prismatic)
  Velocity,   // 1: rad/s or m/s, 0 = none
  Effort,     // 1: N m or N, 0 = none
  Damping,    // 1: N m s/rad or N s/m
  Friction,   // 1: N m or N
};

struct RobotEdit {
  bool joint = false;  // the element: a joint (else a link)
  std::string element;
  EditField field = EditField::Mass;
  std::vector<double> values;

  bool operator==(const RobotEdit&) const = default;
};

const char* editFieldName(EditField f);  // "mass", "com", ..., as in project files
std::optional<EditField> editFieldByName(const std::string& name);
int editFieldSize(EditField f);  // how many values the field takes
bool isJointField(EditField f);

// The field's current values in `robot` (what an editor shows before the first edit); empty when the
// element does not exist or does not have the field (a joint kind without an axis, ...).
std::vector<double> currentValues(const RobotDescription& robot, bool joint, const std::string& element, EditField f);

std::string checkEdit(const RobotDescription& robot, const RobotEdit& edit);
void applyEdit(RobotDescription& robot, const RobotEdit& edit);  // throws std::invalid_argument
void applyEdits(RobotDescription& robot, const std::vector<RobotEdit>& edits);

// `edits` with `edit` in it: replacing the edit of the same element and field (fields are
// independent, so the list stays one entry per field), else appended.
std::vector<RobotEdit> withEdit(std::vector<RobotEdit> edits, const RobotEdit& edit);

}  // namespace dyn
