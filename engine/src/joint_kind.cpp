#include "dynscope/io/robot_description.hpp"

namespace dyn {

const char* jointKindName(JointKind kind) {
  switch (kind) {
    case JointKind::Revolute:
      return "revolute";
    case JointKind::Continuous:
      return "continuous";
    case JointKind::Prismatic:
      return "prismatic";
    case JointKind::Helical:
      return "helical";
    case JointKind::Fixed:
      return "fixed";
    case JointKind::Planar:
      return "planar";
    case JointKind::Spherical:
      return "spherical";
    case JointKind::Floating:
      return "floating";
  }
  return "unknown";
}

}  // namespace dyn
