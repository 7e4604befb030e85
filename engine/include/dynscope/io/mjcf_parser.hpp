// MuJoCo MJCF reader (tinyxml2), following MuJoCo's documented compiler rules (docs/mjcf.md):
// bodies and their joints (hinge, slide, ball, free; several joints in one body become a chain of
// massless links), <inertial> or the inertia MuJoCo's compiler computes from the geoms, <default>
// classes and childclass, <compiler angle eulerseq meshdir autolimits inertiafromgeom>, geoms for
// the 3D view, joint armature and damping, actuators' force ranges as effort limits. Joint
// positions are MuJoCo's qpos (a hinge's `ref` is where the body is as written). What Dynscope does
// not read or cannot represent (tendons, contacts, sensors, unknown attributes) is a finding in
// RobotDescription::findings; errors throw LoadError with file, line and element.
#pragma once
#include <string>

#include "load_error.hpp"
#include "robot_description.hpp"

namespace dyn {

RobotDescription parseMjcfFile(const std::string& path);
// sourceName: for messages, and to resolve <include> and mesh paths relative to its folder.
RobotDescription parseMjcfString(const std::string& xml, const std::string& sourceName = "<string>");

// Is the root element of this XML text <mujoco>? (Cheap: looks at the first element name only.)
bool looksLikeMjcf(const std::string& xmlText);

}  // namespace dyn
