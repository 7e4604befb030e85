// Turns a RobotDescription into a Model: finds the root, numbers the bodies breadth-first
// so lambda(i) < i, merges fixed joints into their parent body (inertia and frames), and
// checks the physics (mass, inertia, NaN). Errors throw LoadError with file, line, element.
#pragma once
#include <string>

#include "../model/model.hpp"
#include "load_error.hpp"
#include "robot_description.hpp"

namespace dyn {

struct BuildOptions {
  bool floatingBase = false;  // add a 6-DOF free joint between the world and the root link
};

Model buildModel(const RobotDescription& robot, const BuildOptions& options = {});

// Loads a URDF (.urdf, .xml, or content starting with '<') or a DH table (.dh).
Model loadModel(const std::string& path, const BuildOptions& options = {});
RobotDescription loadDescription(const std::string& path);

}  // namespace dyn
