#include "dynscope/io/robot_edit.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dyn {
namespace {

struct FieldInfo {
  EditField field;
  const char* name;
  int size;
  bool joint;
};

constexpr std::array<FieldInfo, 13> kFields{{
    {EditField::Mass, "mass", 1, false},
    {EditField::Com, "com", 3, false},
    {EditField::InertialRpy, "inertial_rpy", 3, false},
    {EditField::Inertia, "inertia", 6, false},
    {EditField::Kind, "kind", 1, true},
    {EditField::OriginXyz, "origin_xyz", 3, true},
    {EditField::OriginRpy, "origin_rpy", 3, true},
    {EditField::Axis, "axis", 3, true},
    {EditField::Limits, "limits", 2, true},
    {EditField::Velocity, "velocity", 1, true},
    {EditField::Effort, "effort", 1, true},
    {EditField::Damping, "damping", 1, true},
    {EditField::Friction, "friction", 1, true},
}};

const FieldInfo& info(EditField f) {
  for (const FieldInfo& i : kFields)
    if (i.field == f) return i;
  return kFields[0];
}

const LinkDesc* findLink(const RobotDescription& r, const std::string& name) {
  for (const LinkDesc& l : r.links)
    if (l.name == name) return &l;
  return nullptr;
}
const JointDesc* findJoint(const RobotDescription& r, const std::string& name) {
  for (const JointDesc& j : r.joints)
    if (j.name == name) return &j;
  return nullptr;
}

bool hasAxis(JointKind k) {
  return k == JointKind::Revolute || k == JointKind::Continuous || k == JointKind::Prismatic ||
         k == JointKind::Helical || k == JointKind::Planar;
}
bool hasLimits(JointKind k) { return k == JointKind::Revolute || k == JointKind::Prismatic || k == JointKind::Helical; }
bool oneDof(JointKind k) {
  return k == JointKind::Revolute || k == JointKind::Continuous || k == JointKind::Prismatic || k == JointKind::Helical;
}


std::string where(const RobotEdit& e) {
  return (e.joint ? "joint '" : "link '") + e.element + "' " + editFieldName(e.field);
}

}  // namespace

const char* editFieldName(EditField f) { return info(f).name; }
int editFieldSize(EditField f) { return info(f).size; }
bool isJointField(EditField f) { return info(f).joint; }

std::optional<EditField> editFieldByName(const std::string& name) {
  for (const FieldInfo& i : kFields)
    if (name == i.name) return i.field;
  return std::nullopt;
}

std::vector<double> currentValues(const RobotDescription& robot, bool joint, const std::string& element, EditField f) {
  if (joint != isJointField(f)) return {};
  if (!joint) {
    const LinkDesc* l = findLink(robot, element);
    if (!l) return {};
    const InertialDesc in = l->inertial.value_or(InertialDesc{});
    switch (f) {
      case EditField::Mass:
        return {in.mass};
      case EditField::Com:
        return {in.origin.xyz.x(), in.origin.xyz.y(), in.origin.xyz.z()};
      case EditField::InertialRpy:
        return {in.origin.rpy.x(), in.origin.rpy.y(), in.origin.rpy.z()};
      case EditField::Inertia:
        return {in.ixx, in.iyy, in.izz, in.ixy, in.ixz, in.iyz};
      default:
        return {};
    }
  }
  const JointDesc* j = findJoint(robot, element);
  if (!j) return {};
  constexpr double inf = std::numeric_limits<double>::infinity();
  switch (f) {
    case EditField::Kind:  // only between the kinds an edit may choose
      return oneDof(j->kind) || j->kind == JointKind::Fixed ? std::vector<double>{double(int(j->kind))}
                                                            : std::vector<double>{};
    case EditField::OriginXyz:
      return {j->origin.xyz.x(), j->origin.xyz.y(), j->origin.xyz.z()};
    case EditField::OriginRpy:
      return {j->origin.rpy.x(), j->origin.rpy.y(), j->origin.rpy.z()};
    case EditField::Axis:
      return hasAxis(j->kind) ? std::vector<double>{j->axis.x(), j->axis.y(), j->axis.z()} : std::vector<double>{};
    case EditField::Limits:
      if (!hasLimits(j->kind)) return {};
      return j->hasLimits ? std::vector<double>{j->lower, j->upper} : std::vector<double>{-inf, inf};
    case EditField::Velocity:
      return oneDof(j->kind) ? std::vector<double>{j->velocity} : std::vector<double>{};
    case EditField::Effort:
      return oneDof(j->kind) ? std::vector<double>{j->effort} : std::vector<double>{};
    case EditField::Damping:
      return j->kind != JointKind::Fixed ? std::vector<double>{j->damping} : std::vector<double>{};
    case EditField::Friction:
      return j->kind != JointKind::Fixed ? std::vector<double>{j->friction} : std::vector<double>{};
    default:
      return {};
  }
}

std::string checkEdit(const RobotDescription& robot, const RobotEdit& e) {
  if (e.joint != isJointField(e.field))
    return std::string(e.joint ? "a joint" : "a link") + " has no field '" + editFieldName(e.field) + "'";
  if (e.joint ? !findJoint(robot, e.element) : !findLink(robot, e.element))
    return std::string(e.joint ? "no joint named '" : "no link named '") + e.element + "'";
  if (int(e.values.size()) != editFieldSize(e.field))
    return where(e) + ": expected " + std::to_string(editFieldSize(e.field)) + " values, got " +
           std::to_string(e.values.size());
  const JointDesc* j = e.joint ? findJoint(robot, e.element) : nullptr;
  if (j && currentValues(robot, true, e.element, e.field).empty())
    return where(e) + ": a " + jointKindName(j->kind) + " joint has no such parameter";
  if (e.field == EditField::Kind) {
    const double k = e.values[0];
    const bool allowed = k == double(int(JointKind::Revolute)) || k == double(int(JointKind::Continuous)) ||
                         k == double(int(JointKind::Prismatic)) || k == double(int(JointKind::Fixed));
    if (!allowed) return where(e) + ": a joint can be made revolute, continuous, prismatic or fixed";
    if (j && j->mimic && JointKind(int(k)) == JointKind::Fixed)
      return where(e) + ": a mimic joint cannot be fixed (remove its <mimic> in the file first)";
    return {};
  }
  if (e.field == EditField::Limits) {
    const double lo = e.values[0], hi = e.values[1];
    if (std::isnan(lo) || std::isnan(hi)) return where(e) + ": not a number";
    if (std::isinf(lo) != std::isinf(hi) || (std::isinf(lo) && (lo > 0 || hi < 0)))
      return where(e) + ": give both limits, or neither (no limits)";
    if (lo > hi) return where(e) + ": the lower limit is above the upper one";
    return {};
  }
  for (double v : e.values)
    if (!std::isfinite(v)) return where(e) + ": not a finite number";
  switch (e.field) {
    case EditField::Mass:
      if (e.values[0] < 0) return where(e) + ": a mass cannot be negative";
      break;
    case EditField::Axis:
      if (std::hypot(e.values[0], e.values[1], e.values[2]) < 1e-12) return where(e) + ": the axis cannot be zero";
      break;
    case EditField::Velocity:
    case EditField::Effort:
    case EditField::Damping:
    case EditField::Friction:
      if (e.values[0] < 0) return where(e) + ": cannot be negative (0 means none)";
      break;
    default:
      break;
  }
  return {};
}

void applyEdit(RobotDescription& robot, const RobotEdit& e) {
  if (const std::string why = checkEdit(robot, e); !why.empty()) throw std::invalid_argument(why);
  const auto vec3 = [&] { return Vec3<double>(e.values[0], e.values[1], e.values[2]); };
  if (!e.joint) {
    LinkDesc& l = *const_cast<LinkDesc*>(findLink(robot, e.element));
    if (!l.inertial) l.inertial = InertialDesc{};  // an edited massless link gets an inertial
    InertialDesc& in = *l.inertial;
    switch (e.field) {
      case EditField::Mass:
        in.mass = e.values[0];
        break;
      case EditField::Com:
        in.origin.xyz = vec3();
        break;
      case EditField::InertialRpy:
        in.origin.rpy = vec3();
        break;
      case EditField::Inertia:
        in.ixx = e.values[0], in.iyy = e.values[1], in.izz = e.values[2];
        in.ixy = e.values[3], in.ixz = e.values[4], in.iyz = e.values[5];
        break;
      default:
        break;
    }
    return;
  }
  JointDesc& j = *const_cast<JointDesc*>(findJoint(robot, e.element));
  switch (e.field) {
    case EditField::Kind: {
      j.kind = JointKind(int(e.values[0]));
      // A revolute or prismatic joint needs limits to mean anything; without them a revolute one
      // turns freely (continuous) and a prismatic one slides freely (unlimited).
      if (j.kind == JointKind::Continuous) j.hasLimits = false;
      if (!hasAxis(j.kind) && j.kind != JointKind::Fixed) break;
      if (j.axis.norm() < 1e-12) j.axis = Vec3<double>(1, 0, 0);
      break;
    }
    case EditField::OriginXyz:
      j.origin.xyz = vec3();
      break;
    case EditField::OriginRpy:
      j.origin.rpy = vec3();
      break;
    case EditField::Axis:
      j.axis = vec3().normalized();
      break;
    case EditField::Limits:
      j.hasLimits = std::isfinite(e.values[0]);
      j.lower = j.hasLimits ? e.values[0] : 0;
      j.upper = j.hasLimits ? e.values[1] : 0;
      break;
    case EditField::Velocity:
      j.velocity = e.values[0];
      break;
    case EditField::Effort:
      j.effort = e.values[0];
      break;
    case EditField::Damping:
      j.damping = e.values[0];
      break;
    case EditField::Friction:
      j.friction = e.values[0];
      break;
    default:
      break;
  }
}

void applyEdits(RobotDescription& robot, const std::vector<RobotEdit>& edits) {
  for (const RobotEdit& e : edits) applyEdit(robot, e);
}

std::vector<RobotEdit> withEdit(std::vector<RobotEdit> edits, const RobotEdit& edit) {
  for (RobotEdit& e : edits)
    if (e.joint == edit.joint && e.element == edit.element && e.field == edit.field) {
      e.values = edit.values;
      return edits;
    }
  edits.push_back(edit);
  return edits;
}

}  // namespace dyn
