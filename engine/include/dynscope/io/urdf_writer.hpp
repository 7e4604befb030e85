// URDF writer (tinyxml2): a RobotDescription as a URDF that parseUrdfString reads back to the same
// model (docs/convert.md). Links with inertials, visuals and collisions (materials by reference when
// a top-level material defines them), joints of every URDF kind with origin, axis, limits, dynamics
// and mimic, <dynscope:actuated/>, closed loops as <loop_joint> (docs/loops.md), a gravity other than
// the default as <dynscope:gravity xyz="..."/>, and extra frames (a DH table's tool, frame<i>) as
// massless links on fixed joints. A revolute joint without limits is written `continuous`.
// With the original URDF's text, the original document is edited in place: the modelled elements
// are rewritten, everything else (<gazebo>, <transmission>, comments, unknown children of robot,
// link and joint) stays as it was. Numbers are written in their shortest exact decimal form.
#pragma once
#include <string>
#include <vector>

#include "robot_description.hpp"

namespace dyn {

// The XML namespace of our URDF extensions (<dynscope:gravity>, <dynscope:actuated/>), declared on
// <robot> as xmlns:dynscope whenever one is written. A name, not a web address.
inline constexpr const char* kDynscopeNamespace = "urn:dynscope:urdf";

// Throws std::invalid_argument naming the joint URDF cannot express (helical), or when the
// original text is not a URDF.
std::string writeUrdf(const RobotDescription& robot, const std::string& originalUrdfText = "");

// Before writing the robot to `newFile`: mesh file names relative to the robot's source file
// (plain relative paths and file://relative) are rewritten relative to newFile's folder, so they
// still name the same files; package://, model:// and absolute ones stay. sourceFile becomes newFile.
void rebaseMeshPaths(RobotDescription& robot, const std::string& newFile);

// What a URDF does not keep of this description (MJCF armature, keyframes, the initial
// configuration qpos0), one sentence each; empty when nothing is lost.
std::vector<std::string> urdfLosses(const RobotDescription& robot);

}  // namespace dyn
