// Reader of Dynscope's DH table format (docs/dh-format.md): standard (Paul/Saha/Hollerbach)
// or modified (Craig) Denavit-Hartenberg rows, turned into a URDF-shaped RobotDescription.
#pragma once
#include <string>

#include "load_error.hpp"
#include "robot_description.hpp"

namespace dyn {

RobotDescription parseDhFile(const std::string& path);
RobotDescription parseDhString(const std::string& text, const std::string& sourceName = "<string>");

}  // namespace dyn
