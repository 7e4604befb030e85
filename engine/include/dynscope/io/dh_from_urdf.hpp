// A serial chain of revolute and prismatic joints (from a URDF or MJCF description) as a DH table,
// by the classic construction (Craig 2005 §3.4; docs/convert.md): the z axis of frame i on joint
// axis i, x_i along the common normal from axis i to axis i+1, then a, alpha, theta, d between
// successive frames. Special cases: parallel axes take the normal through the point where the
// previous x axis meets axis i (so d_i = 0); intersecting axes have a = 0 and x_i = z_i x z_{i+1};
// coincident axes keep the previous x; the last frame continues the previous x (theta_n = 0 at
// the zero pose). Frame 0 is the world when its x axis already is a common normal of the world z
// and axis 1 (the usual arm standing on the floor), else frame 1 at q = 0, placed by `base`.
// The joint variable maps as q_dh = q_urdf (z along the URDF axis, the zero-pose angle or offset
// in theta or d), so FK, inverse and forward dynamics agree. Fixed joints are merged: the
// inertials of every link fixed to a body are summed in its DH frame; the end link (the deepest
// link fixed to the last body) becomes the tool. Standard tables are derived from the modified
// one (toConvention).
#pragma once
#include <string>
#include <vector>

#include "dh_table.hpp"
#include "robot_description.hpp"

namespace dyn {

// Throws std::invalid_argument naming the joint that breaks a serial DH chain: a branch, a cycle
// or loop joint, a joint type a DH row cannot express (planar, spherical, floating, helical), a
// mimic relation or an armature (no DH key). `notes`, when given, receives what was approximated
// or left out (the ground's own inertia, axes taken as parallel, negative limits read as none).
DhTable dhTableFromDescription(const RobotDescription& robot, DhConvention convention,
                               std::vector<std::string>* notes = nullptr);

}  // namespace dyn
