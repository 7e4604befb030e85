// Turns a RobotDescription into a Model: finds the root, numbers the bodies breadth-first
// so lambda(i) < i, merges fixed joints into their parent body (inertia and frames), and
// refuses what cannot be computed with (negative mass, NaN): LoadError with file, line, element.
// Implausible but usable values load; the model checker lists them in model.findings.
#pragma once
#include <string>
#include <vector>

#include "../model/model.hpp"
#include "fixups.hpp"
#include "load_error.hpp"
#include "robot_description.hpp"

namespace dyn {

struct BuildOptions {
  bool floatingBase = false;  // add a 6-DOF free joint between the world and the root link
  std::vector<Fixup> fixups;  // applied in this order to a copy of the description (fixups.hpp)
  bool check = true;          // fill model.findings with checkModel() (model_check.hpp)
};

Model buildModel(const RobotDescription& robot, const BuildOptions& options = {});

// Loads a URDF (.urdf, .xml, or content starting with '<'), a DH table (.dh) or a MuJoCo MJCF model
// (.xml or .mjcf whose root element is <mujoco>; mjcf_parser.hpp).
Model loadModel(const std::string& path, const BuildOptions& options = {});
RobotDescription loadDescription(const std::string& path);

}  // namespace dyn
