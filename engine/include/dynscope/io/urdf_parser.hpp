// URDF reader (tinyxml2): links, joints, inertials, visual/collision geometry, materials.
// Unknown tags (transmission, gazebo, ...) are ignored, with a finding in RobotDescription::findings
// (one per kind of element: its first line and how many). Cosmetic defects (an undefined
// material, a negative effort or velocity, lower > upper, a parent `world` that no link defines)
// load with a finding too (docs/model-check.md). Errors throw LoadError naming the file, the line
// and the element; XML errors are said in words at the line to look at.
#pragma once
#include <string>

#include "load_error.hpp"
#include "robot_description.hpp"

namespace dyn {

RobotDescription parseUrdfFile(const std::string& path);
// sourceName is used in error messages (and to resolve relative mesh paths).
RobotDescription parseUrdfString(const std::string& xml, const std::string& sourceName = "<string>");

}  // namespace dyn
