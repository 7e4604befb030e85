// What the URDF reader reads and what it leaves: the elements of other tools (<transmission>,
// <gazebo>, ...), unknown or misspelt elements, repeats of elements read once, and missing or
// ignored joint limits, as findings. Private to the engine (urdf_parser.cpp calls it).
#pragma once
#include <tinyxml2.h>

#include "dynscope/io/robot_description.hpp"

namespace dyn {

// Appends to robot.findings, one finding per kind of ignored element (its first line and how many
// there are: a file with 40 <transmission> elements gets one note, not 40) and one per joint whose
// limits are missing or ignored.
void noteUnusedUrdfContent(const tinyxml2::XMLElement* root, RobotDescription& robot);

}  // namespace dyn
